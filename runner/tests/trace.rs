//! Step traces through the executor against an in-memory driver behind the contract: which
//! attempts are traced and kept, the screenshot budget, the last-green record and the
//! comparison with it, and a surface that records no page. The real Web driver is exercised by
//! `tests/run/trace.rs` of the binary.
//!
//! The fake's page is a counter: every capture shows `"visit <n>"` for the run it belongs to,
//! and the step labelled `fail` fails.

use a3s_test_driver::trace::{
    ImageFormat, PageFingerprint, StepCapture, TraceImage, TraceMark, TraceWant,
};
use a3s_test_driver::{
    Capabilities, ConditionSample, ContextOptions, ControlNode, DriverError, FailureCode,
    PageSnapshot, PageText, StepEnv, StepFailure, StepOutput, SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{Action, ActionKind, ExpectCondition, Scenario, Step, Surface};
use a3s_test_lang::Span;
use a3s_test_runner::admit::{AdmittedFile, SourceFile};
use a3s_test_runner::cancel::CancelToken;
use a3s_test_runner::event::EventSender;
use a3s_test_runner::evidence::ArtifactRoot;
use a3s_test_runner::executor::{execute, DriverLauncher, Execution, ExecutorConfig};
use a3s_test_runner::plan::{plan, PlanOptions};
use a3s_test_runner::result::ScenarioStatus;
use a3s_test_runner::trace::record::Trace;
use a3s_test_runner::trace::{TraceConfig, TraceMode};
use std::sync::Arc;
use std::time::Duration;

/// What the fake page shows and how large its screenshots are.
#[derive(Clone)]
struct Page {
    traced: bool,
    text: String,
    shot_bytes: usize,
}

struct Launcher(Page);
struct Driver(Page, Capabilities);
struct Context(Page);

fn capabilities() -> Capabilities {
    Capabilities {
        surface: Surface::Web,
        steps: [ActionKind::Navigate].into_iter().collect(),
    }
}

impl DriverLauncher for Launcher {
    type Driver = Driver;
    fn capabilities(&self) -> Capabilities {
        capabilities()
    }
    async fn launch(self, _: Duration) -> Result<Driver, DriverError> {
        Ok(Driver(self.0, capabilities()))
    }
}

impl SurfaceDriver for Driver {
    type Context = Context;
    fn capabilities(&self) -> &Capabilities {
        &self.1
    }
    async fn new_context(&self, _: ContextOptions) -> Result<Context, DriverError> {
        Ok(Context(self.0.clone()))
    }
    async fn shutdown(&self) -> Result<(), DriverError> {
        Ok(())
    }
}

impl SurfaceContext for Context {
    async fn capture(
        &mut self,
        _: a3s_test_driver::snapshot::CaptureRequest<'_>,
        _: &StepEnv<'_>,
    ) -> Result<a3s_test_driver::snapshot::Captured, StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "no captures here",
        ))
    }

    async fn apply_context(
        &mut self,
        _: &a3s_test_lang::ir::ContextSettings,
        _: &dyn a3s_test_driver::vars::VarSource,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "no browser context here",
        ))
    }

    async fn execute(&mut self, step: &Step, _: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        match step.label.as_deref() {
            Some("fail") => Err(StepFailure::new(FailureCode::TextMismatch, "no stock")),
            _ => Ok(StepOutput::default()),
        }
    }
    async fn check(
        &mut self,
        _: &ExpectCondition,
        _: Option<Duration>,
        _: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        Ok(ConditionSample::Holds(serde_json::Value::Null))
    }
    async fn capture_failure_evidence(
        &mut self,
        _: &a3s_test_fsroot::Dir,
        _: tokio::time::Instant,
    ) -> a3s_test_driver::FailureEvidence {
        a3s_test_driver::FailureEvidence::default()
    }
    async fn load_storage_state(
        &mut self,
        _: &a3s_test_driver::storage_state::StorageState,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Ok(())
    }
    async fn close(self) -> Result<(), DriverError> {
        Ok(())
    }
    fn trace_start(&mut self, _frames: Option<u32>) -> bool {
        self.0.traced
    }
    async fn trace_capture(
        &mut self,
        _: TraceMark,
        want: TraceWant,
        _: tokio::time::Instant,
    ) -> StepCapture {
        let mut bytes = vec![0xFF, 0xD8, 0xFF];
        bytes.resize(self.0.shot_bytes, 0);
        // The page's fingerprint is its text's; an equal known one means the outline is not read.
        let fingerprint = want.fingerprint.then(|| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            self.0.text.hash(&mut h);
            PageFingerprint(h.finish())
        });
        if fingerprint.is_some() && fingerprint == want.known_page {
            return StepCapture {
                traced: true,
                fingerprint,
                same_as_known: true,
                ..StepCapture::default()
            };
        }
        StepCapture {
            fingerprint,
            traced: true,
            screenshot: want.screenshot_width.map(|_| TraceImage {
                format: ImageFormat::Jpeg,
                bytes,
                width: 640,
                height: 360,
                scale: 0.5,
            }),
            snapshot: Some(PageSnapshot {
                url: "http://127.0.0.1/".into(),
                loader_id: "L".into(),
                controls: vec![ControlNode {
                    backend_node_id: 7,
                    role: "button".into(),
                    name: "Buy".into(),
                    value: None,
                    states: Default::default(),
                    tag: "button".into(),
                    attributes: Default::default(),
                    named_by_label: false,
                }],
                texts: vec![PageText {
                    role: "StaticText".into(),
                    text: self.0.text.clone(),
                    controls_before: Some(0),
                }],
                truncated: false,
                cut: Vec::new(),
            }),
            ..StepCapture::default()
        }
    }
}

