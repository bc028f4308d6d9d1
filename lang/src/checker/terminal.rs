//! Terminal steps (`docs/acl.md` §5.1): the steps of a `surface = "tui"` scenario, and the
//! surface rule — a browser step or page condition in a terminal scenario, or a terminal step or
//! screen condition in a web one, is `test.spec.surface_step`, never a guess.
//!
//! Why the rule lives here: `wait`, `expect`, `press`, `type`, `snapshot` and `screenshot` are
//! written the same on both surfaces but mean different things (a terminal has no targets, no
//! URL, no load states), so the scenario's surface (carried by the checker context while its
//! own steps are checked) picks the builder. Hooks and `steps` groups are checked once where they
//! are written — by the terminal rules when every scenario of the suite is a terminal one
//! ([`suite_surface`]), else by the web rules; [`check_surface`] then refuses, per scenario, an
//! expanded step that is not of the scenario's surface.

use super::conditions::EXPECT_SCHEMA;
use super::context::{header, Annotate, Ctx};
use super::evidence::evidence_path;
use super::fields::Fields;
use super::steps::schema;
use super::text::text_value;
use super::values::{integer_in, list, string, u32_in};
use crate::ast::{Attribute, Block, Item, ValueKind};
use crate::code::Code;
use crate::ir::terminal_key::Key;
use crate::ir::{
    Action, ActionKind, ScreenMatch, Step, Surface, TerminalCondition, TerminalStep,
    TERMINAL_ONLY_STEPS, TERMINAL_STEPS,
};

/// Conditions only a terminal `wait`/`expect` takes.
const SCREEN_ONLY: &[&str] = &["regex", "not_text", "cursor_at", "exit_code"];
const WAIT_SCHEMA: &[&str] = &["text", "regex"];
const EXPECT_CONDITIONS: &[&str] = &["text", "regex", "not_text", "cursor_at", "exit_code"];
const EXPECT_TERMINAL: &[&str] = &[
    "text",
    "regex",
    "not_text",
    "cursor_at",
    "exit_code",
    "timeout_ms",
];
/// Largest terminal: what the engine accepts (`a3s_test_tui::MAX_COLUMNS` × `MAX_ROWS`).
pub(super) const MAX_COLUMNS: u32 = 1000;
/// See [`MAX_COLUMNS`].
pub(super) const MAX_ROWS: u32 = 500;

/// The attributes terminal step `kind` accepts (a terminal scenario's steps).
pub(super) fn step_schema(kind: ActionKind) -> &'static [&'static str] {
    match kind {
        ActionKind::Wait => WAIT_SCHEMA,
        ActionKind::Expect => EXPECT_TERMINAL,
        ActionKind::Press => &["key"],
        ActionKind::Type => &["value"],
        ActionKind::TerminalPaste => &["text"],
        ActionKind::TerminalResize => &["columns", "rows"],
        _ => &["path"],
    }
}

