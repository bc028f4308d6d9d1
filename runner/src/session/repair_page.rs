//! The browser half of repair verification, run inside the supervisor (which holds the page):
//! the *before* baseline recorded when a finding enters the ledger from a live page, and steps
//! 1–5 of a verification — wait for a newer ready Test Kit revision, find the target again,
//! check the typed success criteria, compare browser errors with the baseline, and capture a
//! fresh screenshot and bounded Page Context.
//!
//! Why the supervisor does this and not the agent: the verdict must come from facts the tool
//! gathered itself. Every answer is a typed value ([`a3s_test_ledger::verification::Baseline`],
//! [`PageVerification`]) whose evidence files are confined to the session folder and pinned by
//! their SHA-256. A verification that fails is still an answer (with the failing step and its
//! code); only refused input (a folder outside `artifacts/repairs/`, an inadmissible
//! replacement) is an error.
//!
//! Layout findings (placement, rearrange) also get a Layout Mode check in step 3
//! ([`layout`]): a placement's destination must be inside the viewport with an element other
//! than the page root there, and a rearranged node (found again in step 2, or its declared
//! stable replacement) must overlap its destination. A failed layout check fails the
//! verification like a failed criterion, with its own code.

pub mod criteria;
pub mod evidence;
pub mod geometry;
pub mod layout;
pub mod locate;
pub mod revision;

use super::code::{SessionCode, SessionError};
use super::page_context::live;
use a3s_test_driver::{AgentContext, StepFailure};
use a3s_test_ledger::verification::{
    Baseline, ErrorDelta, EvidenceKind, EvidenceRef, LocatorKind, PageResult, VerificationFailure,
    VerifyStep,
};
use a3s_test_ledger::{FindingId, SuccessCriterion};
use criteria::TargetView;
use evidence::EvidenceDir;
use layout::LayoutRequest;
use locate::{Located, PageLocator};
use revision::NoRevision;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
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

/// What `RepairObserve` asks for: steps 1–5 of one verification.
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

fn failure(step: VerifyStep, code: SessionCode, message: impl Into<String>) -> VerificationFailure {
    VerificationFailure {
        step,
        code: code.as_str().to_string(),
        message: message.into(),
    }
}

fn invalid(message: impl Into<String>) -> SessionError {
    SessionError::new(SessionCode::InvalidInput, message)
}

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

