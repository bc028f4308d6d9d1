//! The project's `dev_server`: started in its own process group, awaited, stopped after the run;
//! a server that never comes up fails every scenario as infrastructure without a browser.

use crate::harness::{dev_server_project, free_port, repo, run, workdir, RUN_BOUND};
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
