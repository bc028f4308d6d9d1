use super::*;
use crate::result::{ScenarioStatus, StepStatus};
use crate::trace::diff::{StepAt, StepChange, TraceDiff};
use crate::trace::record::{TraceFailure, TraceShot, TraceSource, TraceStep};
use a3s_test_driver::trace::{
    CandidateReason, CandidateWhy, ImageFormat, TargetCandidates, TraceCandidate, TraceConsole,
    TraceRequest,
};
use a3s_test_driver::trace_body::{BodyOmitted, TraceBody};

fn step(index: usize, shot_bytes: u64) -> TraceStep {
    TraceStep {
        index,
        kind: if index == 0 { "navigate" } else { "click" }.into(),
        label: Some(format!("s{index}")),
        path: format!("suite.t.scenario.s.step{index}"),
        line: 3 + index,
        resolved: (index > 0).then(|| "<button#buy> \"Buy\"".to_string()),
        locator: (index > 0).then(|| "role(\"button\", \"Buy\")".to_string()),
        status: StepStatus::Passed,
        duration_ms: 12,
        failure: None,
        candidates: Vec::new(),
        screenshot: Some(TraceShot {
            file: format!("trace/step-{:03}.jpeg", index + 1),
            format: ImageFormat::Jpeg,
            width: 640,
            height: 360,
            bytes: shot_bytes,
            point: (index > 0).then_some((20.5, 31.0)),
            release: None,
        }),
        outline: vec![
            "heading \"Shop\"".into(),
            format!("@e1 button \"Buy {index}\""),
        ],
        outline_carried: false,
        outline_from_last_green: false,
        page: None,
        console: vec![TraceConsole {
            level: "log".into(),
            text: format!("step {index} <b>logged</b>"),
        }],
        page_errors: Vec::new(),
        network: vec![TraceRequest {
            method: "GET".into(),
            url: format!("http://127.0.0.1/api/{index}"),
            status: Some(200),
            failed: None,
            resource_type: "Fetch".into(),
            duration_ms: Some(4),
            received_bytes: Some(99),
            // The second step's request shows its bodies: one kept (escaped in the report),
            // one left out.
            request_body: (index == 1)
                .then(|| TraceBody::kept("application/json", r#"{"q":"<b>tea</b>"}"#.into())),
            response_body: (index == 1).then(|| {
                TraceBody::omitted("application/json", Some(40), BodyOmitted::Credentials)
            }),
        }],
        missing: Vec::new(),
    }
}

/// A trace folder with `steps` steps whose screenshots are `shot_bytes` each.
fn written(steps: usize, shot_bytes: u64) -> (tempfile::TempDir, TraceSummary) {
    written_with(steps, shot_bytes, |_| {})
}

/// [`written`], the trace changed by `edit` before it is written.
fn written_with(
    steps: usize,
    shot_bytes: u64,
    edit: impl FnOnce(&mut Trace),
) -> (tempfile::TempDir, TraceSummary) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("trace")).unwrap();
    let mut list: Vec<TraceStep> = (0..steps).map(|i| step(i, shot_bytes)).collect();
    if let Some(last) = list.last_mut() {
        last.status = StepStatus::Failed;
        last.failure = Some(TraceFailure {
            code: "test.assert.text_mismatch".into(),
            message: "text = \"Added\" did not hold".into(),
        });
        last.candidates = vec![TargetCandidates {
            target: "role(\"button\", \"Pay\")".into(),
            matches: 2,
            total: 12,
            candidates: vec![TraceCandidate {
                element: "<button#pay> \"Pay\"".into(),
                reasons: vec![
                    CandidateWhy {
                        reason: CandidateReason::Ambiguous,
                        detail: "one of 2 matches".into(),
                    },
                    CandidateWhy {
                        reason: CandidateReason::Covered,
                        detail: "<div#lid> is on top".into(),
                    },
                ],
            }],
        }];
    }
    for s in &list {
        let mut bytes = vec![0xFF, 0xD8, 0xFF];
        bytes.resize(shot_bytes as usize, 0x11);
        std::fs::write(dir.path().join(&s.screenshot.as_ref().unwrap().file), bytes).unwrap();
    }
    let mut trace = Trace {
        schema: TRACE_SCHEMA.into(),
        scenario: "t/s".into(),
        file: "t.acl".into(),
        attempt: 1,
        status: ScenarioStatus::Failed,
        source: TraceSource {
            first_line: 1,
            lines: vec!["suite \"t\" {".into(), "  scenario \"s\" {".into()],
        },
        screenshot_bytes: shot_bytes * steps as u64,
        steps: list,
        cuts: Vec::new(),
        traced: true,
    };
    edit(&mut trace);
    let path = dir.path().join("trace.json");
    std::fs::write(&path, serde_json::to_vec(&trace).unwrap()).unwrap();
    let summary = TraceSummary {
        path: path.canonicalize().unwrap(),
        steps,
        screenshot_bytes: trace.screenshot_bytes,
        since_last_green: None,
        not_written: None,
    };
    (dir, summary)
}

fn view_of(dir: &tempfile::TempDir, summary: &TraceSummary) -> TraceView {
    let reader = EvidenceReader::new(&dir.path().canonicalize().unwrap());
    TraceView::load(&reader, summary)
}

#[test]
fn a_twenty_step_failing_trace_stays_within_the_report_budget_and_says_what_it_cut() {
    // 20 screenshots of 100 KB: more than the report inlines.
    let (dir, summary) = written(20, 100_000);
    let view = view_of(&dir, &summary);
    let shown = view.images.iter().filter(|i| i.is_some()).count();
    assert!(shown > 0 && shown < 20, "{shown} shown");
    assert!(
        view.notes
            .iter()
            .any(|n| n.contains("screenshot(s) are not shown")),
        "{:?}",
        view.notes
    );
    let section = super::super::trace::section("s-1", &view, None).into_string();
    assert!(
        section.len() < 2_000_000,
        "the trace section is {} bytes",
        section.len()
    );
    assert!(
        section.contains("screenshot(s) are not shown"),
        "the cut is visible"
    );
}

