//! Design review: "what would a careful designer say about this page revision?" answered with
//! findings on named dimensions — advice a person reads, never a verdict.
//!
//! Why the request binds one revision: the screenshot (its SHA-256) and the forensic Page Context
//! are read from the same Test Kit revision, and the answer repeats both, so advice can be shown
//! on the page it was about and dropped when the page moves on. Why the report has no outcome,
//! verdict, expected value or action: a provider proposes and a person decides. The typed
//! findings cannot hold one (`deny_unknown_fields`), and an answer that tries is refused by name
//! before it is read ([`DesignReview::screen`], `test.provider.authority`), so a provider cannot
//! slip a decision in beside its advice.

pub mod context;

use crate::code::{ProviderCode, ProviderError};
use crate::grounding::{Screenshot, Usage};
use crate::kind::{Metered, ProviderProtocol, Receipt};
use crate::redact::Redactor;
use crate::BoxFuture;
use a3s_test_lang::ir::ProviderKind;
pub use context::{ContextNode, NodeRect, PageContext};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most findings one report may hold.
pub const MAX_FINDINGS: usize = 200;
/// Longest `title`, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest `rationale` or `recommendation`, in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// Most measurements one finding may carry.
pub const MAX_MEASUREMENTS: usize = 16;
/// Longest finding id, in bytes.
pub const MAX_ID_BYTES: usize = 128;

/// Keys that would make advice a decision or an instruction to act. An answer holding any of
/// them, anywhere under `response`, is refused with `test.provider.authority`.
pub const FORBIDDEN_KEYS: &[&str] = &[
    "outcome",
    "verdict",
    "passed",
    "failed",
    "expected",
    "expected_value",
    "expect",
    "action",
    "actions",
    "step",
    "steps",
    "statement",
    "command",
    "execute",
];

/// What a design finding is about: the dimensions the product documentation lists.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    /// What draws the eye first, and whether that is what matters most.
    Hierarchy,
    /// How the parts are arranged and grouped.
    Composition,
    /// Gaps, margins and padding, and their rhythm.
    Spacing,
    /// Sizes, weights and their scale.
    Typography,
    /// Colour and contrast.
    Colour,
    /// Whether like things look alike.
    Consistency,
    /// Whether what can be operated looks operable and is easy to hit.
    InteractionClarity,
    /// Whether the words say what they must.
    ContentClarity,
    /// How the page holds up at other sizes.
    ResponsiveComposition,
}

impl Dimension {
    /// Every dimension, in the documentation's order.
    pub const ALL: [Dimension; 9] = [
        Dimension::Hierarchy,
        Dimension::Composition,
        Dimension::Spacing,
        Dimension::Typography,
        Dimension::Colour,
        Dimension::Consistency,
        Dimension::InteractionClarity,
        Dimension::ContentClarity,
        Dimension::ResponsiveComposition,
    ];
}

/// How much a finding matters, in the provider's judgement. The Review Overlay shows `high` at
/// most as *important*, never *blocking*: advice never blocks anything.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Worth a look.
    Low,
    /// Worth fixing.
    Medium,
    /// Worth fixing soon.
    High,
}

/// What a finding points at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AdviceTarget {
    /// The whole page.
    Page,
    /// One node of the request's Page Context.
    Node {
        /// The node's id in the request's `page_context`.
        node_id: String,
    },
    /// A rectangle of the screenshot, in CSS px of the viewport.
    Region {
        /// Left edge.
        x: f64,
        /// Top edge.
        y: f64,
        /// Width, above zero.
        width: f64,
        /// Height, above zero.
        height: f64,
    },
}

/// One number the finding rests on (a contrast ratio, a gap in px), so a reader can check it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Measurement {
    /// What was measured (`contrast_ratio`, `gap_px`, `height_px` …; `[a-z0-9_]`, at most 64).
    pub name: String,
    /// The value measured.
    pub value: f64,
    /// The value a guideline names, for comparison (advice, not an expectation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guideline: Option<f64>,
}

/// One piece of design advice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DesignFinding {
    /// The provider's id for it, unique in the report (`[A-Za-z0-9._:-]`, at most 128 bytes).
    pub id: String,
    /// The dimension it is about.
    pub dimension: Dimension,
    /// What it points at.
    pub target: AdviceTarget,
    /// How much it matters.
    pub priority: Priority,
    /// A one-line summary (untrusted text).
    pub title: String,
    /// Why it matters (untrusted text).
    pub rationale: String,
    /// What a designer would consider (untrusted text; never run).
    pub recommendation: String,
    /// The numbers behind it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measurements: Vec<Measurement>,
}

/// What is asked of a design review provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DesignReviewRequest {
    /// The page's URL (untrusted page data).
    pub url: String,
    /// The Test Kit revision the screenshot and the Page Context are both of.
    pub revision: u64,
    /// The viewport's screenshot (`png_base64` of `sha256`).
    pub screenshot: Screenshot,
    /// The forensic Page Context of the same revision.
    pub page_context: PageContext,
    /// The dimensions to review (every one when the caller did not narrow them).
    pub dimensions: Vec<Dimension>,
    /// The most findings the answer may hold (at most 200).
    pub max_findings: u32,
    /// How long the provider has, in milliseconds (the transport enforces it too).
    pub deadline_ms: u64,
    /// The most this call may cost, in millionths of a US dollar.
    pub max_cost_microusd: u64,
}

