//! Where a verification's check output goes: one confined folder under the agent session (every
//! folder on the way opened without following links), each file written atomically and pinned by
//! its SHA-256 in an [`EvidenceRef`].

use crate::evidence::EvidenceError;
use a3s_test_fsroot::{Dir, FsError, InvalidReason, PRIVATE};
use a3s_test_ledger::verification::{EvidenceKind, EvidenceRef};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A folder for check evidence, relative to the agent session folder (ledger paths are relative
/// to it), opened on disk without following links: no `..`, not absolute, no link on the way.
#[derive(Debug, Clone)]
pub struct EvidenceDir {
    dir: Dir,
    rel: PathBuf,
}

impl EvidenceDir {
    /// Create (if needed) and open `session/rel`; a link or a non-folder on the way is refused.
    pub fn create(session: &Dir, rel: &str) -> Result<EvidenceDir, EvidenceError> {
        let rel = PathBuf::from(rel);
        if !rel
            .components()
            .any(|c| matches!(c, std::path::Component::Normal(_)))
        {
            return Err(FsError::InvalidPath {
                path: session.path().join(&rel),
                reason: InvalidReason::NoName,
            }
            .into());
        }
        let dir = session.create_dir_all(&rel)?;
        Ok(EvidenceDir { dir, rel })
    }

    /// The folder (for messages).
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Write `bytes` to `name` in the folder (atomically, owner-only) and describe it.
    pub(super) fn write(
        &self,
        name: &str,
        kind: EvidenceKind,
        bytes: &[u8],
    ) -> Result<EvidenceRef, EvidenceError> {
        self.dir.write_atomic(name, bytes, PRIVATE)?;
        Ok(EvidenceRef {
            kind,
            path: slash_path(&self.rel.join(name)),
            sha256: sha256(bytes),
            bytes: bytes.len() as u64,
        })
    }
}

/// `sha256:<lowercase hex>` of `bytes`, the digest form of every ledger evidence reference.
pub fn sha256(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in digest.iter() {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

/// A relative path with `/` separators, as the ledger stores it.
fn slash_path(rel: &Path) -> String {
    rel.components()
        .filter_map(|c| match c {
            std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}
