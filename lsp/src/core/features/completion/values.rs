//! Completions after `name =`: keyword values, target functions as snippets, `env("…")`, and
//! the ids a `depends_on` or a `use`'s `steps` refers to.

use super::{Completion, CompletionKind};
use crate::core::reference;
use a3s_test_lang::ast::{Block, Document, Item};
use a3s_test_lang::checker::{catalog, ENV_FUNCTION, FRAME_FUNCTIONS, TARGET_FUNCTIONS};
use regex::Regex;
use std::sync::LazyLock;

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

/// Completions after `attribute =`, where `written` is what follows the `=` so far.
pub(super) fn values(
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

/// The groups a `use "…"` label may call.
pub(super) fn group_calls(document: &Document, chain: &[&Block]) -> Vec<Completion> {
    group_names(document, chain)
        .into_iter()
        .map(|name| Completion {
            label: name.clone(),
            kind: CompletionKind::Reference,
            detail: "step group".to_string(),
            insert: name,
            snippet: false,
            sort: "0".to_string(),
        })
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
