//! Parameters: `each = [{ user = "alice", total = "25 EUR" }, …]` on a scenario
//! (`docs/acl.md` §2.3).
//!
//! Why at admission: each row becomes its own scenario, `checkout[alice]`, with `${user}`
//! replaced in the scenario's name and in every string of its own steps before they are checked —
//! so each instance is a closed, typed step list like any other, and a typo in `${usr}` is a
//! `test.spec.unknown_param` at its span, not a literal text typed into a page. `$${` writes a
//! literal `${`. The instance id is the value of the `id` key when the rows have one, else of
//! their first key; it must be a valid id and unique among the rows.

use super::context::{Annotate, Ctx};
use super::ids::id_problem;
use super::values::{list, type_error};
use crate::ast::{Attribute, Block, Item, Value, ValueKind};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::span::Span;

/// The scenario attribute that holds the rows.
pub(super) const EACH: &str = "each";

/// One row: its instance id and its values by key.
pub(super) struct Row {
    /// `alice` in `checkout[alice]`.
    pub(super) instance: String,
    values: Vec<(String, String)>,
}

/// The `each` attribute of a scenario block, if it has one.
pub(super) fn each(block: &Block) -> Option<&Attribute> {
    block.items.iter().find_map(|item| match item {
        Item::Attribute(a) if a.name.name == EACH => Some(a),
        _ => None,
    })
}

/// Read and check the rows of `each`.
pub(super) fn rows(ctx: &mut Ctx, attr: &Attribute) -> Option<Vec<Row>> {
    let items = list(ctx, attr)?;
    if items.is_empty() {
        ctx.error_in(
            Code::ParamRows,
            EACH,
            attr.value.span,
            "`each` holds no row",
        )
        .hint(Code::ParamRows.default_hint());
        return None;
    }
    let mut rows = Some(Vec::with_capacity(items.len()));
    let mut first_keys: Option<(Vec<&str>, Span)> = None;
    let mut instances: Vec<(&str, Span)> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let row = row(ctx, item, i, &mut first_keys, &mut instances);
        match (row, &mut rows) {
            (Some(r), Some(list)) => list.push(r),
            _ => rows = None,
        }
    }
    rows
}

fn row<'a>(
    ctx: &mut Ctx,
    item: &'a Value,
    index: usize,
    first_keys: &mut Option<(Vec<&'a str>, Span)>,
    instances: &mut Vec<(&'a str, Span)>,
) -> Option<Row> {
    let ValueKind::Object(entries) = &item.kind else {
        if let Some(d) = type_error(ctx, EACH, item, "a row `{ name = \"value\", … }`") {
            d.code = Code::ParamRows;
        }
        return None;
    };
    let mut ok = true;
    let mut values = Vec::with_capacity(entries.len());
    for (j, entry) in entries.iter().enumerate() {
        let key = entry.name.name.as_str();
        if let Some(first) = entries[..j].iter().find(|e| e.name.name == key) {
            ctx.error_in(
                Code::DuplicateAttribute,
                EACH,
                entry.name.span,
                format!("key `{key}` is given twice in this row"),
            )
            .also(first.name.span, "first given here");
            ok = false;
            continue;
        }
        match &entry.value.kind {
            ValueKind::String(s) => values.push((key.to_string(), s.clone())),
            _ => {
                if !super::values::unreadable(&entry.value) {
                    let found = entry.value.kind.describe();
                    ctx.error_in(
                        Code::Type,
                        EACH,
                        entry.value.span,
                        format!("`{key}` in a row of `each` must be a string, found {found}"),
                    )
                    .hint(format!("quote it: `{key} = \"…\"`"));
                }
                ok = false;
            }
        }
    }
    let keys: Vec<&str> = entries.iter().map(|e| e.name.name.as_str()).collect();
    match first_keys {
        None if keys.is_empty() => {
            ctx.error_in(
                Code::ParamRows,
                EACH,
                item.span,
                "a row of `each` holds no key",
            )
            .hint(Code::ParamRows.default_hint());
            return None;
        }
        None => *first_keys = Some((keys.clone(), item.span)),
        Some((first, first_span)) => {
            let mut a = first.clone();
            let mut b = keys.clone();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                ctx.error_in(
                    Code::ParamRows,
                    EACH,
                    item.span,
                    format!(
                        "row {} has the keys {}; row 1 has {}",
                        index + 1,
                        keys.join(", "),
                        first.join(", ")
                    ),
                )
                .also(*first_span, "row 1")
                .hint(Code::ParamRows.default_hint());
                return None;
            }
        }
    }
    // The instance id: the `id` key, else the first key of the first row.
    let first = first_keys.as_ref()?;
    let id_key = if first.0.contains(&"id") {
        "id"
    } else {
        first.0[0]
    };
    let id_entry = entries.iter().find(|e| e.name.name == id_key)?;
    let ValueKind::String(instance) = &id_entry.value.kind else {
        return None;
    };
    if let Some(problem) = id_problem(instance) {
        ctx.error_in(
            Code::InvalidId,
            EACH,
            id_entry.value.span,
            format!(
                "\"{instance}\" names this instance (`{}`) but is not a valid id: {problem}",
                id_entry.name.name
            ),
        )
        .hint("give the rows an `id` key of 1–64 characters of A-Z a-z 0-9 _ -, unique per row");
        ok = false;
    } else if let Some((_, first)) = instances.iter().find(|(i, _)| *i == instance) {
        ctx.error_in(
            Code::DuplicateId,
            EACH,
            id_entry.value.span,
            format!("instance id \"{instance}\" is used by two rows"),
        )
        .also(*first, "first used here")
        .hint("give the rows an `id` key with a different value per row");
        ok = false;
    } else {
        instances.push((instance, id_entry.value.span));
    }
    ok.then(|| Row {
        instance: instance.clone(),
        values,
    })
}

