//! Keeping the authorization value out of every text that leaves the boundary.
//!
//! Why more than `Debug` impls: a provider may echo the header it received into a failure
//! message, a model name or a box label, and serde's errors quote the values they reject. Every
//! error and every string of an answer passes through [`Redactor::redact`] before anyone sees it,
//! so the value cannot reach a report, a session file or a terminal through the provider either.

/// What replaces the secret.
pub const REDACTED: &str = "[redacted]";

/// Shortest part of a value (split at whitespace, as in `Bearer <token>`) redacted on its own.
const MIN_PART: usize = 6;

/// The authorization value, held only to send it and to erase it from texts.
#[derive(Clone, Default)]
pub struct Redactor {
    needles: Vec<String>,
}

impl std::fmt::Debug for Redactor {
    /// Never the value: only whether there is one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redactor")
            .field("secret", &(!self.needles.is_empty()).then_some(REDACTED))
            .finish()
    }
}

impl Redactor {
    /// A redactor for `secret` (the whole value, and each whitespace-separated part of at least
    /// six characters: the token of `Bearer <token>` alone is as secret as the whole).
    pub fn new(secret: &str) -> Redactor {
        let mut needles: Vec<String> = std::iter::once(secret)
            .chain(secret.split_whitespace().filter(|p| p.len() >= MIN_PART))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        // Longest first, so the whole value is replaced before its parts.
        needles.sort_by_key(|n| std::cmp::Reverse(n.len()));
        needles.dedup();
        Redactor { needles }
    }

    /// `text` with every occurrence of the secret (or a part of it) replaced by [`REDACTED`].
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for needle in &self.needles {
            if out.contains(needle.as_str()) {
                out = out.replace(needle.as_str(), REDACTED);
            }
        }
        out
    }
}
