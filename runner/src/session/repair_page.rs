//! The browser half of repair verification, run inside the supervisor (which holds the page):
//! the *before* baseline recorded when a finding enters the ledger from a live page, and the
//! typed page operations steps 1–5 of a verification read through ([`LivePage`], the
//! supervisor's implementation of [`ObservePage`]) — wait for a newer ready Test Kit revision,
//! resolve the target's locators, read the page's text, measure a layout finding's geometry, and
//! read the error counts while capturing a fresh screenshot and bounded Page Context.
//!
//! Why the supervisor reads and the pipeline decides: the verdict must come from facts the tool
//! gathered itself, in one order a reader can follow in one place
//! ([`crate::repair::verify`]). The page side only reads; every answer is a typed value whose
//! evidence files are confined to the session folder and pinned by their SHA-256. Only refused
//! input (a folder outside `artifacts/repairs/`, an inadmissible replacement) is an error.
//!
//! Layout findings (placement, rearrange) also get a Layout Mode check in step 3
//! ([`layout`]): a placement's destination must be inside the viewport with an element other
//! than the page root there, and a rearranged node (found again in step 2, or its declared
//! stable replacement) must overlap its destination.

pub mod criteria;
pub mod evidence;
pub mod geometry;
pub mod layout;
pub mod locate;
pub mod revision;

use super::code::{SessionCode, SessionError};
use super::page_context::live;
use super::ui::evidence as ui_evidence;
use crate::repair::verify::ObservePage;
use a3s_test_driver::{AgentContext, StepFailure};
use a3s_test_lang::ir::Target;
use a3s_test_ledger::verification::{
    Baseline, EvidenceKind, EvidenceRef, LayoutOutcome, LocatorKind, PageResult,
    VerificationFailure,
};
use a3s_test_ledger::{FindingId, SuccessCriterion};
use evidence::EvidenceDir;
use layout::LayoutRequest;
use locate::{Located, PageLocator};
use revision::NoRevision;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

/// The longest wait for a newer revision a verification may ask for.
pub const MAX_REVISION_TIMEOUT_MS: u64 = 60_000;
/// The time steps 2–5 (and a baseline) get after the revision wait.
pub const STEPS_BOUND: Duration = Duration::from_secs(20);

/// File names inside an evidence folder.
const SCREENSHOT: &str = "screenshot.png";
const PAGE_CONTEXT: &str = "page-context.json";
const CONSOLE: &str = "console.json";
const PAGE_ERRORS: &str = "page-errors.json";

/// What steps 1–5 of one verification are asked (the pipeline's
/// [`crate::repair::verify::observe_page`]; also the `RepairObserve` request, which runs them
/// here in one turn).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObserveRequest {
    /// The finding's `contextRevision`: only a ready revision newer than it counts (`None`: any
    /// ready revision).
    pub after_revision: Option<u64>,
    /// How long to wait for that revision (at most [`MAX_REVISION_TIMEOUT_MS`]).
    pub revision_timeout_ms: u64,
    /// The finding's locators for its marked node (see [`locate::locators_of_context`]).
    #[serde(default)]
    pub locators: Vec<PageLocator>,
    /// An ACL target the agent declared instead of the original target (admitted here again).
    #[serde(default)]
    pub replacement: Option<String>,
    /// The finding's success criteria.
    #[serde(default)]
    pub criteria: Vec<SuccessCriterion>,
    /// The finding's before baseline, if it has one.
    #[serde(default)]
    pub baseline: Option<Baseline>,
    /// The Layout Mode check of a placement or rearrange finding.
    #[serde(default)]
    pub layout: Option<LayoutRequest>,
    /// Where the evidence goes, relative to the session folder (under `artifacts/repairs/`).
    pub dir: String,
}

