//! The human format: ariadne source excerpts with carets.
//!
//! Each diagnostic reads
//!
//! ```text
//! error[test.spec.unknown_attribute]: `navigate` has no attribute `urll`
//!    ╭─[ suites/shop.acl:4:9 ]
//!  4 │         urll = "/"
//!    │         ──┬─
//!    │           ╰── not an attribute of `navigate`
//!    │ Help: did you mean `url`?
//!    │ Note: at suite.shop.scenario.home.navigate.open.urll
//! ───╯
//! ```
//!
//! Why the header is written here and not by ariadne: ariadne prints `[code] Error: message`, and
//! its custom report kinds ignore the colour switch; `error[code]: message` is the form compiler
//! users scan for, and it must be plain when colour is off. So ariadne renders the body and its
//! first line is replaced. Diagnostics without source text (unreadable path, not UTF-8, too large)
//! have nothing to point at and get a short form with the file name instead of an excerpt.
//!
//! Control characters in the source, messages, paths and file name are shown as control
//! pictures (`␛`), never written raw (see [`super::printable`]). When the source holds any,
//! ariadne gets the cleaned copy, and each label's byte offsets are moved past the bytes the
//! stand-ins add before them (see [`Widening`]): a binary search per offset, where counting
//! characters from the file start made many diagnostics on a large hostile file quadratic.
//!
//! A label on a very long line gets a window of that line instead of the whole of it (see
//! [`super::excerpt`]), so the size of one diagnostic does not grow with the line.

use super::excerpt;
use super::lines::LineIndex;
use super::{printable, stand_in, Colour};
use crate::diagnostic::{Diagnostic, Severity};
use ariadne::{Color, Config, Fmt, IndexType, Label, Report, ReportKind, Source};
use std::borrow::Cow;
use std::ops::Range;

/// Render `diagnostics` of `file` for a person, one at a time, handing each rendering to `sink`
/// as soon as it is made (so a caller can write it out and drop it); colour escapes only with
/// [`Colour::Always`].
pub fn render_each(
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
    colour: Colour,
    mut sink: impl FnMut(&str),
) {
    if diagnostics.is_empty() {
        return;
    }
    let file = printable(file, &[]);
    let clean = printable(source, KEPT);
    let widening = match clean {
        Cow::Borrowed(_) => Widening::default(),
        Cow::Owned(_) => Widening::of(source),
    };
    // Built once per file: ariadne's line index is the costly part on a 1 MiB suite.
    let text = Source::from(clean.as_ref());
    let lines = LineIndex::new(source);
    let shared = Shared {
        source,
        text: &text,
        widening: &widening,
        lines: &lines,
    };
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.clear();
        render_one(&mut out, &file, &shared, diagnostic, colour);
        sink(&out);
    }
}

/// What every diagnostic of one file shares.
struct Shared<'a> {
    source: &'a str,
    text: &'a Source<&'a str>,
    widening: &'a Widening,
    lines: &'a LineIndex,
}

/// Control characters of the source shown as they are in an excerpt (they lay out the lines).
const KEPT: &[char] = &['\n', '\r', '\t'];

/// Where the cleaned copy of a source is longer than the source: a stand-in (3 bytes) is wider
/// than the control character it replaces (1 byte for C0 and DEL, 2 for C1). Empty when nothing
/// was replaced.
#[derive(Debug, Default)]
struct Widening {
    /// Source byte offset of each replaced character, ascending.
    at: Vec<usize>,
    /// Bytes added by the replacements up to and including the one at the same index.
    added: Vec<usize>,
}

impl Widening {
    /// Collect the replacements [`printable`] makes in `source` (keeping [`KEPT`]).
    fn of(source: &str) -> Widening {
        let mut widening = Widening::default();
        let mut added = 0;
        for (at, c) in source.char_indices() {
            if let Some(picture) = stand_in(c, KEPT) {
                // Every stand-in is wider than what it replaces; saturate rather than trust that.
                added += picture.len_utf8().saturating_sub(c.len_utf8());
                widening.at.push(at);
                widening.added.push(added);
            }
        }
        widening
    }

