//! Hooks, shared step groups and their expansion records (`docs/acl.md` §2.1–§2.2).
//!
//! Why a record beside the flat step list: a scenario still runs as one closed list of typed
//! steps, but every report shows a `before_each`, an `after_each` and a `use` as ONE nested step
//! with its inner steps beneath (like Playwright's `test.step`). Each expanded step names its
//! innermost group by index; each group names its parent, so the tree is rebuilt from the list
//! without the executor ever walking a tree.

use crate::ir::Step;
use crate::span::Span;
use serde::{Deserialize, Serialize};

/// Which suite hook a step came from: the executor runs `after_each` steps after a failure too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hook {
    /// `before_each { … }`: before the scenario's own steps.
    BeforeEach,
    /// `after_each { … }`: after the scenario's steps, whatever happened to them.
    AfterEach,
}

impl Hook {
    /// The ACL block name (`before_each`, `after_each`).
    pub fn name(self) -> &'static str {
        match self {
            Hook::BeforeEach => "before_each",
            Hook::AfterEach => "after_each",
        }
    }
}

/// What made a group of expanded steps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GroupKind {
    /// A suite hook.
    Hook {
        /// Which one.
        hook: Hook,
    },
    /// A `use` step calling a `steps` group.
    Use {
        /// The name of the `steps` group called.
        group: String,
    },
}

/// One group of an expanded scenario: a node of the step tree reports draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepGroup {
    /// Hook or `use`.
    #[serde(flatten)]
    pub kind: GroupKind,
    /// `before_each`, `after_each`, or the `use` step's label.
    pub label: String,
    /// Logical path; the paths of its inner steps start with it.
    pub path: String,
    /// The enclosing group (index into `Scenario::groups`), `None` at the top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<usize>,
    /// Where it was written in the suite (the hook block, or the `use` step).
    pub span: Span,
}

/// A `library "id" { steps "name" { … } … }` file: step groups other files include through the
/// project file (`include = ["shared/*.acl"]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Library {
    /// The library id (its label).
    pub id: String,
    /// Its groups in source order.
    pub groups: Vec<GroupDef>,
}

/// One `steps "name" { … }` group, checked once where it is written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupDef {
    /// The group name `use` calls it by.
    pub name: String,
    /// Its items in order.
    pub items: Vec<GroupItem>,
    /// Span of the `steps` block in its own file.
    pub span: Span,
}

/// One item of a group or hook before expansion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "item", rename_all = "snake_case")]
pub enum GroupItem {
    /// A step; its path is relative to the group (`click.pay`).
    Step(Step),
    /// A nested `use`.
    Use(GroupCall),
}

/// `use "label" { steps = "name" }` (or `use "name" {}`), before expansion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupCall {
    /// The step label.
    pub label: String,
    /// The group called.
    pub group: String,
    /// Span of the `use` step.
    pub span: Span,
    /// Span of the group name as written (the label, or the `steps` value).
    pub name_span: Span,
    /// Logical path where it is written (`suite.s.scenario.x.use.sign-in`).
    pub path: String,
}
