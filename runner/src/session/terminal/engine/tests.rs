//! The terminal engine over a fake terminal (behind the contract's traits): a refused input
//! reaches nothing, an accepted one reaches the program once, page requests are refused.

use super::*;
use crate::session::page_context::inspect::InspectRequest;
use crate::session::protocol::{Abort, Inspect};
use a3s_test_driver::{
    BrowserProcess, Capabilities, ConditionSample, ContextOptions, DriverError, FailureEvidence,
    ScreenCursor, ScreenModes, ScreenSettled, StepEnv, SurfaceContext, TerminalScreen,
};
use a3s_test_lang::ir::{ExpectCondition, TERMINAL_STEPS};
use std::sync::{Arc, Mutex};

/// What the fake program received, and its screen.
#[derive(Default)]
struct Program {
    sent: Vec<String>,
    revision: u64,
    rows: Vec<String>,
}

type Shared = Arc<Mutex<Program>>;

struct FakeLauncher(Shared);
struct FakeDriver(Shared, Capabilities);
struct FakeContext(Shared);

fn capabilities() -> Capabilities {
    Capabilities {
        surface: Surface::Tui,
        steps: TERMINAL_STEPS.iter().copied().collect(),
    }
}

impl DriverLauncher for FakeLauncher {
    type Driver = FakeDriver;

    fn capabilities(&self) -> Capabilities {
        capabilities()
    }

    async fn launch(self, _: Duration) -> Result<FakeDriver, DriverError> {
        Ok(FakeDriver(self.0, capabilities()))
    }
}

impl a3s_test_driver::SurfaceDriver for FakeDriver {
    type Context = FakeContext;

    fn capabilities(&self) -> &Capabilities {
        &self.1
    }

    async fn new_context(&self, _: ContextOptions) -> Result<FakeContext, DriverError> {
        Ok(FakeContext(self.0.clone()))
    }

    async fn shutdown(&self) -> Result<(), DriverError> {
        Ok(())
    }
}

impl SurfaceContext for FakeContext {
    async fn capture(
        &mut self,
        _: a3s_test_driver::snapshot::CaptureRequest<'_>,
        _: &StepEnv<'_>,
    ) -> Result<a3s_test_driver::snapshot::Captured, StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "a terminal session captures no snapshot here",
        ))
    }

    async fn apply_context(
        &mut self,
        _: &a3s_test_lang::ir::ContextSettings,
        _: &dyn a3s_test_driver::vars::VarSource,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "a terminal has no browser context",
        ))
    }

    /// A step's kind goes to `sent`, and the program answers it (a new revision).
    async fn execute(&mut self, step: &Step, _: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        let mut program = self.0.lock().unwrap();
        program.sent.push(step.action.kind().name().to_string());
        program.revision += 1;
        program.rows = vec![format!("echo {}", program.sent.len())];
        Ok(StepOutput::default())
    }

    async fn check(
        &mut self,
        _: &ExpectCondition,
        _: Option<Duration>,
        _: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        unreachable!("terminal steps run in execute")
    }

    async fn capture_failure_evidence(&mut self, _: &Dir, _: Instant) -> FailureEvidence {
        FailureEvidence::default()
    }

    async fn load_storage_state(
        &mut self,
        _: &a3s_test_driver::storage_state::StorageState,
        _: Instant,
    ) -> Result<(), StepFailure> {
        unreachable!("no storage state on a terminal")
    }

    async fn close(self) -> Result<(), DriverError> {
        Ok(())
    }
}

impl TerminalAgentContext for FakeContext {
    async fn screen(&self, _: Instant) -> TerminalScreen {
        let program = self.0.lock().unwrap();
        TerminalScreen {
            revision: program.revision,
            columns: 20,
            rows: program.rows.clone(),
            cursor: ScreenCursor {
                row: 1,
                column: 1,
                visible: true,
            },
            modes: ScreenModes::default(),
            exit: None,
        }
    }

    async fn settle(&self, _: Option<u64>, _: Duration, _: Duration, _: Instant) -> ScreenSettled {
        ScreenSettled {
            settled: true,
            waited_ms: 0,
        }
    }

    fn program_process(&self) -> BrowserProcess {
        BrowserProcess { pid: 0, pgid: 0 }
    }
}

