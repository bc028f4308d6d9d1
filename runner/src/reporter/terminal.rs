//! The live terminal reporter: what a person watching `a3s-test run` reads.
//!
//! ```text
//!      Starting 3 scenarios (1 skipped) with 2 jobs, run 20260101T120000Z-3fa9c2
//!         PASS [   0.412s] forms/submit-contact
//!         FAIL [   0.955s] forms/bad-email
//!              test.assert.text_mismatch: expected visible text "Welcome" …
//! ────────────
//!      Summary [   1.204s] 3 scenarios: 2 passed, 1 failed (product 1), 1 skipped
//!         FAIL forms/bad-email
//!              code      test.assert.text_mismatch (product)
//!              …
//! ```
//!
//! With `--retries`, a failed attempt that will be run again prints a `RETRY` line at once; a
//! scenario that passed only on a retry ends as `FLAKY` (never `PASS`) and the summary lists each
//! of its failed attempts with code, step and evidence, like a failure.
//!
//! Lines are printed as scenarios *end* (parallel scenarios finish in any order). On an
//! interactive terminal a progress line (`Running [ 3/12] 2 running: …`) sits below them and is
//! redrawn on every event and on [`TerminalReporter::tick`]; it is never written to a pipe or file.
//! Colour is a choice of the caller (`crate::colour`, the one rule), so snapshots are plain text. Paths under
//! the working directory are shown relative to it.

use super::junit::class_name;
use super::tree;
use super::Reporter;
use crate::event::{RunEvent, RunEventKind};
use crate::result::{
    AttemptResult, FailureRecord, RunOutcome, RunResult, ScenarioResult, ScenarioStatus,
};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How the terminal reporter writes.
#[derive(Debug, Clone, Default)]
pub struct TerminalOptions {
    /// ANSI colours.
    pub colour: bool,
    /// Draw the progress line (interactive terminals only).
    pub progress: bool,
    /// Show paths relative to this folder when they are under it.
    pub base_dir: Option<PathBuf>,
}

/// Renders events as lines, a progress indicator and a summary.
#[derive(Debug)]
pub struct TerminalReporter<W: Write> {
    out: W,
    options: TerminalOptions,
    total: usize,
    finished: usize,
    running: BTreeSet<String>,
    progress_drawn: bool,
    elapsed: Duration,
}

const GREEN: &str = "\x1b[32;1m";
const RED: &str = "\x1b[31;1m";
const YELLOW: &str = "\x1b[33;1m";
const MAGENTA: &str = "\x1b[35;1m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";
/// Longest progress text after the label, so the line fits an 80-column terminal.
const PROGRESS_WIDTH: usize = 66;

impl<W: Write> TerminalReporter<W> {
    /// A reporter writing to `out`.
    pub fn new(out: W, options: TerminalOptions) -> Self {
        TerminalReporter {
            out,
            options,
            total: 0,
            finished: 0,
            running: BTreeSet::new(),
            progress_drawn: false,
            elapsed: Duration::ZERO,
        }
    }

    /// Give the writer back (tests read what was written).
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Redraw the progress line with a fresh elapsed time (called on a timer by the CLI).
    pub fn tick(&mut self, elapsed: Duration) -> std::io::Result<()> {
        self.elapsed = elapsed;
        self.draw_progress()
    }

