//! Output shared by `check` and `fmt`: the `--format` flag, the colour decision, rendering one
//! file's diagnostics, and the summary line.
//!
//! Colour is not decided here: [`Stream::colour`] asks the binary's one colour rule
//! (`a3s_test_runner::colour`, which the run reporters use too); renderers stay pure.

use a3s_test_lang::diagnostic::Omitted;
use a3s_test_lang::render::{self, Colour, Format};
use a3s_test_lang::{Code, Diagnostic, Severity};
use std::io::Write;

/// The `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FormatArg {
    /// Source excerpts with carets (coloured on a terminal).
    #[default]
    Human,
    /// JSON Lines: one object per diagnostic.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Github => Format::Github,
        }
    }
}

/// Where diagnostics are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output (the default: diagnostics are the command's product).
    Stdout,
    /// Standard error (when stdout carries something else, e.g. `check --json`).
    Stderr,
}

impl Stream {
    /// Colour for the human format on this stream.
    pub fn colour(self) -> Colour {
        if self.stream().colour() {
            Colour::Always
        } else {
            Colour::Never
        }
    }

    /// The same stream as the colour rule names it.
    fn stream(self) -> a3s_test_runner::colour::Stream {
        match self {
            Stream::Stdout => a3s_test_runner::colour::Stream::Stdout,
            Stream::Stderr => a3s_test_runner::colour::Stream::Stderr,
        }
    }

    /// Write `text` and flush. A closed pipe (`| head`) is not an error worth a panic; the exit
    /// code still reports the result.
    pub fn write(self, text: &str) {
        if text.is_empty() {
            return;
        }
        let _ = match self {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
            Stream::Stderr => {
                let mut out = std::io::stderr().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
        };
    }
}

/// Render one file's diagnostics.
pub fn render_file(
    format: FormatArg,
    colour: Colour,
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
) -> String {
    render::render(format.into(), colour, file, source, diagnostics)
}

/// Render one file's diagnostics straight to `stream`, one diagnostic at a time (nothing is
/// collected, so the output of a file with many diagnostics starts at once and memory stays flat).
pub fn write_file(
    stream: Stream,
    format: FormatArg,
    colour: Colour,
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
) {
    let write = |out: &mut dyn Write| {
        // A closed pipe (`| head`) stops the writing, not the command: the exit code still
        // reports the result.
        let mut open = true;
        render::render_each(format.into(), colour, file, source, diagnostics, |text| {
            open = open && out.write_all(text.as_bytes()).is_ok();
        });
        let _ = out.flush();
    };
    match stream {
        Stream::Stdout => write(&mut std::io::stdout().lock()),
        Stream::Stderr => write(&mut std::io::stderr().lock()),
    }
}

/// Error and warning counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Diagnostics of severity error.
    pub errors: usize,
    /// Diagnostics of severity warning.
    pub warnings: usize,
}

impl Counts {
    /// Add the diagnostics of one file (a `too_many_diagnostics` summary is not itself counted:
    /// what it stands for is, through [`Counts::add_omitted`]).
    pub fn add(&mut self, diagnostics: &[Diagnostic]) {
        for d in diagnostics
            .iter()
            .filter(|d| d.code != Code::TooManyDiagnostics)
        {
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
            }
        }
    }

    /// Add what the per-file cap left out.
    pub fn add_omitted(&mut self, omitted: Omitted) {
        self.errors += omitted.errors;
        self.warnings += omitted.warnings;
    }

    /// `K errors` plus `, W warnings` when there are any.
    pub fn describe(self) -> String {
        let mut text = plural(self.errors, "error");
        if self.warnings > 0 {
            text.push_str(", ");
            text.push_str(&plural(self.warnings, "warning"));
        }
        text
    }
}

/// `1 file`, `2 files`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_plurals() {
        let mut counts = Counts::default();
        assert_eq!(counts.describe(), "0 errors");
        counts.errors = 1;
        assert_eq!(counts.describe(), "1 error");
        counts.warnings = 2;
        assert_eq!(counts.describe(), "1 error, 2 warnings");
        assert_eq!(plural(1, "file"), "1 file");
        assert_eq!(plural(3, "scenario"), "3 scenarios");
    }
}
