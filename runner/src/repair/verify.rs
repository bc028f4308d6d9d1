//! One finding's verification, end to end: ledger claim → step 0 → steps 1–5 (the page) →
//! step 6 (slice) → step 7 (checks) → step 8 (candidate) → ledger verdict.
//!
//! Why one module: a repair's verdict must come from facts A3S Test gathered itself, in the fixed
//! order of docs/repair.md ("Verification"), and a reader must be able to check that order in one
//! place. [`verify`] calls one function per step, in order ([`observe_page`] runs steps 1–5 the
//! same way); the first failing step ends the run and its code is in the record. The pipeline
//! talks to the two things it does not own through two small traits:
//!
//! - [`VerifyPage`] (with [`ObservePage`], the reads steps 1–5 need): the session's live page,
//!   behind its supervisor. Each method is one typed page operation — wait for a newer revision,
//!   resolve the target's locators, read the page text, measure a layout, capture evidence, prove
//!   a candidate — that reads the page (or, for the proof, a fresh context of its browser) and
//!   decides nothing. The supervisor answers them (`session::repair_page::LivePage`,
//!   `session::engine::repair_prove`); it has no verification protocol of its own.
//! - [`VerifyLedger`]: the finding's ledger. It reads the claim (finding, the ledger's facts, the
//!   checks pinned at claim), appends `verify_start`, and records the verdict. The ledger's own
//!   rules (slice planning, a verdict consistent with its facts) stay in `a3s_test_ledger` and
//!   are called from here, never repeated.
//!
//! Only this module builds the verdict request, always as actor `a3s-test`: the caller of a
//! verification (a coding agent, an orchestrator) only asks for one.

pub mod checks;
pub mod facts;
pub mod inputs;
#[cfg(test)]
mod tests;

use crate::repair::candidate::generate;
use crate::session::protocol::RepairProve;
use crate::session::repair_page::criteria::{self, TargetView};
use crate::session::repair_page::layout::{self, LayoutRequest};
use crate::session::repair_page::locate::{self, Located};
use crate::session::repair_page::revision::NoRevision;
use crate::session::repair_page::{
    Captured, LayoutReading, ObserveRequest, PageText, PageVerification, RevisionSeen,
    MAX_REVISION_TIMEOUT_MS, STEPS_BOUND,
};
use crate::session::{SessionCode, SessionError};
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::{Target, VerificationCheck};
use a3s_test_ledger::event::{AutoResolveReason, PinnedChecks};
use a3s_test_ledger::verification::{
    Baseline, CandidateRecord, CheckResult, ErrorDelta, LocatorKind, PageResult,
    PinnedChecksChange, SliceInput, VerificationFailure, VerificationRecord, VerifyStep,
    VERIFICATION_PROTOCOL,
};
use a3s_test_ledger::{
    Action, Actor, Applied, AttemptId, ErrorCode, Event, Finding, FindingId, LedgerError,
    NextAction, Op, Request, RequestId,
};
use facts::Facts;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;
use tokio::time::Instant;

/// The code of a failed proof that names none of its own.
pub const PROOF_FAILED: &str = SessionCode::RepairCandidateFailed.as_str();

/// The reads steps 1–5 make of the session's live page: typed page operations the supervisor
/// answers, each reading the page and deciding nothing. A trait so the steps' order and
/// decisions can be tested without a browser, and so they are the same whether the page is in
/// this process (the supervisor's `RepairObserve`) or behind its socket (`repair-verify`). Every
/// `deadline` is the latest the answer may take; the page also cuts it at its session's.
#[allow(async_fn_in_trait)] // Static dispatch only: each caller names its page type.
pub trait ObservePage {
    /// Step 1's wait: the first ready Test Kit revision newer than `after` (any ready one when
    /// `None`) until `until`, or why there was none.
    async fn wait_revision(
        &mut self,
        after: Option<u64>,
        until: Instant,
    ) -> Result<RevisionSeen, SessionError>;

