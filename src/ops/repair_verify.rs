//! `agent repair-verify` / `test_repair_verify`: A3S Test verifies a completed repair itself and
//! records the verdict. The caller (a coding agent, an orchestrator) may only ASK; every fact in
//! the verdict is gathered here, so the executor of a repair can never certify it.
//!
//! Order (docs/repair.md "Verification"): every input is validated and the changed files must
//! equal the completion's before anything else happens — a mismatch is refused before any browser
//! is contacted. Then `verify_start` is appended, the session's browser observes the page again
//! (steps 1–5, the supervisor's `RepairObserve`), the slice is planned (step 6), the selected
//! trusted checks run or the orchestrator's results are read (step 7), an ACL regression
//! candidate is generated and proven in a fresh browser context when the finding allows one
//! (step 8), and one `verify_result` event with the full record is appended. The first failing
//! step ends the verification; its code is in the record. `--auto-resolve-repairs` resolves only
//! after the passing result is on disk (`Ledger::record_verification`).

mod candidate;
mod checks;
mod facts;
pub(crate) mod inputs;
mod page;

use super::repair::Completion;
use super::Context;
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::VerificationCheck;
use a3s_test_ledger::event::{AutoResolveReason, PinnedChecks};
use a3s_test_ledger::verification::{
    CheckResult, ErrorDelta, PageResult, PinnedChecksChange, SliceInput, VerificationFailure,
    VerificationRecord, VerifyStep, VERIFICATION_PROTOCOL,
};
use a3s_test_ledger::{
    inspect, Action, Actor, Applied, AttemptId, ErrorCode, FindingId, Ledger, LedgerError,
    NextAction, Request, RequestId, SessionId,
};
use a3s_test_runner::session::SessionError;
use facts::Facts;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
    #[schemars(range(min = 1, max = 60000))]
    pub revision_timeout_ms: Option<u64>,
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

/// Why a verification was refused or could not finish (nothing was decided).
#[derive(Debug, thiserror::Error, Serialize)]
#[serde(untagged)]
pub enum VerifyError {
    /// The ledger refused (unknown finding, wrong attempt, changed-file mismatch, …) or the
    /// input is invalid.
    #[error("{0}")]
    Ledger(LedgerError),
    /// The session (its supervisor or browser) refused or failed.
    #[error("{0:?}")]
    Session(SessionError),
}

impl From<LedgerError> for VerifyError {
    fn from(e: LedgerError) -> Self {
        VerifyError::Ledger(e)
    }
}

impl From<SessionError> for VerifyError {
    fn from(e: SessionError) -> Self {
        VerifyError::Session(e)
    }
}

fn invalid(message: impl Into<String>) -> LedgerError {
    LedgerError::new(ErrorCode::InvalidInput, message)
}

/// The validated inputs of one verification.
struct Checked {
    session: SessionId,
    finding: FindingId,
    request_id: RequestId,
    attempt_id: AttemptId,
    changed_files: Vec<String>,
    /// The checks to run: the project file's now, until [`pin`] puts the ones pinned at claim.
    catalog: Vec<VerificationCheck>,
    /// The project file as it is now.
    current: PinnedChecks,
    reported: Option<Vec<CheckResult>>,
    revision_timeout_ms: u64,
    /// A person's `--auto-resolve-repairs`, recorded with the verdict.
    auto_resolve: Option<AutoResolveReason>,
}

/// Step 0: ids, bounds, the project's check catalog and the orchestrator's results — everything
/// that can be refused without a browser.
fn check_inputs(ctx: &Context, p: &VerifyParams) -> Result<Checked, VerifyError> {
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
    let revision_timeout_ms = p.revision_timeout_ms.unwrap_or(DEFAULT_REVISION_TIMEOUT_MS);
    let most = a3s_test_runner::session::repair_page::MAX_REVISION_TIMEOUT_MS;
    if !(1..=most).contains(&revision_timeout_ms) {
        return Err(invalid(format!("--revision-timeout-ms must be 1..={most}")).into());
    }
    let current = inputs::read_checks(&ctx.root)?;
    let catalog = current.checks.clone();
    let reported = match &p.checks_json {
        Some(path) => Some(
            a3s_test_runner::repair::checks::read_caller_results(path, &catalog)
                .map_err(|e| SessionError::new(e.code(), e.to_string()))?,
        ),
        None => None,
    };
    let (session, finding, request_id, attempt_id) = ids;
    Ok(Checked {
        session,
        finding,
        request_id,
        attempt_id,
        changed_files,
        catalog,
        current,
        reported,
        revision_timeout_ms,
        auto_resolve: p
            .auto_resolve_repairs
            .then_some(AutoResolveReason::CommandLine),
    })
}

