//! The fast path of the parser: one streaming pass of plain recursive descent over the lexer,
//! for files without any error, giving up at the first thing that does not fit.
//!
//! Why it exists: nearly every file the toolchain reads is valid, and for those the general
//! machinery costs more than the reading itself — a token vector of several megabytes for a
//! large suite (whose allocation also makes the allocator consolidate every chunk the previous
//! file freed), the nesting pre-scan, and chumsky's backtracking bookkeeping, recovery
//! checkpoints and dynamic dispatch. This reader pulls tokens straight from logos with one token
//! of look-ahead and builds the *same* document (nodes, spans and comments; property tests
//! compare it with the chumsky parser's). It returns `None` on anything unexpected — a lexical
//! error, an invalid escape, a grammar mismatch, nesting deeper than
//! [`crate::MAX_NESTING_DEPTH`] or a list longer than [`crate::MAX_LIST_ITEMS`] — and the full
//! path then lexes, guards and parses the file again with recovery, reporting every problem.
//! Errors therefore have one authority (chumsky), and this reader accepts exactly the files that
//! parse without a diagnostic.
//!
//! Recursion is bounded by the depth check, which runs before each descent.

use crate::ast::{Attribute, Block, Comment, Document, Ident, Item, StringLit, Value, ValueKind};
use crate::lexer::{decode_valid_string, Token};
use crate::span::Span;
use crate::{MAX_LIST_ITEMS, MAX_NESTING_DEPTH};
use logos::Logos;

/// Parse a source that holds no error; `None` as soon as something is wrong or over a limit.
pub(super) fn parse_valid(source: &str) -> Option<Document> {
    let mut reader = Reader {
        source,
        lexer: Token::lexer(source),
        peeked: None,
        comments: Vec::new(),
        depth: 0,
    };
    let mut blocks = Vec::new();
    while reader.peek()?.is_some() {
        let kind = reader.ident()?;
        blocks.push(reader.block_after_kind(kind)?);
    }
    Some(Document {
        blocks,
        comments: reader.comments,
    })
}

struct Reader<'src> {
    source: &'src str,
    lexer: logos::Lexer<'src, Token<'src>>,
    /// The look-ahead token, when one was peeked.
    peeked: Option<(Token<'src>, Span)>,
    comments: Vec<Comment>,
    /// Open blocks, lists and calls.
    depth: usize,
}

impl<'src> Reader<'src> {
    /// The next token without consuming it: `Some(None)` at the end of the file, `None` on a
    /// lexical error.
    fn peek(&mut self) -> Option<Option<(Token<'src>, Span)>> {
        if self.peeked.is_none() {
            self.peeked = self.pull()?;
        }
        Some(self.peeked)
    }

    /// Pull the next non-comment token from the lexer (comments are kept as they pass).
    fn pull(&mut self) -> Option<Option<(Token<'src>, Span)>> {
        loop {
            let Some(result) = self.lexer.next() else {
                return Some(None);
            };
            let span = Span::from(self.lexer.span());
            match result.ok()? {
                Token::Comment => self.comments.push(Comment {
                    text: self.source[span.range()].to_string(),
                    span,
                }),
                token => return Some(Some((token, span))),
            }
        }
    }

    /// Consume the next token; `None` on a lexical error or at the end of the file.
    fn next(&mut self) -> Option<(Token<'src>, Span)> {
        match self.peeked.take() {
            Some(t) => Some(t),
            None => self.pull()?,
        }
    }

    fn expect(&mut self, expected: Token<'_>) -> Option<Span> {
        match self.next()? {
            (t, span) if t == expected => Some(span),
            _ => None,
        }
    }

    fn ident(&mut self) -> Option<Ident> {
        match self.next()? {
            (Token::Ident(name), span) => Some(Ident {
                name: name.to_string(),
                span,
            }),
            _ => None,
        }
    }

