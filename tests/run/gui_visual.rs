//! `expect { screenshot }` on a desktop, end to end through the real binary on a real GTK3
//! program (`tests/fixtures/gui/ids.py`: buttons, a combo, a list and a status label — no text
//! field, so no caret blinks): the first run outside CI writes the window's baseline (and fails
//! as on a page, `snapshot_missing`), CI=true refuses to write one, the same window then matches
//! it five runs in a row, and a click that changes the window fails with the expected, actual
//! and diff PNGs kept and shown in the HTML report (exit 1). A `mask` paints the elements it
//! names in magenta in the image.

use crate::common::workdir;
use crate::harness::{command, finish, repo, RUN_BOUND};
use a3s_test_runner::snapshot::pixels::decode_png;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A project whose `gui` block runs `tests/fixtures/gui/ids.py` with Debian's Python.
fn project() -> String {
    let script = repo().join("tests/fixtures/gui/ids.py");
    format!(
        "project \"p\" {{\n  gui {{\n    command = [\"/usr/bin/python3\", {:?}]\n  }}\n}}\n",
        script.display().to_string()
    )
}

/// One desktop scenario holding `steps`.
fn suite(steps: &str) -> String {
    format!(
        "suite \"ids\" {{\n  scenario \"s\" {{\n    surface = \"gui\"\n    timeout_ms = 60000\n{steps}\n  }}\n}}\n"
    )
}

/// `a3s-test run ids.acl --json`, with CI set to `ci` (or cleared).
fn run(work: &Path, ci: Option<&str>) -> (i32, Value) {
    run_with(work, ci, &[])
}

/// `a3s-test run ids.acl --json <extra…>`, with CI set to `ci` (or cleared).
fn run_with(work: &Path, ci: Option<&str>, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["ids.acl", "--json"];
    args.extend(extra);
    let mut cmd = command("run", &args, work);
    match ci {
        Some(value) => cmd.env("CI", value),
        None => cmd.env_remove("CI"),
    };
    let done = finish(cmd.spawn().unwrap(), RUN_BOUND);
    let json = done.json();
    (done.code, json)
}

fn baseline(work: &Path, stem: &str) -> PathBuf {
    let platform = a3s_test_driver::snapshot::platform();
    work.join(format!("ids.snapshots/{stem}-{platform}.png"))
}

fn failure(json: &Value) -> &Value {
    &json["scenarios"][0]["failure"]
}

/// How many pixels of a PNG are the mask colour.
fn magenta(png: &[u8]) -> usize {
    decode_png(png)
        .unwrap()
        .pixels
        .chunks(4)
        .filter(|p| *p == a3s_test_driver::snapshot::MASK_COLOUR)
        .count()
}

const EXPECT: &str = r#"    expect "window" { screenshot = "window.png" }"#;

#[test]
fn gui_a_window_baseline_is_written_then_matches_five_times_and_a_change_fails_with_a_diff() {
    let work = workdir(&[
        (".a3s-test/project.acl", &project()),
        ("ids.acl", &suite(EXPECT)),
    ]);
    // CI refuses to write a missing baseline: the run fails with the code and leaves none.
    let (code, json) = run(work.path(), Some("true"));
    assert_eq!(
        failure(&json)["code"],
        "test.run.snapshot_missing",
        "{json}"
    );
    assert_ne!(code, 0, "{json}");
    assert!(!baseline(work.path(), "window").exists());

    // Outside CI the first run writes it from the window and still fails, as on a page.
    let (code, json) = run(work.path(), None);
    assert_eq!(
        failure(&json)["code"],
        "test.run.snapshot_missing",
        "{json}"
    );
    assert_ne!(code, 0, "{json}");
    let written = std::fs::read(baseline(work.path(), "window")).unwrap();
    let image = decode_png(&written).unwrap();
    assert!(
        image.width > 50 && image.height > 50,
        "{}×{}",
        image.width,
        image.height
    );
    assert_eq!(magenta(&written), 0, "nothing is masked without a mask");

    // The same window on a new desktop matches, run after run (CI on: it writes nothing).
    for attempt in 0..5 {
        let (code, json) = run(work.path(), Some("true"));
        assert_eq!(code, 0, "attempt {attempt}: {json}");
        let observed = &json["scenarios"][0]["steps"][0]["detail"]["observed"];
        assert_eq!(observed["diff_pixels"], 0, "attempt {attempt}: {observed}");
    }

    // "Save" writes "Saved" in the status label: the window differs, exit 1, three images.
    let changed = format!(
        "    click \"save\" {{ target = role(\"push button\", \"Save\") }}\n    \
         expect \"saved\" {{ text = \"Saved\" }}\n{EXPECT}"
    );
    std::fs::write(work.path().join("ids.acl"), suite(&changed)).unwrap();
    let (code, json) = run_with(work.path(), Some("true"), &["--html", "report"]);
    assert_eq!(code, 1, "{json}");
    // The HTML report shows the three images side by side and the first two under a slider.
    let html = std::fs::read_to_string(work.path().join("report/index.html")).unwrap();
    assert!(
        html.contains("Visual comparison") && html.contains("compare-slider"),
        "the report shows the comparison"
    );
    let f = failure(&json);
    assert_eq!(f["code"], "test.assert.screenshot_mismatch", "{json}");
    assert_eq!(f["failure_class"], "product", "{json}");
    assert!(
        f["message"].as_str().unwrap().contains("pixels differ"),
        "{f}"
    );
    let evidence = f["evidence"].as_array().unwrap();
    for kind in ["snapshot_expected", "snapshot_actual", "snapshot_diff"] {
        let file = evidence
            .iter()
            .find(|e| e["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} in {f}"));
        let png = std::fs::read(work.path().join(file["path"].as_str().unwrap())).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{kind}");
    }
    assert_eq!(
        std::fs::read(baseline(work.path(), "window")).unwrap(),
        written,
        "a failed comparison leaves the baseline as it was"
    );
}

#[test]
fn gui_a_mask_paints_the_elements_it_names_and_hides_their_change() {
    // The status label and the "Save" button masked: "Saved" in the label and the focus ring
    // the click leaves on the button change nothing the comparison sees.
    let expect = r#"    expect "masked" {
      screenshot = "masked.png"
      mask = [automation_id("status"), automation_id("save-button")]
    }"#;
    let work = workdir(&[
        (".a3s-test/project.acl", &project()),
        ("ids.acl", &suite(expect)),
    ]);
    let (code, json) = run(work.path(), None);
    assert_ne!(code, 0, "{json}");
    assert_eq!(
        failure(&json)["code"],
        "test.run.snapshot_missing",
        "{json}"
    );
    let png = std::fs::read(baseline(work.path(), "masked")).unwrap();
    // A line of text and a button across the window: thousands of pixels.
    let painted = magenta(&png);
    assert!(painted > 1000, "{painted} mask pixels");
    let changed = format!(
        "    click \"save\" {{ target = role(\"push button\", \"Save\") }}\n    \
         expect \"saved\" {{ text = \"Saved\" }}\n{expect}"
    );
    std::fs::write(work.path().join("ids.acl"), suite(&changed)).unwrap();
    let (code, json) = run(work.path(), Some("true"));
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        json["scenarios"][0]["steps"][2]["detail"]["observed"]["diff_pixels"], 0,
        "{json}"
    );
}
