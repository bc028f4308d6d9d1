//! Diagnostic renderers: one file per output format, chosen by one match on [`Format`].
//!
//! Renderers are pure functions from `(file name, source text, diagnostics)` to text: no
//! terminal detection, no environment, no I/O. [`render_each`] hands out one diagnostic's text at
//! a time so the CLI can write as it goes; [`render`] collects them. The work and the text per
//! diagnostic are bounded whatever the input: one line index per file, and a window instead of a
//! whole line when the line is long (`excerpt.rs`). The CLI decides colour (TTY and `NO_COLOR`) and
//! where the text goes. Output is deterministic, so every renderer is snapshot-tested.
//!
//! - [`human`]: ariadne reports with the code in the header, a caret at the span, secondary labels,
//!   the logical path and the hint.
//! - [`json`]: JSON Lines, one object per diagnostic, with 1-based line/column (in characters) and
//!   the byte range.
//! - [`github`]: GitHub Actions workflow commands (`::error file=…,line=…::message`).

mod excerpt;
pub mod github;
pub mod human;
pub mod json;
mod lines;

use crate::diagnostic::Diagnostic;
use std::borrow::Cow;

/// `text` with every control character (Unicode `Cc`: C0, DEL, C1) other than those in `keep`
/// replaced by a visible stand-in: the control picture for C0 and DEL (`␛` for ESC, `␀` for NUL),
/// U+FFFD for C1. Suite text, labels and paths come from files that may be hostile (or written
/// from untrusted page text); printed raw, their escape sequences would drive the reader's
/// terminal or CI log (clear it, retitle it, hide lines). Borrowed when nothing changes.
pub(crate) fn printable<'a>(text: &'a str, keep: &[char]) -> Cow<'a, str> {
    if !text.chars().any(|c| stand_in(c, keep).is_some()) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| stand_in(c, keep).unwrap_or(c))
            .collect(),
    )
}

/// What [`printable`] writes for `c`: `None` when `c` stays as it is.
pub(crate) fn stand_in(c: char, keep: &[char]) -> Option<char> {
    if !c.is_control() || keep.contains(&c) {
        return None;
    }
    Some(match c as u32 {
        n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    })
}

/// An output format for diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// Source excerpts with carets, for people (ariadne).
    #[default]
    Human,
    /// One JSON object per line, for tools.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

impl Format {
    /// Every format, in documentation order.
    pub const ALL: &'static [Format] = &[Format::Human, Format::Json, Format::Github];

    /// The name used on the command line (`human`, `json`, `github`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Json => "json",
            Format::Github => "github",
        }
    }

    /// Look a format up by its command-line name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.name() == name)
    }
}

/// Whether the human renderer may emit ANSI colour escapes. The other formats never do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Colour {
    /// Plain text (files, pipes, `NO_COLOR`, snapshots).
    #[default]
    Never,
    /// ANSI colours (an interactive terminal).
    Always,
}

/// Render every diagnostic of one file in `format`.
///
/// `file` is the name shown to the user (as given on the command line); `source` is the file's
/// text, or `""` when it could not be read or decoded (the diagnostics then carry empty spans).
pub fn render(
    format: Format,
    colour: Colour,
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
) -> String {
    let mut out = String::new();
    render_each(format, colour, file, source, diagnostics, |text| {
        out.push_str(text)
    });
    out
}

/// Render every diagnostic of one file in `format`, one diagnostic at a time: `sink` gets each
/// one's text as soon as it is made.
pub fn render_each(
    format: Format,
    colour: Colour,
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
    sink: impl FnMut(&str),
) {
    match format {
        Format::Human => human::render_each(file, source, diagnostics, colour, sink),
        Format::Json => json::render_each(file, source, diagnostics, sink),
        Format::Github => github::render_each(file, source, diagnostics, sink),
    }
}

/// A span resolved to 1-based lines and character columns; shared by the JSON and GitHub formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Position {
    /// Line of the first byte.
    pub line: usize,
    /// Column (in characters) of the first byte.
    pub column: usize,
    /// Line of the end of the span (exclusive end).
    pub end_line: usize,
    /// Column of the end of the span (exclusive: one past the last character).
    pub end_column: usize,
}

#[cfg(test)]
mod tests;
