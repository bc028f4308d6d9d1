//! The one exit-code type of the binary ([`Exit`]) and how a run result maps to one.
//!
//! For a run, precedence, most urgent first: cancelled (130) — the user stopped the run, nothing
//! else is trustworthy; then invalid input / infrastructure / cleanup (2) — the run itself is in
//! doubt, including a browser that left a process behind, and a merged result that lacks a shard;
//! then a timeout (124); then a product or specification failure of a scenario (1). A runtime
//! specification failure (an unsupported step, an evidence path that escapes through a symlink)
//! counts as invalid input: 2. A flaky scenario (failed, then passed on a retry) passes the run
//! unless `--fail-on-flaky` asked otherwise; then it counts like a failed scenario (1).

use crate::result::{RunOutcome, RunResult, ScenarioStatus};
use a3s_test_driver::{FailureClass, FailureCode};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The process exit code of every `a3s-test` command, one type for the whole binary so a number
/// means the same thing after `run`, `check`, `fmt`, `merge-reports`, `serve`, `repair-endpoint`
/// and `agent`. The table of which command uses which is docs/codes.md ("Exit codes"); the
/// numbers never change (scripts and CI branch on them).
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Exit {
    /// Everything passed, was admitted, is formatted, or the operation succeeded.
    Success = 0,
    /// A scenario failed on the product; `fmt --check` found files to reformat; an agent
    /// statement ran and failed in the browser (the page may have changed).
    Failed = 1,
    /// Invalid input, configuration or infrastructure: admission errors, an unsupported step or
    /// surface, a browser that did not start or crashed, a dev server that never answered, a
    /// cleanup that failed or left a process behind, a merge that lacks a shard; an agent turn
    /// refused before dispatch (a gate: nothing happened in the page).
    InvalidInput = 2,
    /// A scenario exceeded its deadline (`timeout_ms`), like `timeout(1)`.
    TimedOut = 124,
    /// Stopped by Ctrl+C, SIGTERM or SIGHUP: 128 + SIGINT, like a shell.
    Interrupted = 130,
}

impl Exit {
    /// Every exit code, in numeric order (the docs table is checked against this list).
    pub const ALL: &'static [Exit] = &[
        Exit::Success,
        Exit::Failed,
        Exit::InvalidInput,
        Exit::TimedOut,
        Exit::Interrupted,
    ];

    /// The number the process exits with.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The exit code for a number, `None` for one no command uses.
    pub fn from_code(code: u8) -> Option<Exit> {
        Exit::ALL.iter().copied().find(|e| e.code() == code)
    }

    /// The outcome word a run result with this exit code carries.
    pub fn outcome(self) -> RunOutcome {
        match self {
            Exit::Success => RunOutcome::Passed,
            Exit::Failed => RunOutcome::Failed,
            Exit::TimedOut => RunOutcome::TimedOut,
            Exit::Interrupted => RunOutcome::Cancelled,
            Exit::InvalidInput => RunOutcome::Error,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit.code())
    }
}

/// Shown as its number (reports say "exit code 2").
impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.code())
    }
}

/// Written as its number in JSON results (`"exit_code": 2`).
impl Serialize for Exit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.code())
    }
}

/// Read back from a JSON result (`merge-reports`): a number no command uses is an error.
impl<'de> Deserialize<'de> for Exit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = u8::deserialize(d)?;
        Exit::from_code(code)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown exit code {code}")))
    }
}

/// The exit code a finished run stands for.
pub fn exit_code(result: &RunResult) -> Exit {
    let scenarios = &result.scenarios;
    if scenarios
        .iter()
        .any(|s| s.status == ScenarioStatus::Cancelled)
    {
        return Exit::Interrupted;
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
        return Exit::InvalidInput;
    }
    if scenarios
        .iter()
        .any(|s| s.status == ScenarioStatus::TimedOut)
    {
        return Exit::TimedOut;
    }
    let failed = |s: &&crate::result::ScenarioResult| match s.status {
        ScenarioStatus::Passed | ScenarioStatus::Skipped => false,
        ScenarioStatus::Flaky => result.fail_on_flaky,
        ScenarioStatus::Failed | ScenarioStatus::TimedOut | ScenarioStatus::Cancelled => true,
    };
    if scenarios.iter().any(|s| failed(&s)) {
        return Exit::Failed;
    }
    Exit::Success
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
            failure: code.map(|c| FailureRecord::new(c, "m")),
            cleanup_failure: cleanup.then(|| FailureRecord::new(FailureCode::CleanupFailed, "m")),
            hook_failure: None,
            soft_failures: Vec::new(),
            groups: Vec::new(),
            ..ScenarioResult::bare("s/x", status)
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
            exit_code: Exit::Success,
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
        let cases: Vec<(Vec<ScenarioResult>, Exit)> = vec![
            (vec![], Exit::Success),
            (vec![pass(), pass()], Exit::Success),
            (vec![pass(), product()], Exit::Failed),
            (vec![product(), timeout()], Exit::TimedOut),
            (vec![product(), spec()], Exit::InvalidInput),
            (vec![timeout(), infra()], Exit::InvalidInput),
            (vec![pass(), cleanup()], Exit::InvalidInput),
            (vec![infra(), cancelled()], Exit::Interrupted),
        ];
        for (scenarios, expected) in cases {
            let r = run(scenarios);
            assert_eq!(
                r.exit_code,
                expected,
                "{:?}",
                r.scenarios.iter().map(|s| s.status).collect::<Vec<_>>()
            );
            assert_eq!(r.outcome, expected.outcome());
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
            (vec![pass(), flaky()], false, Exit::Success),
            (vec![pass(), flaky()], true, Exit::Failed),
            (vec![flaky(), timeout()], true, Exit::TimedOut),
        ];
        for (scenarios, fail_on_flaky, expected) in cases {
            let r = run_with(scenarios, fail_on_flaky);
            assert_eq!(r.exit_code, expected, "fail_on_flaky {fail_on_flaky}");
            assert_eq!(
                (r.counts.passed, r.counts.flaky),
                (usize::from(expected != Exit::TimedOut), 1)
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
