//! The step tree every reporter draws: hooks and `use` groups as one nested step each, their
//! steps beneath (`docs/acl.md` §2.1–§2.2; like Playwright's `test.step`).
//!
//! Why one module: the executor runs a flat list and records, per step, its innermost group
//! (`StepResult::group`) and, per group, its parent (`ScenarioResult::groups`). Turning that back
//! into a tree is done here once, so the terminal, JUnit, GitHub and HTML reporters nest the same
//! way.

use crate::result::{ScenarioResult, StepResult, StepStatus};
use a3s_test_lang::ir::{GroupKind, StepGroup};

/// One line of the tree.
#[derive(Debug, Clone, Copy)]
pub enum Node<'a> {
    /// A hook or `use` group, opened before its first step that ran.
    Group {
        /// The group.
        group: &'a StepGroup,
        /// True when a step inside it (at any depth) failed.
        failed: bool,
    },
    /// A step that ran.
    Step(&'a StepResult),
}

/// A node and how deep it sits (0 = a step of the scenario itself).
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// Nesting depth.
    pub depth: usize,
    /// What the line shows.
    pub node: Node<'a>,
}

/// The groups enclosing `group`, outermost first (indices into `s.groups`).
pub fn chain(s: &ScenarioResult, group: Option<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = group;
    while let Some(i) = at {
        // A parent index always points earlier; a bad one (a hand-edited file) ends the walk.
        if out.contains(&i) || i >= s.groups.len() {
            break;
        }
        out.push(i);
        at = s.groups[i].parent;
    }
    out.reverse();
    out
}

/// The steps that ran, each after the headers of the groups it opens, in run order.
pub fn rows(s: &ScenarioResult) -> Vec<Row<'_>> {
    let mut out = Vec::with_capacity(s.steps.len() + s.groups.len());
    let mut open: Vec<usize> = Vec::new();
    for step in &s.steps {
        let wanted = chain(s, step.group);
        let shared = open.iter().zip(&wanted).take_while(|(a, b)| a == b).count();
        open.truncate(shared);
        for &g in &wanted[shared..] {
            out.push(Row {
                depth: open.len(),
                node: Node::Group {
                    group: &s.groups[g],
                    failed: failed_within(s, g),
                },
            });
            open.push(g);
        }
        out.push(Row {
            depth: open.len(),
            node: Node::Step(step),
        });
    }
    out
}

fn failed_within(s: &ScenarioResult, group: usize) -> bool {
    s.steps
        .iter()
        .any(|step| step.status == StepStatus::Failed && chain(s, step.group).contains(&group))
}

/// How a group is named in reports: `before_each`, `after_each`, or `use "label"` (with the
/// group's name when the label differs).
pub fn title(group: &StepGroup) -> String {
    match &group.kind {
        GroupKind::Hook { hook } => hook.name().to_string(),
        GroupKind::Use { group: name } if *name == group.label => format!("use \"{name}\""),
        GroupKind::Use { group: name } => format!("use \"{}\" (steps \"{name}\")", group.label),
    }
}

/// `before_each › use "sign-in"`: the groups around a step, or `None` for a step of the scenario.
pub fn within(s: &ScenarioResult, group: Option<usize>) -> Option<String> {
    let names: Vec<String> = chain(s, group)
        .into_iter()
        .map(|g| title(&s.groups[g]))
        .collect();
    (!names.is_empty()).then(|| names.join(" › "))
}

/// The step whose path is `path`, if it ran.
pub fn step_at<'a>(s: &'a ScenarioResult, path: Option<&str>) -> Option<&'a StepResult> {
    let path = path?;
    s.steps.iter().find(|step| step.path == path)
}
