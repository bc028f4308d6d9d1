//! The ACL parser: tokens → [`Document`] plus every syntax diagnostic.
//!
//! Grammar (also in `grammar/acl.ebnf`, which a test checks against this parser):
//!
//! ```text
//! document = block* ;
//! block    = IDENT STRING? "{" item* "}" ;
//! item     = IDENT "=" value | block ;
//! value    = STRING | INT | FLOAT | "true" | "false" | "null"
//!          | "[" ( value ( "," value )* ","? )? "]"
//!          | IDENT "(" ( value ( "," value )* ","? )? ")" ;
//! ```
//!
//! Built with chumsky over the logos token slice (no copy of the source per token). Four things
//! happen around the grammar:
//!
//! 1. **Limits before recursion.** The pre-scan in `parser/limits.rs` walks the tokens once,
//!    iteratively, and cuts every group that opens deeper than [`crate::MAX_NESTING_DEPTH`] down
//!    to one [`Token::Bad`], so the recursive parser never descends further than the limit
//!    however many `[` a file holds. Lists longer than [`crate::MAX_LIST_ITEMS`] are reported and
//!    replaced by [`ValueKind::Error`] after parsing.
//! 2. **Recovery that always makes progress.** Failed values, items and root blocks are skipped by
//!    small iterative scanners (`skip_len`) that respect bracket nesting and stop at the next
//!    plausible item (`name =`, `kind {`, `kind "label" {`) or closing brace. Item and root-level
//!    skips consume at least one token, so recovery cannot loop. A recovered value becomes
//!    [`ValueKind::Error`] and a block missing its `}` at the end of the file is kept, so the
//!    checker does not report the same mistake again as a missing attribute or an empty suite.
//! 3. **A fast path for valid files.** `parser/fast.rs` reads the lexer's stream directly with
//!    plain recursive descent and builds the identical document; at the first lexical error,
//!    grammar mismatch or limit it gives up and the steps here run instead. Chumsky is the one
//!    authority for anything wrong (see that module for why; property tests check that both
//!    paths give the same result for any input).
//! 4. **Plain-word messages.** Errors are a cheap `Copy` type ([`SyntaxError`]: found token plus
//!    a bit set of expectations; no allocation while the parser backtracks) and become
//!    [`Code::Syntax`] diagnostics such as "expected `=`, a label string or `{` after `url`,
//!    found number `5`", with the logical path of the innermost enclosing node. A `}` missing at
//!    the end of the file is reported at the block most likely to lack it (indentation tells).

use crate::ast::{self, Attribute, Block, Document, Ident, Item, StringLit, Value, ValueKind};
use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::lexer::{self, decode_string, Token};
use crate::span::Span;
use chumsky::error::{Error as ChumskyError, LabelError};
use chumsky::input::{InputRef, ValueInput};
use chumsky::prelude::*;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;

mod fast;
mod limits;

impl chumsky::span::Span for Span {
    type Context = ();
    type Offset = usize;

    fn new((): (), range: std::ops::Range<usize>) -> Self {
        Span::from(range)
    }

    fn context(&self) {}

    fn start(&self) -> usize {
        self.start
    }

    fn end(&self) -> usize {
        self.end
    }
}

/// Parse one file into a document and every lexical and syntax diagnostic, in source order.
///
/// Never panics and always terminates in time linear in the input; a document is returned even
/// when there are errors (with recovered nodes), so the checker can report what it can.
pub fn parse(source: &str) -> (Document, Vec<Diagnostic>) {
    let (document, diagnostics, _) = parse_with(source, true, None);
    (document, diagnostics)
}

/// [`parse`] for admission: at most `keep` diagnostics are held (the first in report order), the
/// rest only counted — a 1 MB file of mistakes holds a hundred, not a hundred thousand.
pub(crate) fn parse_keeping(
    source: &str,
    keep: usize,
) -> (Document, Vec<Diagnostic>, crate::diagnostic::Omitted) {
    parse_with(source, true, Some(keep))
}

/// [`parse`] without the fast path: always the recovering chumsky parser. The result is the same
/// as [`parse`]'s for every input (the property tests check it); this entry point exists so that
/// they can.
pub fn parse_recovering(source: &str) -> (Document, Vec<Diagnostic>) {
    let (document, diagnostics, _) = parse_with(source, false, None);
    (document, diagnostics)
}

