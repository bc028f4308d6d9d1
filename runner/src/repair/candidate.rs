//! The ACL regression candidate of a verified repair (verification step 8).
//!
//! Why it exists: a repair that passed once in the session's page should keep passing. When the
//! finding says in checkable terms what "fixed" means (typed text criteria) and its target was
//! found again through a locator that survives cosmetic changes, the tool writes a small suite
//! that opens the finding's page, waits for the target and expects each typed criterion on it.
//! A reviewer may later promote it into the project's suites (`agent repair-promote`).
//!
//! Everything that came from the page — the URL, the target's role, name, label or test id, the
//! criterion texts — enters the suite only as an ACL string literal
//! ([`a3s_test_lang::printer::string_literal`]), never as syntax. The target expression is
//! re-admitted by `lang` and printed again from its IR, so a resolution string that carries more
//! than one target cannot smuggle a step in. The whole suite is printed by the canonical printer
//! and admitted again; a candidate that does not admit is a bug and is returned as an error.

use a3s_test_lang::ir::{Action, PageCondition, Target, WaitCondition};
use a3s_test_lang::printer::{format_source, string_literal};
use a3s_test_ledger::criterion::{SuccessCriterion, TargetState, TypedCriterion};
use a3s_test_ledger::verification::{LocatorKind, TargetResolution};
use a3s_test_ledger::Finding;

/// The scenario deadline written into every candidate: opening one page and a handful of
/// one-shot expectations fit well inside it, and a proof can never hang longer.
pub const CANDIDATE_TIMEOUT_MS: u64 = 15_000;
/// How long the candidate's actions and its wait for the target may take.
pub const CANDIDATE_ACTION_TIMEOUT_MS: u64 = 5_000;
/// The id of the candidate's one scenario.
pub const CANDIDATE_SCENARIO: &str = "regression";

/// Why a candidate could not be produced although one was due.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CandidateError {
    /// The generated suite did not admit: a bug in the generator, never the page's fault.
    #[error("the generated candidate is not admitted: {code}: {message}")]
    NotAdmitted {
        /// The first diagnostic's code.
        code: String,
        /// The first diagnostic's message.
        message: String,
    },
}

/// The candidate suite for `finding`, whose target re-resolved as `resolved` on `page_url`.
///
/// `Ok(None)` when no candidate is due: the locator is not stable (text, CSS, a ref; a declared
/// replacement counts only when it is a role with a name, a label or a test id), the page
/// URL is not an absolute http(s) URL, or the finding has no explicit text criterion (`target_text`, `page_text`, `page_text_absent`).
/// Visibility and state criteria are added when present, prose criteria never (only a reviewer
/// can judge those).
pub fn generate(
    finding: &Finding,
    resolved: &TargetResolution,
    page_url: &str,
) -> Result<Option<String>, CandidateError> {
    let typed: Vec<&TypedCriterion> = finding
        .criteria()
        .iter()
        .filter_map(|c| match c {
            SuccessCriterion::Typed(t) => Some(t),
            SuccessCriterion::Prose(_) => None,
        })
        .collect();
    let has_text = typed.iter().any(|t| {
        matches!(
            t,
            TypedCriterion::TargetText { .. }
                | TypedCriterion::PageText { .. }
                | TypedCriterion::PageTextAbsent { .. }
        )
    });
    // A declared replacement counts when it is itself a stable target (checked just below).
    let stable_kind = resolved.locator.is_stable() || resolved.locator == LocatorKind::Replacement;
    if !has_text || !resolved.stable || !stable_kind {
        return Ok(None);
    }
    let Some(target) = stable_target(&resolved.acl_target) else {
        return Ok(None);
    };
    let Some(url) = page(page_url) else {
        return Ok(None);
    };
    let source = suite_source(finding.id.as_str(), &target, &url, &typed);
    admitted(&source).map(Some)
}

