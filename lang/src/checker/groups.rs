//! Step lists that may call groups: a scenario's steps, a suite hook (`before_each`,
//! `after_each`) and a `steps "name" { … }` group (`docs/acl.md` §2.1–§2.2).
//!
//! Why here and not in `suite.rs`: each list is checked ONCE where it is written — a hook is not
//! re-checked for every scenario, a group not for every `use` — so a mistake inside one is
//! reported once. The items keep their paths relative to the list; `expand.rs` places them.

use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::ids::{forbid_label, required_label, IdSet};
use super::suite::step;
use super::values::non_empty;
use crate::ast::{Block, Item};
use crate::code::Code;
use crate::ir::{GroupCall, GroupDef, GroupItem};

/// The step that calls a group.
pub(super) const USE: &str = "use";
/// The block that defines a group.
pub(super) const STEPS: &str = "steps";
pub(super) const USE_SCHEMA: &[&str] = &["steps"];

/// Check the step blocks of `block` (a scenario, hook or group; its path already entered) into
/// items whose paths are relative to `block`. `None` when any of them is in error; `Some(empty)`
/// when it holds no block (the caller says what an empty list means for it).
pub(super) fn step_items(ctx: &mut Ctx, block: &Block) -> Option<Vec<GroupItem>> {
    let base = ctx.path().len();
    let mut items = Some(Vec::with_capacity(block.items.len()));
    let mut labels = IdSet::with_capacity(block.items.len());
    for item in &block.items {
        let Item::Block(nested) = item else { continue };
        let checked = if nested.kind.name == USE {
            use_call(ctx, nested, &mut labels).map(GroupItem::Use)
        } else {
            step(ctx, nested, &mut labels).map(|mut s| {
                s.path = relative(&s.path, base);
                GroupItem::Step(s)
            })
        };
        match (checked, &mut items) {
            (Some(i), Some(list)) => list.push(i),
            _ => items = None,
        }
    }
    items
}

/// The part of `path` after the list's own path (`base` bytes long) and its dot.
fn relative(path: &str, base: usize) -> String {
    path.get(base + 1..).unwrap_or(path).to_string()
}

/// `use "label" { steps = "name" }`, or `use "name" {}` calling the group its label names.
fn use_call<'a>(ctx: &mut Ctx, block: &'a Block, labels: &mut IdSet<'a>) -> Option<GroupCall> {
    let mark = ctx.enter_block(block);
    let label = required_label(ctx, block);
    if let Some(lit) = &block.label {
        labels.insert(ctx, "step label", lit);
    }
    let path = ctx.path().to_string();
    let fields = Fields::collect_leaf(ctx, block, USE_SCHEMA);
    let named = fields
        .get("steps")
        .map(|a| (non_empty(ctx, a), a.value.span));
    ctx.leave(mark);
    let label = label?;
    let (group, name_span) = match named {
        Some((name, span)) => (name?.to_string(), span),
        None => (label.to_string(), block.label.as_ref()?.span),
    };
    Some(GroupCall {
        label: label.to_string(),
        group,
        span: block.span,
        name_span,
        path,
    })
}

/// `before_each { … }` or `after_each { … }`: no label, at least one step.
pub(super) fn hook(ctx: &mut Ctx, block: &Block) -> Option<Vec<GroupItem>> {
    let mark = ctx.enter_block(block);
    forbid_label(ctx, block);
    Fields::collect(ctx, block, &[]);
    let items = step_items(ctx, block);
    if items.as_ref().is_some_and(Vec::is_empty) {
        let kind = &block.kind.name;
        ctx.error(
            Code::EmptyGroup,
            header(block),
            format!("`{kind}` holds no step"),
        )
        .hint(format!(
            "add a step such as `navigate \"open\" {{ url = \"/\" }}`, or delete `{kind}`"
        ));
    }
    ctx.leave(mark);
    items.filter(|i| !i.is_empty())
}

/// `steps "name" { … }`: a label that is a valid id, at least one step. `names` keeps the
/// names unique within the file.
pub(super) fn group<'a>(
    ctx: &mut Ctx,
    block: &'a Block,
    names: &mut IdSet<'a>,
) -> Option<GroupDef> {
    let mark = ctx.enter_block(block);
    let name = required_label(ctx, block);
    if let Some(lit) = &block.label {
        names.insert(ctx, "group name", lit);
    }
    Fields::collect(ctx, block, &[]);
    let items = step_items(ctx, block);
    if items.as_ref().is_some_and(Vec::is_empty) {
        ctx.error(Code::EmptyGroup, header(block), "the group holds no step")
            .hint(Code::EmptyGroup.default_hint());
    }
    ctx.leave(mark);
    let items = items.filter(|i| !i.is_empty())?;
    Some(GroupDef {
        name: name?.to_string(),
        items,
        span: block.span,
    })
}
