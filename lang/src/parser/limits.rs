//! The structural limits of `docs/acl.md` §1 (nesting depth, list length), checked around the
//! parser.
//!
//! Why a pre-scan: the parser is recursive, and a file of 100,000 `[` must neither overflow the
//! stack nor take long. [`guard_nesting`] walks the token stream once with an explicit stack and,
//! in the common case, hands it back untouched. When a group opens deeper than
//! [`MAX_NESTING_DEPTH`] (blocks, lists and calls counted together) it reports it once and
//! replaces that group's contents with one [`Token::Bad`], so neither parser ever nests deeper
//! than the limit plus one, whatever the input. The same scan counts commas, so that the flat
//! list-length check ([`check_list_lengths`], which replaces an over-long list with
//! [`ValueKind::Error`] so the checker does not also walk it) only runs when a list may be long.
//!
//! [`unclosed_block`] pairs braces the same way to report a missing `}` at the block that lacks
//! it rather than at the end of the file.

use crate::ast::{self, Document, Item, Value, ValueKind};
use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::span::Span;
use crate::{MAX_LIST_ITEMS, MAX_NESTING_DEPTH};

/// The token stream after the nesting guard.
#[derive(Debug, Default)]
pub(crate) struct Guarded<'src> {
    /// Tokens the parser reads.
    pub tokens: Vec<(Token<'src>, Span)>,
    /// True when some list may hold more than [`MAX_LIST_ITEMS`] items (by its commas), so the
    /// parsed document must be checked with [`check_list_lengths`].
    pub may_have_long_lists: bool,
}

fn closes(open: Token<'_>, close: Token<'_>) -> bool {
    matches!(
        (open, close),
        (Token::LBrace, Token::RBrace)
            | (Token::LBracket, Token::RBracket)
            | (Token::LParen, Token::RParen)
    )
}

fn is_open(t: Token<'_>) -> bool {
    matches!(t, Token::LBrace | Token::LBracket | Token::LParen)
}

fn is_close(t: Token<'_>) -> bool {
    matches!(t, Token::RBrace | Token::RBracket | Token::RParen)
}

