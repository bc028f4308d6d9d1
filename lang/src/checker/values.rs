//! Typed readers for attribute values: strings, integers in a range, booleans, keywords and lists.
//!
//! Each reader takes the attribute, reports a `test.spec.type` (wrong kind of value, saying what
//! was expected and what was found) or `test.spec.invalid_value` (right kind, outside its set or
//! range) at the value's own span, and returns `None` on any problem. A value the parser could not
//! read (`ValueKind::Error`) already has its syntax diagnostic, so every reader returns `None` for
//! it silently: one mistake, one diagnostic.

use super::context::{Annotate, Ctx};
use super::seen::Seen;
use crate::ast::{Attribute, Value, ValueKind};
use crate::code::Code;
use crate::diagnostic::{did_you_mean, Diagnostic};

/// True when the parser could not read `value` or any value inside it (a list item or call
/// argument): its syntax diagnostic is already reported, so the checker does not judge it again.
pub(super) fn unreadable(value: &Value) -> bool {
    match &value.kind {
        ValueKind::Error => true,
        ValueKind::List(items) => items.iter().any(unreadable),
        ValueKind::Call { args, .. } => args.iter().any(unreadable),
        ValueKind::Named { value, .. } => unreadable(value),
        ValueKind::Object(entries) => entries.iter().any(|e| unreadable(&e.value)),
        _ => false,
    }
}

/// Report that `value` (of attribute `name`) is not the `expected` kind; returns the diagnostic
/// (`None` for an unreadable value, which already has its syntax diagnostic).
pub(super) fn type_error<'c>(
    ctx: &'c mut Ctx,
    name: &str,
    value: &Value,
    expected: &str,
) -> Option<&'c mut Diagnostic> {
    if unreadable(value) {
        return None;
    }
    if super::text::is_env_call(value) {
        // Not "found a function call": say where a variable may be read instead.
        let d = ctx.error_in(
            Code::Type,
            name,
            value.span,
            format!("`{name}` must be {expected}; it cannot read an environment variable"),
        );
        d.hint(super::text::ENV_ALLOWED);
        return Some(d);
    }
    let found = value.kind.describe();
    let d = ctx.error_in(
        Code::Type,
        name,
        value.span,
        format!("`{name}` must be {expected}, found {found}"),
    );
    if let (ValueKind::Float(f), true) = (&value.kind, expected.contains("integer")) {
        d.hint(whole_number_hint(*f));
    } else {
        d.hint(format!("give `{name}` {expected}"));
    }
    Some(d)
}

/// "write `2` or `3`" for a decimal where an integer belongs.
fn whole_number_hint(f: f64) -> String {
    let (lo, hi) = (f.floor(), f.ceil());
    if lo == hi {
        format!("every number in ACL v1 is an integer: write `{lo}` without the fraction")
    } else {
        format!("every number in ACL v1 is an integer: write `{lo}` or `{hi}`")
    }
}

/// A string attribute.
pub(super) fn string<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    match &attr.value.kind {
        ValueKind::String(s) => Some(s),
        _ => {
            type_error(ctx, &attr.name.name, &attr.value, "a string");
            None
        }
    }
}

/// A string attribute that must hold something other than whitespace.
pub(super) fn non_empty<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let s = string(ctx, attr)?;
    if s.trim().is_empty() {
        empty(ctx, attr);
        return None;
    }
    Some(s)
}

/// Reports a string attribute that holds only whitespace where something is required.
pub(super) fn empty(ctx: &mut Ctx, attr: &Attribute) {
    let name = &attr.name.name;
    ctx.error_in(
        Code::InvalidValue,
        name,
        attr.value.span,
        format!("`{name}` must not be empty"),
    )
    .hint(format!("give `{name}` a non-empty string"));
}

/// A boolean attribute.
pub(super) fn boolean(ctx: &mut Ctx, attr: &Attribute) -> Option<bool> {
    match attr.value.kind {
        ValueKind::Bool(b) => Some(b),
        _ => {
            type_error(
                ctx,
                &attr.name.name,
                &attr.value,
                "a boolean (`true` or `false`)",
            );
            None
        }
    }
}

/// An integer attribute.
pub(super) fn integer(ctx: &mut Ctx, attr: &Attribute) -> Option<i64> {
    match attr.value.kind {
        ValueKind::Integer(n) => Some(n),
        _ => {
            type_error(ctx, &attr.name.name, &attr.value, "an integer");
            None
        }
    }
}

/// An integer attribute within `min..=max` (`test.spec.invalid_value` outside it).
pub(super) fn integer_in(ctx: &mut Ctx, attr: &Attribute, min: i64, max: i64) -> Option<i64> {
    let n = integer(ctx, attr)?;
    if n < min || n > max {
        let name = &attr.name.name;
        ctx.error_in(
            Code::InvalidValue,
            name,
            attr.value.span,
            format!("`{name}` must be between {min} and {max}, found {n}"),
        )
        .hint(format!("give `{name}` an integer from {min} to {max}"));
        return None;
    }
    Some(n)
}

/// [`integer_in`] narrowed to `u32` (`max` must fit).
pub(super) fn u32_in(ctx: &mut Ctx, attr: &Attribute, min: u32, max: u32) -> Option<u32> {
    integer_in(ctx, attr, i64::from(min), i64::from(max)).and_then(|n| u32::try_from(n).ok())
}

