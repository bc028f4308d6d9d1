//! Core values ↔ protocol values: spans and positions, diagnostics, edits.

use crate::core::edit::Edit;
use crate::core::text::{Lines, Pos};
use a3s_test_lang::{Diagnostic, Severity, Span};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Position, Range,
    TextEdit, Uri,
};

/// A protocol position as the core's.
pub fn pos(p: Position) -> Pos {
    Pos::new(p.line, p.character)
}

/// The byte offset of a protocol position.
pub fn offset(lines: &Lines, p: Position) -> usize {
    lines.offset(pos(p))
}

/// A byte span as a protocol range.
pub fn range(lines: &Lines, span: Span) -> Range {
    Range::new(position(lines, span.start), position(lines, span.end))
}

fn position(lines: &Lines, offset: usize) -> Position {
    let p = lines.pos(offset);
    Position::new(p.line, p.col)
}

/// A core edit as a protocol one.
pub fn edit(lines: &Lines, e: &Edit) -> TextEdit {
    TextEdit::new(range(lines, Span::new(e.start, e.end)), e.text.clone())
}

/// One `lang` diagnostic as the protocol's: the stable code as its code, the hint after the
/// message, the logical path and secondary labels as related information.
pub fn diagnostic(uri: &Uri, lines: &Lines, d: &Diagnostic) -> lsp_types::Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|s| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range(lines, s.span)),
            message: s.message.clone(),
        })
        .collect();
    let mut message = d.message.clone();
    if !d.hint.is_empty() {
        message.push_str("\nhelp: ");
        message.push_str(&d.hint);
    }
    if !d.path.is_empty() {
        message.push_str("\nat: ");
        message.push_str(&d.path);
    }
    lsp_types::Diagnostic {
        range: range(lines, d.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("a3s-test".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}
