//! `visual_point("@vN", x, y)` in a desktop session, end to end on the real `gnome-calculator`
//! (GTK4) on a desktop the supervisor owns: a `screenshot` turn answers with `@vN` bound to the
//! window PNG's digest; a click at a point of it lands (the display shows it); once the window
//! changed, the old `@vN` is refused with nothing sent, as is a point outside the image; a
//! suite cannot hold a visual point, and promotion writes the control found at the point, which
//! `a3s-test run` passes.
//!
//! The point is not guessed from a layout: the "7" button's centre comes from a real click's
//! hit test (its step detail's screen point) minus the screenshot's screen origin.

use crate::support::*;
use serde_json::Value;
use std::path::Path;

fn observe(d: &Path) -> Value {
    ok(
        d,
        &["agent", "observe", "--session", "vis", "--full", "--json"],
    )
}

fn exec(d: &Path, statement: &str) -> Value {
    ok(
        d,
        &[
            "agent",
            "exec",
            "--session",
            "vis",
            "--observe",
            "--full",
            "--json",
            statement,
        ],
    )
}

/// A screenshot turn: its `@vN` detail.
fn screenshot(d: &Path, file: &str) -> Value {
    let shot = exec(d, &format!("screenshot {{ path = \"{file}\" }}"));
    assert_eq!(shot["status"], "passed", "{shot}");
    let detail = shot["detail"].clone();
    assert!(
        detail["screenshot"].as_str().unwrap().starts_with("@v"),
        "{shot}"
    );
    assert_eq!(detail["sha256"].as_str().unwrap().len(), 64, "{shot}");
    detail
}

#[test]
fn a_click_at_a_point_of_the_latest_screenshot_lands_and_a_changed_window_refuses_it() {
    let dir = project();
    let d = dir.path();
    let (_, g) = start_program(d, "vis", "gui", &["gnome-calculator"]);
    let first = observe(d);
    // Where "7" is, from a real click's hit test (screen pixels).
    let seven = ok(
        d,
        &[
            "agent",
            "click",
            &calculator_button(&first, "7"),
            "--session",
            "vis",
            "--observation",
            &observation_number(&first),
            "--observe",
            "--full",
            "--json",
        ],
    );
    assert_eq!(calculator_display(&seven["observation"]), "7", "{seven}");
    let (sx, sy) = (
        seven["detail"]["x"].as_i64().unwrap(),
        seven["detail"]["y"].as_i64().unwrap(),
    );

    let v1 = screenshot(d, "calc-1.png");
    assert_eq!(v1["screenshot"], "@v1", "{v1}");
    let x = sx - v1["left"].as_i64().unwrap();
    let y = sy - v1["top"].as_i64().unwrap();
    assert!(x >= 0 && x < v1["width"].as_i64().unwrap(), "{v1} {sx}");
    assert!(y >= 0 && y < v1["height"].as_i64().unwrap(), "{v1} {sy}");
    let point = format!("click {{ target = visual_point(\"@v1\", {x}, {y}) }}");
    let clicked = exec(d, &point);
    assert_eq!(clicked["status"], "passed", "{clicked}");
    assert_eq!(
        calculator_display(&clicked["observation"]),
        "77",
        "{clicked}"
    );
    assert_eq!(clicked["detail"]["screenshot"], "@v1", "{clicked}");
    assert_eq!(clicked["detail"]["sha256"], v1["sha256"], "{clicked}");
    assert_eq!(clicked["detail"]["x"], x, "{clicked}");
    let element = clicked["detail"]["element"].as_str().unwrap();
    assert!(
        element.starts_with("role(\"push button\", \"7"),
        "{clicked}"
    );

    // The window changed since @v1 (the display shows 77): refused, exit 2, nothing sent.
    let stale = a3s(d, &["agent", "exec", "--session", "vis", "--json", &point]);
    assert_eq!(stale.code, 2, "{}\n{}", stale.stdout, stale.stderr);
    assert_eq!(
        stale.json()["error"]["code"],
        "test.session.stale_screenshot"
    );
    assert_eq!(
        calculator_display(&observe(d)),
        "77",
        "a refused click reached the program"
    );

    // A point outside the latest screenshot's image: refused too.
    let v2 = screenshot(d, "calc-2.png");
    assert_eq!(v2["screenshot"], "@v2", "{v2}");
    let outside = format!(
        "click {{ target = visual_point(\"@v2\", {}, 1) }}",
        v2["width"].as_i64().unwrap()
    );
    refused(
        d,
        &["agent", "exec", "--session", "vis", "--json", &outside],
        "test.session.stale_screenshot",
    );
    // And @v1 is no longer the latest.
    refused(
        d,
        &["agent", "exec", "--session", "vis", "--json", &point],
        "test.session.stale_screenshot",
    );
    assert_eq!(
        calculator_display(&observe(d)),
        "77",
        "a refused click reached the program"
    );
    let expected = exec(d, "expect { text = \"77\" }");
    assert_eq!(expected["status"], "passed", "{expected}");

    finish_passed(d, "vis", "proven", g);
    let suite = promote_and_run(d, "vis", "gui", 5, d);
    assert!(!suite.contains("visual_point"), "{suite}");
    assert_eq!(
        suite.matches("role(\"push button\", \"7").count(),
        2,
        "{suite}"
    );
}

#[test]
fn a_suite_holding_a_visual_point_is_refused_at_admission() {
    let dir = project();
    let d = dir.path();
    std::fs::create_dir_all(d.join("suites")).unwrap();
    std::fs::write(
        d.join("suites/drawn.acl"),
        "suite \"drawn\" {\n  scenario \"canvas\" {\n    surface = \"gui\"\n    click \"area\" { target = visual_point(\"@v1\", 120, 40) }\n  }\n}\n",
    )
    .unwrap();
    let run = a3s(d, &["run", "suites/drawn.acl"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    let shown = format!("{}{}", run.stdout, run.stderr);
    assert!(shown.contains("test.spec.visual_point_in_suite"), "{shown}");
    insta::assert_snapshot!(shown.replace(&d.display().to_string(), "<project>"));
}
