//! `observe`: the agent's view of the page — its text in document order with refs inline,
//! within a byte budget, or only what changed since an earlier observation, optionally after
//! the page settled. One parameters struct for the CLI and the MCP tool (`test_observe`); the
//! view itself is built in `a3s_test_runner::session::view`.

use super::bounded::{Bounded, Text, UNBOUNDED};
use super::session::turn;
use super::Context;
use a3s_test_ledger::SessionId;
use a3s_test_runner::session::view::{Form, Observation, ViewRequest};
use a3s_test_runner::session::{SessionCode, SessionError};
use schemars::JsonSchema;
use serde::Deserialize;

/// The options of a view: how `observe` shapes the page it answers, and how an action shapes
/// the observation it answers with (`--observe`). Defined once and flattened into both
/// parameter structs, so a flag, its field and its bounds are the same wherever a view is
/// asked for.
#[derive(Debug, Clone, Default, PartialEq, clap::Args, Deserialize, JsonSchema)]
pub struct ViewOptions {
    /// No byte budget (up to 262144 bytes) and longer lines.
    #[arg(long)]
    #[serde(default)]
    pub full: bool,
    /// Only what changed since observation N (added, removed, changed lines); when that
    /// cannot be told, the answer says why and carries the whole view.
    #[arg(long, value_name = "N")]
    pub since: Option<Bounded<u64, 1, UNBOUNDED>>,
    /// First wait until the page made no DOM change and no network request for T ms (at most
    /// 5000; the whole wait is capped at 4×T, within 2–10 s, and the answer says whether it
    /// settled).
    #[arg(long, value_name = "T")]
    pub settle_ms: Option<Bounded<u64, 1, 5000>>,
    /// The view's byte budget (default 4096); past it the view says what was cut.
    #[arg(long, value_name = "BYTES")]
    pub max_bytes: Option<Bounded<usize, 256, 262144>>,
    /// Start the view at this ref (`@e21`) or outline line number, as a cut view suggests.
    #[arg(long, value_name = "REF|LINE")]
    pub scope: Option<Text<0, 16>>,
    /// UI understanding (`@uN` facts).
    #[command(flatten)]
    #[serde(flatten)]
    pub ui: super::ui::UiOptions,
}

impl ViewOptions {
    /// The supervisor's request, the budget counted in `form`, its bounds checked (the CLI
    /// and the MCP schema state them too).
    pub fn request(&self, form: Form) -> Result<ViewRequest, SessionError> {
        let view = ViewRequest {
            full: self.full,
            since: self.since.map(Into::into),
            settle_ms: self.settle_ms.map(Into::into),
            max_bytes: self.max_bytes.map(Into::into),
            scope: self.scope.clone().map(Into::into),
            form,
            ui: self
                .ui
                .budget()
                .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?,
        };
        view.validate()
            .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
        Ok(view)
    }

    /// True when no option was given (the default view).
    pub fn is_default(&self) -> bool {
        *self == ViewOptions::default()
    }
}

/// `observe`: the page as an outline with refs.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct ObserveParams {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// How the view is shaped.
    #[command(flatten)]
    #[serde(flatten)]
    pub view: ViewOptions,
}

/// Observe the page; `form` is how the answer will be printed (the budget counts its bytes).
pub fn observe(ctx: &Context, p: &ObserveParams, form: Form) -> Result<Observation, SessionError> {
    let view = p.view.request(form)?;
    turn(ctx, &p.session, view)
}