fn scenario(labels: &[&str]) -> Scenario {
    Scenario {
        id: "buy".into(),
        name: "buy".into(),
        surface: Surface::Web,
        timeout_ms: 5_000,
        action_timeout_ms: 100,
        expect_timeout_ms: None,
        tags: vec![],
        steps: labels
            .iter()
            .enumerate()
            .map(|(i, label)| Step {
                label: Some(label.to_string()),
                path: format!("suite.s.scenario.buy.step{i}.{label}"),
                span: Span::new(0, 0),
                action: Action::Navigate { url: "/".into() },
                group: None,
                hook: None,
            })
            .collect(),
        groups: vec![],
        path: "suite.s.scenario.buy".into(),
        span: Span::new(0, 0),
        organisation: Default::default(),
        context: Default::default(),
    }
}

/// One run of `labels` against `page` in `out` (`.a3s-test`-like: runs and last-green below).
async fn run(out: &std::path::Path, labels: &[&str], page: Page, mode: TraceMode) -> Execution {
    let file = AdmittedFile {
        source: Arc::new(SourceFile {
            path: "s.acl".into(),
            text: Arc::from("suite \"s\" {\n}\n"),
        }),
        suite: a3s_test_lang::ir::Suite {
            id: "s".into(),
            version: 1,
            base_url: None,
            scenarios: vec![scenario(labels)],
            span: Span::new(0, 0),
            storage_state: None,
            context: Default::default(),
        },
        warnings: vec![],
    };
    let plan = plan(&[file], &PlanOptions::default()).unwrap();
    let anchor = a3s_test_fsroot::ConfinedPath::anchor_only(out);
    let run_id = format!("run-{}", page.text.replace(' ', "-"));
    let config = ExecutorConfig {
        jobs: 1,
        artifacts: ArtifactRoot::create(&anchor, &run_id).unwrap(),
        working_dir: out.to_path_buf(),
        base_url: None,
        launch_timeout: Duration::from_secs(5),
        cleanup_bound: Duration::from_secs(2),
        retries: 0,
        expect_timeout: Duration::from_millis(100),
        context: Default::default(),
        update_snapshots: a3s_test_driver::snapshot::UpdateSnapshots::None,
        trace: TraceConfig {
            mode,
            last_green: Some(anchor.join("last-green").create_dir_all().unwrap()),
        },
    };
    let (events, _rx) = EventSender::channel();
    tokio::time::timeout(
        Duration::from_secs(20),
        execute(&plan, Launcher(page), config, events, CancelToken::new()),
    )
    .await
    .expect("the executor never hangs")
}

fn page(text: &str, shot_bytes: usize) -> Page {
    Page {
        traced: true,
        text: text.into(),
        shot_bytes,
    }
}

fn trace_of(execution: &Execution) -> Trace {
    let summary = execution.scenarios[0].trace.as_ref().expect("a trace");
    serde_json::from_slice(&std::fs::read(&summary.path).unwrap()).unwrap()
}

