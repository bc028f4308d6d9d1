//! Targets: how they are named in messages, refusing refs outside agent sessions, and the
//! actionability wait that runs before every action (`docs/acl.md` §4).
//!
//! A pointer action also needs its target to *receive* the pointer: the resolver hit-tests the
//! action point, and the element on top there must be the target, inside it, or a label that
//! forwards to it. While something else covers the point the wait goes on like any other
//! actionability check; at its end the step fails with `test.driver.web.target_covered`, naming
//! the covering element, and nothing has been dispatched.
//!
//! The wait is bounded by the action timeout or the scenario deadline, whichever comes first.
//! When the action timeout ends it, the target's own code says what was wrong
//! (`target_not_found`, …, a product failure). When the scenario deadline ends it, the scenario
//! has run out of time: `test.run.timeout` (exit 124), naming the target and what was last seen.

use super::cdp::COMMAND_BOUND;
use super::input::{self, Point};
use super::script;
use super::tab::Tab;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{StepEnv, StepFailure};
use a3s_test_lang::ir::{DragEdge, Position, Target};
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
    /// The pointer presses or rests at the action point: the target must be what is on top
    /// there (hit test).
    pub pointer: bool,
}

impl Needs {
    /// A control that must not be disabled, acted on without the pointer (select).
    pub(crate) const ENABLED: Needs = Needs {
        enabled: true,
        editable: false,
        pointer: false,
    };
    /// An enabled text control (fill, type).
    pub(crate) const EDITABLE: Needs = Needs {
        enabled: true,
        editable: true,
        pointer: false,
    };
    /// An enabled control the pointer presses (click, check, download).
    pub(crate) const PRESS: Needs = Needs {
        enabled: true,
        editable: false,
        pointer: true,
    };
    /// An element the pointer moves onto without pressing it (hover, either end of a drag).
    pub(crate) const POINT: Needs = Needs {
        enabled: false,
        editable: false,
        pointer: true,
    };
}

/// Where on its target an action aims: the centre of its visible box, just inside one edge
/// (`drag { edge }`), or a position from the box's top-left corner (`position { x y }`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Aim<'a> {
    /// Just inside this edge.
    pub edge: Option<DragEdge>,
    /// At this point of the box.
    pub position: Option<Position>,
    /// The element a drag carries: on top at the point, it does not cover the target (a
    /// person drops what they carry onto what is under it; a page may move it with the pointer).
    pub carried: Option<&'a Target>,
}

/// A target that is ready: the viewport point the action aims at, the target described, and
/// the element the hit test found on top at that point (empty when not hit-tested).
#[derive(Debug, Clone)]
pub(crate) struct Reached {
    /// The action point, CSS px of the top-level viewport.
    pub point: Point,
    /// The target, described.
    pub element: String,
    /// What is on top at the point: the target, something inside it, or a label of it.
    pub hit: String,
}

impl Reached {
    fn of(r: &Value) -> Reached {
        let text = |key: &str| r.get(key).and_then(Value::as_str).unwrap_or("").to_string();
        Reached {
            point: Point {
                x: r.get("x").and_then(Value::as_f64).unwrap_or(0.0),
                y: r.get("y").and_then(Value::as_f64).unwrap_or(0.0),
            },
            element: text("element"),
            hit: text("hit"),
        }
    }
}

/// Wait until exactly one visible, enabled (if needed), stable match exists (on top at its
/// centre, for a pointer action); return it.
pub(crate) async fn wait_actionable(
    tab: &Tab,
    target: &Target,
    needs: Needs,
    env: &StepEnv<'_>,
) -> Result<Reached, StepFailure> {
    wait_actionable_at(tab, target, needs, Aim::default(), env).await
}

/// Like [`wait_actionable`], aimed at another point of the target (`drag` releases just
/// inside an edge; `hover` may give a position). The Review Overlay check and the hit test are
/// made at that point, not at the centre.
pub(crate) async fn wait_actionable_at(
    tab: &Tab,
    target: &Target,
    needs: Needs,
    aim: Aim<'_>,
    env: &StepEnv<'_>,
) -> Result<Reached, StepFailure> {
    refuse_ref(target)?;
    let wait = Wait::new(env);
    let r = poll(tab, target, needs, true, aim, &wait, env).await?;
    Ok(Reached::of(&r))
}