/// [`integer_in`] narrowed to `u64` (`min` must be ≥ 0).
pub(super) fn u64_in(ctx: &mut Ctx, attr: &Attribute, min: u64, max: u64) -> Option<u64> {
    let clamp = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    integer_in(ctx, attr, clamp(min), clamp(max)).and_then(|n| u64::try_from(n).ok())
}

/// A string attribute that must be one of a fixed set of keywords.
pub(super) fn keyword<T>(
    ctx: &mut Ctx,
    attr: &Attribute,
    all: &[&'static str],
    parse: impl Fn(&str) -> Option<T>,
) -> Option<T> {
    let s = string(ctx, attr)?;
    if let Some(value) = parse(s) {
        return Some(value);
    }
    let name = &attr.name.name;
    let d = ctx.error_in(
        Code::InvalidValue,
        name,
        attr.value.span,
        format!(
            "`{name}` must be one of {}, found \"{s}\"",
            quoted_list(all)
        ),
    );
    if let Some(suggestion) = did_you_mean(s, all.iter().copied()) {
        d.hint(format!("did you mean \"{suggestion}\"?"));
    } else {
        d.hint(format!("use one of {}", quoted_list(all)));
    }
    None
}

/// `"a", "b" or "c"`.
pub(super) fn quoted_list(all: &[&str]) -> String {
    match all {
        [] => String::new(),
        [one] => format!("\"{one}\""),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|s| format!("\"{s}\"")).collect();
            format!("{} or \"{last}\"", init.join(", "))
        }
    }
}

/// A list attribute's items.
pub(super) fn list<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a [Value]> {
    match &attr.value.kind {
        ValueKind::List(items) => Some(items),
        _ => {
            type_error(ctx, &attr.name.name, &attr.value, "a list");
            None
        }
    }
}

/// A list of strings; every item is checked, so each wrong item gets its own diagnostic.
pub(super) fn string_list<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<Vec<&'a str>> {
    let items = list(ctx, attr)?;
    let name = &attr.name.name;
    let mut out = Some(Vec::with_capacity(items.len()));
    for item in items {
        match &item.kind {
            ValueKind::String(s) => {
                if let Some(out) = &mut out {
                    out.push(s.as_str());
                }
            }
            _ if unreadable(item) => out = None,
            _ if super::text::is_env_call(item) => {
                ctx.error_in(
                    Code::Type,
                    name,
                    item.span,
                    format!(
                        "`{name}` items must be strings; they cannot read an environment variable"
                    ),
                )
                .hint(super::text::ENV_ALLOWED);
                out = None;
            }
            other => {
                ctx.error_in(
                    Code::Type,
                    name,
                    item.span,
                    format!("`{name}` items must be strings, found {}", other.describe()),
                )
                .hint(format!("quote each item of `{name}`"));
                out = None;
            }
        }
    }
    out
}

/// Which list items must hold more than whitespace, and whether repeats are allowed.
#[derive(Debug, Clone, Copy)]
pub(super) struct ItemRules {
    /// Reject items that are empty or only whitespace.
    pub(super) non_empty: bool,
    /// Reject a repeated item (the list is a set).
    pub(super) unique: bool,
    /// Reject an empty list.
    pub(super) at_least_one: bool,
}

impl ItemRules {
    /// A set of non-empty names that may be empty itself (`tags`, `file_prefixes`).
    pub(super) const NAME_SET: ItemRules = ItemRules {
        non_empty: true,
        unique: true,
        at_least_one: false,
    };
}

/// A list of strings checked against `rules`; each offending item is reported at its own span.
pub(super) fn string_list_with<'a>(
    ctx: &mut Ctx,
    attr: &'a Attribute,
    rules: ItemRules,
) -> Option<Vec<&'a str>> {
    let strings = string_list(ctx, attr)?;
    let ValueKind::List(items) = &attr.value.kind else {
        return None;
    };
    let name = &attr.name.name;
    let mut ok = true;
    if rules.at_least_one && strings.is_empty() {
        ctx.error_in(
            Code::InvalidValue,
            name,
            attr.value.span,
            format!("`{name}` must not be empty"),
        )
        .hint(format!("give `{name}` at least one item"));
        ok = false;
    }
    let mut seen: Seen<'_, usize> =
        Seen::with_capacity(if rules.unique { strings.len() } else { 0 });
    for (index, (s, item)) in strings.iter().zip(items).enumerate() {
        if rules.non_empty && s.trim().is_empty() {
            ctx.error_in(
                Code::InvalidValue,
                name,
                item.span,
                format!("`{name}` items must not be empty"),
            )
            .hint("remove the empty item or give it a value");
            ok = false;
            continue;
        }
        if rules.unique {
            if let Some(first) = seen.first_or_insert(s, index) {
                ctx.error_in(
                    Code::InvalidValue,
                    name,
                    item.span,
                    format!("\"{s}\" appears twice in `{name}`"),
                )
                .hint(format!("`{name}` is a set: keep one \"{s}\""))
                .also(items[first].span, "first listed here");
                ok = false;
            }
        }
    }
    ok.then_some(strings)
}

/// Fold an optional attribute's read — absent (`None`), present but invalid (`Some(None)`), valid
/// (`Some(Some(v))`) — into "invalid" (`None`) or "valid, maybe absent" (`Some(Option<T>)`).
pub(super) fn optional<T>(read: Option<Option<T>>) -> Option<Option<T>> {
    match read {
        None => Some(None),
        Some(None) => None,
        Some(Some(value)) => Some(Some(value)),
    }
}
