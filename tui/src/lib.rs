//! `a3s-test-tui`: the terminal engine the terminal surface stands on — one program per owned
//! pseudoterminal, a real terminal emulator for its screen, keys and paste, waits driven by the
//! program's output, and the evidence a person wants (text with styles, an SVG screenshot, an
//! asciicast recording, the exit status).
//!
//! The engine knows nothing of ACL or the runner; [`driver`] puts it behind the driver contract
//! ([`TuiDriver`], [`TuiContext`]) so `surface = "tui"` scenarios run on it, and an agent session
//! can sit on top of [`Terminal`] (spawn, [`Terminal::screen`] with its revision,
//! [`Terminal::type_text`], [`Terminal::press`], [`Terminal::paste`], [`Terminal::resize`],
//! [`Terminal::wait_for`], [`Terminal::exit_status`], [`Terminal::recording`],
//! [`Terminal::svg`]). Every error has a stable `test.driver.tui.*` code ([`TuiCode`]).

pub mod agent;
pub mod cast;
pub mod driver;
pub mod error;
pub mod keys;
pub mod pty;
pub mod screen;
pub mod size;
pub mod styled;
pub mod svg;
pub mod terminal;
pub mod wait;

pub use driver::{TuiContext, TuiDriver};
pub use error::{ProgramExit, TuiCode, TuiError};
pub use keys::{Key, KeyError, NamedKey};
pub use pty::ProgramSpec;
pub use screen::{Cell, Colour, Cursor, Modes, Screen, Style};
pub use size::{TerminalSize, MAX_COLUMNS, MAX_ROWS};
pub use terminal::{Terminal, TerminalOptions};
pub use wait::Condition;

#[cfg(test)]
mod tests {
    /// A terminal is shared by a driver's async steps: it and its waits must cross threads.
    #[test]
    fn a_terminal_and_its_waits_are_send_and_sync() {
        fn send_sync<T: Send + Sync>() {}
        fn send<T: Send>(_: &T) {}
        send_sync::<crate::Terminal>();
        send_sync::<crate::Screen>();
        let wait = |t: &'static crate::Terminal| {
            let future = t.wait_for(&crate::Condition::Exited, std::time::Instant::now());
            send(&future);
        };
        let _ = wait;
    }
}
