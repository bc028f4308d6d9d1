//! The page half of `agent audit`: capture what a design review is about — the viewport's
//! screenshot and the forensic Page Context of one and the same Test Kit revision — and hand the
//! checked report to the page's Review Overlay as advice (`showAdvice`).
//!
//! Why the revision is read three times: the screenshot and the snapshot are two reads, and the
//! page may re-render between them. The capture holds only when the revision before the
//! snapshot, the snapshot's own, and the one after the screenshot agree; otherwise it is taken
//! again (at most [`ATTEMPTS`] times) and then refused, so a report can never be about a picture
//! of one page and the nodes of another. Why advice goes to the page typed and stamped with its
//! revision: the overlay shows it only while the page is still at that revision (a newer one
//! clears it), and nothing in it can act — it carries no outcome, verdict or action.

use super::code::{SessionCode, SessionError};
use super::page_context::live;
use a3s_test_driver::{AgentContext, PageContextMethod};
use a3s_test_provider::design::{
    AdviceTarget, DesignAuditReport, Dimension, PageContext, Priority,
};
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use tokio::time::Instant;

/// How often a capture is taken again when the page moved between its reads.
pub const ATTEMPTS: usize = 3;
/// The advice protocol the Test Kit's `showAdvice` reads.
pub const ADVICE_PROTOCOL: &str = "a3s.test.design-advice/1";

/// Capture the page for a design review (a supervisor turn).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditCapture {}

/// The screenshot and the Page Context of one revision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditCaptured {
    /// The page's URL (untrusted page data).
    pub url: String,
    /// The Test Kit revision both reads are of.
    pub revision: u64,
    /// SHA-256 of the PNG, lowercase hex.
    pub sha256: String,
    /// Width of the PNG in pixels.
    pub width: u32,
    /// Height of the PNG in pixels.
    pub height: u32,
    /// The PNG, standard base64.
    pub png_base64: String,
    /// The forensic Page Context, projected for design review.
    pub page_context: PageContext,
}

/// One piece of advice as the Review Overlay reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageAdviceItem {
    /// The provider's id.
    pub id: String,
    /// The dimension.
    pub dimension: Dimension,
    /// `low`, `medium` or `high` (the overlay shows `high` at most as *important*).
    pub priority: Priority,
    /// What it points at: `{kind: page}`, `{kind: node, nodeId}` or `{kind: region, x, y, width, height}`.
    pub target: PageAdviceTarget,
    /// One line.
    pub title: String,
    /// Why.
    pub rationale: String,
    /// What to consider.
    pub recommendation: String,
}

/// What advice points at, in the Test Kit's spelling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PageAdviceTarget {
    /// The page.
    Page,
    /// A node of the revision's Page Context.
    Node {
        /// Its Test Kit id.
        #[serde(rename = "nodeId")]
        node_id: String,
    },
    /// A viewport rectangle in CSS px.
    Region {
        /// Left.
        x: f64,
        /// Top.
        y: f64,
        /// Width.
        width: f64,
        /// Height.
        height: f64,
    },
}

/// A report as the page's Review Overlay shows it (`a3s.test.design-advice/1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageAdvice {
    /// [`ADVICE_PROTOCOL`].
    pub protocol: String,
    /// The revision the advice is about; the overlay drops it once the page is past it.
    pub revision: u64,
    /// The provider that gave it.
    pub provider: String,
    /// Its model.
    pub model: String,
    /// The advice, most important first.
    pub items: Vec<PageAdviceItem>,
}

impl PageAdvice {
    /// The page's form of a checked report.
    pub fn from_report(report: &DesignAuditReport) -> PageAdvice {
        PageAdvice {
            protocol: ADVICE_PROTOCOL.into(),
            revision: report.revision,
            provider: report.provider.clone(),
            model: report.model.clone(),
            items: report
                .findings
                .iter()
                .map(|f| PageAdviceItem {
                    id: f.id.clone(),
                    dimension: f.dimension,
                    priority: f.priority,
                    target: match &f.target {
                        AdviceTarget::Page => PageAdviceTarget::Page,
                        AdviceTarget::Node { node_id } => PageAdviceTarget::Node {
                            node_id: node_id.clone(),
                        },
                        AdviceTarget::Region {
                            x,
                            y,
                            width,
                            height,
                        } => PageAdviceTarget::Region {
                            x: *x,
                            y: *y,
                            width: *width,
                            height: *height,
                        },
                    },
                    title: f.title.clone(),
                    rationale: f.rationale.clone(),
                    recommendation: f.recommendation.clone(),
                })
                .collect(),
        }
    }
}

/// Hand advice to the page (a supervisor turn).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShowAdvice {
    /// The advice.
    pub advice: PageAdvice,
}

/// What the page did with the advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdviceDelivery {
    /// The overlay shows it.
    Shown,
    /// The page is already past the advice's revision: nothing is shown.
    Stale,
    /// The page's Test Kit has no `showAdvice` (an older runtime, or no overlay).
    Unsupported,
}

/// The page's answer to [`ShowAdvice`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdviceShown {
    /// What happened.
    pub delivery: AdviceDelivery,
    /// The page's revision when it answered.
    pub revision: u64,
}

