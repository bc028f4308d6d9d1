//! Web steps (ACL.md §4): which step kinds exist, the attributes each takes, and how each becomes
//! an [`Action`].
//!
//! One `match` on the block kind picks the schema and one picks the builder, so adding a step means
//! adding an arm to both (and a variant to `ir::Action`, which the compiler then enforces
//! everywhere else). Builders read every attribute before combining the results, so a step with
//! three mistakes reports three diagnostics.
//!
//! Bounds chosen here (ACL.md gives only "> 0"): viewport `width`/`height` 1–16,384 px (the largest
//! surface Chromium's compositor allocates), `scale` 1–10.

use super::conditions::{self, EXPECT_SCHEMA, WAIT_SCHEMA};
use super::context::{Annotate, Ctx};
use super::evidence::{evidence_path, upload_paths};
use super::fields::{reject_nested_blocks, Fields};
use super::keys::{key_chord, wheel_modifiers};
use super::network::{self, ROUTE_SCHEMA, UNROUTE_SCHEMA};
use super::operations::{self, CAPTURE_SCHEMA, DIALOG_SCHEMA, TAB_SCHEMA};
use super::targets::{frame_target, target};
use super::urls::{url, UrlRule};
use super::values::{optional, boolean, integer, string, string_list_with, u32_in, ItemRules};
use crate::ast::Block;
use crate::code::Code;
use crate::ir::{Action, Target};

/// Every step block kind, in ACL.md §4 order.
pub(super) const STEP_KINDS: &[&str] = &[
    "navigate",
    "click",
    "hover",
    "focus",
    "double_click",
    "context_click",
    "check",
    "uncheck",
    "fill",
    "type",
    "insert_text",
    "select",
    "drag",
    "press",
    "wheel",
    "viewport",
    "snapshot",
    "wait",
    "expect",
    "screenshot",
    "accessibility",
    "console",
    "page_errors",
    "tab",
    "frame",
    "dialog",
    "upload",
    "download",
    "network_route",
    "network_unroute",
    "har",
    "trace",
];

/// Largest viewport side in CSS pixels.
pub(super) const MAX_VIEWPORT_PX: u32 = 16_384;
/// Largest device scale factor.
pub(super) const MAX_SCALE: u32 = 10;

/// True when `kind` names a step block.
pub(super) fn is_step_kind(kind: &str) -> bool {
    STEP_KINDS.contains(&kind)
}

/// The attributes step `kind` accepts.
fn schema(kind: &str) -> &'static [&'static str] {
    match kind {
        "navigate" => &["url"],
        "click" | "hover" | "focus" | "double_click" | "context_click" | "check" | "uncheck" | "frame" => &["target"],
        "fill" | "type" => &["target", "value"],
        "insert_text" => &["value"],
        "select" => &["target", "values"],
        "drag" => &["source", "target"],
        "press" => &["key"],
        "wheel" => &["delta_x", "delta_y", "modifiers", "target"],
        "viewport" => &["width", "height", "scale"],
        "snapshot" => &["interactive"],
        "wait" => WAIT_SCHEMA,
        "expect" => EXPECT_SCHEMA,
        "screenshot" => &["path"],
        "accessibility" => &["path", "interactive"],
        "console" | "page_errors" => &["path", "clear"],
        "tab" => TAB_SCHEMA,
        "dialog" => DIALOG_SCHEMA,
        "upload" => &["target", "paths"],
        "download" => &["target", "path"],
        "network_route" => ROUTE_SCHEMA,
        "network_unroute" => UNROUTE_SCHEMA,
        "har" | "trace" => CAPTURE_SCHEMA,
        _ => &[],
    }
}

/// A required element-target attribute.
fn required_target(ctx: &mut Ctx, fields: &Fields<'_>, name: &str) -> Option<Target> {
    let attr = fields.required(ctx, name)?;
    target(ctx, name, &attr.value)
}

/// A required string attribute.
fn required_string(ctx: &mut Ctx, fields: &Fields<'_>, name: &str) -> Option<String> {
    let attr = fields.required(ctx, name)?;
    string(ctx, attr).map(str::to_string)
}

/// An optional boolean with a default.
fn flag(ctx: &mut Ctx, fields: &Fields<'_>, name: &str, default: bool) -> Option<bool> {
    match fields.get(name) {
        Some(attr) => boolean(ctx, attr),
        None => Some(default),
    }
}

