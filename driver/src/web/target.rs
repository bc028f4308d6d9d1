//! Targets: how they are named in messages, refusing refs outside agent sessions, and the
//! actionability wait that runs before every action (ACL.md §3).

use super::cdp::COMMAND_BOUND;
use super::input::Point;
use super::script;
use super::tab::Tab;
use crate::failure::FailureCode;
use crate::{StepEnv, StepFailure};
use a3s_test_lang::ir::Target;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// The most one in-page actionability poll runs before control returns to the driver (so a
/// navigation or a crash is noticed between polls).
const POLL_SLICE: Duration = Duration::from_millis(1000);

/// A target as written in ACL (see `Target`'s `Display`).
pub(crate) fn describe(target: &Target) -> String {
    target.to_string()
}

/// Refs are bound to an agent observation; a suite cannot resolve them.
pub(crate) fn refuse_ref(target: &Target) -> Result<(), StepFailure> {
    match target {
        Target::Ref { reference } => Err(StepFailure::new(
            FailureCode::Unsupported,
            format!(
                "ref(\"{reference}\") is only meaningful in an agent session (it names a node of \
                 one observation); use a role, label, text, testid or css target in suites"
            ),
        )),
        _ => Ok(()),
    }
}

/// What an action needs of its target besides being visible and stable.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Needs {
    /// Not disabled.
    pub enabled: bool,
    /// An editable text control.
    pub editable: bool,
}

/// Wait until exactly one visible, enabled (if needed), stable match exists; return its centre.
pub(crate) async fn wait_actionable(
    tab: &Tab,
    target: &Target,
    needs: Needs,
    env: &StepEnv<'_>,
) -> Result<(Point, String), StepFailure> {
    refuse_ref(target)?;
    let start = Instant::now();
    let limit = (start + env.action_timeout).min(env.deadline);
    loop {
        let remaining = limit.saturating_duration_since(Instant::now());
        let slice = remaining.min(POLL_SLICE);
        let args = json!({
            "target": target,
            "budget_ms": slice.as_millis() as u64,
            "enabled": needs.enabled,
            "editable": needs.editable,
        });
        let r = script::call(tab, "actionable", args, slice + COMMAND_BOUND, env.deadline)
            .await
            .map_err(|f| name_target(f, target))?;
        let status = r.get("status").and_then(Value::as_str).unwrap_or("");
        if status == "ok" {
            let x = r.get("x").and_then(Value::as_f64).unwrap_or(0.0);
            let y = r.get("y").and_then(Value::as_f64).unwrap_or(0.0);
            let element = r
                .get("element")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            return Ok((Point { x, y }, element));
        }
        if Instant::now() >= limit {
            let waited = start.elapsed().as_millis();
            let what = describe(target);
            return Err(match status {
                "not_found" => StepFailure::new(
                    FailureCode::TargetNotFound,
                    format!("{what}: no element matches (waited {waited} ms)"),
                ),
                "ambiguous" => {
                    let count = r.get("count").and_then(Value::as_u64).unwrap_or(0);
                    let some = r
                        .get("candidates")
                        .and_then(Value::as_array)
                        .map(|c| {
                            c.iter()
                                .filter_map(Value::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default();
                    StepFailure::new(
                        FailureCode::TargetAmbiguous,
                        format!("{what}: {count} elements match ({some}) (waited {waited} ms)"),
                    )
                }
                _ => {
                    let reason = r.get("reason").and_then(Value::as_str).unwrap_or("unknown");
                    StepFailure::new(
                        FailureCode::TargetNotActionable,
                        format!("{what}: one match, but {reason} (waited {waited} ms)"),
                    )
                }
            });
        }
    }
}

/// Prefix a resolver failure with the target it concerns.
pub(crate) fn name_target(mut failure: StepFailure, target: &Target) -> StepFailure {
    if matches!(
        failure.code,
        FailureCode::TargetNotFound | FailureCode::TargetAmbiguous | FailureCode::InvalidSelector
    ) {
        failure.message = format!("{}: {}", describe(target), failure.message);
    }
    failure
}
