//! Interrupting `fmt` (and `agent start` before its hand-over) cleanly.
//!
//! Without a handler, Ctrl+C (SIGINT), SIGTERM or SIGHUP ends the process at once: no file is
//! ever half-written (rewrites are atomic renames), but a rewrite in flight leaves its temporary
//! copy (`.a3s-fmt-*.tmp`, up to 1 MiB) behind. With [`install`], the first such signal only sets a
//! flag: `fmt` starts no new rewrite, the ones in flight finish (or drop their temporary file), and
//! the command exits [`super::exit::Exit::Interrupted`] (130). A second signal gets the default action, so a
//! stuck disk can still be left with another Ctrl+C. A signal the parent told us to ignore (a
//! background job of a non-interactive shell) stays ignored. The handlers are
//! [`a3s_test_driver::process::stop_flag`]'s.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Install the handler for SIGINT, SIGTERM and SIGHUP (those not already ignored); once per
/// process, later calls do nothing.
pub fn install() {
    if INTERRUPTED.get().is_some() {
        return;
    }
    match a3s_test_driver::process::stop_flag() {
        Ok(flag) => {
            let _ = INTERRUPTED.set(flag);
        }
        Err(e) => eprintln!("warning: failed to install the Ctrl+C handler: {e}"),
    }
}

/// True once a stop signal has arrived.
pub fn interrupted() -> bool {
    INTERRUPTED
        .get()
        .is_some_and(|flag| flag.load(Ordering::SeqCst))
}