/// Like [`wait_actionable`], but the pointer is moved onto the target while its stability is
/// proved: the renderer delivers a pointer move at its next frame, and that frame serves as the
/// second of the two frames the box must hold in (instead of waiting one frame for the check and
/// another for the move). If the box changed meanwhile (the page moved it, or the
/// pointer's arrival did), the check is made the settled way and the pointer moves once more —
/// never more than twice, so a page that shifts on hover cannot keep the step moving. The
/// hit test is made before the move and again after it (the pointer's arrival may open
/// something over the target). On success the pointer rests on the returned point; nothing else
/// has been dispatched.
pub(crate) async fn point_at(
    tab: &Tab,
    target: &Target,
    needs: Needs,
    position: Option<Position>,
    env: &StepEnv<'_>,
) -> Result<Reached, StepFailure> {
    refuse_ref(target)?;
    let wait = Wait::new(env);
    let aim = Aim {
        position,
        ..Aim::default()
    };
    let r = poll(tab, target, needs, false, aim, &wait, env).await?;
    let mut reached = Reached::of(&r);
    input::mouse_move(tab, reached.point, 0, env.deadline).await?;
    let args = json!({
        "target": target,
        "enabled": needs.enabled,
        "editable": needs.editable,
        "pointer": needs.pointer,
        "position": position,
        "rect": r.get("rect").cloned().unwrap_or(Value::Null),
    });
    let confirmed = script::call(tab, "still_there", args, COMMAND_BOUND, env.deadline)
        .await
        .map_err(|f| name_target(f, target))?;
    if status_of(&confirmed) == "ok" {
        if let Some(hit) = confirmed.get("hit").and_then(Value::as_str) {
            reached.hit = hit.to_string();
        }
        return Ok(reached);
    }
    if status_of(&confirmed) == "review_overlay" {
        return Err(review_overlay(target, &confirmed));
    }
    let settled = Reached::of(&poll(tab, target, needs, true, aim, &wait, env).await?);
    input::mouse_move(tab, settled.point, 0, env.deadline).await?;
    Ok(settled)
}

/// The action timeout of one step, started.
struct Wait {
    start: Instant,
    limit: Instant,
    /// The scenario deadline comes before the action timeout: running out is a scenario timeout.
    deadline_bound: bool,
    /// What the deadline is called in messages (`scenario`, `turn`).
    deadline_name: &'static str,
}

impl Wait {
    fn new(env: &StepEnv<'_>) -> Wait {
        let start = Instant::now();
        let by_action = start + env.action_timeout;
        Wait {
            start,
            limit: by_action.min(env.deadline),
            deadline_bound: env.deadline < by_action,
            deadline_name: env.deadline_name,
        }
    }

    /// The failure for a target that was still not actionable at the limit (`r` is the last
    /// answer of the resolver, if any came).
    fn failure(&self, target: &Target, r: Option<&Value>) -> StepFailure {
        let last = match r.map(|r| self.target_failure(target, r)) {
            Some(found) if !self.deadline_bound => return found,
            Some(found) => found.message,
            None => "no answer yet".to_string(),
        };
        StepFailure::new(
            FailureCode::Timeout,
            format!(
                "the {} deadline passed while waiting for {} to be actionable (waited {} ms; \
                 last observation: {last})",
                self.deadline_name,
                describe(target),
                self.start.elapsed().as_millis()
            ),
        )
    }

    /// The target's own failure: what the last answer `r` of the resolver found.
    fn target_failure(&self, target: &Target, r: &Value) -> StepFailure {
        let waited = self.start.elapsed().as_millis();
        let what = describe(target);
        match status_of(r) {
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
            "covered" => {
                let reason = r.get("reason").and_then(Value::as_str).unwrap_or("unknown");
                StepFailure::new(
                    FailureCode::TargetCovered,
                    format!("{what}: {reason}; nothing was dispatched (waited {waited} ms)"),
                )
            }
            _ => {
                let reason = r.get("reason").and_then(Value::as_str).unwrap_or("unknown");
                StepFailure::new(
                    FailureCode::TargetNotActionable,
                    format!("{what}: one match, but {reason} (waited {waited} ms)"),
                )
            }
        }
    }
}

