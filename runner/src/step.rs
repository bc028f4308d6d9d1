//! The one step path: dispatching a single admitted step to a driver context, shared by suite
//! runs ([`crate::executor`]) and agent sessions ([`crate::session`]).
//!
//! Why one module: a step must end the same way whoever asked for it — dispatched once, cut off
//! [`DRIVER_GRACE`] after its deadline as `test.run.timeout`, abandoned on cancellation, and
//! followed by the driver's failure evidence (screenshot, accessibility tree, console, page
//! errors) when it failed on the page. Before this module the agent session dispatched steps on
//! its own, without the cut-off or the evidence (docs/agent.md).

use crate::cancel::CancelToken;
use crate::expect;
use a3s_test_driver::{
    FailureCode, FailureEvidence, StepEnv, StepFailure, StepOutput, SurfaceContext,
};
use a3s_test_lang::ir::{Action, Step, WaitCondition};
use std::time::Duration;

/// How long past the deadline a step may take to report its own failure before the runner cuts
/// it off with `test.run.timeout`.
pub const DRIVER_GRACE: Duration = Duration::from_millis(250);

/// How one step ended, as seen by the runner.
#[derive(Debug)]
pub enum StepEnd {
    /// The step ran to completion.
    Passed(StepOutput),
    /// The driver reported a failure.
    Failed(StepFailure),
    /// The deadline (plus [`DRIVER_GRACE`]) passed before the driver answered.
    TimedOut,
    /// The run was cancelled while the step ran.
    Cancelled,
}

/// A step that did not pass, as one driver-shaped failure.
#[derive(Debug)]
pub struct StepFailed {
    /// The failure (code, message, evidence written so far).
    pub failure: StepFailure,
    /// Whether failure evidence is worth capturing: not after a crash (there is no page left)
    /// nor after a cancellation (the user asked to stop).
    pub capture: bool,
}

impl StepEnd {
    /// The output of a passed step, or the failure of any other end. `what` names the deadline
    /// that ran out (`scenario`, `turn`) and `deadline_ms` its length, for the timeout message.
    pub fn into_result(self, what: &str, deadline_ms: u64) -> Result<StepOutput, StepFailed> {
        match self {
            StepEnd::Passed(output) => Ok(output),
            StepEnd::Failed(failure) => Err(StepFailed {
                capture: failure.code != FailureCode::BrowserCrashed,
                failure,
            }),
            StepEnd::TimedOut => Err(StepFailed {
                failure: StepFailure::new(
                    FailureCode::Timeout,
                    format!("the {what} deadline ({deadline_ms} ms) passed during this step"),
                ),
                capture: true,
            }),
            StepEnd::Cancelled => Err(StepFailed {
                failure: StepFailure::new(FailureCode::Cancelled, "cancelled during this step"),
                capture: false,
            }),
        }
    }
}

/// Dispatch `step` once in `ctx`, cut off [`DRIVER_GRACE`] after `env.deadline` and abandoned
/// when `cancel` fires. `expect` and the page conditions of `wait` are read through the
/// driver's `check` by the retry loop of [`crate::expect`]; every other step is the driver's
/// `execute`.
pub async fn run_step<C: SurfaceContext>(
    ctx: &mut C,
    step: &Step,
    env: &StepEnv<'_>,
    cancel: &CancelToken,
) -> StepEnd {
    let run = async {
        match &step.action {
            Action::Expect { expectation } => expect::expect(ctx, expectation, env).await,
            Action::Wait {
                condition: WaitCondition::Page(condition),
            } => expect::wait(ctx, condition, env).await,
            Action::CheckContract { check } => {
                crate::contract::step::run(ctx, step, check, env).await
            }
            _ => ctx.execute(step, env).await,
        }
    };
    tokio::select! {
        biased;
        _ = cancel.cancelled() => StepEnd::Cancelled,
        r = tokio::time::timeout_at(env.deadline + DRIVER_GRACE, run) => match r {
            Ok(Ok(output)) => StepEnd::Passed(output),
            Ok(Err(failure)) => StepEnd::Failed(failure),
            Err(_) => StepEnd::TimedOut,
        },
    }
}

/// After a failure: the driver's evidence into `dir` (already created and verified), finished
/// within `bound` so a wedged browser delays the caller by a known amount and never hangs it.
/// The driver lists what it could not capture; should it overrun the bound itself, the
/// evidence is reported missing as a whole.
pub async fn capture_failure_evidence<C: SurfaceContext>(
    ctx: &mut C,
    dir: &a3s_test_fsroot::Dir,
    bound: Duration,
) -> FailureEvidence {
    let deadline = tokio::time::Instant::now() + bound;
    match tokio::time::timeout(
        bound + DRIVER_GRACE,
        ctx.capture_failure_evidence(dir, deadline),
    )
    .await
    {
        Ok(evidence) => evidence,
        Err(_) => FailureEvidence::all_missing(&format!(
            "the failure capture did not finish within {} ms; the failure folder may hold part \
             of it",
            bound.as_millis()
        )),
    }
}
