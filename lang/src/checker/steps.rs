//! Web steps (`docs/acl.md` §5): which step kinds exist, the attributes each takes, and how each
//! becomes an [`Action`].
//!
//! The kind name is resolved once to a [`ActionKind`]; one exhaustive `match` picks the schema and
//! one the builder, so a new step does not compile until both (and `ir::Action`) know it. Builders read every attribute before combining the results, so a step with
//! three mistakes reports three diagnostics.
//!
//! Bounds (`docs/acl.md` §5, "Page setup and observation"): viewport `width`/`height` 1–16,384 px
//! (the largest surface Chromium's compositor allocates), `scale` 1–10.

use super::browser_context::{self, CONTEXT_STEP_SCHEMA};
use super::clock;
use super::conditions::{self, EXPECT_SCHEMA, WAIT_SCHEMA};
use super::context::{Annotate, Ctx};
use super::evidence::{evidence_path, upload_paths};
use super::fields::Fields;
use super::gui;
use super::keys::{key_chord, modifier_list};
use super::network::{self, ROUTE_SCHEMA, UNROUTE_SCHEMA};
use super::operations::{self, CAPTURE_SCHEMA, DIALOG_SCHEMA, TAB_SCHEMA};
use super::pointer::{pointer_options, takes_pointer_options};
use super::request;
use super::storage;
use super::targets::{frame_target, target};
use super::text::text_value;
use super::urls::{url, UrlRule};
use super::values::{boolean, integer, keyword, optional, string_list_with, u32_in, ItemRules};
use crate::ast::Block;
use crate::code::Code;
use crate::ir::{Action, ActionKind, DragEdge, Target};

/// Largest viewport side in CSS pixels.
pub(super) const MAX_VIEWPORT_PX: u32 = 16_384;
/// Largest device scale factor.
pub(super) const MAX_SCALE: u32 = 10;

/// True when `kind` names a step block.
pub(super) fn is_step_kind(kind: &str) -> bool {
    ActionKind::from_name(kind).is_some()
}

/// The attributes step `kind` accepts.
pub(super) fn schema(kind: ActionKind) -> &'static [&'static str] {
    use ActionKind::*;
    match kind {
        Navigate => &["url"],
        Click => &["target", "button", "modifiers", "via"],
        DoubleClick => &["target", "button", "modifiers"],
        ContextClick | Hover => &["target", "modifiers"],
        Focus | Check | Uncheck | Frame => &["target"],
        Fill | Type => &["target", "value"],
        InsertText => &["value"],
        Select => &["target", "values"],
        Drag => &["source", "target", "edge"],
        Press => &["key", "target"],
        Wheel => &["delta_x", "delta_y", "modifiers", "target"],
        Viewport => &["width", "height", "scale"],
        Snapshot => &["interactive"],
        Wait => WAIT_SCHEMA,
        Expect => &EXPECT_SCHEMA,
        Screenshot => &["path"],
        Accessibility => &["path", "interactive"],
        Console | PageErrors => &["path", "clear"],
        Tab => TAB_SCHEMA,
        Dialog => DIALOG_SCHEMA,
        Upload => &["target", "paths"],
        Download => &["target", "path"],
        NetworkRoute => ROUTE_SCHEMA,
        NetworkUnroute => UNROUTE_SCHEMA,
        Request => request::SCHEMA,
        RouteFromHar => request::HAR_SCHEMA,
        Har | Trace => CAPTURE_SCHEMA,
        SaveStorageState => storage::SAVE_SCHEMA,
        CheckContract => super::contract_step::SCHEMA,
        Context => CONTEXT_STEP_SCHEMA,
        ClockFastForward | ClockPauseAt | ClockResume | ClockSetFixedTime => clock::schema(kind),
        // Judged by `terminal.rs`, which `action` hands them to first.
        TerminalPaste | TerminalResize | TerminalRecording => &[],
    }
}

/// A required element-target attribute.
fn required_target(ctx: &mut Ctx, fields: &Fields<'_>, name: &str) -> Option<Target> {
    let attr = fields.required(ctx, name)?;
    target(ctx, name, &attr.value)
}

/// An optional boolean with a default.
fn flag(ctx: &mut Ctx, fields: &Fields<'_>, name: &str, default: bool) -> Option<bool> {
    match fields.get(name) {
        Some(attr) => boolean(ctx, attr),
        None => Some(default),
    }
}