fn parse_with(
    source: &str,
    fast_path: bool,
    keep: Option<usize>,
) -> (Document, Vec<Diagnostic>, crate::diagnostic::Omitted) {
    if fast_path {
        if let Some(document) = fast::parse_valid(source) {
            return (document, Vec::new(), Default::default());
        }
    }
    let lexed = lexer::lex(source);
    let mut diagnostics = lexed.diagnostics;
    let guarded = limits::guard_nesting(lexed.tokens, &mut diagnostics);
    let tokens = &guarded.tokens[..];
    let eoi = Span::new(source.len(), source.len());
    let input = tokens.map(eoi, |(t, s)| (t, s));
    let (blocks, errors) = document_parser(tokens).parse(input).into_output_errors();
    let mut document = Document {
        blocks: blocks.unwrap_or_default(),
        comments: lexed.comments,
    };
    if guarded.may_have_long_lists {
        limits::check_list_lengths(&mut document, &mut diagnostics);
    }

    // A lexical or limit diagnostic already explains its token: a syntax error at the same place
    // (e.g. an unterminated string where a label was expected) would only repeat it.
    let mut seen: std::collections::HashSet<(usize, usize)> = diagnostics
        .iter()
        .map(|d| (d.span.start, d.span.end))
        .collect();
    let mut first = crate::diagnostic::FirstDiagnostics::new(keep);
    for mut d in diagnostics {
        if d.path.is_empty() {
            d.path = ast::logical_path(&document, d.span);
        }
        first.push(d);
    }
    for error in errors {
        let diagnostic = if error.found.is_none() && error.expected.has(Expect::RBrace) {
            limits::unclosed_block(source, tokens, &document)
                .unwrap_or_else(|| error.to_diagnostic(tokens, &document))
        } else {
            error.to_diagnostic(tokens, &document)
        };
        // Two errors at one place say the same thing (e.g. nested blocks all unclosed at EOF).
        if seen.insert((diagnostic.span.start, diagnostic.span.end)) {
            first.push(diagnostic);
        }
    }
    let (diagnostics, omitted) = first.finish();
    (document, diagnostics, omitted)
}

/// What the parser expected at the place it stopped; a bit per kind, so merging is free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Expect {
    /// An identifier.
    Ident,
    /// A label string.
    Label,
    /// Any value.
    Value,
    /// An attribute or a nested block.
    Item,
    /// A root block.
    Block,
    /// `{`.
    LBrace,
    /// `}`.
    RBrace,
    /// `]`.
    RBracket,
    /// `(`.
    LParen,
    /// `)`.
    RParen,
    /// `=`.
    Eq,
    /// `,`.
    Comma,
    /// The end of the file.
    End,
}

impl Expect {
    const ORDER: [Expect; 13] = [
        Expect::Eq,
        Expect::Label,
        Expect::LBrace,
        Expect::LParen,
        Expect::Value,
        Expect::Comma,
        Expect::RBracket,
        Expect::RParen,
        Expect::Item,
        Expect::RBrace,
        Expect::Block,
        Expect::Ident,
        Expect::End,
    ];

    fn words(self) -> &'static str {
        match self {
            Expect::Ident => "a name",
            Expect::Label => "a label string",
            Expect::Value => "a value",
            Expect::Item => "an attribute or a block",
            Expect::Block => "a block such as `suite \"name\" { … }`",
            Expect::LBrace => "`{`",
            Expect::RBrace => "`}`",
            Expect::RBracket => "`]`",
            Expect::LParen => "`(`",
            Expect::RParen => "`)`",
            Expect::Eq => "`=`",
            Expect::Comma => "`,`",
            Expect::End => "the end of the file",
        }
    }

    fn of_token(token: &Token<'_>) -> Option<Expect> {
        Some(match token {
            Token::Ident(_) => Expect::Ident,
            Token::Str(_) => Expect::Label,
            Token::Int(_)
            | Token::Float(_)
            | Token::True
            | Token::False
            | Token::Null
            | Token::Regex(_)
            | Token::Bad => Expect::Value,
            Token::LBracket => Expect::Value,
            Token::LBrace => Expect::LBrace,
            Token::RBrace => Expect::RBrace,
            Token::RBracket => Expect::RBracket,
            Token::LParen => Expect::LParen,
            Token::RParen => Expect::RParen,
            Token::Eq => Expect::Eq,
            Token::Comma => Expect::Comma,
            Token::Comment => return None,
        })
    }
}

/// A set of [`Expect`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExpectSet(u16);

impl ExpectSet {
    fn insert(&mut self, e: Expect) {
        self.0 |= 1 << e as u8;
    }

    /// True when `e` is in the set.
    pub fn has(self, e: Expect) -> bool {
        self.0 & (1 << e as u8) != 0
    }

    fn describe(self) -> String {
        let words: Vec<&str> = Expect::ORDER
            .iter()
            .filter(|e| self.has(**e))
            .map(|e| e.words())
            .collect();
        match words.as_slice() {
            [] => "something else".to_string(),
            [one] => (*one).to_string(),
            [init @ .., last] => format!("{} or {}", init.join(", "), last),
        }
    }
}