fn no_bridge() -> SessionError {
    SessionError::new(
        SessionCode::Capability,
        "this page has no Test Kit bridge: a design review needs its Page Context",
    )
}

/// The PNG's width and height from its header.
fn png_size(png: &[u8]) -> Result<(u32, u32), SessionError> {
    let reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .map_err(|e| {
            SessionError::new(
                SessionCode::StepFailed,
                format!("the screenshot is not a PNG: {e}"),
            )
        })?;
    let info = reader.info();
    Ok((info.width, info.height))
}

/// Take the screenshot and the forensic Page Context of one revision (see the module's doc).
pub async fn capture<C: AgentContext>(
    ctx: &C,
    deadline: Instant,
) -> Result<AuditCaptured, SessionError> {
    if live::detect(ctx, deadline).await?.is_none() {
        return Err(no_bridge());
    }
    let request = json!({ "detail": "forensic", "scope": { "kind": "page" }, "ui": false });
    let mut seen = Vec::new();
    for _ in 0..ATTEMPTS {
        let before = live::revision(ctx, deadline).await?;
        let (at, snapshot) = live::snapshot(ctx, request.clone(), deadline).await?;
        let png = ctx
            .screenshot_png(deadline)
            .await
            .map_err(SessionError::from)?;
        let after = live::revision(ctx, deadline).await?;
        if before == at && at == after {
            let page_context = PageContext::from_snapshot(&snapshot).map_err(|m| {
                live::driver_error(
                    a3s_test_driver::failure::FailureCode::PageContextIncompatible,
                    format!("the forensic snapshot cannot be read: {m}"),
                )
            })?;
            let (width, height) = png_size(&png)?;
            let url = snapshot
                .pointer("/page/url")
                .and_then(|u| u.as_str())
                .unwrap_or_default()
                .chars()
                .take(2048)
                .collect();
            return Ok(AuditCaptured {
                url,
                revision: at,
                sha256: Sha256::digest(&png)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect(),
                width,
                height,
                png_base64: base64::engine::general_purpose::STANDARD.encode(&png),
                page_context,
            });
        }
        seen.push(format!("{before}→{at}→{after}"));
    }
    Err(SessionError::new(
        SessionCode::StaleRef,
        format!(
            "the page changed while it was captured ({} tries, revisions {}); let it settle and audit again",
            ATTEMPTS,
            seen.join(", ")
        ),
    ))
}

/// Give `advice` to the page's overlay (`showAdvice`); the page refuses advice about a revision
/// it has left.
pub async fn show<C: AgentContext>(
    ctx: &C,
    advice: &PageAdvice,
    deadline: Instant,
) -> Result<AdviceShown, SessionError> {
    let arg = serde_json::to_value(advice)
        .map_err(|e| SessionError::new(SessionCode::InvalidInput, format!("advice: {e}")))?;
    let reply = live::call(ctx, PageContextMethod::ShowAdvice, arg, deadline).await?;
    let revision = live::revision(ctx, deadline).await.unwrap_or(0);
    match reply {
        a3s_test_driver::PageContextReply::Absent => Err(no_bridge()),
        a3s_test_driver::PageContextReply::Threw(_) => Ok(AdviceShown {
            delivery: AdviceDelivery::Unsupported,
            revision,
        }),
        a3s_test_driver::PageContextReply::Value(v) => {
            let shown = v.get("shown").and_then(|s| s.as_bool()).unwrap_or(false);
            Ok(AdviceShown {
                delivery: if shown {
                    AdviceDelivery::Shown
                } else {
                    AdviceDelivery::Stale
                },
                revision,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_provider::design::DesignFinding;
    use a3s_test_provider::grounding::Usage;

    #[test]
    fn a_report_becomes_page_advice_in_the_test_kits_spelling() {
        let report = DesignAuditReport {
            provider: "auditor".into(),
            model: "m".into(),
            revision: 9,
            screenshot_sha256: "ab".into(),
            findings: vec![DesignFinding {
                id: "colour-1".into(),
                dimension: Dimension::InteractionClarity,
                target: AdviceTarget::Node {
                    node_id: "n3".into(),
                },
                priority: Priority::High,
                title: "t".into(),
                rationale: "r".into(),
                recommendation: "c".into(),
                measurements: vec![],
            }],
            usage: Usage {
                input_units: 1,
                output_units: 1,
            },
            cost_microusd: 0,
        };
        let advice = serde_json::to_value(PageAdvice::from_report(&report)).unwrap();
        assert_eq!(advice["protocol"], ADVICE_PROTOCOL);
        assert_eq!(advice["revision"], 9);
        assert_eq!(advice["items"][0]["target"]["nodeId"], "n3");
        assert_eq!(advice["items"][0]["dimension"], "interaction_clarity");
        assert_eq!(advice["items"][0]["priority"], "high");
        let keys: Vec<&String> = advice["items"][0].as_object().unwrap().keys().collect();
        assert!(!keys
            .iter()
            .any(|k| ["verdict", "outcome", "action"].contains(&k.as_str())));
    }
}
