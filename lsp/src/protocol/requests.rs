//! Requests: each method's parameters read, the core feature called, the answer written.

use super::convert::{self, offset, range};
use super::{params, Refusal};
use crate::core::features::completion::{complete, CompletionKind};
use crate::core::features::symbols::{symbols, Symbol, SymbolKind};
use crate::core::features::tokens::tokens;
use crate::core::features::{diagnostics, fixes, folding, format, hover, names};
use crate::core::store::{Doc, Store};
use a3s_test_lang::Span;
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting,
    GotoDefinition, HoverRequest, PrepareRenameRequest, RangeFormatting, References, Rename,
    Request, SemanticTokensFullRequest,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionItem,
    CompletionItemKind, CompletionParams, DocumentFormattingParams, DocumentRangeFormattingParams,
    DocumentSymbol, DocumentSymbolParams, FoldingRange, FoldingRangeKind, FoldingRangeParams,
    GotoDefinitionParams, HoverContents, HoverParams, InsertTextFormat, Location, MarkupContent,
    MarkupKind, ReferenceParams, RenameParams, SemanticToken, SemanticTokens, SemanticTokensParams,
    TextDocumentIdentifier, TextDocumentPositionParams, Uri, WorkspaceEdit,
};
use serde_json::Value;
use std::collections::HashMap;

/// Answer one request (any but `initialize` and `shutdown`, which the loop owns).
pub fn handle_request(store: &Store, method: &str, value: Value) -> Result<Value, Refusal> {
    let answer = match method {
        HoverRequest::METHOD => hover_at(store, params(method, value)?)?,
        Completion::METHOD => completion(store, params(method, value)?)?,
        Formatting::METHOD => formatting(store, params(method, value)?)?,
        RangeFormatting::METHOD => range_formatting(store, params(method, value)?)?,
        CodeActionRequest::METHOD => code_actions(store, params(method, value)?)?,
        DocumentSymbolRequest::METHOD => document_symbols(store, params(method, value)?)?,
        FoldingRangeRequest::METHOD => folding_ranges(store, params(method, value)?)?,
        SemanticTokensFullRequest::METHOD => semantic_tokens(store, params(method, value)?)?,
        GotoDefinition::METHOD => definition(store, params(method, value)?)?,
        References::METHOD => references(store, params(method, value)?)?,
        PrepareRenameRequest::METHOD => prepare_rename(store, params(method, value)?)?,
        Rename::METHOD => rename(store, params(method, value)?)?,
        other => return Err(Refusal::UnknownMethod(other.to_string())),
    };
    Ok(answer)
}

fn doc<'a>(store: &'a Store, id: &TextDocumentIdentifier) -> Result<&'a Doc, Refusal> {
    store
        .get(id.uri.as_str())
        .ok_or_else(|| Refusal::NotOpen(id.uri.as_str().to_string()))
}

fn json<T: serde::Serialize>(value: T) -> Result<Value, Refusal> {
    serde_json::to_value(value).map_err(|e| Refusal::Failed(e.to_string()))
}

fn hover_at(store: &Store, p: HoverParams) -> Result<Value, Refusal> {
    let at = &p.text_document_position_params;
    let doc = doc(store, &at.text_document)?;
    let found = hover::hover(
        &doc.text,
        &diagnostics::diagnose(&doc.text, store.libraries()),
        offset(doc.lines(), at.position),
    );
    json(found.map(|h| lsp_types::Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: h.markdown,
        }),
        range: Some(range(doc.lines(), h.span)),
    }))
}

fn completion(store: &Store, p: CompletionParams) -> Result<Value, Refusal> {
    let at = &p.text_document_position;
    let doc = doc(store, &at.text_document)?;
    let items: Vec<CompletionItem> = complete(&doc.text, offset(doc.lines(), at.position))
        .into_iter()
        .map(|c| CompletionItem {
            label: c.label,
            kind: Some(match c.kind {
                CompletionKind::Block => CompletionItemKind::KEYWORD,
                CompletionKind::Attribute => CompletionItemKind::PROPERTY,
                CompletionKind::Keyword => CompletionItemKind::ENUM_MEMBER,
                CompletionKind::Function => CompletionItemKind::FUNCTION,
                CompletionKind::Reference => CompletionItemKind::REFERENCE,
            }),
            detail: Some(c.detail),
            insert_text: Some(c.insert),
            insert_text_format: Some(if c.snippet {
                InsertTextFormat::SNIPPET
            } else {
                InsertTextFormat::PLAIN_TEXT
            }),
            sort_text: Some(c.sort),
            ..CompletionItem::default()
        })
        .collect();
    json(items)
}