/// The verdict already recorded under this request id, if the caller repeats a finished
/// verification: it is returned as it was, nothing is verified twice.
fn replayed(
    ctx: &Context,
    c: &Checked,
    ledger: &Ledger,
) -> Result<Option<Verification>, LedgerError> {
    let state = ledger.read()?;
    let Some(prior) = state.request(&c.request_id) else {
        return Ok(None);
    };
    let Action::VerifyResult { record, .. } = &prior.action else {
        return Err(LedgerError::new(
            ErrorCode::IdempotencyConflict,
            format!(
                "request id {} was already used for {} on finding {}; use a new request id",
                c.request_id,
                prior.op(),
                prior.finding_id
            ),
        ));
    };
    // The same request again: the ledger answers with the stored event, and finishes an
    // auto-resolution a crash interrupted. A replay that asks anything else (another attempt,
    // other changed files, auto-resolution where the original did not ask for it, other
    // orchestrator results) is an idempotency conflict: the ledger compares the whole request.
    if let Some(reported) = &c.reported {
        let selected = record
            .slice
            .as_ref()
            .map(|s| s.selected_checks.clone())
            .unwrap_or_default();
        if checks::reported(&selected, reported) != record.checks {
            return Err(LedgerError::new(
                ErrorCode::IdempotencyConflict,
                format!(
                    "request id {} recorded other check results; use a new request id",
                    c.request_id
                ),
            ));
        }
    }
    record_verdict(ctx, c, ledger, (**record).clone()).map(Some)
}

/// Record `record` as the verdict of `c` (or, for a repeated request, get the stored one back)
/// and report it with what to do next.
fn record_verdict(
    ctx: &Context,
    c: &Checked,
    ledger: &Ledger,
    record: VerificationRecord,
) -> Result<Verification, LedgerError> {
    let (result, resolution) = ledger.record_verification(verdict_request(c, record.clone()))?;
    let next_action = inspect(
        &c.session,
        &ledger.read()?,
        &c.finding,
        ctx.clock.now_ms(),
        &ctx.ids,
    )?
    .next_action;
    Ok(Verification {
        session: c.session.clone(),
        passed: record.passed,
        record,
        result,
        resolution,
        next_action,
    })
}

fn verdict_request(c: &Checked, record: VerificationRecord) -> Request {
    Request {
        finding_id: c.finding.clone(),
        actor: Actor::A3sTest,
        request_id: Some(c.request_id.clone()),
        attempt_id: Some(c.attempt_id.clone()),
        action: Action::VerifyResult {
            record: Box::new(record),
            changed_files: c.changed_files.clone(),
            auto_resolve: c.auto_resolve,
        },
    }
}

/// How long this verification may take, as the lease its `verify_start` asks for: the page
/// steps (the revision wait and steps 2–5), every check of the catalog run to its own timeout
/// and cleaned up (the slice selects some of them; none run here when the orchestrator reports
/// the results), the candidate's proof, and a minute for the ledger and supervisor turns in
/// between. Never shorter than the default lease. Without it a check longer than the default
/// lease would let the lease lapse mid-verification, and the verdict would be refused.
fn verification_window(c: &Checked) -> u64 {
    use a3s_test_runner::repair::checks::longest_run;
    use a3s_test_runner::repair::proof::{CLEANUP_BOUND, PROOF_BOUND};
    use a3s_test_runner::session::repair_page::STEPS_BOUND;
    use std::time::Duration;
    let page = Duration::from_millis(c.revision_timeout_ms) + STEPS_BOUND;
    let checks: Duration = match c.reported {
        Some(_) => Duration::ZERO,
        None => c.catalog.iter().map(longest_run).sum(),
    };
    let proof = PROOF_BOUND + CLEANUP_BOUND;
    let total = page + checks + proof + Duration::from_secs(60);
    (total.as_millis() as u64).clamp(
        a3s_test_ledger::lease::DEFAULT_LEASE_MS,
        a3s_test_ledger::lease::MAX_VERIFY_LEASE_MS,
    )
}

