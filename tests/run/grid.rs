//! `run --grid URL` against a real Selenium Grid 4 (`grid_server.rs`): scenarios spread over the
//! Grid's sessions through their `se:cdp` endpoints, and no session is left behind however the
//! run ends; a refused session is an infrastructure failure; the Grid's credentials are never
//! written anywhere.
//!
//! The shared Grid runs two sessions at once, so the tests that use it take turns ([`turn`]).

use crate::grid_server::{self, sessions, SESSION_TIMEOUT_S};
use crate::harness::{
    command, finish, free_port, run, workdir, Finished, FixtureServer, RUN_BOUND,
};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// One test at a time on the shared Grid (its two slots would otherwise be shared).
fn turn() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A suite of `count` scenarios over the fixture pages, each opening a page and checking it.
fn suite(count: usize) -> String {
    let mut text = String::from("suite \"spread\" {\n");
    for i in 0..count {
        let (page, check) = if i % 2 == 0 {
            (
                "/",
                "expect \"title\" { visible = role(\"heading\", \"A3S Test fixture pages\") }",
            )
        } else {
            (
                "/forms.html",
                "fill \"name\" { target = label(\"Name\")  value = \"Ada\" }\n        expect \"filled\" { value = \"Ada\"  target = label(\"Name\") }",
            )
        };
        text.push_str(&format!(
            "    scenario \"s{i:02}\" {{\n        surface = \"web\"\n        navigate \"open\" {{ url = \"{page}\" }}\n        {check}\n    }}\n"
        ));
    }
    text.push_str("}\n");
    text
}