    /// Step 2's read: try `candidates` in order; the first naming exactly one element wins.
    async fn locate(
        &mut self,
        candidates: &[(LocatorKind, Target)],
        deadline: Instant,
    ) -> Result<Located, SessionError>;

    /// Step 3's read for page criteria: the page's visible text.
    async fn page_text(&mut self, deadline: Instant) -> Result<PageText, SessionError>;

    /// Step 3's read for a layout finding: the destination (and `node`, the element found again)
    /// measured in the page.
    async fn measure_layout(
        &mut self,
        want: &LayoutRequest,
        node: Option<&Target>,
        deadline: Instant,
    ) -> Result<LayoutReading, SessionError>;

    /// Steps 4–5's read: the error counts since the document loaded and, at the same moment, the
    /// after-evidence written under `dir` (session-relative, below `artifacts/repairs/`).
    async fn capture(&mut self, dir: &str, deadline: Instant) -> Result<Captured, SessionError>;
}

/// The session's live page as a whole verification uses it: the reads of steps 1–5 and step 8's
/// proof.
#[allow(async_fn_in_trait)] // Static dispatch only: each caller names its page type.
pub trait VerifyPage: ObservePage {
    /// Step 8's proof: write the candidate under its evidence folder and run it in a fresh
    /// context of the session's browser, under the session's policy.
    async fn prove(&mut self, request: RepairProve) -> Result<CandidateRecord, SessionError>;
}

/// The finding's ledger, as a verification uses it. A trait so the pipeline's order (start
/// before the page, the verdict last and once) can be tested without a ledger file.
pub trait VerifyLedger {
    /// What an earlier request with this id appended, if any (a repeated verification).
    fn prior(&self, request_id: &RequestId) -> Result<Option<Prior>, LedgerError>;

    /// Append `verify_start`; the ledger checks the attempt and the changed files against the
    /// completion first, and a mismatch appends nothing.
    fn start(&mut self, request: Request) -> Result<(), LedgerError>;

    /// What the ledger holds about the claimed attempt under verification.
    fn claim(&self, finding: &FindingId, attempt: &AttemptId) -> Result<Claim, LedgerError>;

    /// Append the verdict (`verify_result`, and an auto-resolution when asked for) and say what
    /// comes next; a repeated request gets the stored verdict back.
    fn record(&mut self, request: Request) -> Result<Recorded, LedgerError>;
}

/// What a request id was already used for.
#[derive(Debug)]
pub enum Prior {
    /// A verdict: its record, returned again.
    Verdict(Box<VerificationRecord>),
    /// Another operation, on this or another finding: the id cannot be reused.
    Other {
        /// The operation.
        op: Op,
        /// Its finding.
        finding: FindingId,
    },
}

impl Prior {
    /// What `event` was, for a repeated request id.
    pub fn of(event: &Event) -> Prior {
        match &event.action {
            Action::VerifyResult { record, .. } => Prior::Verdict(record.clone()),
            _ => Prior::Other {
                op: event.op(),
                finding: event.finding_id.clone(),
            },
        }
    }
}

/// The ledger's view of the attempt being verified.
#[derive(Debug)]
pub struct Claim {
    /// The finding as it entered the ledger (criteria, locators, layout, source files).
    pub finding: Finding,
    /// The baseline, the prior proof and the declared replacement target.
    pub facts: Facts,
    /// The checks pinned when the attempt was claimed (`None`: claimed before checks were
    /// pinned).
    pub pinned: Option<PinnedChecks>,
}

/// What the ledger answered to the verdict.
#[derive(Debug)]
pub struct Recorded {
    /// The result of appending the verdict.
    pub result: Applied,
    /// The auto-resolution, when `--auto-resolve-repairs` resolved the finding.
    pub resolution: Option<Applied>,
    /// What to do next.
    pub next_action: NextAction,
}