/// An empty record, filled in step by step.
fn new_record(revision_before: Option<u64>) -> VerificationRecord {
    VerificationRecord {
        protocol: VERIFICATION_PROTOCOL.into(),
        revision_before,
        revision_after: None,
        page: PageResult::default(),
        slice: None,
        checks: Vec::new(),
        candidate: None,
        passed: false,
        failure: None,
        pinned_checks: None,
    }
}

/// Mark `record` failed at `step` with `code`.
fn fail(record: &mut VerificationRecord, step: VerifyStep, code: impl ToString, message: String) {
    record.passed = false;
    record.failure = Some(VerificationFailure {
        step,
        code: code.to_string(),
        message,
    });
}

/// The evidence folder of this verification, relative to the session folder.
fn verify_dir(c: &Checked) -> String {
    format!(
        "artifacts/repairs/{}/{}/verify",
        c.finding.as_str(),
        c.attempt_id.as_str()
    )
}

/// Verify the completed attempt of a finding in its live session and record the verdict as
/// A3S Test. Returns the verdict and its record; a refusal (exit 2) changes nothing.
pub fn verify(ctx: &Context, p: &VerifyParams) -> Result<Verification, VerifyError> {
    let c = check_inputs(ctx, p)?;
    let ledger = Ledger::open(&ctx.root, &c.session, ctx.clock.clone());
    if let Some(done) = replayed(ctx, &c, &ledger)? {
        return Ok(done);
    }
    // The ledger checks the attempt and the changed files against the completion here, before
    // any supervisor request: a mismatch appends nothing and contacts no browser.
    ledger.apply(Request {
        finding_id: c.finding.clone(),
        actor: Actor::A3sTest,
        request_id: None,
        attempt_id: Some(c.attempt_id.clone()),
        action: Action::VerifyStart {
            changed_files: c.changed_files.clone(),
            lease_ms: Some(verification_window(&c)),
        },
    })?;
    let state = ledger.read()?;
    let finding_state = state.finding(&c.finding).ok_or_else(|| {
        LedgerError::new(
            ErrorCode::UnknownFinding,
            format!("no finding {}", c.finding),
        )
    })?;
    let finding = state.record(finding_state)?;
    let facts = Facts::read(&state, finding_state, &c.attempt_id);
    let mut record = new_record(facts.reference_revision(&finding));
    let pinned = finding_state
        .attempts
        .iter()
        .find(|a| a.id == c.attempt_id)
        .and_then(|a| a.pinned.clone());
    let mut c = c;
    let run = pin(&mut c, pinned, &mut record);
    if let (true, Some(path)) = (run, &p.checks_json) {
        // The orchestrator reports on the pinned checks, which are the ones that run.
        c.reported = Some(
            a3s_test_runner::repair::checks::read_caller_results(path, &c.catalog)
                .map_err(|e| SessionError::new(e.code(), e.to_string()))?,
        );
    }
    if run {
        let dir = verify_dir(&c);
        let session_dir = a3s_test_ledger::session_dir(&ctx.root, &c.session);
        run_steps(ctx, &c, &finding, &facts, &dir, &session_dir, &mut record)?;
    }
    Ok(record_verdict(ctx, &c, &ledger, record)?)
}

