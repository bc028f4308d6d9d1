//! Interrupting `fmt` cleanly.
//!
//! Without a handler, Ctrl+C (SIGINT), SIGTERM or SIGHUP ends the process at once: no file is
//! ever half-written (rewrites are atomic renames), but a rewrite in flight leaves its temporary
//! copy (`.a3s-fmt-*.tmp`, up to 1 MiB) behind. With [`install`], the first such signal only sets a
//! flag: `fmt` starts no new rewrite, the ones in flight finish (or drop their temporary file), and
//! the command exits [`super::exit::Exit::Interrupted`] (130). A second signal gets the default action, so a
//! stuck disk can still be left with another Ctrl+C. A signal the parent told us to ignore (a
//! background job of a non-interactive shell) stays ignored.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The signals that stop `fmt`.
#[cfg(unix)]
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    // Only async-signal-safe work here: an atomic swap, and on the second signal `signal` and
    // `raise` to take the default action.
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: both are async-signal-safe; `signal` is one of SIGNALS.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}

/// Install the handler for SIGINT, SIGTERM and SIGHUP (those not already ignored).
pub fn install() {
    #[cfg(unix)]
    for signal in SIGNALS {
        // SAFETY: querying and setting a disposition with zeroed, then filled, sigaction structs;
        // the handler only touches an atomic and async-signal-safe calls.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                || old.sa_sigaction == libc::SIG_IGN
            {
                continue;
            }
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            new.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut new.sa_mask);
            libc::sigaction(signal, &new, std::ptr::null_mut());
        }
    }
}

/// True once a stop signal has arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
