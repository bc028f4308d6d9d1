//! Quick fixes: the edits a diagnostic's own hint describes.
//!
//! Three shapes, all read from what admission reported (never a second rule set):
//! - a "did you mean `x`?" / "did you mean \"x\"?" hint replaces the diagnostic's span;
//! - `test.spec.missing_attribute` inserts `name = …` into the block at the diagnostic's header;
//! - a block that is not a step (`test.spec.unknown_block` inside a step list) offers the
//!   nearest step kinds, closest first.

use crate::core::edit::Edit;
use crate::core::syntax;
use a3s_test_lang::ast::Block;
use a3s_test_lang::checker::catalog;
use a3s_test_lang::{printer, Code, Diagnostic};
use regex::Regex;
use std::sync::LazyLock;

/// One quick fix.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Fix {
    /// What the editor shows.
    pub title: String,
    /// The edits, applied together.
    pub edits: Vec<Edit>,
    /// The diagnostic it fixes.
    #[serde(skip)]
    pub diagnostic: Diagnostic,
    /// True for the one fix a hint names (editors apply it on "fix all").
    pub preferred: bool,
}

/// How many step kinds an unknown step offers.
const NEAREST: usize = 3;

static DID_YOU_MEAN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"did you mean (?:`([^`]+)`|"([^"]*)")\?"#).expect("a valid pattern")
});
static NEEDS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^`([a-z_]+)` needs `([a-z_]+)`$").expect("a valid pattern"));

/// The fixes for the diagnostics of `text` that touch bytes `start..=end`.
pub fn fixes(text: &str, diagnostics: &[Diagnostic], start: usize, end: usize) -> Vec<Fix> {
    let document = syntax::parse(text);
    let mut out = Vec::new();
    for d in diagnostics
        .iter()
        .filter(|d| d.span.start <= end && start <= d.span.end)
    {
        if let Some(fix) = replacement(text, d) {
            out.push(fix);
        }
        if d.code == Code::MissingAttribute {
            out.extend(insert_missing(text, &document, d));
        }
        if d.code == Code::UnknownBlock && d.message.ends_with("is not a step") {
            out.extend(nearest_steps(text, d));
        }
    }
    out
}

/// The "did you mean" hint as an edit of the diagnostic's span.
fn replacement(text: &str, d: &Diagnostic) -> Option<Fix> {
    let caps = DID_YOU_MEAN.captures(&d.hint)?;
    let written = text.get(d.span.range())?;
    if written.is_empty() {
        return None;
    }
    let new = match (caps.get(1), caps.get(2)) {
        (Some(code), _) => {
            let code = code.as_str();
            // `did you mean `role()`?` names a function; the span is its name alone.
            match code.strip_suffix("()") {
                Some(name) if !written.contains('(') => name.to_string(),
                _ => code.to_string(),
            }
        }
        (None, Some(string)) if written.starts_with('"') => {
            printer::string_literal(string.as_str())
        }
        (None, Some(string)) => string.as_str().to_string(),
        (None, None) => return None,
    };
    if new == written {
        return None;
    }
    Some(Fix {
        title: format!("Replace `{written}` with `{new}`"),
        edits: vec![Edit::new(d.span.start, d.span.end, new)],
        diagnostic: d.clone(),
        preferred: true,
    })
}

/// `name = …` inserted after the opening brace of the block the diagnostic points at.
fn insert_missing(
    text: &str,
    document: &a3s_test_lang::ast::Document,
    d: &Diagnostic,
) -> Option<Fix> {
    let caps = NEEDS.captures(&d.message)?;
    let (kind, name) = (caps.get(1)?.as_str(), caps.get(2)?.as_str());
    let mut found: Option<&Block> = None;
    syntax::walk(document, |block, _| {
        if block.kind.span.start == d.span.start && block.kind.name == kind {
            found = Some(block);
        }
    });
    let block = found?;
    let open = brace_after_header(text, block)?;
    let value = match catalog::keyword_values(kind, name).first() {
        Some(keyword) => printer::string_literal(keyword),
        None => "\"\"".to_string(),
    };
    let closing = block.span.end.saturating_sub(1);
    // A block the parser closed where the text ran out has no `}` of its own to add before.
    if closing <= open || text.as_bytes().get(closing) != Some(&b'}') {
        return None;
    }
    let single_line = !text[open..closing].contains('\n');
    let insert = if single_line {
        let pad = if text[open + 1..closing].trim().is_empty() {
            " "
        } else {
            ""
        };
        format!(" {name} = {value}{pad}")
    } else {
        format!(
            "\n{}{name} = {value}",
            indent_of(text, block.span.start) + "    "
        )
    };
    Some(Fix {
        title: format!("Add `{name} = {value}`"),
        edits: vec![Edit::new(open + 1, open + 1, insert)],
        diagnostic: d.clone(),
        preferred: true,
    })
}

/// The offset of `{` after a block's kind and label.
fn brace_after_header(text: &str, block: &Block) -> Option<usize> {
    let from = block
        .label
        .as_ref()
        .map_or(block.kind.span.end, |l| l.span.end);
    text.get(from..block.span.end)?.find('{').map(|i| from + i)
}

/// The leading whitespace of the line holding `offset`.
fn indent_of(text: &str, offset: usize) -> String {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// The step kinds nearest to the unknown one, closest first.
fn nearest_steps(text: &str, d: &Diagnostic) -> Vec<Fix> {
    let Some(written) = text.get(d.span.range()) else {
        return Vec::new();
    };
    let mut kinds: Vec<(usize, &str)> = catalog::step_kinds()
        .into_iter()
        .map(|k| (strsim::levenshtein(written, k), k))
        .collect();
    kinds.sort();
    kinds
        .into_iter()
        .take(NEAREST)
        .filter(|(_, k)| !d.hint.contains(&format!("`{k}`")))
        .map(|(_, k)| Fix {
            title: format!("Change to `{k}`"),
            edits: vec![Edit::new(d.span.start, d.span.end, k)],
            diagnostic: d.clone(),
            preferred: false,
        })
        .collect()
}
