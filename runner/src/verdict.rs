//! A scenario's verdict from its three kinds of failure (`docs/acl.md` §2.1, §9.1): its own
//! (the first step that failed hard), its soft expects, and its `after_each` hook.
//!
//! Why one pure function: every reporter reads `status` and `failure`, so the rule for which
//! failure is the verdict lives in one place — the scenario's own failure stays primary; soft
//! failures fail an otherwise passing scenario at its end, listing each; an `after_each`
//! failure fails an otherwise passing scenario, marked as the hook's. Each kind is also kept
//! apart (`soft_failures`, `hook_failure`) so nothing is lost.

use crate::result::{FailureRecord, ScenarioStatus};

/// What the steps of one attempt left behind.
#[derive(Debug, Default)]
pub struct Failures {
    /// The first hard failure of the scenario's own steps (or `before_each`), with its status.
    pub own: Option<(ScenarioStatus, FailureRecord)>,
    /// Every failed `soft = true` expect, in order.
    pub soft: Vec<FailureRecord>,
    /// The first failure of an `after_each` step.
    pub hook: Option<FailureRecord>,
}

/// The status and verdict failure of an attempt.
pub fn decide(failures: &Failures) -> (ScenarioStatus, Option<FailureRecord>) {
    if let Some((status, failure)) = &failures.own {
        return (*status, Some(failure.clone()));
    }
    if let Some(first) = failures.soft.first() {
        let n = failures.soft.len();
        let listed: Vec<String> = failures
            .soft
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let at = f.step_path.as_deref().unwrap_or("?");
                format!("{}) {at}: {}", i + 1, f.message)
            })
            .collect();
        let mut verdict = first.clone();
        verdict.message = format!(
            "{n} soft expect{} failed: {}",
            if n == 1 { "" } else { "s" },
            listed.join("; ")
        );
        return (ScenarioStatus::Failed, Some(verdict));
    }
    if let Some(hook) = &failures.hook {
        let mut verdict = hook.clone();
        verdict.message = format!("after_each failed: {}", hook.message);
        return (ScenarioStatus::Failed, Some(verdict));
    }
    (ScenarioStatus::Passed, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_driver::FailureCode;

    fn failure(path: &str, message: &str) -> FailureRecord {
        let mut f = FailureRecord::new(FailureCode::TextMismatch, message);
        f.step_path = Some(path.into());
        f
    }

    #[test]
    fn the_scenarios_own_failure_stays_primary() {
        let own = failure("a", "own");
        let failures = Failures {
            own: Some((ScenarioStatus::TimedOut, own.clone())),
            soft: vec![failure("b", "soft")],
            hook: Some(failure("c", "hook")),
        };
        assert_eq!(decide(&failures), (ScenarioStatus::TimedOut, Some(own)));
    }

    #[test]
    fn soft_failures_are_listed_then_the_hook_decides() {
        let failures = Failures {
            soft: vec![failure("x.one", "first"), failure("x.two", "second")],
            hook: Some(failure("c", "hook")),
            ..Failures::default()
        };
        let (status, verdict) = decide(&failures);
        assert_eq!(status, ScenarioStatus::Failed);
        assert_eq!(
            verdict.unwrap().message,
            "2 soft expects failed: 1) x.one: first; 2) x.two: second"
        );
        let hook_only = Failures {
            hook: Some(failure("c", "gone")),
            ..Failures::default()
        };
        let (status, verdict) = decide(&hook_only);
        assert_eq!(status, ScenarioStatus::Failed);
        assert_eq!(verdict.unwrap().message, "after_each failed: gone");
        assert_eq!(decide(&Failures::default()), (ScenarioStatus::Passed, None));
    }
}
