//! Fingerprints of Page Context node ids. Node ids are private to one page runtime (the
//! protocol says callers must not persist them), yet a `@cN` ref must survive an unrelated
//! change. A session therefore stores only `SHA-256("a3s.test.cref/1\0" ‖ token ‖ "\0" ‖ id)`:
//! domain-separated, keyed by the session's token so fingerprints from one session mean nothing
//! in another, and compared against fingerprints of the ids a validated delta names. The token
//! is not a secret — it is stored in the same `session.json` and is on the supervisor's command
//! line — so the key separates sessions; it does not hide node ids from a reader of the file.

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// The domain-separation prefix of `@cN` fingerprints.
pub const DOMAIN: &[u8] = b"a3s.test.cref/1\0";

/// The lowercase-hex SHA-256 fingerprint of `node_id` within the session keyed by `token`.
pub fn fingerprint(token: &str, node_id: &str) -> String {
    let mut h = Sha256::new();
    h.update(DOMAIN);
    h.update(token.as_bytes());
    h.update([0u8]);
    h.update(node_id.as_bytes());
    let digest = h.finalize();
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

/// Fingerprints of every id in `ids` (for comparing against stored refs).
pub fn fingerprints<'a>(
    token: &str,
    ids: impl IntoIterator<Item = &'a String>,
) -> BTreeSet<String> {
    ids.into_iter().map(|id| fingerprint(token, id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_documented_construction() {
        let mut bytes = b"a3s.test.cref/1\0".to_vec();
        bytes.extend_from_slice(b"tok\0n42");
        let d = Sha256::digest(&bytes);
        let expect: String = d.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(fingerprint("tok", "n42"), expect);
        assert_eq!(fingerprint("tok", "n42").len(), 64);
    }

    #[test]
    fn separates_sessions_ids_and_boundaries() {
        let a = fingerprint("tok", "n42");
        assert_ne!(a, fingerprint("tok2", "n42"));
        assert_ne!(a, fingerprint("tok", "n43"));
        // The NUL separator keeps ("ab","c") and ("a","bc") apart.
        assert_ne!(fingerprint("ab", "c"), fingerprint("a", "bc"));
        assert!(!a.contains("n42"));
    }

    #[test]
    fn fingerprints_collects_a_set() {
        let ids = vec!["b".to_string(), "a".to_string(), "a".to_string()];
        let set = fingerprints("t", &ids);
        assert_eq!(set.len(), 2);
        assert!(set.contains(&fingerprint("t", "a")));
    }
}
