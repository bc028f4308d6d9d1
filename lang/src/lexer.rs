//! The ACL lexer: source text → tokens, comments and lexical diagnostics.
//!
//! Built on logos. The token vocabulary is `docs/acl.md` §1: identifiers, strings (double or single
//! quoted, with `\" \' \\ \n \r \t \u{XXXX}` escapes), integers with an optional leading `-`,
//! decimals, `true` `false` `null`, regular expressions (`/^save/i`: a slash, a body with `\/` for a
//! slash, a slash, then flag letters — never empty, so `//` always starts a comment), the
//! punctuation `{ } [ ] ( ) = ,`, and comments (`# …`, `// …` to end of line). Whitespace and newlines are skipped: the grammar is newline-insensitive, so
//! `dev_server { command = ["npm"]  url = "…" }` (`docs/acl.md` §11) is valid.
//!
//! Why comments are tokens here but not in the parser's stream: the formatter needs them back
//! with their exact spans, while the grammar never mentions them. [`lex`] splits them out.
//!
//! Lexing never fails and never panics: every problem becomes a [`Diagnostic`] with an exact byte
//! span, and the token stream carries a [`Token::Bad`] in place of the broken token so the parser
//! can keep going without reporting the same problem twice. Strings are kept as raw slices (quotes
//! included) and decoded once, by [`decode_string`], when the parser builds the AST; a string
//! without a backslash decodes without scanning for escapes twice.

use crate::ast::Comment;
use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use logos::Logos;
use std::fmt;

/// Why logos could not produce a token; turned into a [`Diagnostic`] by [`lex`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LexError {
    /// A character that starts no token.
    #[default]
    InvalidToken,
    /// A string with no closing quote before the end of its line.
    UnterminatedString,
    /// A number that does not fit (an integer beyond `i64`, a decimal beyond `f64`).
    NumberTooLarge,
    /// A regular expression with no closing `/` before the end of its line.
    UnterminatedRegex,
}

/// One ACL token. `Copy`, borrowing from the source: the parser clones tokens freely.
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
#[logos(error = LexError)]
#[logos(skip(r"[ \t\r\n\f]+", allow_greedy = true))]
#[logos(skip(r"\u{FEFF}"))]
pub enum Token<'src> {
    /// `[A-Za-z_][A-Za-z0-9_]*` other than the keywords.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice(), allow_greedy = true)]
    Ident(&'src str),
    /// A string literal, raw: quotes and escapes as written. Decode with [`decode_string`].
    /// A block string `"""…"""` may span lines; it has no escapes (see [`dedent_block`]).
    #[token("\"\"\"", scan_block)]
    #[token("\"", |lex| scan_string(lex, b'"'))]
    #[token("'", |lex| scan_string(lex, b'\''))]
    Str(&'src str),
    /// An integer literal.
    #[regex(r"-?[0-9]+", |lex| lex.slice().parse::<i64>().map_err(|_| LexError::NumberTooLarge), allow_greedy = true)]
    Int(i64),
    /// A decimal literal.
    #[regex(r"-?[0-9]+\.[0-9]+", parse_float, allow_greedy = true)]
    Float(f64),
    /// A regular expression literal, raw: `/body/flags` as written. Split with [`split_regex`].
    /// (`//…` is longer as a comment, which logos prefers, so a regex never starts with `//`.)
    #[token("/", scan_regex)]
    Regex(&'src str),
    /// `true`.
    #[token("true")]
    True,
    /// `false`.
    #[token("false")]
    False,
    /// `null`.
    #[token("null")]
    Null,
    /// `{`.
    #[token("{")]
    LBrace,
    /// `}`.
    #[token("}")]
    RBrace,
    /// `[`.
    #[token("[")]
    LBracket,
    /// `]`.
    #[token("]")]
    RBracket,
    /// `(`.
    #[token("(")]
    LParen,
    /// `)`.
    #[token(")")]
    RParen,
    /// `=`.
    #[token("=")]
    Eq,
    /// `,`.
    #[token(",")]
    Comma,
    /// `# …` or `// …` up to (not including) the end of the line. Never reaches the parser.
    #[regex(r"#[^\r\n]*", allow_greedy = true)]
    #[regex(r"//[^\r\n]*", allow_greedy = true)]
    Comment,
    /// Something already reported by the lexer (or cut off by a limit). The parser accepts it
    /// wherever a value or an item may stand, without a second diagnostic.
    Bad,
}

impl Token<'_> {
    /// How the token reads in a message: "`{`", "identifier `url`", "string \"x\"", …
    pub fn describe(&self) -> String {
        match self {
            Token::Ident(name) => format!("identifier `{name}`"),
            Token::Str(raw) => {
                if raw.chars().count() > 32 {
                    let short: String = raw.chars().take(29).collect();
                    format!("string {short}…")
                } else {
                    format!("string {raw}")
                }
            }
            Token::Int(v) => format!("number `{v}`"),
            Token::Float(v) => format!("number `{v}`"),
            Token::Regex(raw) => format!("regular expression {raw}"),
            Token::Bad => "an unreadable token".to_string(),
            other => format!("`{other}`"),
        }
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Ident(s) | Token::Str(s) | Token::Regex(s) => f.write_str(s),
            Token::Int(v) => write!(f, "{v}"),
            Token::Float(v) => write!(f, "{v}"),
            Token::True => f.write_str("true"),
            Token::False => f.write_str("false"),
            Token::Null => f.write_str("null"),
            Token::LBrace => f.write_str("{"),
            Token::RBrace => f.write_str("}"),
            Token::LBracket => f.write_str("["),
            Token::RBracket => f.write_str("]"),
            Token::LParen => f.write_str("("),
            Token::RParen => f.write_str(")"),
            Token::Eq => f.write_str("="),
            Token::Comma => f.write_str(","),
            Token::Comment => f.write_str("comment"),
            Token::Bad => f.write_str("<bad token>"),
        }
    }
}

