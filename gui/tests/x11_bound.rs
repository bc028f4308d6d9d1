//! Every X call has a bound: on a real Xvfb the test owns (a process group of its own), an `X11`
//! works, then the server's group is stopped with SIGSTOP and a call fails as
//! `test.driver.gui.x11` saying the server did not answer within the bound — instead of hanging.
//! Every later call on that connection fails with the same error, even once the server runs
//! again (SIGCONT), while a new connection to it works. The server is stopped by its group id,
//! never by name, and killed and reaped at the end (or on a panic, by the guard).

use a3s_test_driver::child::{self, ExitWatch, Group, OnOwnerDeath};
use a3s_test_driver::process::{kill_group, signal_group, Signal};
use a3s_test_gui::x11::X11;
use a3s_test_gui::{GuiCode, GuiError};
use std::io::BufRead as _;
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The bound the test's connections wait for the server (the product's is 5 s).
const BOUND: Duration = Duration::from_millis(500);

/// How long the test waits for a bounded call to come back before it calls it a hang: the
/// bound plus a margin a loaded two-core machine never needs.
const HANG: Duration = Duration::from_secs(30);

/// An Xvfb in its own process group; dropping it resumes and kills the group and reaps the server.
struct OwnedXvfb {
    pgid: u32,
    exit: ExitWatch,
    display: String,
}

impl OwnedXvfb {
    /// Start it; `-displayfd` writes the display number once it accepts clients.
    fn start() -> OwnedXvfb {
        let (reader, writer) = std::io::pipe().unwrap();
        let mut command = Command::new("Xvfb");
        command
            .args(["-displayfd", "1", "-screen", "0", "320x200x24"])
            .args(["-nolisten", "tcp"])
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::null());
        let server = child::spawn(command, Group::NewGroup, OnOwnerDeath::Kill).unwrap();
        let pgid = server.id();
        let exit = ExitWatch::new(server);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(reader).read_line(&mut line);
            let _ = tx.send(line);
        });
        // The guard first, so a server that never says its number is still killed.
        let mut xvfb = OwnedXvfb {
            pgid,
            exit,
            display: String::new(),
        };
        let line = rx
            .recv_timeout(HANG)
            .expect("Xvfb writes its display number");
        let number: u32 = line.trim().parse().expect("a display number");
        xvfb.display = format!(":{number}");
        xvfb
    }
}

impl Drop for OwnedXvfb {
    fn drop(&mut self) {
        signal_group(self.pgid, Signal::CONT);
        kill_group(self.pgid);
        if !std::thread::panicking() {
            assert!(
                self.exit.wait_blocking(HANG).is_some(),
                "Xvfb outlived SIGKILL"
            );
        }
    }
}

/// Run `call` on `x` on a thread of its own and wait for its result, at most [`HANG`]: a call
/// without a bound would never come back, and the test must fail rather than hang with it.
fn bounded<T: Send + 'static>(
    x: &Arc<X11>,
    call: impl FnOnce(&X11) -> Result<T, GuiError> + Send + 'static,
) -> (Result<T, GuiError>, Duration) {
    let (tx, rx) = mpsc::channel();
    let x = Arc::clone(x);
    let started = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(call(&x));
    });
    let result = rx
        .recv_timeout(HANG)
        .expect("the X call came back (it has a bound)");
    (result, started.elapsed())
}

#[test]
fn a_stopped_x_server_fails_the_call_within_the_bound_and_the_connection_is_not_used_again() {
    let xvfb = OwnedXvfb::start();
    let x = Arc::new(X11::open_with_bound(&xvfb.display, BOUND).unwrap());
    x.sync().unwrap();
    x.top_windows().unwrap();

    signal_group(xvfb.pgid, Signal::STOP);
    let (synced, took) = bounded(&x, X11::sync);
    eprintln!("a sync with the server stopped came back in {took:?} (bound {BOUND:?})");
    let error = synced.expect_err("the server is stopped");
    assert_eq!(error.code(), GuiCode::X11, "{error}");
    let message = error.to_string();
    eprintln!("{message}");
    assert!(
        message.contains("`GetInputFocus`")
            && message.contains("did not answer within 500 ms")
            && message.contains("hint:"),
        "{message}"
    );

    // Not trusted any more: the next call fails with the same words, without asking the server.
    let (listed, _) = bounded(&x, X11::top_windows);
    let again = listed.expect_err("the connection is broken").to_string();
    assert!(again.contains("did not answer within 500 ms"), "{again}");

    // Even once the server runs again, that connection stays broken; a new one works.
    signal_group(xvfb.pgid, Signal::CONT);
    let (resumed, _) = bounded(&x, X11::sync);
    let resumed = resumed.expect_err("still broken").to_string();
    assert!(
        resumed.contains("did not answer within 500 ms"),
        "{resumed}"
    );
    let fresh = Arc::new(X11::open_with_bound(&xvfb.display, BOUND).unwrap());
    let (fresh_sync, _) = bounded(&fresh, X11::sync);
    fresh_sync.expect("a new connection to the running server works");
}