/// One verification as asked: validated ids and inputs, nothing decided yet.
#[derive(Debug)]
pub struct Ask {
    /// The finding.
    pub finding: FindingId,
    /// The request id of the verification (a repeat returns the recorded verdict).
    pub request_id: RequestId,
    /// The completed attempt.
    pub attempt_id: AttemptId,
    /// The changed files, exactly as completed.
    pub changed_files: Vec<String>,
    /// The project file's checks as they are now.
    pub current: PinnedChecks,
    /// The orchestrator's results file (`--checks-json`), when it reports instead of running.
    pub checks_json: Option<PathBuf>,
    /// The orchestrator's results, read against the current checks (replaced by the ones read
    /// against the pinned checks at step 0).
    pub reported: Option<Vec<CheckResult>>,
    /// How long step 1 waits for a newer ready revision.
    pub revision_timeout_ms: u64,
    /// A person's `--auto-resolve-repairs`, recorded with the verdict.
    pub auto_resolve: Option<AutoResolveReason>,
    /// The project root: where the checks run.
    pub root: PathBuf,
    /// The session folder: where the checks' output is kept.
    pub session_dir: ConfinedPath,
}

/// The verdict A3S Test recorded and the record it stands on.
#[derive(Debug)]
pub struct Verdict {
    /// The full record (`a3s.test.repair-verification/1`).
    pub record: VerificationRecord,
    /// The ledger's answer to it.
    pub recorded: Recorded,
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

/// One verification under way: what was asked (its catalog pinned at step 0), the claim and the
/// record filled in step by step.
struct Run {
    ask: Ask,
    claim: Claim,
    /// The checks that run: the ones pinned at claim.
    catalog: Vec<VerificationCheck>,
    /// The evidence folder, relative to the session folder.
    dir: String,
    record: VerificationRecord,
}

impl Run {
    /// True until a step failed: the first failing step ends the verification.
    fn open(&self) -> bool {
        self.record.failure.is_none()
    }

    /// Mark the record failed at `step` with `code`.
    fn fail(&mut self, step: VerifyStep, code: impl ToString, message: String) {
        self.fail_with(VerificationFailure {
            step,
            code: code.to_string(),
            message,
        });
    }

    fn fail_with(&mut self, failure: VerificationFailure) {
        self.record.passed = false;
        self.record.failure = Some(failure);
    }
}

/// Verify the completed attempt `ask` names and record the verdict as A3S Test. Each step is one
/// function below, called in order; the first failing one ends the run. An `Err` is a refusal or
/// an infrastructure failure: nothing is recorded, and when the page failed mid-way the finding
/// stays `verifying`, so the verification can be asked for again.
pub async fn verify<P: VerifyPage, L: VerifyLedger>(
    page: &mut P,
    ledger: &mut L,
    ask: Ask,
) -> Result<Verdict, VerifyError> {
    if let Some(done) = replay(ledger, &ask)? {
        return Ok(done);
    }
    let mut run = start(ledger, ask)?;
    if run.open() {
        open_evidence(&run)?;
        let seen = observe_page(page, &observe_request(&run)).await?;
        run.record.revision_after = seen.revision;
        run.record.page = seen.page;
        if let Some(failure) = seen.failure {
            run.fail_with(failure);
        }
    }
    if run.open() {
        plan_slice(&mut run);
    }
    if run.open() {
        run_checks(&mut run).await?;
    }
    if run.open() {
        prove_candidate(page, &mut run).await?;
    }
    run.record.passed = run.open();
    Ok(record_verdict(ledger, &run.ask, run.record)?)
}

/// A repeated request id: the verdict already recorded under it, returned as it was (nothing is
/// verified twice). A replay that asks anything else (another attempt, other changed files,
/// auto-resolution where the original did not ask for it, other orchestrator results) is an
/// idempotency conflict: the ledger compares the whole request, this compares the results.
fn replay<L: VerifyLedger>(ledger: &mut L, ask: &Ask) -> Result<Option<Verdict>, LedgerError> {
    let Some(prior) = ledger.prior(&ask.request_id)? else {
        return Ok(None);
    };
    let record = match prior {
        Prior::Verdict(record) => record,
        Prior::Other { op, finding } => {
            return Err(LedgerError::new(
                ErrorCode::IdempotencyConflict,
                format!(
                    "request id {} was already used for {op} on finding {finding}; use a new \
                     request id",
                    ask.request_id,
                ),
            ))
        }
    };
    if let Some(reported) = &ask.reported {
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
                    ask.request_id
                ),
            ));
        }
    }
    record_verdict(ledger, ask, *record).map(Some)
}