/// Check step `block`, of kind `kind`, at the current path and build its action.
pub(super) fn action(ctx: &mut Ctx, block: &Block, kind: ActionKind) -> Option<Action> {
    if super::terminal::applies(ctx, block, kind) {
        return super::terminal::action(ctx, block, kind);
    }
    if super::gui::refuse_step(ctx, block, kind) {
        return None;
    }
    let action = web_action(ctx, block, kind)?;
    super::gui::admit_built(ctx, block, &action).then_some(action)
}

/// Check step `block` by the web rules (a desktop step is written the same way).
fn web_action(ctx: &mut Ctx, block: &Block, kind: ActionKind) -> Option<Action> {
    use ActionKind::*;
    // Pointer steps may hold a `position` block, which `pointer_options` judges.
    let f = if takes_pointer_options(kind) {
        Fields::collect(ctx, block, schema(kind))
    } else {
        Fields::collect_leaf(ctx, block, schema(kind))
    };
    let f = &f;
    Some(match kind {
        Navigate => {
            let u = f
                .required(ctx, "url")
                .and_then(|a| url(ctx, a, UrlRule::Page));
            Action::Navigate {
                url: u?.to_string(),
            }
        }
        Click | Hover | DoubleClick | ContextClick => {
            let target = required_target(ctx, f, "target");
            let pointer = pointer_options(ctx, f, kind);
            let via = match kind {
                Click => f.get("via").map(|a| gui::click_via(ctx, a)),
                _ => None,
            };
            let (target, pointer, via) = (target?, pointer?, optional(via)?.unwrap_or_default());
            let (via, action) = via;
            match kind {
                Click => Action::Click {
                    target,
                    pointer,
                    via,
                    action,
                },
                Hover => Action::Hover { target, pointer },
                DoubleClick => Action::DoubleClick { target, pointer },
                _ => Action::ContextClick { target, pointer },
            }
        }
        Focus | Check | Uncheck => {
            let target = required_target(ctx, f, "target")?;
            match kind {
                Focus => Action::Focus { target },
                Check => Action::Check { target },
                _ => Action::Uncheck { target },
            }
        }
        Fill | Type => {
            let t = required_target(ctx, f, "target");
            let value = f
                .required(ctx, "value")
                .and_then(|a| text_value(ctx, a, false));
            let (target, value) = (t?, value?);
            if kind == Fill {
                Action::Fill { target, value }
            } else {
                Action::Type { target, value }
            }
        }
        InsertText => {
            let value = f
                .required(ctx, "value")
                .and_then(|a| text_value(ctx, a, true));
            Action::InsertText { value: value? }
        }
        Select => {
            let t = required_target(ctx, f, "target");
            let rules = ItemRules {
                non_empty: false,
                unique: false,
                at_least_one: true,
            };
            let values = f
                .required(ctx, "values")
                .and_then(|a| string_list_with(ctx, a, rules));
            Action::Select {
                target: t?,
                values: values?.into_iter().map(str::to_string).collect(),
            }
        }
        Drag => {
            let source = required_target(ctx, f, "source");
            let t = required_target(ctx, f, "target");
            let edge = f
                .get("edge")
                .map(|a| keyword(ctx, a, DragEdge::KEYWORDS, DragEdge::from_keyword));
            Action::Drag {
                source: source?,
                target: t?,
                edge: optional(edge)?,
            }
        }
        Press => {
            let key = f.required(ctx, "key").and_then(|a| key_chord(ctx, a));
            let t = f.get("target").map(|a| target(ctx, "target", &a.value));
            Action::Press {
                key: key?,
                target: optional(t)?,
            }
        }
        Wheel => wheel(ctx, f)?,
        Viewport => {
            let width = f
                .required(ctx, "width")
                .and_then(|a| u32_in(ctx, a, 1, MAX_VIEWPORT_PX));
            let height = f
                .required(ctx, "height")
                .and_then(|a| u32_in(ctx, a, 1, MAX_VIEWPORT_PX));
            let scale = f.get("scale").map(|a| u32_in(ctx, a, 1, MAX_SCALE));
            Action::Viewport {
                width: width?,
                height: height?,
                scale: optional(scale)?,
            }
        }
        Snapshot => Action::Snapshot {
            interactive: flag(ctx, f, "interactive", true)?,
        },
        Wait => Action::Wait {
            condition: conditions::wait(ctx, f)?,
        },
        Expect => Action::Expect {
            expectation: conditions::expect(ctx, f)?,
        },
        Screenshot => {
            let path = f
                .required(ctx, "path")
                .and_then(|a| evidence_path(ctx, a, Some(".png")));
            Action::Screenshot { path: path? }
        }
        Accessibility => {
            let path = f
                .required(ctx, "path")
                .and_then(|a| evidence_path(ctx, a, None));
            let interactive = flag(ctx, f, "interactive", false);
            Action::Accessibility {
                path: path?,
                interactive: interactive?,
            }
        }
        Console | PageErrors => {
            let path = f
                .required(ctx, "path")
                .and_then(|a| evidence_path(ctx, a, None));
            let clear = flag(ctx, f, "clear", false);
            let (path, clear) = (path?, clear?);
            if kind == Console {
                Action::Console { path, clear }
            } else {
                Action::PageErrors { path, clear }
            }
        }
        Tab => Action::Tab {
            operation: operations::tab(ctx, f)?,
        },
        Frame => {
            let attr = f.required(ctx, "target")?;
            Action::Frame {
                target: frame_target(ctx, "target", &attr.value)?,
            }
        }
        Dialog => Action::Dialog {
            operation: operations::dialog(ctx, f)?,
        },
        Upload => {
            let t = required_target(ctx, f, "target");
            let paths = f.required(ctx, "paths").and_then(|a| upload_paths(ctx, a));
            Action::Upload {
                target: t?,
                paths: paths?,
            }
        }
        Download => {
            let t = required_target(ctx, f, "target");
            let path = f
                .required(ctx, "path")
                .and_then(|a| evidence_path(ctx, a, None));
            Action::Download {
                target: t?,
                path: path?,
            }
        }
        NetworkRoute => {
            let network::Route {
                pattern,
                response,
                times,
            } = network::route(ctx, f)?;
            Action::NetworkRoute {
                pattern,
                response,
                times,
            }
        }
        Request => request::request(ctx, f)?,
        RouteFromHar => request::route_from_har(ctx, f)?,
        NetworkUnroute => Action::NetworkUnroute {
            pattern: network::unroute(ctx, f)?,
        },
        Har => Action::Har {
            operation: operations::capture(ctx, f)?,
        },
        Trace => Action::Trace {
            operation: operations::capture(ctx, f)?,
        },
        SaveStorageState => storage::save(ctx, f)?,
        CheckContract => super::contract_step::step(ctx, f)?,
        Context => browser_context::step(ctx, f)?,
        ClockFastForward | ClockPauseAt | ClockResume | ClockSetFixedTime => {
            clock::step(ctx, f, kind)?
        }
        // `terminal::applies` holds for every terminal-only kind, so none arrives here.
        TerminalPaste | TerminalResize | TerminalRecording => return None,
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
        Some(a) => modifier_list(ctx, a),
        None => Some(Vec::new()),
    };
    let t = f.get("target").map(|a| target(ctx, "target", &a.value));
    if let (Some(0), Some(0), Some(attr)) = (delta_y, delta_x, f.get("delta_y")) {
        ctx.error_in(
            Code::WheelDelta,
            "delta_y",
            attr.value.span,
            "`wheel` scrolls by 0 pixels in both directions",
        )
        .hint("set `delta_y` (down > 0, up < 0) or `delta_x` to a non-zero number of pixels");
        return None;
    }
    Some(Action::Wheel {
        delta_x: delta_x?,
        delta_y: delta_y?,
        modifiers: modifiers?,
        target: optional(t)?,
    })
}

/// Report `block` as not a step: "did you mean …?" for a near miss of a step kind, otherwise
/// `otherwise` as the hint. Suites and agent statements share it.
pub(super) fn unknown_step(ctx: &mut Ctx, block: &Block, otherwise: &str) {
    let kind = &block.kind.name;
    let hint = match crate::diagnostic::did_you_mean(kind, ActionKind::ALL.iter().map(|k| k.name()))
    {
        Some(s) => format!("did you mean `{s}`?"),
        None => otherwise.to_string(),
    };
    ctx.error_in(
        Code::UnknownBlock,
        kind,
        block.kind.span,
        format!("`{kind}` is not a step"),
    )
    .hint(hint);
}
