//! The two wildcard dialects of the project, both matched by `globset`:
//!
//! - [`Dialect::Filter`] — `run --filter` over scenario ids (`suite/scenario`): `*`, `?`, `[…]`
//!   classes (`[!…]`/`[^…]` negated, `a-z` ranges) and `\` escapes.
//! - [`Dialect::Url`] — `network_route` URL patterns, read the way CDP's `Fetch.enable`
//!   `urlPattern` reads them: only `*`, `?` and `\` escapes; `[`, `]`, `{`, `}` are literal.
//!
//! In both, `*` crosses `/` on purpose (`--filter '*checkout*'` finds a scenario in any suite;
//! `**/api/users` matches any origin). `{a,b}` alternation is not part of either dialect, so
//! braces are escaped before `globset` sees them. Why `globset`: a maintained matcher (compiled
//! to a regex, linear time) instead of a hand-written backtracking one per dialect.

use globset::{GlobBuilder, GlobMatcher};

/// Which wildcard language a pattern is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `*`, `?`, `[…]` classes and `\` escapes (`run --filter`).
    Filter,
    /// `*`, `?` and `\` escapes only (CDP `urlPattern`, `network_route`).
    Url,
}

/// A compiled wildcard pattern; compares and prints as the text it was written as.
#[derive(Debug, Clone)]
pub struct Wildcard {
    text: String,
    matcher: GlobMatcher,
}

impl PartialEq for Wildcard {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Wildcard {}

/// A pattern that is not valid in its dialect (an unclosed `[`, a backwards range, a trailing
/// `\`); the message is `globset`'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WildcardError(String);

impl Wildcard {
    /// Compile `pattern` in `dialect`.
    pub fn new(pattern: &str, dialect: Dialect) -> Result<Wildcard, WildcardError> {
        let literal: &[char] = match dialect {
            Dialect::Filter => &['{', '}'],
            Dialect::Url => &['{', '}', '[', ']'],
        };
        let glob = GlobBuilder::new(&escape(pattern, literal))
            .literal_separator(false)
            .backslash_escape(true)
            .build()
            .map_err(|e| WildcardError(e.kind().to_string()))?;
        Ok(Wildcard {
            text: pattern.to_string(),
            matcher: glob.compile_matcher(),
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True when the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        self.matcher.is_match(text)
    }
}

/// `pattern` with every unescaped `literal` character escaped; characters inside a `[…]` class
/// (only possible when `[` is not itself literal) are left alone, since a class reads them
/// literally already.
fn escape(pattern: &str, literal: &[char]) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
                continue;
            }
            '[' if !in_class && !literal.contains(&'[') => in_class = true,
            ']' if in_class => in_class = false,
            c if !in_class && literal.contains(&c) => out.push('\\'),
            _ => {}
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_patterns_read_brackets_and_braces_literally() {
        let w = Wildcard::new("http://h/[a]{b,c}*", Dialect::Url).unwrap();
        assert!(w.matches("http://h/[a]{b,c}/x"));
        assert!(!w.matches("http://h/ab"));
        let f = Wildcard::new("x{a,b}", Dialect::Filter).unwrap();
        assert!(f.matches("x{a,b}") && !f.matches("xa"));
        assert_eq!(f.as_str(), "x{a,b}");
    }
}
