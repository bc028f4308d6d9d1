//! Real input and evidence on a real program: `gnome-calculator` (GTK4) computes 7 × 6 = 42 by
//! XTest clicks on its buttons (found by role and name) and again by XTest keys, read back from
//! its display; a click on a covered button is refused with what covers it and nothing sent;
//! screenshots are PNGs of the right size that show something. The figures printed here
//! (`--nocapture`) are in `docs/gui.md` and `docs/benchmarks.md`.

use a3s_test_gui::find::{self, Query};
use a3s_test_gui::tree::{self, Limits};
use a3s_test_gui::wait::{self, Condition, TextMatch};
use a3s_test_gui::{
    screenshot, Chord, Clicks, Desktop, DesktopOptions, Element, GuiCode, Input, InputPath,
    Program, ProgramSpec,
};
use atspi::State;
use std::time::{Duration, Instant};

const WITHIN: Duration = Duration::from_secs(10);

/// A desktop with gnome-calculator on it, and input on that desktop.
async fn calculator() -> (Desktop, Program, Input) {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let program = desktop
        .start_program(&ProgramSpec::new("gnome-calculator", Vec::<String>::new()))
        .await
        .unwrap();
    let input = desktop.input().unwrap();
    (desktop, program, input)
}

/// The calculator's editable display (its one editable text box).
async fn display(desktop: &Desktop, program: &Program) -> Element {
    let boxes = find::all(
        program.app(desktop.a11y()).await,
        &Query::role("textbox", None).unwrap(),
    )
    .await
    .unwrap();
    let mut editable = Vec::new();
    for candidate in boxes {
        let states = candidate.read_states(desktop.a11y()).await.unwrap();
        if states.contains(State::Editable) && !states.contains(State::ReadOnly) {
            editable.push(candidate);
        }
    }
    assert_eq!(editable.len(), 1, "one editable display: {editable:?}");
    editable.remove(0)
}