/// Write the screenshot, the bounded Page Context (when the page has a bridge) and the logs
/// into `dir`; returns the references and the Page Context's revision.
async fn capture<C: AgentContext>(
    ctx: &C,
    dir: &EvidenceDir,
    logs: &Logs,
    deadline: Instant,
) -> Result<(Vec<EvidenceRef>, Option<u64>), SessionError> {
    let mut refs = Vec::new();
    let png = ctx
        .screenshot_png(deadline)
        .await
        .map_err(|f: StepFailure| SessionError::from(f))?;
    refs.push(dir.write(EvidenceKind::Screenshot, SCREENSHOT, &png)?);
    let mut revision = None;
    if live::detect(ctx, deadline).await?.is_some() {
        let request = json!({ "detail": "summary", "scope": { "kind": "page" }, "ui": false });
        let (rev, snapshot) = live::snapshot(ctx, request, deadline).await?;
        revision = Some(rev);
        let body = evidence::page_context_file(&snapshot);
        refs.push(dir.write(EvidenceKind::PageContext, PAGE_CONTEXT, &body)?);
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
    Ok((refs, revision))
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
    let (evidence, revision) = capture(ctx, &folder, &logs, deadline).await?;
    Ok(Baseline {
        url,
        revision,
        console_errors: logs.console_errors(),
        page_errors: logs.page_errors(),
        evidence,
    })
}

/// Steps 1–5 of one verification. Never retries and never acts on the page.
pub async fn observe<C: AgentContext>(
    ctx: &C,
    session: &a3s_test_fsroot::Dir,
    req: &ObserveRequest,
    session_deadline: Instant,
) -> Result<PageVerification, SessionError> {
    if req.revision_timeout_ms > MAX_REVISION_TIMEOUT_MS {
        return Err(invalid(format!(
            "revision_timeout_ms must be at most {MAX_REVISION_TIMEOUT_MS}"
        )));
    }
    if req.criteria.len() > a3s_test_ledger::criterion::MAX_CRITERIA {
        return Err(invalid("too many success criteria"));
    }
    let replacement = match &req.replacement {
        Some(source) => Some(locate::admit_replacement(source).map_err(invalid)?),
        None => None,
    };
    let folder = EvidenceDir::create(session, &req.dir)?;
    let mut out = PageVerification {
        revision: None,
        page: PageResult::default(),
        failure: None,
    };

    // 1. A ready revision newer than the finding's.
    let until =
        session_deadline.min(Instant::now() + Duration::from_millis(req.revision_timeout_ms));
    match revision::wait_ready_newer(ctx, req.after_revision, until).await? {
        Ok(rev) => out.revision = Some(rev),
        Err(no) => {
            let message = match no {
                NoRevision::NoBridge => "the page has no Test Kit bridge, so it has no revision \
                                         to wait for"
                    .to_string(),
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
            out.failure = Some(failure(
                VerifyStep::Revision,
                SessionCode::RepairNoNewRevision,
                message,
            ));
        }
    }
    let deadline = session_deadline.min(Instant::now() + STEPS_BOUND);

    if out.failure.is_none() {
        // 2. The target, found again through its locators (or the declared replacement).
        let candidates = locate::candidates(&req.locators, replacement.as_ref());
        let located = locate::resolve(ctx, &candidates, deadline).await;
        let view = match &located {
            Located::One(resolution, _, facts) => {
                out.page.target = Some(resolution.clone());
                TargetView::Found(facts)
            }
            Located::Missing if criteria::only_hidden_wanted(&req.criteria) => TargetView::Gone,
            Located::Missing => {
                out.failure = Some(failure(
                    VerifyStep::Target,
                    SessionCode::RepairTargetMissing,
                    format!(
                        "none of the {} locator(s) names an element on the repaired page",
                        candidates.len()
                    ),
                ));
                TargetView::Gone
            }
            Located::Ambiguous(n) => {
                out.failure = Some(failure(
                    VerifyStep::Target,
                    SessionCode::RepairTargetAmbiguous,
                    format!("no locator names exactly one element (one names {n})"),
                ));
                TargetView::Unresolved
            }
            Located::Nothing => TargetView::NoTarget,
        };

        // 3. The typed success criteria against that element and the page.
        let page_text = if criteria::needs_page_text(&req.criteria) {
            ctx.page_text(deadline).await.ok()
        } else {
            None
        };
        out.page.criteria = criteria::evaluate(&req.criteria, view, page_text.as_deref());
        if out.failure.is_none() {
            if let Some(message) = criteria::first_failure(&out.page.criteria) {
                out.failure = Some(failure(
                    VerifyStep::Criteria,
                    SessionCode::RepairCriterionFailed,
                    message,
                ));
            }
        }

        // 3 (layout findings). The destination is addressable / the node moved there.
        if let (Some(want), false) = (&req.layout, matches!(located, Located::Ambiguous(_))) {
            let node = match &located {
                // A replacement stands in for the moved node only when it is stable.
                Located::One(r, _, _) if r.locator == LocatorKind::Replacement && !r.stable => None,
                Located::One(_, target, _) => Some(target),
                _ => None,
            };
            let (outcome, failed) = layout::check(ctx, want, node, deadline).await;
            out.page.layout = Some(outcome);
            if let (None, Some((code, message))) = (&out.failure, failed) {
                out.failure = Some(failure(VerifyStep::Criteria, code, message));
            }
        }
    }

    // 4. Browser errors against the baseline (without one, every error counts as new).
    let logs = Logs::read(ctx);
    let delta = error_delta(
        logs.console_errors(),
        logs.page_errors(),
        req.baseline.as_ref(),
    );
    if out.failure.is_none() && delta.new_page_errors > 0 {
        let last = logs
            .page_errors
            .0
            .last()
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .chars()
            .take(200)
            .collect::<String>();
        out.failure = Some(failure(
            VerifyStep::Errors,
            SessionCode::RepairNewPageError,
            format!(
                "{} new uncaught page error(s) since the baseline (last: {last:?})",
                delta.new_page_errors
            ),
        ));
    }
    out.page.errors = Some(delta);

    // 5. Fresh evidence, hashed.
    match capture(ctx, &folder, &logs, deadline).await {
        Ok((refs, _)) => out.page.evidence = refs,
        Err(e) if out.failure.is_none() => {
            out.failure = Some(VerificationFailure {
                step: VerifyStep::Capture,
                code: e.code.as_str().to_string(),
                message: e.message,
            });
        }
        Err(_) => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_new_only_beyond_the_baseline() {
        let entries = vec![
            json!({ "type": "error", "text": "a" }),
            json!({ "type": "log", "text": "b" }),
            json!({ "type": "assert", "text": "c" }),
        ];
        assert_eq!(console_errors(&entries), 2);
        let baseline = Baseline {
            url: "http://127.0.0.1:1/".into(),
            revision: Some(3),
            console_errors: 2,
            page_errors: 1,
            evidence: Vec::new(),
        };
        let d = error_delta(3, 1, Some(&baseline));
        assert_eq!(
            (d.new_console_errors, d.new_page_errors, d.baseline),
            (1, 0, true)
        );
        let d = error_delta(0, 0, Some(&baseline));
        assert_eq!((d.new_console_errors, d.new_page_errors), (0, 0));
        let d = error_delta(2, 1, None);
        assert_eq!(
            (d.new_console_errors, d.new_page_errors, d.baseline),
            (2, 1, false)
        );
    }

    #[test]
    fn a_page_verification_has_the_camel_case_wire_shape() {
        let v = PageVerification {
            revision: Some(4),
            page: PageResult {
                errors: Some(error_delta(0, 0, None)),
                ..PageResult::default()
            },
            failure: Some(failure(
                VerifyStep::Revision,
                SessionCode::RepairNoNewRevision,
                "none",
            )),
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
