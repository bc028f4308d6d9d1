//! The canonical printer behind `a3s-test fmt`.
//!
//! [`format_source`] parses a file and writes it back in one canonical layout, or refuses (with
//! the diagnostics) when the file has a lexical or syntax error: a half-understood file is never
//! rewritten. The output parses to the same syntax tree as the input (spans aside), and
//! formatting is idempotent: `format(format(x)) == format(x)`.
//!
//! # Layout rules
//!
//! - Four spaces per nesting level, one attribute or block per line, `name = value` with single
//!   spaces, a `\n` at the end of the file and nowhere trailing whitespace.
//! - **One-line blocks.** A block whose only item is one attribute, with no comment inside it,
//!   prints on one line when that line fits in 100 columns: `navigate "open" { url = "/" }` (the
//!   style of `docs/acl.md`). Everything else prints across lines, and an empty block is `kind {}`.
//! - **Blank lines.** A blank line always separates a multi-line block from its neighbours
//!   (including between root blocks). Attributes and one-line blocks (typically steps) are packed
//!   without blank lines, as in `docs/acl.md` §2 — except that one blank line the author left
//!   between two items (or comments) is kept; longer runs collapse to one. There is never a blank
//!   line right after `{` or right before `}`.
//! - **Values.** Strings are re-emitted in double quotes with the minimal escapes (`\"`, `\\`,
//!   `\n`, `\r`, `\t`, and `\u{…}` for other control characters); every other character is
//!   written as itself. Integers are written in decimal, decimals in their shortest exact form
//!   with at least one fractional digit (`1.0`). Lists print as `[a, b]` and calls as
//!   `role("button", "Save")`; when the line would pass 100 columns, the outermost list or call
//!   that does not fit puts one item per line, with a trailing comma.
//! - **Comments** keep their text (trailing whitespace removed) and their order:
//!   - an own-line comment stays on its own line before the item that follows it;
//!   - a trailing comment stays at the end of its line, after one space — after an attribute,
//!     after a block's `{`, or after a block's `}`;
//!   - comments after a block's last item stay inside the block, before its `}`;
//!   - a comment written *inside* an attribute (between the elements of a multi-line list, say)
//!     or inside a block header (between `kind`, label and `{`) is moved to its own line just
//!     before that attribute or block, because the canonical value layout has no place for it.

use crate::ast::{Attribute, Block, Comment, Document, Item, Value, ValueKind};
use crate::diagnostic::Diagnostic;

/// Columns a line may use before lists and calls are broken over several lines.
pub const MAX_WIDTH: usize = 100;
const INDENT: &str = "    ";

/// Format one ACL file canonically, or return its diagnostics when it has an error.
pub fn format_source(source: &str) -> Result<String, Vec<Diagnostic>> {
    if let Err(d) = crate::decode_source(source.as_bytes()) {
        return Err(vec![*d]);
    }
    let (document, diagnostics) = crate::parser::parse(source);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    Ok(print_document(source, &document))
}

