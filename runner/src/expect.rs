//! Web-first conditions: an `expect` (and a `wait` on what the page shows) reads its condition
//! again until it holds, for every surface (`docs/acl.md` §7–§9).
//!
//! Why here and not in a driver: a driver only *reads* a condition
//! ([`SurfaceContext::check`]); when to read again, for how long, what a stability window
//! means and what a condition that never held is, is one rule for Web, terminal and desktop
//! alike, so it is written once, in the core every step goes through ([`crate::step`]).
//!
//! The schedule: the first reading at once; while it does not hold, the next one when the
//! surface reports a change (the driver's watch) or after a backoff of 20, 50, 100, 250, then
//! every 500 ms, whichever comes first — never sooner than [`MIN_GAP`] (or the time one reading
//! takes) after the last began, so a page that changes every frame is not read in a busy loop —
//! and one last reading at the limit. A reading that holds costs one round trip, so an `expect`
//! that already holds is as fast as it was when it never waited.
//!
//! Deadlines: an `expect` waits for its own timeout (`timeout_ms` on the step, else the
//! scenario's, the run's or the project's `expect_timeout_ms`, default 5,000 ms), never past the
//! scenario deadline. Reaching the expect timeout is the product's failure (`test.assert.*` or
//! the target's code, exit 1) naming what was expected, what was seen last and how long it
//! waited; reaching the scenario deadline first is the scenario's timeout (`test.run.timeout`,
//! exit 124). A `wait` has only the scenario deadline. `immediate = true` reads once.
//!
//! Stability (`stable_for_ms`): the window starts at the first reading that holds; every
//! planned sample after it must hold too, and a later one that does not is
//! `test.assert.unstable`.

use a3s_test_driver::{
    ConditionSample, FailureCode, StepDetail, StepEnv, StepFailure, StepOutput, SurfaceContext,
    Waited,
};
use a3s_test_lang::ir::{ExpectCondition, Expectation, PageCondition};
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

/// The waits between readings that did not hold, in order; the last repeats.
pub(crate) const BACKOFF: [Duration; 5] = [
    Duration::from_millis(20),
    Duration::from_millis(50),
    Duration::from_millis(100),
    Duration::from_millis(250),
    Duration::from_millis(500),
];

/// The least time between the starts of two readings, however often the surface changes.
pub const MIN_GAP: Duration = Duration::from_millis(10);

/// Run an `expect` step.
pub async fn expect<C: SurfaceContext>(
    ctx: &mut C,
    expectation: &Expectation,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let condition = &expectation.condition;
    let timeout = expectation
        .timeout_ms
        .map(Duration::from_millis)
        .unwrap_or(env.expect_timeout);
    let patience = if expectation.immediate {
        Patience::Once
    } else {
        Patience::For(timeout)
    };
    let snapshot_patience = (!expectation.immediate).then_some(timeout);
    match condition {
        ExpectCondition::Screenshot(visual) => {
            return crate::snapshot::visual::expect(ctx, visual, snapshot_patience, env).await;
        }
        ExpectCondition::AriaSnapshot(aria) => {
            return crate::snapshot::aria::expect(ctx, aria, snapshot_patience, env).await;
        }
        _ => {}
    }
    let held = until_holds(ctx, condition, patience, env)
        .await
        .map_err(|miss| match miss {
            Miss::Deadline { waited, last } => {
                deadline_failure(env.deadline_name, "expecting", condition, waited, last)
            }
            Miss::Ended(failure) => failure,
            Miss::Timeout { waited, last } => expect_failure(condition, patience, waited, last),
        })?;
    let Some(stability) = expectation.stability else {
        return Ok(output(StepDetail::Observed {
            observed: held.observed,
            waited_ms: millis(held.waited),
        }));
    };
    let samples = stability.planned_samples();
    let interval = Duration::from_millis(u64::from(stability.sample_interval_ms.max(1)));
    for i in 1..samples {
        let at = held.at + interval * i;
        if at > env.deadline {
            return Err(StepFailure::new(
                FailureCode::Timeout,
                format!(
                    "the {} deadline passes before sample {} of {samples} of {}",
                    env.deadline_name,
                    i + 1,
                    subject(condition)
                ),
            ));
        }
        // The sampling schedule itself (`docs/acl.md` §7), not a synchronisation sleep.
        tokio::time::sleep_until(at).await;
        match ctx.check(condition, None, env).await? {
            ConditionSample::Holds(_) => {}
            ConditionSample::Fails { code, seen } => {
                let mut failure = StepFailure::new(
                    FailureCode::Unstable,
                    format!(
                        "{} held, then sample {} of {samples} (at +{} ms) did not: {seen} [{code}]",
                        subject(condition),
                        i + 1,
                        held.at.elapsed().as_millis(),
                    ),
                );
                failure.waited = Some(Waited {
                    waited_ms: millis(held.waited),
                    last_seen: seen,
                });
                return Err(failure);
            }
        }
    }
    Ok(output(StepDetail::Stable {
        samples,
        window_ms: stability.stable_for_ms,
        waited_ms: millis(held.waited),
    }))
}

/// Run a `wait` on what the page shows: until it holds or the scenario deadline.
pub async fn wait<C: SurfaceContext>(
    ctx: &mut C,
    condition: &PageCondition,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let condition = ExpectCondition::Page(condition.clone());
    match until_holds(ctx, &condition, Patience::UntilDeadline, env).await {
        Ok(held) => Ok(output(StepDetail::Waited {
            waited_ms: millis(held.waited),
            observed: Some(held.observed),
        })),
        Err(Miss::Ended(failure)) => Err(failure),
        // A wait's only limit is the deadline, so whichever way it ran out, the deadline did.
        Err(Miss::Deadline { waited, last }) => Err(deadline_failure(
            env.deadline_name,
            "waiting for",
            &condition,
            waited,
            last,
        )),
        Err(Miss::Timeout { waited, last }) => Err(deadline_failure(
            env.deadline_name,
            "waiting for",
            &condition,
            waited,
            Some(last),
        )),
    }
}

