//! Desktop scenarios end to end: the real binary runs `gnome-calculator` (GTK4) on a desktop it
//! owns per scenario (Xvfb, a private session bus, the accessibility bus and registry) — 7 × 6 =
//! 42 by real clicks and again by real keys; a failing expectation (exit 1, a window PNG and the
//! tree in the failure folder, the code in JSON, JUnit and HTML); a deadline (124); Ctrl+C (130,
//! nothing of the desktop left); `--gui-display` attaching to a desktop this test owns, which
//! survives the run. No test sleeps: each waits on the run's exit or on a process condition with
//! a deadline.

use crate::common::{wait_until, workdir};
use crate::harness::{command, finish, run, RUN_BOUND};
use a3s_test_runner::process_tree::{descendants, ProcessInfo};
use serde_json::Value;
use std::time::Duration;

const PROJECT: &str = "project \"p\" {\n  gui {\n    command = [\"gnome-calculator\"]\n  }\n}\n";

fn suite(scenarios: &[(&str, &str)], timeout_ms: u32) -> String {
    let mut out = String::from("suite \"calc\" {\n");
    for (id, steps) in scenarios {
        out.push_str(&format!(
            "  scenario \"{id}\" {{\n    surface = \"gui\"\n    timeout_ms = {timeout_ms}\n{steps}\n  }}\n"
        ));
    }
    out.push_str("}\n");
    out
}

const BY_CLICKS: &str = r#"    click "seven" { target = role("push button", "7") }
    click "times" { target = role("button", "×") }
    click "six" { target = role("button", "6") }
    click "equals" { target = role("button", "=") }
    expect "answer" { text = "42" }
    screenshot "shown" { path = "answer.png" }
    snapshot "tree" {}"#;

const BY_KEYS: &str = r#"    press "seven" { key = "7" }
    press "times" { key = "*" }
    press "six" { key = "6" }
    press "equals" { key = "Enter" }
    expect "answer" { text = "42" }"#;

fn failure(json: &Value) -> &Value {
    &json["scenarios"][0]["failure"]
}

