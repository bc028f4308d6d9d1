//! The one colour decision of the whole binary: whether ANSI colour goes to a standard stream.
//!
//! Every command asks here — `check` and `fmt` for their diagnostics, `run` and `merge-reports`
//! for the live reporter, `run`'s admission diagnostics — so the rule cannot drift between them:
//! colour only when the stream is a terminal, and never when `NO_COLOR` is set to a non-empty
//! value (https://no-color.org: an empty value counts as unset). Renderers and reporters only
//! receive the answer, so their output stays pure (snapshots are plain text).

use std::ffi::OsStr;
use std::io::IsTerminal;

/// The environment variable that turns colour off (https://no-color.org).
pub const NO_COLOR_ENV: &str = "NO_COLOR";

/// A standard output stream a command writes people-facing text to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// True when the stream is an interactive terminal (where colour and progress lines belong).
    pub fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        }
    }

    /// Whether text written to this stream is coloured: [`decide`] on this process's terminal
    /// and environment.
    pub fn colour(self) -> bool {
        decide(
            self.is_terminal(),
            std::env::var_os(NO_COLOR_ENV).as_deref(),
        )
    }

    /// A writer to the stream, for reporters that own theirs.
    pub fn writer(self) -> Box<dyn std::io::Write + Send> {
        match self {
            Stream::Stdout => Box::new(std::io::stdout()),
            Stream::Stderr => Box::new(std::io::stderr()),
        }
    }
}

/// The rule itself, pure so it is tested without a terminal: colour only on a terminal, and
/// never when `NO_COLOR` holds a non-empty value.
pub fn decide(terminal: bool, no_color: Option<&OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::decide;
    use std::ffi::OsStr;

    #[test]
    fn colour_needs_a_terminal_and_no_no_color() {
        assert!(decide(true, None));
        assert!(decide(true, Some(OsStr::new(""))));
        assert!(!decide(true, Some(OsStr::new("1"))));
        assert!(!decide(false, None));
        assert!(!decide(false, Some(OsStr::new("1"))));
    }
}
