//! Hover: the documentation of the block, attribute or target function under the cursor, from
//! `docs/acl.md` (the block reference and the targets table), and the code of a diagnostic there
//! with its text from the code registry.

use crate::core::reference;
use crate::core::syntax;
use a3s_test_lang::ast::{Block, Item, Value, ValueKind};
use a3s_test_lang::checker::catalog;
use a3s_test_lang::{Diagnostic, Span};

/// What hover shows: Markdown and the span it is about.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Hover {
    /// The text, in Markdown.
    pub markdown: String,
    /// The bytes it describes.
    pub span: Span,
}

/// The hover at `offset` of `text`, given the text's diagnostics.
pub fn hover(text: &str, diagnostics: &[Diagnostic], offset: usize) -> Option<Hover> {
    let document = syntax::parse(text);
    let mut found: Option<Hover> = None;
    syntax::walk(&document, |block, parent| {
        if found.is_some() {
            return;
        }
        let parent_kind = parent.map(|p| p.kind.name.as_str());
        if covers(block.kind.span, offset) {
            found = Some(Hover {
                markdown: block_doc(block, parent_kind),
                span: block.kind.span,
            });
            return;
        }
        for item in &block.items {
            let Item::Attribute(attribute) = item else {
                continue;
            };
            if covers(attribute.name.span, offset) {
                found = Some(Hover {
                    markdown: attribute_doc(block, parent_kind, &attribute.name.name),
                    span: attribute.name.span,
                });
            } else if covers(attribute.value.span, offset) {
                found = call_at(&attribute.value, offset);
            }
        }
    });
    let codes = code_docs(diagnostics, offset);
    match (found, codes) {
        (Some(mut h), Some((codes, _))) => {
            h.markdown.push_str("\n\n---\n\n");
            h.markdown.push_str(&codes);
            Some(h)
        }
        (Some(h), None) => Some(h),
        (None, Some((codes, span))) => Some(Hover {
            markdown: codes,
            span,
        }),
        (None, None) => None,
    }
}

fn covers(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

/// A block's row of the reference.
fn block_doc(block: &Block, parent: Option<&str>) -> String {
    let kind = &block.kind.name;
    let Some(row) = reference::row(kind, parent) else {
        return format!("`{kind}`: not a block ACL defines here");
    };
    let attributes: Vec<String> = row
        .attributes
        .iter()
        .map(|(name, required)| {
            if *required {
                format!("**{name}**")
            } else {
                name.to_string()
            }
        })
        .collect();
    let mut out = format!("**{kind}** — {}", row.summary);
    if !attributes.is_empty() {
        out.push_str(&format!("\n\nAttributes: {}", attributes.join(", ")));
    }
    out
}

/// An attribute of `block`: required or optional, its keyword values and the block's summary.
fn attribute_doc(block: &Block, parent: Option<&str>, name: &str) -> String {
    let kind = &block.kind.name;
    let row = reference::row(kind, parent);
    let listed = row.and_then(|r| r.attributes.iter().find(|(n, _)| *n == name));
    let mut out = match listed {
        Some((_, true)) => format!("`{name}` — required attribute of `{kind}`"),
        Some((_, false)) => format!("`{name}` — optional attribute of `{kind}`"),
        None => format!("`{name}` — attribute of `{kind}`"),
    };
    let values = catalog::keyword_values(kind, name);
    if !values.is_empty() {
        let quoted: Vec<String> = values.iter().map(|v| format!("`\"{v}\"`")).collect();
        out.push_str(&format!("\n\nOne of: {}", quoted.join(", ")));
    }
    if let Some(row) = row {
        out.push_str(&format!("\n\n**{kind}** — {}", row.summary));
    }
    out
}

/// The target function whose name is at `offset` inside `value`.
fn call_at(value: &Value, offset: usize) -> Option<Hover> {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match &v.kind {
            ValueKind::Call { name, args } => {
                if covers(name.span, offset) {
                    let (form, finds) = reference::target_form(&name.name)?;
                    return Some(Hover {
                        markdown: format!("{form}\n\n{finds}"),
                        span: name.span,
                    });
                }
                stack.extend(args.iter());
            }
            ValueKind::Named { value, .. } => stack.push(value),
            ValueKind::List(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
    None
}

/// The codes of the diagnostics at `offset`, each with its registry text.
fn code_docs(diagnostics: &[Diagnostic], offset: usize) -> Option<(String, Span)> {
    let here: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| covers(d.span, offset))
        .collect();
    let first = here.first()?;
    let text: Vec<String> = here
        .iter()
        .map(|d| format!("`{}` — {}", d.code.as_str(), d.code.doc()))
        .collect();
    Some((text.join("\n\n"), first.span))
}