/// Check step `block` (whose kind is in [`STEP_KINDS`]) at the current path and build its action.
pub(super) fn action(ctx: &mut Ctx, block: &Block) -> Option<Action> {
    let kind = block.kind.name.as_str();
    debug_assert!(is_step_kind(kind), "`{kind}` is not a step");
    reject_nested_blocks(ctx, block);
    let f = Fields::collect(ctx, block, schema(kind));
    let f = &f;
    Some(match kind {
        "navigate" => {
            let u = f.required(ctx, "url").and_then(|a| url(ctx, a, UrlRule::Page));
            Action::Navigate { url: u?.to_string() }
        }
        "click" => Action::Click { target: required_target(ctx, f, "target")? },
        "hover" => Action::Hover { target: required_target(ctx, f, "target")? },
        "focus" => Action::Focus { target: required_target(ctx, f, "target")? },
        "double_click" => Action::DoubleClick { target: required_target(ctx, f, "target")? },
        "context_click" => Action::ContextClick { target: required_target(ctx, f, "target")? },
        "check" => Action::Check { target: required_target(ctx, f, "target")? },
        "uncheck" => Action::Uncheck { target: required_target(ctx, f, "target")? },
        "fill" | "type" => {
            let t = required_target(ctx, f, "target");
            let value = required_string(ctx, f, "value");
            let (target, value) = (t?, value?);
            if kind == "fill" {
                Action::Fill { target, value }
            } else {
                Action::Type { target, value }
            }
        }
        "insert_text" => {
            let value = f.required(ctx, "value").and_then(|a| super::values::non_empty(ctx, a));
            Action::InsertText { value: value?.to_string() }
        }
        "select" => {
            let t = required_target(ctx, f, "target");
            let rules = ItemRules { non_empty: false, unique: false, at_least_one: true };
            let values = f.required(ctx, "values").and_then(|a| string_list_with(ctx, a, rules));
            Action::Select { target: t?, values: values?.into_iter().map(str::to_string).collect() }
        }
        "drag" => {
            let source = required_target(ctx, f, "source");
            let t = required_target(ctx, f, "target");
            Action::Drag { source: source?, target: t? }
        }
        "press" => Action::Press { key: f.required(ctx, "key").and_then(|a| key_chord(ctx, a))? },
        "wheel" => wheel(ctx, f)?,
        "viewport" => {
            let width = f.required(ctx, "width").and_then(|a| u32_in(ctx, a, 1, MAX_VIEWPORT_PX));
            let height = f.required(ctx, "height").and_then(|a| u32_in(ctx, a, 1, MAX_VIEWPORT_PX));
            let scale = f.get("scale").map(|a| u32_in(ctx, a, 1, MAX_SCALE));
            Action::Viewport { width: width?, height: height?, scale: optional(scale)? }
        }
        "snapshot" => Action::Snapshot { interactive: flag(ctx, f, "interactive", true)? },
        "wait" => Action::Wait { condition: conditions::wait(ctx, f)? },
        "expect" => Action::Expect { expectation: conditions::expect(ctx, f)? },
        "screenshot" => {
            let path = f.required(ctx, "path").and_then(|a| evidence_path(ctx, a, Some(".png")));
            Action::Screenshot { path: path? }
        }
        "accessibility" => {
            let path = f.required(ctx, "path").and_then(|a| evidence_path(ctx, a, None));
            let interactive = flag(ctx, f, "interactive", false);
            Action::Accessibility { path: path?, interactive: interactive? }
        }
        "console" | "page_errors" => {
            let path = f.required(ctx, "path").and_then(|a| evidence_path(ctx, a, None));
            let clear = flag(ctx, f, "clear", false);
            let (path, clear) = (path?, clear?);
            if kind == "console" {
                Action::Console { path, clear }
            } else {
                Action::PageErrors { path, clear }
            }
        }
        "tab" => Action::Tab { operation: operations::tab(ctx, f)? },
        "frame" => {
            let attr = f.required(ctx, "target")?;
            Action::Frame { target: frame_target(ctx, "target", &attr.value)? }
        }
        "dialog" => Action::Dialog { operation: operations::dialog(ctx, f)? },
        "upload" => {
            let t = required_target(ctx, f, "target");
            let paths = f.required(ctx, "paths").and_then(|a| upload_paths(ctx, a));
            Action::Upload { target: t?, paths: paths? }
        }
        "download" => {
            let t = required_target(ctx, f, "target");
            let path = f.required(ctx, "path").and_then(|a| evidence_path(ctx, a, None));
            Action::Download { target: t?, path: path? }
        }
        "network_route" => {
            let (pattern, response) = network::route(ctx, f)?;
            Action::NetworkRoute { pattern, response }
        }
        "network_unroute" => Action::NetworkUnroute { pattern: network::unroute(ctx, f)? },
        "har" => Action::Har { operation: operations::capture(ctx, f)? },
        "trace" => Action::Trace { operation: operations::capture(ctx, f)? },
        _ => return None,
    })
}

/// `wheel { delta_y = … delta_x = … modifiers = [...] target = … }`.
fn wheel(ctx: &mut Ctx, f: &Fields<'_>) -> Option<Action> {
    let delta_y = f.required(ctx, "delta_y").and_then(|a| integer(ctx, a));
    let delta_x = match f.get("delta_x") {
        Some(a) => integer(ctx, a),
        None => Some(0),
    };
    let modifiers = match f.get("modifiers") {
        Some(a) => wheel_modifiers(ctx, a),
        None => Some(Vec::new()),
    };
    let t = f.get("target").map(|a| target(ctx, "target", &a.value));
    if let (Some(0), Some(0), Some(attr)) = (delta_y, delta_x, f.get("delta_y")) {
        ctx.error_in(Code::WheelDelta, "delta_y", attr.value.span, "`wheel` scrolls by 0 pixels in both directions")
            .hint("set `delta_y` (down > 0, up < 0) or `delta_x` to a non-zero number of pixels");
        return None;
    }
    Some(Action::Wheel { delta_x: delta_x?, delta_y: delta_y?, modifiers: modifiers?, target: optional(t)? })
}