fn parse_float<'src>(lex: &mut logos::Lexer<'src, Token<'src>>) -> Result<f64, LexError> {
    match lex.slice().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(LexError::NumberTooLarge),
    }
}

/// Scan a regular expression after its opening `/`: the body up to an unescaped `/` on the same
/// line (a backslash escapes the next character, so `\/` is a slash in the body), then any ASCII
/// letters as flags (which flags are allowed is the checker's rule).
fn scan_regex<'src>(lex: &mut logos::Lexer<'src, Token<'src>>) -> Result<&'src str, LexError> {
    let rest = lex.remainder();
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' => {
                let flags = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphabetic())
                    .count();
                lex.bump(i + 1 + flags);
                return Ok(lex.slice());
            }
            b'\n' | b'\r' => break,
            b'\\' => match rest[i + 1..].chars().next() {
                None | Some('\n') | Some('\r') => {
                    i += 1;
                    break;
                }
                Some(c) => i += 1 + c.len_utf8(),
            },
            _ => i += 1,
        }
    }
    lex.bump(i.min(bytes.len()));
    Err(LexError::UnterminatedRegex)
}

/// The body and flags of a raw regular expression token (`/a\/b/i` → (`a\/b`, `i`)). The body
/// is kept as written: `\/` stays, as a JavaScript `RegExp` source would have it.
pub fn split_regex(raw: &str) -> (&str, &str) {
    let inner = raw.strip_prefix('/').unwrap_or(raw);
    match inner.rfind('/') {
        Some(end) => (&inner[..end], &inner[end + 1..]),
        None => (inner, ""),
    }
}

/// Scan a block string after its opening `"""`: everything up to the next `"""`, newlines
/// included; unterminated at the end of the file.
fn scan_block<'src>(lex: &mut logos::Lexer<'src, Token<'src>>) -> Result<&'src str, LexError> {
    match lex.remainder().find(BLOCK_QUOTE) {
        Some(end) => {
            lex.bump(end + BLOCK_QUOTE.len());
            Ok(lex.slice())
        }
        None => {
            lex.bump(lex.remainder().len());
            Err(LexError::UnterminatedString)
        }
    }
}