/// What steps 1–5 found. `failure` names the first step that failed and its code; `None`
/// means the page side of the verification passed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageVerification {
    /// The revision accepted in step 1 (or the last one seen when none was).
    pub revision: Option<u64>,
    /// What steps 2–5 found, in the shape the verification record keeps.
    #[serde(flatten)]
    pub page: PageResult,
    /// The first failing step, if any.
    pub failure: Option<VerificationFailure>,
}

fn invalid(message: impl Into<String>) -> SessionError {
    SessionError::new(SessionCode::InvalidInput, message)
}

/// What the `wait_revision` page operation saw: the accepted ready revision, or why none was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevisionSeen {
    /// The first ready revision newer than the one asked about, or why there was none in time.
    pub accepted: Result<u64, NoRevision>,
}

/// What the `read_page_text` page operation read: the page's visible text (`None` when it
/// could not be read).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageText {
    /// The text, untrusted.
    pub text: Option<String>,
}

/// What the `measure_layout` page operation found for a layout finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutReading {
    /// The outcome kept in the record.
    pub outcome: LayoutOutcome,
    /// Why the destination is not addressable or the node did not move there, if so.
    pub missed: Option<LayoutMiss>,
}

/// A layout check that did not hold: its code and message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutMiss {
    /// `test.session.repair_layout_unaddressable` or `test.session.repair_layout_not_moved`.
    pub code: String,
    /// What was measured.
    pub message: String,
}

/// What the `capture_evidence` page operation read and wrote at one moment: the error counts
/// since the document loaded and the after-evidence, hashed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Captured {
    /// Console errors (`error` and `assert` messages) since the document loaded.
    pub console_errors: u32,
    /// Uncaught page errors since the document loaded.
    pub page_errors: u32,
    /// The last page error's message (untrusted, at most 200 characters).
    pub last_page_error: Option<String>,
    /// The evidence files written (none when the capture failed).
    pub evidence: Vec<EvidenceRef>,
    /// The page's `@uN` UI facts, one printed line each, pinned by the `ui_understanding` file
    /// among `evidence` (none without a Test Kit record, or when its record broke a rule).
    #[serde(default)]
    pub ui_facts: Vec<String>,
    /// Why the capture failed, if it did (the counts above still hold).
    pub failed: Option<SessionError>,
}

/// The longest page-error message a capture reports.
const LAST_ERROR_CHARS: usize = 200;

/// Console errors among `entries` (the console's `error` and `assert` messages).
fn console_errors(entries: &[Value]) -> u32 {
    entries
        .iter()
        .filter(|e| {
            matches!(
                e.get("type").and_then(Value::as_str),
                Some("error" | "assert")
            )
        })
        .count() as u32
}

/// The page's logs as read at one moment.
struct Logs {
    console: (Vec<Value>, usize),
    page_errors: (Vec<Value>, usize),
}

impl Logs {
    fn read<C: AgentContext>(ctx: &C) -> Self {
        Logs {
            console: ctx.console_since_load(),
            page_errors: ctx.page_errors_since_load(),
        }
    }

    fn console_errors(&self) -> u32 {
        console_errors(&self.console.0)
    }

    fn page_errors(&self) -> u32 {
        self.page_errors.1 as u32
    }
}

/// What [`capture`] wrote: the references, the Page Context's revision and the cited `@uN`
/// facts.
type Written = (Vec<EvidenceRef>, Option<u64>, Vec<String>);

