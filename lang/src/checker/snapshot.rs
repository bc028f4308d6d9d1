//! `expect { screenshot = "cart.png" … }` and `expect { aria_snapshot = """…""" }`
//! (`docs/acl.md` §9.2): the baseline name, the visual options, and the outline.
//!
//! Why a file of its own: the visual options are helper attributes only `screenshot` reads, with
//! fractions (`threshold`, `max_diff_ratio`) that no other attribute takes; keeping them here
//! leaves `conditions.rs` one form per arm.

use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::targets::target;
use super::values::{boolean, keyword, list, non_empty, optional, string, type_error, u64_in};
use crate::ast::{Attribute, ValueKind};
use crate::code::Code;
use crate::ir::{
    Animations, AriaExpectation, DiffBudget, ExpectCondition, SnapshotName, Surface, Target,
    VisualExpectation, DEFAULT_THRESHOLD, MAX_MASKS,
};

/// The helper attributes only `screenshot` reads.
pub(super) const VISUAL_HELPERS: &[&str] = &[
    "max_diff_pixels",
    "max_diff_ratio",
    "threshold",
    "mask",
    "full_page",
    "animations",
];

/// Most differing pixels `max_diff_pixels` may tolerate (a 16k × 16k page).
const MAX_DIFF_PIXELS: u64 = 268_435_456;

/// `screenshot = "name.png"` with its options.
pub(super) fn screenshot(
    ctx: &mut Ctx,
    fields: &Fields<'_>,
    attr: &Attribute,
) -> Option<ExpectCondition> {
    let desktop = desktop_attributes(ctx, fields);
    let name = non_empty(ctx, attr).and_then(|n| match SnapshotName::parse(n) {
        Ok(name) => Some(name),
        Err(why) => {
            ctx.error_in(
                Code::InvalidValue,
                "screenshot",
                attr.value.span,
                format!("`screenshot` names no baseline file: {why}"),
            )
            .hint("name the baseline like \"cart.png\"; it is kept in `<suite>.snapshots/`");
            None
        }
    });
    let budget = budget(ctx, fields);
    let threshold = match fields.get("threshold") {
        Some(a) => fraction(ctx, a),
        None => Some(DEFAULT_THRESHOLD),
    };
    let mask = optional(fields.get("mask").map(|a| masks(ctx, a)));
    let full_page = optional(fields.get("full_page").map(|a| boolean(ctx, a)));
    let animations = optional(fields.get("animations").map(|a| {
        keyword(ctx, a, &["disabled", "allow"], |s| match s {
            "disabled" => Some(Animations::Disabled),
            "allow" => Some(Animations::Allow),
            _ => None,
        })
    }));
    desktop?;
    Some(ExpectCondition::Screenshot(VisualExpectation {
        name: name?,
        budget: budget?,
        threshold: threshold?,
        mask: mask?.unwrap_or_default(),
        full_page: full_page?.unwrap_or(false),
        animations: animations?.unwrap_or(Animations::Disabled),
    }))
}

/// In a desktop scenario, `animations` (a page's CSS animations, paused for the capture) names
/// nothing a window has: refused where it is written, never ignored. (`full_page` is judged on
/// the admitted value in [`super::gui`], which also sees steps hooks bring in.)
fn desktop_attributes(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<()> {
    if ctx.surface() != Some(Surface::Gui) {
        return Some(());
    }
    let Some(animations) = fields.get("animations") else {
        return Some(());
    };
    ctx.error_in(
        Code::SurfaceStep,
        "animations",
        animations.name.span,
        "`animations` pauses a page's CSS animations; a desktop window has none to pause",
    )
    .hint("remove `animations`; a desktop capture counts once two captures in a row are equal");
    None
}

/// `max_diff_pixels` or `max_diff_ratio` (not both); none is zero pixels.
fn budget(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<DiffBudget> {
    match (fields.get("max_diff_pixels"), fields.get("max_diff_ratio")) {
        (Some(_), Some(ratio)) => {
            ctx.error_in(
                Code::InvalidValue,
                "max_diff_ratio",
                ratio.name.span,
                "`max_diff_pixels` and `max_diff_ratio` both bound the same difference",
            )
            .hint("keep one of them");
            None
        }
        (Some(p), None) => u64_in(ctx, p, 0, MAX_DIFF_PIXELS).map(DiffBudget::Pixels),
        (None, Some(r)) => fraction(ctx, r).map(DiffBudget::Ratio),
        (None, None) => Some(DiffBudget::Pixels(0)),
    }
}

/// A number from 0 to 1 (`0.2`, `0`, `1`).
fn fraction(ctx: &mut Ctx, attr: &Attribute) -> Option<f64> {
    let name = &attr.name.name;
    let value = match attr.value.kind {
        ValueKind::Float(f) => f,
        ValueKind::Integer(n) => n as f64,
        _ => {
            type_error(ctx, name, &attr.value, "a number from 0 to 1");
            return None;
        }
    };
    if !(0.0..=1.0).contains(&value) {
        ctx.error_in(
            Code::InvalidValue,
            name,
            attr.value.span,
            format!("`{name}` must be between 0 and 1, found {value}"),
        )
        .hint(format!("give `{name}` a fraction such as 0.2"));
        return None;
    }
    Some(value)
}

/// `mask = [targets]`: stable targets, each re-resolved at every capture.
fn masks(ctx: &mut Ctx, attr: &Attribute) -> Option<Vec<Target>> {
    let items = list(ctx, attr)?;
    if items.len() > MAX_MASKS {
        ctx.error_in(
            Code::InvalidValue,
            "mask",
            attr.value.span,
            format!(
                "`mask` lists {} targets; the limit is {MAX_MASKS}",
                items.len()
            ),
        )
        .hint("mask a container of the changing parts instead");
        return None;
    }
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for item in items {
        match target(ctx, "mask", item) {
            Some(t) if t.is_stable() => out.push(t),
            Some(_) => {
                ctx.error_in(
                    Code::InvalidValue,
                    "mask",
                    item.span,
                    "`mask` needs stable targets, not a ref bound to one observation",
                )
                .hint("mask with `css(…)`, `role(…)` or `testid(…)`");
                ok = false;
            }
            None => ok = false,
        }
    }
    ok.then_some(out)
}

/// `aria_snapshot = """…"""` with an optional stable `target`.
pub(super) fn aria(
    ctx: &mut Ctx,
    fields: &Fields<'_>,
    attr: &Attribute,
) -> Option<ExpectCondition> {
    let snapshot = string(ctx, attr).and_then(|s| match crate::ir::parse_aria(s) {
        Ok(_) => Some(s),
        Err(e) => {
            ctx.error_in(
                Code::InvalidValue,
                "aria_snapshot",
                attr.value.span,
                format!("`aria_snapshot` outline, {e}"),
            )
            .hint("write one node per line: `- role \"name\" [attr]`, children indented deeper");
            None
        }
    });
    let scope = optional(
        fields
            .get("target")
            .map(|t| target(ctx, "target", &t.value)),
    );
    Some(ExpectCondition::AriaSnapshot(AriaExpectation {
        snapshot: snapshot?.to_string(),
        target: scope?,
        value_span: attr.value.span,
    }))
}
