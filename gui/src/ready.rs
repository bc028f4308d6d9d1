//! Bounded waits for a desktop process to be ready: a line it writes on a pipe (Xvfb's display
//! number, the session bus's address) or a bus condition polled until it holds.
//!
//! Every wait has a deadline and ends early when the awaited process exits, so a desktop that
//! cannot start fails in its own time with the reason, never hangs.

use a3s_test_driver::child::ExitWatch;
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

/// How often a bus condition is re-checked while it does not hold yet.
const POLL_EVERY: Duration = Duration::from_millis(10);

/// Why a wait ended without its value.
#[derive(Debug)]
pub(crate) enum NotReady {
    /// The process exited first (how, when known).
    Exited(Option<std::process::ExitStatus>),
    /// The deadline passed.
    Timeout(Duration),
}

impl std::fmt::Display for NotReady {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotReady::Exited(Some(status)) => write!(f, "exited ({status}) before it was ready"),
            NotReady::Exited(None) => write!(f, "closed its output before it was ready"),
            NotReady::Timeout(waited) => {
                write!(f, "was not ready within {} ms", waited.as_millis())
            }
        }
    }
}

/// Read the first line `reader` delivers (its writer is the awaited process), within `within`.
/// The read runs on a thread of its own: it ends when the process writes or its end closes
/// (the owner stops the group on failure, which closes it).
pub(crate) async fn first_line(
    reader: std::io::PipeReader,
    exit: &ExitWatch,
    within: Duration,
) -> Result<String, NotReady> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("a3s-test-gui-ready".into())
        .spawn(move || {
            let mut line = String::new();
            let read = BufReader::new(reader).read_line(&mut line);
            let _ = tx.send(read.ok().filter(|n| *n > 0).map(|_| line));
        })
        .map_err(|_| NotReady::Exited(None))?;
    match tokio::time::timeout(within, rx).await {
        Ok(Ok(Some(line))) => Ok(line.trim().to_owned()),
        Ok(_) => Err(NotReady::Exited(
            exit.wait_blocking(Duration::from_millis(200)),
        )),
        Err(_) => Err(NotReady::Timeout(within)),
    }
}

/// Re-run `check` until it yields a value, the process behind it exits, or `within` passes.
pub(crate) async fn poll<T>(
    exit: &ExitWatch,
    within: Duration,
    mut check: impl AsyncFnMut() -> Option<T>,
) -> Result<T, NotReady> {
    let started = Instant::now();
    loop {
        if let Some(value) = check().await {
            return Ok(value);
        }
        if let Some(status) = exit.status() {
            return Err(NotReady::Exited(Some(status)));
        }
        if started.elapsed() >= within {
            return Err(NotReady::Timeout(started.elapsed()));
        }
        tokio::time::sleep(POLL_EVERY).await;
    }
}
