//! Requests: each method's parameters read, the core feature called, the answer written.

use super::convert::{self, offset, range};
use super::{params, Refusal};
use crate::core::features::completion::{complete, CompletionKind};
use crate::core::features::{diagnostics, fixes, format, hover};
use crate::core::store::{Doc, Store};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting,
    GotoDefinition, HoverRequest, PrepareRenameRequest, RangeFormatting, References, Rename,
    Request, SemanticTokensFullRequest,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionItem,
    CompletionItemKind, CompletionParams, DocumentFormattingParams, DocumentRangeFormattingParams,
    HoverContents, HoverParams, InsertTextFormat, MarkupContent, MarkupKind,
    TextDocumentIdentifier, Uri, WorkspaceEdit,
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
        DocumentSymbolRequest::METHOD => {
            super::outline::document_symbols(store, params(method, value)?)?
        }
        FoldingRangeRequest::METHOD => {
            super::outline::folding_ranges(store, params(method, value)?)?
        }
        SemanticTokensFullRequest::METHOD => {
            super::outline::semantic_tokens(store, params(method, value)?)?
        }
        GotoDefinition::METHOD => super::names::definition(store, params(method, value)?)?,
        References::METHOD => super::names::references(store, params(method, value)?)?,
        PrepareRenameRequest::METHOD => {
            super::names::prepare_rename(store, params(method, value)?)?
        }
        Rename::METHOD => super::names::rename(store, params(method, value)?)?,
        other => return Err(Refusal::UnknownMethod(other.to_string())),
    };
    Ok(answer)
}

pub(super) fn doc<'a>(store: &'a Store, id: &TextDocumentIdentifier) -> Result<&'a Doc, Refusal> {
    store
        .get(id.uri.as_str())
        .ok_or_else(|| Refusal::NotOpen(id.uri.as_str().to_string()))
}

pub(super) fn json<T: serde::Serialize>(value: T) -> Result<Value, Refusal> {
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

pub(super) fn workspace_edit(uri: &Uri, edits: Vec<lsp_types::TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}