/// Run the checks pinned when the attempt claimed (`pinned`), not whatever the project file
/// holds now: the agent edits the workspace, and the checks that judge its work must be the ones
/// a person configured. When the file's checks changed since and the change to the project file
/// is among the declared changed files, the pinned checks run and the record says what changed;
/// an undeclared change fails the verification (`test.session.repair_checks_changed`, at the
/// slice step, before any browser request). False when the verification is already decided.
/// An attempt claimed before checks were pinned runs the current checks.
fn pin(c: &mut Checked, pinned: Option<PinnedChecks>, record: &mut VerificationRecord) -> bool {
    let Some(pinned) = pinned else {
        return true;
    };
    if pinned.project_sha256 == c.current.project_sha256 {
        c.catalog = pinned.checks;
        return true;
    }
    let declared = c.changed_files.iter().any(|f| f == inputs::PROJECT_FILE);
    let changes = inputs::changed_checks(&pinned.checks, &c.current.checks);
    record.pinned_checks = Some(PinnedChecksChange {
        project_sha256_at_claim: pinned.project_sha256.clone(),
        project_sha256_now: c.current.project_sha256.clone(),
        changes: changes.clone(),
        declared,
    });
    c.catalog = pinned.checks;
    if declared {
        return true;
    }
    let what = if changes.is_empty() {
        "its text changed (the checks read the same)".to_string()
    } else {
        changes.join(", ")
    };
    fail(
        record,
        VerifyStep::Slice,
        ErrorCode::ChecksChanged,
        format!(
            "{} changed since the claim — {what} — and is not among the declared changed files; \
             the checks that verify a repair are the ones pinned when it was claimed",
            inputs::PROJECT_FILE
        ),
    );
    false
}

/// Steps 1–8 into `record`; the first failing step ends the run. An `Err` is an infrastructure
/// failure (the supervisor or the browser is gone): nothing is recorded and the finding stays
/// `verifying`, so the verification can be asked for again.
fn run_steps(
    ctx: &Context,
    c: &Checked,
    finding: &a3s_test_ledger::Finding,
    facts: &Facts,
    dir: &str,
    session_dir: &ConfinedPath,
    record: &mut VerificationRecord,
) -> Result<(), VerifyError> {
    // Steps 1–5 in the session's browser.
    let page = page::observe(ctx, c, finding, facts, dir)?;
    record.revision_after = page.revision;
    record.page = page.page;
    if let Some(f) = page.failure {
        record.passed = false;
        record.failure = Some(f);
        return Ok(());
    }
    // Step 6: the slice.
    let errors = record.page.errors.clone().unwrap_or(ErrorDelta {
        new_console_errors: 0,
        new_page_errors: 0,
        baseline: facts.baseline.is_some(),
    });
    let input = SliceInput {
        source_files: a3s_test_ledger::source_files(finding),
        changed_files: c.changed_files.clone(),
        stable_locator: record.page.target.as_ref().is_some_and(|t| t.stable),
        new_console_errors: errors.new_console_errors > 0,
        new_page_errors: errors.new_page_errors > 0,
        prior_acl_proof_passed: facts.prior_acl_proof_passed,
        has_baseline: facts.baseline.is_some(),
    };
    match a3s_test_ledger::plan_slice(&input, &c.catalog) {
        Ok(decision) => record.slice = Some(decision),
        Err(e) => {
            let a3s_test_ledger::SliceError::EmptyCatalog { decision, .. } = &e;
            record.slice = Some((**decision).clone());
            fail(record, VerifyStep::Slice, e.code(), e.to_string());
            return Ok(());
        }
    }
    // Step 7: the trusted checks (or the orchestrator's results for exactly those checks).
    let selected = record
        .slice
        .as_ref()
        .map(|s| s.selected_checks.clone())
        .unwrap_or_default();
    record.checks = match &c.reported {
        Some(reported) => checks::reported(&selected, reported),
        None => checks::execute(&ctx.root, &c.catalog, &selected, session_dir, dir)?,
    };
    if let Some(f) = a3s_test_runner::repair::checks::first_failure(&record.checks) {
        record.passed = false;
        record.failure = Some(f);
        return Ok(());
    }
    // Step 8: the ACL regression candidate, when the finding allows one.
    let refused = match candidate::prove(ctx, c, finding, facts, record, dir)? {
        candidate::Step8::NotDue => None,
        candidate::Step8::NotAdmitted(message) => Some(message),
        candidate::Step8::Proven(made) => {
            let proof = made.proof.clone();
            record.candidate = Some(made);
            // The step fails with its own code; the proof keeps the failing step's code.
            (!proof.passed).then(|| {
                format!(
                    "the ACL candidate failed in a fresh browser context: {} {}",
                    proof.code.as_deref().unwrap_or(""),
                    proof.message.as_deref().unwrap_or("")
                )
            })
        }
    };
    match refused {
        Some(message) => fail(
            record,
            VerifyStep::Candidate,
            candidate::PROOF_FAILED,
            message,
        ),
        None => record.passed = true,
    }
    Ok(())
}
