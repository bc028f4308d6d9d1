//! The JSON format: JSON Lines, one object per diagnostic.
//!
//! ```json
//! {"code":"test.spec.unknown_attribute","severity":"error","path":"suite.s.scenario.a.navigate.open.urll",
//!  "file":"suites/s.acl","line":4,"column":9,"end_line":4,"end_column":13,"byte":{"start":61,"end":65},
//!  "message":"…","hint":"…","secondary":[]}
//! ```
//!
//! Lines and columns are 1-based and count characters (not bytes); `end_line`/`end_column` is the
//! position just past the span, so an empty span has `end_column == column`. `byte` is the exact
//! half-open byte range. One object per line keeps the output streamable and lets the CLI
//! concatenate files without re-parsing. Field names are a stable interface.

use super::lines::LineIndex;
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;
use serde::Serialize;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: Code,
    severity: Severity,
    path: &'a str,
    file: &'a str,
    #[serde(flatten)]
    place: JsonPlace,
    message: &'a str,
    hint: &'a str,
    secondary: Vec<JsonLabel<'a>>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    #[serde(flatten)]
    place: JsonPlace,
    message: &'a str,
}

/// Where a span is, in the fields both a diagnostic and a secondary label carry.
#[derive(Serialize)]
struct JsonPlace {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    byte: ByteRange,
}

impl JsonPlace {
    fn new(source: &str, lines: &LineIndex, span: Span) -> Self {
        let p = lines.position(source, span);
        JsonPlace {
            line: p.line,
            column: p.column,
            end_line: p.end_line,
            end_column: p.end_column,
            byte: ByteRange {
                start: span.start,
                end: span.end,
            },
        }
    }
}

#[derive(Serialize)]
struct ByteRange {
    start: usize,
    end: usize,
}

/// Render `diagnostics` of `file` as JSON Lines (each line ends with `\n`), handing each line
/// to `sink` as soon as it is made.
pub fn render_each(
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
    mut sink: impl FnMut(&str),
) {
    let lines = LineIndex::new(source);
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.clear();
        let record = JsonDiagnostic {
            code: diagnostic.code,
            severity: diagnostic.severity,
            path: &diagnostic.path,
            file,
            place: JsonPlace::new(source, &lines, diagnostic.span),
            message: &diagnostic.message,
            hint: &diagnostic.hint,
            secondary: diagnostic
                .secondary
                .iter()
                .map(|s| JsonLabel {
                    place: JsonPlace::new(source, &lines, s.span),
                    message: &s.message,
                })
                .collect(),
        };
        // Serializing plain strings and integers cannot fail.
        out.push_str(&serde_json::to_string(&record).unwrap_or_default());
        out.push('\n');
        sink(&out);
    }
}
