//! Step 7 of verifying a repair: run the project's trusted checks (`.a3s-test/project.acl` →
//! `verification { check … }`) that the slice selected, or read the results an orchestrator
//! reported instead ([`parse_caller_results`], `--checks-json`).
//!
//! Why the tool runs them itself: an agent that says "the tests pass" is certifying its own
//! work. A check here is the catalog's argument vector, started without a shell, in the project
//! root, with stdin closed, in a process group this process owns ([`group`]); it gets the
//! check's `timeout_ms` to finish and then a bounded cleanup (SIGTERM to the group, SIGKILL after
//! [`CheckOptions::cleanup_timeout`]). Its output is drained while it runs and the last
//! [`CheckOptions::output_limit`] bytes of each stream become evidence files with their SHA-256
//! ([`EvidenceDir`]). Checks run one after the other, in the order given.
//!
//! A check passes only when its main process exits 0 *and* nothing of it is left: a process
//! still alive in its group after the main process exited (a double-forked helper, a server
//! started in the background) is a [`CheckOutcome::SurvivingDescendant`] and is stopped. So is a
//! helper that left the group (`setsid`) but still holds the check's output pipes: once the
//! group is gone those pipes must close, and whoever still holds one is found through the pipe
//! (`a3s_test_driver::process::pipe_holders`) and killed. (A helper that left the group *and*
//! closed its output is beyond what a process group can track.)
//!
//! Every other ending is its own outcome: [`CheckOutcome::Failed`] (non-zero exit or a signal),
//! [`CheckOutcome::TimedOut`], [`CheckOutcome::CleanupFailed`] (members survived SIGKILL, or a
//! process that could not be stopped still holds the output pipes), [`CheckOutcome::SpawnFailed`].
//!
//! Interruption: with the default signal handling, Ctrl+C ends the tool; the group's watchdog
//! sees its owner's pipe close and stops the group (SIGTERM, SIGKILL half a second later), and
//! the check's main process gets SIGKILL from the parent-death signal — so nothing is left
//! running even after `kill -9`. A caller that installs [`crate::signals::install`] passes its
//! [`CancelToken`] in [`CheckOptions::cancel`]: the running check's group is then stopped within
//! the cleanup bound and [`run_checks`] returns [`CheckRunError::Interrupted`].
//!
//! `a3s-test` as a check's program means this binary (`std::env::current_exe`), as for the dev
//! server, so a check may be `["a3s-test", "run", "suites/"]` without the binary on `PATH`; a
//! relative program with a `/` (`./scripts/check.sh`) is taken from the project root; any other
//! name is looked up on `PATH`.

mod caller;
mod capture;
mod files;
mod group;
#[cfg(test)]
mod tests;

pub use caller::{
    caller_reported, parse_caller_results, read_caller_results, unreported, CallerResultsError,
    CHECK_RESULTS_PROTOCOL, MAX_RESULTS_BYTES, MAX_SUMMARY_CHARS,
};
pub use files::{sha256, EvidenceDir};

use crate::cancel::CancelToken;
use crate::evidence::{safe_component, EvidenceError};
use crate::session::SessionCode;
use a3s_test_driver::child::{self, ExitWatch, Group, OnOwnerDeath};
use a3s_test_driver::process;
use a3s_test_lang::ir::VerificationCheck;
use a3s_test_ledger::verification::{
    CheckMode, CheckOutcome, CheckResult, EvidenceKind, EvidenceRef, VerificationFailure,
    VerifyStep,
};
use capture::{Captured, Reader};
use group::{OwnedGroup, Stop};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;
use tokio::time::Instant;