/// A syntax error as the parser produces it: cheap to create and merge while backtracking.
#[derive(Debug, Clone, Copy)]
pub struct SyntaxError<'src> {
    span: Span,
    found: Option<Token<'src>>,
    expected: ExpectSet,
}

impl<'src, I> LabelError<'src, I, DefaultExpected<'src, Token<'src>>> for SyntaxError<'src>
where
    I: ValueInput<'src, Token = Token<'src>, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'src, Token<'src>>>>(
        expected: E,
        found: Option<MaybeRef<'src, Token<'src>>>,
        span: Span,
    ) -> Self {
        let mut set = ExpectSet::default();
        add_default_expected(&mut set, expected);
        SyntaxError {
            span,
            found: found.map(|t| *t),
            expected: set,
        }
    }

    fn merge_expected_found<E: IntoIterator<Item = DefaultExpected<'src, Token<'src>>>>(
        mut self,
        expected: E,
        found: Option<MaybeRef<'src, Token<'src>>>,
        _span: Span,
    ) -> Self {
        add_default_expected(&mut self.expected, expected);
        if self.found.is_none() {
            self.found = found.map(|t| *t);
        }
        self
    }

    fn replace_expected_found<E: IntoIterator<Item = DefaultExpected<'src, Token<'src>>>>(
        self,
        expected: E,
        found: Option<MaybeRef<'src, Token<'src>>>,
        span: Span,
    ) -> Self {
        <Self as LabelError<'src, I, DefaultExpected<'src, Token<'src>>>>::expected_found(
            expected, found, span,
        )
    }
}

fn add_default_expected<'src>(
    set: &mut ExpectSet,
    expected: impl IntoIterator<Item = DefaultExpected<'src, Token<'src>>>,
) {
    for e in expected {
        match e {
            DefaultExpected::Token(t) => {
                if let Some(x) = Expect::of_token(&t) {
                    set.insert(x);
                }
            }
            DefaultExpected::EndOfInput => set.insert(Expect::End),
            _ => {}
        }
    }
}

impl<'src, I> LabelError<'src, I, Expect> for SyntaxError<'src>
where
    I: ValueInput<'src, Token = Token<'src>, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = Expect>>(
        expected: E,
        found: Option<MaybeRef<'src, Token<'src>>>,
        span: Span,
    ) -> Self {
        let mut set = ExpectSet::default();
        expected.into_iter().for_each(|e| set.insert(e));
        SyntaxError {
            span,
            found: found.map(|t| *t),
            expected: set,
        }
    }

    fn merge_expected_found<E: IntoIterator<Item = Expect>>(
        mut self,
        expected: E,
        found: Option<MaybeRef<'src, Token<'src>>>,
        _span: Span,
    ) -> Self {
        expected.into_iter().for_each(|e| self.expected.insert(e));
        if self.found.is_none() {
            self.found = found.map(|t| *t);
        }
        self
    }

    fn label_with(&mut self, label: Expect) {
        self.expected = ExpectSet::default();
        self.expected.insert(label);
    }
}

impl<'src, I> ChumskyError<'src, I> for SyntaxError<'src>
where
    I: ValueInput<'src, Token = Token<'src>, Span = Span>,
{
    fn merge(mut self, other: Self) -> Self {
        self.expected.0 |= other.expected.0;
        if self.found.is_none() {
            self.found = other.found;
        }
        self
    }
}

impl SyntaxError<'_> {
    /// Turn the error into a diagnostic that names what was expected and what was found, after
    /// which token.
    fn to_diagnostic(self, tokens: &[(Token<'_>, Span)], document: &Document) -> Diagnostic {
        let found = match &self.found {
            Some(t) => t.describe(),
            None => "the end of the file".to_string(),
        };
        let at = tokens.partition_point(|(_, s)| s.start < self.span.start);
        let after = match at.checked_sub(1).map(|i| tokens[i].0) {
            Some(Token::Ident(name)) => format!(" after `{name}`"),
            Some(Token::Str(raw)) => format!(" after {}", Token::Str(raw).describe()),
            Some(Token::Bad) | None => String::new(),
            Some(t) => format!(" after `{t}`"),
        };
        let span = if self.found.is_none() {
            Span::new(self.span.start, self.span.start)
        } else {
            self.span
        };
        let message = format!(
            "expected {}{after}, found {found}",
            self.expected.describe()
        );
        // A missing value belongs to the attribute before it (`text = }` is in `wait.text`).
        let path_at = match at.checked_sub(1) {
            Some(i) if self.expected.has(Expect::Value) => {
                Span::new(tokens[i].1.end, tokens[i].1.end)
            }
            _ => span,
        };
        let mut d = Diagnostic::error(
            Code::Syntax,
            ast::logical_path(document, path_at),
            span,
            message,
        );
        // A label string where an `=` belongs is the most common slip: `url "/"` for `url = "/"`.
        if let (Some(Token::Str(_)), Some(Token::Ident(name))) = (
            at.checked_sub(1).map(|i| tokens[i].0),
            at.checked_sub(2).map(|i| tokens[i].0),
        ) {
            if self.expected.has(Expect::LBrace) {
                d = d.with_hint(format!(
                    "if `{name}` is an attribute, write `{name} = …`; a block is `{name} \"label\" {{ … }}`"
                ));
            }
        }
        d
    }
}

type Extra<'a> = extra::Err<SyntaxError<'a>>;

/// A recovery scanner: which tokens stop a skip, and whether it may consume nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SkipMode {
    /// A failed root-level block: stop before the next `kind {` / `kind "label" {`.
    Root,
    /// A failed item in a block: stop before the next item or the block's `}`.
    Item,
    /// A failed attribute value: like `Item`, but may consume nothing (`url = }`).
    AttributeValue,
    /// A failed list item or call argument: stop before `,` `]` `)` `}` or the next item.
    ListItem,
}

