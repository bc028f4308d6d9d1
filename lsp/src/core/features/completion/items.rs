//! Completions at the start of an item: the block kinds the enclosing block holds and its
//! attributes not yet set.

use super::{Completion, CompletionKind};
use crate::core::reference;
use a3s_test_lang::ast::{Block, Item};
use a3s_test_lang::checker::catalog;

/// Block kinds and attributes at the start of an item.
pub(super) fn items(chain: &[&Block], kinds: &[&str]) -> Vec<Completion> {
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
        "gui",
        "grid",
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