/// Default bound between SIGTERM and SIGKILL of a check's group, and for the group to be gone.
pub const DEFAULT_CLEANUP_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest `check` can take with the default options: its own timeout, then the cleanup of
/// a check that ran out of time (stop the group, await the exit, sweep the survivors, close the
/// two pipes: at most six cleanup bounds) and two settle waits. A verification's lease is sized
/// from it, so the bound lives beside the cleanup it adds up.
pub fn longest_run(check: &VerificationCheck) -> Duration {
    Duration::from_millis(check.timeout_ms) + 6 * DEFAULT_CLEANUP_TIMEOUT + 2 * DEFAULT_SETTLE
}
/// Default number of bytes kept from the end of each output stream.
pub const DEFAULT_OUTPUT_LIMIT: usize = 64 * 1024;
/// Default time a check's group gets to empty after its main process exited before what is
/// still alive counts as a surviving descendant (helpers the check itself is stopping).
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(100);

/// How checks are run (the per-check run deadline is the catalog's `timeout_ms`).
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// SIGTERM → SIGKILL bound, and the bound for the group to be gone after SIGKILL.
    pub cleanup_timeout: Duration,
    /// Bytes kept from the end of each of stdout and stderr.
    pub output_limit: usize,
    /// How long the group may take to empty after the main process exited.
    pub settle: Duration,
    /// Cancelled by the caller's Ctrl+C handler: stop the running check and return.
    pub cancel: Option<CancelToken>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            cleanup_timeout: DEFAULT_CLEANUP_TIMEOUT,
            output_limit: DEFAULT_OUTPUT_LIMIT,
            settle: DEFAULT_SETTLE,
            cancel: None,
        }
    }
}

/// Why [`run_checks`] returned no complete list of results.
#[derive(Debug, thiserror::Error)]
pub enum CheckRunError {
    /// The cancel token fired; the running check's group was stopped. The checks that had
    /// finished before are kept.
    #[error("interrupted while running the verification checks")]
    Interrupted {
        /// Results of the checks that finished before the interruption.
        completed: Vec<CheckResult>,
    },
    /// An output file could not be written into the evidence folder.
    #[error("failed to keep the output of check `{id}`: {source}")]
    Evidence {
        /// The check.
        id: String,
        /// Why.
        source: EvidenceError,
    },
}

impl CheckRunError {
    /// The stable code.
    pub fn code(&self) -> SessionCode {
        match self {
            CheckRunError::Interrupted { .. } => SessionCode::RepairCheckInterrupted,
            CheckRunError::Evidence { .. } => SessionCode::Io,
        }
    }
}

/// Run `checks` one after the other with `root` as working directory, keeping their output in
/// `evidence`. Every check runs, whatever the previous one did; the results are in order.
pub async fn run_checks(
    root: &Path,
    checks: &[&VerificationCheck],
    evidence: &EvidenceDir,
    opts: &CheckOptions,
) -> Result<Vec<CheckResult>, CheckRunError> {
    let mut results = Vec::with_capacity(checks.len());
    for (index, check) in checks.iter().enumerate() {
        if opts.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
            return Err(CheckRunError::Interrupted { completed: results });
        }
        match run_one(root, index, check, evidence, opts).await? {
            Some(result) => results.push(result),
            None => return Err(CheckRunError::Interrupted { completed: results }),
        }
    }
    Ok(results)
}

/// The catalog entries of `ids` (the slice's `selectedChecks`), in the order of `ids`; the
/// first id the catalog does not declare is the error (the slice is planned from the same
/// catalog, so this only fails when the two disagree).
pub fn select<'a>(
    catalog: &'a [VerificationCheck],
    ids: &[String],
) -> Result<Vec<&'a VerificationCheck>, UnknownCheck> {
    ids.iter()
        .map(|id| {
            catalog
                .iter()
                .find(|c| &c.id == id)
                .ok_or_else(|| UnknownCheck(id.clone()))
        })
        .collect()
}

/// A selected check id the project's catalog does not declare.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("check `{0}` is not in the project's verification catalog")]
pub struct UnknownCheck(pub String);

/// The first failed result as the verification's failure (step 7), with its outcome's code.
pub fn first_failure(results: &[CheckResult]) -> Option<VerificationFailure> {
    let failed = results.iter().find(|r| !r.outcome.passed())?;
    let code = outcome_code(failed.outcome)?;
    let what = match failed.mode {
        CheckMode::Executed => "",
        CheckMode::CallerReported => " (reported by the caller)",
    };
    let detail = failed
        .message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    Some(VerificationFailure {
        step: VerifyStep::Checks,
        code: code.as_str().to_string(),
        message: format!("check `{}` {}{what}{detail}", failed.id, verb(failed)),
    })
}

