//! `--filter` globs over scenario ids.
//!
//! Why a hand-written matcher: scenario ids are short ASCII words (`[A-Za-z0-9_-]`, joined as
//! `suite/scenario`), so a glob needs only `*`, `?`, `[…]` classes and `\` escapes. `*` crosses the
//! `/` between suite and scenario on purpose: `--filter '*checkout*'` should find a scenario in any
//! suite. A pattern with an unclosed `[` is rejected when parsed, never at match time.

use std::fmt;

/// One parsed glob pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    text: String,
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(char),
    AnyOne,
    AnyMany,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// A glob that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid filter glob `{pattern}`: {reason}")]
pub struct GlobError {
    /// The pattern as given.
    pub pattern: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl Glob {
    /// Parse a pattern.
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        let err = |reason| GlobError {
            pattern: pattern.to_string(),
            reason,
        };
        let mut tokens = Vec::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '*' => {
                    if tokens.last() != Some(&Token::AnyMany) {
                        tokens.push(Token::AnyMany);
                    }
                }
                '?' => tokens.push(Token::AnyOne),
                '\\' => tokens.push(Token::Literal(
                    chars.next().ok_or_else(|| err("trailing `\\`"))?,
                )),
                '[' => {
                    let negated = matches!(chars.peek(), Some('!') | Some('^'));
                    if negated {
                        chars.next();
                    }
                    let mut ranges = Vec::new();
                    let mut closed = false;
                    while let Some(c) = chars.next() {
                        if c == ']' && !ranges.is_empty() {
                            closed = true;
                            break;
                        }
                        let start = if c == '\\' {
                            chars.next().ok_or_else(|| err("trailing `\\`"))?
                        } else {
                            c
                        };
                        if chars.peek() == Some(&'-') {
                            chars.next();
                            match chars.next() {
                                Some(']') => {
                                    ranges.push((start, start));
                                    ranges.push(('-', '-'));
                                    closed = true;
                                    break;
                                }
                                Some(end) if end >= start => ranges.push((start, end)),
                                Some(_) => return Err(err("a `[a-z]` range runs backwards")),
                                None => return Err(err("unclosed `[`")),
                            }
                        } else {
                            ranges.push((start, start));
                        }
                    }
                    if !closed {
                        return Err(err("unclosed `[`"));
                    }
                    tokens.push(Token::Class { negated, ranges });
                }
                c => tokens.push(Token::Literal(c)),
            }
        }
        Ok(Glob {
            text: pattern.to_string(),
            tokens,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True when the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        let text: Vec<char> = text.chars().collect();
        // Classic two-pointer wildcard match with one backtrack point (linear for one `*` run).
        let (mut t, mut p) = (0usize, 0usize);
        let mut star: Option<(usize, usize)> = None;
        while t < text.len() {
            match self.tokens.get(p) {
                Some(Token::AnyMany) => {
                    star = Some((p, t));
                    p += 1;
                }
                Some(tok) if single_matches(tok, text[t]) => {
                    p += 1;
                    t += 1;
                }
                _ => match star {
                    Some((sp, st)) => {
                        p = sp + 1;
                        t = st + 1;
                        star = Some((sp, st + 1));
                    }
                    None => return false,
                },
            }
        }
        self.tokens[p..].iter().all(|tok| *tok == Token::AnyMany)
    }
}

fn single_matches(token: &Token, c: char) -> bool {
    match token {
        Token::Literal(l) => *l == c,
        Token::AnyOne => true,
        Token::AnyMany => false,
        Token::Class { negated, ranges } => {
            ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)) != *negated
        }
    }
}

impl fmt::Display for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
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
