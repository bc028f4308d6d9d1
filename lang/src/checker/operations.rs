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
use super::values::{optional, keyword, string, type_error};
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
type OperationTable = &'static [(&'static str, &'static [&'static str])];

const TAB_OPERATIONS: OperationTable =
    &[("list", &[]), ("new", &["url", "label"]), ("switch", &["tab"]), ("close", &["tab"])];
const DIALOG_OPERATIONS: OperationTable = &[("status", &[]), ("accept", &["text"]), ("dismiss", &[])];
const CAPTURE_OPERATIONS: OperationTable = &[("start", &[]), ("stop", &["path"])];

/// Read `operation` and report attributes it does not take. Returns the operation name.
fn operation(ctx: &mut Ctx, fields: &Fields<'_>, table: OperationTable) -> Option<&'static str> {
    let names: Vec<&'static str> = table.iter().map(|(name, _)| *name).collect();
    let attr = fields.required(ctx, "operation")?;
    let (op, takes) = keyword(ctx, attr, &names, |s| table.iter().find(|(name, _)| *name == s).copied())?;
    let kind = &fields.block().kind.name;
    let mut judged: Vec<&str> = Vec::new();
    for name in table.iter().flat_map(|(_, attrs)| attrs.iter().copied()) {
        if takes.contains(&name) || judged.contains(&name) {
            continue;
        }
        judged.push(name);
        let Some(extra) = fields.get(name) else { continue };
        let owners: Vec<String> =
            table.iter().filter(|(_, a)| a.contains(&name)).map(|(o, _)| format!("\"{o}\"")).collect();
        ctx.error_in(
            Code::OperationAttribute,
            name,
            extra.name.span,
            format!("`{kind}` operation \"{op}\" takes no `{name}`"),
        )
        .hint(format!("remove `{name}`, or use operation {}", owners.join(" or ")));
    }
    Some(op)
}

/// `tab { operation = … }`.
pub(super) fn tab(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<TabOperation> {
    let op = operation(ctx, fields, TAB_OPERATIONS);
    let new_url = fields.get("url").map(|a| url(ctx, a, UrlRule::Page));
    let label = fields.get("label").map(|a| tab_label(ctx, a));
    let tab = fields.get("tab").map(|a| tab_ref(ctx, a));
    Some(match op? {
        "list" => TabOperation::List,
        "new" => TabOperation::New {
            url: optional(new_url)?.map(str::to_string),
            label: optional(label)?.map(str::to_string),
        },
        "switch" => {
            let Some(tab) = tab else {
                fields.required(ctx, "tab");
                return None;
            };
            TabOperation::Switch { tab: tab? }
        }
        _ => TabOperation::Close { tab: optional(tab)? },
    })
}

/// A tab label: an id, so it can be named again by `switch`.
fn tab_label<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let label = string(ctx, attr)?;
    if let Some(reason) = id_problem(label) {
        ctx.error_in(Code::InvalidId, "label", attr.value.span, format!("tab label \"{label}\" is not a valid id: {reason}"));
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
                ctx.error_in(Code::InvalidValue, "tab", attr.value.span, format!("tab index {n} is out of range"))
                    .hint("tab indexes count from 0 in opening order");
                None
            }
        },
        ValueKind::String(_) => tab_label(ctx, attr).map(|l| TabRef::Label(l.to_string())),
        _ => {
            type_error(ctx, "tab", &attr.value, "a tab index (integer) or a tab label (string)");
            None
        }
    }
}

/// `dialog { operation = … }`.
pub(super) fn dialog(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<DialogOperation> {
    let op = operation(ctx, fields, DIALOG_OPERATIONS);
    let text = fields.get("text").map(|a| string(ctx, a));
    Some(match op? {
        "status" => DialogOperation::Status,
        "accept" => DialogOperation::Accept { text: optional(text)?.map(str::to_string) },
        _ => DialogOperation::Dismiss,
    })
}

/// `har` / `trace { operation = … }`.
pub(super) fn capture(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<CaptureOperation> {
    let op = operation(ctx, fields, CAPTURE_OPERATIONS);
    let path = fields.get("path").map(|a| evidence_path(ctx, a, None));
    Some(match op? {
        "start" => CaptureOperation::Start,
        _ => {
            let Some(path) = path else {
                fields.required(ctx, "path");
                return None;
            };
            CaptureOperation::Stop { path: path? }
        }
    })
}
