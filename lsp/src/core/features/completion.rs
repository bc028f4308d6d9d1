//! Completion: what may be written at the cursor, from the checker's catalog and the document.
//!
//! At the start of an item: the block kinds the enclosing block holds (a snippet with the label
//! and the required attributes) and its attributes not yet set, required first. After `name =`:
//! the attribute's keyword values, target functions as snippets (`role("${1:button}", …)`),
//! `env("…")` where a text may come from the environment; inside a `depends_on` string the
//! suite's scenario ids, inside a `use`'s `steps` string its step groups.

use crate::core::reference;
use crate::core::syntax;
use a3s_test_lang::ast::{Block, Document, Item};
use a3s_test_lang::checker::{catalog, ENV_FUNCTION, FRAME_FUNCTIONS, TARGET_FUNCTIONS};
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
static ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[{}]|\s)\s*[a-z_]*$").expect("a valid pattern"));
static FORM_ARG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"]*)"|\b([a-z_]+)\b"#).expect("a valid pattern"));

/// Attributes whose values are never targets.
const NOT_TARGETS: &[&str] = &[
    "url",
    "path",
    "paths",
    "value",
    "values",
    "text",
    "name",
    "key",
    "pattern",
    "body",
    "regex",
    "not_text",
    "label",
    "tab",
    "tags",
    "each",
    "skip",
    "fixme",
    "version",
    "base_url",
    "command",
    "include",
    "cwd",
    "env",
    "executable",
    "file_prefixes",
    "storage_state",
    "content_type",
];
/// Attributes whose text may come from the environment.
const ENV_TEXTS: &[&str] = &["value", "text"];

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
            return values(&document, &chain, attribute, written);
        }
    }
    if ITEM.is_match(before) && in_code(before) {
        return items(&chain, &kinds);
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

/// Block kinds and attributes at the start of an item.
fn items(chain: &[&Block], kinds: &[&str]) -> Vec<Completion> {
    let parent = kinds.last().copied();
    let mut out: Vec<Completion> = catalog::nested_kinds(kinds)
        .into_iter()
        .map(|kind| block_item(kind, parent))
        .collect();
    if let Some(block) = chain.last() {
        let set: Vec<&str> = block
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Attribute(a) => Some(a.name.name.as_str()),
                Item::Block(_) => None,
            })
            .collect();
        let grandparent = kinds.len().checked_sub(2).map(|i| kinds[i]);
        let row = reference::row(&block.kind.name, grandparent);
        for name in catalog::attributes(kinds) {
            if set.contains(&name) {
                continue;
            }
            let required = row.is_some_and(|r| r.attributes.contains(&(name, true)));
            out.push(attribute_item(&block.kind.name, name, required));
        }
    }
    out
}

/// A block kind as a snippet: its label and required attributes when it takes them.
fn block_item(kind: &'static str, parent: Option<&str>) -> Completion {
    const UNLABELLED: &[&str] = &[
        "before_each",
        "after_each",
        "dev_server",
        "browser",
        "tui",
        "verification",
        "position",
    ];
    let row = reference::row(kind, parent);
    let label = if UNLABELLED.contains(&kind) {
        String::new()
    } else {
        " \"${1:label}\"".to_string()
    };
    let required: Vec<&str> = row
        .map(|r| {
            r.attributes
                .iter()
                .filter(|(_, req)| *req)
                .map(|(n, _)| *n)
                .collect()
        })
        .unwrap_or_default();
    let insert = if catalog::is_step(kind) && kind != "use" {
        let attrs: Vec<String> = required
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{n} = ${}", i + 2))
            .collect();
        format!("{kind}{label} {{ {} }}$0", attrs.join(" "))
    } else {
        let attrs: String = required
            .iter()
            .enumerate()
            .map(|(i, n)| format!("\n\t{n} = ${}", i + 2))
            .collect();
        format!("{kind}{label} {{{attrs}\n\t$0\n}}")
    };
    Completion {
        label: kind.to_string(),
        kind: CompletionKind::Block,
        detail: row.map_or(String::new(), |r| r.summary.to_string()),
        insert,
        snippet: true,
        sort: format!("2{kind}"),
    }
}

fn attribute_item(block: &str, name: &'static str, required: bool) -> Completion {
    let values = catalog::keyword_values(block, name);
    let insert = if values.is_empty() {
        format!("{name} = $0")
    } else if name == "modifiers" {
        format!("{name} = [\"${{1|{}|}}\"]", values.join(","))
    } else {
        format!("{name} = \"${{1|{}|}}\"", values.join(","))
    };
    Completion {
        label: name.to_string(),
        kind: CompletionKind::Attribute,
        detail: if required {
            format!("required attribute of `{block}`")
        } else {
            format!("attribute of `{block}`")
        },
        insert,
        snippet: true,
        sort: format!("{}{name}", if required { 0 } else { 1 }),
    }
}

