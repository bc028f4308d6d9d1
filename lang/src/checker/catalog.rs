//! What may be written where: block kinds, attribute names and keyword values, read from the
//! checker's own tables.
//!
//! An editor completes and explains ACL from these answers (`a3s-test lsp`), so it can never offer
//! a name the checker refuses nor miss one it accepts: each function returns the very table the
//! rule reads. A place is the chain of enclosing block kinds from the root (`["suite",
//! "scenario", "click"]`); the surface of a scenario is not known here, so a step's attributes are
//! its web ones plus its terminal ones.

use super::{
    conditions, contract, grid_project, gui_project, provider_project, terminal, terminal_project,
    ROOTS,
};
use super::{groups, ids, keys, library, operations, pointer, project, shared, steps, suite};
use crate::ir::{ActionKind, CheckTier, DragEdge, InputVia, MouseButton, TERMINAL_ONLY_STEPS};

/// The kinds a file's root block may have.
pub fn root_kinds() -> &'static [&'static str] {
    ROOTS
}

/// Why `id` is not a valid label or id (`docs/acl.md` §2), or `None` when it is one: what a
/// rename must respect.
pub fn id_problem(id: &str) -> Option<String> {
    ids::id_problem(id)
}

/// True when `kind` names a step (web or terminal).
pub fn is_step(kind: &str) -> bool {
    ActionKind::from_name(kind).is_some() || kind == groups::USE
}

/// Every step block name, `use` last: what a scenario, hook or group holds.
pub fn step_kinds() -> Vec<&'static str> {
    ActionKind::ALL
        .iter()
        .map(|k| k.name())
        .chain([groups::USE])
        .collect()
}

/// The block kinds that may be nested directly inside the innermost block of `chain` (empty:
/// the root of the file).
pub fn nested_kinds(chain: &[&str]) -> Vec<&'static str> {
    match chain {
        [] => ROOTS.to_vec(),
        ["suite"] => ["scenario"]
            .into_iter()
            .chain(shared::SHARED_BLOCKS.iter().copied())
            .collect(),
        ["library"] => vec![groups::STEPS],
        ["project"] => project::SECTIONS
            .iter()
            .copied()
            .chain([project::PROVIDER])
            .collect(),
        ["project", "verification"] => vec!["check"],
        ["contract"] => contract::CONTRACT_BLOCKS.to_vec(),
        ["contract", "route"] => contract::ROUTE_BLOCKS.to_vec(),
        [.., parent, kind] if holds_steps(parent, kind) => step_kinds(),
        [.., kind] => match ActionKind::from_name(kind) {
            Some(k) if pointer::takes_pointer_options(k) => vec!["position"],
            _ => Vec::new(),
        },
    }
}

/// True when a block `kind` inside `parent` holds a list of steps.
fn holds_steps(parent: &str, kind: &str) -> bool {
    matches!(
        (parent, kind),
        ("suite", "scenario" | "before_each" | "after_each" | "steps") | ("library", "steps")
    )
}

/// The attribute names the innermost block of `chain` accepts, in the checker's order.
pub fn attributes(chain: &[&str]) -> Vec<&'static str> {
    let table: &'static [&'static str] = match chain {
        ["suite"] => suite::SUITE_SCHEMA,
        ["suite", "scenario"] => suite::SCENARIO_SCHEMA,
        ["library"] => library::LIBRARY_SCHEMA,
        ["project"] => project::PROJECT_SCHEMA,
        ["project", "dev_server"] => project::DEV_SERVER_SCHEMA,
        ["project", "browser"] => project::BROWSER_SCHEMA,
        ["project", "tui"] => terminal_project::TUI_SCHEMA,
        ["project", "gui"] => gui_project::GUI_SCHEMA,
        ["project", "grid"] => grid_project::GRID_SCHEMA,
        ["project", "provider"] => provider_project::PROVIDER_SCHEMA,
        ["project", "verification", "check"] => project::CHECK_SCHEMA,
        ["contract"] => contract::CONTRACT_SCHEMA,
        ["contract", "source"] => contract::SOURCE_SCHEMA,
        ["contract", "route"] => contract::ROUTE_SCHEMA,
        ["contract", "decision"] => contract::DECISION_SCHEMA,
        ["contract", "route", "element"] => contract::ELEMENT_SCHEMA,
        ["contract", "route", "text"] => contract::TEXT_SCHEMA,
        ["contract", "route", "layout"] => contract::LAYOUT_SCHEMA,
        [.., "position"] => pointer::POSITION_SCHEMA,
        [.., kind] if *kind == groups::USE => groups::USE_SCHEMA,
        [.., kind] => match ActionKind::from_name(kind) {
            Some(k) => return step_attributes(k),
            None => &[],
        },
        [] => &[],
    };
    table.to_vec()
}

/// A step's web attributes, then the terminal ones the web schema lacks.
fn step_attributes(kind: ActionKind) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = if TERMINAL_ONLY_STEPS.contains(&kind) {
        Vec::new()
    } else {
        steps::schema(kind).to_vec()
    };
    if crate::ir::TERMINAL_STEPS.contains(&kind) {
        for name in terminal::step_schema(kind) {
            if !names.contains(name) {
                names.push(name);
            }
        }
    }
    names
}

/// The keyword values attribute `attribute` of block `kind` takes (a string each), or nothing
/// when it takes free text, numbers or targets.
pub fn keyword_values(kind: &str, attribute: &str) -> Vec<&'static str> {
    let names = |t: operations::OperationTable| t.iter().map(|(n, _)| *n).collect();
    let table: &'static [&'static str] = match (kind, attribute) {
        ("scenario" | "library", "surface") => suite::SURFACES,
        ("wait", "load") => conditions::LOAD_STATES,
        ("drag", "edge") => DragEdge::KEYWORDS,
        ("check", "tier") => CheckTier::KEYWORDS,
        ("element", "state") => contract::STATES,
        ("layout", "relation") => contract::RELATIONS,
        ("click", "via") => InputVia::KEYWORDS,
        (_, "button") => MouseButton::KEYWORDS,
        (_, "modifiers") => keys::LIST_MODIFIERS,
        ("tab", "operation") => return names(operations::TAB_OPERATIONS),
        ("dialog", "operation") => return names(operations::DIALOG_OPERATIONS),
        ("har" | "trace", "operation") => return names(operations::CAPTURE_OPERATIONS),
        _ => &[],
    };
    table.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_answer_the_checker_tables() {
        assert_eq!(
            nested_kinds(&[]),
            vec!["suite", "project", "library", "contract"]
        );
        assert!(nested_kinds(&["suite", "scenario"]).contains(&"click"));
        assert!(nested_kinds(&["suite", "scenario"]).contains(&"use"));
        assert_eq!(
            nested_kinds(&["suite", "scenario", "click"]),
            vec!["position"]
        );
        assert_eq!(attributes(&["suite", "scenario", "navigate"]), vec!["url"]);
        assert!(attributes(&["suite", "scenario", "expect"]).contains(&"exit_code"));
        assert_eq!(keyword_values("drag", "edge"), DragEdge::KEYWORDS);
        assert_eq!(
            keyword_values("dialog", "operation"),
            ["status", "accept", "dismiss"]
        );
    }
}
