//! How the pointer steps press (`docs/acl.md` §5): `button`, `modifiers` and a nested
//! `position { x = … y = … }` block on `click`, `double_click`, `context_click` and `hover`.
//!
//! `button` is `"left"`, `"right"` or `"middle"` and belongs to `click` and `double_click` only
//! (`context_click` is the right button by definition; `hover` presses nothing). `position` is a
//! block rather than an attribute because ACL values have no record form: `position { x = 4
//! y = 8 }` reads as what it is, a point relative to the top-left corner of the target's padding box,
//! both coordinates required, 0–[`MAX_POSITION_PX`]. Whether the point lies inside the box can
//! only be known on the page, so the driver checks that.

use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::ids::forbid_label;
use super::keys::modifier_list;
use super::values::{keyword, optional, u32_in};
use crate::ast::{Block, Item};
use crate::code::Code;
use crate::ir::{ActionKind, MouseButton, PointerOptions, Position};

/// The largest coordinate of a `position` (the largest viewport side).
pub(super) const MAX_POSITION_PX: u32 = super::steps::MAX_VIEWPORT_PX;

/// The attributes of `position { … }`.
pub(super) const POSITION_SCHEMA: &[&str] = &["x", "y"];

/// Whether step `kind` takes pointer options (and so may hold a `position` block).
pub(super) fn takes_pointer_options(kind: ActionKind) -> bool {
    matches!(
        kind,
        ActionKind::Click | ActionKind::DoubleClick | ActionKind::ContextClick | ActionKind::Hover
    )
}

/// Read `button`, `modifiers` and the `position` block of a pointer step. `fields` were read
/// with [`Fields::collect`], so nested blocks are this function's to judge.
pub(super) fn pointer_options(
    ctx: &mut Ctx,
    fields: &Fields<'_>,
    kind: ActionKind,
) -> Option<PointerOptions> {
    let takes_button = matches!(kind, ActionKind::Click | ActionKind::DoubleClick);
    let button = if takes_button {
        fields
            .get("button")
            .map(|a| keyword(ctx, a, MouseButton::KEYWORDS, MouseButton::from_keyword))
    } else {
        None
    };
    let modifiers = match fields.get("modifiers") {
        Some(a) => modifier_list(ctx, a),
        None => Some(Vec::new()),
    };
    let position = position_block(ctx, fields.block());
    Some(PointerOptions {
        button: optional(button)?,
        modifiers: modifiers?,
        position: position?,
    })
}

/// The one `position { x y }` block of `step`, if any; every other nested block is reported.
fn position_block(ctx: &mut Ctx, step: &Block) -> Option<Option<Position>> {
    let mut found: Option<&Block> = None;
    let mut out = Some(None);
    for item in &step.items {
        let Item::Block(nested) = item else { continue };
        let kind = nested.kind.name.as_str();
        if kind != "position" {
            ctx.error_in(
                Code::UnknownBlock,
                kind,
                nested.kind.span,
                format!(
                    "`{}` holds attributes and one `position` block, not a `{kind}` block",
                    step.kind.name
                ),
            )
            .hint(format!("move `{kind}` out of `{}`", step.kind.name));
            out = None;
            continue;
        }
        if let Some(first) = found {
            ctx.error_in(
                Code::DuplicateAttribute,
                "position",
                header(nested),
                format!("`position` is given twice in `{}`", step.kind.name),
            )
            .also(header(first), "first given here")
            .hint("keep one `position { x = … y = … }`");
            out = None;
            continue;
        }
        found = Some(nested);
        let inner = ctx.enter("position");
        forbid_label(ctx, nested);
        let f = Fields::collect_leaf(ctx, nested, POSITION_SCHEMA);
        let x = f
            .required(ctx, "x")
            .and_then(|a| u32_in(ctx, a, 0, MAX_POSITION_PX));
        let y = f
            .required(ctx, "y")
            .and_then(|a| u32_in(ctx, a, 0, MAX_POSITION_PX));
        ctx.leave(inner);
        match (x, y, &mut out) {
            (Some(x), Some(y), Some(slot)) => *slot = Some(Position { x, y }),
            _ => out = None,
        }
    }
    out
}