/// Completions after `attribute =`, where `written` is what follows the `=` so far.
fn values(
    document: &Document,
    chain: &[&Block],
    attribute: &str,
    written: &str,
) -> Vec<Completion> {
    let kind = chain.last().map_or("", |b| b.kind.name.as_str());
    let in_string = !written.matches('"').count().is_multiple_of(2);
    if in_string {
        let names = match (kind, attribute) {
            (_, "depends_on") => scenario_ids(document, chain),
            ("use", "steps") => group_names(document, chain),
            _ => catalog::keyword_values(kind, attribute)
                .into_iter()
                .map(str::to_string)
                .collect(),
        };
        let reference = matches!(attribute, "depends_on" | "steps");
        return names
            .into_iter()
            .map(|name| Completion {
                label: name.clone(),
                kind: if reference {
                    CompletionKind::Reference
                } else {
                    CompletionKind::Keyword
                },
                detail: format!("`{attribute}` of `{kind}`"),
                insert: name,
                snippet: false,
                sort: "0".to_string(),
            })
            .collect();
    }
    let trimmed = written.trim_start_matches('[').trim();
    if !trimmed
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Vec::new();
    }
    let mut out: Vec<Completion> = catalog::keyword_values(kind, attribute)
        .into_iter()
        .map(|v| Completion {
            label: format!("\"{v}\""),
            kind: CompletionKind::Keyword,
            detail: format!("`{attribute}` of `{kind}`"),
            insert: format!("\"{v}\""),
            snippet: false,
            sort: "0".to_string(),
        })
        .collect();
    if !out.is_empty() || NOT_TARGETS.contains(&attribute) || attribute.ends_with("_ms") {
        if ENV_TEXTS.contains(&attribute) {
            out.push(function_item(
                ENV_FUNCTION,
                "env(\"${1:NAME}\")",
                "a text read from the environment when the step runs",
            ));
        }
        return out;
    }
    let functions: &[&str] = if kind == "frame" {
        FRAME_FUNCTIONS
    } else {
        TARGET_FUNCTIONS
    };
    for name in functions {
        if let Some((form, finds)) = reference::target_form(name) {
            out.push(function_item(name, &snippet_of(name, form), finds));
        }
    }
    out
}

fn function_item(name: &str, insert: &str, detail: &str) -> Completion {
    Completion {
        label: format!("{name}()"),
        kind: CompletionKind::Function,
        detail: detail.to_string(),
        insert: insert.to_string(),
        snippet: true,
        sort: format!("1{name}"),
    }
}

/// `role("${1:button}", "${2:Save}")` from the first form the targets table writes for `name`.
fn snippet_of(name: &str, form: &str) -> String {
    let call = format!("`{name}(");
    let Some(start) = form.find(&call) else {
        return format!("{name}($0)");
    };
    let rest = &form[start + call.len()..];
    let args = rest.split(")`").next().unwrap_or("");
    let mut n = 0;
    let filled = FORM_ARG.replace_all(args, |caps: &regex::Captures<'_>| {
        n += 1;
        match (caps.get(1), caps.get(2)) {
            (Some(text), _) => format!("\"${{{n}:{}}}\"", text.as_str()),
            (None, Some(word)) => format!("${{{n}:{}}}", word.as_str()),
            _ => String::new(),
        }
    });
    format!("{name}({filled})")
}

/// The scenario ids of the suite around the cursor, except the scenario it is in.
fn scenario_ids(document: &Document, chain: &[&Block]) -> Vec<String> {
    let own = chain
        .get(1)
        .and_then(|b| b.label.as_ref())
        .map(|l| l.value.as_str());
    labels_in(document, chain, "scenario")
        .into_iter()
        .filter(|id| Some(id.as_str()) != own)
        .collect()
}

/// The step group names of the file around the cursor.
fn group_names(document: &Document, chain: &[&Block]) -> Vec<String> {
    labels_in(document, chain, "steps")
}

/// The labels of the root block's direct children of kind `kind`.
fn labels_in(document: &Document, chain: &[&Block], kind: &str) -> Vec<String> {
    let root = chain.first().copied().or(document.blocks.first());
    root.map(|r| {
        r.items
            .iter()
            .filter_map(|i| match i {
                Item::Block(b) if b.kind.name == kind => b.label.as_ref().map(|l| l.value.clone()),
                _ => None,
            })
            .collect()
    })
    .unwrap_or_default()
}