/// A design review provider's answer, `a3s.test.design-audit-report/1`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DesignAuditReport {
    /// The provider's name for itself (the configured block's label).
    pub provider: String,
    /// The model that answered.
    pub model: String,
    /// The request's `revision`, repeated.
    pub revision: u64,
    /// The request's `screenshot.sha256`, repeated.
    pub screenshot_sha256: String,
    /// The advice, most important first.
    pub findings: Vec<DesignFinding>,
    /// What the call used.
    pub usage: Usage,
    /// What the call cost, in millionths of a US dollar.
    pub cost_microusd: u64,
}

/// The design review protocol, `a3s.test.design-audit-report/1`.
#[derive(Debug)]
pub enum DesignReview {}

impl ProviderProtocol for DesignReview {
    const KIND: ProviderKind = ProviderKind::DesignReview;
    const PROTOCOL: &'static str = "a3s.test.design-audit-report/1";
    /// A 1920×1080 PNG in base64 and a forensic Page Context of a few thousand nodes.
    const MAX_REQUEST_BYTES: usize = 48 * 1024 * 1024;
    /// 200 findings at their longest texts fit in under 1 MiB.
    const MAX_RESPONSE_BYTES: usize = 2 * 1024 * 1024;
    type Request = DesignReviewRequest;
    type Response = DesignAuditReport;

    fn screen(answer: &[u8]) -> Result<(), ProviderError> {
        screen_authority(answer)
    }

    fn check(
        request: &DesignReviewRequest,
        response: &DesignAuditReport,
    ) -> Result<(), ProviderError> {
        check_report(request, response)
    }
}

/// Refuse an answer whose `response` holds a key of [`FORBIDDEN_KEYS`] at any depth. Text that
/// is not JSON is left to the typed read, which refuses it as `test.provider.malformed`.
pub fn screen_authority(answer: &[u8]) -> Result<(), ProviderError> {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(answer) else {
        return Ok(());
    };
    let Some(response) = value.get("response") else {
        return Ok(());
    };
    match forbidden_key(response, "response") {
        Some(path) => Err(ProviderError::new(
            ProviderCode::Authority,
            format!("the answer holds `{path}`: design advice carries no outcome, verdict, expected value or action"),
        )),
        None => Ok(()),
    }
}

/// Refuse a JSON document holding a key of [`FORBIDDEN_KEYS`] at any depth; `at` names its root
/// in the message (`findings[0].action` under `at` = `content`). Why beside
/// [`screen_authority`]: a provider that turns a model's free-form answer into a report (the
/// OpenAI-compatible adapter) screens that answer with the same rule before reading it, rather
/// than only being refused by the tool afterwards. Text that is not JSON passes (the typed read
/// refuses it).
pub fn screen_document(json: &[u8], at: &str) -> Result<(), ProviderError> {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(json) else {
        return Ok(());
    };
    match forbidden_key(&value, at) {
        Some(path) => Err(ProviderError::new(
            ProviderCode::Authority,
            format!("the answer holds `{path}`: design advice carries no outcome, verdict, expected value or action"),
        )),
        None => Ok(()),
    }
}

/// The path of the first forbidden key under `value`, depth first.
fn forbidden_key(value: &serde_json::Value, at: &str) -> Option<String> {
    match value {
        serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| {
            let path = format!("{at}.{}", crate::wire::shorten(k, 64));
            if FORBIDDEN_KEYS.contains(&k.to_ascii_lowercase().as_str()) {
                Some(path)
            } else {
                forbidden_key(v, &path)
            }
        }),
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| forbidden_key(v, &format!("{at}[{i}]"))),
        _ => None,
    }
}

fn bounds(message: String) -> ProviderError {
    ProviderError::new(ProviderCode::Bounds, message)
}

/// Binding, budget, counts, text sizes and targets of a report against its request.
pub fn check_report(
    request: &DesignReviewRequest,
    report: &DesignAuditReport,
) -> Result<(), ProviderError> {
    if report.revision != request.revision
        || !report
            .screenshot_sha256
            .eq_ignore_ascii_case(&request.screenshot.sha256)
    {
        return Err(ProviderError::new(
            ProviderCode::Binding,
            format!(
                "the report is about revision {} and image {}, the request about {} and {}",
                report.revision,
                crate::wire::shorten(&report.screenshot_sha256, 64),
                request.revision,
                request.screenshot.sha256
            ),
        ));
    }
    if report.cost_microusd > request.max_cost_microusd {
        return Err(ProviderError::new(
            ProviderCode::OverBudget,
            format!(
                "the answer cost {} µUSD, the request's budget is {} µUSD",
                report.cost_microusd, request.max_cost_microusd
            ),
        ));
    }
    let most = (request.max_findings as usize).min(MAX_FINDINGS);
    if report.findings.len() > most {
        return Err(bounds(format!(
            "the report holds {} findings; the request allows {most}",
            report.findings.len()
        )));
    }
    let mut ids = std::collections::BTreeSet::new();
    for (i, f) in report.findings.iter().enumerate() {
        check_finding(request, i, f)?;
        if !ids.insert(f.id.as_str()) {
            return Err(bounds(format!(
                "finding {i}: the id \"{}\" is used twice",
                f.id
            )));
        }
    }
    Ok(())
}

