//! The outline answers: document symbols, folding ranges, semantic tokens.

use super::convert::range;
use super::requests::{doc, json};
use super::Refusal;
use crate::core::features::folding;
use crate::core::features::symbols::{symbols, Symbol, SymbolKind};
use crate::core::features::tokens::tokens;
use crate::core::store::{Doc, Store};
use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, FoldingRange, FoldingRangeKind, FoldingRangeParams,
    SemanticToken, SemanticTokens, SemanticTokensParams,
};
use serde_json::Value;

pub(super) fn document_symbols(store: &Store, p: DocumentSymbolParams) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let outline: Vec<DocumentSymbol> = symbols(&doc.text)
        .iter()
        .map(|s| document_symbol(doc, s))
        .collect();
    json(outline)
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn document_symbol(doc: &Doc, s: &Symbol) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name.clone(),
        detail: Some(s.detail.clone()),
        kind: match s.kind {
            SymbolKind::Root => lsp_types::SymbolKind::MODULE,
            SymbolKind::Scenario => lsp_types::SymbolKind::FUNCTION,
            SymbolKind::Group => lsp_types::SymbolKind::NAMESPACE,
            SymbolKind::Step => lsp_types::SymbolKind::EVENT,
            SymbolKind::Section => lsp_types::SymbolKind::OBJECT,
        },
        tags: None,
        deprecated: None,
        range: range(doc.lines(), s.span),
        selection_range: range(doc.lines(), s.selection),
        children: Some(s.children.iter().map(|c| document_symbol(doc, c)).collect()),
    }
}

pub(super) fn folding_ranges(store: &Store, p: FoldingRangeParams) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let folds: Vec<FoldingRange> = folding::folds(&doc.text, doc.lines())
        .into_iter()
        .map(|f| FoldingRange {
            start_line: f.start,
            end_line: f.end,
            kind: Some(if f.comment {
                FoldingRangeKind::Comment
            } else {
                FoldingRangeKind::Region
            }),
            ..FoldingRange::default()
        })
        .collect();
    json(folds)
}

pub(super) fn semantic_tokens(store: &Store, p: SemanticTokensParams) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let mut data = Vec::new();
    let (mut line, mut col) = (0, 0);
    for token in tokens(&doc.text) {
        let start = doc.lines().pos(token.span.start);
        let end = doc.lines().pos(token.span.end);
        if start.line != end.line || end.col <= start.col {
            continue; // a token over several lines is not encoded (clients would split it)
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.col - col
        } else {
            start.col
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.col - start.col,
            token_type: token.kind as u32,
            token_modifiers_bitset: u32::from(token.declaration),
        });
        (line, col) = (start.line, start.col);
    }
    json(SemanticTokens {
        result_id: None,
        data,
    })
}