/// The stable code of a failed outcome; `None` for a pass.
pub fn outcome_code(outcome: CheckOutcome) -> Option<SessionCode> {
    Some(match outcome {
        CheckOutcome::Passed => return None,
        CheckOutcome::Failed => SessionCode::RepairCheckFailed,
        CheckOutcome::TimedOut => SessionCode::RepairCheckTimeout,
        CheckOutcome::SurvivingDescendant => SessionCode::RepairCheckSurvivor,
        CheckOutcome::CleanupFailed => SessionCode::RepairCheckCleanup,
        CheckOutcome::SpawnFailed => SessionCode::RepairCheckSpawn,
    })
}

fn verb(r: &CheckResult) -> String {
    match r.outcome {
        CheckOutcome::Passed => "passed".into(),
        CheckOutcome::Failed => match r.exit_code {
            Some(code) => format!("failed with exit code {code}"),
            None => "failed".into(),
        },
        CheckOutcome::TimedOut => "timed out".into(),
        CheckOutcome::SurvivingDescendant => "left a process running".into(),
        CheckOutcome::CleanupFailed => "could not be cleaned up".into(),
        CheckOutcome::SpawnFailed => "could not be started".into(),
    }
}

/// How the wait for a check's main process ended.
enum Ended {
    Exited(Option<ExitStatus>),
    TimedOut,
    Cancelled,
}

/// Run one check; `None` when cancelled (its group already stopped).
async fn run_one(
    root: &Path,
    index: usize,
    check: &VerificationCheck,
    evidence: &EvidenceDir,
    opts: &CheckOptions,
) -> Result<Option<CheckResult>, CheckRunError> {
    let started = Instant::now();
    let spawn_failed = |message: String| CheckResult {
        id: check.id.clone(),
        mode: CheckMode::Executed,
        outcome: CheckOutcome::SpawnFailed,
        exit_code: None,
        duration_ms: millis(started.elapsed()),
        stdout: None,
        stderr: None,
        message: Some(message),
    };
    let Some((program, args)) = check.command.split_first() else {
        return Ok(Some(spawn_failed("the command is empty".into())));
    };
    let exe = if program == "a3s-test" {
        match std::env::current_exe() {
            Ok(exe) => exe,
            Err(e) => return Ok(Some(spawn_failed(format!("`a3s-test`: {e}")))),
        }
    } else if program.contains('/') && Path::new(program).is_relative() {
        // `./scripts/check.sh` means the project's script, whatever this process's own cwd is.
        root.join(program)
    } else {
        program.into()
    };
    let mut group = match OwnedGroup::create() {
        Ok(group) => group,
        Err(e) => {
            return Ok(Some(spawn_failed(format!(
                "failed to create its process group: {e}"
            ))))
        }
    };
    let mut command = Command::new(exe);
    command
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match child::spawn(command, Group::Join(group.pgid()), OnOwnerDeath::Kill) {
        Ok(child) => child,
        Err(e) => {
            group.kill_all(opts.cleanup_timeout).await;
            return Ok(Some(spawn_failed(format!("`{program}`: {e}"))));
        }
    };
    let mut stdout = child
        .stdout
        .take()
        .map(|p| Reader::start(p, opts.output_limit));
    let mut stderr = child
        .stderr
        .take()
        .map(|p| Reader::start(p, opts.output_limit));
    let exit = ExitWatch::new(child);
    let deadline = started + Duration::from_millis(check.timeout_ms);
    let cancel = opts.cancel.clone();
    let ended = tokio::select! {
        status = exit.exited() => Ended::Exited(status),
        _ = tokio::time::sleep_until(deadline) => Ended::TimedOut,
        _ = async move {
            match cancel {
                Some(token) => token.cancelled().await,
                None => std::future::pending().await,
            }
        } => Ended::Cancelled,
    };
    let duration_ms = millis(started.elapsed());
    let mut survivors = Vec::new();
    let stop = match ended {
        Ended::Exited(_) => {
            if group.wait_empty(opts.settle).await {
                Stop::Stopped
            } else {
                survivors = group.members();
                group.stop(opts.cleanup_timeout).await
            }
        }
        Ended::TimedOut | Ended::Cancelled => {
            let stop = group.stop(opts.cleanup_timeout).await;
            let _ = tokio::time::timeout(opts.cleanup_timeout, exit.exited()).await;
            stop
        }
    };
    // Last: the watchdog itself, so not even the group's leader outlives the check.
    let last = group.kill_all(opts.cleanup_timeout).await;
    let escaped = close_pipes([stdout.as_mut(), stderr.as_mut()], opts).await;
    if matches!(ended, Ended::Cancelled) {
        return Ok(None);
    }
    let out = stdout.as_ref().map(Reader::captured);
    let err = stderr.as_ref().map(Reader::captured);
    let still = match (stop, last) {
        (Stop::StillRunning(mut a), Stop::StillRunning(b)) => {
            a.extend(b);
            a.sort_unstable();
            a.dedup();
            Some(a)
        }
        (Stop::StillRunning(a), Stop::Stopped) | (Stop::Stopped, Stop::StillRunning(a)) => Some(a),
        (Stop::Stopped, Stop::Stopped) => None,
    };
    let left = Left {
        survivors,
        escaped,
        still,
    };
    let (outcome, exit_code, mut notes) = judge(check, &ended, &left, &out, &err, opts);
    let name = format!("{:02}-{}", index + 1, safe_component(&check.id));
    let stdout = keep(
        evidence,
        check,
        &name,
        EvidenceKind::CheckStdout,
        &out,
        &mut notes,
    )?;
    let stderr = keep(
        evidence,
        check,
        &name,
        EvidenceKind::CheckStderr,
        &err,
        &mut notes,
    )?;
    Ok(Some(CheckResult {
        id: check.id.clone(),
        mode: CheckMode::Executed,
        outcome,
        exit_code,
        duration_ms,
        stdout,
        stderr,
        message: (!notes.is_empty()).then(|| notes.join("; ")),
    }))
}

