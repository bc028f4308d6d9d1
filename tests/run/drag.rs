//! `drag` behaves as for a person, in real Chromium through the binary (`drag.html` records the
//! first time its source and destination receive each pointer and drag-and-drop event):
//!
//! - a pointer-event drag (a slider handle, a sortable row): `pointerdown` on the source, moves,
//!   then `pointermove` and `pointerup` on the destination;
//! - an HTML `draggable` source: `pointerdown`, then `dragstart` on the source and — as Chromium
//!   does when a drag begins — `pointercancel` there (so no `pointerup` anywhere), `dragenter` and
//!   `dragover` on the destination, `drop` there with the data the source set, and `dragend` on
//!   the source.

use crate::harness::{run_served, workdir, FixtureServer};

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