    /// A byte range of the source as a byte range of the cleaned copy (the range is on char
    /// boundaries, see [`visible`], so it never splits a replaced character).
    fn shift(&self, range: Range<usize>) -> Range<usize> {
        let offset = |i: usize| {
            let before = self.at.partition_point(|&at| at < i);
            i + before.checked_sub(1).map_or(0, |last| self.added[last])
        };
        offset(range.start)..offset(range.end)
    }
}

fn render_one(
    out: &mut String,
    file: &str,
    shared: &Shared<'_>,
    diagnostic: &Diagnostic,
    colour: Colour,
) {
    out.push_str(&header(diagnostic, colour));
    out.push('\n');
    let source = shared.source;
    if source.is_empty() {
        render_without_source(out, file, diagnostic);
        return;
    }
    let primary = visible(source, diagnostic.span.range());
    let secondary: Vec<Range<usize>> = diagnostic
        .secondary
        .iter()
        .map(|s| visible(source, s.span.range()))
        .collect();
    let long = std::iter::once(&primary)
        .chain(&secondary)
        .any(|r| excerpt::is_long(shared.lines, r));
    let body = if long {
        let ex = excerpt::window(source, shared.lines, primary);
        Some(windowed(file, &ex, diagnostic, colour))
    } else {
        let labels = Labels {
            primary: shared.widening.shift(primary),
            secondary: secondary
                .into_iter()
                .map(|r| shared.widening.shift(r))
                .collect(),
        };
        report(file, shared.text, labels, diagnostic, colour)
    };
    match body {
        Some(body) => out.push_str(&body),
        // Writing into a Vec cannot fail; a failure here would be an ariadne bug, so fall back
        // to the short form rather than lose the diagnostic.
        None => render_without_source(out, file, diagnostic),
    }
}

/// Label ranges in the text ariadne is given.
struct Labels {
    primary: Range<usize>,
    secondary: Vec<Range<usize>>,
}

/// The ariadne report of one diagnostic over `text`, without ariadne's header line (ours is
/// written first).
fn report(
    file: &str,
    text: &Source<&str>,
    labels: Labels,
    diagnostic: &Diagnostic,
    colour: Colour,
) -> Option<String> {
    let kind = match diagnostic.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let config = Config::default()
        .with_color(colour == Colour::Always)
        .with_index_type(IndexType::Byte)
        .with_char_set(ariadne::CharSet::Unicode);
    // ariadne draws an underline only for a label with a message, so the caret repeats the
    // message; labels are added in source order so they share one excerpt.
    let mut all = vec![(
        labels.primary.clone(),
        printable(&diagnostic.message, &[]),
        severity_colour(diagnostic.severity),
    )];
    for (range, secondary) in labels.secondary.into_iter().zip(&diagnostic.secondary) {
        all.push((range, printable(&secondary.message, &[]), Color::Blue));
    }
    all.sort_by_key(|(range, _, _)| (range.start, range.end));
    let mut builder = Report::build(kind, (file, labels.primary)).with_config(config);
    for (order, (range, message, label_colour)) in all.into_iter().enumerate() {
        let mut label = Label::new((file, range))
            .with_message(message)
            .with_order(order as i32);
        if colour == Colour::Always {
            label = label.with_color(label_colour);
        }
        builder = builder.with_label(label);
    }
    if !diagnostic.hint.is_empty() {
        builder = builder.with_help(printable(&diagnostic.hint, &[]));
    }
    if !diagnostic.path.is_empty() {
        builder = builder.with_note(format!("at {}", printable(&diagnostic.path, &[])));
    }
    let mut body = Vec::new();
    builder.finish().write((file, text), &mut body).ok()?;
    let body = String::from_utf8_lossy(&body);
    Some(
        body.split_once('\n')
            .map_or("", |(_, rest)| rest)
            .to_owned(),
    )
}