/// The delimiter of a block string.
pub const BLOCK_QUOTE: &str = "\"\"\"";

/// The value of a block string's body (between its `"""`s), as written for multi-line text
/// such as an `aria_snapshot` outline: a line break right after the opening quotes is dropped, so
/// is a last line of only spaces before the closing ones, and the indentation all non-blank
/// lines share is removed. Backslashes are kept as written (a regular expression inside reads
/// as it would in JavaScript).
///
/// Why no escapes: the text is usually an outline full of `"` and `\d`; escaping them would make
/// it unreadable, and `"""` is the one sequence it cannot hold.
pub fn dedent_block(body: &str) -> String {
    let body = body
        .strip_prefix("\r\n")
        .or_else(|| body.strip_prefix('\n'))
        .unwrap_or(body);
    let mut lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if lines.len() > 1 && lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    let kept: Vec<&str> = lines
        .iter()
        .map(|l| {
            if l.trim().is_empty() {
                ""
            } else {
                &l[indent..]
            }
        })
        .collect();
    kept.join("\n")
}

/// Scan a string body after its opening `quote`; the closing quote must sit on the same line.
fn scan_string<'src>(
    lex: &mut logos::Lexer<'src, Token<'src>>,
    quote: u8,
) -> Result<&'src str, LexError> {
    let rest = lex.remainder().as_bytes();
    let mut i = 0;
    while i < rest.len() {
        let b = rest[i];
        if b == quote {
            lex.bump(i + 1);
            return Ok(lex.slice());
        }
        match b {
            b'\n' | b'\r' => break,
            // The escaped character is skipped whole (it may be multi-byte); escape validity is
            // checked later, so that one bad escape does not hide the rest of the string.
            b'\\' => match rest.get(i + 1) {
                None | Some(b'\n') | Some(b'\r') => {
                    i += 1;
                    break;
                }
                Some(_) => {
                    let ch_len = lex.remainder()[i + 1..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8);
                    i += 1 + ch_len;
                }
            },
            _ => i += 1,
        }
    }
    lex.bump(i.min(rest.len()));
    Err(LexError::UnterminatedString)
}

/// The output of [`lex`]: the tokens the parser reads, the comments, and lexical diagnostics.
#[derive(Debug, Clone, Default)]
pub struct Lexed<'src> {
    /// Tokens with their spans, comments excluded, in source order.
    pub tokens: Vec<(Token<'src>, Span)>,
    /// Comments in source order.
    pub comments: Vec<Comment>,
    /// Invalid tokens, unterminated strings, invalid escapes, numbers too large.
    pub diagnostics: Vec<Diagnostic>,
}

/// Lex a whole source. Never panics; every byte is either in a token, a comment, whitespace, or
/// covered by a diagnostic.
pub fn lex(source: &str) -> Lexed<'_> {
    let mut out = Lexed {
        tokens: Vec::with_capacity(source.len() / 3 + 16),
        ..Lexed::default()
    };
    let mut lexer = Token::lexer(source);
    // Consecutive invalid characters are reported once, as one span.
    let mut pending_invalid: Option<Span> = None;
    while let Some(result) = lexer.next() {
        let span = Span::from(lexer.span());
        if let Err(LexError::InvalidToken) = result {
            pending_invalid = Some(match pending_invalid {
                Some(prev) if prev.end == span.start => prev.join(span),
                Some(prev) => {
                    report_invalid(source, prev, &mut out);
                    span
                }
                None => span,
            });
            continue;
        }
        if let Some(prev) = pending_invalid.take() {
            report_invalid(source, prev, &mut out);
        }
        match result {
            Ok(Token::Comment) => {
                out.comments.push(Comment {
                    text: source[span.range()].to_string(),
                    span,
                });
            }
            Ok(token) => {
                if let Token::Str(raw) = token {
                    if !raw.starts_with(BLOCK_QUOTE) {
                        check_escapes(raw, span.start, &mut out.diagnostics);
                    }
                }
                out.tokens.push((token, span));
            }
            Err(LexError::UnterminatedString) => {
                let message = if source[span.range()].starts_with(BLOCK_QUOTE) {
                    "block string is not closed with `\"\"\"` before the end of the file"
                } else {
                    "string is not closed before the end of its line"
                };
                out.diagnostics.push(Diagnostic::error(
                    Code::UnterminatedString,
                    "",
                    span,
                    message,
                ));
                out.tokens.push((Token::Bad, span));
            }
            Err(LexError::UnterminatedRegex) => {
                out.diagnostics.push(Diagnostic::error(
                    Code::UnterminatedRegex,
                    "",
                    span,
                    "regular expression is not closed with `/` before the end of its line",
                ));
                out.tokens.push((Token::Bad, span));
            }
            Err(LexError::NumberTooLarge) => {
                out.diagnostics.push(Diagnostic::error(
                    Code::NumberTooLarge,
                    "",
                    span,
                    format!(
                        "number `{}` is too large; integers must fit in 64 bits",
                        &source[span.range()]
                    ),
                ));
                out.tokens.push((Token::Bad, span));
            }
            Err(LexError::InvalidToken) => unreachable!("handled above"),
        }
    }
    if let Some(prev) = pending_invalid.take() {
        report_invalid(source, prev, &mut out);
    }
    out
}