/// Step 0: append `verify_start` (the ledger checks the attempt and the changed files against
/// the completion here, before any page operation: a mismatch appends nothing and contacts no
/// browser), read the claim, and pin the checks that judge the repair.
fn start<L: VerifyLedger>(ledger: &mut L, ask: Ask) -> Result<Run, VerifyError> {
    ledger.start(Request {
        finding_id: ask.finding.clone(),
        actor: Actor::A3sTest,
        request_id: None,
        attempt_id: Some(ask.attempt_id.clone()),
        action: Action::VerifyStart {
            changed_files: ask.changed_files.clone(),
            lease_ms: Some(verification_window(&ask)),
        },
    })?;
    let claim = ledger.claim(&ask.finding, &ask.attempt_id)?;
    let revision_before = claim.facts.reference_revision(&claim.finding);
    let dir = format!(
        "artifacts/repairs/{}/{}/verify",
        ask.finding.as_str(),
        ask.attempt_id.as_str()
    );
    let mut run = Run {
        catalog: ask.current.checks.clone(),
        ask,
        claim,
        dir,
        record: new_record(revision_before),
    };
    pin(&mut run);
    if let (true, Some(path)) = (run.open(), &run.ask.checks_json) {
        // The orchestrator reports on the pinned checks, which are the ones that run.
        run.ask.reported = Some(
            crate::repair::checks::read_caller_results(path, &run.catalog)
                .map_err(|e| SessionError::new(e.code(), e.to_string()))?,
        );
    }
    Ok(run)
}

/// Step 0 (pinned at claim): run the checks pinned when the attempt claimed, not whatever the
/// project file holds now: the agent edits the workspace, and the checks that judge its work
/// must be the ones a person configured. When the file's checks changed since and the change to
/// the project file is among the declared changed files, the pinned checks run and the record
/// says what changed; an undeclared change fails the verification
/// (`test.session.repair_checks_changed`, at the slice step, before any page operation). An
/// attempt claimed before checks were pinned runs the current checks.
fn pin(run: &mut Run) {
    let Some(pinned) = run.claim.pinned.clone() else {
        return;
    };
    let current = &run.ask.current;
    if pinned.project_sha256 == current.project_sha256 {
        run.catalog = pinned.checks;
        return;
    }
    let declared = run
        .ask
        .changed_files
        .iter()
        .any(|f| f == inputs::PROJECT_FILE);
    let changes = inputs::changed_checks(&pinned.checks, &current.checks);
    run.record.pinned_checks = Some(PinnedChecksChange {
        project_sha256_at_claim: pinned.project_sha256.clone(),
        project_sha256_now: current.project_sha256.clone(),
        changes: changes.clone(),
        declared,
    });
    run.catalog = pinned.checks;
    if declared {
        return;
    }
    let what = if changes.is_empty() {
        "its text changed (the checks read the same)".to_string()
    } else {
        changes.join(", ")
    };
    run.fail(
        VerifyStep::Slice,
        ErrorCode::ChecksChanged,
        format!(
            "{} changed since the claim — {what} — and is not among the declared changed files; \
             the checks that verify a repair are the ones pinned when it was claimed",
            inputs::PROJECT_FILE
        ),
    );
}