/// True when the tokens at `i` look like the start of an item: `name =`, `kind {`, `kind "l" {`.
fn starts_item(tokens: &[(Token<'_>, Span)], i: usize) -> bool {
    matches!(
        (
            tokens.get(i).map(|t| t.0),
            tokens.get(i + 1).map(|t| t.0),
            tokens.get(i + 2).map(|t| t.0)
        ),
        (Some(Token::Ident(_)), Some(Token::Eq | Token::LBrace), _)
            | (
                Some(Token::Ident(_)),
                Some(Token::Str(_)),
                Some(Token::LBrace)
            )
    )
}

fn starts_block(tokens: &[(Token<'_>, Span)], i: usize) -> bool {
    matches!(
        (
            tokens.get(i).map(|t| t.0),
            tokens.get(i + 1).map(|t| t.0),
            tokens.get(i + 2).map(|t| t.0)
        ),
        (Some(Token::Ident(_)), Some(Token::LBrace), _)
            | (
                Some(Token::Ident(_)),
                Some(Token::Str(_)),
                Some(Token::LBrace)
            )
    )
}

/// How many tokens a recovery skip in `mode` consumes from `i`; `None` when it may not recover.
/// Iterative (an explicit stack of open brackets), so junk of any depth cannot overflow the stack.
fn skip_len(tokens: &[(Token<'_>, Span)], start: usize, mode: SkipMode) -> Option<usize> {
    let mut open: Vec<Token<'_>> = Vec::new();
    let mut i = start;
    while let Some((token, _)) = tokens.get(i) {
        let first = i == start;
        match open.last() {
            None => {
                let stop = match token {
                    Token::RBrace => mode != SkipMode::Root,
                    Token::RBracket | Token::RParen | Token::Comma => mode == SkipMode::ListItem,
                    _ if mode == SkipMode::Root => !first && starts_block(tokens, i),
                    _ => !first && starts_item(tokens, i),
                };
                // The first token of an item-level skip is consumed whatever it is, so that an
                // item parser which failed on it cannot be retried forever.
                let stop = stop && !(first && mode == SkipMode::Item && *token != Token::RBrace);
                if stop || (mode == SkipMode::AttributeValue && !first && starts_item(tokens, i)) {
                    break;
                }
            }
            Some(top) => {
                let closes = matches!(
                    (top, token),
                    (Token::LBrace, Token::RBrace)
                        | (Token::LBracket, Token::RBracket)
                        | (Token::LParen, Token::RParen)
                );
                if closes {
                    open.pop();
                    i += 1;
                    continue;
                }
                if matches!(token, Token::RBrace | Token::RBracket | Token::RParen) {
                    break;
                }
                // Inside `[`/`(` an item start means the bracket was never closed.
                if *top != Token::LBrace && starts_item(tokens, i) {
                    break;
                }
            }
        }
        if matches!(token, Token::LBrace | Token::LBracket | Token::LParen) {
            open.push(*token);
        }
        i += 1;
    }
    let len = i - start;
    match mode {
        SkipMode::AttributeValue => Some(len),
        _ if len == 0 => None,
        _ => Some(len),
    }
}

/// A chumsky parser running [`skip_len`]; it needs the token slice, which it reads through
/// the input cursor (`peek` by offset is not available, so it steps a cloned cursor).
fn skipper<'a, I>(
    tokens: &'a [(Token<'a>, Span)],
    mode: SkipMode,
) -> impl Parser<'a, I, Span, Extra<'a>> + Clone
where
    I: ValueInput<'a, Token = Token<'a>, Span = Span>,
{
    custom(move |inp: &mut InputRef<'a, '_, I, Extra<'a>>| {
        let before = inp.cursor();
        let index = I::cursor_location(before.inner());
        let Some(len) = skip_len(tokens, index, mode) else {
            return Err(SyntaxError {
                span: inp.span_since(&before),
                found: None,
                expected: ExpectSet::default(),
            });
        };
        for _ in 0..len {
            inp.skip();
        }
        if len == 0 {
            let at = tokens
                .get(index)
                .map_or_else(|| tokens.last().map_or(0, |(_, s)| s.end), |(_, s)| s.start);
            return Ok(Span::new(at, at));
        }
        Ok(inp.span_since(&before))
    })
}

/// The value of a raw regular expression token.
pub(crate) fn regex_value(raw: &str) -> ValueKind {
    let (pattern, flags) = crate::lexer::split_regex(raw);
    ValueKind::Regex {
        pattern: pattern.to_string(),
        flags: flags.to_string(),
    }
}

fn ident(name: &str, span: Span) -> Ident {
    Ident {
        name: name.to_string(),
        span,
    }
}

/// The whole-document parser. `tokens` is the same slice the input reads, for recovery scans.
fn document_parser<'a, I>(
    tokens: &'a [(Token<'a>, Span)],
) -> impl Parser<'a, I, Vec<Block>, Extra<'a>>
where
    I: ValueInput<'a, Token = Token<'a>, Span = Span>,
{
    let name = select! { Token::Ident(name) = e => ident(name, e.span()) }.labelled(Expect::Ident);

    let value = recursive(|value| {
        let element =
            value
                .clone()
                .recover_with(via_parser(skipper(tokens, SkipMode::ListItem).map(
                    |span| Value {
                        kind: ValueKind::Error,
                        span,
                    },
                )));
        let elements = element
            .clone()
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<Value>>();
        // A call's arguments may also be named (`exact = true`); a list's items may not.
        let named = name
            .then_ignore(just(Token::Eq))
            .then(element.clone())
            .map_with(|(name, value), e| Value {
                kind: ValueKind::Named {
                    name,
                    value: Box::new(value),
                },
                span: e.span(),
            });
        let arguments = named
            .or(element.clone())
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<Value>>();
        let scalar = select! {
            Token::Str(raw) => ValueKind::String(decode_string(raw)),
            Token::Int(v) => ValueKind::Integer(v),
            Token::Float(v) => ValueKind::Float(v),
            Token::True => ValueKind::Bool(true),
            Token::False => ValueKind::Bool(false),
            Token::Null => ValueKind::Null,
            Token::Regex(raw) => regex_value(raw),
            Token::Bad => ValueKind::Error,
        };
        let list = elements
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .map(ValueKind::List);
        // `{ name = value, … }`: the rows of a scenario's `each`, and maps such as
        // `extra_http_headers`, whose keys may be strings (`"X-Request-Id" = "7"`): a header
        // name is no identifier.
        let key = name.or(select! {
            Token::Str(raw) = e => ident(&decode_string(raw), e.span())
        });
        let entry = key
            .then_ignore(just(Token::Eq))
            .then(element.clone())
            .map_with(|(name, value), e| Attribute {
                name,
                value,
                span: e.span(),
            });
        let object = entry
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<Attribute>>()
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map(ValueKind::Object);
        let call = name
            .then(arguments.delimited_by(just(Token::LParen), just(Token::RParen)))
            .map(|(name, args)| ValueKind::Call { name, args });
        choice((scalar, list, call, object))
            .map_with(|kind, e| Value {
                kind,
                span: e.span(),
            })
            .labelled(Expect::Value)
    });

    let attribute_value = value.recover_with(via_parser(
        skipper(tokens, SkipMode::AttributeValue).map(|span| Value {
            kind: ValueKind::Error,
            span,
        }),
    ));

    let label =
        select! { Token::Str(raw) = e => StringLit { value: decode_string(raw), span: e.span() } }
            .labelled(Expect::Label);

    // At the end of the file a missing `}` is reported but the block is kept.
    let close = just(Token::RBrace)
        .ignored()
        .recover_with(via_parser(end()));

    // `{ item* }`. An item's name is read once, then `=` decides between attribute and block.
    let body = recursive(|body| {
        let attribute_tail = just(Token::Eq)
            .ignore_then(attribute_value)
            .map(Tail::Value);
        let block_tail = label
            .or_not()
            .then(body)
            .map(|(label, items)| Tail::Block(label, items));
        let item = name
            .then(choice((attribute_tail, block_tail)))
            .map_with(|(name, tail), e| {
                Some(match tail {
                    Tail::Value(value) => Item::Attribute(Attribute {
                        name,
                        value,
                        span: e.span(),
                    }),
                    Tail::Block(label, Kept(items)) => Item::Block(Block {
                        kind: name,
                        label,
                        items,
                        span: e.span(),
                    }),
                })
            });
        let skipped = select! { Token::Bad => None };
        item.or(skipped)
            .labelled(Expect::Item)
            .recover_with(via_parser(skipper(tokens, SkipMode::Item).to(None)))
            .repeated()
            .collect::<Kept<Item>>()
            .delimited_by(just(Token::LBrace), close)
    });

    let block = name
        .then(label.or_not())
        .then(body)
        .map_with(|((kind, label), Kept(items)), e| {
            Some(Block {
                kind,
                label,
                items,
                span: e.span(),
            })
        });

    block
        .labelled(Expect::Block)
        .recover_with(via_parser(skipper(tokens, SkipMode::Root).to(None)))
        .repeated()
        .collect::<Kept<Block>>()
        .then_ignore(end())
        .map(|Kept(blocks)| blocks)
}

