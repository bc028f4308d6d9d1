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

/// Re-run `check` until it yields a value, the process behind it exits, or `within` passes:
/// every [`POLL_EVERY`], and at once when `woken` is notified (a signal that the condition may
/// hold now, so the wait does not sit out the rest of an interval).
pub(crate) async fn poll<T>(
    exit: &ExitWatch,
    within: Duration,
    woken: Option<&tokio::sync::Notify>,
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
        match woken {
            Some(woken) => {
                let _ = tokio::time::timeout(POLL_EVERY, woken.notified()).await;
            }
            None => tokio::time::sleep(POLL_EVERY).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::owned::OwnedGroup;
    use std::process::{Command, Stdio};

    /// Start `sh -c script` in an owned group with its stdout on a fresh pipe.
    fn start(group: &OwnedGroup, script: &str) -> (std::io::PipeReader, ExitWatch) {
        let (reader, writer) = std::io::pipe().unwrap();
        let mut command = Command::new("sh");
        command
            .args(["-c", script])
            .stdin(Stdio::null())
            .stdout(writer);
        (reader, group.spawn(command).unwrap().exit)
    }

    #[tokio::test]
    async fn the_first_line_is_read_and_an_exit_or_the_deadline_ends_the_wait() {
        let mut group = OwnedGroup::start().unwrap();
        let (reader, exit) = start(&group, "echo ' 7 '; sleep 30");
        let line = first_line(reader, &exit, Duration::from_secs(10)).await;
        assert_eq!(line.unwrap(), "7");

        let (reader, exit) = start(&group, "exit 4");
        let started = Instant::now();
        let gone = first_line(reader, &exit, Duration::from_secs(30)).await;
        assert!(
            matches!(gone, Err(NotReady::Exited(Some(s))) if s.code() == Some(4)),
            "{gone:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));

        let (reader, exit) = start(&group, "sleep 30");
        let silent = first_line(reader, &exit, Duration::from_millis(200)).await;
        assert!(matches!(silent, Err(NotReady::Timeout(_))), "{silent:?}");
        assert!(group.stop());
    }

    #[tokio::test]
    async fn a_poll_ends_with_its_value_the_exit_or_the_deadline() {
        let mut group = OwnedGroup::start().unwrap();
        let (_reader, running) = start(&group, "sleep 30");
        let mut tries = 0;
        let value = poll(&running, Duration::from_secs(10), None, async || {
            tries += 1;
            (tries == 3).then_some(tries)
        })
        .await;
        assert_eq!(value.unwrap(), 3);

        let never = poll(
            &running,
            Duration::from_millis(100),
            None,
            async || None::<()>,
        )
        .await;
        assert!(matches!(never, Err(NotReady::Timeout(_))), "{never:?}");

        let (_reader, quits) = start(&group, "exit 2");
        let started = Instant::now();
        let gone = poll(&quits, Duration::from_secs(30), None, async || None::<()>).await;
        assert!(matches!(gone, Err(NotReady::Exited(Some(_)))), "{gone:?}");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(group.stop());
    }
}
