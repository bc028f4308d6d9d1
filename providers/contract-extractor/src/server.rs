//! The answers: one contract request → candidates, served through the providers' one server
//! (`a3s_test_provider::serve`).

use crate::design;
use crate::extract::extract;
use a3s_test_ocr_grounding::tesseract::Tesseract;
use a3s_test_provider::contract::{
    ContractGeneration, ContractRequest, ContractResponse, MediaType, OpenDecision, SourceContent,
    SourceDigest,
};
use a3s_test_provider::grounding::Usage;
use a3s_test_provider::serve::{failure, Answer};
use a3s_test_provider::wire::ProviderFailure;
use base64::Engine;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;

/// The model name this provider answers with by default.
pub const MODEL: &str = "markdown-rules-1";

/// Who answers.
#[derive(Debug, Clone)]
pub struct Identity {
    /// The provider name.
    pub name: String,
    /// The model name.
    pub model: String,
    /// How design images are read.
    pub tesseract: Tesseract,
}

/// The longest one design image may be read for, in milliseconds (the request's own deadline
/// is shorter when it says so).
const OCR_BOUND_MS: u64 = 30_000;

/// Serve `listener` until the process ends, through the providers' one server.
pub async fn serve(listener: tokio::net::TcpListener, identity: Identity) -> std::io::Result<()> {
    a3s_test_provider::serve::serve::<ContractGeneration, _>(listener, Arc::new(identity)).await
}

impl Answer<ContractGeneration> for Identity {
    async fn answer(&self, request: ContractRequest) -> Result<ContractResponse, ProviderFailure> {
        let identity = self.clone();
        tokio::task::spawn_blocking(move || answer(&request, &identity))
            .await
            .map_err(|e| failure("internal", format!("the extraction stopped: {e}"), true))
    }
}

/// The answer to one request: every text source read for requirements, every PNG read through
/// Tesseract for its text regions (`crate::design`), anything else named in an open decision.
/// Blocking (Tesseract runs as a bounded child): call it off the async runtime.
pub fn answer(request: &ContractRequest, identity: &Identity) -> ContractResponse {
    let mut texts = Vec::new();
    let mut images = Vec::new();
    let mut unread = Vec::new();
    for s in &request.sources {
        match &s.content {
            SourceContent::Utf8 { text } if s.media_type.is_text() => {
                texts.push((s.id.as_str(), text.as_str()))
            }
            SourceContent::Base64 { data, .. } if s.media_type == MediaType::Png => {
                match base64::engine::general_purpose::STANDARD.decode(data) {
                    Ok(png) => images.push((s, png)),
                    Err(e) => unread.push((s, format!("its base64 does not decode ({e})"))),
                }
            }
            _ => unread.push((s, "this provider reads Markdown, text and PNG".to_string())),
        }
    }
    let mut x = extract(&texts);
    let within = Duration::from_millis(request.deadline_ms.clamp(1, OCR_BOUND_MS));
    let mut read_units = 0u64;
    for (s, png) in &images {
        match identity.tesseract.words(png, within) {
            Ok(words) => {
                let lines = design::lines(&words);
                read_units += lines.len() as u64;
                design::merge(&mut x, &s.id, &s.name, &lines);
            }
            Err(e) => unread.push((s, format!("Tesseract could not read it: {e}"))),
        }
    }
    for (s, why) in unread {
        x.open_decisions.push(OpenDecision {
            id: format!("d{}", x.open_decisions.len() + 1),
            question: format!(
                "The source \"{}\" was not read ({why}). Which of its expectations should the contract hold?",
                s.name
            ),
            candidates: Vec::new(),
        });
    }
    ContractResponse {
        provider: identity.name.clone(),
        model: identity.model.clone(),
        sources: request
            .sources
            .iter()
            .map(|s| SourceDigest {
                id: s.id.clone(),
                // The digest of what was received, so a source altered in transit is caught.
                sha256: match &s.content {
                    SourceContent::Utf8 { text } => hex(&Sha256::digest(text.as_bytes())),
                    SourceContent::Base64 { data, .. } => {
                        match base64::engine::general_purpose::STANDARD.decode(data) {
                            Ok(bytes) => hex(&Sha256::digest(&bytes)),
                            Err(_) => String::new(),
                        }
                    }
                },
            })
            .collect(),
        candidates: x.candidates,
        conflicts: x.conflicts,
        open_decisions: x.open_decisions,
        usage: Usage {
            input_units: request.sources.len() as u64,
            output_units: read_units,
        },
        cost_microusd: 0,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
