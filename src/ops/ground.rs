//! `agent ground "QUERY"` / `test_ground`: ask the project's visual grounding provider where
//! something drawn is, and keep only what the page proves.
//!
//! Why here, in the front end: the provider's configuration and its authorization value belong
//! to the process the person or agent runs (read from the project file and this environment,
//! never sent to the supervisor or written to the session folder). The supervisor takes the
//! screenshot of the latest open observation, and afterwards proves that the observation is
//! still the latest and the page still shows the same pixels before it hit-tests each box
//! (`a3s_test_runner::session::ground`). The provider's boxes are advice in image pixels: one
//! `@cN` the page shows on top under every box becomes the answer's `ref`; several places stay
//! `ambiguous`; places no Test Kit node holds stay `image_bound`. Nothing here acts, and no box
//! is ever kept as an identity.

use super::bounded::{Bounded, Text, UNBOUNDED};
use super::session::turn;
use super::{parse_enum, Context};
use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_ledger::SessionId;
use a3s_test_provider::grounding::{
    GroundingBox, GroundingRequest, GroundingResponse, GroundingTrigger, Screenshot, Usage,
};
use a3s_test_provider::{HttpProvider, ProviderError, VisualGrounding};
use a3s_test_runner::session::ground::{sha256_hex, GroundCapture, GroundHit, GroundMap};
use a3s_test_runner::session::ground_proof::GroundProof;
use a3s_test_runner::session::{SessionCode, SessionError};
use base64::Engine as _;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::time::Instant;

/// Longest query, in characters.
pub const MAX_QUERY_CHARS: usize = 500;

/// `ground`: find QUERY on the screenshot of the latest observation through a provider.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct GroundParams {
    /// What to find, as a person would name it ("Checkout").
    pub query: Text<1, MAX_QUERY_CHARS>,
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// The project file's `provider "NAME"` block to ask (default: its only visual_grounding
    /// provider).
    #[arg(long, value_name = "NAME")]
    #[serde(default)]
    pub provider: Option<String>,
    /// The observation the question is about (must be the latest, still open; default: the
    /// latest).
    #[arg(long, value_name = "N")]
    #[serde(default)]
    pub observation: Option<Bounded<u64, 1, UNBOUNDED>>,
    /// Why grounding is asked for: explicit, canvas, image-only or no-semantic-match.
    #[arg(long, default_value = "explicit", value_parser = parse_enum::<GroundingTrigger>)]
    #[serde(default = "explicit")]
    pub trigger: GroundingTrigger,
}

fn explicit() -> GroundingTrigger {
    GroundingTrigger::Explicit
}

/// Whose word the answer is: always a provider's advice, never the tool's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Authority {
    /// Advice: it names where something may be; acting still needs a ref of the latest
    /// observation.
    Advisory,
}

/// What the page made of the provider's places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every place is on the one `@cN` (without a Test Kit bridge: `@eN`) in `ref`.
    Located,
    /// The places are on several nodes, or on a node and elsewhere: no single ref.
    Ambiguous,
    /// No place is on a Test Kit node (without a bridge: on an `@eN` control): the boxes stay
    /// advice in image pixels.
    ImageBound,
    /// The provider found the query nowhere on the screenshot.
    NotFound,
}

/// One place the provider named, with what the page shows there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Place {
    /// The provider's box, in image pixels (advice; never an identity or a click point).
    #[serde(rename = "box")]
    pub image_box: GroundingBox,
    /// The box's centre in viewport CSS pixels, where the page was asked.
    pub centre_css: (f64, f64),
    /// The `@cN` the page shows on top at the centre, when one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit: Option<GroundHit>,
}

/// The screenshot the provider was asked about.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Image {
    /// SHA-256 of the PNG, lowercase hex (checked again after the answer).
    pub sha256: String,
    /// Width in image pixels.
    pub width: u32,
    /// Height in image pixels.
    pub height: u32,
    /// Image pixels per CSS pixel.
    pub scale: f64,
}

/// Where the time went, in milliseconds: the provider's share and the boundary's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Timing {
    /// The screenshot turn.
    pub capture_ms: u64,
    /// The provider call (transport included).
    pub provider_ms: u64,
    /// The check turn: the observation and pixels proven unchanged, the hit test.
    pub map_ms: u64,
    /// The whole operation.
    pub total_ms: u64,
}

