//! The admitted Surface Contract (`contract "id" { … }`, `docs/acl.md` §2.5): what a reviewed
//! PRD or design says the rendered page must show, per route.
//!
//! Why its own root document: a contract is not a scenario. It states expectations (elements by
//! role and name, texts, states, layout relations) that `a3s-test contract check` reconciles
//! against the page, each met, missing or different; it performs no action, and every
//! expectation keeps the evidence (source id and byte span or image region) it was approved from.

use serde::{Deserialize, Serialize};

/// `contract "id" { … }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contract {
    /// The contract id (its label).
    pub id: String,
    /// SHA-256 of the candidates file it was reviewed from, when written by `contract review`.
    pub candidates_sha256: Option<String>,
    /// Candidate ids the reviewer rejected (kept as the review's record).
    pub rejected: Vec<String>,
    /// The sources its evidence points into.
    pub sources: Vec<ContractSource>,
    /// The expectations, grouped by route, in source order.
    pub routes: Vec<ContractRoute>,
    /// How each conflict between candidates was decided.
    pub decisions: Vec<ContractDecision>,
}

/// `source "id" { path sha256 }`: a PRD or design the expectations were approved from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractSource {
    /// The id evidence names it by.
    pub id: String,
    /// Its path when reviewed.
    pub path: String,
    /// SHA-256 of its bytes when reviewed, lowercase hex.
    pub sha256: String,
}

/// `route "/path" { … }`: the expectations of one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContractRoute {
    /// The path, joined to the checked URL's origin.
    pub path: String,
    /// Its expectations in source order.
    pub expectations: Vec<ContractExpectation>,
}

/// One approved expectation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContractExpectation {
    /// Its id (the candidate's).
    pub id: String,
    /// What it expects.
    pub kind: ExpectationKind,
    /// Where the sources say it: `SOURCE:START..END` (bytes) or `SOURCE@X,Y,WxH` (pixels).
    pub evidence: Vec<String>,
}

/// What an expectation expects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExpectationKind {
    /// `element "id" { role name state? }`: exactly one element with this role and exact name.
    Element {
        /// The ARIA role.
        role: String,
        /// The exact accessible name.
        name: String,
        /// The state it must be in.
        state: Option<ContractState>,
    },
    /// `text "id" { text }`: this text is visible on the page.
    Text {
        /// The text.
        text: String,
    },
    /// `layout "id" { subject relation object }`: two elements of the route placed so.
    Layout {
        /// The placed element's id.
        subject: String,
        /// How it is placed.
        relation: ContractRelation,
        /// The element it is placed against.
        object: String,
    },
}

/// A state an element is expected in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContractState {
    /// Not disabled.
    Enabled,
    /// Disabled, natively or by `aria-disabled`.
    Disabled,
    /// Checked.
    Checked,
    /// Not checked.
    Unchecked,
    /// Rendered with a box.
    Visible,
    /// Present but not rendered.
    Hidden,
}

impl ContractState {
    /// Every state with its ACL spelling.
    pub const NAMES: [(&'static str, ContractState); 6] = [
        ("enabled", ContractState::Enabled),
        ("disabled", ContractState::Disabled),
        ("checked", ContractState::Checked),
        ("unchecked", ContractState::Unchecked),
        ("visible", ContractState::Visible),
        ("hidden", ContractState::Hidden),
    ];

    /// The state an ACL spelling names.
    pub fn from_name(name: &str) -> Option<ContractState> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| *s)
    }

    /// The ACL spelling.
    pub fn as_str(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("", |(n, _)| n)
    }
}

/// Where one element lies relative to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContractRelation {
    /// Its bottom edge is at or above the other's top edge.
    Above,
    /// Its top edge is at or below the other's bottom edge.
    Below,
    /// Its right edge is at or left of the other's left edge.
    LeftOf,
    /// Its left edge is at or right of the other's right edge.
    RightOf,
}

impl ContractRelation {
    /// Every relation with its ACL spelling.
    pub const NAMES: [(&'static str, ContractRelation); 4] = [
        ("above", ContractRelation::Above),
        ("below", ContractRelation::Below),
        ("left_of", ContractRelation::LeftOf),
        ("right_of", ContractRelation::RightOf),
    ];

    /// The relation an ACL spelling names.
    pub fn from_name(name: &str) -> Option<ContractRelation> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| *s)
    }

    /// The ACL spelling.
    pub fn as_str(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("", |(n, _)| n)
    }
}

/// `decision "conflict" { chosen over rationale }`: how the reviewer settled a conflict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractDecision {
    /// The conflict's id.
    pub conflict: String,
    /// The candidate kept.
    pub chosen: String,
    /// The candidates set aside.
    pub over: Vec<String>,
    /// Why, in the reviewer's words.
    pub rationale: String,
}

/// `check_contract { path = "contract.acl" route = "/checkout" }`: a suite step that reconciles
/// one route of a reviewed contract against the page the scenario is on.
///
/// Why the step holds the contract: `lang` reads no file, so the checker keeps the path (and
/// where it was written, for the runner's diagnostics); the runner admits the file when it admits
/// the suite and puts the contract here, so a run never starts with a contract it cannot read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContractCheck {
    /// The contract file, relative to the suite file's folder.
    pub path: String,
    /// Where `path`'s value is written in the suite.
    pub path_span: crate::span::Span,
    /// The route to reconcile; `None` when the contract has exactly one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// Where `route`'s value is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route_span: Option<crate::span::Span>,
    /// The admitted contract, filled in by the runner's admission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<Contract>,
}