/// Poll the in-page actionability check until it passes or `wait` runs out; `settle` = prove
/// stability in the page (one frame) rather than leave it to [`point_at`]; `aim` = where on the
/// box the answer's point lies.
async fn poll(
    tab: &Tab,
    target: &Target,
    needs: Needs,
    settle: bool,
    aim: Aim<'_>,
    wait: &Wait,
    env: &StepEnv<'_>,
) -> Result<Value, StepFailure> {
    let mut last: Option<Value> = None;
    loop {
        let remaining = wait.limit.saturating_duration_since(Instant::now());
        let slice = remaining.min(POLL_SLICE);
        let args = json!({
            "target": target,
            "budget_ms": slice.as_millis() as u64,
            "enabled": needs.enabled,
            "editable": needs.editable,
            "pointer": needs.pointer,
            "settle": settle,
            "edge": aim.edge.map(DragEdge::keyword),
            "carried": aim.carried,
            "position": aim.position,
        });
        let r = match script::call(tab, "actionable", args, slice + COMMAND_BOUND, env.deadline)
            .await
        {
            Ok(r) => r,
            // The scenario deadline cut the poll short: a scenario timeout naming the target.
            Err(f) if f.code == FailureCode::Timeout => {
                return Err(wait.failure(target, last.as_ref()));
            }
            Err(f) => return Err(name_target(f, target)),
        };
        if status_of(&r) == "ok" {
            return Ok(r);
        }
        if status_of(&r) == "review_overlay" {
            return Err(review_overlay(target, &r));
        }
        if Instant::now() >= wait.limit {
            let mut failure = wait.failure(target, Some(&r));
            if failure.code == FailureCode::TargetAmbiguous {
                // Said once, at the end: which locators would pick each of the matches.
                if let Ok(p) = script::call(
                    tab,
                    "picks",
                    json!({ "target": target }),
                    COMMAND_BOUND,
                    env.deadline,
                )
                .await
                {
                    failure.message.push_str(&picks_hint(p.get("picks")));
                }
            }
            return Err(failure);
        }
        last = Some(r);
    }
}

fn status_of(r: &Value) -> &str {
    r.get("status").and_then(Value::as_str).unwrap_or("")
}

/// The refusal of an action whose point the Review Overlay covers (never waited out).
fn review_overlay(target: &Target, r: &Value) -> StepFailure {
    let reason = r.get("reason").and_then(Value::as_str).unwrap_or("");
    super::review_overlay::refusal(&format!("{}: {reason}", describe(target)))
}

/// What to write instead of an ambiguous target, from the locators the resolver wrote for its
/// first matches (`picks`): "; to pick one, write within(…) or nth(…)". Empty without any.
pub(crate) fn picks_hint(picks: Option<&Value>) -> String {
    let picks: Vec<String> = picks
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| serde_json::from_value::<Target>(p.clone()).ok())
        .map(|t| t.to_string())
        .collect();
    match picks.as_slice() {
        [] => String::new(),
        [one] => format!("; to pick the first, write {one}"),
        many => format!("; to pick one, write {}", many.join(" or ")),
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

/// Run resolver operation `op` on the one element `target` names (`args` merged into the
/// request), its failures named after the target: how every step that reads or changes an
/// element through the resolver (focus, check state, fill, type, select) calls it.
pub(crate) async fn call_on(
    tab: &Tab,
    op: &str,
    target: &Target,
    mut args: Value,
    deadline: Instant,
) -> Result<Value, StepFailure> {
    args["target"] = json!(target);
    script::call(tab, op, args, COMMAND_BOUND, deadline)
        .await
        .map_err(|f| name_target(f, target))
}
