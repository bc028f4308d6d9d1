//! `expect { screenshot }` in real Chromium through the binary, against `visual.html` (a box
//! whose colour comes from the query, a clock that changes every frame, a spinner that turns
//! forever, a focused input): a baseline is written by `--update-snapshots`, a red box turned
//! blue fails with the counts and the expected/actual/diff images, `--update-snapshots` makes it
//! pass again, the mask hides the clock, and a baseline that is not a PNG is a coded error and is
//! left as it was.

use crate::harness::{command, finish, FixtureServer, RUN_BOUND};
use std::path::Path;

const SUITE: &str = include_str!("../fixtures/suites/visual.acl");

/// The suite with the box in `colour`.
fn suite(colour: &str) -> String {
    SUITE.replace("box=BOX", &format!("box={colour}"))
}

/// `a3s-test run visual.acl --json <extra…>` as on a developer's machine (CI cleared).
fn run(server: &FixtureServer, work: &Path, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let mut args = vec![
        "visual.acl",
        "--json",
        "--base-url",
        server.base_url.as_str(),
    ];
    args.extend(extra);
    let mut cmd = command("run", &args, work);
    cmd.env_remove("CI");
    let done = finish(cmd.spawn().unwrap(), RUN_BOUND);
    let json = done.json();
    (done.code, json, done.stderr)
}

fn failure(json: &serde_json::Value) -> &serde_json::Value {
    &json["scenarios"][0]["failure"]
}

fn baseline(work: &Path) -> std::path::PathBuf {
    let platform = a3s_test_driver::snapshot::platform();
    work.join(format!("visual.snapshots/box-{platform}.png"))
}

#[test]
fn a_red_box_turned_blue_fails_with_a_diff_until_the_baseline_is_updated() {
    let server = FixtureServer::start();
    let work = crate::common::workdir(&[("visual.acl", &suite("red"))]);

    // No baseline: the run fails with its code and (outside CI) writes the actual image.
    let (code, json, stderr) = run(&server, work.path(), &[]);
    assert_eq!(code, 2, "{json}\n{stderr}");
    assert_eq!(
        failure(&json)["code"],
        "test.run.snapshot_missing",
        "{json}"
    );
    assert!(
        baseline(work.path()).is_file(),
        "the missing baseline is written"
    );

    // Now it exists, the same page matches it (the clock is masked, the spinner stopped, the
    // caret hidden).
    let (code, json, _) = run(&server, work.path(), &[]);
    assert_eq!(code, 0, "{json}");
    let written = std::fs::read(baseline(work.path())).unwrap();

    // The box turns blue: 10,000 pixels differ, the three images are kept, the baseline stays.
    std::fs::write(work.path().join("visual.acl"), suite("blue")).unwrap();
    let (code, json, _) = run(&server, work.path(), &["--html", "report"]);
    assert_eq!(code, 1, "{json}");
    // The HTML report shows the three images side by side and the first two under a slider.
    let html = std::fs::read_to_string(work.path().join("report/index.html")).unwrap();
    assert!(html.contains("Visual comparison") && html.contains("compare-slider"));
    assert_eq!(
        html.matches("src=\"data:image/png;base64,").count(),
        3 + 2 + 1
    );
    let f = failure(&json);
    assert_eq!(f["code"], "test.assert.screenshot_mismatch", "{json}");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.contains("10000 pixels differ") && message.contains("0 allowed"),
        "{message}"
    );
    let kinds: Vec<&str> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    for kind in ["snapshot_expected", "snapshot_actual", "snapshot_diff"] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    let diff = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "snapshot_diff")
        .unwrap();
    let diff = std::fs::read(work.path().join(diff["path"].as_str().unwrap())).unwrap();
    let diff = a3s_test_runner::snapshot::pixels::decode_png(&diff).unwrap();
    let red = diff
        .pixels
        .chunks(4)
        .filter(|p| *p == [255, 0, 0, 255])
        .count();
    assert_eq!(
        red, 10_000,
        "the diff image paints each differing pixel red"
    );
    assert_eq!(std::fs::read(baseline(work.path())).unwrap(), written);

    // `--update-snapshots` rewrites the baseline and passes; the next plain run passes too.
    let (code, json, _) = run(&server, work.path(), &["--update-snapshots"]);
    assert_eq!(code, 0, "{json}");
    assert_ne!(std::fs::read(baseline(work.path())).unwrap(), written);
    let (code, json, _) = run(&server, work.path(), &[]);
    assert_eq!(code, 0, "{json}");
}

#[test]
fn the_mask_hides_the_moving_clock_and_without_it_the_page_does_not_match() {
    let server = FixtureServer::start();
    let work = crate::common::workdir(&[("visual.acl", &suite("red"))]);
    let (code, json, _) = run(&server, work.path(), &["--update-snapshots"]);
    assert_eq!(code, 0, "{json}");
    // The clock changes every frame; masked, the page matches run after run.
    for _ in 0..2 {
        let (code, json, _) = run(&server, work.path(), &[]);
        assert_eq!(code, 0, "{json}");
    }
    let unmasked = suite("red").replace("mask = [css(\"#clock\")]", "");
    std::fs::write(work.path().join("visual.acl"), unmasked).unwrap();
    let (code, json, _) = run(&server, work.path(), &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(
        failure(&json)["code"],
        "test.assert.screenshot_mismatch",
        "{json}"
    );
}

#[test]
fn a_baseline_that_is_not_a_png_is_a_coded_error_and_is_left_as_it_is() {
    let server = FixtureServer::start();
    let work = crate::common::workdir(&[("visual.acl", &suite("red"))]);
    let path = baseline(work.path());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"GIF89a, not a PNG").unwrap();
    let (code, json, _) = run(&server, work.path(), &["--update-snapshots"]);
    assert_eq!(code, 2, "{json}");
    let f = failure(&json);
    assert_eq!(f["code"], "test.run.snapshot_invalid", "{json}");
    assert!(f["message"].as_str().unwrap().contains("not a PNG"), "{f}");
    assert_eq!(std::fs::read(&path).unwrap(), b"GIF89a, not a PNG");
}

#[test]
fn full_page_captures_the_whole_scrollable_page() {
    let server = FixtureServer::start();
    let tall = suite("red").replace("box=red", "box=red&tall=1").replace(
        "timeout_ms = 3000",
        "timeout_ms = 3000\n            full_page = true",
    );
    let work = crate::common::workdir(&[("visual.acl", &tall)]);
    let (code, json, _) = run(&server, work.path(), &["--update-snapshots"]);
    assert_eq!(code, 0, "{json}");
    let image = std::fs::read(baseline(work.path())).unwrap();
    let image = a3s_test_runner::snapshot::pixels::decode_png(&image).unwrap();
    // The content's width: the viewport's 1280 pixels less a scrollbar where the browser draws one.
    assert_eq!(image.height, 2000);
    assert!((1265..=1280).contains(&image.width), "{}", image.width);
    let (code, json, _) = run(&server, work.path(), &[]);
    assert_eq!(code, 0, "{json}");
}
