//! Terminal scenarios end to end: the real binary runs real Debian programs (bc, python3) on
//! owned pseudoterminals — passing, failing with the terminal evidence, timing out (124), the
//! public 1.0 suite shape with the `--tui-*` flags, a mixed web + tui suite (whose terminal scenarios
//! still run when the browser cannot start), terminal groups shared from a `library`, and a
//! browser step
//! in a terminal scenario refused at admission. No test sleeps: each waits on the run's exit.

use crate::common::workdir;
use crate::harness::{command, finish, run, FixtureServer, RUN_BOUND};
use serde_json::Value;
use std::path::Path;

const BC_PROJECT: &str = "project \"p\" {\n  tui {\n    command = [\"bc\", \"-q\"]\n  }\n}\n";

fn suite(steps: &str, timeout_ms: u32) -> String {
    format!(
        "suite \"calc\" {{\n  scenario \"multiply\" {{\n    surface = \"tui\"\n    timeout_ms = {timeout_ms}\n{steps}\n  }}\n}}\n"
    )
}

fn failure(json: &Value) -> &Value {
    &json["scenarios"][0]["failure"]
}

/// The evidence files of a failure, by kind.
fn evidence(json: &Value) -> Vec<(String, String)> {
    failure(json)["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["path"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn read(work: &Path, path: &str) -> String {
    std::fs::read_to_string(work.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn tui_a_bc_suite_passes_without_starting_a_browser() {
    let source = suite(
        "    type \"expr\" { value = \"6*7\" }\n    press \"enter\" { key = \"Enter\" }\n    expect \"answer\" { regex = \"(?m)^42$\" }",
        20_000,
    );
    let work = workdir(&[(".a3s-test/project.acl", BC_PROJECT), ("calc.acl", &source)]);
    // A browser that cannot start: a terminal-only plan never asks for one.
    let done = run(
        &["--json", "--browser", "/nonexistent/chromium", "calc.acl"],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    assert_eq!(json["scenarios"][0]["status"], "passed");
    assert_eq!(json["scenarios"][0]["steps"][2]["kind"], "expect");
}

#[test]
fn tui_a_failing_expect_exits_1_with_the_screen_svg_and_recording() {
    let source = suite(
        "    type \"expr\" { value = \"6*7\" }\n    press \"enter\" { key = \"Enter\" }\n    wait \"answer\" { text = \"42\" }\n    expect \"wrong\" { text = \"43\" timeout_ms = 300 }",
        20_000,
    );
    let work = workdir(&[(".a3s-test/project.acl", BC_PROJECT), ("calc.acl", &source)]);
    let junit = work.path().join("junit.xml");
    let html = work.path().join("report");
    let done = run(
        &[
            "--json",
            "--junit",
            junit.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
            "calc.acl",
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let f = failure(&json);
    assert_eq!(f["code"], "test.assert.text_mismatch", "{f}");
    assert_eq!(f["failure_class"], "product");
    assert!(
        f["waited"]["last_seen"].as_str().unwrap().contains("42"),
        "{f}"
    );
    let files = evidence(&json);
    let path_of = |kind: &str| {
        files
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, p)| p.clone())
            .unwrap_or_else(|| panic!("no {kind} in {files:?}"))
    };
    for (_, path) in &files {
        assert!(path.contains("/failure/"), "{path}");
    }
    let svg = read(work.path(), &path_of("screenshot"));
    assert!(svg.starts_with("<svg") && svg.contains("42"), "{svg}");
    let screen = read(work.path(), &path_of("screen"));
    assert!(screen.starts_with("size 80x24"), "{screen}");
    assert!(screen.contains("│42"), "{screen}");
    let cast = read(work.path(), &path_of("recording"));
    let header: Value = serde_json::from_str(cast.lines().next().unwrap()).unwrap();
    assert_eq!(header["version"], 2);
    assert!(cast.contains("42"), "{cast}");
    assert_eq!(read(work.path(), &path_of("exit_status")), "running\n");
    // JUnit and HTML carry the code.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("test.assert.text_mismatch"), "{xml}");
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(page.contains("test.assert.text_mismatch"));
    // The SVG screenshot is shown inline.
    assert!(page.contains("data:image/svg+xml;base64,"), "no inline SVG");
    // The recording is linked.
    assert!(page.contains("recording.cast"), "no link to the recording");
}

#[test]
fn tui_a_wait_that_never_holds_exits_124() {
    let source = suite("    wait \"never\" { text = \"this never shows\" }", 1_500);
    let work = workdir(&[(".a3s-test/project.acl", BC_PROJECT), ("calc.acl", &source)]);
    let done = run(&["--json", "calc.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 124, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    assert_eq!(failure(&json)["code"], "test.run.timeout");
    assert_eq!(json["scenarios"][0]["status"], "timed_out");
    assert!(evidence(&json).iter().any(|(k, _)| k == "recording"));
}

#[test]
fn tui_a_suite_in_the_public_1_0_shape_runs_with_the_tui_flags() {
    let source = r#"suite "repl" {
  scenario "python" {
    surface = "tui"
    timeout_ms = 30000
    wait "ready" { text = ">>> " }
    terminal_resize "wide" { columns = 100 rows = 30 }
    terminal_paste "paste" { text = "print(6*7)" }
    press "submit" { key = "Enter" }
    wait "answer" { regex = "(?m)^42$" }
    expect "shown" { text = "42" }
    terminal_recording "cast" { path = "session.cast" }
  }
}
"#;
    let work = workdir(&[("repl.acl", source)]);
    let cwd = work.path().to_str().unwrap().to_string();
    let done = run(
        &[
            "--json",
            "--tui-executable",
            "python3",
            "--tui-arg",
            "-q",
            "--tui-working-directory",
            &cwd,
            "--tui-columns",
            "80",
            "--tui-rows",
            "24",
            "repl.acl",
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let steps = json["scenarios"][0]["steps"].as_array().unwrap();
    let cast = steps[6]["evidence"][0]["path"].as_str().unwrap();
    assert!(cast.ends_with("session.cast"), "{cast}");
    let recording = read(work.path(), cast);
    assert!(recording.contains("\"r\",\"100x30\""), "{recording}");
}

#[test]
fn tui_a_relative_working_directory_or_a_missing_program_is_refused() {
    let source = suite("    wait \"w\" { text = \"x\" }", 5_000);
    let work = workdir(&[("calc.acl", &source)]);
    let done = run(
        &[
            "--tui-executable",
            "bc",
            "--tui-working-directory",
            "rel",
            "calc.acl",
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}", done.stderr);
    assert!(
        done.stderr.contains("--tui-working-directory"),
        "{}",
        done.stderr
    );
    // No program at all: the scenario fails, coded, as a specification failure.
    let done = run(&["--json", "calc.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    assert_eq!(
        failure(&done.json())["code"],
        "test.driver.tui.program_not_found"
    );
}

#[test]
fn tui_a_mixed_suite_runs_each_scenario_on_its_surface() {
    let server = FixtureServer::start();
    let source = r#"suite "mixed" {
  scenario "page" {
    surface = "web"
    navigate "open" { url = "/index.html" }
  }
  scenario "calc" {
    surface = "tui"
    timeout_ms = 20000
    type "expr" { value = "6*7\n" }
    wait "answer" { text = "42" }
  }
}
"#;
    let work = workdir(&[(".a3s-test/project.acl", BC_PROJECT), ("mixed.acl", source)]);
    let done = run(
        &["--json", "--base-url", &server.base_url, "mixed.acl"],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let statuses: Vec<&str> = json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["passed", "passed"]);
}

/// The status and failure code of each scenario of a `--json` result, by id.
fn outcomes(json: &Value) -> Vec<(String, String, String)> {
    json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap_or_default().to_string(),
                s["status"].as_str().unwrap().to_string(),
                s["failure"]["code"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn tui_a_browser_that_cannot_start_fails_only_the_web_scenarios_of_a_mixed_plan() {
    let source = r#"suite "mixed" {
  scenario "page" {
    surface = "web"
    navigate "open" { url = "about:blank" }
  }
  scenario "calc" {
    surface = "tui"
    timeout_ms = 20000
    type "expr" { value = "6*7\n" }
    wait "answer" { text = "42" }
  }
}
"#;
    let work = workdir(&[(".a3s-test/project.acl", BC_PROJECT), ("mixed.acl", source)]);
    let done = run(
        &["--json", "--browser", "/nonexistent/chromium", "mixed.acl"],
        work.path(),
        RUN_BOUND,
    );
    // An infrastructure failure of one surface: exit 2, and the terminal scenario still ran.
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let mut got = outcomes(&done.json());
    got.sort();
    assert_eq!(
        got,
        [
            ("mixed/calc".into(), "passed".into(), String::new()),
            (
                "mixed/page".into(),
                "failed".into(),
                "test.driver.web.browser_launch".into()
            ),
        ]
    );
}

#[test]
fn tui_a_terminal_library_shares_steps_between_terminal_suites() {
    let project = "project \"p\" {\n  include = [\"shared/*.acl\"]\n  tui {\n    command = [\"bc\", \"-q\"]\n  }\n}\n";
    let library = r#"library "calc" {
    surface = "tui"
    steps "multiply" {
        type "expr" { value = "6*7" }
        press "enter" { key = "Enter" }
    }
}
"#;
    let source = suite(
        "    use \"multiply\" {}\n    expect \"answer\" { regex = \"(?m)^42$\" }",
        20_000,
    );
    let work = workdir(&[
        (".a3s-test/project.acl", project),
        ("shared/calc.acl", library),
        ("calc.acl", &source),
    ]);
    let done = run(&["--json", "calc.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    assert_eq!(json["scenarios"][0]["status"], "passed");
}

#[test]
fn tui_a_browser_step_in_a_terminal_scenario_is_refused_at_admission() {
    let source = r#"suite "mixed" {
  scenario "page" {
    surface = "web"
    navigate "open" { url = "/" }
  }
  scenario "calc" {
    surface = "tui"
    click "pay" { target = css("button") }
  }
}
"#;
    let work = workdir(&[("mixed.acl", source)]);
    let child = command("check", &["mixed.acl"], work.path())
        .spawn()
        .unwrap();
    let done = finish(child, RUN_BOUND);
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let all = format!("{}{}", done.stdout, done.stderr);
    assert!(all.contains("test.spec.surface_step"), "{all}");
    assert!(all.contains("suite.mixed.scenario.calc.click.pay"), "{all}");
}

/// Start a run whose terminal program connects to a loopback listener once it runs and then
/// reads its terminal forever; returns the run and the program's connection, whose end is the
/// proof the program is gone (no polling of process tables).
fn run_with_a_connected_program(work: &Path) -> (std::process::Child, std::net::TcpStream) {
    let (listener, origin) = crate::common::loopback();
    let port = origin.rsplit(':').next().unwrap().to_string();
    let script = format!(
        "import socket, sys\ns = socket.create_connection(('127.0.0.1', {port}))\nsys.stdin.read()\n"
    );
    let child = command(
        "run",
        &[
            "--json",
            "--tui-executable",
            "python3",
            "--tui-arg=-c",
            &format!("--tui-arg={script}"),
            "calc.acl",
        ],
        work,
    )
    .spawn()
    .unwrap();
    let (connection, _) = listener.accept().expect("the program connects");
    connection
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    (child, connection)
}

/// The program at the other end of `connection` has ended (its socket closed).
fn assert_ended(mut connection: std::net::TcpStream) {
    let mut rest = Vec::new();
    let read = std::io::Read::read_to_end(&mut connection, &mut rest);
    assert!(
        read.is_ok(),
        "the program's connection stayed open: {read:?}"
    );
}

#[test]
fn tui_ctrl_c_exits_130_and_stops_the_program() {
    let source = suite("    wait \"never\" { text = \"this never shows\" }", 60_000);
    let work = workdir(&[("calc.acl", &source)]);
    let (child, connection) = run_with_a_connected_program(work.path());
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let done = finish(child, RUN_BOUND);
    assert_eq!(done.code, 130, "{}\n{}", done.stdout, done.stderr);
    assert_ended(connection);
    assert_eq!(failure(&done.json())["code"], "test.run.cancelled");
}

#[test]
fn tui_a_sigkilled_run_takes_its_terminal_program_along() {
    let source = suite("    wait \"never\" { text = \"this never shows\" }", 60_000);
    let work = workdir(&[("calc.acl", &source)]);
    let (mut child, connection) = run_with_a_connected_program(work.path());
    child.kill().unwrap();
    child.wait().unwrap();
    assert_ended(connection);
}

#[test]
fn tui_vim_from_the_project_block_writes_the_file_in_its_working_directory() {
    let project = r#"project "p" {
  tui {
    command = ["vim", "-u", "NONE", "-i", "NONE", "-N", "note.txt"]
    cwd = "notes"
    env = { LC_ALL = "C.UTF-8" }
    columns = 100
    rows = 30
  }
}
"#;
    let source = r#"suite "editor" {
  scenario "write" {
    surface = "tui"
    timeout_ms = 30000
    wait "open" { text = "note.txt" }
    expect "size" { cursor_at = [1, 1] }
    press "insert" { key = "i" }
    type "text" { value = "hello from a3s" }
    press "normal" { key = "Escape" }
    type "command" { value = ":wq" }
    press "run" { key = "Enter" }
    expect "saved" { exit_code = 0 timeout_ms = 10000 }
  }
}
"#;
    let work = workdir(&[
        (".a3s-test/project.acl", project),
        ("editor.acl", source),
        ("notes/.keep", ""),
    ]);
    let done = run(&["--json", "editor.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let note = std::fs::read_to_string(work.path().join("notes/note.txt")).unwrap();
    assert_eq!(note, "hello from a3s\n");
}
