//! The syntax tree of one ACL file, exactly as written.
//!
//! ACL has one generic shape — `kind "label"? { attribute = value | nested block }` — so the AST is
//! small and knows nothing about which blocks exist. The checker gives it meaning. Every node keeps
//! its span so that any diagnostic, at any depth, can point at the exact bytes. Comments are kept
//! beside the tree (not in it) so the formatter can put them back.

use crate::span::Span;
use serde::Serialize;

/// An identifier with its location (block kind, attribute name, function name).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ident {
    /// The identifier text.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A parsed file: its root blocks (a valid file has exactly one) and its comments.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Document {
    /// Every top-level block in source order; the checker reports when there is not exactly one.
    pub blocks: Vec<Block>,
    /// Every comment in source order, for the formatter.
    pub comments: Vec<Comment>,
}

/// A comment (`# …` or `// …`) with its full text including the marker.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comment {
    /// The comment text, marker included, without the trailing newline.
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

/// `kind "label" { items }` — a suite, scenario, step or configuration section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    /// The block kind (`suite`, `click`, `dev_server`, …).
    pub kind: Ident,
    /// The optional label string (`"guest-checkout"`), with its span.
    pub label: Option<StringLit>,
    /// Attributes and nested blocks in source order.
    pub items: Vec<Item>,
    /// From the kind to the closing brace.
    pub span: Span,
}

/// A string literal after escape processing, with the span of the quoted source text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StringLit {
    /// The decoded value.
    pub value: String,
    /// Where it was written, quotes included.
    pub span: Span,
}

/// One entry inside a block's braces.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Item {
    /// `name = value`
    Attribute(Attribute),
    /// A nested block.
    Block(Block),
}

impl Item {
    /// The item's full span.
    pub fn span(&self) -> Span {
        match self {
            Item::Attribute(a) => a.span,
            Item::Block(b) => b.span,
        }
    }
}

/// `name = value`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attribute {
    /// The attribute name.
    pub name: Ident,
    /// The bound value.
    pub value: Value,
    /// From the name to the end of the value.
    pub span: Span,
}

/// A value with its location.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Value {
    /// What kind of value, and its content.
    pub kind: ValueKind,
    /// Where it was written.
    pub span: Span,
}

/// The value forms of `docs/acl.md` §1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum ValueKind {
    /// A decoded string.
    String(String),
    /// An integer literal.
    Integer(i64),
    /// A decimal literal; kept so the checker can say "expected an integer" precisely.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `[a, b, c]`.
    List(Vec<Value>),
    /// `name(arg, …)` — targets such as `role("button", "Save")` and `main()`.
    Call {
        /// The function name.
        name: Ident,
        /// The arguments in order (positional ones, then [`ValueKind::Named`] ones).
        args: Vec<Value>,
    },
    /// `name = value` as a call argument only (`role("button", "Save", exact = true)`): the
    /// grammar admits it nowhere else.
    Named {
        /// The argument's name.
        name: Ident,
        /// Its value.
        value: Box<Value>,
    },
    /// `{ name = value, … }`: an object, the row of a scenario's `each` (`docs/acl.md` §2.3);
    /// entries are separated by commas.
    Object(Vec<Attribute>),
    /// `/pattern/flags`: a regular expression, as written (`\/` stays in `pattern`).
    Regex {
        /// The body between the slashes.
        pattern: String,
        /// The flag letters after the closing slash.
        flags: String,
    },
    /// A value the parser could not read; a syntax diagnostic has already been reported for it.
    Error,
}

impl ValueKind {
    /// A short noun for messages ("a string", "a list", …).
    pub fn describe(&self) -> &'static str {
        match self {
            ValueKind::String(_) => "a string",
            ValueKind::Integer(_) => "an integer",
            ValueKind::Float(_) => "a decimal number",
            ValueKind::Bool(_) => "a boolean",
            ValueKind::Null => "null",
            ValueKind::List(_) => "a list",
            ValueKind::Call { .. } => "a function call",
            ValueKind::Named { .. } => "a named argument",
            ValueKind::Object(_) => "an object",
            ValueKind::Regex { .. } => "a regular expression",
            ValueKind::Error => "an unreadable value",
        }
    }
}

/// The logical path of the innermost node enclosing `span`: `kind.label` for each enclosing
/// block (only `kind` when it has no label), joined with `.`, then the attribute name when the
/// span lies inside an attribute — e.g. `suite.checkout.scenario.guest.click.pay.target`.
///
/// The checker builds its paths with the same convention, so a syntax error and a type error in
/// the same attribute carry the same path. Iterative: the depth of the document does not matter.
/// Returns an empty string when the span lies outside every root block.
pub fn logical_path(document: &Document, span: Span) -> String {
    let mut path = String::new();
    // Nodes are in source order and do not overlap: the candidate is the last one starting at or
    // before the span (a binary search, so a block with 100,000 items costs no more than one).
    let root = document
        .blocks
        .partition_point(|b| b.span.start <= span.start);
    let mut block = root
        .checked_sub(1)
        .map(|i| &document.blocks[i])
        .filter(|b| encloses(b.span, span));
    while let Some(b) = block.take() {
        push_segment(&mut path, &b.kind.name);
        if let Some(label) = &b.label {
            push_segment(&mut path, &label.value);
        }
        let at = b.items.partition_point(|i| i.span().start <= span.start);
        match at.checked_sub(1).map(|i| &b.items[i]) {
            Some(Item::Block(inner)) if encloses(inner.span, span) => block = Some(inner),
            Some(Item::Attribute(a)) if encloses(a.span, span) => {
                push_segment(&mut path, &a.name.name);
                return path;
            }
            _ => {}
        }
    }
    path
}

/// True when `inner` starts inside `outer` (a zero-width span at `outer`'s end counts as inside).
fn encloses(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start
        && (inner.start < outer.end || (inner.start == outer.end && inner.end == inner.start))
}

fn push_segment(path: &mut String, segment: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(segment);
}
