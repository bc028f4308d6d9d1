//! `--reporter github`: GitHub Actions workflow commands, so failures show on the diff.
//!
//! `::error file=suites/shop.acl,line=8,col=9,title=test.assert.text_mismatch::expected …`
//!
//! One annotation per failed step (each failed soft expect and an `after_each` step included),
//! on the step's own line, naming the hooks and groups around it (`within:`); a scenario that failed before any step
//! (a dev server that never answered, an unsupported surface) gets one at the failure's location;
//! a cleanup failure gets one at the scenario's file, a run-level cleanup failure one without a
//! file. The message names the scenario and the step path on extra lines. Escaping follows the
//! workflow-command rules (the same functions `check --format github` uses): `%`, CR and LF in the
//! message, and also `:` and `,` in properties. The commands are written when the run finishes,
//! in plan order, after the terminal summary (the CLI keeps the terminal output as the log).

use super::tree;
use super::ResultReporter;
use crate::merge::MergeCode;
use crate::result::{FailureRecord, RunResult, ScenarioResult, ScenarioStatus, StepStatus};
use a3s_test_lang::render::github::{escape_data, escape_property};
use std::io::Write;

/// Writes the annotations of a finished run to `out`.
#[derive(Debug)]
pub struct GithubReporter<W: Write> {
    out: W,
}

impl<W: Write> GithubReporter<W> {
    /// A reporter writing to `out` (the stream the live log goes to).
    pub fn new(out: W) -> Self {
        GithubReporter { out }
    }

    /// Give the writer back (tests read what was written).
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> ResultReporter for GithubReporter<W> {
    fn finish(&mut self, result: &RunResult) -> std::io::Result<()> {
        for line in annotations(result) {
            writeln!(self.out, "{line}")?;
        }
        self.out.flush()
    }
}

/// `file`, `line`, `col` of a `file:line:col` location (a file name may itself hold `:`).
fn split_location(location: &str) -> (&str, Option<u32>, Option<u32>) {
    let mut parts = location.rsplitn(3, ':');
    let (last, middle, first) = (parts.next(), parts.next(), parts.next());
    match (
        first,
        middle.and_then(|m| m.parse().ok()),
        last.and_then(|l| l.parse().ok()),
    ) {
        (Some(file), Some(line), Some(col)) => (file, Some(line), Some(col)),
        _ => match location.rsplit_once(':') {
            Some((file, line)) if line.parse::<u32>().is_ok() => (file, line.parse().ok(), None),
            _ => (location, None, None),
        },
    }
}

/// One `::error` command.
fn command(
    location: Option<&str>,
    fallback_file: Option<&str>,
    failure: &FailureRecord,
    context: &str,
) -> String {
    let mut properties = Vec::new();
    match location.map(split_location) {
        Some((file, line, col)) => {
            properties.push(format!("file={}", escape_property(file)));
            if let Some(line) = line {
                properties.push(format!("line={line}"));
            }
            if let Some(col) = col {
                properties.push(format!("col={col}"));
            }
        }
        None => {
            if let Some(file) = fallback_file {
                properties.push(format!("file={}", escape_property(file)));
            }
        }
    }
    properties.push(format!("title={}", escape_property(failure.code.as_str())));
    let mut message = failure.message.clone();
    message.push_str(context);
    format!(
        "::error {}::{}",
        properties.join(","),
        escape_data(&message)
    )
}

fn scenario_annotations(s: &ScenarioResult, out: &mut Vec<String>) {
    let failed = match s.status {
        // A flaky scenario passed on its last attempt: no failed step to annotate.
        ScenarioStatus::Passed | ScenarioStatus::Flaky | ScenarioStatus::Skipped => false,
        ScenarioStatus::Failed | ScenarioStatus::TimedOut | ScenarioStatus::Cancelled => true,
    };
    if failed {
        let mut stepped = false;
        for step in &s.steps {
            match step.status {
                StepStatus::Passed => {}
                StepStatus::Failed => {
                    if let Some(f) = step.failure.as_ref().or(s.failure.as_ref()) {
                        let mut context = format!("\nscenario: {}\nstep: {}", s.id, step.path);
                        if let Some(groups) = tree::within(s, step.group) {
                            context.push_str(&format!("\nwithin: {groups}"));
                        }
                        if step.soft {
                            context.push_str("\nsoft expect: the scenario went on");
                        }
                        out.push(command(Some(&step.location), Some(&s.file), f, &context));
                        stepped = true;
                    }
                }
            }
        }
        if let (false, Some(f)) = (stepped, &s.failure) {
            let mut context = format!("\nscenario: {}", s.id);
            if let Some(path) = &f.step_path {
                context.push_str(&format!("\nstep: {path}"));
            }
            out.push(command(f.location.as_deref(), Some(&s.file), f, &context));
        }
    }
    if let Some(f) = &s.cleanup_failure {
        let context = format!("\nscenario: {} (cleanup; the verdict stands)", s.id);
        out.push(command(f.location.as_deref(), Some(&s.file), f, &context));
    }
}

/// Every annotation of `result`, in plan order, run-level cleanup failures last.
pub fn annotations(result: &RunResult) -> Vec<String> {
    let mut out = Vec::new();
    for s in &result.scenarios {
        scenario_annotations(s, &mut out);
    }
    for f in &result.cleanup_failures {
        out.push(command(None, None, f, "\nrun cleanup"));
    }
    if let Some(merge) = &result.merge {
        if !merge.missing_shards.is_empty() {
            let shards: Vec<String> = merge
                .missing_shards
                .iter()
                .map(|i| format!("{i}/{}", merge.total))
                .collect();
            out.push(format!(
                "::error title={}::{}",
                escape_property(MergeCode::MissingShard.as_str()),
                escape_data(&format!(
                    "no result for shard {}; its scenarios are not in the merged report",
                    shards.join(", ")
                ))
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_location;

    #[test]
    fn locations_split_from_the_right() {
        assert_eq!(split_location("a.acl:4:9"), ("a.acl", Some(4), Some(9)));
        assert_eq!(
            split_location("c:/x.acl:4:9"),
            ("c:/x.acl", Some(4), Some(9))
        );
        assert_eq!(split_location("a.acl:4"), ("a.acl", Some(4), None));
        assert_eq!(split_location("a.acl"), ("a.acl", None, None));
        assert_eq!(split_location("a:b"), ("a:b", None, None));
    }
}