/// Every file under `dir`, as text (lossy), with its path.
fn every_file(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                out.push((path, String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
    out
}

/// The message of the first scenario of a run that ended `test.driver.web.grid_unavailable`
/// (exit 2).
fn grid_unavailable(done: &Finished) -> String {
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"], "test.driver.web.grid_unavailable",
        "{json}"
    );
    failure["message"].as_str().unwrap().to_string()
}

/// The Grid URL with credentials in it: the password must appear nowhere the run writes.
const PASSWORD: &str = "Grid-Pa55word-9f3c";

#[test]
fn a_suite_runs_across_the_grid_sessions_and_leaves_none_behind_nor_the_credentials() {
    let _turn = turn();
    let grid = grid_server::shared();
    let server = FixtureServer::start();
    let work = workdir(&[("spread.acl", &suite(12))]);
    let url = grid
        .url
        .replace("http://", &format!("http://ci:{PASSWORD}@"));
    let done = run(
        &[
            "spread.acl",
            "--json",
            "--jobs",
            "2",
            "--grid",
            &url,
            "--base-url",
            &server.base_url,
            "--junit",
            "junit.xml",
            "--html",
            "report",
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    assert_eq!(json["counts"]["passed"], 12, "{json}");
    assert_eq!(grid.sessions(), 0, "the run left Grid sessions behind");
    assert!(!done.stdout.contains(PASSWORD) && !done.stderr.contains(PASSWORD));
    for (path, text) in every_file(work.path()) {
        assert!(
            !text.contains(PASSWORD),
            "{} holds the Grid password",
            path.display()
        );
    }
}

#[test]
fn a_grid_that_refuses_sessions_fails_the_run_as_infrastructure_and_keeps_nothing() {
    let _turn = turn();
    let grid = grid_server::shared();
    let work = workdir(&[("spread.acl", &suite(2))]);
    // Chromium cannot start from this binary: the Grid answers `session not created`.
    let done = run(
        &[
            "spread.acl",
            "--json",
            "--grid",
            &grid.url,
            "--grid-capabilities",
            r#"{"goog:chromeOptions":{"binary":"/nonexistent/chromium","args":["--headless=new"]}}"#,
            "--base-url",
            "http://127.0.0.1:9/",
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    for scenario in json["scenarios"].as_array().unwrap() {
        let failure = &scenario["failure"];
        assert_eq!(
            failure["code"], "test.driver.web.grid_unavailable",
            "{json}"
        );
        assert_eq!(failure["failure_class"], "infrastructure", "{json}");
        let message = failure["message"].as_str().unwrap();
        assert!(message.contains("refused a session"), "{message}");
        assert!(message.contains("session not created"), "{message}");
    }
    assert_eq!(grid.sessions(), 0);
}

#[test]
fn the_project_files_grid_block_is_used_when_no_flag_names_a_grid() {
    let _turn = turn();
    let grid = grid_server::shared();
    // The project's capabilities reach the Grid: a Chromium path that does not exist makes every
    // session refused, which only a run that asked this Grid with these capabilities can see.
    let project = format!(
        "project \"p\" {{\n    grid {{\n        url = \"{}\"\n        sessions = 1\n        capabilities = {{ \"goog:chromeOptions\" = {{ binary = \"/nonexistent/chromium\", args = [\"--headless=new\"] }} }}\n    }}\n}}\n",
        grid.url
    );
    let work = workdir(&[
        ("spread.acl", &suite(2)),
        (".a3s-test/project.acl", &project),
    ]);
    let done = run(
        &["spread.acl", "--json", "--base-url", "http://127.0.0.1:9/"],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    for scenario in json["scenarios"].as_array().unwrap() {
        assert_eq!(
            scenario["failure"]["code"], "test.driver.web.grid_unavailable",
            "{json}"
        );
    }
    assert_eq!(grid.sessions(), 0);
    // A local browser flag turns the project's Grid off for that run.
    let local = run(
        &[
            "spread.acl",
            "--json",
            "--browser",
            "/usr/bin/chromium",
            "--base-url",
            "http://127.0.0.1:9/",
        ],
        work.path(),
        RUN_BOUND,
    );
    let json = local.json();
    for scenario in json["scenarios"].as_array().unwrap() {
        assert_ne!(
            scenario["failure"]["code"], "test.driver.web.grid_unavailable",
            "{json}"
        );
    }
}

#[test]
fn an_unreachable_grid_is_an_infrastructure_failure_that_never_shows_its_password() {
    let port = free_port();
    let work = workdir(&[("spread.acl", &suite(1))]);
    let url = format!("http://ci:{PASSWORD}@127.0.0.1:{port}");
    let done = run(
        &["spread.acl", "--json", "--grid", &url, "--html", "report"],
        work.path(),
        RUN_BOUND,
    );
    let message = grid_unavailable(&done);
    assert!(
        message.contains(&format!("http://***@127.0.0.1:{port}/")),
        "{message}"
    );
    assert!(!done.stdout.contains(PASSWORD) && !done.stderr.contains(PASSWORD));
    for (path, text) in every_file(work.path()) {
        assert!(
            !text.contains(PASSWORD),
            "{} holds the Grid password",
            path.display()
        );
    }
    // A refused address is not repeated either.
    let done = run(
        &[
            "spread.acl",
            "--grid",
            &format!("ftp://ci:{PASSWORD}@127.0.0.1:{port}"),
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}", done.stderr);
    assert!(
        done.stderr
            .contains("must start with http:// or https://, not ftp://"),
        "{}",
        done.stderr
    );
    assert!(!done.stderr.contains(PASSWORD), "{}", done.stderr);
}

#[test]
fn an_https_grid_is_trusted_through_the_machines_store_and_its_wss_cdp_endpoint_works() {
    // A Grid of its own (serving HTTPS); the shared one is not used, so no turn is taken.
    let mut grid = grid_server::GridProcess::start_https();
    let server = FixtureServer::start();
    let work = workdir(&[("spread.acl", &suite(2))]);
    // By name: the certificate is for localhost (and 127.0.0.1, which the `wss://` `se:cdp`
    // endpoints the Grid hands out are addressed by).
    let url = grid.url.replace("127.0.0.1", "localhost");
    let run_trusting = |cert_file: Option<std::path::PathBuf>| {
        let args = [
            "spread.acl",
            "--json",
            "--grid",
            &url,
            "--base-url",
            &server.base_url,
        ];
        let mut run = command("run", &args, work.path());
        crate::tls::trusting_only(&mut run, cert_file);
        finish(run.spawn().unwrap(), RUN_BOUND)
    };
    let done = run_trusting(Some(crate::tls::fixture("root.pem")));
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    assert_eq!(done.json()["counts"]["passed"], 2, "{}", done.stdout);
    assert_eq!(grid.sessions(), 0, "the run left Grid sessions behind");

    // The machine's own store does not hold the test root: the Grid is not trusted.
    let done = run_trusting(None);
    let message = grid_unavailable(&done);
    assert!(
        message.contains("UnknownIssuer") || message.contains("no trusted root"),
        "{message}"
    );
    grid.kill();
}

#[test]
fn grid_with_a_local_browser_is_a_usage_error() {
    let work = workdir(&[("spread.acl", &suite(1))]);
    for local in [
        ["--browser", "/usr/bin/chromium"],
        ["--browser-endpoint", "ws://127.0.0.1:9/"],
    ] {
        let mut args = vec!["spread.acl", "--grid", "http://127.0.0.1:9"];
        args.extend(local);
        let done = run(&args, work.path(), RUN_BOUND);
        assert_eq!(done.code, 2, "{}", done.stderr);
        assert!(
            done.stderr.contains("cannot be used with"),
            "{}",
            done.stderr
        );
    }
}

/// A suite of two scenarios that hang on a page that never answers, until the run is stopped.
const HANGING: &str = r#"
suite "hanging" {
    scenario "first" {
        surface = "web"
        timeout_ms = 60000
        navigate "hang" { url = "/hang" }
    }
    scenario "second" {
        surface = "web"
        timeout_ms = 60000
        navigate "hang" { url = "/hang" }
    }
}
"#;

/// Start a run of [`HANGING`] on the shared Grid and wait (bounded) until both scenarios asked
/// for `/hang`, i.e. both sessions are in use.
fn hanging_run(server: &FixtureServer, work: &std::path::Path) -> std::process::Child {
    let grid = grid_server::shared();
    let requests = server.watch();
    let child = command(
        "run",
        &[
            "hanging.acl",
            "--jobs",
            "2",
            "--grid",
            &grid.url,
            "--base-url",
            &server.base_url,
        ],
        work,
    )
    .spawn()
    .unwrap();
    let mut hung = 0;
    while hung < 2 {
        let path = requests
            .recv_timeout(Duration::from_secs(60))
            .expect("both scenarios reached /hang");
        hung += usize::from(path.starts_with("/hang"));
    }
    assert_eq!(grid.sessions(), 2, "both Grid sessions in use");
    child
}

#[test]
fn ctrl_c_mid_suite_deletes_the_sessions_before_the_run_ends() {
    let _turn = turn();
    let server = FixtureServer::start();
    let work = workdir(&[("hanging.acl", HANGING)]);
    let child = hanging_run(&server, work.path());
    // SAFETY: signals the process group of the run this test spawned.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGINT) };
    let done = finish(child, RUN_BOUND);
    assert_eq!(done.code, 130, "{}\n{}", done.stdout, done.stderr);
    assert_eq!(grid_server::shared().sessions(), 0, "{}", done.stderr);
}

#[test]
fn a_killed_run_leaves_its_sessions_to_the_grids_timeout() {
    let _turn = turn();
    let server = FixtureServer::start();
    let work = workdir(&[("hanging.acl", HANGING)]);
    let child = hanging_run(&server, work.path());
    // SAFETY: signals the process group of the run this test spawned.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
    let _ = crate::common::wait_output(child, RUN_BOUND);
    let url = &grid_server::shared().url;
    // The Grid ends idle sessions after its timeout, checked on its own schedule.
    let within = Duration::from_secs(SESSION_TIMEOUT_S * 4);
    assert!(
        crate::common::wait_until(within, || sessions(url) == 0),
        "the Grid still holds {} sessions after {within:?}",
        sessions(url)
    );
}

/// One scenario that waits on its first attempt (`flaky.html` is ready from its second visit) —
/// the one whose node is killed — and six that pass at once.
fn victim_suite() -> String {
    let mut text = suite(6);
    let victim = r#"    scenario "victim" {
        surface = "web"
        timeout_ms = 90000
        navigate "open" { url = "/flaky.html?key=victim" }
        expect "ready" { text = "ready" }
    }
"#;
    let at = text.find("    scenario").unwrap();
    text.insert_str(at, victim);
    text
}

/// Busy slots per node of the hub's `/status`, by node URL.
fn busy_per_node(hub: &str) -> Vec<(String, usize)> {
    let status = grid_server::get_json(hub, "/status").expect("the hub answers");
    status["value"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["availability"] == "UP")
        .map(|n| {
            let busy = n["slots"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| !s["session"].is_null())
                .count();
            (n["uri"].as_str().unwrap().to_string(), busy)
        })
        .collect()
}

#[test]
fn on_a_hub_with_two_nodes_both_run_scenarios_and_a_killed_node_fails_only_its_scenario() {
    let mut grid = grid_server::HubAndNodes::start();
    let server = FixtureServer::start();
    let work = workdir(&[("victim.acl", &victim_suite())]);
    let requests = server.watch();
    let child = command(
        "run",
        &[
            "victim.acl",
            "--json",
            "--jobs",
            "2",
            "--retries",
            "1",
            "--expect-timeout-ms",
            "60000",
            "--grid",
            &grid.hub.url,
            "--base-url",
            &server.base_url,
        ],
        work.path(),
    )
    .spawn()
    .unwrap();
    // The victim's page asked for its visit count: it now waits for "ready".
    loop {
        let path = requests
            .recv_timeout(Duration::from_secs(60))
            .expect("the victim's page loaded");
        if path.starts_with("/counter") {
            break;
        }
    }
    // One session on each node: the hub spread them.
    let busy = busy_per_node(&grid.hub.url);
    assert_eq!(
        busy.iter().map(|(_, n)| n).collect::<Vec<_>>(),
        [&1, &1],
        "{busy:?}"
    );
    let mut victim = None;
    assert!(
        crate::common::wait_until(Duration::from_secs(30), || {
            victim = grid.node_showing("key=victim");
            victim.is_some()
        }),
        "no node shows the victim's page"
    );
    let victim = victim.unwrap();
    grid.nodes[victim].kill();

    let done = finish(child, RUN_BOUND);
    // The victim's first attempt lost its session; its retry ran on the other node and passed.
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    for scenario in json["scenarios"].as_array().unwrap() {
        if scenario["scenario"] == "victim" {
            assert_eq!(scenario["status"], "flaky", "{scenario}");
            let first = &scenario["earlier_attempts"][0]["failure"];
            assert_eq!(
                first["code"], "test.driver.web.grid_session_lost",
                "{scenario}"
            );
            assert_eq!(first["failure_class"], "infrastructure", "{scenario}");
        } else {
            assert_eq!(scenario["status"], "passed", "{scenario}");
        }
    }
    // The node that is left holds no session.
    let left = busy_per_node(&grid.hub.url);
    let live = &grid.nodes[1 - victim].url;
    assert!(
        left.iter().all(|(uri, busy)| uri != live || *busy == 0),
        "{left:?}"
    );
}
