//! The project's `dev_server`: started in its own process group, awaited, stopped after the run;
//! a server that never comes up fails every scenario as infrastructure without a browser; a
//! server already answering is reused outside CI and refused in CI, naming its port.

use crate::harness::{
    command, dev_server_project, finish, free_port, repo, run, workdir, FixtureServer, RUN_BOUND,
};
use std::net::TcpStream;

fn suite(port: u16) -> String {
    format!(
        r#"suite "served" {{
    base_url = "http://127.0.0.1:{port}"
    scenario "index" {{
        surface = "web"
        navigate "open" {{ url = "/" }}
        expect "title" {{ visible = role("heading", "A3S Test fixture pages") }}
    }}
}}
"#
    )
}

#[test]
fn the_dev_server_is_started_awaited_and_stopped() {
    let port = free_port();
    let fixtures = repo().join("tests/fixtures/web");
    let project = dev_server_project(
        &format!("http://127.0.0.1:{port}"),
        &[
            "a3s-test",
            "serve",
            &fixtures.display().to_string(),
            "--port",
            &port.to_string(),
        ],
    );
    let work = workdir(&[
        (".a3s-test/project.acl", &project),
        ("served.acl", &suite(port)),
    ]);
    let done = run(&["served.acl", "--json"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the dev server was stopped"
    );
    let root = done.json()["artifact_root"].as_str().unwrap().to_string();
    let log = std::fs::read_to_string(std::path::Path::new(&root).join("dev-server.log")).unwrap();
    assert!(log.contains(&format!("http://127.0.0.1:{port}/")), "{log}");
}

#[test]
fn a_dev_server_that_exits_fails_every_scenario_without_a_browser() {
    let port = free_port();
    let project = dev_server_project(&format!("http://127.0.0.1:{port}"), &["false"]);
    let work = workdir(&[("project.acl", &project), ("served.acl", &suite(port))]);
    let done = run(
        &["served.acl", "--json", "--project", "project.acl"],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}", done.stderr);
    let json = done.json();
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.run.dev_server");
    assert_eq!(failure["failure_class"], "infrastructure");
    assert!(
        json["scenarios"][0]["context_open_us"].is_null(),
        "no browser context was opened"
    );
}

/// A project whose dev server would fail if it were launched (`false`), at the URL of a fixture
/// server that already answers; `reuse` adds `reuse_existing`.
fn answering_project(server: &FixtureServer, reuse: Option<bool>) -> String {
    let project = dev_server_project(&server.base_url, &["false"]);
    match reuse {
        None => project,
        Some(r) => project.replace(
            "startup_timeout_ms = 10000",
            &format!("startup_timeout_ms = 10000\n        reuse_existing = {r}"),
        ),
    }
}

#[test]
fn a_dev_server_already_answering_is_reused_outside_ci_and_refused_in_ci() {
    let server = FixtureServer::start();
    let port = server.base_url.rsplit(':').next().unwrap().to_string();
    let suite = suite(port.parse().unwrap());
    let reused = workdir(&[
        (".a3s-test/project.acl", &answering_project(&server, None)),
        ("served.acl", &suite),
    ]);
    // Outside CI: the answering server is used, nothing is started (`false` would fail the run).
    let mut local = command("run", &["served.acl"], reused.path());
    local.env_remove("CI");
    let done = finish(local.spawn().unwrap(), RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    assert!(
        done.stdout.contains(&format!(
            "Reusing the dev server already answering at {}/",
            server.base_url
        )),
        "{}",
        done.stdout
    );
    // In CI the same project is refused before any browser opens, naming the port.
    let mut ci = command("run", &["served.acl", "--json"], reused.path());
    ci.env("CI", "true");
    let done = finish(ci.spawn().unwrap(), RUN_BOUND);
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let failure = &done.json()["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.run.dev_server");
    let message = failure["message"].as_str().unwrap();
    assert!(
        message.contains("already answers") && message.contains(&format!("port {port}")),
        "{message}"
    );
    assert!(message.contains("`CI` is set"), "{message}");
    // `reuse_existing` decides over the environment either way.
    let refused = workdir(&[
        (
            ".a3s-test/project.acl",
            &answering_project(&server, Some(false)),
        ),
        ("served.acl", &suite),
    ]);
    let mut local = command("run", &["served.acl", "--json"], refused.path());
    local.env_remove("CI");
    let done = finish(local.spawn().unwrap(), RUN_BOUND);
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let message = done.json()["scenarios"][0]["failure"]["message"].to_string();
    assert!(message.contains("`reuse_existing = false`"), "{message}");
    let forced = workdir(&[
        (
            ".a3s-test/project.acl",
            &answering_project(&server, Some(true)),
        ),
        ("served.acl", &suite),
    ]);
    let mut ci = command("run", &["served.acl", "--json"], forced.path());
    ci.env("CI", "true");
    let done = finish(ci.spawn().unwrap(), RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
}

#[test]
fn a_dev_server_that_dies_on_a_taken_port_says_which_port() {
    // Something accepts connections on the port but never answers HTTP, so the probe does not
    // count it as a server, and the launched server (`false`) exits at once.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let project = dev_server_project(&format!("http://127.0.0.1:{port}"), &["false"]);
    let work = workdir(&[
        (".a3s-test/project.acl", &project),
        ("served.acl", &suite(port)),
    ]);
    let done = run(&["served.acl", "--json"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 2, "{}", done.stderr);
    let message = done.json()["scenarios"][0]["failure"]["message"].to_string();
    assert!(
        message.contains(&format!("port {port} is taken by another process")),
        "{message}"
    );
}
