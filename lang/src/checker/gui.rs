//! The desktop surface rule (`docs/gui.md`): a `surface = "gui"` scenario holds the desktop
//! steps ([`GUI_STEPS`]) over the targets a desktop has (`role`, `label`, `text`,
//! `automation_id`) and the conditions it can read; a browser-only step, condition or target
//! there is `test.spec.surface_step` at the step, and an `automation_id` target outside a
//! desktop scenario is too — never a guess at runtime.
//!
//! Why after expansion, over the admitted steps: desktop steps are written and checked as the
//! web ones are (same blocks, same attributes), so what is left to judge is which of them a
//! desktop can run, and hooks and `use` groups bring steps in from elsewhere. A step written in
//! the scenario itself is refused at its own block ([`refuse_step`]), with the same code.

use super::context::{Annotate, Ctx};
use super::values::{keyword, string};
use crate::ast::{Attribute, Block};
use crate::code::Code;
use crate::ir::{
    Action, ActionKind, ElementState, ExpectCondition, InputVia, PageCondition, PointerOptions,
    Step, Surface, Target, VisualExpectation, WaitCondition, GUI_STEPS,
};

/// How `via` names an action: `"action:NAME"`.
const ACTION_PREFIX: &str = "action:";

/// A `click`'s `via`: `"pointer"`, `"action"` (the element's first click-like accessibility
/// action) or `"action:NAME"` (the action of that name, for an element that has several —
/// a GTK3 table cell's `activate` beside `edit`), with the action's name. Why one attribute and
/// not a second one beside it: the name means nothing without `via = "action"`, and one value
/// cannot contradict itself.
pub(super) fn click_via(ctx: &mut Ctx, attr: &Attribute) -> Option<(InputVia, Option<String>)> {
    let value = string(ctx, attr)?;
    let Some(name) = value.strip_prefix(ACTION_PREFIX) else {
        return keyword(ctx, attr, InputVia::KEYWORDS, InputVia::from_keyword).map(|v| (v, None));
    };
    let name = name.trim();
    if name.is_empty() {
        ctx.error_in(
            Code::InvalidValue,
            &attr.name.name,
            attr.value.span,
            format!("`via = \"{value}\"` names no action"),
        )
        .hint(
            "name the element's accessibility action, as in `via = \"action:activate\"`, or \
             write `via = \"action\"` for its first click-like one",
        );
        return None;
    }
    Some((InputVia::Action, Some(name.to_owned())))
}

/// The element states a desktop reads (AT-SPI states), in `expect`.
const GUI_STATES: &[ElementState] = &[
    ElementState::Enabled,
    ElementState::Disabled,
    ElementState::Checked,
    ElementState::Unchecked,
    ElementState::Selected,
    ElementState::Unselected,
    ElementState::Focused,
    ElementState::Unfocused,
];