/// The verification's evidence folder, created (every folder on the way opened without following
/// links) before the page is asked anything, so a folder that cannot be written is refused before
/// step 1 waits.
fn open_evidence(run: &Run) -> Result<(), SessionError> {
    let session = run
        .ask
        .session_dir
        .open_dir()
        .map_err(|e| SessionError::fs(&e))?;
    crate::session::repair_page::evidence::EvidenceDir::create(&session, &run.dir).map(drop)
}

/// What steps 1–5 are asked: only the locators the page recorded for the marked node are read
/// from the untrusted context (and admitted as targets again in step 2), the reference revision
/// is the later of the finding's mark and the baseline, and the evidence goes to this
/// verification's folder.
fn observe_request(run: &Run) -> ObserveRequest {
    let finding = &run.claim.finding;
    let facts = &run.claim.facts;
    let context: serde_json::Value = finding
        .context
        .as_ref()
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .unwrap_or(serde_json::Value::Null);
    ObserveRequest {
        after_revision: facts.reference_revision(finding),
        revision_timeout_ms: run.ask.revision_timeout_ms,
        locators: locate::locators_of_context(&context),
        replacement: facts.replacement.clone(),
        criteria: finding.criteria().to_vec(),
        baseline: facts.baseline.clone(),
        layout: layout::LayoutRequest::of_target(
            finding.target.layout.as_ref().map(|l| l.get()),
            finding.target.region_scroll.as_ref().map(|s| s.get()),
        ),
        dir: run.dir.clone(),
    }
}

/// Steps 1–5 against the page, in order: the answer names the first failing step and its code.
/// Never retries and never acts on the page; the evidence is captured also when an earlier step
/// failed, so the reviewer sees the page the verdict was given on. Only refused input (bounds,
/// an inadmissible replacement, a bad evidence folder) or a page that is gone is an `Err`.
pub async fn observe_page<P: ObservePage>(
    page: &mut P,
    req: &ObserveRequest,
) -> Result<PageVerification, SessionError> {
    let invalid = |m: String| SessionError::new(SessionCode::InvalidInput, m);
    if req.revision_timeout_ms > MAX_REVISION_TIMEOUT_MS {
        return Err(invalid(format!(
            "revision_timeout_ms must be at most {MAX_REVISION_TIMEOUT_MS}"
        )));
    }
    if req.criteria.len() > a3s_test_ledger::criterion::MAX_CRITERIA {
        return Err(invalid("too many success criteria".into()));
    }
    let replacement = match &req.replacement {
        Some(source) => Some(locate::admit_replacement(source).map_err(invalid)?),
        None => None,
    };
    let mut out = PageVerification {
        revision: None,
        page: PageResult::default(),
        failure: None,
    };
    wait_for_revision(page, req, &mut out).await?;
    let deadline = Instant::now() + STEPS_BOUND;
    if out.failure.is_none() {
        let located = find_target(page, req, replacement.as_ref(), deadline, &mut out).await?;
        check_criteria(page, req, &located, deadline, &mut out).await?;
    }
    let captured = page.capture(&req.dir, deadline).await?;
    compare_errors(&captured, req.baseline.as_ref(), &mut out);
    keep_evidence(captured, &mut out);
    Ok(out)
}

/// A page step's failure with its code.
fn page_failure(step: VerifyStep, code: SessionCode, message: String) -> VerificationFailure {
    VerificationFailure {
        step,
        code: code.as_str().to_string(),
        message,
    }
}

