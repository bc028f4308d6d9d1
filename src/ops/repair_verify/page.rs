//! Steps 1–5 in the session's browser: one `RepairObserve` request to the session's supervisor,
//! which waits for a newer ready revision, re-resolves the target, evaluates the criteria (and a
//! layout finding's placement or rearrange check), compares errors with the baseline and captures the after-evidence
//! (`a3s_test_runner::session::repair_page`). This module only builds the request from the
//! ledger's facts and types the answer.

use super::{Checked, Facts};
use crate::ops::session::turn;
use crate::ops::Context;
use a3s_test_ledger::Finding;
use a3s_test_runner::session::repair_page::{layout, locate, ObserveRequest, PageVerification};
use a3s_test_runner::session::SessionError;

/// Ask the session's browser for steps 1–5 of verifying `finding`; evidence goes to `dir`
/// (session-relative).
pub fn observe(
    ctx: &Context,
    c: &Checked,
    finding: &Finding,
    facts: &Facts,
    dir: &str,
) -> Result<PageVerification, SessionError> {
    // The context is untrusted page data: only the locators the page recorded for the marked
    // node are read from it, and the supervisor checks each again.
    let context: serde_json::Value = finding
        .context
        .as_ref()
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .unwrap_or(serde_json::Value::Null);
    let request = ObserveRequest {
        after_revision: facts.reference_revision(finding),
        revision_timeout_ms: c.revision_timeout_ms,
        locators: locate::locators_of_context(&context),
        replacement: facts.replacement.clone(),
        criteria: finding.criteria().to_vec(),
        baseline: facts.baseline.clone(),
        layout: layout::LayoutRequest::of_target(
            finding.target.layout.as_ref().map(|l| l.get()),
            finding.target.region_scroll.as_ref().map(|s| s.get()),
        ),
        dir: dir.to_owned(),
    };
    turn(ctx, c.session.as_str(), request)
}