/// The ACL target of a resolution when it is one stable semantic target (role with a name,
/// label, test id), printed again from `lang`'s IR; `None` for anything else.
pub fn stable_target(acl_target: &str) -> Option<String> {
    let statement = format!("wait {{ visible = {acl_target} }}");
    let step = a3s_test_lang::admit_statement(&statement).ok()?;
    let Action::Wait {
        condition: WaitCondition::Page(PageCondition::Visible { target }),
    } = step.action
    else {
        return None;
    };
    match &target {
        Target::Role { name: Some(_), .. } | Target::Label { .. } | Target::TestId { .. } => {
            Some(target.to_string())
        }
        _ => None,
    }
}

/// The page to open: an absolute http(s) URL (normalised), or `None` when there is no page a
/// candidate could open.
fn page(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    matches!(parsed.scheme(), "http" | "https").then(|| parsed.to_string())
}

/// The unformatted suite text: navigate, expect the target visible (unless a criterion wants it
/// hidden, which says so itself), then one `expect` per typed criterion. Each `expect` waits for
/// its own condition (web-first), so no `wait` comes first.
fn suite_source(id: &str, target: &str, page_url: &str, typed: &[&TypedCriterion]) -> String {
    let hidden = typed
        .iter()
        .any(|t| matches!(t, TypedCriterion::TargetHidden {}));
    let mut body = format!(
        "navigate \"open\" {{ url = {} }}\n",
        string_literal(page_url)
    );
    if !hidden {
        body.push_str(&format!("expect \"target\" {{ visible = {target} }}\n"));
    }
    for (n, criterion) in typed.iter().enumerate() {
        let label = format!("criterion-{}", n + 1);
        let expect = match criterion {
            TypedCriterion::TargetText { equals } => format!(
                "target = {target}\nrendered_text = {}",
                string_literal(equals)
            ),
            TypedCriterion::PageText { contains } => format!("text = {}", string_literal(contains)),
            // No visible element holds the text any more (the page's body is never a match).
            TypedCriterion::PageTextAbsent { contains } => {
                format!("hidden = text({})", string_literal(contains))
            }
            TypedCriterion::TargetVisible {} => format!("visible = {target}"),
            TypedCriterion::TargetHidden {} => format!("hidden = {target}"),
            TypedCriterion::TargetState { state } => format!("{} = {target}", keyword(*state)),
        };
        body.push_str(&format!("expect \"{label}\" {{\n{expect}\n}}\n"));
    }
    format!(
        "suite {id} {{\nscenario \"{CANDIDATE_SCENARIO}\" {{\nsurface = \"web\"\n\
         timeout_ms = {CANDIDATE_TIMEOUT_MS}\naction_timeout_ms = {CANDIDATE_ACTION_TIMEOUT_MS}\n\
         {body}}}\n}}\n",
        id = string_literal(id)
    )
}

/// The ACL state keyword of a criterion's state.
fn keyword(state: TargetState) -> &'static str {
    match state {
        TargetState::Enabled => "enabled",
        TargetState::Disabled => "disabled",
        TargetState::Checked => "checked",
        TargetState::Unchecked => "unchecked",
        TargetState::Expanded => "expanded",
        TargetState::Collapsed => "collapsed",
    }
}

/// Print `source` canonically and admit the result; anything else is a generator bug.
fn admitted(source: &str) -> Result<String, CandidateError> {
    let first = |d: &[a3s_test_lang::Diagnostic]| CandidateError::NotAdmitted {
        code: d
            .first()
            .map(|d| d.code.as_str().to_string())
            .unwrap_or_default(),
        message: d.first().map(|d| d.message.clone()).unwrap_or_default(),
    };
    let printed = format_source(source).map_err(|d| first(&d))?;
    let admission = a3s_test_lang::admit(&printed);
    if !admission.is_admitted() {
        return Err(first(&admission.diagnostics));
    }
    Ok(printed)
}

#[cfg(test)]
mod tests;
