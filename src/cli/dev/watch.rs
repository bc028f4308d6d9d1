//! The waiter of `a3s-test dev`: one thread that asks the session to wait until the page's
//! repair queue changes (`repair_wait`, answered by the page's `subscribeRepairs`) and wakes the
//! main loop with each change. A wait ends after [`WAIT_MS`] even without a change, which is the
//! main loop's moment to mirror ledger status changes into the page; any other client of the
//! session preempts a wait, so agent turns are never held up by it.

use super::Wake;
use crate::ops::session::turn;
use crate::ops::Context;
use a3s_test_runner::session::page_context::repair_watch::{RepairMark, Waited};
use a3s_test_runner::session::protocol::RepairWait;
use a3s_test_runner::session::SessionCode;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// The longest one wait lasts, so status changes reach the page within about this long.
pub const WAIT_MS: u64 = 1_500;
/// The pause before asking again after a failed wait (a page without the bridge, mid-reload).
const RETRY_AFTER: Duration = Duration::from_millis(500);
/// How long the page may go without a bridge before the terminal hears of it: a dev server's
/// first page load (Vite optimising dependencies, React mounting the Test Kit) takes seconds,
/// and a warning for that normal start would only mislead.
const BRIDGE_GRACE: Duration = Duration::from_secs(10);

/// When a page that keeps failing its waits is worth one warning: after [`BRIDGE_GRACE`] of
/// failures in a row, once per run of failures.
#[derive(Debug, Default)]
struct Patience {
    failing_since: Option<Instant>,
    warned: bool,
}

impl Patience {
    /// A wait succeeded: the next failure starts a new run.
    fn ok(&mut self) {
        *self = Patience::default();
    }

    /// A wait failed at `now`: whether to warn now.
    fn failed(&mut self, now: Instant) -> bool {
        let since = *self.failing_since.get_or_insert(now);
        if self.warned || now.duration_since(since) < BRIDGE_GRACE {
            return false;
        }
        self.warned = true;
        true
    }
}

/// Wait for changes of `session`'s page until the main loop hangs up or the session ends.
pub fn run(root: std::path::PathBuf, session: String, wake: Sender<Wake>) {
    let ctx = Context::new(Some(root));
    let mut since: Option<RepairMark> = None;
    let mut patience = Patience::default();
    loop {
        let request = RepairWait {
            since: since.clone(),
            timeout_ms: WAIT_MS,
        };
        let message = match turn(&ctx, &session, request) {
            Ok(waited) => {
                patience.ok();
                match waited {
                    Waited::Mark(mark) if Some(&mark) != since.as_ref() => {
                        since = Some(mark);
                        Wake::Changed
                    }
                    // The same mark, or another client preempted the wait: ask again.
                    Waited::Mark(_) | Waited::Preempted => Wake::Tick,
                }
            }
            Err(e)
                if matches!(
                    e.code,
                    SessionCode::NotRunning | SessionCode::Supervisor | SessionCode::Cleanup
                ) =>
            {
                let _ = wake.send(Wake::SessionEnded(e.message));
                return;
            }
            Err(e) => {
                // A page without the bridge (or one loading or reloading): ask again shortly,
                // and say so once if it lasts.
                std::thread::sleep(RETRY_AFTER);
                if patience.failed(Instant::now()) {
                    Wake::Warning(format!(
                        "waiting for the page's repair queue: {}",
                        e.message
                    ))
                } else {
                    Wake::Tick
                }
            }
        };
        if wake.send(message).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_still_loading_is_no_warning_one_that_stays_without_a_bridge_is_one() {
        let start = Instant::now();
        let mut p = Patience::default();
        assert!(!p.failed(start), "the first failure is the page loading");
        assert!(!p.failed(start + BRIDGE_GRACE / 2));
        assert!(p.failed(start + BRIDGE_GRACE), "it lasted: warn");
        assert!(
            !p.failed(start + BRIDGE_GRACE * 2),
            "once per run of failures"
        );
        p.ok();
        let later = start + BRIDGE_GRACE * 3;
        assert!(!p.failed(later), "a new run of failures waits again");
        assert!(p.failed(later + BRIDGE_GRACE));
    }
}