/// A session folder with the record `agent start --tui` writes, and the engine started on it.
async fn engine(program: &Shared) -> (tempfile::TempDir, TerminalEngine<FakeDriver>) {
    let root = tempfile::tempdir().unwrap();
    let dir = Dir::open_anchor(root.path()).unwrap();
    let mut file: SessionFile = serde_json::from_value(serde_json::json!({
        "format_version": 1, "id": "t", "state": "starting", "start_url": "fake",
        "goal": null, "success": [], "policy": { "origins": [], "domains": [] },
        "budgets": { "max_actions": 10, "session_ms": 600000, "evidence_bytes": 1000000,
            "idle_ms": 60000 },
        "cdp_endpoint": null, "socket": "/tmp/none", "ownership": {
            "supervisor_pid": 0, "supervisor_pgid": 0, "browser_pid": 0, "browser_pgid": 0,
            "token": "x" },
        "started_at_ms": now_ms(), "last_turn_at_ms": 0, "next_turn": 1,
        "next_observation": 1, "actions": 0, "latest": null, "refs": [], "steps": [],
        "closed_reason": null
    }))
    .unwrap();
    file.terminal = Some(crate::session::file::TerminalProgram {
        command: vec!["fake".into()],
        cwd: root.path().to_path_buf(),
        env: Vec::new(),
        columns: 20,
        rows: 4,
    });
    file.save(&dir).unwrap();
    let engine = TerminalEngine::start(
        FakeLauncher(program.clone()),
        dir,
        root.path().to_path_buf(),
        "x".into(),
    )
    .await
    .unwrap();
    (root, engine)
}

fn exec(observation: Option<u64>, statement: &str) -> Request {
    Request::Exec(Exec {
        observation,
        statement: statement.into(),
        then_observe: None,
    })
}

fn code(answer: &Envelope<Replied>) -> Option<SessionCode> {
    answer.outcome.as_ref().err().map(|r| r.error.code)
}

fn sent(program: &Shared) -> Vec<String> {
    program.lock().unwrap().sent.clone()
}

#[tokio::test]
async fn input_reaches_the_program_only_against_the_screen_observed() {
    let program = Shared::default();
    let (_root, mut engine) = engine(&program).await;
    let observed = engine
        .handle(Request::Observe(ViewRequest::default()))
        .await;
    assert!(observed.outcome.is_ok());
    // A view a screen cannot give is refused and changes nothing (no number taken).
    let scoped = ViewRequest {
        scope: Some("@e1".into()),
        ..ViewRequest::default()
    };
    let refused = engine.handle(Request::Observe(scoped)).await;
    assert_eq!(code(&refused), Some(SessionCode::InvalidInput));
    // No observation named, an unknown one, a browser step: refused, nothing sent.
    let stale = Some(SessionCode::StaleScreen);
    let typed = |o| exec(o, "type { value = \"a\" }");
    assert_eq!(code(&engine.handle(typed(None)).await), stale);
    assert_eq!(code(&engine.handle(typed(Some(7))).await), stale);
    let click = engine
        .handle(exec(Some(1), "click { target = css(\"a\") }"))
        .await;
    assert_eq!(code(&click), Some(SessionCode::Schema));
    assert!(sent(&program).is_empty());
    // The program writes by itself: observation 1 no longer shows the screen.
    program.lock().unwrap().revision += 1;
    let press = engine
        .handle(exec(Some(1), "press { key = \"Enter\" }"))
        .await;
    assert_eq!(code(&press), stale);
    assert!(sent(&program).is_empty());
    // Observed again: the input is sent, once, and the observation ends with it.
    engine
        .handle(Request::Observe(ViewRequest::default()))
        .await;
    let accepted = engine.handle(typed(Some(2))).await;
    assert!(accepted.outcome.is_ok(), "{:?}", accepted.outcome);
    assert_eq!(sent(&program), ["type"]);
    assert_eq!(code(&engine.handle(typed(Some(2))).await), stale);
    // A read-only step needs no observation.
    let read = engine.handle(exec(None, "snapshot {}")).await;
    assert!(read.outcome.is_ok(), "{:?}", read.outcome);
    // A page request is refused by capability.
    let request: InspectRequest = serde_json::from_value(serde_json::json!({
        "detail": "summary", "scope": { "kind": "page" }
    }))
    .unwrap();
    let inspect = engine.handle(Request::Inspect(Inspect { request })).await;
    assert_eq!(code(&inspect), Some(SessionCode::Capability));
    let closed = engine.handle(Request::Abort(Abort { reason: None })).await;
    assert!(closed.closing);
    assert_eq!(engine.file.state, SessionState::Aborted);
    assert_eq!(
        engine.file.steps.len(),
        2,
        "the type and the snapshot passed"
    );
}
