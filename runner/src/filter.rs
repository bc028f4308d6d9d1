//! `--filter` globs over scenario ids.
//!
//! Scenario ids are short ASCII words (`[A-Za-z0-9_-]`, joined as `suite/scenario`), matched in
//! [`a3s_test_driver::glob::Dialect::Filter`] (`*`, `?`, `[…]` classes, `\` escapes, through
//! `globset`). `*` crosses the `/` between suite and scenario on purpose: `--filter '*checkout*'`
//! should find a scenario in any suite. A pattern with an unclosed `[` is rejected when parsed,
//! never at match time. The id of a parameterized instance (`checkout[alice]`) is also selected
//! by a pattern that is that id exactly, with or without its suite.

use a3s_test_driver::glob::{Dialect, Wildcard};
use std::fmt;

/// One parsed glob pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob(Wildcard);

/// A glob that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid filter glob `{pattern}`: {reason}")]
pub struct GlobError {
    /// The pattern as given.
    pub pattern: String,
    /// What is wrong with it.
    pub reason: String,
}

impl Glob {
    /// Parse a pattern.
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        Wildcard::new(pattern, Dialect::Filter)
            .map(Glob)
            .map_err(|e| GlobError {
                pattern: pattern.to_string(),
                reason: e.to_string(),
            })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// True when the whole of `text` matches — or, for the id of a parameterized instance
    /// (`checkout[alice]`, whose `[` would otherwise open a class), when the pattern is that id
    /// exactly, with or without its suite (`docs/acl.md` §2.3).
    pub fn matches(&self, text: &str) -> bool {
        self.0.matches(text) || self.names_instance(text)
    }

    fn names_instance(&self, text: &str) -> bool {
        let pattern = self.as_str();
        pattern.ends_with(']')
            && (text == pattern
                || text
                    .strip_suffix(pattern)
                    .is_some_and(|suite| suite.ends_with('/')))
    }
}

impl fmt::Display for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Glob {
    type Err = GlobError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Glob::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_of_matches() {
        let cases: &[(&str, &str, bool)] = &[
            ("forms/submit", "forms/submit", true),
            ("forms/submit", "forms/submitx", false),
            ("*", "", true),
            ("*", "a/b", true),
            ("forms/*", "forms/submit", true),
            ("forms/*", "dialogs/submit", false),
            ("*submit*", "forms/submit-contact", true),
            ("*sub*mit", "forms/sub-x-mit", true),
            ("*sub*mit", "forms/sub-x-mitt", false),
            ("sub?it", "submit", true),
            ("sub?it", "subit", false),
            ("[fd]*", "forms/a", true),
            ("[fd]*", "tabs/a", false),
            ("[!fd]*", "tabs/a", true),
            ("[a-c]x", "bx", true),
            ("[a-c]x", "dx", false),
            ("a\\*", "a*", true),
            ("a\\*", "ab", false),
            ("[a-]", "-", true),
            ("***a", "bba", true),
            ("checkout[alice]", "shop/checkout[alice]", true),
            ("shop/checkout[alice]", "shop/checkout[alice]", true),
            ("checkout[alice]", "shop/checkout[bob]", false),
            ("checkout[alice]", "shop/xcheckout[alice]", false),
        ];
        for (pattern, text, expected) in cases {
            assert_eq!(
                Glob::new(pattern).unwrap().matches(text),
                *expected,
                "{pattern} vs {text}"
            );
        }
    }

    #[test]
    fn rejects_broken_patterns() {
        for pattern in ["[abc", "a\\", "[z-a]", "[]"] {
            assert!(Glob::new(pattern).is_err(), "{pattern}");
        }
    }
}
