//! `drag` behaves as for a person, in real Chromium through the binary (`drag.html` records the
//! first time its source and destination receive each pointer and drag-and-drop event):
//!
//! - a pointer-event drag (a slider handle, a sortable row): `pointerdown` on the source, moves,
//!   then `pointermove` and `pointerup` on the destination;
//! - an HTML `draggable` source: `pointerdown`, then `dragstart` on the source and — as Chromium
//!   does when a drag begins — `pointercancel` there (so no `pointerup` anywhere), `dragenter` and
//!   `dragover` on the destination, `drop` there with the data the source set, and `dragend` on
//!   the source.

use crate::harness::{run_served, trace_file, workdir, FixtureServer};

const SUITE: &str = include_str!("../fixtures/suites/drag.acl");
const POINTER_DROP: &str = include_str!("../fixtures/suites/pointer-drop.acl");

#[test]
fn drag_delivers_the_events_a_person_causes() {
    let server = FixtureServer::start();
    let work = workdir(&[("drag.acl", SUITE)]);
    for browser in [
        "/usr/lib/chromium/chromium-headless-shell",
        "/usr/lib/chromium/chromium",
    ] {
        let done = run_served(
            &server,
            work.path(),
            &["drag.acl", "--json", "--browser", browser],
        );
        let json = done.json();
        let failures: Vec<String> = json["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["status"] != "passed")
            .map(|s| format!("{}: {}", s["id"], s["failure"]["message"]))
            .collect();
        assert!(failures.is_empty(), "{browser}:\n{}", failures.join("\n"));
        assert_eq!(done.code, 0, "{browser}: {}", done.stderr);
    }
}

/// The page of the public A3S Test 1.0's `web-advanced.acl` drag (`pointer-drop.html`):
/// `pointerdown` on a source div and `pointerup` on a target div, both plain text, in three
/// layouts — together in view, a viewport apart (scrolling to the target moves the source), and
/// a target that a note shown on `pointerdown` pushes down. Each must say "dropped".
#[test]
fn drag_drops_on_a_pointerup_target_wherever_it_is_when_the_pointer_gets_there() {
    let server = FixtureServer::start();
    let work = workdir(&[("pointer-drop.acl", POINTER_DROP)]);
    for browser in [
        "/usr/lib/chromium/chromium-headless-shell",
        "/usr/lib/chromium/chromium",
    ] {
        let done = run_served(
            &server,
            work.path(),
            &["pointer-drop.acl", "--json", "--browser", browser],
        );
        let json = done.json();
        let scenarios = json["scenarios"].as_array().unwrap();
        assert_eq!(scenarios.len(), 3, "{browser}: {json}");
        let failures: Vec<String> = scenarios
            .iter()
            .filter(|s| s["status"] != "passed")
            .map(|s| format!("{}: {}", s["id"], s["failure"]["message"]))
            .collect();
        assert!(failures.is_empty(), "{browser}:\n{}", failures.join("\n"));
        assert_eq!(done.code, 0, "{browser}: {}", done.stderr);
    }
}

/// A traced drag keeps where it pressed and where it released: in the step's detail in CSS px
/// of the viewport (on the handle, then on the slot beside it, `drag.html`), and on the trace's
/// screenshot in image pixels, both scaled alike, for the report to draw from one to the other.
#[test]
fn a_traced_drag_marks_where_it_pressed_and_where_it_released() {
    let server = FixtureServer::start();
    let work = workdir(&[("drag.acl", SUITE)]);
    let done = run_served(
        &server,
        work.path(),
        &[
            "drag.acl", "--json", "--filter", "pointer", "--trace", "on", "--html", "report",
        ],
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let scenario = &json["scenarios"][0];
    let point = |v: &serde_json::Value| -> (f64, f64) {
        let a = v.as_array().unwrap_or_else(|| panic!("not a point: {v}"));
        (a[0].as_f64().unwrap(), a[1].as_f64().unwrap())
    };
    let detail = &scenario["steps"][1]["detail"];
    let (from, to) = (point(&detail["from"]), point(&detail["to"]));
    // The handle spans x 20..144 and the slot starts past it (body margin 8, box margin 12,
    // width 124 with borders); both sit on one line.
    assert!((20.0..144.0).contains(&from.0), "{detail:#}");
    assert!((160.0..310.0).contains(&to.0), "{detail:#}");
    assert!((from.1 - to.1).abs() < 1.0, "{detail:#}");

    let trace = trace_file(work.path(), scenario);
    let shot = &trace["steps"][1]["screenshot"];
    let (pressed, released) = (point(&shot["point"]), point(&shot["release"]));
    let scale = pressed.0 / from.0;
    assert!(scale > 0.0 && scale <= 1.0, "{shot:#}");
    for (image, css) in [(pressed.1, from.1), (released.0, to.0), (released.1, to.1)] {
        assert!((image - css * scale).abs() < 0.01, "{shot:#} {detail:#}");
    }
    let html = std::fs::read_to_string(work.path().join("report/index.html")).unwrap();
    assert!(
        html.contains("<line class=\"drag\"") && html.contains("the dot where it released"),
        "the report draws the drag"
    );
}
