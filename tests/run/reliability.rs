//! Real-process reliability: a killed browser, a scenario deadline and Ctrl+C each end the run
//! with the right exit code, promptly, and leave none of the processes it started behind.

use crate::harness::{
    assert_none_left, finish, spawn_run, wait_for_browser, wait_for_request, workdir, FixtureServer,
};
use a3s_test_runner::process_tree::descendants;
use std::io::{BufRead, BufReader};
use std::time::Duration;

const HOLD: &str = r#"
suite "hold" {
    scenario "waits" {
        surface = "web"
        timeout_ms = 60000
        navigate "open" { url = "/delayed.html" }
        navigate "stuck" { url = "/hang" }
    }
    scenario "later" {
        surface = "web"
        navigate "open" { url = "/" }
    }
}
"#;

const STUCK_TIMEOUT: &str = r#"
suite "deadline" {
    scenario "stuck" {
        surface = "web"
        timeout_ms = 1500
        navigate "stuck" { url = "/hang" }
    }
}
"#;

/// Start a run of `suite` and return it once the browser is up and has asked for `/hang`,
/// with every process the run has started by then.
fn started(
    suite: &str,
    server: &FixtureServer,
) -> (
    std::process::Child,
    Vec<a3s_test_runner::process_tree::ProcessInfo>,
    i32,
    tempfile::TempDir,
) {
    started_with(&[("hold.acl", suite)], server)
}

/// [`started`] in a working folder with these files (`hold.acl` among them).
fn started_with(
    files: &[(&str, &str)],
    server: &FixtureServer,
) -> (
    std::process::Child,
    Vec<a3s_test_runner::process_tree::ProcessInfo>,
    i32,
    tempfile::TempDir,
) {
    let work = workdir(files);
    let requests = server.watch();
    let child = spawn_run(
        &["hold.acl", "--jobs", "1", "--base-url", &server.base_url],
        work.path(),
    );
    let pid = child.id() as i32;
    let browser = wait_for_browser(pid, Duration::from_secs(30));
    wait_for_request(&requests, "/hang", Duration::from_secs(30));
    let tree = descendants(pid);
    assert!(
        tree.iter()
            .any(|p| p.pid == browser.pid && p.start_time == browser.start_time),
        "the browser is still in the run's tree: {browser:?} {tree:?}"
    );
    (child, tree, browser.pgid, work)
}

#[test]
fn a_browser_killed_mid_run_is_an_infrastructure_failure_with_exit_2() {
    let server = FixtureServer::start();
    let (child, tree, pgid, _work) = started(HOLD, &server);
    let browser = tree.iter().find(|p| p.pid == pgid).unwrap();
    a3s_test_runner::process_tree::signal(browser.pid, a3s_test_runner::process_tree::Signal::KILL);
    let done = finish(child, Duration::from_secs(30));
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    assert!(
        done.stdout.contains("test.driver.web.browser_crashed"),
        "{}",
        done.stdout
    );
    assert!(
        done.elapsed < Duration::from_secs(20),
        "no hang: {:?}",
        done.elapsed
    );
    assert_none_left(&tree, pgid);
}

#[test]
fn a_scenario_deadline_exits_124_after_cleanup() {
    let server = FixtureServer::start();
    let (child, tree, pgid, _work) = started(STUCK_TIMEOUT, &server);
    let done = finish(child, Duration::from_secs(30));
    assert_eq!(done.code, 124, "{}\n{}", done.stdout, done.stderr);
    assert!(
        done.stdout.contains("TIMEOUT") && done.stdout.contains("test.run.timeout"),
        "{}",
        done.stdout
    );
    assert_none_left(&tree, pgid);
}

#[test]
fn ctrl_c_cancels_with_exit_130_and_cleans_up() {
    let server = FixtureServer::start();
    let (child, tree, pgid, _work) = started(HOLD, &server);
    a3s_test_runner::process_tree::signal(
        child.id() as i32,
        a3s_test_runner::process_tree::Signal::INT,
    );
    let done = finish(child, Duration::from_secs(30));
    assert_eq!(done.code, 130, "{}\n{}", done.stdout, done.stderr);
    assert!(done.stdout.contains("Cancelling"), "{}", done.stdout);
    assert!(done.stdout.contains("CANCEL"), "{}", done.stdout);
    assert!(
        done.elapsed < Duration::from_secs(15),
        "bounded cleanup: {:?}",
        done.elapsed
    );
    assert_none_left(&tree, pgid);
}

#[test]
fn a_closed_terminal_sighup_gets_the_same_cleanup_as_ctrl_c() {
    let server = FixtureServer::start();
    let (child, tree, pgid, _work) = started(HOLD, &server);
    a3s_test_runner::process_tree::signal(
        child.id() as i32,
        a3s_test_runner::process_tree::Signal::HUP,
    );
    let done = finish(child, Duration::from_secs(30));
    assert_eq!(done.code, 130, "{}\n{}", done.stdout, done.stderr);
    assert_none_left(&tree, pgid);
}

/// A project whose "dev server" ignores SIGTERM: stopping it takes the runner's whole grace period
/// (`devserver::STOP_GRACE`), so after the first Ctrl+C the run is provably still cleaning up when
/// the second one arrives. Its URL is the test's fixture server, so it is "ready" at once.
fn stubborn_project(url: &str) -> String {
    format!(
        r#"project "p" {{
    dev_server {{
        command = ["sh", "-c", "trap '' TERM; exec sleep 600"]
        url = "{url}/"
        startup_timeout_ms = 10000
    }}
}}
"#
    )
}

#[test]
fn a_second_ctrl_c_during_cleanup_kills_the_owned_tree_at_once() {
    let server = FixtureServer::start();
    let project = stubborn_project(&server.base_url);
    let (mut child, tree, pgid, _work) = started_with(
        &[(".a3s-test/project.acl", &project), ("hold.acl", HOLD)],
        &server,
    );
    let pid = child.id() as i32;
    assert!(
        tree.iter()
            .any(|p| p.ppid == pid && p.pgid == p.pid && p.pgid != pgid),
        "the dev server runs in its own group: {tree:?}"
    );

    // First Ctrl+C, then wait for the run to say it began cancelling (a line on stdout).
    a3s_test_runner::process_tree::signal(pid, a3s_test_runner::process_tree::Signal::INT);
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line.contains("Cancelling") {
                let _ = tx.send(());
            }
            lines.push(line);
        }
        lines.join("\n")
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the run reported that it began cancelling");
    // The run is now in its bounded cleanup, held by the dev server that ignores SIGTERM.
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run is still cleaning up"
    );
    a3s_test_runner::process_tree::signal(pid, a3s_test_runner::process_tree::Signal::INT);
    let done = finish(child, Duration::from_secs(30));
    let stdout = reader.join().unwrap();
    let stderr = done.stderr;
    assert_eq!(done.code, 130, "{stdout}\n{stderr}");
    // The second handler ran (not the orderly path that would have waited out the grace period).
    assert!(
        stderr.contains("interrupted twice; killed"),
        "{stdout}\n{stderr}"
    );
    assert!(
        crate::harness::wait_until_gone(&tree, Duration::from_secs(10)),
        "processes left behind: {:?}",
        tree.iter().filter(|p| p.is_alive()).collect::<Vec<_>>()
    );
    assert_none_left(&tree, pgid);
}