    fn paint(&self, style: &str, text: &str) -> String {
        if self.options.colour {
            format!("{style}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    /// A status word right-aligned in the 12-column label gutter, in `style`.
    fn label(&self, style: &str, word: &str) -> String {
        self.paint(style, &format!("{word:>12}"))
    }

    fn show(&self, path: &Path) -> String {
        match &self.options.base_dir {
            Some(base) => path
                .strip_prefix(base)
                .unwrap_or(path)
                .display()
                .to_string(),
            None => path.display().to_string(),
        }
    }

    fn clear_progress(&mut self) -> std::io::Result<()> {
        if self.progress_drawn {
            write!(self.out, "\r\x1b[2K")?;
            self.progress_drawn = false;
        }
        Ok(())
    }

    fn draw_progress(&mut self) -> std::io::Result<()> {
        if !self.options.progress || self.total == 0 {
            return Ok(());
        }
        self.clear_progress()?;
        let names: Vec<&str> = self.running.iter().map(String::as_str).take(3).collect();
        let more = self.running.len().saturating_sub(names.len());
        let mut rest = format!(
            "[{:>4.1}s] [{:>3}/{}] {} running",
            self.elapsed.as_secs_f64(),
            self.finished,
            self.total,
            self.running.len()
        );
        if !names.is_empty() {
            rest.push_str(": ");
            rest.push_str(&names.join(", "));
            if more > 0 {
                rest.push_str(&format!(" and {more} more"));
            }
        }
        // One terminal row at most: a wrapped line could not be cleared with `\r` + erase-line.
        if rest.chars().count() > PROGRESS_WIDTH {
            rest = rest
                .chars()
                .take(PROGRESS_WIDTH - 1)
                .chain(std::iter::once('…'))
                .collect();
        }
        let line = format!("{} {rest}", self.label(BOLD, "Running"));
        write!(self.out, "{line}")?;
        self.out.flush()?;
        self.progress_drawn = true;
        Ok(())
    }

    fn status_word(&self, status: ScenarioStatus) -> String {
        let (word, style) = match status {
            ScenarioStatus::Passed => ("PASS", GREEN),
            ScenarioStatus::Failed => ("FAIL", RED),
            ScenarioStatus::TimedOut => ("TIMEOUT", YELLOW),
            ScenarioStatus::Cancelled => ("CANCEL", MAGENTA),
            ScenarioStatus::Flaky => ("FLAKY", YELLOW),
            ScenarioStatus::Skipped => ("SKIP", DIM),
        };
        self.label(style, word)
    }

    fn scenario_line(&mut self, result: &ScenarioResult) -> std::io::Result<()> {
        let secs = Duration::from_millis(result.duration_ms).as_secs_f64();
        let attempts = match (result.status, result.attempt_count()) {
            (_, 1) => String::new(),
            (ScenarioStatus::Flaky, n) => format!(" (passed on attempt {n})"),
            (_, n) => format!(" ({n} attempts)"),
        };
        writeln!(
            self.out,
            "{} [{secs:>8.3}s] {}{attempts}",
            self.status_word(result.status),
            result.id
        )?;
        if let Some(skip) = &result.skip {
            writeln!(self.out, "{:>9} {}", "", skip.line())?;
        }
        if result.dependency_only {
            writeln!(self.out, "{:>9} run as a dependency", "")?;
        }
        if let Some(f) = &result.failure {
            self.failure_line(DIM, f)?;
        }
        if let Some(f) = &result.cleanup_failure {
            self.failure_line(RED, f)?;
        }
        if let Some(why) = &result.last_green_not_written {
            writeln!(
                self.out,
                "{:>9} the last-green record was not written: {why}",
                ""
            )?;
        }
        Ok(())
    }

    /// The `RETRY` line of a failed attempt that runs again.
    fn retry_line(
        &mut self,
        id: &str,
        failed: &AttemptResult,
        max_attempts: u32,
    ) -> std::io::Result<()> {
        let secs = Duration::from_millis(failed.duration_ms).as_secs_f64();
        writeln!(
            self.out,
            "{} [{secs:>8.3}s] {id} (attempt {} of {max_attempts} failed; running it again)",
            self.label(YELLOW, "RETRY"),
            failed.attempt
        )?;
        if let Some(f) = &failed.failure {
            self.failure_line(DIM, f)?;
        }
        Ok(())
    }

    /// The indented `code: message` line under a scenario or retry line, its code in `style`.
    fn failure_line(&mut self, style: &str, f: &FailureRecord) -> std::io::Result<()> {
        writeln!(
            self.out,
            "{:>13}{}: {}",
            "",
            self.paint(style, f.code.as_str()),
            f.message
        )
    }

    fn failure_block(&mut self, failure: &FailureRecord) -> std::io::Result<()> {
        let pad = " ".repeat(13);
        writeln!(
            self.out,
            "{pad}code      {} ({})",
            failure.code,
            class_name(failure.failure_class)
        )?;
        writeln!(self.out, "{pad}message   {}", failure.message)?;
        if let Some(step) = &failure.step_path {
            writeln!(self.out, "{pad}step      {step}")?;
        }
        if let Some(location) = &failure.location {
            writeln!(self.out, "{pad}at        {location}")?;
        }
        for (i, evidence) in failure.evidence.iter().enumerate() {
            let label = if i == 0 { "evidence" } else { "" };
            writeln!(self.out, "{pad}{label:<9} {}", self.show(&evidence.path))?;
        }
        for (i, missing) in failure.missing_evidence.iter().enumerate() {
            let label = if i == 0 { "missing" } else { "" };
            writeln!(
                self.out,
                "{pad}{label:<9} {}: {}",
                missing.kind.as_str(),
                missing.reason
            )?;
        }
        Ok(())
    }

    /// `trace     <path>` and, when the scenario passed before, the first step whose page
    /// differs from that last green run (`run --trace`).
    fn trace_lines(&mut self, s: &ScenarioResult) -> std::io::Result<()> {
        let Some(trace) = &s.trace else { return Ok(()) };
        let pad = " ".repeat(13);
        match &trace.not_written {
            Some(why) => writeln!(self.out, "{pad}trace     not written: {why}")?,
            None => writeln!(self.out, "{pad}trace     {}", self.show(&trace.path))?,
        }
        if let Some(at) = trace
            .since_last_green
            .as_ref()
            .and_then(|d| d.first_difference.as_ref())
        {
            writeln!(
                self.out,
                "{pad}differs   from the last green run after step {} (line {})",
                at.index + 1,
                at.line
            )?;
        }
        Ok(())
    }

    /// `within    before_each › use "sign-in"` under a failure inside a hook or group.
    fn within(&mut self, s: &ScenarioResult, failure: &FailureRecord) -> std::io::Result<()> {
        let step = tree::step_at(s, failure.step_path.as_deref());
        match step.and_then(|step| tree::within(s, step.group)) {
            Some(groups) => writeln!(self.out, "{:>13}within    {groups}", ""),
            None => Ok(()),
        }
    }

    /// Every failed soft expect (when there is more than the verdict names), and an
    /// `after_each` failure that is not the verdict, each as its own block.
    fn soft_and_hook(
        &mut self,
        s: &ScenarioResult,
        verdict: &FailureRecord,
    ) -> std::io::Result<()> {
        for (i, soft) in s.soft_failures.iter().enumerate() {
            writeln!(
                self.out,
                "{:>13}{}",
                "",
                self.label(YELLOW, &format!("soft expect {}", i + 1))
            )?;
            self.failure_block(soft)?;
            self.within(s, soft)?;
        }
        if let Some(hook) = &s.hook_failure {
            if hook.step_path != verdict.step_path {
                writeln!(self.out, "{} {}", self.label(RED, "AFTER_EACH"), s.id)?;
                self.failure_block(hook)?;
            }
        }
        Ok(())
    }

    fn summary(&mut self, result: &RunResult) -> std::io::Result<()> {
        let c = result.counts;
        let mut parts = vec![format!("{} passed", c.passed)];
        if c.flaky > 0 {
            let fails = if result.fail_on_flaky {
                " (--fail-on-flaky)"
            } else {
                ""
            };
            parts.push(format!("{} flaky{fails}", c.flaky));
        }
        let classes: Vec<String> = [
            ("product", c.product),
            ("specification", c.specification),
            ("infrastructure", c.infrastructure),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
        // Timed-out and cancelled scenarios are failures too (of the infrastructure class): they
        // are named inside the failure count, so the parts of the line add up to the total.
        let mut ended: Vec<String> = Vec::new();
        if c.timed_out > 0 {
            ended.push(format!("{} timed out", c.timed_out));
        }
        if c.cancelled > 0 {
            ended.push(format!("{} cancelled", c.cancelled));
        }
        if c.failed > 0 || c.timed_out > 0 || c.cancelled > 0 {
            let failed = format!("{} failed", c.failed + c.timed_out + c.cancelled);
            let detail = [classes.join(", "), ended.join(", ")]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
            parts.push(if detail.is_empty() {
                failed
            } else {
                format!("{failed} ({detail})")
            });
        }
        if c.cleanup > 0 {
            parts.push(format!(
                "{} cleanup failure{}",
                c.cleanup,
                if c.cleanup == 1 { "" } else { "s" }
            ));
        }
        if c.skipped > 0 {
            parts.push(format!("{} skipped", c.skipped));
        }
        if result.skipped > 0 {
            parts.push(format!("{} not selected", result.skipped));
        }
        let secs = Duration::from_millis(result.duration_ms).as_secs_f64();
        writeln!(self.out, "{}", "─".repeat(12))?;
        let noun = if c.total == 1 {
            "scenario"
        } else {
            "scenarios"
        };
        writeln!(
            self.out,
            "{} [{secs:>8.3}s] {} {noun}: {}",
            self.label(BOLD, "Summary"),
            c.total,
            parts.join(", ")
        )?;
        for scenario in &result.scenarios {
            if let Some(failure) = &scenario.failure {
                writeln!(
                    self.out,
                    "{} {}",
                    self.status_word(scenario.status),
                    scenario.id
                )?;
                self.failure_block(failure)?;
                self.within(scenario, failure)?;
                self.soft_and_hook(scenario, failure)?;
                self.trace_lines(scenario)?;
                if !scenario.earlier_attempts.is_empty() {
                    let n = scenario.attempt_count();
                    writeln!(self.out, "{:>13}attempts  {n}, each failed", "")?;
                }
            }
            if scenario.status == ScenarioStatus::Flaky {
                writeln!(
                    self.out,
                    "{} {} (passed on attempt {})",
                    self.status_word(scenario.status),
                    scenario.id,
                    scenario.attempt_count()
                )?;
                for attempt in &scenario.earlier_attempts {
                    writeln!(self.out, "{:>13}attempt   {} failed", "", attempt.attempt)?;
                    if let Some(failure) = &attempt.failure {
                        self.failure_block(failure)?;
                    }
                }
            }
            if let Some(failure) = &scenario.cleanup_failure {
                writeln!(self.out, "{} {}", self.label(RED, "CLEANUP"), scenario.id)?;
                self.failure_block(failure)?;
            }
        }
        for failure in &result.cleanup_failures {
            writeln!(self.out, "{} run", self.label(RED, "CLEANUP"))?;
            self.failure_block(failure)?;
        }
        writeln!(
            self.out,
            "{:>12} {}",
            "Artifacts",
            self.show(&result.artifact_root)
        )?;
        let verdict = match result.outcome {
            RunOutcome::Passed if c.flaky > 0 => {
                self.paint(YELLOW, &format!("passed with {} flaky", c.flaky))
            }
            RunOutcome::Passed => self.paint(GREEN, "passed"),
            RunOutcome::Failed => self.paint(RED, "failed"),
            RunOutcome::Error => self.paint(RED, "error"),
            RunOutcome::TimedOut => self.paint(RED, "timed out"),
            RunOutcome::Cancelled => self.paint(RED, "cancelled"),
        };
        writeln!(
            self.out,
            "{:>12} {verdict} (exit code {})",
            "Result", result.exit_code
        )
    }
}

impl<W: Write> Reporter for TerminalReporter<W> {
    fn report(&mut self, event: &RunEvent) -> std::io::Result<()> {
        self.elapsed = event.elapsed;
        self.clear_progress()?;
        match &event.kind {
            RunEventKind::RunStarted {
                run_id,
                scenario_count,
                skipped,
                jobs,
                artifact_root: _,
            } => {
                self.total = *scenario_count;
                let noun = if *scenario_count == 1 {
                    "scenario"
                } else {
                    "scenarios"
                };
                let skipped = if *skipped > 0 {
                    format!(" ({skipped} skipped)")
                } else {
                    String::new()
                };
                let jobs_noun = if *jobs == 1 { "job" } else { "jobs" };
                writeln!(
                    self.out,
                    "{} {scenario_count} {noun}{skipped} with {jobs} {jobs_noun}, run {run_id}",
                    self.label(BOLD, "Starting")
                )?;
            }
            RunEventKind::DevServerReused { url } => {
                writeln!(
                    self.out,
                    "{} the dev server already answering at {url} (started nothing; \
                     `reuse_existing = false` starts your own)",
                    self.label(BOLD, "Reusing")
                )?;
            }
            RunEventKind::DriverStarted { .. } => {}
            RunEventKind::ScenarioStarted { id, .. } => {
                self.running.insert(id.to_string());
            }
            RunEventKind::StepFinished { .. } => {}
            RunEventKind::ScenarioRetrying {
                id,
                failed,
                max_attempts,
            } => {
                self.retry_line(&id.to_string(), failed, *max_attempts)?;
            }
            RunEventKind::ScenarioFinished {
                result, finished, ..
            } => {
                self.running.remove(&result.id);
                self.finished = *finished;
                self.scenario_line(result)?;
            }
            RunEventKind::RunBeginCancel { running, .. } => {
                writeln!(
                    self.out,
                    "{} {running} running scenario{} (Ctrl+C again kills the browser at once)",
                    self.label(YELLOW, "Cancelling"),
                    if *running == 1 { "" } else { "s" }
                )?;
            }
            RunEventKind::CleanupFailed { failure } => {
                writeln!(
                    self.out,
                    "{} {}: {}",
                    self.label(RED, "CLEANUP"),
                    failure.code,
                    failure.message
                )?;
            }
            RunEventKind::RunFinished { result } => {
                self.summary(result)?;
                self.total = 0;
                return self.out.flush();
            }
        }
        self.draw_progress()?;
        self.out.flush()
    }
}
