//! The advisory provider boundary of A3S Test: model providers (visual grounding first) that a
//! deployment plugs in by the project file's `provider "name" { … }` blocks.
//!
//! Why its own crate: a provider only advises. It never acts and never decides a verdict, and
//! core bundles no weights, runtime or credentials: what answers is the deployment's. This crate
//! owns what crosses that boundary — one typed request and response per kind
//! ([`kind::ProviderProtocol`], [`grounding`], [`design`]), the shared envelopes ([`wire`]), the one HTTP
//! transport with its rules ([`transport`]: no redirects, no environment proxies, plaintext only
//! to loopback, bounded bodies, a deadline per call, the authorization value redacted), and the
//! `test.provider.*` codes ([`code`]). `docs/providers.md` is the user-facing description.

pub mod code;
pub mod contract;
pub mod design;
pub mod grounding;
pub mod kind;
pub mod listen;
pub mod redact;
pub mod serve;
pub mod transport;
pub mod wire;

pub use code::{ProviderCode, ProviderError};
pub use design::{DesignAuditReport, DesignReview, DesignReviewRequest, DesignReviewer};
pub use grounding::{Grounding, GroundingRequest, GroundingResponse, VisualGrounding};
pub use kind::{protocol, schemas, ProviderProtocol};
pub use transport::HttpProvider;

/// A boxed future, so provider traits stay usable as injected `dyn` objects.
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// The provider named `name` among `providers`, if it is of `kind`.
pub fn find<'a>(
    providers: &'a [a3s_test_lang::ir::ProviderConfig],
    name: &str,
    kind: a3s_test_lang::ir::ProviderKind,
) -> Result<&'a a3s_test_lang::ir::ProviderConfig, ProviderError> {
    match providers.iter().find(|p| p.name == name) {
        Some(p) if p.kind == kind => Ok(p),
        Some(p) => Err(ProviderError::new(
            ProviderCode::NotConfigured,
            format!(
                "provider \"{name}\" is a {} provider, not {}",
                p.kind.as_str(),
                kind.as_str()
            ),
        )),
        None => Err(ProviderError::new(
            ProviderCode::NotConfigured,
            format!("the project configures no provider \"{name}\""),
        )),
    }
}
