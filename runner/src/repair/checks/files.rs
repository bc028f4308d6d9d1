//! Where a verification's check output goes: one confined folder under the agent session, each
//! file written atomically and pinned by its SHA-256 in an [`EvidenceRef`].

use crate::evidence::{confined_join, EvidenceError};
use a3s_test_driver::atomic::{write_atomic, Permissions};
use a3s_test_ledger::verification::{EvidenceKind, EvidenceRef};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A folder for check evidence, relative to the agent session folder (ledger paths are relative
/// to it), checked on disk: no `..`, not absolute, no symlink on the way.
#[derive(Debug, Clone)]
pub struct EvidenceDir {
    session: PathBuf,
    rel: PathBuf,
}

impl EvidenceDir {
    /// Create (if needed) `session/rel` after confining `rel` under `session`, and re-check it
    /// after creating, so a symlink raced into place is refused too.
    pub fn create(session: &Path, rel: &str) -> Result<EvidenceDir, EvidenceError> {
        let rel = PathBuf::from(rel);
        let dir = confined_join(session, &rel)?;
        std::fs::create_dir_all(&dir).map_err(|source| EvidenceError::Io {
            path: dir.clone(),
            source,
        })?;
        confined_join(session, &rel)?;
        Ok(EvidenceDir {
            session: session.to_path_buf(),
            rel,
        })
    }

    /// The absolute folder.
    pub fn path(&self) -> PathBuf {
        self.session.join(&self.rel)
    }

    /// Write `bytes` to `name` in the folder (atomically, owner-only) and describe it.
    pub(super) fn write(
        &self,
        name: &str,
        kind: EvidenceKind,
        bytes: &[u8],
    ) -> Result<EvidenceRef, EvidenceError> {
        let rel = self.rel.join(name);
        let path = confined_join(&self.session, &rel)?;
        write_atomic(&path, bytes, ".a3s-check-", Permissions::Private).map_err(|source| {
            EvidenceError::Io {
                path: path.clone(),
                source,
            }
        })?;
        Ok(EvidenceRef {
            kind,
            path: slash_path(&rel),
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
