//! The request and answer of `a3s.test.contract-candidates/1`, as sent and read.
//!
//! Why closed enums and `deny_unknown_fields` throughout: a provider proposes expectations and
//! nothing else. A `verdict`, an `action` or any field the protocol does not name makes the
//! answer malformed, so advice cannot smuggle a decision past the reviewer.

use crate::grounding::Usage;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most sources one request may send.
pub const MAX_SOURCES: usize = 16;
/// Most candidates one answer may hold.
pub const MAX_CANDIDATES: usize = 512;
/// Most evidence items one candidate may hold.
pub const MAX_EVIDENCE: usize = 16;
/// Most conflicts, and most open decisions, one answer may hold.
pub const MAX_CONFLICTS: usize = 256;
/// Longest text field of an answer (a name, a quote, a reason), in bytes.
pub const MAX_TEXT: usize = 2_000;
/// Longest id (`[A-Za-z0-9_-]`), in bytes.
pub const MAX_ID: usize = 64;

/// What a source is, by its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum MediaType {
    /// A Markdown document (`.md`), UTF-8.
    #[serde(rename = "text/markdown")]
    Markdown,
    /// Plain UTF-8 text.
    #[serde(rename = "text/plain")]
    Text,
    /// A PNG image (a design).
    #[serde(rename = "image/png")]
    Png,
}

impl MediaType {
    /// True for the kinds whose evidence is a byte span.
    pub fn is_text(self) -> bool {
        matches!(self, MediaType::Markdown | MediaType::Text)
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MediaType::Markdown => "text/markdown",
            MediaType::Text => "text/plain",
            MediaType::Png => "image/png",
        }
    }
}

/// One source's bytes as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "encoding", rename_all = "snake_case", deny_unknown_fields)]
pub enum SourceContent {
    /// A text source: its UTF-8 text, byte for byte (spans index these bytes).
    Utf8 {
        /// The text.
        text: String,
    },
    /// An image source: the PNG, with its size so regions can be checked.
    Base64 {
        /// The bytes, standard base64.
        data: String,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
}

/// One source document sent to the provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The id evidence names it by (`s1`, `s2`, …).
    pub id: String,
    /// Its file name as the user gave it (for messages only).
    pub name: String,
    /// What it is.
    pub media_type: MediaType,
    /// SHA-256 of its bytes, lowercase hex.
    pub sha256: String,
    /// Its length in bytes.
    pub bytes: u64,
    /// The bytes.
    pub content: SourceContent,
}

/// What is asked of a contract generation provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractRequest {
    /// The PRDs and designs to read.
    pub sources: Vec<Source>,
    /// How long the provider has, in milliseconds (the transport enforces it too).
    pub deadline_ms: u64,
    /// The most this call may cost, in millionths of a US dollar.
    pub max_cost_microusd: u64,
}

/// A source's digest, repeated by the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceDigest {
    /// The request's source id.
    pub id: String,
    /// The request's `sha256` for it.
    pub sha256: String,
}

/// A state an element is expected in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ElementState {
    /// Operable (not disabled).
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

/// Where one element lies relative to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// Its bottom edge is at or above the other's top edge.
    Above,
    /// Its top edge is at or below the other's bottom edge.
    Below,
    /// Its right edge is at or left of the other's left edge.
    LeftOf,
    /// Its left edge is at or right of the other's right edge.
    RightOf,
}

/// What a candidate expects of the rendered page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Expectation {
    /// An element with this accessible role and name (or text), optionally in a state.
    Element {
        /// The accessible role (`button`, `link`, `heading`, …).
        role: String,
        /// The exact accessible name.
        name: String,
        /// The state it must be in, if the source says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<ElementState>,
    },
    /// Text that must be visible on the page.
    Text {
        /// The text.
        text: String,
    },
    /// A layout relation between two element candidates of the same route.
    Layout {
        /// The candidate that is placed.
        subject: String,
        /// How.
        relation: Relation,
        /// The candidate it is placed against.
        object: String,
    },
}

/// Where in a source a candidate comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Evidence {
    /// Bytes `start..end` of a text source, which must equal `quote`.
    Span {
        /// The source id.
        source: String,
        /// First byte (inclusive), on a UTF-8 boundary.
        start: u64,
        /// Last byte (exclusive), on a UTF-8 boundary, after `start`.
        end: u64,
        /// The bytes, as text.
        quote: String,
    },
    /// A pixel region of an image source.
    Region {
        /// The source id.
        source: String,
        /// Left edge.
        x: u32,
        /// Top edge.
        y: u32,
        /// Width, above zero.
        width: u32,
        /// Height, above zero.
        height: u32,
        /// What the provider read there (untrusted).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
}

impl Evidence {
    /// The source id the evidence points into.
    pub fn source(&self) -> &str {
        match self {
            Evidence::Span { source, .. } | Evidence::Region { source, .. } => source,
        }
    }
}

/// One proposed expectation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Candidate {
    /// Its id (`[A-Za-z0-9_-]`, unique in the answer).
    pub id: String,
    /// The route it belongs to: a path (`/checkout`).
    pub route: String,
    /// What it expects.
    pub expectation: Expectation,
    /// How sure the provider is, 0..1.
    pub confidence: f64,
    /// Where the sources say it (at least one).
    pub evidence: Vec<Evidence>,
}

/// Candidates that cannot all hold: a person chooses one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Conflict {
    /// Its id (unique among conflicts).
    pub id: String,
    /// The candidates in conflict (two or more).
    pub candidates: Vec<String>,
    /// Why they conflict (untrusted text).
    pub reason: String,
}

/// Something the sources leave open, for the reviewer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenDecision {
    /// Its id (unique among open decisions).
    pub id: String,
    /// The question (untrusted text).
    pub question: String,
    /// The candidates it concerns (may be none).
    pub candidates: Vec<String>,
}

/// A contract generation provider's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractResponse {
    /// The provider's name for itself (the configured block's label).
    pub provider: String,
    /// The model that answered.
    pub model: String,
    /// Every request source's id and digest, repeated.
    pub sources: Vec<SourceDigest>,
    /// The proposed expectations.
    pub candidates: Vec<Candidate>,
    /// Groups of candidates that cannot all hold.
    pub conflicts: Vec<Conflict>,
    /// Questions the sources leave open.
    pub open_decisions: Vec<OpenDecision>,
    /// What the call used.
    pub usage: Usage,
    /// What the call cost, in millionths of a US dollar.
    pub cost_microusd: u64,
}