    /// Enter a block, list or call; `None` past the nesting limit.
    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_NESTING_DEPTH).then_some(())
    }

    /// `"label"? { item* }` after the block kind.
    fn block_after_kind(&mut self, kind: Ident) -> Option<Block> {
        let label = match self.peek()? {
            Some((Token::Str(raw), span)) => {
                self.peeked = None;
                Some(StringLit {
                    value: decode_valid_string(raw)?,
                    span,
                })
            }
            _ => None,
        };
        self.expect(Token::LBrace)?;
        self.enter()?;
        let mut items = Vec::new();
        let close = loop {
            match self.next()? {
                (Token::RBrace, span) => break span,
                (Token::Ident(name), span) => {
                    let name = Ident {
                        name: name.to_string(),
                        span,
                    };
                    if matches!(self.peek()?, Some((Token::Eq, _))) {
                        self.peeked = None;
                        let value = self.value()?;
                        let span = name.span.join(value.span);
                        items.push(Item::Attribute(Attribute { name, value, span }));
                    } else {
                        items.push(Item::Block(self.block_after_kind(name)?));
                    }
                }
                _ => return None,
            }
        };
        self.depth -= 1;
        let span = kind.span.join(close);
        Some(Block {
            kind,
            label,
            items,
            span,
        })
    }

    fn value(&mut self) -> Option<Value> {
        let (token, span) = self.next()?;
        let kind = match token {
            Token::Str(raw) => ValueKind::String(decode_valid_string(raw)?),
            Token::Regex(raw) => super::regex_value(raw),
            Token::Int(v) => ValueKind::Integer(v),
            Token::Float(v) => ValueKind::Float(v),
            Token::True => ValueKind::Bool(true),
            Token::False => ValueKind::Bool(false),
            Token::Null => ValueKind::Null,
            Token::LBracket => {
                let (items, close) = self.elements(Token::RBracket)?;
                return Some(Value {
                    kind: ValueKind::List(items),
                    span: span.join(close),
                });
            }
            Token::LBrace => {
                let (entries, close) = self.entries()?;
                return Some(Value {
                    kind: ValueKind::Object(entries),
                    span: span.join(close),
                });
            }
            Token::Ident(name) => {
                let name = Ident {
                    name: name.to_string(),
                    span,
                };
                self.expect(Token::LParen)?;
                let (args, close) = self.arguments()?;
                return Some(Value {
                    kind: ValueKind::Call { name, args },
                    span: span.join(close),
                });
            }
            _ => return None,
        };
        Some(Value { kind, span })
    }

    /// An object's entries after its `{`: `name = value`s separated by commas, up to `}`.
    fn entries(&mut self) -> Option<(Vec<Attribute>, Span)> {
        self.enter()?;
        let mut entries = Vec::new();
        let end = loop {
            if let Some((Token::RBrace, span)) = self.peek()? {
                self.peeked = None;
                break span;
            }
            if entries.len() == MAX_LIST_ITEMS {
                return None;
            }
            let name = match self.next()? {
                (Token::Ident(name), span) => Ident {
                    name: name.to_string(),
                    span,
                },
                // A string key (`"X-Request-Id" = "7"`), as the full parser reads it.
                (Token::Str(raw), span) => Ident {
                    name: decode_valid_string(raw)?,
                    span,
                },
                _ => return None,
            };
            self.expect(Token::Eq)?;
            let value = self.value()?;
            let span = name.span.join(value.span);
            entries.push(Attribute { name, value, span });
            match self.next()? {
                (Token::Comma, _) => {}
                (Token::RBrace, span) => break span,
                _ => return None,
            }
        };
        self.depth -= 1;
        Some((entries, end))
    }

    /// A call's arguments after its `(`: values and `name = value`s, up to `)`.
    fn arguments(&mut self) -> Option<(Vec<Value>, Span)> {
        self.enter()?;
        let mut items = Vec::new();
        let end = loop {
            if let Some((Token::RParen, span)) = self.peek()? {
                self.peeked = None;
                break span;
            }
            if items.len() == MAX_LIST_ITEMS {
                return None;
            }
            items.push(self.argument()?);
            match self.next()? {
                (Token::Comma, _) => {}
                (Token::RParen, span) => break span,
                _ => return None,
            }
        };
        self.depth -= 1;
        Some((items, end))
    }

    /// One call argument: `name = value`, or a value (an identifier there starts a call).
    fn argument(&mut self) -> Option<Value> {
        let Some((Token::Ident(name), span)) = self.peek()? else {
            return self.value();
        };
        self.peeked = None;
        let name = Ident {
            name: name.to_string(),
            span,
        };
        match self.next()? {
            (Token::Eq, _) => {
                let value = self.value()?;
                let span = name.span.join(value.span);
                Some(Value {
                    kind: ValueKind::Named {
                        name,
                        value: Box::new(value),
                    },
                    span,
                })
            }
            (Token::LParen, _) => {
                let (args, close) = self.arguments()?;
                let span = name.span.join(close);
                Some(Value {
                    kind: ValueKind::Call { name, args },
                    span,
                })
            }
            _ => None,
        }
    }

    /// `( value ( "," value )* ","? )? close`, after the opening bracket.
    fn elements(&mut self, close: Token<'_>) -> Option<(Vec<Value>, Span)> {
        self.enter()?;
        let mut items = Vec::new();
        let end = loop {
            if let Some((t, span)) = self.peek()? {
                if t == close {
                    self.peeked = None;
                    break span;
                }
            }
            if items.len() == MAX_LIST_ITEMS {
                return None;
            }
            items.push(self.value()?);
            match self.next()? {
                (Token::Comma, _) => {}
                (t, span) if t == close => break span,
                _ => return None,
            }
        };
        self.depth -= 1;
        Some((items, end))
    }
}
