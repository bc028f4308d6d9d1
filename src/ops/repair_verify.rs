//! `agent repair-verify` / `test_repair_verify`: A3S Test verifies a completed repair itself and
//! records the verdict. The caller (a coding agent, an orchestrator) may only ASK; every fact in
//! the verdict is gathered by the pipeline (`a3s_test_runner::repair::verify`), so the executor
//! of a repair can never certify it.
//!
//! This operation is thin: it validates the inputs (step 0's refusals, before anything is
//! appended or any browser contacted), gives the pipeline the session's page (its supervisor's
//! typed page operations over the socket) and the session's ledger, and reports the verdict the
//! pipeline recorded. `--auto-resolve-repairs` resolves only after the passing result is on disk
//! (`Ledger::record_verification`).

use super::bounded::Bounded;
use super::repair::Completion;
use super::session::turn;
use super::Context;
use a3s_test_lang::ir::Target;
use a3s_test_ledger::event::AutoResolveReason;
use a3s_test_ledger::verification::LocatorKind;
use a3s_test_ledger::verification::{CandidateRecord, VerificationRecord};
use a3s_test_ledger::{
    inspect, Applied, AttemptId, ErrorCode, FindingId, Ledger, LedgerError, NextAction, Request,
    RequestId, SessionId,
};
use a3s_test_runner::repair::verify::facts::Facts;
use a3s_test_runner::repair::verify::ObservePage;
use a3s_test_runner::repair::verify::{
    self as pipeline, inputs, Ask, Claim, Prior, Recorded, VerifyLedger, VerifyPage,
};
use a3s_test_runner::session::protocol::{
    CaptureEvidence, LocateTarget, MeasureLayout, ReadPageText, RepairProve, WaitRevision,
};
use a3s_test_runner::session::repair_page::layout::LayoutRequest;
use a3s_test_runner::session::repair_page::locate::Located;
use a3s_test_runner::session::repair_page::{Captured, LayoutReading, PageText, RevisionSeen};
use a3s_test_runner::session::{SessionCode, SessionError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use tokio::time::Instant;

pub use a3s_test_runner::repair::verify::VerifyError;

/// The default bound of step 1 (waiting for a newer ready Test Kit revision).
pub const DEFAULT_REVISION_TIMEOUT_MS: u64 = 30_000;

/// `repair-verify` / `test_repair_verify`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct VerifyParams {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub done: Completion,
    /// Orchestrator mode (command line only): record the results an orchestrator reported in
    /// this `a3s.test.repair-check-results/1` file for the selected checks instead of running
    /// them (docs/repair.md).
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    #[schemars(skip)]
    pub checks_json: Option<PathBuf>,
    /// How long step 1 waits for a newer ready Test Kit revision (default 30000, at most 60000).
    #[arg(long, value_name = "MS")]
    pub revision_timeout_ms: Option<Bounded<u64, 1, 60000>>,
    /// Resolve a passing verification once its `review_ready` event is persisted (no reviewer
    /// step); a failed one is never resolved. Command line only: a review is a person's
    /// decision, so no MCP tool takes it (an agent that passes it gets −32602).
    #[arg(long)]
    #[serde(skip)]
    #[schemars(skip)]
    pub auto_resolve_repairs: bool,
}

/// What a verification reports: the verdict A3S Test recorded and why.
#[derive(Debug, Serialize)]
pub struct Verification {
    /// The session.
    pub session: SessionId,
    /// Whether the repair passed verification (`review_ready`) or not (`verification_failed`).
    pub passed: bool,
    /// The full record stored with the verdict (`a3s.test.repair-verification/1`).
    pub record: VerificationRecord,
    /// The ledger's result of appending the verdict.
    pub result: Applied,
    /// The auto-resolution, when `--auto-resolve-repairs` resolved the finding.
    pub resolution: Option<Applied>,
    /// What to do next.
    pub next_action: NextAction,
}

fn invalid(message: impl Into<String>) -> LedgerError {
    LedgerError::new(ErrorCode::InvalidInput, message)
}

/// Step 0's refusals: ids, bounds, the project's check catalog and the orchestrator's results —
/// everything that can be refused without a browser. Returns the session and what the pipeline
/// is asked to verify.
fn check_inputs(ctx: &Context, p: &VerifyParams) -> Result<(SessionId, Ask), VerifyError> {
    let t = &p.done.on.target;
    let attempt = p
        .done
        .on
        .attempt_id
        .clone()
        .ok_or_else(|| invalid("repair-verify needs the attempt id (from claim)"))?;
    let ids = (
        t.session.clone(),
        t.finding.clone(),
        t.request_id.clone(),
        attempt,
    );
    let changed_files = p.done.changed.clone().into_list().ok_or_else(|| {
        invalid(
            "repair-verify needs the changed files exactly as completed: one --changed-file \
             per file in order, or --no-changed-files",
        )
    })?;
    let revision_timeout_ms = p
        .revision_timeout_ms
        .map_or(DEFAULT_REVISION_TIMEOUT_MS, Into::into);
    let most = a3s_test_runner::session::repair_page::MAX_REVISION_TIMEOUT_MS;
    if !(1..=most).contains(&revision_timeout_ms) {
        return Err(invalid(format!("--revision-timeout-ms must be 1..={most}")).into());
    }
    let current = inputs::read_checks(&ctx.root)?;
    let reported = match &p.checks_json {
        Some(path) => Some(
            a3s_test_runner::repair::checks::read_caller_results(path, &current.checks)
                .map_err(|e| SessionError::new(e.code(), e.to_string()))?,
        ),
        None => None,
    };
    let (session, finding, request_id, attempt_id) = ids;
    let session_dir = a3s_test_ledger::session_dir(&ctx.root, &session);
    let ask = Ask {
        finding,
        request_id,
        attempt_id,
        changed_files,
        current,
        checks_json: p.checks_json.clone(),
        reported,
        revision_timeout_ms,
        auto_resolve: p
            .auto_resolve_repairs
            .then_some(AutoResolveReason::CommandLine),
        root: ctx.root.clone(),
        session_dir,
    };
    Ok((session, ask))
}