/// The terminal steps as a list for hints.
fn terminal_step_names() -> String {
    TERMINAL_STEPS
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// True when step `block` of `kind` must be judged by the terminal rules: the scenario is a
/// terminal one, the kind exists only on terminals, or a `wait`/`expect` names a screen-only
/// condition.
pub(super) fn applies(ctx: &Ctx, block: &Block, kind: ActionKind) -> bool {
    ctx.surface() == Some(Surface::Tui)
        || TERMINAL_ONLY_STEPS.contains(&kind)
        || (matches!(kind, ActionKind::Wait | ActionKind::Expect)
            && attributes(block).any(|a| SCREEN_ONLY.contains(&a.name.name.as_str())))
}

fn attributes(block: &Block) -> impl Iterator<Item = &Attribute> {
    block.items.iter().filter_map(|i| match i {
        Item::Attribute(a) => Some(a),
        Item::Block(_) => None,
    })
}

/// Check terminal step `block` of `kind` (path entered) and build its action.
pub(super) fn action(ctx: &mut Ctx, block: &Block, kind: ActionKind) -> Option<Action> {
    if ctx.surface() != Some(Surface::Tui) {
        refuse_in_web(ctx, block, kind, ctx.surface().unwrap_or(Surface::Web));
        return None;
    }
    if !TERMINAL_STEPS.contains(&kind) {
        let name = kind.name();
        ctx.error(
            Code::SurfaceStep,
            block.kind.span,
            format!("`{name}` is a browser step; this scenario's surface is tui"),
        )
        .hint(format!(
            "a terminal scenario holds {}; or set `surface = \"web\"`",
            terminal_step_names()
        ));
        return None;
    }
    let terminal_schema = step_schema(kind);
    if refuse_browser_attributes(ctx, block, kind, terminal_schema) {
        return None;
    }
    let f = Fields::collect_leaf(ctx, block, terminal_schema);
    let f = &f;
    let step = match kind {
        ActionKind::Wait => TerminalStep::Wait {
            condition: one_of(ctx, f, WAIT_SCHEMA, block).and_then(|a| screen_match(ctx, a))?,
        },
        ActionKind::Expect => expect(ctx, f, block)?,
        ActionKind::Press => TerminalStep::Press {
            key: f.required(ctx, "key").and_then(|a| key(ctx, a))?,
        },
        ActionKind::Type => TerminalStep::Type {
            value: f
                .required(ctx, "value")
                .and_then(|a| text_value(ctx, a, false))?,
        },
        ActionKind::TerminalPaste => TerminalStep::Paste {
            text: f
                .required(ctx, "text")
                .and_then(|a| string(ctx, a))?
                .to_string(),
        },
        ActionKind::TerminalResize => {
            let columns = f
                .required(ctx, "columns")
                .and_then(|a| u32_in(ctx, a, 1, MAX_COLUMNS));
            let rows = f
                .required(ctx, "rows")
                .and_then(|a| u32_in(ctx, a, 1, MAX_ROWS));
            TerminalStep::Resize {
                columns: u16::try_from(columns?).ok()?,
                rows: u16::try_from(rows?).ok()?,
            }
        }
        ActionKind::TerminalRecording => TerminalStep::Recording {
            path: f
                .required(ctx, "path")
                .and_then(|a| evidence_path(ctx, a, Some(".cast")))?,
        },
        ActionKind::Snapshot => TerminalStep::Snapshot {
            path: match f.get("path") {
                Some(a) => Some(evidence_path(ctx, a, Some(".txt"))?),
                None => None,
            },
        },
        _ => TerminalStep::Screenshot {
            path: match f.get("path") {
                Some(a) => Some(evidence_path(ctx, a, Some(".svg"))?),
                None => None,
            },
        },
    };
    Some(Action::Terminal(step))
}

/// A terminal step or screen condition in a web scenario (or an agent statement).
fn refuse_in_web(ctx: &mut Ctx, block: &Block, kind: ActionKind, surface: Surface) {
    let name = kind.name();
    let surface = surface.name();
    if TERMINAL_ONLY_STEPS.contains(&kind) {
        ctx.error(
            Code::SurfaceStep,
            block.kind.span,
            format!("`{name}` is a terminal step; this scenario's surface is {surface}"),
        )
        .hint("set `surface = \"tui\"` on the scenario to drive a terminal program");
        return;
    }
    for attr in attributes(block).filter(|a| SCREEN_ONLY.contains(&a.name.name.as_str())) {
        let attribute = &attr.name.name;
        ctx.error_in(
            Code::SurfaceStep,
            attribute,
            attr.name.span,
            format!("`{attribute}` is a terminal condition; this scenario's surface is {surface}"),
        )
        .hint("set `surface = \"tui\"` on the scenario, or use a page condition such as `text`");
    }
}

/// Report every attribute `block` takes on the web but not on a terminal (a target, a URL, a
/// load state, an element state); true when there was one.
fn refuse_browser_attributes(
    ctx: &mut Ctx,
    block: &Block,
    kind: ActionKind,
    terminal: &[&str],
) -> bool {
    let web: &[&str] = match kind {
        ActionKind::Expect => &EXPECT_SCHEMA,
        ActionKind::TerminalPaste | ActionKind::TerminalResize | ActionKind::TerminalRecording => {
            &[]
        }
        _ => schema(kind),
    };
    let mut refused = false;
    for attr in attributes(block) {
        let attribute = attr.name.name.as_str();
        if web.contains(&attribute) && !terminal.contains(&attribute) {
            refused = true;
            ctx.error_in(
                Code::SurfaceStep,
                attribute,
                attr.name.span,
                format!(
                    "`{attribute}` is a browser attribute of `{}`; this scenario's surface is tui",
                    kind.name()
                ),
            )
            .hint(format!(
                "a terminal `{}` takes {}",
                kind.name(),
                terminal
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    refused
}

/// Exactly one of `names` (`test.spec.missing_condition` / `conflicting_conditions`).
fn one_of<'a>(
    ctx: &mut Ctx,
    f: &Fields<'a>,
    names: &[&str],
    block: &Block,
) -> Option<&'a Attribute> {
    let given: Vec<&Attribute> = names.iter().filter_map(|n| f.get(n)).collect();
    match given.as_slice() {
        [one] => Some(one),
        [] => {
            ctx.error(
                Code::MissingCondition,
                header(block),
                format!(
                    "`{}` needs one condition: {}",
                    block.kind.name,
                    names.join(", ")
                ),
            )
            .hint(format!(
                "add one of {} such as `text = \"ready\"`",
                names.join(", ")
            ));
            None
        }
        [first, rest @ ..] => {
            for other in rest {
                ctx.error_in(
                    Code::ConflictingConditions,
                    &other.name.name,
                    other.name.span,
                    format!("`{}` takes one condition", block.kind.name),
                )
                .also(first.name.span, "first condition here")
                .hint(Code::ConflictingConditions.default_hint());
            }
            None
        }
    }
}

/// `text = "…"` or `regex = "…"` (compiled now: a bad pattern is refused at its span).
fn screen_match(ctx: &mut Ctx, attr: &Attribute) -> Option<ScreenMatch> {
    let value = string(ctx, attr)?;
    if attr.name.name == "regex" {
        if let Err(e) = regex::Regex::new(value) {
            let reason = e.to_string();
            let reason = reason.lines().last().unwrap_or("invalid").trim();
            ctx.error_in(
                Code::InvalidRegex,
                "regex",
                attr.value.span,
                format!("`{value}` is not a regular expression: {reason}"),
            )
            .hint("write the pattern in Rust `regex` syntax, e.g. \"total: \\\\d+\"");
            return None;
        }
        return Some(ScreenMatch::Regex {
            regex: value.to_string(),
        });
    }
    if value.is_empty() {
        ctx.error_in(
            Code::InvalidValue,
            "text",
            attr.value.span,
            "the text to find is empty",
        )
        .hint("give the text the screen must show");
        return None;
    }
    Some(ScreenMatch::Text {
        text: value.to_string(),
    })
}

fn expect(ctx: &mut Ctx, f: &Fields<'_>, block: &Block) -> Option<TerminalStep> {
    let timeout_ms = match f.get("timeout_ms") {
        Some(a) => {
            Some(integer_in(ctx, a, 1, super::suite::MAX_TIMEOUT_MS as i64).map(|n| n as u64)?)
        }
        None => None,
    };
    let attr = one_of(ctx, f, EXPECT_CONDITIONS, block)?;
    let condition = match attr.name.name.as_str() {
        "text" | "regex" => TerminalCondition::Shows(screen_match(ctx, attr)?),
        "not_text" => TerminalCondition::NotText {
            text: string(ctx, attr)?.to_string(),
        },
        "exit_code" => TerminalCondition::ExitCode {
            code: integer_in(ctx, attr, 0, 255)? as i32,
        },
        _ => cursor_at(ctx, attr)?,
    };
    Some(TerminalStep::Expect {
        condition,
        timeout_ms,
    })
}

/// `cursor_at = [row, column]`, both from 1.
fn cursor_at(ctx: &mut Ctx, attr: &Attribute) -> Option<TerminalCondition> {
    let items = list(ctx, attr)?;
    let numbers: Vec<Option<i64>> = items
        .iter()
        .map(|v| match v.kind {
            ValueKind::Integer(n) => Some(n),
            _ => None,
        })
        .collect();
    match numbers.as_slice() {
        [Some(row), Some(column)]
            if (1..=i64::from(MAX_ROWS as u16)).contains(row)
                && (1..=i64::from(MAX_COLUMNS as u16)).contains(column) =>
        {
            Some(TerminalCondition::CursorAt {
                row: *row as u16,
                column: *column as u16,
            })
        }
        _ => {
            ctx.error_in(
                Code::InvalidValue,
                "cursor_at",
                attr.value.span,
                "`cursor_at` is [row, column], both whole numbers from 1",
            )
            .hint("write e.g. `cursor_at = [1, 5]` (row 1, column 5, counted from 1)");
            None
        }
    }
}

/// `key = "…"`: one character, a named key, `Control+<letter>` or `Alt+<char>`.
fn key(ctx: &mut Ctx, attr: &Attribute) -> Option<Key> {
    let name = string(ctx, attr)?;
    match name.parse::<Key>() {
        Ok(key) => Some(key),
        Err(e) => {
            ctx.error_in(
                Code::InvalidKey,
                "key",
                attr.value.span,
                format!("`{name}` is not a terminal key: {}", e.reason),
            )
            .hint("use one character, a named key (Enter, Tab, Backspace, Escape, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Insert, Space, F1–F12), Control+<letter> or Alt+<char>");
            None
        }
    }
}

/// `Some(Tui)` when the suite's scenarios are all `surface = "tui"` (read as written, before
/// they are checked): its hooks and `steps` groups then hold terminal steps.
pub(super) fn suite_surface(suite: &Block) -> Option<Surface> {
    let mut scenarios = suite.items.iter().filter_map(|i| match i {
        Item::Block(b) if b.kind.name == "scenario" => Some(b),
        _ => None,
    });
    let is_tui = |b: &Block| {
        attributes(b).any(|a| {
            a.name.name == "surface" && matches!(&a.value.kind, ValueKind::String(s) if s == "tui")
        })
    };
    let first = scenarios.next()?;
    (is_tui(first) && scenarios.all(is_tui)).then_some(Surface::Tui)
}

/// After hooks and groups are expanded into a scenario: refuse every step that is not of the
/// scenario's surface (a web step a hook or group brought into a terminal scenario).
pub(super) fn check_surface(ctx: &mut Ctx, surface: Surface, steps: &[Step]) -> bool {
    let mut ok = true;
    for step in steps {
        let terminal = matches!(step.action, Action::Terminal(_));
        let wrong = match surface {
            Surface::Tui => !terminal,
            Surface::Web | Surface::Gui => terminal,
        };
        if wrong {
            ok = false;
            let kind = step.action.kind();
            let (what, scenario) = if terminal {
                ("terminal", surface.name())
            } else {
                ("browser", "tui")
            };
            ctx.error_at(
                Code::SurfaceStep,
                &step.path,
                step.span,
                format!("this `{kind}` is a {what} step; the scenario's surface is {scenario}"),
            )
            .hint("hooks and `steps` groups hold terminal steps only when every scenario of the suite is a tui one; otherwise write the step in the scenario itself");
        }
    }
    ok
}