/// `ground`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grounded {
    /// The session.
    pub session: String,
    /// Always `advisory`.
    pub authority: Authority,
    /// The observation it is about; its refs stay usable until the next action.
    pub observation: u64,
    /// What was asked.
    pub query: String,
    /// Why.
    pub trigger: GroundingTrigger,
    /// The provider block asked.
    pub provider: String,
    /// The model that answered.
    pub model: String,
    /// What the page made of the places.
    pub outcome: Outcome,
    /// The one `@cN` of the latest observation, when `located`.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// A semantic locator of that node (ACL), when its Test Kit record has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// Every place, best first.
    pub places: Vec<Place>,
    /// The screenshot.
    pub image: Image,
    /// What the page was proven unchanged on after the answer: the region of the boxes (image
    /// pixels) or the whole viewport.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<GroundProof>,
    /// What the provider reported it used.
    pub usage: Usage,
    /// What it cost, in millionths of a US dollar.
    pub cost_microusd: u64,
    /// Where the time went.
    pub timing: Timing,
    /// What to do next.
    pub next: String,
}

/// The provider to ask: the named block, else the project's only visual_grounding one.
fn provider_config(ctx: &Context, name: Option<&str>) -> Result<ProviderConfig, SessionError> {
    let providers = super::project::read(&ctx.root)?
        .map(|p| p.providers)
        .unwrap_or_default();
    let refused = |e: ProviderError| provider_error(&e);
    if let Some(name) = name {
        return a3s_test_provider::find(&providers, name, ProviderKind::VisualGrounding)
            .cloned()
            .map_err(refused);
    }
    let grounding: Vec<&ProviderConfig> = providers
        .iter()
        .filter(|p| p.kind == ProviderKind::VisualGrounding)
        .collect();
    match grounding[..] {
        [one] => Ok(one.clone()),
        [] => Err(refused(ProviderError::new(
            a3s_test_provider::ProviderCode::NotConfigured,
            format!(
                "{} configures no visual_grounding provider",
                super::project::PROJECT_FILE
            ),
        ))),
        _ => Err(refused(ProviderError::new(
            a3s_test_provider::ProviderCode::NotConfigured,
            format!(
                "{} configures {} visual_grounding providers; name one with provider",
                super::project::PROJECT_FILE,
                grounding.len()
            ),
        ))),
    }
}

/// A provider's failure as the session's: `test.session.provider`, the message led by the
/// provider's own code and ended by its hint (the message is redacted already).
fn provider_error(e: &ProviderError) -> SessionError {
    SessionError::new(
        SessionCode::Provider,
        format!("{}: {}; {}", e.code, e.message, e.hint()),
    )
}

/// Ask the provider on a runtime of its own, on a thread of its own: the caller may be a
/// blocking task of the MCP server's runtime, where a second runtime cannot be entered.
fn ask(
    provider: &HttpProvider,
    request: &GroundingRequest,
) -> Result<GroundingResponse, SessionError> {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| {
                        SessionError::new(
                            SessionCode::Io,
                            format!("failed to start a runtime for the provider call: {e}"),
                        )
                    })?;
                runtime
                    .block_on(provider.ground(request))
                    .map_err(|e| provider_error(&e))
            })
            .join()
            .unwrap_or_else(|_| {
                Err(SessionError::new(
                    SessionCode::Io,
                    "the provider call's thread panicked",
                ))
            })
    })
}

