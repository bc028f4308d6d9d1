//! The page-side form of a failed step's target: what the Review Overlay can look for among
//! the page's own nodes to put a candidate's marker on the right element.
//!
//! Only the simple locators travel (role and name, label, test id, placeholder, text, CSS). A
//! combined one (`within`, `nth`, a filter) or a regular expression is shown as text and never
//! guessed at: the overlay then puts no marker, rather than one on a wrong element.

use a3s_test_lang::ir::{Target, TextMatch};
use serde::{Deserialize, Serialize};

/// How a text is compared on the page (both sides whitespace-normalised).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextMode {
    /// Case-insensitive substring (ACL's default).
    Contains,
    /// The whole text, case included.
    Exact,
}

/// One simple locator, as the overlay resolves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CandidateLocator {
    /// An ARIA role, and the accessible name when given.
    Role {
        /// The role.
        role: String,
        /// The accessible name looked for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// How `name` is compared.
        mode: TextMode,
    },
    /// A form control by its label.
    Label {
        /// The label text.
        value: String,
        /// How it is compared.
        mode: TextMode,
    },
    /// An input by its placeholder.
    Placeholder {
        /// The placeholder.
        value: String,
        /// How it is compared.
        mode: TextMode,
    },
    /// The deepest element with this visible text.
    Text {
        /// The text.
        value: String,
        /// How it is compared.
        mode: TextMode,
    },
    /// `data-testid`, exact.
    TestId {
        /// The value.
        value: String,
    },
    /// A CSS selector.
    Css {
        /// The selector.
        value: String,
    },
}

/// Longest role name a locator carries, in characters.
const MAX_ROLE: usize = 100;

impl CandidateLocator {
    /// True when every text is 1..=`max` characters (a role 1..=100): the bounds the feed's
    /// schema (`docs/schema/run-candidates-1.schema.json`) and the overlay's reader hold it to.
    pub fn fits(&self, max: usize) -> bool {
        let ok = |t: &str, max: usize| (1..=max).contains(&t.chars().count());
        match self {
            CandidateLocator::Role { role, name, .. } => {
                ok(role, MAX_ROLE) && name.as_deref().is_none_or(|n| ok(n, max))
            }
            CandidateLocator::Label { value, .. }
            | CandidateLocator::Placeholder { value, .. }
            | CandidateLocator::Text { value, .. }
            | CandidateLocator::TestId { value }
            | CandidateLocator::Css { value } => ok(value, max),
        }
    }
}

fn text(m: &TextMatch) -> Option<(String, TextMode)> {
    match m {
        TextMatch::Contains { value } => Some((value.clone(), TextMode::Contains)),
        TextMatch::Exact { value } => Some((value.clone(), TextMode::Exact)),
        TextMatch::Regex { .. } => None,
    }
}

/// The simple locator of `target`, or `None` for a combined one or a regular expression.
pub fn locator_of(target: &Target) -> Option<CandidateLocator> {
    Some(match target {
        Target::Role { role, name: None } => CandidateLocator::Role {
            role: role.clone(),
            name: None,
            mode: TextMode::Contains,
        },
        Target::Role {
            role,
            name: Some(name),
        } => {
            let (name, mode) = text(name)?;
            CandidateLocator::Role {
                role: role.clone(),
                name: Some(name),
                mode,
            }
        }
        Target::Label { label } => {
            let (value, mode) = text(label)?;
            CandidateLocator::Label { value, mode }
        }
        Target::Placeholder { placeholder } => {
            let (value, mode) = text(placeholder)?;
            CandidateLocator::Placeholder { value, mode }
        }
        Target::Text { text: t } => {
            let (value, mode) = text(t)?;
            CandidateLocator::Text { value, mode }
        }
        Target::TestId { test_id } => CandidateLocator::TestId {
            value: test_id.clone(),
        },
        Target::Css { selector } => CandidateLocator::Css {
            value: selector.clone(),
        },
        _ => return None,
    })
}
