//! Steps with an `operation`: `tab`, `dialog`, `har` and `trace`.
//!
//! Each operation takes its own subset of the block's attributes; one it does not take is
//! `test.spec.operation_attribute` (the hint names the operation that does take it). When the
//! operation itself is missing or unknown, the other attributes are still type-checked but not
//! judged against an operation that was never chosen.

use super::context::{Annotate, Ctx};
use super::evidence::evidence_path;
use super::fields::Fields;
use super::ids::id_problem;
use super::urls::{url, UrlRule};
use super::values::{keyword, optional, string, type_error};
use crate::ast::{Attribute, ValueKind};
use crate::code::Code;
use crate::ir::{CaptureOperation, DialogOperation, TabOperation, TabRef};

/// Attributes of `tab`.
pub(super) const TAB_SCHEMA: &[&str] = &["operation", "url", "label", "tab"];
/// Attributes of `dialog`.
pub(super) const DIALOG_SCHEMA: &[&str] = &["operation", "text"];
/// Attributes of `har` and `trace`.
pub(super) const CAPTURE_SCHEMA: &[&str] = &["operation", "path"];

/// Which operations take which attributes: `(operation, attributes)`.
pub(super) type OperationTable = &'static [(&'static str, &'static [&'static str])];

pub(super) const TAB_OPERATIONS: OperationTable = &[
    ("list", &[]),
    ("new", &["url", "label"]),
    ("switch", &["tab"]),
    ("close", &["tab"]),
];
pub(super) const DIALOG_OPERATIONS: OperationTable =
    &[("status", &[]), ("accept", &["text"]), ("dismiss", &[])];
pub(super) const CAPTURE_OPERATIONS: OperationTable = &[("start", &[]), ("stop", &["path"])];

/// An operation and the attributes it takes.
type Operation = (&'static str, &'static [&'static str]);

/// Read `operation` and report attributes it does not take.
fn operation(ctx: &mut Ctx, fields: &Fields<'_>, table: OperationTable) -> Option<Operation> {
    let names: Vec<&'static str> = table.iter().map(|(name, _)| *name).collect();
    let attr = fields.required(ctx, "operation")?;
    let (op, takes) = keyword(ctx, attr, &names, |s| {
        table.iter().find(|(name, _)| *name == s).copied()
    })?;
    let kind = &fields.block().kind.name;
    let mut judged: Vec<&str> = Vec::new();
    for name in table.iter().flat_map(|(_, attrs)| attrs.iter().copied()) {
        if takes.contains(&name) || judged.contains(&name) {
            continue;
        }
        judged.push(name);
        let Some(extra) = fields.get(name) else {
            continue;
        };
        let owners: Vec<String> = table
            .iter()
            .filter(|(_, a)| a.contains(&name))
            .map(|(o, _)| format!("\"{o}\""))
            .collect();
        ctx.error_in(
            Code::OperationAttribute,
            name,
            extra.name.span,
            format!("`{kind}` operation \"{op}\" takes no `{name}`"),
        )
        .hint(format!(
            "remove `{name}`, or use operation {}",
            owners.join(" or ")
        ));
    }
    Some((op, takes))
}

/// Whether `name` should be read: the operation takes it, or the operation is unknown (then its
/// value is still type-checked so no second mistake hides behind the first).
fn reads(op: Option<Operation>, name: &str) -> bool {
    op.is_none_or(|(_, takes)| takes.contains(&name))
}

/// `<kind> operation "<op>" needs <name>` at the block header.
fn missing_for(ctx: &mut Ctx, fields: &Fields<'_>, op: &str, name: &str) {
    let kind = &fields.block().kind.name;
    fields.report_missing(
        ctx,
        name,
        format!("`{kind}` operation \"{op}\" needs `{name}`"),
        format!("add `{name} = …` to this `{kind}` block"),
    );
}

/// `tab { operation = … }`.
pub(super) fn tab(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<TabOperation> {
    let op = operation(ctx, fields, TAB_OPERATIONS);
    let new_url = fields
        .get("url")
        .filter(|_| reads(op, "url"))
        .map(|a| url(ctx, a, UrlRule::Page));
    let label = fields
        .get("label")
        .filter(|_| reads(op, "label"))
        .map(|a| tab_label(ctx, a));
    let tab = fields
        .get("tab")
        .filter(|_| reads(op, "tab"))
        .map(|a| tab_ref(ctx, a));
    Some(match op?.0 {
        "list" => TabOperation::List,
        "new" => TabOperation::New {
            url: optional(new_url)?.map(str::to_string),
            label: optional(label)?.map(str::to_string),
        },
        "switch" => {
            let Some(tab) = tab else {
                missing_for(ctx, fields, "switch", "tab");
                return None;
            };
            TabOperation::Switch { tab: tab? }
        }
        _ => TabOperation::Close {
            tab: optional(tab)?,
        },
    })
}

/// A tab label: an id, so it can be named again by `switch`.
fn tab_label<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let label = string(ctx, attr)?;
    if let Some(reason) = id_problem(label) {
        ctx.error_in(
            Code::InvalidId,
            "label",
            attr.value.span,
            format!("tab label \"{label}\" is not a valid id: {reason}"),
        );
        return None;
    }
    Some(label)
}

/// `tab = 0` (zero-based index) or `tab = "docs"` (a label given at `new`).
fn tab_ref(ctx: &mut Ctx, attr: &Attribute) -> Option<TabRef> {
    match &attr.value.kind {
        ValueKind::Integer(n) => match u32::try_from(*n) {
            Ok(index) => Some(TabRef::Index(index)),
            Err(_) => {
                ctx.error_in(
                    Code::InvalidValue,
                    "tab",
                    attr.value.span,
                    format!("tab index {n} is out of range"),
                )
                .hint("tab indexes count from 0 in opening order");
                None
            }
        },
        ValueKind::String(_) => tab_label(ctx, attr).map(|l| TabRef::Label(l.to_string())),
        _ => {
            type_error(
                ctx,
                "tab",
                &attr.value,
                "a tab index (integer) or a tab label (string)",
            );
            None
        }
    }
}

/// `dialog { operation = … }`.
pub(super) fn dialog(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<DialogOperation> {
    let op = operation(ctx, fields, DIALOG_OPERATIONS);
    let text = fields
        .get("text")
        .filter(|_| reads(op, "text"))
        .map(|a| string(ctx, a));
    Some(match op?.0 {
        "status" => DialogOperation::Status,
        "accept" => DialogOperation::Accept {
            text: optional(text)?.map(str::to_string),
        },
        _ => DialogOperation::Dismiss,
    })
}

/// `har` / `trace { operation = … }`.
pub(super) fn capture(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<CaptureOperation> {
    let op = operation(ctx, fields, CAPTURE_OPERATIONS);
    let path = fields
        .get("path")
        .filter(|_| reads(op, "path"))
        .map(|a| evidence_path(ctx, a, None));
    Some(match op?.0 {
        "start" => CaptureOperation::Start,
        _ => {
            let Some(path) = path else {
                missing_for(ctx, fields, "stop", "path");
                return None;
            };
            CaptureOperation::Stop { path: path? }
        }
    })
}