/// The desktop steps as a list for hints.
fn step_names() -> String {
    GUI_STEPS
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A browser-only (or terminal-only) step block written in a desktop scenario: refused at its
/// block, true when it was.
pub(super) fn refuse_step(ctx: &mut Ctx, block: &Block, kind: ActionKind) -> bool {
    if ctx.surface() != Some(Surface::Gui) || GUI_STEPS.contains(&kind) {
        return false;
    }
    ctx.error(
        Code::SurfaceStep,
        block.kind.span,
        format!(
            "`{}` is not a desktop step; this scenario's surface is gui",
            kind.name()
        ),
    )
    .hint(format!(
        "a desktop scenario holds {}; or set `surface = \"web\"`",
        step_names()
    ));
    true
}

/// A step just built in a scenario of a known surface: refused at its block when that surface
/// cannot run it; true when it may stay.
pub(super) fn admit_built(ctx: &mut Ctx, block: &Block, action: &Action) -> bool {
    let Some(surface) = ctx.surface() else {
        // A hook or group of a mixed suite: judged per scenario after expansion.
        return true;
    };
    match problem(surface, action) {
        None => true,
        Some((message, hint)) => {
            ctx.error(Code::SurfaceStep, block.kind.span, message)
                .hint(hint);
            false
        }
    }
}

/// After expansion: every step a hook or `use` group brought into a desktop scenario runs on a
/// desktop, and none brought into another scenario names an `automation_id` (steps written in
/// the scenario were judged at their block). True when nothing was refused.
pub(super) fn check_surface(ctx: &mut Ctx, surface: Surface, steps: &[Step]) -> bool {
    let mut ok = true;
    for step in steps
        .iter()
        .filter(|s| s.group.is_some() || s.hook.is_some())
    {
        if let Some((message, hint)) = problem(surface, &step.action) {
            ok = false;
            ctx.error_at(Code::SurfaceStep, &step.path, step.span, message)
                .hint(hint);
        }
    }
    ok
}

/// Why a scenario of `surface` cannot run `action` (message, hint), if it cannot.
fn problem(surface: Surface, action: &Action) -> Option<(String, String)> {
    match surface {
        Surface::Gui => desktop_problem(action),
        Surface::Web | Surface::Tui => {
            if let Action::Click {
                via: InputVia::Action,
                ..
            } = action
            {
                return Some((
                    "`via = \"action\"` is a desktop attribute: a page is clicked with real pointer input".to_string(),
                    "remove `via`, or use it in a `surface = \"gui\"` scenario".to_string(),
                ));
            }
            action
                .targets()
                .into_iter()
                .any(contains_automation_id)
                .then(|| {
                    (
                        "`automation_id` is a desktop target".to_string(),
                        "use it in a `surface = \"gui\"` scenario; on a page write `testid(…)`"
                            .to_string(),
                    )
                })
        }
    }
}

/// Why a desktop cannot run `action` (message, hint), if it cannot.
fn desktop_problem(action: &Action) -> Option<(String, String)> {
    let kind = action.kind();
    if matches!(action, Action::Terminal(_)) {
        // `terminal::check_surface` reports these.
        return None;
    }
    if !GUI_STEPS.contains(&kind) {
        return Some((
            format!("this `{kind}` is not a desktop step; the scenario's surface is gui"),
            format!(
                "a desktop scenario holds {}; hooks and groups a desktop scenario uses hold them too",
                step_names()
            ),
        ));
    }
    match action {
        Action::Click { pointer, .. } | Action::DoubleClick { pointer, .. }
            if *pointer != PointerOptions::default() =>
        {
            return Some((
                format!(
                    "`{kind}` on a desktop takes a target only (no button, modifiers or position)"
                ),
                "a desktop click presses the left button at the element's visible centre".into(),
            ))
        }
        Action::Wheel { modifiers, .. } if !modifiers.is_empty() => return Some((
            "`wheel` on a desktop takes no modifiers".into(),
            "write `wheel { target = … delta_y = 300 }` (pixels: one wheel click per started 100)"
                .into(),
        )),
        Action::Wait { condition } => match condition {
            WaitCondition::Page(PageCondition::Text { .. })
            | WaitCondition::Page(PageCondition::Visible { .. })
            | WaitCondition::Page(PageCondition::Hidden { .. }) => {}
            _ => {
                return Some((
                    "a desktop `wait` waits for `text`, `visible` or `hidden`".into(),
                    "load states, URLs and network waits are the browser's".into(),
                ))
            }
        },
        Action::Expect { expectation } => {
            if let Some(name) = browser_condition(&expectation.condition) {
                return Some((
                    format!("`{name}` is a browser condition; the scenario's surface is gui"),
                    "a desktop `expect` checks text, visible, hidden, rendered_text, value, visible_count, screenshot or a state (enabled, disabled, checked, unchecked, selected, unselected, focused, unfocused)".into(),
                ));
            }
            if let ExpectCondition::Screenshot(visual) = &expectation.condition {
                if let Some(problem) = desktop_screenshot_problem(visual) {
                    return Some(problem);
                }
            }
        }
        _ => {}
    }
    for target in action.targets() {
        if let Some(function) = browser_target(target) {
            return Some((
                format!("`{function}(…)` is a browser target; the scenario's surface is gui"),
                "a desktop target is role(\"push button\", \"7\"), label(…), text(…) or automation_id(…)".into(),
            ));
        }
    }
    None
}

/// Why a desktop cannot compare this screenshot (message, hint), if it cannot: a window has no
/// page to scroll (`full_page`), and its masks are desktop targets like any other.
///
/// `animations` is not judged here: the admitted value cannot tell a written `"disabled"` from
/// the default, so the attribute itself is refused where it is written
/// ([`super::snapshot::screenshot`]).
fn desktop_screenshot_problem(visual: &VisualExpectation) -> Option<(String, String)> {
    if visual.full_page {
        return Some((
            "`full_page` is a page's; a desktop screenshot is the program's window".into(),
            "remove `full_page`; the baseline is the whole window".into(),
        ));
    }
    visual.mask.iter().find_map(browser_target).map(|function| {
        (
            format!(
                "`mask` names `{function}(…)`, a browser target; the scenario's surface is gui"
            ),
            "mask with role(…), label(…), text(…) or automation_id(…)".into(),
        )
    })
}

/// The name of a condition a desktop cannot read, if it is one.
fn browser_condition(condition: &ExpectCondition) -> Option<&'static str> {
    Some(match condition {
        ExpectCondition::Page(PageCondition::Text { .. })
        | ExpectCondition::Page(PageCondition::Visible { .. })
        | ExpectCondition::Page(PageCondition::Hidden { .. })
        | ExpectCondition::RenderedText { .. }
        | ExpectCondition::Value { .. }
        | ExpectCondition::VisibleCount { .. } => return None,
        ExpectCondition::State { state, .. } if GUI_STATES.contains(state) => return None,
        ExpectCondition::State { state, .. } => state.keyword(),
        ExpectCondition::Page(PageCondition::Url { .. }) => "url",
        ExpectCondition::InViewport { .. } => "in_viewport",
        ExpectCondition::PointerReachable { .. } => "pointer_reachable",
        ExpectCondition::RenderedTexts { .. } => "rendered_texts",
        ExpectCondition::SelectedValues { .. } => "selected_values",
        ExpectCondition::ViewportCoverage { .. } => "viewport_coverage",
        ExpectCondition::Layout { .. } => "layout",
        ExpectCondition::Screenshot(_) => return None,
        ExpectCondition::AriaSnapshot(_) => "aria_snapshot",
    })
}

/// The function of a target a desktop cannot resolve, if it is one.
fn browser_target(target: &Target) -> Option<&'static str> {
    match target {
        Target::Role { .. } | Target::Label { .. } | Target::Text { .. } => None,
        // Admitted only in a statement (suites refuse it where written); the desktop session
        // judges it.
        Target::AutomationId { .. } | Target::VisualPoint { .. } => None,
        Target::Placeholder { .. } => Some("placeholder"),
        Target::TestId { .. } => Some("testid"),
        Target::Css { .. } => Some("css"),
        Target::Ref { .. } => Some("ref"),
        Target::Within { .. } => Some("within"),
        Target::Nth { .. } => Some("nth"),
        Target::Filter { filter, .. } => Some(filter.function()),
    }
}

fn contains_automation_id(target: &Target) -> bool {
    match target {
        Target::AutomationId { .. } => true,
        Target::Within { outer, inner } => {
            contains_automation_id(outer) || contains_automation_id(inner)
        }
        Target::Nth { target, .. } | Target::Filter { target, .. } => {
            contains_automation_id(target)
        }
        _ => false,
    }
}
