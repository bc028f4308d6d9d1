//! Evaluating a JavaScript expression in the current tab and returning its JSON value.
//!
//! This exists for tests and Test Kit calls that need more of the page than the ACL steps or the
//! bounded bridge calls in `agent.rs` expose (for example `waitForChange(revision, ms)` on the
//! Test Kit bridge). Scenarios never reach it: ACL has no evaluate step.

use super::context::WebContext;
use super::script;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

impl WebContext {
    /// One `Runtime.evaluate` of `expression` in the current tab's top document (a promise is
    /// awaited): the raw reply, `exceptionDetails` included, for callers that map it their way.
    /// Fails with `DialogBlocking` at once while a JavaScript dialog blocks the page, and as soon
    /// as one opens while the call is awaited (a bridge wait can last minutes).
    pub(crate) async fn evaluate_reply(
        &self,
        expression: &str,
        by_value: bool,
        bound: Duration,
        deadline: Instant,
    ) -> Result<Value, StepFailure> {
        let tab = self.tab()?;
        tab.fail_if_dialog()?;
        let params = json!({
            "expression": expression,
            "returnByValue": by_value,
            "awaitPromise": true,
        });
        let call = tab
            .session
            .call("Runtime.evaluate", params, bound, deadline);
        script::race_dialog(tab, call).await
    }

    /// The backend node id of the element `expression` evaluates to (`None` for anything else,
    /// `null` included); the remote object is released in the same round trip.
    pub(crate) async fn backend_node_of(
        &self,
        expression: &str,
        deadline: Instant,
    ) -> Result<Option<i64>, StepFailure> {
        let reply = self
            .evaluate_reply(expression, false, super::cdp::COMMAND_BOUND, deadline)
            .await?;
        let Some(object) = reply
            .pointer("/result/objectId")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return Ok(None);
        };
        script::backend_node_and_release(self.tab()?, &object, deadline).await
    }

    /// Evaluate `expression` in the current tab's top document, await it if it is a promise, and
    /// return its value serialized to JSON (`undefined` becomes `null`).
    ///
    /// Exists for tests and Test Kit calls; the whole call, including an awaited promise, is
    /// bounded by `deadline`. A thrown exception or rejected promise fails with
    /// `test.driver.web.protocol` and the exception's description as the message.
    pub async fn evaluate_json(
        &self,
        expression: &str,
        deadline: Instant,
    ) -> Result<Value, StepFailure> {
        let bound = deadline.saturating_duration_since(Instant::now());
        let reply = self
            .evaluate_reply(expression, true, bound, deadline)
            .await?;
        if let Some(details) = reply.get("exceptionDetails") {
            let text = script::exception_text(details);
            return Err(StepFailure::new(
                FailureCode::Protocol,
                format!("evaluating the expression threw: {text}"),
            ));
        }
        Ok(reply
            .pointer("/result/value")
            .cloned()
            .unwrap_or(Value::Null))
    }
}