/// What a check left behind once its main process had ended.
struct Left {
    /// Members of its group still alive after the main process exited (then stopped).
    survivors: Vec<u32>,
    /// Processes outside its group that still held its output pipes (then killed).
    escaped: Vec<u32>,
    /// Members of its group still alive after SIGKILL and the cleanup bound.
    still: Option<Vec<u32>>,
}

/// After the group is gone its output pipes must reach end-of-file. A pipe still open is held by
/// a process that left the group (`setsid`, `setpgid`): find it by the pipe and kill it (a few
/// rounds, in case it forks meanwhile). Returns the pids killed.
async fn close_pipes(readers: [Option<&mut Reader>; 2], opts: &CheckOptions) -> Vec<u32> {
    let mut escaped = Vec::new();
    for reader in readers.into_iter().flatten() {
        for _round in 0..3 {
            if reader.closed_within(opts.settle).await {
                break;
            }
            let Some(inode) = reader.inode() else { break };
            for p in process::pipe_holders(inode) {
                process::signal(p.pid, process::Signal::KILL);
                escaped.push(p.pid as u32);
            }
        }
        reader.closed_within(opts.cleanup_timeout).await;
    }
    escaped.sort_unstable();
    escaped.dedup();
    escaped
}

/// The outcome, exit code and notes of a check that was started.
fn judge(
    check: &VerificationCheck,
    ended: &Ended,
    left: &Left,
    out: &Option<Captured>,
    err: &Option<Captured>,
    opts: &CheckOptions,
) -> (CheckOutcome, Option<i32>, Vec<String>) {
    let status = match ended {
        Ended::Exited(status) => *status,
        _ => None,
    };
    let exit_code = status.and_then(|s| s.code());
    let mut notes = Vec::new();
    let held = [out, err]
        .iter()
        .any(|c| c.as_ref().is_some_and(|c| !c.closed));
    if !left.escaped.is_empty() {
        notes.push(format!(
            "processes {} had left its process group and still held its output; they were killed",
            pid_list(&left.escaped)
        ));
    }
    let outcome = if let Some(pids) = &left.still {
        notes.push(format!(
            "processes {} of its group were still alive {} ms after SIGKILL",
            pid_list(pids),
            opts.cleanup_timeout.as_millis()
        ));
        CheckOutcome::CleanupFailed
    } else if held {
        notes.push("its output is still held open by a process that could not be stopped".into());
        CheckOutcome::CleanupFailed
    } else {
        match ended {
            Ended::TimedOut | Ended::Cancelled => {
                notes.push(format!("did not finish within {} ms", check.timeout_ms));
                CheckOutcome::TimedOut
            }
            Ended::Exited(_) if !left.survivors.is_empty() => {
                notes.push(format!(
                    "left {} process(es) running in its group after it exited (pids {}); they were stopped",
                    left.survivors.len(),
                    pid_list(&left.survivors)
                ));
                CheckOutcome::SurvivingDescendant
            }
            Ended::Exited(_) if !left.escaped.is_empty() => CheckOutcome::SurvivingDescendant,
            Ended::Exited(Some(s)) if s.success() => CheckOutcome::Passed,
            Ended::Exited(Some(s)) => {
                use std::os::unix::process::ExitStatusExt;
                if let Some(signal) = s.signal() {
                    notes.push(format!("killed by signal {signal}"));
                }
                CheckOutcome::Failed
            }
            Ended::Exited(None) => {
                notes.push("its exit status could not be read".into());
                CheckOutcome::Failed
            }
        }
    };
    if matches!(ended, Ended::TimedOut) && outcome == CheckOutcome::CleanupFailed {
        notes.push(format!("after its {} ms deadline", check.timeout_ms));
    }
    (outcome, exit_code, notes)
}