/// Pop `stack` down to the nearest opener that `close` matches; the openers above it are
/// abandoned (returned through `abandoned`). A closer that matches nothing open changes nothing.
/// This is what the parser's recovery does with a mismatched closer.
fn pop_to_match<T: Copy>(
    stack: &mut Vec<(Token<'_>, T)>,
    close: Token<'_>,
    mut abandoned: impl FnMut(Token<'_>, T),
) -> Option<T> {
    let depth = stack.iter().rposition(|(open, _)| closes(*open, close))?;
    for (open, at) in stack.drain(depth + 1..) {
        abandoned(open, at);
    }
    stack.pop().map(|(_, at)| at)
}

/// Enforce [`MAX_NESTING_DEPTH`] on the token stream without recursion (see the module doc).
///
/// The common case (nothing too deep) only scans: the token vector is handed back untouched.
pub(crate) fn guard_nesting<'src>(
    tokens: Vec<(Token<'src>, Span)>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Guarded<'src> {
    // (opener, commas seen directly inside it)
    let mut stack: Vec<(Token<'src>, usize)> = Vec::with_capacity(MAX_NESTING_DEPTH);
    let mut may_have_long_lists = false;
    let mut too_deep = false;
    for (token, _) in &tokens {
        match token {
            Token::LBrace | Token::LBracket | Token::LParen => {
                if stack.len() == MAX_NESTING_DEPTH {
                    too_deep = true;
                    break;
                }
                stack.push((*token, 0));
            }
            Token::RBrace | Token::RBracket | Token::RParen => {
                pop_to_match(&mut stack, *token, |_, _| {});
            }
            Token::Comma => {
                if let Some((_, commas)) = stack.last_mut() {
                    *commas += 1;
                    may_have_long_lists |= *commas >= MAX_LIST_ITEMS;
                }
            }
            _ => {}
        }
    }
    if !too_deep {
        return Guarded {
            tokens,
            may_have_long_lists,
        };
    }
    Guarded {
        tokens: collapse_deep_groups(&tokens, diagnostics),
        may_have_long_lists: true,
    }
}

/// Copy `tokens`, replacing the contents of every group that opens deeper than the limit by one
/// [`Token::Bad`] (the group's brackets stay, so the parser sees an empty, unreadable group).
fn collapse_deep_groups<'src>(
    tokens: &[(Token<'src>, Span)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(Token<'src>, Span)> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut stack: Vec<(Token<'src>, ())> = Vec::with_capacity(MAX_NESTING_DEPTH);
    let mut reported = false;
    let mut i = 0;
    while i < tokens.len() {
        let (token, span) = tokens[i];
        out.push((token, span));
        i += 1;
        if is_close(token) {
            pop_to_match(&mut stack, token, |_, _| {});
            continue;
        }
        if !is_open(token) {
            continue;
        }
        if stack.len() < MAX_NESTING_DEPTH {
            stack.push((token, ()));
            continue;
        }
        // One report per file: a runaway nesting (e.g. `{ ]` repeated) is one mistake.
        if !reported {
            reported = true;
            diagnostics.push(Diagnostic::error(
                Code::NestingTooDeep,
                "",
                span,
                format!(
                    "`{token}` opens nesting level {}; the limit is {MAX_NESTING_DEPTH}",
                    stack.len() + 1
                ),
            ));
        }
        // Collapse everything up to the matching closer (by depth, any bracket kind), and keep
        // that closer.
        let from = i;
        let mut depth = 1usize;
        while i < tokens.len() {
            let t = tokens[i].0;
            if is_open(t) {
                depth += 1;
            } else if is_close(t) {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            i += 1;
        }
        if i > from {
            out.push((Token::Bad, tokens[from].1.join(tokens[i - 1].1)));
        }
        if let Some(&closer) = tokens.get(i) {
            out.push(closer);
            i += 1;
        }
    }
    out
}

/// Report and replace every list longer than [`MAX_LIST_ITEMS`]. Iterative.
pub(crate) fn check_list_lengths(document: &mut Document, diagnostics: &mut Vec<Diagnostic>) {
    let mut values: Vec<&mut Value> = Vec::new();
    let mut blocks: Vec<&mut ast::Block> = document.blocks.iter_mut().collect();
    while let Some(block) = blocks.pop() {
        for item in &mut block.items {
            match item {
                Item::Attribute(a) => values.push(&mut a.value),
                Item::Block(b) => blocks.push(b),
            }
        }
    }
    while let Some(value) = values.pop() {
        let too_long =
            matches!(&value.kind, ValueKind::List(items) if items.len() > MAX_LIST_ITEMS);
        if too_long {
            let count = match &value.kind {
                ValueKind::List(items) => items.len(),
                _ => 0,
            };
            diagnostics.push(Diagnostic::error(
                Code::ListTooLong,
                "",
                value.span,
                format!("list has {count} items; the limit is {MAX_LIST_ITEMS}"),
            ));
            value.kind = ValueKind::Error;
            continue;
        }
        match &mut value.kind {
            ValueKind::List(items) | ValueKind::Call { args: items, .. } => {
                values.extend(items.iter_mut())
            }
            ValueKind::Named { value, .. } => values.push(value),
            ValueKind::Object(entries) => values.extend(entries.iter_mut().map(|e| &mut e.value)),
            _ => {}
        }
    }
}

/// Line starts of a source, for indentation questions in time logarithmic in the file size.
struct Lines<'s> {
    source: &'s str,
    starts: Vec<usize>,
}

impl<'s> Lines<'s> {
    fn new(source: &'s str) -> Self {
        let starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { source, starts }
    }

    /// 1-based line number of `offset`.
    fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }

    /// Columns of indentation of the line holding `offset`, and whether `offset` is the first
    /// non-blank character of that line.
    fn indentation(&self, offset: usize) -> (usize, bool) {
        let start = self.starts[self.line(offset) - 1];
        let line = &self.source[start..];
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        (indent, start + indent == offset)
    }
}

/// A `}` missing at the end of the file, reported at the block that most likely lacks it.
///
/// Heuristic: with braces unclosed at the end of the file, the first `}` (in source order) that
/// sits on its own line at a different indentation than the line of the `{` it was paired with
/// shows where the nesting went wrong: it was written for an outer block, so the block it
/// closed instead is the one missing its `}`. Without such a pair, the
/// innermost unclosed block is blamed. The message says before which line the `}` belongs.
pub(crate) fn unclosed_block(
    source: &str,
    tokens: &[(Token<'_>, Span)],
    document: &Document,
) -> Option<Diagnostic> {
    // Pair braces the way the parser's recovery does (see `pop_to_match`).
    let mut stack: Vec<(Token<'_>, usize)> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut unclosed: Vec<usize> = Vec::new();
    for (i, (token, _)) in tokens.iter().enumerate() {
        if is_open(*token) {
            stack.push((*token, i));
        } else if is_close(*token) {
            let open = pop_to_match(&mut stack, *token, |t, at| {
                if t == Token::LBrace {
                    unclosed.push(at);
                }
            });
            if let (Some(open), Token::RBrace) = (open, token) {
                pairs.push((open, i));
            }
        }
    }
    unclosed.extend(
        stack
            .iter()
            .filter(|(t, _)| *t == Token::LBrace)
            .map(|(_, at)| *at),
    );
    let innermost = unclosed.iter().copied().max()?;
    let lines = Lines::new(source);
    let suspect = pairs
        .iter()
        .filter(|(open, close)| {
            let (open_indent, _) = lines.indentation(tokens[*open].1.start);
            let (close_indent, first) = lines.indentation(tokens[*close].1.start);
            first && close_indent != open_indent
        })
        .min_by_key(|(_, close)| *close)
        .map(|(open, _)| *open);
    let open = suspect.unwrap_or(innermost);
    let open_span = tokens[open].1;
    let (indent, _) = lines.indentation(open_span.start);
    let open_line = lines.line(open_span.start);
    // The first later line that starts at or left of the opener's indentation.
    let before = tokens[open + 1..]
        .iter()
        .map(|(_, s)| s.start)
        .find(|&at| {
            let (i, first) = lines.indentation(at);
            first && i <= indent && lines.line(at) > open_line
        })
        .map(|at| format!("before line {}", lines.line(at)))
        .unwrap_or_else(|| "before the end of the file".to_string());
    let name = match (
        open.checked_sub(2).map(|i| tokens[i].0),
        open.checked_sub(1).map(|i| tokens[i].0),
    ) {
        (Some(Token::Ident(kind)), Some(Token::Str(label))) => format!("block `{kind} {label}`"),
        (_, Some(Token::Ident(kind))) => format!("block `{kind}`"),
        _ => "this block".to_string(),
    };
    Some(Diagnostic::error(
        Code::Syntax,
        ast::logical_path(document, open_span),
        open_span,
        format!("{name} is never closed: expected `}}` {before}"),
    ))
}

#[cfg(test)]
mod tests {
    use crate::code::Code;
    use crate::parser::parse;

    /// Parse `src` and return its diagnostic codes. The parse must return at all: deep nesting is
    /// cut off by the depth limit instead of recursing until the stack overflows.
    fn codes(src: &str) -> Vec<Code> {
        let (_, diags) = parse(src);
        diags.iter().map(|d| d.code).collect()
    }

    #[test]
    fn a_hundred_thousand_brackets_are_one_diagnostic() {
        for opener in ["[", "{", "(", "f(", "a {", "a = [", "x \"l\" {"] {
            let src = format!("suite {{ v = {} }}", opener.repeat(100_000));
            let codes = codes(&src);
            assert!(codes.contains(&Code::NestingTooDeep), "{opener}: {codes:?}");
            assert_eq!(
                codes.iter().filter(|c| **c == Code::NestingTooDeep).count(),
                1,
                "{opener}"
            );
        }
    }

    #[test]
    fn nesting_at_the_limit_is_accepted_and_one_more_is_not() {
        // Root block (1) + 62 lists + ... : depth counts blocks, lists and calls together.
        let within = format!("a {{ v = {}1{} }}", "[".repeat(63), "]".repeat(63));
        assert_eq!(codes(&within), vec![]);
        let beyond = format!("a {{ v = {}1{} }}", "[".repeat(64), "]".repeat(64));
        assert_eq!(codes(&beyond), vec![Code::NestingTooDeep]);
        let blocks = format!("{}{}", "a { ".repeat(65), "} ".repeat(65));
        assert_eq!(codes(&blocks), vec![Code::NestingTooDeep]);
    }

    #[test]
    fn list_length_limit() {
        let items = vec!["1"; crate::MAX_LIST_ITEMS].join(",");
        assert_eq!(codes(&format!("a {{ v = [{items}] }}")), vec![]);
        let (doc, diags) = parse(&format!("a {{ v = [{items}, 2] }}"));
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::ListTooLong);
        assert_eq!(diags[0].path, "a.v");
        let crate::ast::Item::Attribute(a) = &doc.blocks[0].items[0] else {
            panic!()
        };
        assert_eq!(a.value.kind, crate::ast::ValueKind::Error);
    }

    #[test]
    fn pathological_junk_terminates() {
        for junk in [
            "}", "]", ")", "=", ",", "a", "\"s\"", "a =", "a b", "{ ]", "[ }", "@", "a(", "a = [",
        ] {
            let src = format!("suite \"s\" {{ {} }}", junk.repeat(20_000));
            let _ = codes(&src);
            let _ = codes(&junk.repeat(20_000));
        }
    }
}