/// Write the screenshot, the bounded Page Context and its checked UI understanding (when the
/// page has a bridge) and the logs into `dir`.
async fn capture<C: AgentContext>(
    ctx: &C,
    dir: &EvidenceDir,
    logs: &Logs,
    deadline: Instant,
) -> Result<Written, SessionError> {
    let mut refs = Vec::new();
    let png = ctx
        .screenshot_png(deadline)
        .await
        .map_err(|f: StepFailure| SessionError::from(f))?;
    refs.push(dir.write(EvidenceKind::Screenshot, SCREENSHOT, &png)?);
    let mut revision = None;
    let mut ui_facts = Vec::new();
    if live::detect(ctx, deadline).await?.is_some() {
        let request = crate::session::ui::UiBudget::default().bridge_request();
        let (rev, snapshot) = live::snapshot(ctx, request, deadline).await?;
        revision = Some(rev);
        let body = evidence::page_context_file(&ui_evidence::without_ui(&snapshot));
        refs.push(dir.write(EvidenceKind::PageContext, PAGE_CONTEXT, &body)?);
        if let Some((body, lines)) = ui_evidence::cite(&snapshot) {
            refs.push(dir.write(EvidenceKind::UiUnderstanding, ui_evidence::UI_FILE, &body)?);
            ui_facts = lines;
        }
    }
    let (entries, total) = &logs.console;
    refs.push(dir.write(
        EvidenceKind::Console,
        CONSOLE,
        &evidence::log_file(entries, *total),
    )?);
    let (entries, total) = &logs.page_errors;
    let body = evidence::log_file(entries, *total);
    refs.push(dir.write(EvidenceKind::PageErrors, PAGE_ERRORS, &body)?);
    Ok((refs, revision, ui_facts))
}

/// Record the before baseline of `finding` into `dir` (session-relative, under
/// `artifacts/repairs/<finding>/`, still empty: the first baseline is the one that counts).
pub async fn baseline<C: AgentContext>(
    ctx: &C,
    session: &a3s_test_fsroot::Dir,
    finding: &str,
    dir: &str,
    deadline: Instant,
) -> Result<Baseline, SessionError> {
    let id = FindingId::parse(finding).map_err(|e| invalid(e.to_string()))?;
    let own = format!("{}/{}/", evidence::REPAIRS_DIR, id.as_str());
    if !dir.starts_with(&own) {
        return Err(SessionError::new(
            SessionCode::Policy,
            format!("a baseline of {finding} belongs under {own}"),
        ));
    }
    let folder = EvidenceDir::create(session, dir)?;
    if !folder.is_empty() {
        return Err(invalid(format!(
            "{dir} already holds a baseline; the first one is kept"
        )));
    }
    let deadline = deadline.min(Instant::now() + STEPS_BOUND);
    let (url, _) = ctx.document_identity(deadline).await?;
    let logs = Logs::read(ctx);
    let (evidence, revision, _) = capture(ctx, &folder, &logs, deadline).await?;
    Ok(Baseline {
        url,
        revision,
        console_errors: logs.console_errors(),
        page_errors: logs.page_errors(),
        evidence,
    })
}

/// The `RepairObserve` page operation: steps 1–5 of one verification against this page, all in
/// one turn. The steps and their decisions are the pipeline's
/// ([`crate::repair::verify::observe_page`]); this only runs them on the in-process page. The
/// evidence folder is checked and created first, so a bad folder is refused before any wait.
pub async fn observe<C: AgentContext>(
    ctx: &C,
    session: &a3s_test_fsroot::Dir,
    req: &ObserveRequest,
    session_deadline: Instant,
) -> Result<PageVerification, SessionError> {
    EvidenceDir::create(session, &req.dir)?;
    let mut page = LivePage::new(ctx, session, session_deadline);
    crate::repair::verify::observe_page(&mut page, req).await
}

/// The session's page as the verification pipeline reads it, in the supervisor: each method is
/// one typed page operation (the socket's `wait_revision`, `locate_target`, `read_page_text`,
/// `measure_layout`, `capture_evidence` answer through it too). Reads only; nothing acts on the
/// page. Every deadline is also cut at the session's.
pub struct LivePage<'a, C> {
    ctx: &'a C,
    session: &'a a3s_test_fsroot::Dir,
    session_deadline: Instant,
}