/// Wait until the display shows `text`.
async fn shows(desktop: &Desktop, display: &Element, text: &str) -> wait::Waited {
    let condition = Condition::Text(TextMatch::Exact(text.into()));
    wait::until(desktop.a11y(), display, &condition, WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seven_times_six_is_42_by_real_clicks_on_buttons_found_by_role_and_name() {
    let (desktop, program, input) = calculator().await;
    let a11y = desktop.a11y();

    let reading = Instant::now();
    let tree = tree::read(a11y, program.bus_name(), Limits::default())
        .await
        .unwrap();
    eprintln!(
        "full tree read: {} nodes in {:?}",
        tree.nodes.len(),
        reading.elapsed()
    );
    assert!(tree.complete);

    let display = display(&desktop, &program).await;
    let mut latencies = Vec::new();
    // `×` shows as `×` in the display; `=` replaces the expression with its result.
    for (button, after) in [("7", "7"), ("×", "7×"), ("6", "7×6"), ("=", "42")] {
        let finding = Instant::now();
        let query = Query::role("button", Some(button)).unwrap();
        let element = find::one(program.app(a11y).await, &query).await.unwrap();
        let found_in = finding.elapsed();
        let clicked = Instant::now();
        let acted = input
            .click(&program, &element, Clicks::Single)
            .await
            .unwrap();
        let seen = shows(&desktop, &display, after).await;
        // From the moment the server had handled the click's events to the change seen.
        let latency = clicked.elapsed().saturating_sub(acted.took);
        eprintln!(
            "{button}: found in {found_in:?}; located, hit-tested and sent in {:?}; \
             change seen {latency:?} later ({} reads, {} events)",
            acted.took, seen.reads, seen.events
        );
        assert_eq!(acted.path, InputPath::XTest);
        let hit = acted.hit.expect("a click is hit-tested");
        assert!(hit.bounds.contains(hit.x, hit.y));
        latencies.push(latency);
    }
    // A double click on a digit after the result: a new expression of that digit twice.
    let one = find::one(
        program.app(a11y).await,
        &Query::role("button", Some("1")).unwrap(),
    )
    .await
    .unwrap();
    let acted = input.click(&program, &one, Clicks::Double).await.unwrap();
    assert_eq!(acted.path, InputPath::XTest);
    shows(&desktop, &display, "11").await;

    latencies.sort();
    eprintln!(
        "click → change seen, p50 {:?}",
        latencies[latencies.len() / 2]
    );
    assert_eq!(program.exit(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seven_times_six_is_42_by_real_keys_and_chords_replace_it() {
    let (desktop, program, input) = calculator().await;
    let display = display(&desktop, &program).await;

    let typed = input.type_text(&program, &display, "7*6").await.unwrap();
    assert_eq!(typed.path, InputPath::XTest);
    shows(&desktop, &display, "7×6").await;
    input
        .press(&program, &display, &Chord::parse("Return").unwrap())
        .await
        .unwrap();
    shows(&desktop, &display, "42").await;

    // A chord: select everything, then a key replaces it.
    input
        .press(&program, &display, &Chord::parse("ctrl+a").unwrap())
        .await
        .unwrap();
    input.type_text(&program, &display, "9").await.unwrap();
    shows(&desktop, &display, "9").await;

    // A character no key types is refused before anything is sent.
    let error = input.type_text(&program, &display, "1☃").await.unwrap_err();
    assert_eq!(error.code(), GuiCode::KeyUnmapped, "{error}");
    input.type_text(&program, &display, "2").await.unwrap();
    shows(&desktop, &display, "92").await;
}

/// A child this test started, ended through its handle when the test ends or panics.
struct Cover(std::process::Child);

impl Cover {
    /// End it now and reap it.
    fn end(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Cover {
    fn drop(&mut self) {
        self.end();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_covered_button_is_refused_naming_what_covers_it_and_nothing_is_sent() {
    let (desktop, program, input) = calculator().await;
    let a11y = desktop.a11y();
    let display = display(&desktop, &program).await;
    let seven = find::one(
        program.app(a11y).await,
        &Query::role("button", Some("7")).unwrap(),
    )
    .await
    .unwrap();
    let placement = input.locate(&program, &seven).await.unwrap();
    let bounds = placement.to_screen(seven.extents(a11y).await.unwrap());
    let (cx, cy) = bounds.centre();

    // Another program's window over the `7` button's centre (started by this test, ended
    // through its own handle, on a panic too).
    let mut cover = Cover(
        std::process::Command::new("xmessage")
            .args([
                "-geometry",
                &format!("60x40+{}+{}", cx - 30, cy - 20),
                "cover",
            ])
            .env("DISPLAY", desktop.display())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("xmessage (x11-utils) is installed"),
    );
    let started = Instant::now();
    let covered = loop {
        let windows = input.x11().top_windows().unwrap();
        if windows
            .iter()
            .any(|w| w.title == "xmessage" && w.contains(cx, cy))
        {
            break true;
        }
        if started.elapsed() > WITHIN {
            break false;
        }
        tokio::task::yield_now().await;
    };
    assert!(covered, "the xmessage window appeared over the button");

    let error = input
        .click(&program, &seven, Clicks::Single)
        .await
        .unwrap_err();
    assert_eq!(error.code(), GuiCode::TargetCovered, "{error}");
    assert!(error.to_string().contains("xmessage"), "{error}");

    // Nothing was sent: the next click's digit is the display's first.
    let eight = find::one(
        program.app(a11y).await,
        &Query::role("button", Some("8")).unwrap(),
    )
    .await
    .unwrap();
    input.click(&program, &eight, Clicks::Single).await.unwrap();
    shows(&desktop, &display, "8").await;

    cover.end();
    // Uncovered now: the same click goes through.
    let again = loop {
        match input.click(&program, &seven, Clicks::Single).await {
            Err(e) if e.code() == GuiCode::TargetCovered && started.elapsed() < WITHIN => {
                tokio::task::yield_now().await
            }
            other => break other,
        }
    };
    again.unwrap();
    shows(&desktop, &display, "87").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn screenshots_are_pngs_of_the_screen_and_the_window_that_show_something() {
    let (desktop, program, input) = calculator().await;
    let display = display(&desktop, &program).await;
    let placement = input.locate(&program, &display).await.unwrap();

    let screen = screenshot::screen(input.x11()).unwrap();
    eprintln!(
        "screen 1280×800 as PNG in {:?}, {} bytes",
        screen.took,
        screen.png.len()
    );
    assert_eq!((screen.width, screen.height), (1280, 800));
    let (width, height, distinct) = decode(&screen.png);
    assert_eq!((width, height), (1280, 800));
    assert!(
        distinct > 2,
        "the screen shows the window: {distinct} colours"
    );

    let window = screenshot::window(input.x11(), placement.window.id).unwrap();
    eprintln!(
        "window {}×{} as PNG in {:?}",
        window.width, window.height, window.took
    );
    let (w, h, distinct) = decode(&window.png);
    assert_eq!(
        (w as i32, h as i32),
        (placement.window.width, placement.window.height)
    );
    assert!(
        distinct > 2,
        "the window shows its buttons: {distinct} colours"
    );
}

/// Width, height and number of distinct colours of a PNG.
fn decode(png_bytes: &[u8]) -> (u32, u32, usize) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let colours: std::collections::HashSet<&[u8]> =
        pixels[..info.buffer_size()].chunks(3).collect();
    (info.width, info.height, colours.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_and_ambiguous_targets_list_candidates_and_a_wait_names_the_last_value() {
    let (desktop, program, _input) = calculator().await;
    let a11y = desktop.a11y();
    let missing = find::one(
        program.app(a11y).await,
        &Query::role("button", Some("Z")).unwrap(),
    )
    .await
    .unwrap_err();
    assert_eq!(missing.code(), GuiCode::TargetNotFound, "{missing}");
    assert!(missing.to_string().contains("button \"7 7\""), "{missing}");

    let several = find::one(
        program.app(a11y).await,
        &Query::role("button", None).unwrap(),
    )
    .await
    .unwrap_err();
    assert_eq!(several.code(), GuiCode::TargetAmbiguous, "{several}");

    let label = find::one(program.app(a11y).await, &Query::Label("7".into()))
        .await
        .unwrap();
    assert_eq!(
        label.role,
        atspi::Role::Button,
        "the 7 button is labelled `7`"
    );

    let display = display(&desktop, &program).await;
    let started = Instant::now();
    let condition = Condition::Text(TextMatch::Exact("never".into()));
    let timeout = wait::until(a11y, &display, &condition, Duration::from_millis(300))
        .await
        .unwrap_err();
    assert_eq!(timeout.code(), GuiCode::WaitTimeout, "{timeout}");
    assert!(
        timeout.to_string().contains("last value seen was \"\""),
        "{timeout}"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bulk_read_sees_the_tree_the_walk_sees_in_one_call() {
    let (desktop, program, _input) = calculator().await;
    let a11y = desktop.a11y();
    // The bulk read first: it must not depend on a walk having made the program export
    // its objects.
    let bulk_read = async || {
        let toolkit = program.toolkit(a11y).await;
        tree::read_bulk(a11y, program.bus_name(), toolkit, Limits::default())
            .await
            .unwrap()
            .expect("GTK4 has the cache interface")
    };
    let reading = Instant::now();
    let bulk = bulk_read().await;
    let bulk_in = reading.elapsed();
    let walking = Instant::now();
    let walked = tree::read(a11y, program.bus_name(), Limits::default())
        .await
        .unwrap();
    let walked_in = walking.elapsed();
    let again = Instant::now();
    let second = bulk_read().await;
    eprintln!(
        "walk: {} nodes in {walked_in:?}; bulk: {} nodes in {bulk_in:?} (fresh program), \
         {} in {:?} (again)",
        walked.nodes.len(),
        bulk.nodes.len(),
        second.nodes.len(),
        again.elapsed()
    );
    assert!(bulk.complete && second.complete);
    let key = |n: &tree::Node| (n.path.clone(), n.role as u32, n.name.clone(), n.depth);
    let mut walked: Vec<_> = walked.nodes.iter().map(key).collect();
    let mut bulk: Vec<_> = bulk.nodes.iter().map(key).collect();
    walked.sort();
    bulk.sort();
    assert_eq!(bulk, walked);
}