/// The session's live page: each page operation is one turn of its supervisor (a blocking
/// socket exchange; the pipeline runs on a thread and runtime of its own, see [`verify`]).
struct SessionPage<'a> {
    ctx: &'a Context,
    session: &'a SessionId,
}

/// The time left until `deadline`, in ms (at least 1), as a page operation is given it.
fn left_ms(deadline: Instant) -> u64 {
    (deadline
        .saturating_duration_since(Instant::now())
        .as_millis() as u64)
        .max(1)
}

impl SessionPage<'_> {
    fn turn<R: a3s_test_runner::session::protocol::Call>(
        &self,
        request: R,
    ) -> Result<R::Reply, SessionError> {
        turn(self.ctx, self.session.as_str(), request)
    }
}

impl ObservePage for SessionPage<'_> {
    async fn wait_revision(
        &mut self,
        after: Option<u64>,
        until: Instant,
    ) -> Result<RevisionSeen, SessionError> {
        self.turn(WaitRevision {
            after,
            timeout_ms: left_ms(until),
        })
    }

    async fn locate(
        &mut self,
        candidates: &[(LocatorKind, Target)],
        deadline: Instant,
    ) -> Result<Located, SessionError> {
        self.turn(LocateTarget {
            candidates: candidates.to_vec(),
            within_ms: left_ms(deadline),
        })
    }

    async fn page_text(&mut self, deadline: Instant) -> Result<PageText, SessionError> {
        self.turn(ReadPageText {
            within_ms: left_ms(deadline),
        })
    }

    async fn measure_layout(
        &mut self,
        want: &LayoutRequest,
        node: Option<&Target>,
        deadline: Instant,
    ) -> Result<LayoutReading, SessionError> {
        self.turn(MeasureLayout {
            layout: want.clone(),
            node: node.cloned(),
            within_ms: left_ms(deadline),
        })
    }

    async fn capture(&mut self, dir: &str, deadline: Instant) -> Result<Captured, SessionError> {
        self.turn(CaptureEvidence {
            dir: dir.to_owned(),
            within_ms: left_ms(deadline),
        })
    }
}

impl VerifyPage for SessionPage<'_> {
    async fn prove(&mut self, request: RepairProve) -> Result<CandidateRecord, SessionError> {
        self.turn(request)
    }
}

/// The session's ledger file.
struct SessionLedger<'a> {
    ctx: &'a Context,
    session: &'a SessionId,
    ledger: Ledger,
}

impl VerifyLedger for SessionLedger<'_> {
    fn prior(&self, request_id: &RequestId) -> Result<Option<Prior>, LedgerError> {
        Ok(self.ledger.read()?.request(request_id).map(Prior::of))
    }

    fn start(&mut self, request: Request) -> Result<(), LedgerError> {
        self.ledger.apply(request).map(drop)
    }

    fn claim(&self, finding: &FindingId, attempt: &AttemptId) -> Result<Claim, LedgerError> {
        let state = self.ledger.read()?;
        let finding_state = state.finding(finding).ok_or_else(|| {
            LedgerError::new(ErrorCode::UnknownFinding, format!("no finding {finding}"))
        })?;
        Ok(Claim {
            finding: state.record(finding_state)?,
            facts: Facts::read(&state, finding_state, attempt),
            pinned: finding_state
                .attempts
                .iter()
                .find(|a| &a.id == attempt)
                .and_then(|a| a.pinned.clone()),
        })
    }

    fn record(&mut self, request: Request) -> Result<Recorded, LedgerError> {
        let finding = request.finding_id.clone();
        let (result, resolution) = self.ledger.record_verification(request)?;
        let next_action = inspect(
            self.session,
            &self.ledger.read()?,
            &finding,
            self.ctx.clock.now_ms(),
            &self.ctx.ids,
        )?
        .next_action;
        Ok(Recorded {
            result,
            resolution,
            next_action,
        })
    }
}

/// Verify the completed attempt of a finding in its live session and record the verdict as
/// A3S Test. Returns the verdict and its record; a refusal (exit 2) changes nothing.
pub fn verify(ctx: &Context, p: &VerifyParams) -> Result<Verification, VerifyError> {
    let (session, ask) = check_inputs(ctx, p)?;
    let mut page = SessionPage {
        ctx,
        session: &session,
    };
    let mut ledger = SessionLedger {
        ctx,
        session: &session,
        ledger: Ledger::open(&ctx.root, &session, ctx.clock.clone()),
    };
    // The pipeline runs on a runtime of its own, on a thread of its own: the caller may be a
    // blocking task of the MCP server's runtime, where a second runtime cannot be entered.
    let verdict = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| {
                        SessionError::new(
                            SessionCode::Io,
                            format!("failed to start a runtime for the verification: {e}"),
                        )
                    })?;
                runtime.block_on(pipeline::verify(&mut page, &mut ledger, ask))
            })
            .join()
            .unwrap_or_else(|_| {
                Err(SessionError::new(SessionCode::Io, "the verification's thread panicked").into())
            })
    })?;
    let Recorded {
        result,
        resolution,
        next_action,
    } = verdict.recorded;
    Ok(Verification {
        session,
        passed: verdict.record.passed,
        record: verdict.record,
        result,
        resolution,
        next_action,
    })
}