fn report_invalid(source: &str, span: Span, out: &mut Lexed<'_>) {
    let text = source.get(span.range()).unwrap_or("");
    let shown: String = text.chars().take(16).flat_map(char::escape_debug).collect();
    let message = if text.chars().count() == 1 {
        format!("unexpected character `{shown}`")
    } else {
        format!("unexpected characters `{shown}`")
    };
    out.diagnostics
        .push(Diagnostic::error(Code::InvalidToken, "", span, message));
    out.tokens.push((Token::Bad, span));
}

/// One escape sequence found in a raw string.
enum Escape {
    /// A valid escape decoding to this character; `len` bytes long from the backslash.
    Char(char, usize),
    /// An invalid escape `len` bytes long from the backslash.
    Invalid(usize, &'static str),
}

/// Read the escape starting at `body[i] == '\\'`.
fn read_escape(body: &str, i: usize) -> Escape {
    let rest = &body[i + 1..];
    let Some(c) = rest.chars().next() else {
        return Escape::Invalid(1, "a backslash must be followed by an escape character");
    };
    let simple = match c {
        '"' => Some('"'),
        '\'' => Some('\''),
        '\\' => Some('\\'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        _ => None,
    };
    if let Some(ch) = simple {
        return Escape::Char(ch, 2);
    }
    if c != 'u' {
        return Escape::Invalid(1 + c.len_utf8(), "unknown escape");
    }
    let after_u = &rest[1..];
    if !after_u.starts_with('{') {
        return Escape::Invalid(2, "`\\u` must be followed by `{XXXX}`");
    }
    let digits: &str = &after_u[1..];
    let hex_len = digits.bytes().take_while(u8::is_ascii_hexdigit).count();
    if !digits[hex_len..].starts_with('}') {
        return Escape::Invalid(
            3 + hex_len,
            "`\\u{` must hold 1 to 6 hex digits and a closing `}`",
        );
    }
    let len = 4 + hex_len;
    if hex_len == 0 || hex_len > 6 {
        return Escape::Invalid(len, "`\\u{…}` must hold 1 to 6 hex digits");
    }
    match u32::from_str_radix(&digits[..hex_len], 16)
        .ok()
        .and_then(char::from_u32)
    {
        Some(ch) => Escape::Char(ch, len),
        None => Escape::Invalid(len, "`\\u{…}` is not a Unicode scalar value"),
    }
}

fn check_escapes(raw: &str, start: usize, diagnostics: &mut Vec<Diagnostic>) {
    if !raw.contains('\\') {
        return;
    }
    let body = &raw[1..raw.len() - 1];
    let mut i = 0;
    while let Some(off) = body[i..].find('\\') {
        let at = i + off;
        match read_escape(body, at) {
            Escape::Char(_, len) => i = at + len,
            Escape::Invalid(len, why) => {
                let len = len.min(body.len() - at);
                let from = start + 1 + at;
                let text = &body[at..at + len];
                diagnostics.push(Diagnostic::error(
                    Code::InvalidEscape,
                    "",
                    Span::new(from, from + len),
                    format!("invalid escape `{text}` in string: {why}"),
                ));
                i = at + len;
            }
        }
    }
}

/// Decode a raw string token (quotes included) when every escape in it is valid; `None` as soon
/// as one is not. The parser's fast path uses it: one pass both checks and decodes.
pub(crate) fn decode_valid_string(raw: &str) -> Option<String> {
    decode(raw, false)
}

/// Decode a raw string token (quotes included) into its value. Invalid escapes, already
/// reported by [`lex`], are kept as written.
pub fn decode_string(raw: &str) -> String {
    decode(raw, true).unwrap_or_default()
}

/// The one decoding loop: an invalid escape is kept as written (`keep_invalid`) or ends decoding
/// with `None`.
fn decode(raw: &str, keep_invalid: bool) -> Option<String> {
    if let Some(body) = raw
        .strip_prefix(BLOCK_QUOTE)
        .and_then(|r| r.strip_suffix(BLOCK_QUOTE))
    {
        return Some(dedent_block(body));
    }
    let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
    if !body.contains('\\') {
        return Some(body.to_string());
    }
    let mut out = String::with_capacity(body.len());
    let mut i = 0;
    while let Some(off) = body[i..].find('\\') {
        let at = i + off;
        out.push_str(&body[i..at]);
        match read_escape(body, at) {
            Escape::Char(ch, len) => {
                out.push(ch);
                i = at + len;
            }
            Escape::Invalid(..) if !keep_invalid => return None,
            Escape::Invalid(len, _) => {
                let len = len.min(body.len() - at);
                out.push_str(&body[at..at + len]);
                i = at + len;
            }
        }
    }
    out.push_str(&body[i..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Token<'_>> {
        lex(src).tokens.into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn a_block_string_spans_lines_keeps_backslashes_and_is_dedented() {
        let src = "x = \"\"\"\n      - heading \"Cart\" [level=1]\n        - text /\\d+ items/\n\n      - button\n    \"\"\"\ny = 1";
        let lexed = lex(src);
        assert!(lexed.diagnostics.is_empty(), "{:?}", lexed.diagnostics);
        let Token::Str(raw) = lexed.tokens[2].0 else {
            panic!("{:?}", lexed.tokens)
        };
        assert_eq!(
            decode_string(raw),
            "- heading \"Cart\" [level=1]\n  - text /\\d+ items/\n\n- button"
        );
        assert_eq!(lexed.tokens[3].0, Token::Ident("y"));
        assert_eq!(decode_string("\"\"\"\"\"\""), "");
        assert_eq!(decode_string("\"\"\"one line\"\"\""), "one line");
    }

    #[test]
    fn an_unclosed_block_string_runs_to_the_end_of_the_file() {
        let src = "x = \"\"\"\n - a\n";
        let lexed = lex(src);
        assert_eq!(lexed.diagnostics.len(), 1);
        assert_eq!(lexed.diagnostics[0].code, Code::UnterminatedString);
        assert!(lexed.diagnostics[0].message.contains("end of the file"));
        assert_eq!(lexed.diagnostics[0].span, Span::new(4, src.len()));
    }

    #[test]
    fn lexes_the_vocabulary_with_spans() {
        let src = "click \"pay\" { target = role(\"button\", 'Pay') n = -12 f = 1.5 ok = [true, false, null] }";
        let lexed = lex(src);
        assert!(lexed.diagnostics.is_empty(), "{:?}", lexed.diagnostics);
        let (first, span) = lexed.tokens[0];
        assert_eq!(first, Token::Ident("click"));
        assert_eq!(span, Span::new(0, 5));
        assert_eq!(lexed.tokens[1], (Token::Str("\"pay\""), Span::new(6, 11)));
        assert!(kinds(src).contains(&Token::Int(-12)));
        assert!(kinds(src).contains(&Token::Float(1.5)));
        assert!(kinds(src).contains(&Token::Str("'Pay'")));
        assert!(kinds(src).contains(&Token::Null));
    }

    #[test]
    fn keywords_are_whole_words_only() {
        assert_eq!(
            kinds("true trueish null_x"),
            vec![Token::True, Token::Ident("trueish"), Token::Ident("null_x")]
        );
    }

    #[test]
    fn comments_are_split_out_with_spans() {
        let src = "a { # one\n  b = 1 // two\r\n}";
        let lexed = lex(src);
        assert_eq!(lexed.comments.len(), 2);
        assert_eq!(lexed.comments[0].text, "# one");
        assert_eq!(lexed.comments[0].span, Span::new(4, 9));
        assert_eq!(lexed.comments[1].text, "// two");
        assert_eq!(lexed.tokens.len(), 6);
    }

    #[test]
    fn decodes_every_escape() {
        assert_eq!(
            decode_string(r#""a\"b\\c\nd\re\tf\u{1F600}\u{41}""#),
            "a\"b\\c\nd\re\tf😀A"
        );
        assert_eq!(decode_string(r"'it\'s'"), "it's");
        assert_eq!(decode_string("\"plain\""), "plain");
    }

    #[test]
    fn invalid_escapes_are_reported_with_exact_spans() {
        let src = r#"x = "a\qb\u{110000}c\u12""#;
        let lexed = lex(src);
        let spans: Vec<_> = lexed
            .diagnostics
            .iter()
            .map(|d| (d.code, &src[d.span.range()]))
            .collect();
        assert_eq!(
            spans,
            vec![
                (Code::InvalidEscape, r"\q"),
                (Code::InvalidEscape, r"\u{110000}"),
                (Code::InvalidEscape, r"\u")
            ]
        );
        assert!(matches!(lexed.tokens[2].0, Token::Str(_)));
    }

    #[test]
    fn unterminated_string_stops_at_end_of_line() {
        let src = "a = \"open\nb = 1";
        let lexed = lex(src);
        assert_eq!(lexed.diagnostics.len(), 1);
        assert_eq!(lexed.diagnostics[0].code, Code::UnterminatedString);
        assert_eq!(lexed.diagnostics[0].span, Span::new(4, 9));
        assert_eq!(
            kinds(src),
            vec![
                Token::Ident("a"),
                Token::Eq,
                Token::Bad,
                Token::Ident("b"),
                Token::Eq,
                Token::Int(1)
            ]
        );
        // A trailing backslash does not escape the newline.
        let lexed = lex("\"abc\\\n\"");
        assert_eq!(lexed.diagnostics[0].code, Code::UnterminatedString);
        assert_eq!(lexed.diagnostics[0].span, Span::new(0, 5));
    }

    #[test]
    fn invalid_characters_are_grouped() {
        let src = "a @@é$ b ~";
        let lexed = lex(src);
        let found: Vec<_> = lexed
            .diagnostics
            .iter()
            .map(|d| (d.code, &src[d.span.range()]))
            .collect();
        assert_eq!(
            found,
            vec![(Code::InvalidToken, "@@é$"), (Code::InvalidToken, "~")]
        );
        assert_eq!(
            kinds(src),
            vec![Token::Ident("a"), Token::Bad, Token::Ident("b"), Token::Bad]
        );
    }

    #[test]
    fn numbers_too_large_are_reported() {
        let src = "n = 99999999999999999999 m = -9223372036854775808";
        let lexed = lex(src);
        assert_eq!(lexed.diagnostics.len(), 1);
        assert_eq!(lexed.diagnostics[0].code, Code::NumberTooLarge);
        assert_eq!(
            &src[lexed.diagnostics[0].span.range()],
            "99999999999999999999"
        );
        assert!(kinds(src).contains(&Token::Int(i64::MIN)));
    }

    #[test]
    fn byte_order_mark_is_whitespace() {
        assert_eq!(kinds("\u{FEFF}a"), vec![Token::Ident("a")]);
    }
}