fn millis_f(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn millis(since: Instant) -> u64 {
    since.elapsed().as_millis() as u64
}

/// Ground `p.query` on the latest observation of `p.session`.
pub fn ground(ctx: &Context, p: &GroundParams) -> Result<Grounded, SessionError> {
    let started = Instant::now();
    let config = provider_config(ctx, p.provider.as_deref())?;
    let provider = HttpProvider::from_env(&config).map_err(|e| provider_error(&e))?;
    let session = p.session.to_string();
    let configured = millis_f(started);
    let shot = turn(
        ctx,
        &session,
        GroundCapture {
            observation: p.observation.map(Into::into),
        },
    )?;
    let capture_ms = millis(started);
    let hashing = Instant::now();
    // The digest is the front end's own, of the very bytes it sends: the provider's answer is
    // bound to these, and the supervisor compares them with the page after the answer.
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot.png_base64.as_bytes())
        .map_err(|e| {
            SessionError::new(
                SessionCode::Supervisor,
                format!("the supervisor's screenshot is not base64: {e}"),
            )
        })?;
    let sha256 = sha256_hex(&png);
    if sha256 != shot.sha256 {
        return Err(SessionError::new(
            SessionCode::Supervisor,
            "the supervisor's screenshot does not hash to the digest it reported",
        ));
    }
    let request = GroundingRequest {
        query: p.query.as_str().to_string(),
        observation_id: shot.observation.to_string(),
        screenshot: Screenshot {
            sha256: sha256.clone(),
            width: shot.width,
            height: shot.height,
            png_base64: shot.png_base64,
        },
        trigger: p.trigger,
        deadline_ms: config.timeout_ms,
        max_cost_microusd: config.max_cost_microusd,
    };
    let hashed = millis_f(hashing);
    let asked = Instant::now();
    let answer = ask(&provider, &request)?;
    let provider_ms = millis(asked);
    let mapped = Instant::now();
    let points: Vec<(f64, f64)> = answer
        .boxes
        .iter()
        .map(|b| (b.x + b.width / 2.0, b.y + b.height / 2.0))
        .collect();
    let hits = turn(
        ctx,
        &session,
        GroundMap {
            observation: shot.observation,
            sha256: sha256.clone(),
            points: points.clone(),
            boxes: answer
                .boxes
                .iter()
                .map(|b| (b.x, b.y, b.width, b.height))
                .collect(),
        },
    )?;
    let map_ms = millis(mapped);
    if a3s_test_runner::session::ground::timing_enabled() {
        eprintln!(
            "ground: config {configured:.2} ms, capture turn {capture_ms} ms (config included), \
             decode + hash {hashed:.2} ms, provider {provider_ms} ms, map turn {map_ms} ms"
        );
    }
    let scale = hits.scale;
    let proof = hits.proof;
    let places: Vec<Place> = answer
        .boxes
        .into_iter()
        .zip(points)
        .zip(hits.hits)
        .map(|((image_box, (x, y)), hit)| Place {
            image_box,
            centre_css: (x / scale, y / scale),
            hit,
        })
        .collect();
    let (outcome, chosen) = decide(&places);
    let reference = chosen.map(|h| h.reference.clone());
    let locator = chosen
        .and_then(|h| h.locator.as_ref())
        .map(|t| t.to_string());
    let next = match (&outcome, &reference) {
        (Outcome::Located, Some(r)) => format!(
            "a3s-test agent click {r} --session {session} --observation {}",
            shot.observation
        ),
        _ => format!("a3s-test agent inspect --session {session}"),
    };
    Ok(Grounded {
        session,
        authority: Authority::Advisory,
        observation: shot.observation,
        query: request.query,
        trigger: p.trigger,
        provider: answer.provider,
        model: answer.model,
        outcome,
        reference,
        locator,
        places,
        image: Image {
            sha256,
            width: shot.width,
            height: shot.height,
            scale,
        },
        proof,
        usage: answer.usage,
        cost_microusd: answer.cost_microusd,
        timing: Timing {
            capture_ms,
            provider_ms,
            map_ms,
            total_ms: millis(started),
        },
        next,
    })
}

/// The outcome of `places`: one ref only when every place is on the same node.
pub fn decide(places: &[Place]) -> (Outcome, Option<&GroundHit>) {
    if places.is_empty() {
        return (Outcome::NotFound, None);
    }
    let refs: BTreeSet<&str> = places
        .iter()
        .filter_map(|p| p.hit.as_ref().map(|h| h.reference.as_str()))
        .collect();
    let unplaced = places.iter().any(|p| p.hit.is_none());
    match (refs.len(), unplaced) {
        (0, _) => (Outcome::ImageBound, None),
        (1, false) => (Outcome::Located, places[0].hit.as_ref()),
        _ => (Outcome::Ambiguous, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(hit: Option<&str>) -> Place {
        Place {
            image_box: GroundingBox {
                x: 1.0,
                y: 1.0,
                width: 2.0,
                height: 2.0,
                confidence: 0.9,
                text: None,
            },
            centre_css: (2.0, 2.0),
            hit: hit.map(|r| GroundHit {
                reference: r.into(),
                role: "button".into(),
                name: String::new(),
                locator: None,
            }),
        }
    }

    #[test]
    fn one_ref_only_when_every_place_is_on_the_same_node() {
        assert_eq!(decide(&[]).0, Outcome::NotFound);
        assert_eq!(decide(&[place(None)]).0, Outcome::ImageBound);
        let one = [place(Some("@c2")), place(Some("@c2"))];
        assert_eq!(decide(&one).0, Outcome::Located);
        assert_eq!(decide(&one).1.unwrap().reference, "@c2");
        assert_eq!(
            decide(&[place(Some("@c1")), place(Some("@c2"))]).0,
            Outcome::Ambiguous
        );
        assert_eq!(
            decide(&[place(Some("@c1")), place(None)]).0,
            Outcome::Ambiguous
        );
    }
}
