//! Repair evidence files: confined to the session folder (every folder on the way opened without
//! following links, from the session folder's own open handle), written atomically, each pinned
//! by its SHA-256 in an [`EvidenceRef`] whose path is relative to the session folder.
//!
//! Why here and not in the ledger: only the supervisor holds the page, so it writes the files;
//! the ledger stores the references it answers.

use crate::session::code::{SessionCode, SessionError};
use a3s_test_fsroot::{Dir, PRIVATE};
use a3s_test_ledger::verification::{EvidenceKind, EvidenceRef};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Component, Path};

/// Every repair evidence folder lives under this session-relative folder.
pub const REPAIRS_DIR: &str = "artifacts/repairs";
/// The most bytes a console or page-error file holds (the oldest entries go first).
pub const MAX_LOG_BYTES: usize = 64 * 1024;
/// The most bytes a Page Context file holds.
pub const MAX_PAGE_CONTEXT_BYTES: usize = 256 * 1024;

/// A folder of repair evidence: `rel` (session-relative, with `/`) and the open folder.
#[derive(Debug, Clone)]
pub struct EvidenceDir {
    rel: String,
    dir: Dir,
}

fn refused(message: impl Into<String>) -> SessionError {
    SessionError::new(SessionCode::Policy, message)
}

impl EvidenceDir {
    /// Check that `rel` is a plain relative path under [`REPAIRS_DIR`] (no `..`, not absolute,
    /// only `[A-Za-z0-9_.-]` components) and create it inside `session`, opening every folder
    /// without following links (a link on the way is `test.session.unsafe_path`).
    pub fn create(session: &Dir, rel: &str) -> Result<Self, SessionError> {
        let path = Path::new(rel);
        let parts: Vec<&str> = path
            .components()
            .map(|c| match c {
                Component::Normal(p) => p.to_str().unwrap_or("/"),
                _ => "/",
            })
            .collect();
        let plain = |p: &&str| {
            !p.is_empty()
                && !p.starts_with('.')
                && p.len() <= 128
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        };
        let under = parts.len() > 2 && parts[0] == "artifacts" && parts[1] == "repairs";
        if rel.len() > 512 || !under || !parts.iter().all(plain) {
            return Err(refused(format!(
                "the evidence folder {rel:?} is not a plain relative path under {REPAIRS_DIR}/"
            )));
        }
        let dir = session
            .create_dir_all(path)
            .map_err(|e| SessionError::fs(&e))?;
        Ok(EvidenceDir {
            rel: parts.join("/"),
            dir,
        })
    }

    /// True when the folder holds no file yet.
    pub fn is_empty(&self) -> bool {
        self.dir.list().is_ok_and(|entries| entries.is_empty())
    }

    /// Write `bytes` as `name` in this folder and reference it.
    pub fn write(
        &self,
        kind: EvidenceKind,
        name: &str,
        bytes: &[u8],
    ) -> Result<EvidenceRef, SessionError> {
        self.dir
            .write_atomic(name, bytes, PRIVATE)
            .map_err(|e| SessionError::fs(&e))?;
        Ok(EvidenceRef {
            kind,
            path: format!("{}/{name}", self.rel),
            sha256: digest(bytes),
            bytes: bytes.len() as u64,
        })
    }
}

/// `sha256:<lowercase hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in hash {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// A log file body: `{untrusted, total, kept, truncated, entries}`, the newest entries kept
/// within [`MAX_LOG_BYTES`].
pub fn log_file(entries: &[Value], total: usize) -> Vec<u8> {
    let mut start = 0;
    loop {
        let kept = &entries[start.min(entries.len())..];
        let body = json!({
            "untrusted": true,
            "total": total,
            "kept": kept.len(),
            "truncated": kept.len() < total,
            "entries": kept,
        });
        let bytes = serde_json::to_vec_pretty(&body).unwrap_or_default();
        if bytes.len() <= MAX_LOG_BYTES || kept.is_empty() {
            return bytes;
        }
        // Drop a share of the oldest at once, so a huge log is not re-serialized per entry.
        start += (kept.len() / 4).max(1);
    }
}

/// A Page Context file body: `{untrusted, truncated, bytes, snapshot}`; a snapshot over
/// [`MAX_PAGE_CONTEXT_BYTES`] keeps its page record and revision only, and says so.
pub fn page_context_file(snapshot: &Value) -> Vec<u8> {
    let full = serde_json::to_vec(snapshot).unwrap_or_default();
    let body = if full.len() + 128 <= MAX_PAGE_CONTEXT_BYTES {
        json!({ "untrusted": true, "truncated": false, "bytes": full.len(), "snapshot": snapshot })
    } else {
        let kept = json!({
            "protocol": snapshot.get("protocol"),
            "revision": snapshot.get("revision"),
            "page": snapshot.get("page"),
        });
        json!({ "untrusted": true, "truncated": true, "bytes": full.len(), "snapshot": kept })
    };
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    if bytes.len() <= MAX_PAGE_CONTEXT_BYTES {
        bytes
    } else {
        serde_json::to_vec(&json!({ "untrusted": true, "truncated": true, "bytes": full.len() }))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_outside_the_repairs_folder_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open_anchor(tmp.path()).unwrap();
        for bad in [
            "../x",
            "/tmp/x",
            "artifacts/repairs",
            "artifacts/other/f/baseline",
            "artifacts/repairs/../../x",
            "artifacts/repairs/f/.hidden",
            "artifacts/repairs/f b/baseline",
        ] {
            let e = EvidenceDir::create(&dir, bad).unwrap_err();
            assert_eq!(e.code, SessionCode::Policy, "{bad}");
        }
        let ok = EvidenceDir::create(&dir, "artifacts/repairs/f-1/baseline").unwrap();
        assert!(ok.is_empty());
        let r = ok
            .write(EvidenceKind::Console, "console.json", b"{}")
            .unwrap();
        assert_eq!(r.path, "artifacts/repairs/f-1/baseline/console.json");
        assert_eq!(r.bytes, 2);
        assert_eq!(r.sha256, digest(b"{}"));
        assert!(r.sha256.starts_with("sha256:") && r.sha256.len() == 71);
        assert!(!ok.is_empty());
    }

    #[test]
    fn a_link_out_of_the_session_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("artifacts")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("artifacts/repairs")).unwrap();
        let session = Dir::open_anchor(dir.path()).unwrap();
        let e = EvidenceDir::create(&session, "artifacts/repairs/f/baseline").unwrap_err();
        assert_eq!(e.code, SessionCode::UnsafePath);
        assert!(std::fs::read_dir(outside.path()).unwrap().next().is_none());
    }

    #[test]
    fn logs_and_page_context_stay_bounded() {
        let entries: Vec<Value> = (0..200)
            .map(|i| json!({ "type": "log", "text": "x".repeat(1_000), "i": i }))
            .collect();
        let bytes = log_file(&entries, 5_000);
        assert!(bytes.len() <= MAX_LOG_BYTES);
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["truncated"], true);
        assert_eq!(v["entries"].as_array().unwrap().last().unwrap()["i"], 199);
        let big = json!({ "revision": 3, "page": { "url": "u" }, "nodes": ["y".repeat(300_000)] });
        let bytes = page_context_file(&big);
        assert!(bytes.len() <= MAX_PAGE_CONTEXT_BYTES);
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["truncated"], true);
        assert_eq!(v["snapshot"]["revision"], 3);
    }
}
