//! Why a selected scenario was not run (issue 41): an annotation (`skip`, `fixme`) or a
//! dependency that did not pass. A skipped scenario is neither a pass nor a failure: reporters
//! count it apart from both, and apart from the scenarios a selection flag left out.

use a3s_test_lang::ir::SkipAnnotation;
use serde::{Deserialize, Serialize};

/// What skipped a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipKind {
    /// `skip = "reason"`.
    Skip,
    /// `fixme = "reason"`.
    Fixme,
    /// A scenario named in `depends_on` failed, timed out, was cancelled or skipped.
    Dependency,
}

/// Why a scenario was skipped, as every reporter shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipRecord {
    /// What skipped it.
    pub kind: SkipKind,
    /// The reason, one line: the annotation's text, or `dependency auth-setup failed`.
    pub reason: String,
}

impl SkipRecord {
    /// The record of an annotated scenario.
    pub fn annotated(annotation: &SkipAnnotation) -> SkipRecord {
        let kind = match annotation {
            SkipAnnotation::Skip(_) => SkipKind::Skip,
            SkipAnnotation::Fixme(_) => SkipKind::Fixme,
        };
        SkipRecord {
            kind,
            reason: annotation.reason().to_string(),
        }
    }

    /// The record of a dependant whose dependency `id` ended `how` (`failed`, `timed out`, …).
    pub fn dependency(id: &str, how: &str) -> SkipRecord {
        SkipRecord {
            kind: SkipKind::Dependency,
            reason: format!("dependency {id} {how}"),
        }
    }

    /// `skip: reason`, `fixme: reason` or the dependency reason.
    pub fn line(&self) -> String {
        match self.kind {
            SkipKind::Skip => format!("skip: {}", self.reason),
            SkipKind::Fixme => format!("fixme: {}", self.reason),
            SkipKind::Dependency => self.reason.clone(),
        }
    }
}
