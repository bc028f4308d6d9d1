//! The candidates file `contract generate` writes and `contract review` reads:
//! `a3s.test.contract-candidates-file/1`.
//!
//! Why a file of its own shape rather than the provider's answer: the file names each source by
//! the path it was read from (relative to the file) so review can re-hash it, and it records who
//! answered. Reading it applies the same checks as the provider's answer
//! ([`super::check::check_candidates`]), so an edited file is held to the same rules.

use super::check::{check_candidates, SourceBody, SourceView};
use super::code::{ContractCode, ContractError};
use super::types::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `format` string of a candidates file.
pub const CANDIDATES_FORMAT: &str = "a3s.test.contract-candidates-file/1";

/// Largest candidates file read, in bytes.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// One source as the candidates file records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileSource {
    /// The id evidence names it by.
    pub id: String,
    /// Its path, relative to the candidates file's folder (or absolute).
    pub path: String,
    /// What it is.
    pub media_type: MediaType,
    /// SHA-256 of its bytes when the candidates were made, lowercase hex.
    pub sha256: String,
    /// Its length in bytes then.
    pub bytes: u64,
    /// An image's width in pixels (images only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// An image's height in pixels (images only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
}

/// What `contract generate` writes: the sources, who answered, and the provider's proposals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CandidatesFile {
    /// Always [`CANDIDATES_FORMAT`].
    pub format: String,
    /// The provider block's label.
    pub provider: String,
    /// The model that answered.
    pub model: String,
    /// The sources, in the order they were given.
    pub sources: Vec<FileSource>,
    /// The proposed expectations.
    pub candidates: Vec<Candidate>,
    /// Groups of candidates that cannot all hold.
    pub conflicts: Vec<Conflict>,
    /// Questions the sources leave open.
    pub open_decisions: Vec<OpenDecision>,
}

impl CandidatesFile {
    /// Read a candidates file's bytes: the shape only (sources are checked by [`Self::verify`]).
    pub fn parse(bytes: &[u8]) -> Result<CandidatesFile, ContractError> {
        let bad = |m: String| ContractError::new(ContractCode::CandidatesFile, m);
        if bytes.len() > MAX_FILE_BYTES {
            return Err(bad(format!(
                "the file is {} bytes; at most {MAX_FILE_BYTES} are read",
                bytes.len()
            )));
        }
        let file: CandidatesFile = serde_json::from_slice(bytes)
            .map_err(|e| bad(format!("the file is not a candidates file: {e}")))?;
        if file.format != CANDIDATES_FORMAT {
            return Err(bad(format!(
                "the file's format is {:?}, not \"{CANDIDATES_FORMAT}\"",
                crate::wire::shorten(&file.format, 80)
            )));
        }
        let mut ids = std::collections::HashSet::new();
        for s in &file.sources {
            if !super::check::is_id(&s.id) || !ids.insert(s.id.as_str()) {
                return Err(bad(format!(
                    "source id {:?} is repeated or not [A-Za-z0-9_-]",
                    crate::wire::shorten(&s.id, 80)
                )));
            }
            let image = s.media_type == MediaType::Png;
            if image != (s.width.is_some() && s.height.is_some()) {
                return Err(bad(format!(
                    "source \"{}\": an image has `width` and `height`, a text has neither",
                    s.id
                )));
            }
        }
        Ok(file)
    }

    /// Check every candidate against `texts`, the current bytes of the text sources by id
    /// (sources already re-hashed by the caller): spans quote them, regions lie inside the
    /// recorded image sizes, and references resolve.
    pub fn verify(&self, texts: &[(&str, &str)]) -> Result<(), ContractError> {
        let mut views = Vec::with_capacity(self.sources.len());
        for s in &self.sources {
            let body = match (s.width, s.height) {
                (Some(width), Some(height)) => SourceBody::Image { width, height },
                _ => match texts.iter().find(|(id, _)| *id == s.id) {
                    Some((_, text)) => SourceBody::Text(text),
                    None => {
                        return Err(ContractError::new(
                            ContractCode::Source,
                            format!("text source \"{}\" was not read", s.id),
                        ))
                    }
                },
            };
            views.push(SourceView {
                id: &s.id,
                sha256: &s.sha256,
                body,
            });
        }
        check_candidates(
            &views,
            &self.candidates,
            &self.conflicts,
            &self.open_decisions,
        )
        .map_err(|e| {
            ContractError::new(
                ContractCode::CandidatesFile,
                format!("{} ({})", e.message, e.code),
            )
        })
    }
}
