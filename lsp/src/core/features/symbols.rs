//! Document symbols (the outline): every block, nested as written, named by kind and label.

use crate::core::syntax;
use a3s_test_lang::ast::{Block, Item};
use a3s_test_lang::checker::catalog;
use a3s_test_lang::Span;

/// What a symbol is, for the outline's icons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SymbolKind {
    /// `suite`, `library`, `project`.
    Root,
    /// `scenario`.
    Scenario,
    /// A `steps` group or a hook.
    Group,
    /// A step.
    Step,
    /// A configuration section or check.
    Section,
}

/// One outline entry.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Symbol {
    /// The label, or the kind when the block has none.
    pub name: String,
    /// The block kind.
    pub detail: String,
    /// What it is.
    pub kind: SymbolKind,
    /// The whole block.
    pub span: Span,
    /// The label (or kind) to select.
    pub selection: Span,
    /// Nested blocks.
    pub children: Vec<Symbol>,
}

/// The outline of `text`.
pub fn symbols(text: &str) -> Vec<Symbol> {
    let document = syntax::parse(text);
    document.blocks.iter().map(|b| symbol(b, None)).collect()
}

fn symbol(block: &Block, parent: Option<&str>) -> Symbol {
    let kind = block.kind.name.as_str();
    let children = block
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Block(b) => Some(symbol(b, Some(kind))),
            Item::Attribute(_) => None,
        })
        .collect();
    let (name, selection) = match &block.label {
        Some(label) => (label.value.clone(), label.span),
        None => (kind.to_string(), block.kind.span),
    };
    Symbol {
        name,
        detail: kind.to_string(),
        kind: symbol_kind(kind, parent),
        span: block.span,
        selection,
        children,
    }
}

fn symbol_kind(kind: &str, parent: Option<&str>) -> SymbolKind {
    match (kind, parent) {
        ("suite" | "library" | "project", None) => SymbolKind::Root,
        ("scenario", _) => SymbolKind::Scenario,
        ("steps" | "before_each" | "after_each", _) => SymbolKind::Group,
        ("check", Some("verification")) => SymbolKind::Section,
        (k, _) if catalog::is_step(k) => SymbolKind::Step,
        _ => SymbolKind::Section,
    }
}

/// Every block with its span, for a quick check of how deep the outline goes.
pub fn count(symbols: &[Symbol]) -> usize {
    symbols.iter().map(|s| 1 + count(&s.children)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outline_nests_blocks() {
        let text = "suite \"s\" {\n scenario \"a\" {\n  surface = \"web\"\n  click \"c\" { target = css(\"b\") }\n }\n}\n";
        let outline = symbols(text);
        assert_eq!(count(&outline), 3);
        assert_eq!(outline[0].children[0].children[0].kind, SymbolKind::Step);
    }
}