fn formatting(store: &Store, p: DocumentFormattingParams) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let edits = format::format(&doc.text).map(|edits| {
        edits
            .iter()
            .map(|e| convert::edit(doc.lines(), e))
            .collect::<Vec<_>>()
    });
    json(edits)
}

fn range_formatting(store: &Store, p: DocumentRangeFormattingParams) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let (start, end) = (
        offset(doc.lines(), p.range.start),
        offset(doc.lines(), p.range.end),
    );
    let edits = format::format_range(&doc.text, start, end).map(|edits| {
        edits
            .iter()
            .map(|e| convert::edit(doc.lines(), e))
            .collect::<Vec<_>>()
    });
    json(edits)
}

fn code_actions(store: &Store, p: CodeActionParams) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let uri = p.text_document.uri.clone();
    let (start, end) = (
        offset(doc.lines(), p.range.start),
        offset(doc.lines(), p.range.end),
    );
    let found = diagnostics::diagnose(&doc.text, store.libraries());
    let actions: Vec<CodeActionOrCommand> = fixes::fixes(&doc.text, &found, start, end)
        .into_iter()
        .map(|fix| {
            let edits = fix
                .edits
                .iter()
                .map(|e| convert::edit(doc.lines(), e))
                .collect();
            CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert::diagnostic(
                    &uri,
                    doc.lines(),
                    &fix.diagnostic,
                )]),
                edit: Some(workspace_edit(&uri, edits)),
                is_preferred: Some(fix.preferred),
                ..CodeAction::default()
            })
        })
        .collect();
    json(actions)
}

fn workspace_edit(uri: &Uri, edits: Vec<lsp_types::TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

fn document_symbols(store: &Store, p: DocumentSymbolParams) -> Result<Value, Refusal> {
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

fn folding_ranges(store: &Store, p: FoldingRangeParams) -> Result<Value, Refusal> {
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

fn semantic_tokens(store: &Store, p: SemanticTokensParams) -> Result<Value, Refusal> {
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

/// The name under a position and every occurrence of it.
fn named(doc: &Doc, at: &TextDocumentPositionParams) -> Vec<names::Occurrence> {
    let all = names::occurrences(&doc.text);
    let here = offset(doc.lines(), at.position);
    match names::at(&all, here) {
        Some(of) => names::same(&all, of).into_iter().cloned().collect(),
        None => Vec::new(),
    }
}

fn location(doc: &Doc, uri: &Uri, span: Span) -> Location {
    Location::new(uri.clone(), range(doc.lines(), span))
}

fn definition(store: &Store, p: GotoDefinitionParams) -> Result<Value, Refusal> {
    let at = &p.text_document_position_params;
    let doc = doc(store, &at.text_document)?;
    let found = named(doc, at)
        .into_iter()
        .find(|o| o.definition)
        .map(|o| location(doc, &at.text_document.uri, o.span));
    json(found)
}

fn references(store: &Store, p: ReferenceParams) -> Result<Value, Refusal> {
    let at = &p.text_document_position;
    let doc = doc(store, &at.text_document)?;
    let found: Vec<Location> = named(doc, at)
        .into_iter()
        .filter(|o| p.context.include_declaration || !o.definition)
        .map(|o| location(doc, &at.text_document.uri, o.span))
        .collect();
    json(found)
}

fn prepare_rename(store: &Store, p: TextDocumentPositionParams) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let all = names::occurrences(&doc.text);
    let found =
        names::at(&all, offset(doc.lines(), p.position)).map(|o| range(doc.lines(), o.span));
    json(found)
}

fn rename(store: &Store, p: RenameParams) -> Result<Value, Refusal> {
    let at = &p.text_document_position;
    let doc = doc(store, &at.text_document)?;
    let edits = names::rename(&doc.text, offset(doc.lines(), at.position), &p.new_name)
        .map_err(|e| Refusal::Failed(e.to_string()))?;
    let edits = edits
        .iter()
        .map(|e| convert::edit(doc.lines(), e))
        .collect();
    json(workspace_edit(&at.text_document.uri, edits))
}
