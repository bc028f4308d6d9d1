//! What a Surface Contract's reconciliation reads of the current page, asked in one call
//! ([`crate::SurfaceContext::page_facts`]).
//!
//! Why a request/answer pair on the suite contract (not the agent surface's separate reads): a
//! suite's `check_contract` step runs in a plain scenario context, and `contract check` in a
//! context of its own; both ask the same question through this one method, and the runner's
//! `contract` module alone judges the answer. Every string in the answer is untrusted page text.

use crate::api::{TargetFacts, ViewportBox};
use a3s_test_lang::ir::Target;
use serde::{Deserialize, Serialize};

/// The read-only questions, each answered in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageFactsRequest {
    /// Targets whose match count and state are wanted ([`PageFacts::elements`]).
    pub elements: Vec<Target>,
    /// Targets whose box is wanted when they name exactly one element ([`PageFacts::boxes`]).
    pub boxes: Vec<Target>,
    /// Whether the page's visible text is wanted.
    pub text: bool,
}

/// One named thing on the page: a control or a text node's role and accessible name or text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Named {
    /// Its role (`button`, `heading`, `StaticText`, …).
    pub role: String,
    /// Its accessible name, or the text of a text node.
    pub name: String,
}

/// The answers, read from the current tab's top document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageFacts {
    /// The document's URL.
    pub url: String,
    /// Every operable control and text the page shows, in page order (bounded by the
    /// surface's control snapshot).
    pub named: Vec<Named>,
    /// One entry per [`PageFactsRequest::elements`] target.
    pub elements: Vec<TargetFacts>,
    /// One entry per [`PageFactsRequest::boxes`] target: its box, `None` unless it names
    /// exactly one element.
    pub boxes: Vec<Option<ViewportBox>>,
    /// The visible text, whitespace collapsed, when asked.
    pub text: Option<String>,
}
