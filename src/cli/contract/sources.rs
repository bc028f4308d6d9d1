//! Reading and hashing the sources of a contract: Markdown or text (UTF-8) and PNG designs.
//!
//! Why one reader for `generate` and `review`: the digest review compares is computed the same
//! way generation computed it, from the same bounded read.

use a3s_test_provider::contract::{ContractCode, ContractError, MediaType};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// Largest source read, in bytes.
pub const MAX_SOURCE_BYTES: u64 = 8 * 1024 * 1024;

/// One source read from disk.
#[derive(Debug, Clone)]
pub struct ReadSource {
    /// What it is.
    pub media_type: MediaType,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// SHA-256 of the bytes, lowercase hex.
    pub sha256: String,
    /// Width and height of an image.
    pub size: Option<(u32, u32)>,
}

impl ReadSource {
    /// The text of a text source.
    pub fn text(&self) -> Option<&str> {
        if self.media_type.is_text() {
            std::str::from_utf8(&self.bytes).ok()
        } else {
            None
        }
    }
}

/// Read `path` (at most [`MAX_SOURCE_BYTES`]): a PNG by its signature, else UTF-8 text
/// (Markdown when named `.md` or `.markdown`).
pub fn read(path: &Path) -> Result<ReadSource, ContractError> {
    let shown = path.display();
    let bad = |m: String| ContractError::new(ContractCode::Source, m);
    let file =
        std::fs::File::open(path).map_err(|e| bad(format!("{shown} cannot be read: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("{shown} cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(bad(format!(
            "{shown} is larger than {MAX_SOURCE_BYTES} bytes"
        )));
    }
    let sha256 = hex(&Sha256::digest(&bytes));
    if let Some(size) = png_size(&bytes) {
        return Ok(ReadSource {
            media_type: MediaType::Png,
            bytes,
            sha256,
            size: Some(size),
        });
    }
    if std::str::from_utf8(&bytes).is_err() {
        return Err(bad(format!("{shown} is neither UTF-8 text nor a PNG")));
    }
    let markdown = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"));
    let media_type = if markdown {
        MediaType::Markdown
    } else {
        MediaType::Text
    };
    Ok(ReadSource {
        media_type,
        bytes,
        sha256,
        size: None,
    })
}

/// A PNG's width and height from its IHDR chunk, when `bytes` start like a PNG.
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    (width > 0 && height > 0).then_some((width, height))
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