/// `error[test.spec.x]: message`, with the severity and code coloured when asked.
fn header(diagnostic: &Diagnostic, colour: Colour) -> String {
    let severity = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let head = format!("{severity}[{}]", diagnostic.code);
    let message = printable(&diagnostic.message, &[]);
    match colour {
        Colour::Never => format!("{head}: {message}"),
        Colour::Always => format!(
            "{}: {message}",
            head.fg(severity_colour(diagnostic.severity)),
        ),
    }
}

fn severity_colour(severity: Severity) -> Color {
    match severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
    }
}

/// The excerpt of a long line, drawn here rather than by ariadne (whose margin would number the
/// window as line 1): the same frame, the real line and column, the primary label only.
fn windowed(file: &str, ex: &excerpt::Excerpt, diagnostic: &Diagnostic, colour: Colour) -> String {
    let line = (ex.line + 1).to_string();
    let pad = " ".repeat(line.len() + 2);
    let bar = format!("{pad}│");
    let caret_at = " ".repeat(ex.text_column - 1);
    let width = ex.text[ex.primary.clone()].chars().count().max(1);
    let underline = format!("┬{}", "─".repeat(width - 1));
    let message = printable(&diagnostic.message, &[]);
    let (underline, pointer) = match colour {
        Colour::Never => (underline, format!("╰── {message}")),
        Colour::Always => {
            let c = severity_colour(diagnostic.severity);
            (
                underline.fg(c).to_string(),
                format!("{} {message}", "╰──".fg(c)),
            )
        }
    };
    let mut out = format!(
        "{pad}╭─[ {file}:{line}:{} ]\n{bar}\n {line} │ {}\n{bar} {caret_at}{underline}\n{bar} {caret_at}{pointer}\n",
        ex.column, ex.text
    );
    if !diagnostic.hint.is_empty() {
        out.push_str(&format!(
            "{bar} \n{bar} Help: {}\n",
            printable(&diagnostic.hint, &[])
        ));
    }
    if !diagnostic.path.is_empty() {
        out.push_str(&format!(
            "{bar} \n{bar} Note: at {}\n",
            printable(&diagnostic.path, &[])
        ));
    }
    out.push_str(&format!("{}╯\n", "─".repeat(line.len() + 2)));
    out
}

/// The short form for diagnostics about a file whose text is not available.
fn render_without_source(out: &mut String, file: &str, diagnostic: &Diagnostic) {
    out.push_str(&format!("  ╭─[ {file} ]\n"));
    if !diagnostic.hint.is_empty() {
        out.push_str(&format!("  │ Help: {}\n", printable(&diagnostic.hint, &[])));
    }
    if !diagnostic.path.is_empty() {
        out.push_str(&format!(
            "  │ Note: at {}\n",
            printable(&diagnostic.path, &[])
        ));
    }
    out.push_str("──╯\n");
}

/// Make a span visible: ariadne draws nothing for an empty range, so a zero-width span is widened
/// to the character at that offset or, at the end of a line or file (e.g. "expected `}`"), to the
/// last visible character before it. Offsets are clamped to the text and to char boundaries.
/// The excerpt header then names the widened position (the JSON and GitHub formats keep the exact
/// one); pointing ariadne at an offset past the last line would print a misleading column.
fn visible(source: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let clamp = |mut i: usize| {
        i = i.min(source.len());
        while !source.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (start, end) = (clamp(range.start), clamp(range.end));
    if start < end {
        return start..end;
    }
    if let Some(c) = source[start..]
        .chars()
        .next()
        .filter(|c| !c.is_whitespace())
    {
        return start..start + c.len_utf8();
    }
    match source[..start]
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_whitespace())
    {
        Some((i, c)) => i..i + c.len_utf8(),
        // Only whitespace before: nothing to widen to.
        None => start..start,
    }
}
