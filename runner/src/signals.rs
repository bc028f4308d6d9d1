//! Ctrl+C: the first asks for a bounded, orderly stop; the second kills the owned tree at once.
//!
//! The first SIGINT (or SIGTERM, or SIGHUP when the terminal goes away) cancels the run's
//! [`CancelToken`]: the executor stops starting scenarios, abandons running steps, closes their
//! contexts and shuts the browser down, each within a bound, and the run exits 130. If the user
//! presses Ctrl+C again while that cleanup runs, every process in this binary's subtree
//! ([`crate::process_tree`], by PID, never by name) gets SIGKILL and the process exits 130
//! immediately. The signals arrive through [`a3s_test_driver::process::on_stop_signals`].

use crate::cancel::CancelToken;
use crate::exit;

/// Install the handler; it lives until the process exits.
pub fn install(cancel: CancelToken) -> std::io::Result<()> {
    a3s_test_driver::process::on_stop_signals(move |received| {
        if received == 1 {
            cancel.cancel();
        } else {
            second_interrupt();
        }
    })
}

/// The second Ctrl+C: SIGKILL the owned subtree and leave with the cancel exit code.
fn second_interrupt() -> ! {
    let killed = crate::process_tree::kill_descendants();
    eprintln!(
        "a3s-test: interrupted twice; killed {} owned process(es)",
        killed.len()
    );
    std::process::exit(exit::Exit::Interrupted.code().into())
}