/// How long to go on reading a condition that does not hold.
#[derive(Debug, Clone, Copy)]
enum Patience {
    /// One reading (`immediate = true`).
    Once,
    /// Up to this long, never past the scenario deadline (`expect`).
    For(Duration),
    /// Until the scenario deadline (`wait`).
    UntilDeadline,
}

/// The reading that held.
struct Held {
    /// What it saw.
    observed: Value,
    /// When it was taken (a stability window starts here).
    at: Instant,
    /// From the step's start to it.
    waited: Duration,
}

/// Why a condition was not seen to hold.
enum Miss {
    /// The patience ran out first.
    Timeout {
        waited: Duration,
        last: (FailureCode, String),
    },
    /// The scenario deadline came first.
    Deadline {
        waited: Duration,
        last: Option<(FailureCode, String)>,
    },
    /// A reading could not be made; the step ends with this.
    Ended(StepFailure),
}

/// Read `condition` until it holds or `patience` (capped by the scenario deadline) runs out.
async fn until_holds<C: SurfaceContext>(
    ctx: &mut C,
    condition: &ExpectCondition,
    patience: Patience,
    env: &StepEnv<'_>,
) -> Result<Held, Miss> {
    let start = Instant::now();
    let (limit, deadline_first) = match patience {
        Patience::Once => (start, false),
        Patience::For(t) => ((start + t).min(env.deadline), env.deadline < start + t),
        Patience::UntilDeadline => (env.deadline, true),
    };
    let mut last: Option<(FailureCode, String)> = None;
    let mut reading_cost = Duration::ZERO;
    let mut attempt = 0usize;
    loop {
        let began = Instant::now();
        let left = limit.saturating_duration_since(began);
        // The first reading is a plain one (it also tells what a reading costs), and so is the
        // last, at the limit; those between watch for the next change until the backoff's turn.
        let watch = (attempt > 0 && !left.is_zero())
            .then(|| BACKOFF[(attempt - 1).min(BACKOFF.len() - 1)].min(left));
        let seen = match ctx.check(condition, watch, env).await {
            Ok(ConditionSample::Holds(observed)) => {
                let at = Instant::now();
                return Ok(Held {
                    observed,
                    at,
                    waited: at.duration_since(start),
                });
            }
            Ok(ConditionSample::Fails { code, seen }) => (code, seen),
            Err(f) if f.code == FailureCode::Timeout => {
                return Err(Miss::Deadline {
                    waited: start.elapsed(),
                    last,
                })
            }
            Err(f) => return Err(Miss::Ended(f)),
        };
        if attempt == 0 {
            reading_cost = began.elapsed();
        }
        if left.is_zero() {
            let waited = start.elapsed();
            return Err(if deadline_first {
                Miss::Deadline {
                    waited,
                    last: Some(seen),
                }
            } else {
                Miss::Timeout { waited, last: seen }
            });
        }
        last = Some(seen);
        attempt += 1;
        // A surface that changes all the time wakes every watch at once: start the next reading
        // at least one gap (and one reading's cost) after this one began.
        let earliest = (began + MIN_GAP.max(reading_cost)).min(limit);
        if Instant::now() < earliest {
            tokio::time::sleep_until(earliest).await;
        }
    }
}

/// The failure of an `expect` whose condition did not hold within its timeout.
fn expect_failure(
    condition: &ExpectCondition,
    patience: Patience,
    waited: Duration,
    last: (FailureCode, String),
) -> StepFailure {
    let (code, seen) = last;
    let within = match patience {
        Patience::Once => "on its one observation (immediate = true)".to_string(),
        Patience::For(t) => format!("within {} ms", t.as_millis()),
        Patience::UntilDeadline => "before the scenario deadline".to_string(),
    };
    let mut failure = StepFailure::new(
        code,
        format!(
            "{} did not hold {within}; last seen: {seen} (waited {} ms)",
            subject(condition),
            waited.as_millis()
        ),
    );
    failure.waited = Some(Waited {
        waited_ms: millis(waited),
        last_seen: seen,
    });
    failure
}

/// The scenario timeout of a condition still not holding at the scenario deadline.
fn deadline_failure(
    deadline_name: &str,
    doing: &str,
    condition: &ExpectCondition,
    waited: Duration,
    last: Option<(FailureCode, String)>,
) -> StepFailure {
    let seen = last.map(|(_, seen)| seen);
    let mut failure = StepFailure::new(
        FailureCode::Timeout,
        format!(
            "the {} deadline passed while {doing} {} (waited {} ms; last observation: {})",
            deadline_name,
            subject(condition),
            waited.as_millis(),
            seen.as_deref().unwrap_or("none yet")
        ),
    );
    failure.waited = seen.map(|last_seen| Waited {
        waited_ms: millis(waited),
        last_seen,
    });
    failure
}

/// What was expected, as ACL. A literal `value` leaves its expected text out: the field may hold
/// a secret, and the driver's reading already says what it can show. An `env("NAME")` value is
/// named as written (the name is not the secret; its value is never in the IR).
fn subject(condition: &ExpectCondition) -> String {
    match condition {
        ExpectCondition::Value { target, value } if !value.is_concealed() => {
            format!("value with target = {target}")
        }
        other => other.to_string(),
    }
}

fn output(detail: StepDetail) -> StepOutput {
    StepOutput {
        evidence: Vec::new(),
        detail: Some(detail),
    }
}

fn millis(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

#[cfg(test)]
mod tests;