/// `n` outline-like lines of about 110 bytes, each with ten `"` (escaped to six bytes each).
fn quoted_lines(tag: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|k| {
            format!(
                "@e{k} button \"{tag} {k}\" \"a\" \"b\" \"c\" \"d <&> padding text to widen it\""
            )
        })
        .collect()
}

#[test]
fn a_large_twenty_step_trace_renders_within_the_budget_as_written_and_says_what_it_left_out() {
    // Every step's outline is 1000 quoted lines, all different from the step before (so its
    // added and removed lists hold 2000 more), each step differs from the last green run by 600
    // lines, and the source is 400 long quoted lines: several times the budget once escaped.
    let (dir, mut summary) = written_with(20, 80_000, |trace| {
        for step in &mut trace.steps {
            step.outline = quoted_lines(&format!("step {}", step.index), 1000);
        }
        trace.source.lines = (0..400)
            .map(|k| {
                format!(
                    "    click role(\"button\", \"{k} {}\")",
                    "\"x\" ".repeat(40)
                )
            })
            .collect();
    });
    let diff = TraceDiff {
        first_difference: Some(StepAt {
            index: 3,
            path: "suite.t.scenario.s.step3".into(),
            line: 6,
        }),
        steps: (0..20)
            .map(|i| StepChange {
                outline_added: quoted_lines("new", 300),
                outline_removed: quoted_lines("gone", 300),
                ..serde_json::from_value(serde_json::json!({
                    "index": i, "path": format!("suite.t.scenario.s.step{i}"), "line": 3 + i
                }))
                .unwrap()
            })
            .collect(),
    };
    summary.since_last_green = Some(diff.clone());
    let view = view_of(&dir, &summary);
    let section = super::super::trace::section("s-1", &view, Some(&diff)).into_string();
    assert!(
        section.len() as u64 <= TRACE_REPORT_BUDGET,
        "the trace section is {} bytes",
        section.len()
    );
    // Every step keeps its tab and panel; the failed step (the last) and the first that differs
    // come first, whole: screenshot, changes since the last green run, outline.
    assert_eq!(section.matches("role=\"tabpanel\"").count(), 20);
    let failed = &section[section.find("id=\"s-1-p19\"").unwrap()..];
    assert!(failed.contains("data:image/jpeg;base64,"));
    assert!(failed.contains("+ new </span><code>@e0 button &quot;new 0&quot;"));
    assert!(failed.contains("Outline after the step (1000 lines)"));
    let differs = &section[section.find("id=\"s-1-p3\"").unwrap()..];
    assert!(differs[..differs.find("id=\"s-1-p4\"").unwrap()].contains("Outline after the step"));
    // What was left out is said once, above the timeline, and in each panel it concerns.
    let note_at = section.find("Left out to keep").expect("the cut note");
    let note = &section[note_at..note_at + section[note_at..].find("</p>").unwrap()];
    insta::assert_snapshot!(note);
    assert!(section.contains("The outline and logs of this step are left out of the report"));
    // Each screenshot the budget left out has its placeholder in its panel, as many as the
    // note counts.
    let images_cut: usize = note["Left out to keep this trace within the report's 2000 KB per \
         scenario: "
        .len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the note counts screenshots");
    let placeholder = "The screenshot after this step is left out of the report";
    assert_eq!(section.matches(placeholder).count(), images_cut);
}

#[test]
fn a_small_trace_renders_its_timeline_panels_and_source() {
    let (dir, summary) = written(2, 12);
    let view = view_of(&dir, &summary);
    assert!(view.notes.is_empty(), "{:?}", view.notes);
    let diff = TraceDiff {
        first_difference: Some(StepAt {
            index: 1,
            path: "suite.t.scenario.s.step1".into(),
            line: 4,
        }),
        steps: vec![StepChange {
            outline_added: vec!["\"Out of stock\"".into()],
            errors_new: vec!["console.error: cart failed: 404".into()],
            ..serde_json::from_value(serde_json::json!({
                "index": 1, "path": "suite.t.scenario.s.step1", "line": 4
            }))
            .unwrap()
        }],
    };
    let html = super::super::trace::section("s-1", &view, Some(&diff)).into_string();
    // One tag per line, so the snapshot reads (and diffs) as a tree.
    let pretty = html.replace("><", ">\n<");
    insta::assert_snapshot!(pretty);
}

#[test]
fn a_drag_is_drawn_from_where_it_pressed_to_where_it_released() {
    let (dir, summary) = written(2, 12);
    let mut trace: Trace = serde_json::from_slice(&std::fs::read(&summary.path).unwrap()).unwrap();
    let drag = &mut trace.steps[1];
    drag.kind = "drag".into();
    drag.screenshot.as_mut().unwrap().release = Some((300.0, 200.25));
    std::fs::write(&summary.path, serde_json::to_vec(&trace).unwrap()).unwrap();
    let view = view_of(&dir, &summary);
    let html = super::super::trace::section("s-1", &view, None).into_string();
    let panel = &html[html.find("id=\"s-1-p1\"").unwrap()..];
    let figure = &panel[panel.find("<figure>").unwrap()..panel.find("</figure>").unwrap()];
    // The image's URI is long and not the point: the marks and the caption are.
    let marks = &figure[figure.find("</image>").unwrap()..];
    insta::assert_snapshot!(marks.replace("><", ">\n<"));
}
