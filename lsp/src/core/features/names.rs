//! Names that refer to each other inside one file: scenario ids (defined by a scenario's label,
//! referred to by `depends_on` entries — `"id"` or `"this-suite/id"`), step groups (defined by
//! `steps "name"`, called by `use "label" { steps = "name" }` or `use "name" {}`) and tab labels
//! (given by a `tab` step's `label`, switched to or closed by another's `tab = "label"`).
//!
//! Go to definition, find references and rename all read one list of [`Occurrence`]s.

use crate::core::edit::Edit;
use crate::core::syntax;
use a3s_test_lang::ast::{Block, Item, ValueKind};
use a3s_test_lang::checker::catalog;
use a3s_test_lang::Span;

/// What a name names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum NameKind {
    /// A scenario id.
    Scenario,
    /// A step group.
    Group,
    /// A tab's label.
    Tab,
}

/// One place a name is written.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Occurrence {
    /// What it names.
    pub kind: NameKind,
    /// The name.
    pub name: String,
    /// The bytes of the name itself (inside the quotes).
    pub span: Span,
    /// True where it is defined.
    pub definition: bool,
}

/// Every occurrence of a scenario id or group name in `text`.
pub fn occurrences(text: &str) -> Vec<Occurrence> {
    let document = syntax::parse(text);
    let mut out = Vec::new();
    for root in &document.blocks {
        collect(root, &mut out);
    }
    out
}

fn collect(root: &Block, out: &mut Vec<Occurrence>) {
    let suite = root.label.as_ref().map(|l| l.value.as_str());
    syntax::walk_block(root, |block, _| {
        let kind = block.kind.name.as_str();
        match (kind, &block.label) {
            ("scenario", Some(label)) => out.push(define(NameKind::Scenario, label)),
            ("steps", Some(label)) => out.push(define(NameKind::Group, label)),
            _ => {}
        }
        let mut calls_named_group = false;
        for item in &block.items {
            let Item::Attribute(a) = item else { continue };
            match (kind, a.name.name.as_str(), &a.value.kind) {
                ("scenario", "depends_on", ValueKind::List(entries)) => {
                    for entry in entries {
                        if let ValueKind::String(value) = &entry.kind {
                            out.extend(dependency(value, entry.span, suite));
                        }
                    }
                }
                ("use", "steps", ValueKind::String(value)) => {
                    calls_named_group = true;
                    out.push(refer(NameKind::Group, value, a.value.span));
                }
                ("tab", "label", ValueKind::String(value)) => out.push(Occurrence {
                    definition: true,
                    ..refer(NameKind::Tab, value, a.value.span)
                }),
                ("tab", "tab", ValueKind::String(value)) => {
                    out.push(refer(NameKind::Tab, value, a.value.span))
                }
                _ => {}
            }
        }
        if kind == "use" && !calls_named_group {
            if let Some(label) = &block.label {
                out.push(refer(NameKind::Group, &label.value, label.span));
            }
        }
    });
}

fn define(kind: NameKind, label: &a3s_test_lang::ast::StringLit) -> Occurrence {
    Occurrence {
        definition: true,
        ..refer(kind, &label.value, label.span)
    }
}

/// A reference written as the string literal at `literal` (quotes included).
fn refer(kind: NameKind, name: &str, literal: Span) -> Occurrence {
    Occurrence {
        kind,
        name: name.to_string(),
        span: Span::new(
            literal.start + 1,
            literal.end.saturating_sub(1).max(literal.start + 1),
        ),
        definition: false,
    }
}

/// A `depends_on` entry: `"id"`, or `"suite/id"` naming this suite.
fn dependency(value: &str, literal: Span, suite: Option<&str>) -> Option<Occurrence> {
    match value.split_once('/') {
        None => Some(refer(NameKind::Scenario, value, literal)),
        Some((s, id)) if Some(s) == suite => {
            let start = literal.start + 1 + s.len() + 1;
            Some(Occurrence {
                kind: NameKind::Scenario,
                name: id.to_string(),
                span: Span::new(start, start + id.len()),
                definition: false,
            })
        }
        Some(_) => None,
    }
}

/// The occurrence under `offset`.
pub fn at(occurrences: &[Occurrence], offset: usize) -> Option<&Occurrence> {
    occurrences
        .iter()
        .find(|o| o.span.start <= offset && offset <= o.span.end)
}

/// Every occurrence of the same name as `of`, definitions included.
pub fn same<'a>(occurrences: &'a [Occurrence], of: &Occurrence) -> Vec<&'a Occurrence> {
    occurrences
        .iter()
        .filter(|o| o.kind == of.kind && o.name == of.name)
        .collect()
}

/// Why a rename was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RenameError {
    /// Nothing renamable under the cursor.
    #[error("no scenario id, step group or tab label here")]
    Nothing,
    /// The new name is not an id.
    #[error("{0}")]
    InvalidId(String),
}

/// The edits renaming the name under `offset` to `new_name` everywhere in the file.
pub fn rename(text: &str, offset: usize, new_name: &str) -> Result<Vec<Edit>, RenameError> {
    let all = occurrences(text);
    let of = at(&all, offset).ok_or(RenameError::Nothing)?;
    if let Some(problem) = catalog::id_problem(new_name) {
        return Err(RenameError::InvalidId(problem));
    }
    // A literal holding escapes is not renamed in place: its bytes are not its value.
    Ok(same(&all, of)
        .into_iter()
        .filter(|o| text.get(o.span.range()) == Some(o.name.as_str()))
        .map(|o| Edit::new(o.span.start, o.span.end, new_name))
        .collect())
}