/// Step 1: a ready revision newer than the finding's, within the revision timeout — waiting in
/// the page for its next change, not polling on a timer.
async fn wait_for_revision<P: ObservePage>(
    page: &mut P,
    req: &ObserveRequest,
    out: &mut PageVerification,
) -> Result<(), SessionError> {
    let until = Instant::now() + Duration::from_millis(req.revision_timeout_ms);
    let no = match page
        .wait_revision(req.after_revision, until)
        .await?
        .accepted
    {
        Ok(revision) => {
            out.revision = Some(revision);
            return Ok(());
        }
        Err(no) => no,
    };
    let message = match no {
        NoRevision::NoBridge => {
            "the page has no Test Kit bridge, so it has no revision to wait for".to_string()
        }
        NoRevision::TimedOut { last, ready } => {
            out.revision = last;
            format!(
                "no ready Test Kit revision newer than {} within {} ms (last seen: {}, \
                 ready: {ready})",
                req.after_revision
                    .map_or_else(|| "none".into(), |r| r.to_string()),
                req.revision_timeout_ms,
                last.map_or_else(|| "none".into(), |r| r.to_string()),
            )
        }
    };
    out.failure = Some(page_failure(
        VerifyStep::Revision,
        SessionCode::RepairNoNewRevision,
        message,
    ));
    Ok(())
}

/// Step 2: the target found again through its locators in order (role+name, label, test id,
/// placeholder, text, css), or through the declared replacement alone. None fails (unless the
/// only target criterion is `target_hidden`, which a removed element satisfies); several fail.
async fn find_target<P: ObservePage>(
    page: &mut P,
    req: &ObserveRequest,
    replacement: Option<&Target>,
    deadline: Instant,
    out: &mut PageVerification,
) -> Result<Located, SessionError> {
    let candidates = locate::candidates(&req.locators, replacement);
    if candidates.is_empty() {
        return Ok(Located::Nothing);
    }
    let located = page.locate(&candidates, deadline).await?;
    match &located {
        Located::One(resolution, _, _) => out.page.target = Some(resolution.clone()),
        Located::Missing if criteria::only_hidden_wanted(&req.criteria) => {}
        Located::Missing => {
            out.failure = Some(page_failure(
                VerifyStep::Target,
                SessionCode::RepairTargetMissing,
                format!(
                    "none of the {} locator(s) names an element on the repaired page",
                    candidates.len()
                ),
            ))
        }
        Located::Ambiguous(n) => {
            out.failure = Some(page_failure(
                VerifyStep::Target,
                SessionCode::RepairTargetAmbiguous,
                format!("no locator names exactly one element (one names {n})"),
            ))
        }
        Located::Nothing => {}
    }
    Ok(located)
}

/// Step 3: the typed success criteria against the element step 2 found and the page (prose
/// criteria are kept for the reviewer as not verifiable), then a layout finding's check: a
/// placement's destination must be addressable, a rearranged node (or a stable replacement) must
/// overlap its destination.
async fn check_criteria<P: ObservePage>(
    page: &mut P,
    req: &ObserveRequest,
    located: &Located,
    deadline: Instant,
    out: &mut PageVerification,
) -> Result<(), SessionError> {
    let view = match located {
        Located::One(_, _, facts) => TargetView::Found(facts),
        Located::Missing => TargetView::Gone,
        Located::Ambiguous(_) => TargetView::Unresolved,
        Located::Nothing => TargetView::NoTarget,
    };
    let page_text = if criteria::needs_page_text(&req.criteria) {
        page.page_text(deadline).await?.text
    } else {
        None
    };
    out.page.criteria = criteria::evaluate(&req.criteria, view, page_text.as_deref());
    if out.failure.is_none() {
        if let Some(message) = criteria::first_failure(&out.page.criteria) {
            out.failure = Some(page_failure(
                VerifyStep::Criteria,
                SessionCode::RepairCriterionFailed,
                message,
            ));
        }
    }
    let Some(want) = &req.layout else {
        return Ok(());
    };
    let node = match located {
        Located::Ambiguous(_) => return Ok(()),
        // A replacement stands in for the moved node only when it is stable.
        Located::One(r, _, _) if r.locator == LocatorKind::Replacement && !r.stable => None,
        Located::One(_, target, _) => Some(target),
        _ => None,
    };
    let reading = page.measure_layout(want, node, deadline).await?;
    out.page.layout = Some(reading.outcome);
    if let (None, Some(missed)) = (&out.failure, reading.missed) {
        out.failure = Some(VerificationFailure {
            step: VerifyStep::Criteria,
            code: missed.code,
            message: missed.message,
        });
    }
    Ok(())
}