/// Print a parsed, error-free document; `source` is the text it was parsed from (for comment
/// placement and blank lines).
pub fn print_document(source: &str, document: &Document) -> String {
    let mut printer = Printer {
        source,
        comments: &document.comments,
        next: 0,
        out: String::with_capacity(source.len()),
    };
    printer.root(&document.blocks);
    let mut out = printer.out;
    while out.ends_with('\n') {
        out.pop();
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// One item of a block body or of the document root.
#[derive(Clone, Copy)]
enum Entry<'d> {
    Attribute(&'d Attribute),
    Block(&'d Block),
}

impl Entry<'_> {
    fn start(&self) -> usize {
        match self {
            Entry::Attribute(a) => a.span.start,
            Entry::Block(b) => b.span.start,
        }
    }

    fn end(&self) -> usize {
        match self {
            Entry::Attribute(a) => a.span.end,
            Entry::Block(b) => b.span.end,
        }
    }
}

struct Printer<'s, 'd> {
    source: &'s str,
    comments: &'d [Comment],
    /// Index of the first comment not yet printed.
    next: usize,
    out: String,
}

impl<'d> Printer<'_, 'd> {
    fn root(&mut self, blocks: &'d [Block]) {
        let entries: Vec<Entry<'d>> = blocks.iter().map(Entry::Block).collect();
        self.entries(&entries, 0, 0, self.source.len());
    }

    /// The next unprinted comment if it starts before `before`.
    fn comment_before(&self, before: usize) -> Option<&'d Comment> {
        self.comments
            .get(self.next)
            .filter(|c| c.span.start < before)
    }

    fn has_comment_within(&self, start: usize, end: usize) -> bool {
        let i = self.comments.partition_point(|c| c.span.start < start);
        self.comments.get(i).is_some_and(|c| c.span.start < end)
    }

    /// True when only whitespace lies between `a` and `b` and it holds an empty line.
    fn blank_between(&self, a: usize, b: usize) -> bool {
        match self.source.get(a..b) {
            Some(gap) if a <= b => gap.trim().is_empty() && gap.matches('\n').count() >= 2,
            _ => false,
        }
    }

    fn same_line(&self, a: usize, b: usize) -> bool {
        a <= b && self.source.get(a..b).is_some_and(|gap| !gap.contains('\n'))
    }

    fn indent(&mut self, level: usize) {
        for _ in 0..level {
            self.out.push_str(INDENT);
        }
    }

    fn comment_line(&mut self, comment: &Comment, level: usize) {
        self.indent(level);
        self.out.push_str(comment.text.trim_end());
        self.out.push('\n');
    }

    fn trailing(&mut self, comment: &Comment) {
        // Replace the newline just written with ` # comment\n`.
        if self.out.ends_with('\n') {
            self.out.pop();
        }
        self.out.push(' ');
        self.out.push_str(comment.text.trim_end());
        self.out.push('\n');
    }

    /// Print a sequence of items at `level`, with the comments between `open_end` (just after
    /// the `{`, or 0) and `close` (the `}`, or the end of the file).
    fn entries(&mut self, entries: &[Entry<'d>], level: usize, open_end: usize, close: usize) {
        let mut prev_end = open_end;
        let mut prev_multiline = false;
        let mut printed_any = false;
        for (k, entry) in entries.iter().enumerate() {
            let next_start = entries.get(k + 1).map_or(close, Entry::start);
            let one_line = match entry {
                Entry::Attribute(_) => true,
                Entry::Block(b) => self.block_fits_one_line(b, level),
            };
            // Own-line comments before the item.
            let mut first_in_group = true;
            while let Some(c) = self.comment_before(entry.start()) {
                self.next += 1;
                let blank = if first_in_group {
                    printed_any
                        && (prev_multiline
                            || !one_line
                            || self.blank_between(prev_end, c.span.start))
                } else {
                    self.blank_between(prev_end, c.span.start)
                };
                if blank {
                    self.out.push('\n');
                }
                self.comment_line(c, level);
                prev_end = c.span.end;
                first_in_group = false;
            }
            let blank = if first_in_group {
                printed_any
                    && (prev_multiline || !one_line || self.blank_between(prev_end, entry.start()))
            } else {
                self.blank_between(prev_end, entry.start())
            };
            if blank {
                self.out.push('\n');
            }
            match entry {
                Entry::Attribute(a) => self.attribute(a, level),
                Entry::Block(b) => self.block(b, level, one_line),
            }
            prev_end = entry.end();
            if let Some(c) = self
                .comment_before(next_start)
                .filter(|c| self.same_line(entry.end(), c.span.start))
            {
                self.next += 1;
                self.trailing(c);
                prev_end = c.span.end;
            }
            prev_multiline = !one_line;
            printed_any = true;
        }
        // Comments after the last item stay inside the block.
        while let Some(c) = self.comment_before(close) {
            self.next += 1;
            if printed_any && self.blank_between(prev_end, c.span.start) {
                self.out.push('\n');
            }
            self.comment_line(c, level);
            prev_end = c.span.end;
            printed_any = true;
        }
    }

    /// Comments inside `start..end` that cannot stay where they are: printed on their own lines.
    fn hoist(&mut self, end: usize, level: usize) {
        while let Some(c) = self.comment_before(end) {
            self.next += 1;
            self.comment_line(c, level);
        }
    }

    fn attribute(&mut self, a: &Attribute, level: usize) {
        self.hoist(a.span.end, level);
        self.indent(level);
        self.out.push_str(&a.name.name);
        self.out.push_str(" = ");
        let used = level * INDENT.len() + a.name.name.chars().count() + 3;
        // An outline is written as it reads: a block string (every other text keeps its
        // escapes, so generated code and page values print as they always did).
        let block = match &a.value.kind {
            ValueKind::String(text) if a.name.name == BLOCK_ATTRIBUTE => {
                block_string(text, level + 1)
            }
            _ => None,
        };
        match block {
            Some(block) => self.out.push_str(&block),
            None => write_value(&mut self.out, &a.value, level, used),
        }
        self.out.push('\n');
    }

    /// Where the block's `{` is: after the kind and label, past whitespace and comments.
    fn open_brace(&self, b: &Block) -> usize {
        let mut i = b.label.as_ref().map_or(b.kind.span.end, |l| l.span.end);
        let bytes = self.source.as_bytes();
        while i < bytes.len() && bytes[i] != b'{' {
            if bytes[i] == b'#' || (bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'/')) {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        i
    }

    fn header(&self, b: &Block) -> String {
        let mut h = b.kind.name.clone();
        if let Some(label) = &b.label {
            h.push(' ');
            write_string(&mut h, &label.value);
        }
        h
    }

    fn block_fits_one_line(&self, b: &Block, level: usize) -> bool {
        let [Item::Attribute(a)] = b.items.as_slice() else {
            return false;
        };
        // Comments in the header are hoisted above the block; only those in the braces count.
        if self.has_comment_within(self.open_brace(b), b.span.end) {
            return false;
        }
        let mut line = self.header(b);
        line.push_str(" { ");
        line.push_str(&a.name.name);
        line.push_str(" = ");
        line.push_str(&flat_value(&a.value));
        line.push_str(" }");
        level * INDENT.len() + line.chars().count() <= MAX_WIDTH
    }

    fn block(&mut self, b: &'d Block, level: usize, one_line: bool) {
        let brace = self.open_brace(b);
        self.hoist(brace, level);
        self.indent(level);
        self.out.push_str(&self.header(b));
        if one_line {
            let Some(Item::Attribute(a)) = b.items.first() else {
                return;
            };
            self.out.push_str(" { ");
            self.out.push_str(&a.name.name);
            self.out.push_str(" = ");
            let used = self.out.len() - self.out.rfind('\n').map_or(0, |i| i + 1);
            write_value(&mut self.out, &a.value, level, used);
            self.out.push_str(" }\n");
            return;
        }
        let close = b.span.end.saturating_sub(1);
        self.out.push_str(" {");
        let first_start = b.items.first().map_or(close, |i| i.span().start);
        if let Some(c) = self
            .comment_before(first_start)
            .filter(|c| self.same_line(brace, c.span.start))
        {
            self.next += 1;
            self.out.push(' ');
            self.out.push_str(c.text.trim_end());
        }
        if b.items.is_empty() && self.comment_before(close).is_none() {
            if self.out.ends_with(" {") {
                self.out.push_str("}\n");
            } else {
                self.out.push('\n');
                self.indent(level);
                self.out.push_str("}\n");
            }
            return;
        }
        self.out.push('\n');
        let entries: Vec<Entry<'d>> = b
            .items
            .iter()
            .map(|i| match i {
                Item::Attribute(a) => Entry::Attribute(a),
                Item::Block(b) => Entry::Block(b),
            })
            .collect();
        self.entries(&entries, level + 1, brace + 1, close);
        self.indent(level);
        self.out.push_str("}\n");
    }
}

/// True when `name` lexes as one identifier (`[A-Za-z_][A-Za-z0-9_]*`, not `true`, `false` or
/// `null`): an object key that is not one is printed as a string.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let starts = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    starts
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(name, "true" | "false" | "null")
}

/// `value` as a canonical ACL string literal (double quotes, minimal escapes) — the one quoting
/// rule shared by `fmt`, target display and generated statements.
pub fn string_literal(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    write_string(&mut out, value);
    out
}

/// The attribute whose multi-line text `fmt` writes as a block string.
const BLOCK_ATTRIBUTE: &str = "aria_snapshot";

/// `text` as a block string (`"""` on their own lines, each line indented `level` times),
/// when it has several lines and reads back the same (`lexer::dedent_block`): no `"""`, no
/// control character but tabs, no line break at its end, and a line that starts at the margin.
pub fn block_string(text: &str, level: usize) -> Option<String> {
    let fits = text.contains('\n')
        && !text.contains(crate::lexer::BLOCK_QUOTE)
        && !text.ends_with('\n')
        && !text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        && text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .any(|l| !l.starts_with([' ', '\t']))
        && text.lines().all(|l| !l.trim().is_empty() || l.is_empty());
    if !fits {
        return None;
    }
    let pad = INDENT.repeat(level);
    let mut out = String::from(crate::lexer::BLOCK_QUOTE);
    out.push('\n');
    for line in text.split('\n') {
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str(&pad);
    out.push_str(crate::lexer::BLOCK_QUOTE);
    Some(out)
}

/// Write a string literal with the minimal escapes.
fn write_string(out: &mut String, value: &str) {
    out.push('"');
    for ch in value.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                out.push_str(&format!("\\u{{{:X}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_float(out: &mut String, v: f64) {
    let s = format!("{v}");
    out.push_str(&s);
    if !s.contains('.') {
        out.push_str(".0");
    }
}

/// The one-line form of a value.
fn flat_value(value: &Value) -> String {
    let mut out = String::new();
    flat_into(&mut out, value);
    out
}

fn flat_into(out: &mut String, value: &Value) {
    match &value.kind {
        ValueKind::String(s) => write_string(out, s),
        ValueKind::Integer(v) => out.push_str(&v.to_string()),
        ValueKind::Float(v) => write_float(out, *v),
        ValueKind::Bool(v) => out.push_str(if *v { "true" } else { "false" }),
        ValueKind::Null => out.push_str("null"),
        ValueKind::List(items) => {
            out.push('[');
            flat_items(out, items);
            out.push(']');
        }
        ValueKind::Call { name, args } => {
            out.push_str(&name.name);
            out.push('(');
            flat_items(out, args);
            out.push(')');
        }
        ValueKind::Named { name, value } => {
            out.push_str(&name.name);
            out.push_str(" = ");
            flat_into(out, value);
        }
        ValueKind::Object(entries) if entries.is_empty() => out.push_str("{}"),
        ValueKind::Object(entries) => {
            out.push_str("{ ");
            for (i, entry) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if is_identifier(&entry.name.name) {
                    out.push_str(&entry.name.name);
                } else {
                    out.push_str(&string_literal(&entry.name.name));
                }
                out.push_str(" = ");
                flat_into(out, &entry.value);
            }
            out.push_str(" }");
        }
        ValueKind::Regex { pattern, flags } => {
            out.push('/');
            out.push_str(pattern);
            out.push('/');
            out.push_str(flags);
        }
        // Never printed: a document with an unreadable value has a syntax error.
        ValueKind::Error => out.push_str("null"),
    }
}

fn flat_items(out: &mut String, items: &[Value]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        flat_into(out, item);
    }
}

/// Write `value` starting at column `used` of a line indented `level` times: flat when it fits
/// in [`MAX_WIDTH`], else (lists and calls) one element per line.
fn write_value(out: &mut String, value: &Value, level: usize, used: usize) {
    let budget = MAX_WIDTH.saturating_sub(used);
    let flat = flat_value(value);
    if flat.chars().count() <= budget {
        out.push_str(&flat);
        return;
    }
    let (open, close, items) = match &value.kind {
        ValueKind::List(items) if !items.is_empty() => ("[".to_string(), ']', items),
        ValueKind::Call { name, args } if !args.is_empty() => {
            (format!("{}(", name.name), ')', args)
        }
        ValueKind::Named { name, value } => {
            out.push_str(&name.name);
            out.push_str(" = ");
            let used = used + name.name.chars().count() + 3;
            write_value(out, value, level, used);
            return;
        }
        _ => {
            // A scalar (or empty list/call) never breaks; write it even if the line is long.
            out.push_str(&flat);
            return;
        }
    };
    out.push_str(&open);
    out.push('\n');
    for item in items {
        for _ in 0..=level {
            out.push_str(INDENT);
        }
        write_value(out, item, level + 1, (level + 1) * INDENT.len() + 1);
        out.push_str(",\n");
    }
    for _ in 0..level {
        out.push_str(INDENT);
    }
    out.push(close);
}
