//! Names: go to definition, find references, prepare rename and rename.

use super::convert::{self, offset, range};
use super::requests::{doc, json, workspace_edit};
use super::Refusal;
use crate::core::features::names;
use crate::core::store::{Doc, Store};
use a3s_test_lang::Span;
use lsp_types::{
    GotoDefinitionParams, Location, ReferenceParams, RenameParams, TextDocumentPositionParams, Uri,
};
use serde_json::Value;

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

pub(super) fn definition(store: &Store, p: GotoDefinitionParams) -> Result<Value, Refusal> {
    let at = &p.text_document_position_params;
    let doc = doc(store, &at.text_document)?;
    let found = named(doc, at)
        .into_iter()
        .find(|o| o.definition)
        .map(|o| location(doc, &at.text_document.uri, o.span));
    json(found)
}

pub(super) fn references(store: &Store, p: ReferenceParams) -> Result<Value, Refusal> {
    let at = &p.text_document_position;
    let doc = doc(store, &at.text_document)?;
    let found: Vec<Location> = named(doc, at)
        .into_iter()
        .filter(|o| p.context.include_declaration || !o.definition)
        .map(|o| location(doc, &at.text_document.uri, o.span))
        .collect();
    json(found)
}

pub(super) fn prepare_rename(
    store: &Store,
    p: TextDocumentPositionParams,
) -> Result<Value, Refusal> {
    let doc = doc(store, &p.text_document)?;
    let all = names::occurrences(&doc.text);
    let found =
        names::at(&all, offset(doc.lines(), p.position)).map(|o| range(doc.lines(), o.span));
    json(found)
}

pub(super) fn rename(store: &Store, p: RenameParams) -> Result<Value, Refusal> {
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
