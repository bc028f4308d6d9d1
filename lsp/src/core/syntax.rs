//! The syntax tree of a document through `lang`'s own parser, and where an offset lies in it.
//!
//! Features that read structure (symbols, folding, completion, names) parse with
//! [`a3s_test_lang::parser::parse`] — the parser admission uses, with its error recovery — so the
//! editor never sees a second reading of the language. A file over the admitted size is not
//! parsed: it is empty here, and its diagnostic says why.

use a3s_test_lang::ast::{Block, Document, Item};
use a3s_test_lang::{parser, MAX_FILE_BYTES};

/// Parse `text` (nothing for a file over 1 MiB).
pub fn parse(text: &str) -> Document {
    if text.len() > MAX_FILE_BYTES {
        return Document::default();
    }
    parser::parse(text).0
}

/// The blocks whose braces hold `offset`, outermost first.
pub fn chain_at(document: &Document, offset: usize) -> Vec<&Block> {
    let mut chain = Vec::new();
    let mut next = document.blocks.iter().find(|b| inside(b, offset));
    while let Some(block) = next {
        chain.push(block);
        next = block.items.iter().find_map(|item| match item {
            Item::Block(b) if inside(b, offset) => Some(b),
            _ => None,
        });
    }
    chain
}

/// True when `offset` lies after `block`'s header and before its closing brace.
fn inside(block: &Block, offset: usize) -> bool {
    let header_end = block
        .label
        .as_ref()
        .map_or(block.kind.span.end, |l| l.span.end);
    header_end < offset && offset < block.span.end.max(header_end + 1)
}

/// The kinds of `chain`, for the catalog.
pub fn kinds<'a>(chain: &[&'a Block]) -> Vec<&'a str> {
    chain.iter().map(|b| b.kind.name.as_str()).collect()
}

/// Every block of `document`, depth first, with its parent.
pub fn walk<'a>(document: &'a Document, visit: impl FnMut(&'a Block, Option<&'a Block>)) {
    walk_blocks(
        document.blocks.iter().rev().map(|b| (b, None)).collect(),
        visit,
    );
}

/// `root` and every block inside it, depth first, with its parent.
pub fn walk_block<'a>(root: &'a Block, visit: impl FnMut(&'a Block, Option<&'a Block>)) {
    walk_blocks(vec![(root, None)], visit);
}

fn walk_blocks<'a>(
    mut stack: Vec<(&'a Block, Option<&'a Block>)>,
    mut visit: impl FnMut(&'a Block, Option<&'a Block>),
) {
    while let Some((block, parent)) = stack.pop() {
        visit(block, parent);
        for item in block.items.iter().rev() {
            if let Item::Block(inner) = item {
                stack.push((inner, Some(block)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_names_every_enclosing_block() {
        let text = "suite \"s\" {\n  scenario \"a\" {\n    click \"c\" {  }\n  }\n}\n";
        let doc = parse(text);
        let at = text.find("{  }").unwrap() + 2;
        assert_eq!(kinds(&chain_at(&doc, at)), ["suite", "scenario", "click"]);
        let at = text.find("scenario").unwrap();
        assert_eq!(kinds(&chain_at(&doc, at)), ["suite"]);
        assert!(chain_at(&doc, 0).is_empty());
    }
}
