//! A design review (`a3s.test.design-audit-report/1`) and contract generation
//! (`a3s.test.contract-candidates/1`) provider for A3S Test that asks a model behind an OpenAI-compatible `POST {base}/v1/chat/completions` endpoint instead of measuring.
//!
//! Why an adapter rather than model support in core: core bundles no model and no credentials;
//! a deployment that wants a model runs this binary next to the tool, on loopback, and names it
//! in a `provider` block like any other provider. The adapter reaches the model server through
//! the tool's own transport (`a3s_test_provider::transport`: no redirects, no environment
//! proxies, plaintext only to loopback, bounded bodies, a deadline, the authorization value
//! redacted), and admits the model's free-form JSON only when it parses into the typed findings,
//! holds no verdict or action, and keeps the protocol's bounds — otherwise it answers with a
//! coded `failure` envelope, so a model's mistake is never passed on as advice.

pub mod chat;
pub mod contract;
pub mod review;
pub mod server;

pub use review::{Adapter, AdapterConfig, SetupError};
