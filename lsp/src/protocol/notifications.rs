//! Document notifications (`didOpen`, `didChange`, `didClose`) and the diagnostics the server
//! publishes for a document.

use super::convert;
use super::{params, Refusal};
use crate::core::features::diagnostics::diagnose;
use crate::core::store::{Change, Store, StoreError};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification,
    PublishDiagnostics,
};
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    PublishDiagnosticsParams, Uri,
};
use std::str::FromStr;

/// What a notification did to the documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocEvent {
    /// The document at this URI was opened: its diagnostics are due now.
    Opened(String),
    /// The document at this URI was changed: its diagnostics are due once the edits pause.
    Edited(String),
    /// The document was closed: clear its diagnostics.
    Closed(String),
    /// Nothing the server keeps changed (`initialized`, `$/setTrace`, an unknown notification).
    Nothing,
}

/// Apply one notification to `store`.
pub fn handle_notification(
    store: &mut Store,
    method: &str,
    value: serde_json::Value,
) -> Result<DocEvent, Refusal> {
    match method {
        DidOpenTextDocument::METHOD => {
            let p: DidOpenTextDocumentParams = params(method, value)?;
            let uri = p.text_document.uri.as_str().to_string();
            store.open(&uri, p.text_document.text, p.text_document.version);
            Ok(DocEvent::Opened(uri))
        }
        DidChangeTextDocument::METHOD => {
            let p: DidChangeTextDocumentParams = params(method, value)?;
            let uri = p.text_document.uri.as_str().to_string();
            let changes: Vec<Change> = p
                .content_changes
                .into_iter()
                .map(|c| Change {
                    range: c
                        .range
                        .map(|r| (convert::pos(r.start), convert::pos(r.end))),
                    text: c.text,
                })
                .collect();
            store
                .change(&uri, p.text_document.version, &changes)
                .map_err(not_open)?;
            Ok(DocEvent::Edited(uri))
        }
        DidCloseTextDocument::METHOD => {
            let p: DidCloseTextDocumentParams = params(method, value)?;
            let uri = p.text_document.uri.as_str().to_string();
            store.close(&uri).map_err(not_open)?;
            Ok(DocEvent::Closed(uri))
        }
        _ => Ok(DocEvent::Nothing),
    }
}

fn not_open(e: StoreError) -> Refusal {
    match e {
        StoreError::NotOpen(uri) => Refusal::NotOpen(uri),
    }
}

/// The `textDocument/publishDiagnostics` notification for `uri`: its diagnostics when it is
/// open, none (clearing the editor's) when it is not.
pub fn publish_diagnostics(store: &Store, uri: &str) -> Option<(&'static str, serde_json::Value)> {
    let parsed = Uri::from_str(uri).ok()?;
    let (diagnostics, version) = match store.get(uri) {
        Some(doc) => (
            diagnose(&doc.text, store.libraries())
                .iter()
                .map(|d| convert::diagnostic(&parsed, doc.lines(), d))
                .collect(),
            Some(doc.version),
        ),
        None => (Vec::new(), None),
    };
    let params = PublishDiagnosticsParams::new(parsed, diagnostics, version);
    Some((
        PublishDiagnostics::METHOD,
        serde_json::to_value(params).ok()?,
    ))
}
