//! Exit codes of `a3s-test run` (`docs/acl.md` §13) and how a result maps to one.
//!
//! Precedence, most urgent first: cancelled (130) — the user stopped the run, nothing else is
//! trustworthy; then invalid input / infrastructure / cleanup (2) — the run itself is in doubt,
//! including a browser that left a process behind, and a merged result that lacks a shard; then a timeout (124); then a product or
//! specification failure of a scenario (1). A runtime specification failure (an unsupported step,
//! an evidence path that escapes through a symlink) counts as invalid input: 2. A flaky scenario
//! (failed, then passed on a retry) passes the run unless `--fail-on-flaky` asked otherwise; then
//! it counts like a failed scenario (1).

use crate::result::{RunOutcome, RunResult, ScenarioStatus};
use a3s_test_driver::{FailureClass, FailureCode};

/// Every scenario passed.
pub const SUCCESS: i32 = 0;
/// At least one scenario failed on the product (an assertion or target resolution).
pub const SCENARIO_FAILED: i32 = 1;
/// Invalid input, configuration or infrastructure: admission errors, an unsupported step or
/// surface, a browser that did not start or crashed, a dev server that never answered, a cleanup
/// that failed or left a process behind.
pub const INVALID_OR_INFRASTRUCTURE: i32 = 2;
/// A scenario exceeded its deadline (`timeout_ms`), like `timeout(1)`.
pub const TIMED_OUT: i32 = 124;
/// The run was cancelled (Ctrl+C, SIGINT), 128 + 2 like a shell.
pub const CANCELLED: i32 = 130;

/// The exit code a finished run stands for.
pub fn exit_code(result: &RunResult) -> i32 {
    let scenarios = &result.scenarios;
    if scenarios
        .iter()
        .any(|s| s.status == ScenarioStatus::Cancelled)
    {
        return CANCELLED;
    }
    // A merge that lacks a shard cannot vouch for that shard's scenarios.
    let incomplete = result
        .merge
        .as_ref()
        .is_some_and(|m| !m.missing_shards.is_empty());
    let doubtful = incomplete
        || !result.cleanup_failures.is_empty()
        || scenarios.iter().any(|s| {
            s.cleanup_failure.is_some()
                || s.failure.as_ref().is_some_and(|f| {
                    f.code != FailureCode::Timeout
                        && matches!(
                            f.failure_class,
                            FailureClass::Specification
                                | FailureClass::Infrastructure
                                | FailureClass::Cleanup
                        )
                })
        });
    if doubtful {
        return INVALID_OR_INFRASTRUCTURE;
    }
    if scenarios
        .iter()
        .any(|s| s.status == ScenarioStatus::TimedOut)
    {
        return TIMED_OUT;
    }
    let failed = |s: &&crate::result::ScenarioResult| match s.status {
        ScenarioStatus::Passed => false,
        ScenarioStatus::Flaky => result.fail_on_flaky,
        ScenarioStatus::Failed | ScenarioStatus::TimedOut | ScenarioStatus::Cancelled => true,
    };
    if scenarios.iter().any(|s| failed(&s)) {
        return SCENARIO_FAILED;
    }
    SUCCESS
}