impl<'a, C: AgentContext> LivePage<'a, C> {
    /// The page of `ctx`, its evidence under `session`, nothing past `session_deadline`.
    pub fn new(ctx: &'a C, session: &'a a3s_test_fsroot::Dir, session_deadline: Instant) -> Self {
        LivePage {
            ctx,
            session,
            session_deadline,
        }
    }
}

impl<C: AgentContext> ObservePage for LivePage<'_, C> {
    async fn wait_revision(
        &mut self,
        after: Option<u64>,
        until: Instant,
    ) -> Result<RevisionSeen, SessionError> {
        let until = until.min(self.session_deadline);
        let accepted = revision::wait_ready_newer(self.ctx, after, until).await?;
        Ok(RevisionSeen { accepted })
    }

    async fn locate(
        &mut self,
        candidates: &[(LocatorKind, Target)],
        deadline: Instant,
    ) -> Result<Located, SessionError> {
        let deadline = deadline.min(self.session_deadline);
        Ok(locate::resolve(self.ctx, candidates, deadline).await)
    }

    async fn page_text(&mut self, deadline: Instant) -> Result<PageText, SessionError> {
        let deadline = deadline.min(self.session_deadline);
        Ok(PageText {
            text: self.ctx.page_text(deadline).await.ok(),
        })
    }

    async fn measure_layout(
        &mut self,
        want: &LayoutRequest,
        node: Option<&Target>,
        deadline: Instant,
    ) -> Result<LayoutReading, SessionError> {
        let deadline = deadline.min(self.session_deadline);
        let (outcome, missed) = layout::check(self.ctx, want, node, deadline).await;
        Ok(LayoutReading {
            outcome,
            missed: missed.map(|(code, message)| LayoutMiss {
                code: code.as_str().to_string(),
                message,
            }),
        })
    }

    async fn capture(&mut self, dir: &str, deadline: Instant) -> Result<Captured, SessionError> {
        let deadline = deadline.min(self.session_deadline);
        let folder = EvidenceDir::create(self.session, dir)?;
        let logs = Logs::read(self.ctx);
        let last_page_error = logs
            .page_errors
            .0
            .last()
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
            .map(|m| m.chars().take(LAST_ERROR_CHARS).collect());
        let (evidence, ui_facts, failed) = match capture(self.ctx, &folder, &logs, deadline).await {
            Ok((refs, _, facts)) => (refs, facts, None),
            Err(e) => (Vec::new(), Vec::new(), Some(e)),
        };
        Ok(Captured {
            console_errors: logs.console_errors(),
            page_errors: logs.page_errors(),
            last_page_error,
            evidence,
            ui_facts,
            failed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn console_errors_are_the_error_and_assert_messages() {
        let entries = vec![
            json!({ "type": "error", "text": "a" }),
            json!({ "type": "log", "text": "b" }),
            json!({ "type": "assert", "text": "c" }),
        ];
        assert_eq!(console_errors(&entries), 2);
    }

    #[test]
    fn a_page_verification_has_the_camel_case_wire_shape() {
        let v = PageVerification {
            revision: Some(4),
            page: PageResult {
                errors: Some(a3s_test_ledger::verification::ErrorDelta {
                    new_console_errors: 0,
                    new_page_errors: 0,
                    baseline: false,
                }),
                ..PageResult::default()
            },
            failure: Some(VerificationFailure {
                step: a3s_test_ledger::verification::VerifyStep::Revision,
                code: SessionCode::RepairNoNewRevision.as_str().into(),
                message: "none".into(),
            }),
        };
        let wire = serde_json::to_value(&v).unwrap();
        assert_eq!(
            wire,
            json!({ "revision": 4, "target": null, "criteria": [],
                    "errors": { "newConsoleErrors": 0, "newPageErrors": 0, "baseline": false },
                    "evidence": [],
                    "failure": { "step": "revision", "code": "test.session.repair_no_new_revision",
                                 "message": "none" } })
        );
        let back: PageVerification = serde_json::from_value(wire).unwrap();
        assert_eq!(back, v);
    }
}
