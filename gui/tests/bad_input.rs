//! Bad input on a real desktop, each a coded `test.driver.gui.*` failure with a one-line hint:
//! a program that never shows up on the accessibility bus (`xmessage`, an X program with no
//! AT-SPI), a modal dialog that appears mid-scenario (the observation shows it; a click or keys
//! to the window under it are `target_covered`), a program whose window closed under a step
//! (`window_gone`), variables inherited from the caller that switch a GTK3
//! program's accessibility off (removed), and a display number already taken (the desktop's
//! server picks another). A missing program, a missing Xvfb and a program that exits at once are
//! in `tests/desktop.rs`.

use a3s_test_gui::find::Query;
use a3s_test_gui::tree::{self, Limits};
use a3s_test_gui::{
    appear, Chord, Clicks, Desktop, DesktopOptions, Element, GuiCode, Program, ProgramExit,
    ProgramSpec,
};
use atspi::Role;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WITHIN: Duration = Duration::from_secs(10);

/// The bound for GTK3's file chooser to be built (seconds on a loaded machine).
const SLOW: Duration = Duration::from_secs(30);

/// The one element `query` matches, waiting until it appears.
async fn target(desktop: &Desktop, program: &Program, query: Query) -> Element {
    let (element, _) = appear::one(program.app(desktop.a11y()).await, &query, WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    element
}

/// The failure's message has exactly one hint, on its one line.
fn one_line_hint(error: &a3s_test_gui::GuiError) {
    let message = error.to_string();
    assert!(!message.contains('\n'), "{message}");
    assert_eq!(message.matches("hint: ").count(), 1, "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_x_program_without_accessibility_is_not_accessible_within_its_bound() {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let mut spec = ProgramSpec::new("xmessage", ["no accessibility here"]);
    spec.appear_within = Duration::from_millis(1500);
    let started = Instant::now();
    let error = desktop.start_program(&spec).await.unwrap_err();
    assert_eq!(error.code(), GuiCode::NotAccessible, "{error}");
    assert!(error.to_string().contains("`xmessage`"), "{error}");
    one_line_hint(&error);
    // The bound ended the wait, and the program's group was stopped with it.
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    let windows = desktop.input().unwrap().x11().top_windows().unwrap();
    assert!(
        windows.iter().all(|w| w.title != "xmessage"),
        "xmessage's window is gone: {windows:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_exits_at_once_reports_its_status_and_last_error_line() {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let spec = ProgramSpec::new("mousepad", ["--no-such-option"]);
    let error = desktop.start_program(&spec).await.unwrap_err();
    assert_eq!(error.code(), GuiCode::ExitedEarly, "{error}");
    assert!(
        matches!(
            error,
            a3s_test_gui::GuiError::ExitedEarly {
                exit: ProgramExit::Code(1),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("no-such-option"), "{error}");
    one_line_hint(&error);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_modal_dialog_mid_scenario_shows_in_the_tree_and_covers_the_window_under_it() {
    let folder = tempfile::tempdir().unwrap();
    let mut spec = ProgramSpec::new("mousepad", Vec::<String>::new());
    spec.cwd = Some(folder.path().to_owned());
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let program = desktop.start_program(&spec).await.unwrap();
    let input = desktop.input().unwrap();
    let a11y = desktop.a11y();
    let text = target(&desktop, &program, Query::role("text", None).unwrap()).await;
    input.click(&program, &text, Clicks::Single).await.unwrap();

    // Ctrl+S: the save dialog, modal, a second top-level window of the same process.
    input
        .press(&program, &text, &Chord::parse("ctrl+s").unwrap())
        .await
        .unwrap();
    let (name, _) = appear::one(program.app(a11y).await, &Query::Label("Name:".into()), SLOW)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // The observation (GTK3 is walked: its cache is not kept whole).
    let read = tree::read(a11y, program.bus_name(), Limits::default())
        .await
        .unwrap();
    let windows: Vec<_> = read.nodes.iter().filter(|n| n.depth == 1).collect();
    assert!(
        windows
            .iter()
            .any(|n| matches!(n.role, Role::Dialog | Role::FileChooser)),
        "the observation shows the dialog: {windows:?}"
    );

    // A click on the document under it is refused, naming the dialog; so are keys.
    let covered = input
        .click(&program, &text, Clicks::Single)
        .await
        .unwrap_err();
    assert_eq!(covered.code(), GuiCode::TargetCovered, "{covered}");
    one_line_hint(&covered);
    let keys = input.type_text(&program, &text, "x").await.unwrap_err();
    assert_eq!(keys.code(), GuiCode::TargetCovered, "{keys}");

    assert!(covered.to_string().contains("Save As"), "{covered}");
    assert_eq!(program.exit(), None);
    drop(name);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_after_the_program_exited_is_window_gone() {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let spec = ProgramSpec::new("yad", ["--form", "--field=Name"]);
    let program = desktop.start_program(&spec).await.unwrap();
    let input = desktop.input().unwrap();
    let field = target(&desktop, &program, Query::Label("Name".into())).await;
    let ok = target(
        &desktop,
        &program,
        Query::role("button", Some("OK")).unwrap(),
    )
    .await;
    input.click(&program, &ok, Clicks::Single).await.unwrap();
    assert_eq!(program.exited(WITHIN).await, Some(ProgramExit::Code(0)));

    let gone = input
        .click(&program, &field, Clicks::Single)
        .await
        .unwrap_err();
    assert_eq!(gone.code(), GuiCode::WindowGone, "{gone}");
    one_line_hint(&gone);
    let gone = input.type_text(&program, &field, "x").await.unwrap_err();
    assert_eq!(gone.code(), GuiCode::WindowGone, "{gone}");
}

/// Run the owner helper with `program` and extra variables in its environment; its first line.
fn helper_line(program: &[&str], env: &[(&str, &str)]) -> String {
    let mut helper = Command::new(env!("CARGO_BIN_EXE_a3s-test-gui-owner-helper"));
    helper
        .args(program)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = helper.spawn().expect("the helper starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(Duration::from_secs(60));
    // Closing its input ends it (it stops its desktop); a kill ends it if it does not.
    drop(child.stdin.take());
    let until = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() && Instant::now() < until {
        std::thread::yield_now();
    }
    let _ = child.kill();
    let _ = child.wait();
    line.expect("the helper reports within 60 s")
}

#[test]
fn accessibility_switched_off_by_the_callers_environment_is_switched_back_on() {
    // GTK3 reads NO_AT_BRIDGE, GTK4 GTK_A11Y: inherited, both are removed for the program.
    let yad = helper_line(
        &["yad", "--form", "--field=Name"],
        &[("NO_AT_BRIDGE", "1"), ("GTK_A11Y", "none")],
    );
    assert!(yad.starts_with("GROUPS="), "{yad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_variable_given_for_the_program_itself_does_switch_it_off() {
    // The counterpart of the test above: the variable matters, so its removal is what made
    // yad appear there.
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let mut spec = ProgramSpec::new("yad", ["--form", "--field=Name"]);
    spec.env = vec![("NO_AT_BRIDGE".into(), "1".into())];
    spec.appear_within = Duration::from_millis(2000);
    let error = desktop.start_program(&spec).await.unwrap_err();
    assert_eq!(error.code(), GuiCode::NotAccessible, "{error}");
}

/// An X server this test owns, ended through its handle.
struct OwnServer(std::process::Child);

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_display_number_already_taken_is_left_alone_and_the_desktop_gets_another() {
    // The test's own server takes the lowest free display (the one `-displayfd` would pick
    // first), then the desktop starts.
    let (reader, writer) = std::io::pipe().unwrap();
    let server = OwnServer(
        Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-nolisten",
                "tcp",
                "-screen",
                "0",
                "320x200x24",
            ])
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb (xvfb) is installed"),
    );
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(reader).read_line(&mut line);
        let _ = tx.send(line);
    });
    let taken = rx
        .recv_timeout(WITHIN)
        .expect("the test's Xvfb reports its display");
    let taken = format!(":{}", taken.trim());

    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    assert_ne!(desktop.display(), taken);
    // The test's server still answers on its display, untouched.
    let (conn, screen) = x11rb::connect(Some(&taken)).expect("the taken display still answers");
    use x11rb::connection::Connection as _;
    assert_eq!(conn.setup().roots[screen].width_in_pixels, 320);
    assert!(desktop.shutdown());
    drop(conn);
    drop(server);
}
