//! Semantic tokens: block kinds, labels, attribute names, values, functions and comments, read
//! from the syntax tree so a token's class follows what the parser made of it.

use crate::core::syntax;
use a3s_test_lang::ast::{Item, Value, ValueKind};
use a3s_test_lang::Span;

/// A token class; the order is the legend's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum TokenKind {
    /// A block kind.
    Keyword,
    /// An attribute name.
    Property,
    /// A string (a label is a string with the declaration modifier).
    String,
    /// A number.
    Number,
    /// A function name.
    Function,
    /// A comment.
    Comment,
    /// A regular expression.
    Regexp,
    /// `true`, `false`, `null`.
    EnumMember,
    /// A named argument.
    Parameter,
}

impl TokenKind {
    /// The legend, in [`TokenKind`] order: the protocol's standard token type names.
    pub const LEGEND: &'static [&'static str] = &[
        "keyword",
        "property",
        "string",
        "number",
        "function",
        "comment",
        "regexp",
        "enumMember",
        "parameter",
    ];
}

/// One classified span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Token {
    /// The bytes.
    pub span: Span,
    /// The class.
    pub kind: TokenKind,
    /// True for a block's label: the name it declares.
    pub declaration: bool,
}

/// Every token of `text` in source order, none overlapping.
pub fn tokens(text: &str) -> Vec<Token> {
    let document = syntax::parse(text);
    let mut out = Vec::new();
    let push = |out: &mut Vec<Token>, span: Span, kind| {
        out.push(Token {
            span,
            kind,
            declaration: false,
        })
    };
    syntax::walk(&document, |block, _| {
        push(&mut out, block.kind.span, TokenKind::Keyword);
        if let Some(label) = &block.label {
            out.push(Token {
                span: label.span,
                kind: TokenKind::String,
                declaration: true,
            });
        }
        for item in &block.items {
            if let Item::Attribute(a) = item {
                push(&mut out, a.name.span, TokenKind::Property);
                value_tokens(&a.value, &mut out);
            }
        }
    });
    for comment in &document.comments {
        push(&mut out, comment.span, TokenKind::Comment);
    }
    out.sort_by_key(|t| (t.span.start, t.span.end));
    out.dedup_by(|b, a| b.span.start < a.span.end);
    out
}

fn value_tokens(value: &Value, out: &mut Vec<Token>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        let kind = match &v.kind {
            ValueKind::String(_) => TokenKind::String,
            ValueKind::Integer(_) | ValueKind::Float(_) => TokenKind::Number,
            ValueKind::Bool(_) | ValueKind::Null => TokenKind::EnumMember,
            ValueKind::Regex { .. } => TokenKind::Regexp,
            ValueKind::Call { name, args } => {
                out.push(plain(name.span, TokenKind::Function));
                stack.extend(args.iter());
                continue;
            }
            ValueKind::Named { name, value } => {
                out.push(plain(name.span, TokenKind::Parameter));
                stack.push(value);
                continue;
            }
            ValueKind::List(items) => {
                stack.extend(items.iter());
                continue;
            }
            ValueKind::Object(entries) => {
                for entry in entries {
                    out.push(plain(entry.name.span, TokenKind::Property));
                    stack.push(&entry.value);
                }
                continue;
            }
            ValueKind::Error => continue,
        };
        out.push(plain(v.span, kind));
    }
}

fn plain(span: Span, kind: TokenKind) -> Token {
    Token {
        span,
        kind,
        declaration: false,
    }
}
