//! The owned desktop and a program on it, end to end with real programs: Xvfb, a private session
//! bus, the accessibility bus and registry, and `gnome-calculator` (GTK4) found on the bus with
//! its digit buttons — then nothing of either survives its stop or drop, checked by pid and
//! start time in `/proc`, never by name.

use a3s_test_driver::process::{live_group_members, start_time};
use a3s_test_gui::tree::{self, Limits};
use a3s_test_gui::{Desktop, DesktopOptions, GuiCode, GuiError, ProgramExit, ProgramSpec};
use atspi::Role;

/// Every live process of these pids, as (pid, start time): identifies each across pid reuse.
fn identities(pids: &[u32]) -> Vec<(u32, u64)> {
    pids.iter()
        .filter_map(|&pid| start_time(pid).map(|start| (pid, start)))
        .collect()
}

/// The identities still alive (same pid, same start time, not a zombie).
fn survivors(of: &[(u32, u64)]) -> Vec<(u32, u64)> {
    of.iter()
        .copied()
        .filter(|&(pid, start)| a3s_test_driver::child::is_alive(pid, start))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gnome_calculator_appears_on_the_owned_desktop_with_its_digit_buttons_and_nothing_survives_the_stop(
) {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    eprintln!("desktop started in {:?}", desktop.started_in());
    assert!(desktop.display().starts_with(':'), "{}", desktop.display());

    // Every desktop process is in the group, and so is the bus the launcher started itself.
    let desktop_pids = desktop.live();
    for (part, pid) in desktop.members() {
        assert!(
            desktop_pids.contains(pid),
            "{part} ({pid}) is not in the group"
        );
    }
    let direct: Vec<u32> = desktop.members().iter().map(|(_, pid)| *pid).collect();
    let others = desktop_pids
        .iter()
        .filter(|pid| !direct.contains(pid) && **pid != desktop.pgid())
        .count();
    // The one process started by another: the accessibility bus's own daemon. Nothing else was
    // auto-started (no second launcher, no `dconf-service`).
    assert_eq!(
        others,
        1,
        "only the accessibility bus's own daemon joins the group: {:?}",
        commands(&desktop_pids)
    );
    assert_eq!(root_property(desktop.display()), desktop.a11y_bus());

    let calculator = desktop
        .start_program(&ProgramSpec::new("gnome-calculator", Vec::<String>::new()))
        .await
        .unwrap();
    eprintln!(
        "gnome-calculator on the bus after {:?}",
        calculator.appeared_in()
    );
    assert!(calculator.bus_name().starts_with(':'));
    assert!(calculator.exit().is_none());

    let reading = std::time::Instant::now();
    let tree = tree::read(desktop.a11y(), calculator.bus_name(), Limits::default())
        .await
        .unwrap();
    eprintln!("{} nodes read in {:?}", tree.nodes.len(), reading.elapsed());
    assert!(tree.complete, "{} nodes, cut short", tree.nodes.len());
    assert_eq!(tree.nodes[0].role, Role::Application);
    // GTK 4.8 names the digit button `7 7` (its label twice); newer GTK names it `7`.
    let seven: Vec<_> = tree
        .nodes
        .iter()
        .filter(|n| n.role == Role::Button && n.name.split_whitespace().all(|w| w == "7"))
        .filter(|n| !n.name.is_empty())
        .collect();
    assert_eq!(seven.len(), 1, "one `7` button in {:#?}", tree.nodes);

    let program_pids = identities(&calculator.live());
    assert!(program_pids.iter().any(|&(pid, _)| pid == calculator.pid()));
    let program_pgid = calculator.pgid();
    assert!(calculator.stop(), "the calculator's group is gone");
    assert_eq!(survivors(&program_pids), vec![]);
    assert_eq!(live_group_members(program_pgid), Vec::<u32>::new());

    let desktop_ids = identities(&desktop_pids);
    let pgid = desktop.pgid();
    let dir = desktop.dir().to_owned();
    assert!(desktop.shutdown(), "the desktop's group is gone");
    assert_eq!(survivors(&desktop_ids), vec![]);
    assert_eq!(live_group_members(pgid), Vec::<u32>::new());
    assert!(!dir.exists(), "the private folder is removed");
}

/// Each pid's command line, for a failure message.
fn commands(pids: &[u32]) -> Vec<String> {
    pids.iter()
        .map(|pid| {
            let line = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            format!(
                "{pid}: {}",
                String::from_utf8_lossy(&line).replace('\0', " ")
            )
        })
        .collect()
}

/// The root window's `AT_SPI_BUS` property, read back from the X server.
fn root_property(display: &str) -> String {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};
    let (conn, screen) = x11rb::connect(Some(display)).unwrap();
    let root = conn.setup().roots[screen].root;
    let atom = conn
        .intern_atom(true, b"AT_SPI_BUS")
        .unwrap()
        .reply()
        .unwrap()
        .atom;
    let value = conn
        .get_property(false, root, atom, AtomEnum::STRING, 0, 4096)
        .unwrap()
        .reply()
        .unwrap()
        .value;
    String::from_utf8(value).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_desktops_at_once_get_their_own_displays_and_buses() {
    let options = DesktopOptions::default();
    let (one, two) = tokio::join!(Desktop::start(&options), Desktop::start(&options));
    let (one, two) = (one.unwrap(), two.unwrap());
    assert_ne!(one.display(), two.display());
    assert_ne!(one.session_bus(), two.session_bus());
    assert_ne!(one.a11y_bus(), two.a11y_bus());
    assert!(one.shutdown() && two.shutdown());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_desktop_and_program_leave_no_process() {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let calculator = desktop
        .start_program(&ProgramSpec::new("gnome-calculator", Vec::<String>::new()))
        .await
        .unwrap();
    let all = identities(&[desktop.live(), calculator.live()].concat());
    let groups = [desktop.pgid(), calculator.pgid()];
    // The desktop goes first: the program loses its display and bus, and is still stopped.
    drop(desktop);
    drop(calculator);
    assert_eq!(survivors(&all), vec![]);
    for pgid in groups {
        assert_eq!(live_group_members(pgid), Vec::<u32>::new());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_that_do_not_exist_exit_at_once_or_never_register_are_coded_errors() {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();

    let missing = desktop
        .start_program(&ProgramSpec::new("/nonexistent/a3s-gui-program", ["x"]))
        .await
        .unwrap_err();
    assert_eq!(missing.code(), GuiCode::ProgramNotFound, "{missing}");
    assert!(missing.to_string().contains("/nonexistent/a3s-gui-program"));

    let mut quits = ProgramSpec::new("sh", ["-c", "exit 3"]);
    quits.appear_within = std::time::Duration::from_secs(30);
    let started = std::time::Instant::now();
    let early = desktop.start_program(&quits).await.unwrap_err();
    assert_eq!(early.code(), GuiCode::ExitedEarly, "{early}");
    assert!(
        matches!(
            early,
            GuiError::ExitedEarly {
                exit: ProgramExit::Code(3),
                ..
            }
        ),
        "{early:?}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the exit ends the wait, not the deadline: {:?}",
        started.elapsed()
    );

    // A program that runs but never registers: the bounded wait ends with its own code.
    let mut silent = ProgramSpec::new("sleep", ["30"]);
    silent.appear_within = std::time::Duration::from_millis(500);
    let started = std::time::Instant::now();
    let never = desktop.start_program(&silent).await.unwrap_err();
    assert_eq!(never.code(), GuiCode::NotAccessible, "{never}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));

    let mut nowhere = ProgramSpec::new("gnome-calculator", Vec::<String>::new());
    nowhere.cwd = Some("/nonexistent/folder".into());
    let cwd = desktop.start_program(&nowhere).await.unwrap_err();
    assert_eq!(cwd.code(), GuiCode::WorkingDirectory, "{cwd}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_x_server_names_its_debian_package() {
    let options = DesktopOptions {
        xvfb: "/nonexistent/Xvfb".into(),
        ..DesktopOptions::default()
    };
    let error = Desktop::start(&options).await.unwrap_err();
    assert_eq!(error.code(), GuiCode::DesktopMissing, "{error}");
    assert!(error.to_string().contains("`xvfb`"), "{error}");

    let options = DesktopOptions {
        bus_launcher: "/nonexistent/at-spi-bus-launcher".into(),
        ..DesktopOptions::default()
    };
    let error = Desktop::start(&options).await.unwrap_err();
    assert_eq!(error.code(), GuiCode::DesktopMissing, "{error}");
    assert!(error.to_string().contains("`at-spi2-core`"), "{error}");
}
