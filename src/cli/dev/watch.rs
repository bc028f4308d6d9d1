//! The waiter of `a3s-test dev`: one thread that asks the session to wait until the page's
//! repair queue changes (`repair_wait`, answered by the page's `subscribeRepairs`) and wakes the
//! main loop with each change. A wait ends after [`WAIT_MS`] even without a change, which is the
//! main loop's moment to mirror ledger status changes into the page; any other client of the
//! session preempts a wait, so agent turns are never held up by it.

use super::Wake;
use crate::ops::session::turn;
use crate::ops::Context;
use a3s_test_runner::session::page_context::repair_watch::RepairMark;
use a3s_test_runner::session::protocol::Request;
use a3s_test_runner::session::SessionCode;
use serde::Deserialize;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// The longest one wait lasts, so status changes reach the page within about this long.
pub const WAIT_MS: u64 = 1_500;
/// The pause before asking again after a failed wait (a page without the bridge, mid-reload).
const RETRY_AFTER: Duration = Duration::from_millis(500);

#[derive(Debug, Deserialize)]
struct Answer {
    #[serde(default)]
    mark: Option<RepairMark>,
}

/// Wait for changes of `session`'s page until the main loop hangs up or the session ends.
pub fn run(root: std::path::PathBuf, session: String, wake: Sender<Wake>) {
    let ctx = Context::new(Some(root));
    let mut since: Option<RepairMark> = None;
    let mut warned = false;
    loop {
        let request = Request::RepairWait {
            since: since.clone(),
            timeout_ms: WAIT_MS,
        };
        let message = match turn(&ctx, &session, request) {
            Ok(body) => {
                warned = false;
                let answer: Answer = serde_json::from_value(body).unwrap_or(Answer { mark: None });
                match answer.mark {
                    Some(mark) if Some(&mark) != since.as_ref() => {
                        since = Some(mark);
                        Wake::Changed
                    }
                    _ => Wake::Tick,
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
                // A page without the bridge (or one reloading): say it once, ask again shortly.
                let first = !warned;
                warned = true;
                std::thread::sleep(RETRY_AFTER);
                if first {
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