fn check_finding(
    request: &DesignReviewRequest,
    i: usize,
    f: &DesignFinding,
) -> Result<(), ProviderError> {
    let id_ok = !f.id.is_empty()
        && f.id.len() <= MAX_ID_BYTES
        && f.id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
    if !id_ok {
        return Err(bounds(format!(
            "finding {i}: the id is empty, longer than {MAX_ID_BYTES} bytes or not [A-Za-z0-9._:-]"
        )));
    }
    for (field, text, max) in [
        ("title", &f.title, MAX_TITLE_CHARS),
        ("rationale", &f.rationale, MAX_TEXT_CHARS),
        ("recommendation", &f.recommendation, MAX_TEXT_CHARS),
    ] {
        let chars = text.chars().count();
        if chars == 0 || chars > max {
            return Err(bounds(format!(
                "finding {i}: the {field} has {chars} characters; it must have 1–{max}"
            )));
        }
    }
    if !request.dimensions.contains(&f.dimension) {
        return Err(bounds(format!(
            "finding {i}: the dimension {:?} was not asked for",
            f.dimension
        )));
    }
    if f.measurements.len() > MAX_MEASUREMENTS {
        return Err(bounds(format!(
            "finding {i}: {} measurements; at most {MAX_MEASUREMENTS}",
            f.measurements.len()
        )));
    }
    for m in &f.measurements {
        let name_ok = !m.name.is_empty()
            && m.name.len() <= 64
            && m.name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !name_ok || !m.value.is_finite() || m.guideline.is_some_and(|g| !g.is_finite()) {
            return Err(bounds(format!(
                "finding {i}: a measurement's name is not [a-z0-9_] (1–64) or its value is not a finite number"
            )));
        }
    }
    match &f.target {
        AdviceTarget::Page => Ok(()),
        AdviceTarget::Node { node_id } => {
            if request.page_context.nodes.iter().any(|n| &n.id == node_id) {
                Ok(())
            } else {
                Err(ProviderError::new(
                    ProviderCode::Geometry,
                    format!(
                        "finding {i} targets node \"{}\", which the request's Page Context does not hold",
                        crate::wire::shorten(node_id, 100)
                    ),
                ))
            }
        }
        AdviceTarget::Region {
            x,
            y,
            width,
            height,
        } => {
            let vw = request.page_context.viewport.width;
            let vh = request.page_context.viewport.height;
            let inside = [x, y, width, height].iter().all(|v| v.is_finite())
                && *width > 0.0
                && *height > 0.0
                && *x >= 0.0
                && *y >= 0.0
                && x + width <= vw + 0.5
                && y + height <= vh + 0.5;
            if inside {
                Ok(())
            } else {
                Err(ProviderError::new(
                    ProviderCode::Geometry,
                    format!(
                        "finding {i}'s region ({x}, {y}, {width}×{height}) is not a positive area inside the {vw}×{vh} viewport"
                    ),
                ))
            }
        }
    }
}

impl Metered for DesignAuditReport {
    fn receipt(&self) -> Receipt<'_> {
        Receipt {
            provider: &self.provider,
            model: &self.model,
            usage: self.usage,
            cost_microusd: self.cost_microusd,
        }
    }

    fn redact(&mut self, redactor: &Redactor) {
        for text in [
            &mut self.provider,
            &mut self.model,
            &mut self.screenshot_sha256,
        ] {
            *text = redactor.redact(text);
        }
        for f in &mut self.findings {
            for text in [
                &mut f.id,
                &mut f.title,
                &mut f.rationale,
                &mut f.recommendation,
            ] {
                *text = redactor.redact(text);
            }
            if let AdviceTarget::Node { node_id } = &mut f.target {
                *node_id = redactor.redact(node_id);
            }
        }
    }
}

/// A design review provider, as the session sees it: injected, typed, advisory.
///
/// Why a trait: the deployment decides what answers (the HTTP transport, or an in-process
/// implementation in a unit test); the caller only needs a checked report for a request.
pub trait DesignReviewer: Send + Sync {
    /// Review one page revision.
    fn review<'a>(
        &'a self,
        request: &'a DesignReviewRequest,
    ) -> BoxFuture<'a, Result<DesignAuditReport, ProviderError>>;
}

impl DesignReviewer for crate::transport::HttpProvider {
    fn review<'a>(
        &'a self,
        request: &'a DesignReviewRequest,
    ) -> BoxFuture<'a, Result<DesignAuditReport, ProviderError>> {
        Box::pin(self.call::<DesignReview>(request))
    }
}