/// Step 4: the errors since the document loaded against the baseline's counts. Any new page
/// error fails; new console errors are reported (and widen the slice in step 6).
fn compare_errors(captured: &Captured, baseline: Option<&Baseline>, out: &mut PageVerification) {
    let delta = error_delta(captured.console_errors, captured.page_errors, baseline);
    if out.failure.is_none() && delta.new_page_errors > 0 {
        let last = captured.last_page_error.as_deref().unwrap_or("");
        out.failure = Some(page_failure(
            VerifyStep::Errors,
            SessionCode::RepairNewPageError,
            format!(
                "{} new uncaught page error(s) since the baseline (last: {last:?})",
                delta.new_page_errors
            ),
        ));
    }
    out.page.errors = Some(delta);
}

/// Errors now compared with the baseline's counts. Counts, not messages: within one document
/// the logs only grow, and a reloaded document that logs the same errors at load counts the same.
/// Without a baseline every error counts as new (nothing proves it was there before).
fn error_delta(console_now: u32, page_now: u32, baseline: Option<&Baseline>) -> ErrorDelta {
    let (console_before, page_before) =
        baseline.map_or((0, 0), |b| (b.console_errors, b.page_errors));
    ErrorDelta {
        new_console_errors: console_now.saturating_sub(console_before),
        new_page_errors: page_now.saturating_sub(page_before),
        baseline: baseline.is_some(),
    }
}

/// Step 5: the fresh evidence (screenshot, Page Context, console, page errors) with its digests;
/// a capture that failed fails the step when nothing failed before.
fn keep_evidence(captured: Captured, out: &mut PageVerification) {
    match captured.failed {
        None => {
            out.page.evidence = captured.evidence;
            out.page.ui_facts = captured.ui_facts;
        }
        Some(e) if out.failure.is_none() => {
            out.failure = Some(VerificationFailure {
                step: VerifyStep::Capture,
                code: e.code.as_str().to_string(),
                message: e.message,
            });
        }
        Some(_) => {}
    }
}

/// Step 6: the slice, planned by the ledger's rule (`a3s_test_ledger::plan_slice`) from what the
/// page found and what changed. Expanded with an empty catalog fails closed.
fn plan_slice(run: &mut Run) {
    let baseline = run.claim.facts.baseline.is_some();
    let errors = run.record.page.errors.clone().unwrap_or(ErrorDelta {
        new_console_errors: 0,
        new_page_errors: 0,
        baseline,
    });
    let input = SliceInput {
        source_files: a3s_test_ledger::source_files(&run.claim.finding),
        changed_files: run.ask.changed_files.clone(),
        stable_locator: run.record.page.target.as_ref().is_some_and(|t| t.stable),
        new_console_errors: errors.new_console_errors > 0,
        new_page_errors: errors.new_page_errors > 0,
        prior_acl_proof_passed: run.claim.facts.prior_acl_proof_passed,
        has_baseline: baseline,
    };
    match a3s_test_ledger::plan_slice(&input, &run.catalog) {
        Ok(decision) => run.record.slice = Some(decision),
        Err(e) => {
            let a3s_test_ledger::SliceError::EmptyCatalog { decision, .. } = &e;
            run.record.slice = Some((**decision).clone());
            run.fail(VerifyStep::Slice, e.code(), e.to_string());
        }
    }
}

