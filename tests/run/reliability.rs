//! Real-process reliability: a killed browser, a scenario deadline and Ctrl+C each end the run
//! with the right exit code, promptly, and leave none of the processes it started behind.

use crate::harness::Finished;
use crate::harness::{
    assert_none_left, dev_server_project, finish, spawn_run, wait_for_browser, wait_for_request,
    workdir, FixtureServer, HOLD,
};
use a3s_test_runner::process_tree::{descendants, ProcessInfo, Signal};
use std::io::{BufRead, BufReader};
use std::time::Duration;

const STUCK_TIMEOUT: &str = include_str!("../fixtures/suites/stuck-timeout.acl");

/// A run that is busy: its browser is up and has asked for `/hang`.
struct Busy {
    child: std::process::Child,
    /// Every process the run had started by then.
    tree: Vec<ProcessInfo>,
    /// The browser's process group.
    pgid: i32,
    _work: tempfile::TempDir,
    _server: FixtureServer,
}

impl Busy {
    /// Send `signal` to the run itself.
    fn signal(&self, signal: Signal) {
        a3s_test_runner::process_tree::signal(self.child.id() as i32, signal);
    }

    /// [`Busy::ends_with`], promptly: within `bound` (`what` says why it matters).
    fn ends_with_within(self, code: i32, bound: Duration, what: &str) -> Finished {
        let done = self.ends_with(code);
        assert!(done.elapsed < bound, "{what}: {:?}", done.elapsed);
        done
    }

    /// Wait for the run to end (bounded): it exits with `code` and leaves none of its processes.
    fn ends_with(self, code: i32) -> Finished {
        let done = finish(self.child, Duration::from_secs(30));
        assert_eq!(done.code, code, "{}\n{}", done.stdout, done.stderr);
        assert_none_left(&self.tree, self.pgid);
        done
    }
}

/// Start a run of `suite` and return it once it is [`Busy`].
fn started(suite: &str) -> Busy {
    started_with(&[("hold.acl", suite)], FixtureServer::start())
}

/// [`started`] in a working folder with these files (`hold.acl` among them).
fn started_with(files: &[(&str, &str)], server: FixtureServer) -> Busy {
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
    Busy {
        child,
        tree,
        pgid: browser.pgid,
        _work: work,
        _server: server,
    }
}

#[test]
fn a_browser_killed_mid_run_is_an_infrastructure_failure_with_exit_2() {
    let run = started(HOLD);
    let browser = run.tree.iter().find(|p| p.pid == run.pgid).unwrap();
    a3s_test_runner::process_tree::signal(browser.pid, Signal::KILL);
    let done = run.ends_with_within(2, Duration::from_secs(20), "no hang");
    assert!(
        done.stdout.contains("test.driver.web.browser_crashed"),
        "{}",
        done.stdout
    );
}

#[test]
fn a_scenario_deadline_exits_124_after_cleanup() {
    let done = started(STUCK_TIMEOUT).ends_with(124);
    assert!(
        done.stdout.contains("TIMEOUT") && done.stdout.contains("test.run.timeout"),
        "{}",
        done.stdout
    );
}

#[test]
fn ctrl_c_cancels_with_exit_130_and_cleans_up() {
    let run = started(HOLD);
    run.signal(Signal::INT);
    let done = run.ends_with_within(130, Duration::from_secs(15), "bounded cleanup");
    assert!(done.stdout.contains("Cancelling"), "{}", done.stdout);
    assert!(done.stdout.contains("CANCEL"), "{}", done.stdout);
}

#[test]
fn a_closed_terminal_sighup_gets_the_same_cleanup_as_ctrl_c() {
    let run = started(HOLD);
    run.signal(Signal::HUP);
    run.ends_with(130);
}

/// A project whose dev server ignores SIGTERM: stopping it takes the runner's whole grace period
/// (`devserver::STOP_GRACE`), so after the first Ctrl+C the run is provably still cleaning up when
/// the second one arrives. It is Python's HTTP server on a free port (an ignored signal stays
/// ignored across `exec`, and Python leaves SIGTERM as it found it), so the run starts it and
/// waits for it rather than reusing something already answering.
fn stubborn_project() -> String {
    let port = crate::harness::free_port();
    let serve = format!("trap '' TERM; exec python3 -m http.server {port} --bind 127.0.0.1");
    dev_server_project(&format!("http://127.0.0.1:{port}"), &["sh", "-c", &serve])
}

#[test]
fn a_second_ctrl_c_during_cleanup_kills_the_owned_tree_at_once() {
    let server = FixtureServer::start();
    let project = stubborn_project();
    let Busy {
        mut child,
        tree,
        pgid,
        ..
    } = started_with(
        &[(".a3s-test/project.acl", &project), ("hold.acl", HOLD)],
        server,
    );
    let pid = child.id() as i32;
    assert!(
        tree.iter()
            .any(|p| p.ppid == pid && p.pgid == p.pid && p.pgid != pgid),
        "the dev server runs in its own group: {tree:?}"
    );

    // First Ctrl+C, then wait for the run to say it began cancelling (a line on stdout).
    a3s_test_runner::process_tree::signal(pid, Signal::INT);
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
    a3s_test_runner::process_tree::signal(pid, Signal::INT);
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