#[tokio::test]
async fn on_keeps_every_step_within_the_screenshot_budget_and_says_what_it_cut() {
    let out = tempfile::tempdir().unwrap();
    let labels = ["a", "b", "c", "d", "e"];
    let done = run(out.path(), &labels, page("visit 1", 400_000), TraceMode::On).await;
    assert_eq!(done.scenarios[0].status, ScenarioStatus::Passed);
    let trace = trace_of(&done);
    assert_eq!(trace.steps.len(), 5);
    let shots: Vec<bool> = trace.steps.iter().map(|s| s.screenshot.is_some()).collect();
    assert_eq!(shots, [true, true, true, false, false]);
    assert_eq!(trace.screenshot_bytes, 1_200_000);
    assert!(
        trace.cuts[0].starts_with("2 screenshot(s) left out"),
        "{:?}",
        trace.cuts
    );
    assert_eq!(
        trace.steps[0].outline,
        ["\"visit 1\"", "@e1 button \"Buy\""]
    );
    let folder = done.scenarios[0].artifact_dir.as_ref().unwrap();
    assert!(folder.join("trace/step-003.jpeg").is_file());
    assert!(!folder.join("trace/step-004.jpeg").exists());
}

#[tokio::test]
async fn retain_on_failure_keeps_no_pass_but_compares_a_failure_with_it() {
    let out = tempfile::tempdir().unwrap();
    let mode = TraceMode::RetainOnFailure;
    let green = run(out.path(), &["open", "buy"], page("visit 1", 100), mode).await;
    assert_eq!(green.scenarios[0].status, ScenarioStatus::Passed);
    assert!(green.scenarios[0].trace.is_none(), "a pass keeps no trace");
    assert!(out.path().join("last-green/s/buy.json").is_file());

    let red = run(out.path(), &["open", "fail"], page("visit 2", 100), mode).await;
    assert_eq!(red.scenarios[0].status, ScenarioStatus::Failed);
    let summary = red.scenarios[0]
        .trace
        .as_ref()
        .expect("a failure keeps its trace");
    let trace = trace_of(&red);
    // Only the failed step is photographed.
    let shots: Vec<bool> = trace.steps.iter().map(|s| s.screenshot.is_some()).collect();
    assert_eq!(shots, [false, true]);
    let diff = summary.since_last_green.as_ref().expect("a comparison");
    let first = diff.first_difference.as_ref().expect("the page differs");
    assert_eq!(first.index, 0);
    assert_eq!(diff.steps[0].outline_added, ["\"visit 2\""]);
    assert_eq!(diff.steps[0].outline_removed, ["\"visit 1\""]);
    assert!(diff.steps[1].not_in_last_green, "{diff:?}");
}

#[tokio::test]
async fn a_surface_without_traces_lists_its_steps_without_pages_and_off_records_nothing() {
    let out = tempfile::tempdir().unwrap();
    let untraced = Page {
        traced: false,
        ..page("visit 1", 100)
    };
    let done = run(out.path(), &["a", "fail"], untraced.clone(), TraceMode::On).await;
    let trace = trace_of(&done);
    assert!(!trace.traced);
    assert_eq!(trace.steps.len(), 2);
    assert!(trace
        .steps
        .iter()
        .all(|s| s.screenshot.is_none() && s.outline.is_empty()));
    assert_eq!(
        trace.steps[1].failure.as_ref().unwrap().code,
        "test.assert.text_mismatch"
    );

    let off = run(
        out.path(),
        &["a", "fail"],
        page("visit 9", 100),
        TraceMode::Off,
    )
    .await;
    assert!(off.scenarios[0].trace.is_none());
    assert!(!out.path().join("last-green/s/buy.json").exists());
}

#[tokio::test]
async fn an_unchanged_page_reuses_the_last_green_outline_and_a_changed_one_is_read() {
    let out = tempfile::tempdir().unwrap();
    let labels = ["a", "b"];
    let first = run(out.path(), &labels, page("visit 1", 100), TraceMode::On).await;
    let first = trace_of(&first);
    assert!(first
        .steps
        .iter()
        .all(|s| s.page.is_some() && !s.outline_from_last_green));

    // The same page again: both outlines come from the last green run, unread.
    let again = run(out.path(), &labels, page("visit 1", 100), TraceMode::On).await;
    let again = trace_of(&again);
    assert!(again.steps.iter().all(|s| s.outline_from_last_green));
    assert_eq!(again.steps[0].outline, first.steps[0].outline);
    assert_eq!(again.steps[0].page, first.steps[0].page);

    // Another page: read, and compared as before.
    let changed = run(out.path(), &labels, page("visit 2", 100), TraceMode::On).await;
    let changed = trace_of(&changed);
    assert!(changed.steps.iter().all(|s| !s.outline_from_last_green));
    assert_eq!(changed.steps[0].outline[0], "\"visit 2\"");
    assert_ne!(changed.steps[0].page, first.steps[0].page);
}