/// What follows an item's name.
enum Tail {
    /// `= value`
    Value(Value),
    /// `"label"? { items }`
    Block(Option<StringLit>, Kept<Item>),
}

/// A vector that keeps the `Some`s pushed into it: recovered-away items and blocks vanish
/// without a second pass over the list.
struct Kept<T>(Vec<T>);

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept(Vec::new())
    }
}

impl<T> chumsky::container::Container<Option<T>> for Kept<T> {
    fn push(&mut self, item: Option<T>) {
        if let Some(item) = item {
            self.0.push(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::line_col;

    fn ok(src: &str) -> Document {
        let (doc, diags) = parse(src);
        assert!(diags.is_empty(), "unexpected diagnostics: {diags:#?}");
        doc
    }

    /// `line:col code message` for each diagnostic, for compact assertions.
    fn errors(src: &str) -> Vec<String> {
        let (_, diags) = parse(src);
        diags
            .iter()
            .map(|d| {
                let (l, c) = line_col(src, d.span.start);
                format!(
                    "{l}:{c} {} [{}] {}",
                    d.code.as_str().trim_start_matches("test.spec."),
                    d.path,
                    d.message
                )
            })
            .collect()
    }

    const SUITE: &str = r#"suite "checkout" {
    version = 1                      # positive integer, default 1
    base_url = "http://127.0.0.1:4173"
    scenario "guest-checkout" {
        name = "Guest can pay"
        tags = ["smoke", "payments",]
        navigate "open" { url = "/cart" }
        click "pay" { target = role("button", "Pay now") }
        expect "done" { text = "Thank you" }
        frame { target = main() }
    }
}
"#;

    #[test]
    fn parses_the_reference_suite() {
        let doc = ok(SUITE);
        assert_eq!(doc.blocks.len(), 1);
        let suite = &doc.blocks[0];
        assert_eq!(suite.kind.name, "suite");
        assert_eq!(suite.label.as_ref().unwrap().value, "checkout");
        assert_eq!(suite.span, Span::new(0, SUITE.trim_end().len()));
        let Item::Block(scenario) = &suite.items[2] else {
            panic!("scenario expected")
        };
        assert_eq!(scenario.items.len(), 6);
        let Item::Block(click) = &scenario.items[3] else {
            panic!("click expected")
        };
        let Item::Attribute(target) = &click.items[0] else {
            panic!("target expected")
        };
        assert_eq!(
            &SUITE[target.span.range()],
            r#"target = role("button", "Pay now")"#
        );
        let ValueKind::Call { name, args } = &target.value.kind else {
            panic!("call expected")
        };
        assert_eq!(name.name, "role");
        assert_eq!(args.len(), 2);
        assert_eq!(&SUITE[args[1].span.range()], r#""Pay now""#);
        let Item::Block(frame) = &scenario.items[5] else {
            panic!("frame expected")
        };
        assert!(frame.label.is_none());
        assert_eq!(doc.comments.len(), 1);
        let Item::Attribute(tags) = &scenario.items[1] else {
            panic!("tags expected")
        };
        assert!(matches!(&tags.value.kind, ValueKind::List(v) if v.len() == 2));
    }

    #[test]
    fn several_attributes_on_one_line() {
        let doc = ok(r#"project "shop" {
    dev_server { command = ["npm", "run", "dev"]  url = "http://127.0.0.1:5173"  startup_timeout_ms = 60000 }
}"#);
        let Item::Block(dev) = &doc.blocks[0].items[0] else {
            panic!()
        };
        assert_eq!(dev.items.len(), 3);
    }

    #[test]
    fn values_of_every_form() {
        let doc = ok(
            r#"x { a = -3 b = 2.5 c = true d = false e = null f = [] g = [[1], [2, 3]] h = main() i = 'q\'s' }"#,
        );
        let kinds: Vec<&ValueKind> = doc.blocks[0]
            .items
            .iter()
            .map(|i| match i {
                Item::Attribute(a) => &a.value.kind,
                Item::Block(_) => panic!(),
            })
            .collect();
        assert_eq!(kinds[0], &ValueKind::Integer(-3));
        assert_eq!(kinds[1], &ValueKind::Float(2.5));
        assert_eq!(kinds[2], &ValueKind::Bool(true));
        assert_eq!(kinds[4], &ValueKind::Null);
        assert_eq!(kinds[5], &ValueKind::List(vec![]));
        assert!(matches!(kinds[7], ValueKind::Call { args, .. } if args.is_empty()));
        assert_eq!(kinds[8], &ValueKind::String("q's".into()));
    }

    #[test]
    fn empty_and_comment_only_files_parse_to_nothing() {
        assert!(ok("").blocks.is_empty());
        let doc = ok("# just a note\n// and another\n");
        assert!(doc.blocks.is_empty());
        assert_eq!(doc.comments.len(), 2);
    }

    #[test]
    fn reports_several_errors_at_their_places() {
        let src = r##"suite "s" {
    scenario "a" {
        navigate "open" { url "/" }
        click "x" { target = role("button", ) ) }
        fill "f" { target = css("#q") value = [1, =, 3] }
        wait { text = }
        expect "e" { text = "ok" }
    }
}
"##;
        assert_eq!(
            errors(src),
            vec![
                "3:35 syntax [suite.s.scenario.a.navigate.open] expected `{` after string \"/\", found `}`",
                "4:47 syntax [suite.s.scenario.a.click.x] expected an attribute or a block after `)`, found `)`",
                "5:51 syntax [suite.s.scenario.a.fill.f.value] expected a value after `,`, found `=`",
                "6:23 syntax [suite.s.scenario.a.wait.text] expected a value after `=`, found `}`",
            ]
        );
    }

    #[test]
    fn missing_brace_is_blamed_on_the_block_that_lacks_it() {
        let src = "suite \"s\" {\n    scenario \"a\" {\n        click \"x\" { target = css(\"a\")\n        navigate \"b\" { url = \"/\" }\n    }\n}\n";
        assert_eq!(
            errors(src),
            vec![
                "3:19 syntax [suite.s.scenario.a.click.x] block `click \"x\"` is never closed: expected `}` before line 4"
            ]
        );
        let src =
            "suite \"s\" {\n    scenario \"a\" {\n        click \"x\" { target = css(\"a\") }\n";
        assert_eq!(
            errors(src),
            vec![
                "2:18 syntax [suite.s.scenario.a] block `scenario \"a\"` is never closed: expected `}` before the end of the file"
            ]
        );
    }

    #[test]
    fn errors_after_a_missing_brace_are_still_reported() {
        let src = "suite \"s\" {\n    scenario \"a\" {\n        click \"x\" { target = css(\"a\")\n        fill { value = [1 2] }\n    }\n}\n";
        assert_eq!(
            errors(src),
            vec![
                "3:19 syntax [suite.s.scenario.a.click.x] block `click \"x\"` is never closed: expected `}` before line 4",
                "4:27 syntax [suite.s.scenario.a.click.x.fill.value] expected `,` or `]` after `1`, found number `2`",
            ]
        );
    }

    #[test]
    fn stray_tokens_at_the_root_and_in_blocks() {
        let src = "suite \"s\" {\n}\n}\n) x\nproject { a = 1 }\n";
        let (doc, _) = parse(src);
        assert_eq!(
            doc.blocks.len(),
            2,
            "both blocks survive the junk between them"
        );
        assert_eq!(errors(src), vec!["3:1 syntax [] expected a block such as `suite \"name\" { … }` after `}`, found `}`"]);
        let src = "a {\n    b = 1 ) c = 2\n    = 3\n    d = 4\n}\n";
        let (doc, _) = parse(src);
        let names: Vec<&str> = doc.blocks[0]
            .items
            .iter()
            .map(|i| match i {
                Item::Attribute(a) => a.name.name.as_str(),
                Item::Block(b) => b.kind.name.as_str(),
            })
            .collect();
        assert_eq!(names, vec!["b", "c", "d"]);
        assert_eq!(
            errors(src),
            vec![
                "2:11 syntax [a] expected an attribute or a block after `1`, found `)`",
                "3:5 syntax [a] expected an attribute or a block after `2`, found `=`",
            ]
        );
    }

    #[test]
    fn lexical_errors_do_not_cascade() {
        let src = "a {\n    s = \"open\n    n = 99999999999999999999\n    t = 'x\\q'\n    b = 1 @ c = 2\n}\n";
        assert_eq!(
            errors(src),
            vec![
                "2:9 unterminated_string [a.s] string is not closed before the end of its line",
                "3:9 number_too_large [a.n] number `99999999999999999999` is too large; integers must fit in 64 bits",
                "4:11 invalid_escape [a.t] invalid escape `\\q` in string: unknown escape",
                "5:11 invalid_token [a] unexpected character `@`",
            ]
        );
        let (doc, _) = parse(src);
        let Item::Attribute(s) = &doc.blocks[0].items[0] else {
            panic!()
        };
        assert_eq!(s.value.kind, ValueKind::Error);
        let Item::Attribute(t) = &doc.blocks[0].items[2] else {
            panic!()
        };
        assert_eq!(t.value.kind, ValueKind::String("x\\q".into()));
        assert_eq!(doc.blocks[0].items.len(), 5);
    }

    #[test]
    fn a_lexical_error_where_a_label_belongs_is_reported_once() {
        assert_eq!(
            errors("suite \"x {\n"),
            vec!["1:7 unterminated_string [] string is not closed before the end of its line"]
        );
    }

    #[test]
    fn recovered_values_are_error_nodes_and_keep_their_attribute() {
        let (doc, diags) = parse("a { url = }\nb { v = [1, = 2] w = 2 }");
        assert_eq!(diags.len(), 2, "{diags:#?}");
        let Item::Attribute(url) = &doc.blocks[0].items[0] else {
            panic!()
        };
        assert_eq!(url.name.name, "url");
        assert_eq!(url.value.kind, ValueKind::Error);
        let Item::Attribute(v) = &doc.blocks[1].items[0] else {
            panic!()
        };
        let ValueKind::List(items) = &v.value.kind else {
            panic!("{v:?}")
        };
        assert_eq!(items[0].kind, ValueKind::Integer(1));
        assert_eq!(items[1].kind, ValueKind::Error);
        assert_eq!(doc.blocks[1].items.len(), 2);
    }

    #[test]
    fn a_missing_equals_gets_a_hint() {
        let (_, diags) = parse("a {\n    url \"/\"\n    b = 1\n}\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(
            diags[0].message,
            "expected `{` after string \"/\", found identifier `b`"
        );
        assert!(diags[0].hint.contains("url = …"), "{}", diags[0].hint);
        let (_, diags) = parse("a {\n    url 5\n}\n");
        assert_eq!(
            diags[0].message,
            "expected `=`, a label string or `{` after `url`, found number `5`"
        );
    }

    #[test]
    fn statements_may_omit_the_label() {
        let doc = ok("click { target = ref(\"@e3\") }");
        assert!(doc.blocks[0].label.is_none());
    }

    #[test]
    fn logical_paths_follow_the_block_chain() {
        let src = "suite \"c\" {\n    scenario \"g\" {\n        click \"pay\" { target = role(\"button\") }\n        frame { target = main() }\n    }\n}\n";
        let doc = ok(src);
        let at = |needle: &str| {
            let start = src.find(needle).unwrap();
            ast::logical_path(&doc, Span::new(start, start + needle.len()))
        };
        assert_eq!(at("\"button\""), "suite.c.scenario.g.click.pay.target");
        assert_eq!(at("main()"), "suite.c.scenario.g.frame.target");
        assert_eq!(at("frame"), "suite.c.scenario.g.frame");
        assert_eq!(at("scenario"), "suite.c.scenario.g");
        assert_eq!(ast::logical_path(&doc, Span::new(src.len(), src.len())), "");
    }

    #[test]
    fn both_paths_agree_on_edge_cases() {
        let deep = |n: usize| format!("a {{ v = {}1{} }}", "[".repeat(n), "]".repeat(n));
        let list = |n: usize| format!("a {{ v = [{}] }}", vec!["1"; n].join(","));
        let cases = [
            String::new(),
            "\u{FEFF}a { }".into(),
            "# c\na { b = 'x\\'y' } // d".into(),
            "a { s = \"\\q\" }".into(),
            "a { n = 99999999999999999999 }".into(),
            "a { f = 1.5e3 }".into(),
            "a { c = f(1,) l = [1,] e = [] g = g() }".into(),
            deep(63),
            deep(64),
            list(crate::MAX_LIST_ITEMS),
            list(crate::MAX_LIST_ITEMS + 1),
            "a { b }".into(),
            "a \"l\" \"m\" { }".into(),
        ];
        for case in &cases {
            assert_eq!(parse(case), parse_recovering(case), "{case:.80}");
        }
    }
}