#[test]
fn gui_seven_times_six_by_clicks_and_by_keys_passes_with_real_input() {
    let source = suite(&[("clicks", BY_CLICKS), ("keys", BY_KEYS)], 60_000);
    let work = workdir(&[(".a3s-test/project.acl", PROJECT), ("calc.acl", &source)]);
    // A browser that cannot start: a desktop-only plan never asks for one.
    let done = run(
        &["--json", "--browser", "/nonexistent/chromium", "calc.acl"],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    for scenario in json["scenarios"].as_array().unwrap() {
        assert_eq!(scenario["status"], "passed", "{scenario}");
    }
    let clicks = &json["scenarios"][0]["steps"];
    let seven = &clicks[0]["detail"];
    assert_eq!(seven["input"], "xtest", "{seven}");
    assert!(seven["hit"].as_str().unwrap().contains('7'), "{seven}");
    assert!(seven["x"].as_i64().unwrap() > 0, "{seven}");
    // The requested screenshot is a PNG of the window; the snapshot lists the buttons.
    let shot = clicks[5]["evidence"][0]["path"].as_str().unwrap();
    let png = std::fs::read(work.path().join(shot)).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let tree = clicks[6]["evidence"][0]["path"].as_str().unwrap();
    let tree = std::fs::read_to_string(work.path().join(tree)).unwrap();
    assert!(tree.contains("button \"7"), "{tree}");
    let keys = &json["scenarios"][1]["steps"];
    assert_eq!(keys[3]["detail"]["input"], "xtest", "{keys}");
}

#[test]
fn gui_a_failing_expectation_exits_1_with_the_window_png_and_the_tree() {
    let steps = format!("{BY_KEYS}\n    expect \"wrong\" {{ text = \"43\" timeout_ms = 500 }}");
    let source = suite(&[("wrong", &steps)], 60_000);
    let work = workdir(&[(".a3s-test/project.acl", PROJECT), ("calc.acl", &source)]);
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
    let path_of = |kind: &str| {
        f["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kind"] == kind)
            .and_then(|e| e["path"].as_str())
            .unwrap_or_else(|| panic!("no {kind} in {f}"))
            .to_string()
    };
    let png = std::fs::read(work.path().join(path_of("screenshot"))).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let tree = std::fs::read_to_string(work.path().join(path_of("accessibility"))).unwrap();
    assert!(tree.contains("button \"7"), "{tree}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("test.assert.text_mismatch"), "{xml}");
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(page.contains("test.assert.text_mismatch"));
    assert!(page.contains("data:image/png;base64,"), "no inline PNG");
}

#[test]
fn gui_a_missing_target_is_a_coded_product_failure() {
    let steps = "    action_timeout_ms = 300\n    click \"nine-hundred\" { target = role(\"push button\", \"900\") }";
    let source = suite(&[("missing", steps)], 60_000);
    let work = workdir(&[(".a3s-test/project.acl", PROJECT), ("calc.acl", &source)]);
    let done = run(&["--json", "calc.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let f = failure(&done.json()).clone();
    assert_eq!(f["code"], "test.driver.gui.target_not_found", "{f}");
    assert_eq!(f["failure_class"], "product");
    assert!(f["message"].as_str().unwrap().contains("900"), "{f}");
}

#[test]
fn gui_a_wait_that_runs_into_the_deadline_exits_124() {
    let steps = "    wait \"never\" { text = \"never shown\" }";
    let source = suite(&[("never", steps)], 4_000);
    let work = workdir(&[(".a3s-test/project.acl", PROJECT), ("calc.acl", &source)]);
    let done = run(&["--json", "calc.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 124, "{}\n{}", done.stdout, done.stderr);
    assert_eq!(failure(&done.json())["code"], "test.run.timeout");
}

/// The run's descendants once its program is on the desktop (its process shows up).
fn desktop_of(run: u32) -> Vec<ProcessInfo> {
    let mut seen = Vec::new();
    let up = wait_until(Duration::from_secs(30), || {
        seen = descendants(run as i32);
        seen.iter().any(|p| {
            std::fs::read_to_string(format!("/proc/{}/comm", p.pid))
                .is_ok_and(|c| c.trim() == "gnome-calculato")
        })
    });
    assert!(up, "the program never started: {seen:?}");
    seen
}

#[test]
fn gui_ctrl_c_exits_130_and_nothing_of_the_desktop_survives() {
    let steps = "    wait \"never\" { text = \"never shown\" }";
    let source = suite(&[("never", steps)], 60_000);
    let work = workdir(&[(".a3s-test/project.acl", PROJECT), ("calc.acl", &source)]);
    let child = command("run", &["--json", "calc.acl"], work.path())
        .spawn()
        .unwrap();
    let desktop = desktop_of(child.id());
    assert!(
        desktop.len() >= 5,
        "X server, buses, registry, program: {desktop:?}"
    );
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let done = finish(child, RUN_BOUND);
    assert_eq!(done.code, 130, "{}\n{}", done.stdout, done.stderr);
    assert!(
        wait_until(Duration::from_secs(5), || !desktop
            .iter()
            .any(ProcessInfo::is_alive)),
        "left behind: {:?}",
        desktop.iter().filter(|p| p.is_alive()).collect::<Vec<_>>()
    );
}

#[test]
fn gui_display_attaches_to_a_desktop_the_test_owns_which_survives_the_run() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let desktop = runtime
        .block_on(a3s_test_gui::Desktop::start(
            &a3s_test_gui::DesktopOptions::default(),
        ))
        .expect("the test's own desktop");
    let source = suite(&[("attached", BY_KEYS)], 60_000);
    let work = workdir(&[("calc.acl", &source)]);
    let mut run = command(
        "run",
        &[
            "--json",
            "--gui-executable",
            "gnome-calculator",
            "--gui-display",
            desktop.display(),
            "calc.acl",
        ],
        work.path(),
    );
    run.env("DBUS_SESSION_BUS_ADDRESS", desktop.session_bus());
    let done = finish(run.spawn().unwrap(), RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    // The desktop is the test's: every one of its processes still runs, and it still answers.
    let members: Vec<u32> = desktop.members().iter().map(|(_, pid)| *pid).collect();
    let live = desktop.live();
    for pid in members {
        assert!(live.contains(&pid), "{pid} of the test's desktop ended");
    }
    assert!(runtime
        .block_on(a3s_test_gui::tree::read(
            desktop.a11y(),
            a3s_test_gui::desktop::REGISTRY,
            Default::default(),
        ))
        .is_ok());
    assert!(desktop.shutdown());
}

#[test]
fn gui_admission_errors_are_coded_with_spans_and_hints() {
    let source = r##"suite "calc" {
  scenario "desk" {
    surface = "gui"
    navigate "open" { url = "/" }
    click "css" { target = css("#seven") }
    expect "url" { url = "/done" }
    terminal_paste "paste" { text = "7" }
    press "save" { key = "Ctrl+Shfit+S" }
    click "mouse" { target = role("button", "7") via = "mouse" }
  }
  scenario "page" {
    surface = "web"
    click "id" { target = automation_id("seven") }
    click "act" { target = role("button", "Pay") via = "action" }
  }
}
"##;
    let work = workdir(&[("calc.acl", source)]);
    let done = crate::harness::finish(
        command("check", &["calc.acl"], work.path())
            .spawn()
            .unwrap(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    insta::assert_snapshot!(
        "gui_admission_errors",
        done.stdout.replace(work.path().to_str().unwrap(), "<work>")
    );
}

/// The project block's own errors: a size out of range and an env that is not an object.
#[test]
fn gui_project_block_errors_are_coded() {
    let project = "project \"p\" {\n  gui {\n    command = [\"gnome-calculator\"]\n    width = 10\n    env = \"x\"\n  }\n}\n";
    let work = workdir(&[(".a3s-test/project.acl", project)]);
    let done = crate::harness::finish(
        command("check", &[".a3s-test/project.acl"], work.path())
            .spawn()
            .unwrap(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    insta::assert_snapshot!(
        "gui_project_errors",
        done.stdout.replace(work.path().to_str().unwrap(), "<work>")
    );
}