/// Write one stream's kept tail as `<name>.stdout.log` / `.stderr.log`; a truncated stream
/// starts with a line saying how much was dropped.
fn keep(
    evidence: &EvidenceDir,
    check: &VerificationCheck,
    name: &str,
    kind: EvidenceKind,
    captured: &Option<Captured>,
    notes: &mut Vec<String>,
) -> Result<Option<EvidenceRef>, CheckRunError> {
    let Some(c) = captured else { return Ok(None) };
    let stream = if kind == EvidenceKind::CheckStdout {
        "stdout"
    } else {
        "stderr"
    };
    let mut bytes = Vec::with_capacity(c.tail.len() + 96);
    if c.truncated() {
        let dropped = c.total - c.tail.len() as u64;
        bytes.extend_from_slice(
            format!(
                "[a3s-test: {stream} truncated: the first {dropped} of {} bytes were dropped]\n",
                c.total
            )
            .as_bytes(),
        );
        notes.push(format!(
            "{stream} truncated to its last {} bytes",
            c.tail.len()
        ));
    }
    bytes.extend_from_slice(&c.tail);
    evidence
        .write(&format!("{name}.{stream}.log"), kind, &bytes)
        .map(Some)
        .map_err(|source| CheckRunError::Evidence {
            id: check.id.clone(),
            source,
        })
}

/// At most [`MAX_LISTED_PIDS`] pids as `[1, 2, …]`, then how many more: a check that forked
/// thousands of helpers still gets a short message (the ledger bounds message length).
fn pid_list(pids: &[u32]) -> String {
    let shown: Vec<String> = pids
        .iter()
        .take(MAX_LISTED_PIDS)
        .map(u32::to_string)
        .collect();
    let more = pids.len().saturating_sub(MAX_LISTED_PIDS);
    if more == 0 {
        format!("[{}]", shown.join(", "))
    } else {
        format!("[{}, and {more} more]", shown.join(", "))
    }
}

/// The most pids named in one check message.
const MAX_LISTED_PIDS: usize = 16;

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
