//! `agent audit` / `test_audit`: a design review of the session's page by the project's
//! `design_review` provider, handed to the page's Review Overlay as advice.
//!
//! Why here, in the front end's process, and not in the supervisor: the supervisor holds the page
//! and reads it (one turn: the screenshot and forensic Page Context of one revision); the
//! provider is the deployment's service and is called over the one provider transport, with its
//! deadline, bounds and refusals (`test.provider.*`). What comes back is advice: it is checked
//! against the request (revision, screenshot digest, targets, bounds; no verdict or action), shown
//! on the page while it stays at that revision, and returned to the caller as untrusted text. It
//! authorizes nothing and writes nothing to the ledger.

use super::bounded::Bounded;
use super::session::turn;
use super::{parse_enum, Context};
use a3s_test_lang::ir::ProviderKind;
use a3s_test_ledger::SessionId;
use a3s_test_provider::design::{
    DesignAuditReport, DesignReview, DesignReviewRequest, Dimension, MAX_FINDINGS,
};
use a3s_test_provider::grounding::Screenshot;
use a3s_test_provider::{HttpProvider, ProviderCode, ProviderError};
use a3s_test_runner::session::design_audit::{AdviceShown, AuditCapture, PageAdvice, ShowAdvice};
use a3s_test_runner::session::{SessionCode, SessionError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `audit`: review the session page's current revision.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct AuditParams {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// The `design_review` provider of the project file to ask (default: its only one).
    #[arg(long, value_name = "NAME")]
    #[serde(default)]
    pub provider: Option<String>,
    /// A dimension to review (repeatable; default: every one): hierarchy, composition, spacing,
    /// typography, colour, consistency, interaction_clarity, content_clarity,
    /// responsive_composition.
    #[arg(long = "dimension", value_name = "DIMENSION", value_parser = parse_enum::<Dimension>)]
    #[serde(default)]
    pub dimensions: Vec<Dimension>,
    /// The most findings the report may hold (default and maximum 200).
    #[arg(long, value_name = "N")]
    pub max_findings: Option<Bounded<u32, 1, 200>>,
    /// Keep the advice off the page (by default the Review Overlay shows it as advice).
    #[arg(long)]
    #[serde(default)]
    pub no_overlay: bool,
}

/// What `audit` answers: the checked report (untrusted advice) and whether the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Audited {
    /// The session.
    pub session: String,
    /// The page's URL when it was captured.
    pub url: String,
    /// The provider's report, checked against the request.
    pub report: DesignAuditReport,
    /// What the page did with the advice (absent with `no_overlay`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlay: Option<AdviceShown>,
    /// Always true: every text of the report is a provider's, never an instruction.
    pub untrusted: bool,
}

/// Why `audit` gave no advice: a session refusal, or the provider's (`test.provider.*`).
#[derive(Debug)]
pub enum AuditError {
    /// The session or the page refused.
    Session(SessionError),
    /// The provider could not be asked, or its answer was refused.
    Provider(ProviderError),
}

impl From<SessionError> for AuditError {
    fn from(e: SessionError) -> Self {
        AuditError::Session(e)
    }
}

impl From<ProviderError> for AuditError {
    fn from(e: ProviderError) -> Self {
        AuditError::Provider(e)
    }
}

impl Serialize for AuditError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            AuditError::Session(e) => e.serialize(s),
            AuditError::Provider(e) => {
                #[derive(Serialize)]
                struct Coded<'a> {
                    code: ProviderCode,
                    message: &'a str,
                    hint: &'a str,
                    retryable: bool,
                }
                Coded {
                    code: e.code,
                    message: &e.message,
                    hint: e.hint(),
                    retryable: e.retryable,
                }
                .serialize(s)
            }
        }
    }
}

/// The provider `name` asks for, or the project's only `design_review` provider.
fn provider(ctx: &Context, name: Option<&str>) -> Result<HttpProvider, AuditError> {
    let project = super::project::read(&ctx.root)?;
    let providers = project.map(|p| p.providers).unwrap_or_default();
    let config = match name {
        Some(name) => a3s_test_provider::find(&providers, name, ProviderKind::DesignReview)?,
        None => {
            let mut reviewers = providers
                .iter()
                .filter(|p| p.kind == ProviderKind::DesignReview);
            match (reviewers.next(), reviewers.next()) {
                (Some(one), None) => one,
                (None, _) => {
                    return Err(ProviderError::new(
                        ProviderCode::NotConfigured,
                        "the project configures no design_review provider",
                    )
                    .into())
                }
                (Some(_), Some(_)) => {
                    return Err(SessionError::new(
                        SessionCode::InvalidInput,
                        "the project configures several design_review providers: name one with --provider",
                    )
                    .into())
                }
            }
        }
    };
    Ok(HttpProvider::from_env(config)?)
}

/// Review the session page's current revision and (unless `no_overlay`) show the advice there.
pub fn audit(ctx: &Context, p: &AuditParams) -> Result<Audited, AuditError> {
    let session = p.session.to_string();
    let http = provider(ctx, p.provider.as_deref())?;
    let captured = turn(ctx, &session, AuditCapture {})?;
    let mut dimensions = if p.dimensions.is_empty() {
        Dimension::ALL.to_vec()
    } else {
        p.dimensions.clone()
    };
    dimensions.sort();
    dimensions.dedup();
    let request = DesignReviewRequest {
        url: captured.url.clone(),
        revision: captured.revision,
        screenshot: Screenshot {
            sha256: captured.sha256,
            width: captured.width,
            height: captured.height,
            png_base64: captured.png_base64,
        },
        page_context: captured.page_context,
        dimensions,
        max_findings: p.max_findings.map(u32::from).unwrap_or(MAX_FINDINGS as u32),
        deadline_ms: http.timeout_ms(),
        max_cost_microusd: http.max_cost_microusd(),
    };
    // The call runs on a runtime of its own, on a thread of its own: the caller may be a
    // blocking task of the MCP server's runtime, where a second runtime cannot be entered.
    let report = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| {
                        AuditError::Session(SessionError::new(
                            SessionCode::Io,
                            format!("failed to start a runtime for the provider call: {e}"),
                        ))
                    })?;
                runtime
                    .block_on(http.call::<DesignReview>(&request))
                    .map_err(AuditError::Provider)
            })
            .join()
            .unwrap_or_else(|_| {
                Err(AuditError::Session(SessionError::new(
                    SessionCode::Io,
                    "the provider call's thread panicked",
                )))
            })
    })?;
    let overlay = if p.no_overlay {
        None
    } else {
        let advice = PageAdvice::from_report(&report);
        Some(turn(ctx, &session, ShowAdvice { advice })?)
    };
    Ok(Audited {
        session,
        url: captured.url,
        report,
        overlay,
        untrusted: true,
    })
}
