//! How a scenario takes part in a run beyond its steps (issue 41): the scenarios it needs first
//! (`depends_on`), the signed-in state it starts from (`storage_state`) and its annotations
//! (`skip`, `fixme`, `slow`, `only`).
//!
//! Why a module of its own: these are facts about a scenario's place in a run, read by the
//! planner and the executor, never by a driver step; keeping them apart from [`super::Scenario`]'s
//! step fields keeps both small and lets each grow without touching the other.

use serde::{Deserialize, Serialize};

/// How many times longer every deadline of a `slow = true` scenario is (as in Playwright).
pub const SLOW_FACTOR: u64 = 3;

/// A storage-state file, relative to the project root (checked at admission to stay inside it;
/// the runner re-checks links with `fsroot`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StatePath(pub String);

impl StatePath {
    /// The path as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Why a scenario is not run although selected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "annotation", content = "reason", rename_all = "snake_case")]
pub enum SkipAnnotation {
    /// `skip = "reason"`: not meant to run here.
    Skip(String),
    /// `fixme = "reason"`: known broken, to be fixed.
    Fixme(String),
}

impl SkipAnnotation {
    /// The attribute name (`skip`, `fixme`).
    pub fn name(&self) -> &'static str {
        match self {
            SkipAnnotation::Skip(_) => "skip",
            SkipAnnotation::Fixme(_) => "fixme",
        }
    }

    /// The reason as written.
    pub fn reason(&self) -> &str {
        match self {
            SkipAnnotation::Skip(r) | SkipAnnotation::Fixme(r) => r,
        }
    }
}

/// A scenario's annotations; all absent by default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotations {
    /// `skip` or `fixme`: reported as skipped with the reason, never run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<SkipAnnotation>,
    /// `slow = true`: every deadline ×[`SLOW_FACTOR`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub slow: bool,
    /// `only = true`: when any selected scenario has it, only those run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub only: bool,
}

impl Annotations {
    /// True when nothing is annotated.
    pub fn is_default(&self) -> bool {
        self == &Annotations::default()
    }

    /// `ms` stretched for a slow scenario.
    pub fn stretch(&self, ms: u64) -> u64 {
        if self.slow {
            ms.saturating_mul(SLOW_FACTOR)
        } else {
            ms
        }
    }
}

/// A scenario this one needs to have passed first: `"auth-setup"` (same suite) or
/// `"suite-id/scenario-id"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Dependency {
    /// The suite, when another suite's scenario is named; `None` = the same suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<String>,
    /// The scenario id.
    pub scenario: String,
}

impl Dependency {
    /// The dependency as written in `depends_on`.
    pub fn written(&self) -> String {
        match &self.suite {
            Some(suite) => format!("{suite}/{}", self.scenario),
            None => self.scenario.clone(),
        }
    }
}

/// What a scenario declares about its place in a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Organisation {
    /// Scenarios that must pass first, in the order written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<Dependency>,
    /// The storage state loaded into its fresh context before the first step: the scenario's,
    /// else its suite's (the project's is applied by the runner when neither says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_state: Option<StatePath>,
    /// Its annotations.
    #[serde(default, skip_serializing_if = "Annotations::is_default")]
    pub annotations: Annotations,
}

impl Organisation {
    /// True when nothing is declared.
    pub fn is_default(&self) -> bool {
        self == &Organisation::default()
    }
}