/// Step 7: the slice's trusted checks, run by A3S Test, or the orchestrator's results for
/// exactly those checks. Any check that did not pass fails the step with its own code.
async fn run_checks(run: &mut Run) -> Result<(), SessionError> {
    let selected = run
        .record
        .slice
        .as_ref()
        .map(|s| s.selected_checks.clone())
        .unwrap_or_default();
    run.record.checks = match &run.ask.reported {
        Some(reported) => checks::reported(&selected, reported),
        None => {
            checks::execute(
                &run.ask.root,
                &run.catalog,
                &selected,
                &run.ask.session_dir,
                &run.dir,
            )
            .await?
        }
    };
    if let Some(failure) = crate::repair::checks::first_failure(&run.record.checks) {
        run.fail_with(failure);
    }
    Ok(())
}

/// Step 8: when the target resolved through a stable locator and the finding has explicit text
/// criteria, the ACL regression candidate is generated (printed and re-admitted by `lang`) and
/// proven by the page in a fresh browser context. Nothing due is a pass; a candidate that does
/// not admit (a generator bug) or fails its proof fails the step. It is never written into the
/// application's files.
async fn prove_candidate<P: VerifyPage>(page: &mut P, run: &mut Run) -> Result<(), SessionError> {
    let Some(target) = &run.record.page.target else {
        return Ok(());
    };
    let Some(url) = run.claim.facts.baseline.as_ref().map(|b| b.url.clone()) else {
        return Ok(());
    };
    let source = match generate(&run.claim.finding, target, &url) {
        Ok(Some(source)) => source,
        Ok(None) => return Ok(()),
        Err(e) => {
            run.fail(VerifyStep::Candidate, PROOF_FAILED, e.to_string());
            return Ok(());
        }
    };
    let made = page
        .prove(RepairProve {
            candidate: source,
            dir: run.dir.clone(),
        })
        .await?;
    let proof = made.proof.clone();
    run.record.candidate = Some(made);
    if !proof.passed {
        // The step fails with its own code; the proof keeps the failing step's code.
        run.fail(
            VerifyStep::Candidate,
            PROOF_FAILED,
            format!(
                "the ACL candidate failed in a fresh browser context: {} {}",
                proof.code.as_deref().unwrap_or(""),
                proof.message.as_deref().unwrap_or("")
            ),
        );
    }
    Ok(())
}

/// The verdict: `record` as `ask`'s `verify_result`, appended by actor `a3s-test` — the only
/// place a verdict is built.
fn record_verdict<L: VerifyLedger>(
    ledger: &mut L,
    ask: &Ask,
    record: VerificationRecord,
) -> Result<Verdict, LedgerError> {
    let recorded = ledger.record(Request {
        finding_id: ask.finding.clone(),
        actor: Actor::A3sTest,
        request_id: Some(ask.request_id.clone()),
        attempt_id: Some(ask.attempt_id.clone()),
        action: Action::VerifyResult {
            record: Box::new(record.clone()),
            changed_files: ask.changed_files.clone(),
            auto_resolve: ask.auto_resolve,
        },
    })?;
    Ok(Verdict { record, recorded })
}

/// How long this verification may take, as the lease its `verify_start` asks for: the page
/// steps (the revision wait and steps 2–5), every check of the catalog run to its own timeout
/// and cleaned up (the slice selects some of them; none run here when the orchestrator reports
/// the results), the candidate's proof, and a minute for the ledger and supervisor turns in
/// between. Never shorter than the default lease. Without it a check longer than the default
/// lease would let the lease lapse mid-verification, and the verdict would be refused.
fn verification_window(ask: &Ask) -> u64 {
    use crate::repair::checks::longest_run;
    use crate::repair::proof::{CLEANUP_BOUND, PROOF_BOUND};
    let page = Duration::from_millis(ask.revision_timeout_ms) + STEPS_BOUND;
    let checks: Duration = match ask.reported {
        Some(_) => Duration::ZERO,
        None => ask.current.checks.iter().map(longest_run).sum(),
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