/// One `${…}` in a string, or an escape.
enum Piece<'s> {
    /// Text taken as it is.
    Text(&'s str),
    /// `${name}` at byte `at` of the string.
    Param { name: &'s str, at: usize },
}

/// Split `s` into text and `${name}` references; `$${` is a literal `${`, and a `${` that is
/// not closed is text.
fn pieces(s: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = 0;
    let mut i = 0;
    while let Some(found) = s[i..].find('$') {
        let at = i + found;
        let tail = &s[at..];
        if tail.starts_with("$${") {
            out.push(Piece::Text(&s[rest..at]));
            out.push(Piece::Text("${"));
            i = at + 3;
            rest = i;
        } else if let (true, Some(close)) = (tail.starts_with("${"), tail.find('}')) {
            out.push(Piece::Text(&s[rest..at]));
            out.push(Piece::Param {
                name: &tail[2..close],
                at,
            });
            i = at + close + 1;
            rest = i;
        } else {
            i = at + 1;
        }
    }
    out.push(Piece::Text(&s[rest..]));
    out
}

/// Report every `${name}` in the scenario (name and own steps) that names no key, once.
pub(super) fn check_references(ctx: &mut Ctx, block: &Block, keys: &[String]) -> bool {
    let mut ok = true;
    each_string(block, &mut |s, span| {
        for piece in pieces(s) {
            let Piece::Param { name, at } = piece else {
                continue;
            };
            if keys.iter().any(|k| k == name) {
                continue;
            }
            ok = false;
            // Offsets are in the decoded string; without escapes before it they are exact.
            let start = (span.start + 1 + at).min(span.end);
            let end = (start + name.len() + 3).min(span.end);
            let hint = match did_you_mean(name, keys.iter().map(String::as_str)) {
                Some(k) => format!("did you mean `${{{k}}}`?"),
                None => format!(
                    "the rows of `each` have {}; write `$${{` for a literal `${{`",
                    keys.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            ctx.error(
                Code::UnknownParam,
                Span::new(start, end),
                format!("`${{{name}}}` names no key of this scenario's `each` rows"),
            )
            .hint(hint);
        }
    });
    ok
}

/// The keys of the rows (from the first row).
pub(super) fn keys(rows: &[Row]) -> Vec<String> {
    rows.first()
        .map(|r| r.values.iter().map(|(k, _)| k.clone()).collect())
        .unwrap_or_default()
}

/// `block` with every `${name}` replaced by the row's value (and `$${` by `${`).
pub(super) fn substitute(block: &Block, row: &Row) -> Block {
    let mut block = block.clone();
    let replace = |s: &mut String| {
        if !s.contains('$') {
            return;
        }
        let mut out = String::with_capacity(s.len());
        for piece in pieces(s) {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Param { name, .. } => match row.values.iter().find(|(k, _)| k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => {
                        out.push_str("${");
                        out.push_str(name);
                        out.push('}');
                    }
                },
            }
        }
        *s = out;
    };
    each_string_mut(&mut block, &replace);
    block
}

/// Every string value of `block`'s attributes (but `each`) and of its nested blocks.
fn each_string(block: &Block, f: &mut dyn FnMut(&str, Span)) {
    let mut blocks = vec![block];
    while let Some(b) = blocks.pop() {
        for item in &b.items {
            match item {
                Item::Attribute(a) if a.name.name == EACH && std::ptr::eq(b, block) => {}
                Item::Attribute(a) => {
                    let mut values = vec![&a.value];
                    while let Some(v) = values.pop() {
                        match &v.kind {
                            ValueKind::String(s) => f(s, v.span),
                            ValueKind::List(items) | ValueKind::Call { args: items, .. } => {
                                values.extend(items)
                            }
                            ValueKind::Named { value, .. } => values.push(value),
                            ValueKind::Object(entries) => {
                                values.extend(entries.iter().map(|e| &e.value))
                            }
                            _ => {}
                        }
                    }
                }
                Item::Block(nested) => blocks.push(nested),
            }
        }
    }
}

fn each_string_mut(block: &mut Block, f: &dyn Fn(&mut String)) {
    let mut values: Vec<&mut Value> = Vec::new();
    let mut blocks = vec![(block, true)];
    while let Some((b, root)) = blocks.pop() {
        for item in &mut b.items {
            match item {
                Item::Attribute(a) if root && a.name.name == EACH => {}
                Item::Attribute(a) => values.push(&mut a.value),
                Item::Block(nested) => blocks.push((nested, false)),
            }
        }
    }
    while let Some(v) = values.pop() {
        match &mut v.kind {
            ValueKind::String(s) => f(s),
            ValueKind::List(items) | ValueKind::Call { args: items, .. } => {
                values.extend(items.iter_mut())
            }
            ValueKind::Named { value, .. } => values.push(value),
            ValueKind::Object(entries) => values.extend(entries.iter_mut().map(|e| &mut e.value)),
            _ => {}
        }
    }
}

/// Every instance of the parameterized scenario `block` (its `each` is `attr`): the rows read,
/// the references checked once, then each row substituted and checked by `check` in a forked
/// context (a mistake all instances share is reported once) and renamed `id[instance]`.
pub(super) fn instances(
    ctx: &mut Ctx,
    block: &Block,
    attr: &Attribute,
    check: &mut dyn FnMut(&mut Ctx, &Block) -> Option<crate::ir::Scenario>,
) -> Option<Vec<crate::ir::Scenario>> {
    let mark = ctx.enter_block(block);
    let rows = rows(ctx, attr);
    let references = rows
        .as_ref()
        .map(|rows| check_references(ctx, block, &keys(rows)));
    ctx.leave(mark);
    let rows = rows?;
    if references != Some(true) {
        return None;
    }
    let mut out = Some(Vec::with_capacity(rows.len()));
    for row in &rows {
        let instance = substitute(block, row);
        let mut fork = ctx.fork();
        let checked = check(&mut fork, &instance);
        ctx.absorb(fork);
        match (checked, &mut out) {
            (Some(s), Some(list)) => list.push(rename(s, &row.instance, block)),
            _ => out = None,
        }
    }
    out
}

/// `checkout` → `checkout[alice]`: the id, the default name and every path under the scenario.
fn rename(mut s: crate::ir::Scenario, instance: &str, block: &Block) -> crate::ir::Scenario {
    let base = s.path.clone();
    let renamed = format!("{base}[{instance}]");
    let move_path = |p: &mut String| {
        if let Some(rest) = p.strip_prefix(base.as_str()) {
            if rest.is_empty() || rest.starts_with('.') {
                *p = format!("{renamed}{rest}");
            }
        }
    };
    let has_name = block
        .items
        .iter()
        .any(|i| matches!(i, Item::Attribute(a) if a.name.name == "name"));
    s.id = format!("{}[{instance}]", s.id);
    if !has_name {
        s.name = s.id.clone();
    }
    move_path(&mut s.path);
    s.steps
        .iter_mut()
        .for_each(|step| move_path(&mut step.path));
    s.groups.iter_mut().for_each(|g| move_path(&mut g.path));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(s: &str) -> String {
        pieces(s)
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.to_string(),
                Piece::Param { name, at } => format!("<{name}@{at}>"),
            })
            .collect()
    }

    #[test]
    fn references_escapes_and_unclosed_openers() {
        assert_eq!(render("hi ${user}!"), "hi <user@3>!");
        assert_eq!(render("$${user}"), "${user}");
        assert_eq!(render("${a}${b}"), "<a@0><b@4>");
        assert_eq!(render("cost $5 ${"), "cost $5 ${");
        assert_eq!(render("$"), "$");
    }
}