/// The outcome word for an exit code.
pub fn outcome(code: i32) -> RunOutcome {
    match code {
        SUCCESS => RunOutcome::Passed,
        SCENARIO_FAILED => RunOutcome::Failed,
        TIMED_OUT => RunOutcome::TimedOut,
        CANCELLED => RunOutcome::Cancelled,
        _ => RunOutcome::Error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{FailureRecord, ScenarioResult, RESULT_FORMAT_VERSION};

    fn scenario(
        status: ScenarioStatus,
        code: Option<FailureCode>,
        cleanup: bool,
    ) -> ScenarioResult {
        ScenarioResult {
            id: "s/x".into(),
            suite: "s".into(),
            scenario: "x".into(),
            name: "x".into(),
            file: "s.acl".into(),
            tags: vec![],
            status,
            failure: code.map(|c| FailureRecord::new(c, "m")),
            cleanup_failure: cleanup.then(|| FailureRecord::new(FailureCode::CleanupFailed, "m")),
            steps: vec![],
            duration_ms: 0,
            context_open_us: None,
            context_close_us: None,
            artifact_dir: None,
            earlier_attempts: vec![],
        }
    }

    fn run(scenarios: Vec<ScenarioResult>) -> RunResult {
        run_with(scenarios, false)
    }

    fn run_with(scenarios: Vec<ScenarioResult>, fail_on_flaky: bool) -> RunResult {
        let mut r = RunResult {
            format_version: RESULT_FORMAT_VERSION,
            run_id: "r".into(),
            started_at: String::new(),
            duration_ms: 0,
            outcome: RunOutcome::Passed,
            exit_code: 0,
            artifact_root: Default::default(),
            skipped: 0,
            counts: Default::default(),
            scenarios,
            cleanup_failures: vec![],
            fail_on_flaky,
            shard: None,
            merge: None,
        };
        r.finalize();
        r
    }

    #[test]
    fn precedence_table() {
        use FailureCode as C;
        use ScenarioStatus as S;
        let pass = || scenario(S::Passed, None, false);
        let product = || scenario(S::Failed, Some(C::TextMismatch), false);
        let spec = || scenario(S::Failed, Some(C::Unsupported), false);
        let infra = || scenario(S::Failed, Some(C::BrowserCrashed), false);
        let timeout = || scenario(S::TimedOut, Some(C::Timeout), false);
        let cancelled = || scenario(S::Cancelled, Some(C::Cancelled), false);
        let cleanup = || scenario(S::Passed, None, true);
        let cases: Vec<(Vec<ScenarioResult>, i32)> = vec![
            (vec![], SUCCESS),
            (vec![pass(), pass()], SUCCESS),
            (vec![pass(), product()], SCENARIO_FAILED),
            (vec![product(), timeout()], TIMED_OUT),
            (vec![product(), spec()], INVALID_OR_INFRASTRUCTURE),
            (vec![timeout(), infra()], INVALID_OR_INFRASTRUCTURE),
            (vec![pass(), cleanup()], INVALID_OR_INFRASTRUCTURE),
            (vec![infra(), cancelled()], CANCELLED),
        ];
        for (scenarios, expected) in cases {
            let r = run(scenarios);
            assert_eq!(
                r.exit_code,
                expected,
                "{:?}",
                r.scenarios.iter().map(|s| s.status).collect::<Vec<_>>()
            );
            assert_eq!(r.outcome, outcome(expected));
        }
    }

    #[test]
    fn flaky_passes_the_run_unless_asked_to_fail_it() {
        use FailureCode as C;
        use ScenarioStatus as S;
        let flaky = || scenario(S::Flaky, None, false);
        let pass = || scenario(S::Passed, None, false);
        let timeout = || scenario(S::TimedOut, Some(C::Timeout), false);
        let cases = [
            (vec![pass(), flaky()], false, SUCCESS),
            (vec![pass(), flaky()], true, SCENARIO_FAILED),
            (vec![flaky(), timeout()], true, TIMED_OUT),
        ];
        for (scenarios, fail_on_flaky, expected) in cases {
            let r = run_with(scenarios, fail_on_flaky);
            assert_eq!(r.exit_code, expected, "fail_on_flaky {fail_on_flaky}");
            assert_eq!(
                (r.counts.passed, r.counts.flaky),
                (usize::from(expected != TIMED_OUT), 1)
            );
        }
    }

    #[test]
    fn counts_keep_classes_apart() {
        use FailureCode as C;
        use ScenarioStatus as S;
        let r = run(vec![
            scenario(S::Failed, Some(C::TextMismatch), true),
            scenario(S::Failed, Some(C::Unsupported), false),
            scenario(S::TimedOut, Some(C::Timeout), false),
            scenario(S::Passed, None, false),
        ]);
        assert_eq!(
            (r.counts.passed, r.counts.failed, r.counts.timed_out),
            (1, 2, 1)
        );
        assert_eq!(
            (
                r.counts.product,
                r.counts.specification,
                r.counts.infrastructure,
                r.counts.cleanup
            ),
            (1, 1, 1, 1)
        );
    }
}
