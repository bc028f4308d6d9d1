//! Completion: what may be written at the cursor, from the checker's catalog and the document.
//!
//! At the start of an item: the block kinds the enclosing block holds (a snippet with the label
//! and the required attributes) and its attributes not yet set, required first. After `name =`:
//! the attribute's keyword values, target functions as snippets (`role("${1:button}", …)`),
//! `env("…")` where a text may come from the environment; inside a `depends_on` string the
//! suite's scenario ids, inside a `use`'s `steps` string its step groups.

mod items;
mod values;

use crate::core::syntax;
use regex::Regex;
use std::sync::LazyLock;

/// What a completion inserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum CompletionKind {
    /// A block kind.
    Block,
    /// An attribute name.
    Attribute,
    /// A keyword value.
    Keyword,
    /// A target (or `env`) function.
    Function,
    /// An id defined elsewhere in the document.
    Reference,
}

/// One completion item.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Completion {
    /// What the list shows.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// A one-line description.
    pub detail: String,
    /// The text inserted, a snippet (`${1:…}`, `$0`) when [`Completion::snippet`].
    pub insert: String,
    /// True when `insert` holds snippet placeholders.
    pub snippet: bool,
    /// Sorts the list: required attributes before optional ones.
    pub sort: String,
}

static VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"([a-z_][a-z0-9_]*)\s*=\s*([^=]*)$"#).expect("a valid pattern"));
/// Inside the label of a `use` step, which names the group it calls when it has no `steps`.
static USE_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:^|[\s{])use\s+"[A-Za-z0-9_-]*$"#).expect("a valid pattern"));
static ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[{}]|\s)\s*[a-z_]*$").expect("a valid pattern"));

/// The completions at byte `offset` of `text`.
pub fn complete(text: &str, offset: usize) -> Vec<Completion> {
    let offset = floor_char_boundary(text, offset);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    let document = syntax::parse(text);
    let chain = syntax::chain_at(&document, offset);
    let kinds = syntax::kinds(&chain);
    if let Some(caps) = VALUE.captures(before) {
        let attribute = caps.get(1).map_or("", |m| m.as_str());
        let written = caps.get(2).map_or("", |m| m.as_str());
        if still_writing(written) {
            return values::values(&document, &chain, attribute, written);
        }
    }
    if USE_LABEL.is_match(before) {
        return values::group_calls(&document, &chain);
    }
    if ITEM.is_match(before) && in_code(before) {
        return items::items(&chain, &kinds);
    }
    Vec::new()
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// True while the value after `=` is unfinished: nothing yet, no space after it, or an open
/// list, call or string (`source = css("a") ` is finished; `depends_on = ["a", ` is not).
fn still_writing(written: &str) -> bool {
    let open = |o: char, c: char| written.matches(o).count() > written.matches(c).count();
    written.is_empty()
        || !written.ends_with(char::is_whitespace)
        || open('[', ']')
        || open('(', ')')
        || !written.matches('"').count().is_multiple_of(2)
}

/// True when `before` does not end inside a string or comment.
fn in_code(before: &str) -> bool {
    !before.contains('#') && !before.contains("//") && before.matches('"').count().is_multiple_of(2)
}
