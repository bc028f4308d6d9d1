//! Visual grounding: "where on this screenshot is QUERY?" answered with boxes and confidence.
//!
//! Why the request binds the observation and the image digest: an answer is advice about one
//! screenshot of one observation, and the caller must be able to prove that the boxes it got are
//! about the image it sent (the answer repeats both; [`Grounding::check`] compares them). Boxes are
//! in image pixels and never become an identity or a click: the session maps them onto the page
//! and acts only through a ref of its latest observation.

use crate::code::{ProviderCode, ProviderError};
use crate::kind::{Metered, ProviderProtocol, Receipt};
use crate::redact::Redactor;
use crate::BoxFuture;
use a3s_test_lang::ir::ProviderKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most boxes one answer may hold.
pub const MAX_BOXES: usize = 256;

/// Why grounding is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GroundingTrigger {
    /// The agent asked.
    Explicit,
    /// The target is drawn on a canvas.
    Canvas,
    /// The target is an image without text alternative.
    ImageOnly,
    /// No accessible role and name matched the query.
    NoSemanticMatch,
}

/// The screenshot grounding looks at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Screenshot {
    /// SHA-256 of the PNG bytes, lowercase hex.
    pub sha256: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The PNG, standard base64.
    pub png_base64: String,
}

/// What is asked of a visual grounding provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GroundingRequest {
    /// What to find, as a person would name it ("Checkout").
    pub query: String,
    /// The observation the screenshot belongs to (the answer must repeat it).
    pub observation_id: String,
    /// The image.
    pub screenshot: Screenshot,
    /// Why grounding is asked for.
    pub trigger: GroundingTrigger,
    /// How long the provider has, in milliseconds (the transport enforces it too).
    pub deadline_ms: u64,
    /// The most this call may cost, in millionths of a US dollar.
    pub max_cost_microusd: u64,
}

/// One place the provider found, in image pixels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GroundingBox {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width, above zero.
    pub width: f64,
    /// Height, above zero.
    pub height: f64,
    /// How sure the provider is, 0..1.
    pub confidence: f64,
    /// What the provider read or saw there (untrusted text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// What a provider's work cost in its own units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    /// Input units (tokens, or 1 per image for a non-LLM provider).
    pub input_units: u64,
    /// Output units.
    pub output_units: u64,
}

/// A visual grounding provider's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GroundingResponse {
    /// The provider's name for itself (the configured block's label).
    pub provider: String,
    /// The model that answered.
    pub model: String,
    /// The request's `observation_id`, repeated.
    pub observation_id: String,
    /// The request's `screenshot.sha256`, repeated.
    pub screenshot_sha256: String,
    /// The places found, best first; none when the query is not on the image.
    pub boxes: Vec<GroundingBox>,
    /// What the call used.
    pub usage: Usage,
    /// What the call cost, in millionths of a US dollar.
    pub cost_microusd: u64,
}

/// The visual grounding protocol, `a3s.test.visual-grounding/1`.
#[derive(Debug)]
pub enum Grounding {}

impl ProviderProtocol for Grounding {
    const KIND: ProviderKind = ProviderKind::VisualGrounding;
    const PROTOCOL: &'static str = "a3s.test.visual-grounding/1";
    /// A 1920×1080 PNG in base64 with room to spare.
    const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;
    /// 256 boxes with their texts fit in a fraction of this.
    const MAX_RESPONSE_BYTES: usize = 1024 * 1024;
    type Request = GroundingRequest;
    type Response = GroundingResponse;

    fn check(
        request: &GroundingRequest,
        response: &GroundingResponse,
    ) -> Result<(), ProviderError> {
        if response.observation_id != request.observation_id
            || !response
                .screenshot_sha256
                .eq_ignore_ascii_case(&request.screenshot.sha256)
        {
            return Err(ProviderError::new(
                ProviderCode::Binding,
                format!(
                    "the answer is about observation \"{}\" and image {}, the request about \"{}\" and {}",
                    crate::wire::shorten(&response.observation_id, 100),
                    crate::wire::shorten(&response.screenshot_sha256, 64),
                    request.observation_id,
                    request.screenshot.sha256
                ),
            ));
        }
        if response.cost_microusd > request.max_cost_microusd {
            return Err(ProviderError::new(
                ProviderCode::OverBudget,
                format!(
                    "the answer cost {} µUSD, the request's budget is {} µUSD",
                    response.cost_microusd, request.max_cost_microusd
                ),
            ));
        }
        if response.boxes.len() > MAX_BOXES {
            return Err(ProviderError::new(
                ProviderCode::Geometry,
                format!(
                    "the answer holds {} boxes; at most {MAX_BOXES} are read",
                    response.boxes.len()
                ),
            ));
        }
        let (w, h) = (
            f64::from(request.screenshot.width),
            f64::from(request.screenshot.height),
        );
        for (i, b) in response.boxes.iter().enumerate() {
            let inside = b.x >= 0.0
                && b.y >= 0.0
                && b.width > 0.0
                && b.height > 0.0
                && b.x + b.width <= w
                && b.y + b.height <= h;
            if !inside {
                return Err(ProviderError::new(
                    ProviderCode::Geometry,
                    format!(
                        "box {i} ({}, {}, {}×{}) is not a positive area inside the {w}×{h} image",
                        b.x, b.y, b.width, b.height
                    ),
                ));
            }
            if !(0.0..=1.0).contains(&b.confidence) {
                return Err(ProviderError::new(
                    ProviderCode::Geometry,
                    format!("box {i} has confidence {}, outside 0..1", b.confidence),
                ));
            }
        }
        Ok(())
    }
}

impl Metered for GroundingResponse {
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
            &mut self.observation_id,
            &mut self.screenshot_sha256,
        ] {
            *text = redactor.redact(text);
        }
        for b in &mut self.boxes {
            if let Some(text) = &mut b.text {
                *text = redactor.redact(text);
            }
        }
    }
}

/// A visual grounding provider, as the session sees it: injected, typed, advisory.
///
/// Why a trait: the deployment decides what answers (the HTTP transport here, or another
/// in-process implementation); the session only needs boxes for a request.
pub trait VisualGrounding: Send + Sync {
    /// Ground `request.query` on `request.screenshot`.
    fn ground<'a>(
        &'a self,
        request: &'a GroundingRequest,
    ) -> BoxFuture<'a, Result<GroundingResponse, ProviderError>>;
}

impl VisualGrounding for crate::transport::HttpProvider {
    fn ground<'a>(
        &'a self,
        request: &'a GroundingRequest,
    ) -> BoxFuture<'a, Result<GroundingResponse, ProviderError>> {
        Box::pin(self.call::<Grounding>(request))
    }
}
