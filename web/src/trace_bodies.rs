//! The answers' bodies of a traced step's requests (`a3s_test_driver::trace_body`): one
//! `Network.getResponseBody` per answer the rule lets the trace keep, all of one step's at once,
//! each bounded by the capture's deadline.
//!
//! Only a capture that asks for bodies (`TraceWant::bodies`) gets here: under
//! `retain-on-failure` that is a failed step's, so a passing step sends no command for bodies.
//! Chromium evicts bodies under memory pressure and forgets those of a closed tab; an answer it
//! no longer holds is recorded as "not kept by the browser", never as the step's error.

use crate::cdp::COMMAND_BOUND;
use crate::context::WebContext;
use crate::har::BodyJob;
use a3s_test_driver::trace::StepCapture;
use a3s_test_driver::trace_body::{self, BodyOmitted, TraceBody, MAX_BODY_BYTES};
use serde_json::{json, Value};
use tokio::time::Instant;

impl WebContext {
    /// Read the bodies `jobs` names into `capture`'s requests, then keep the step's within its
    /// budget (`trace_body::fit_step_budget`).
    pub(crate) async fn trace_bodies(
        &self,
        jobs: Vec<BodyJob>,
        capture: &mut StepCapture,
        deadline: Instant,
    ) {
        let reads = jobs.into_iter().map(|job| {
            let session = self
                .tabs
                .iter()
                .find(|t| t.target_id == job.tab)
                .map(|t| t.session.clone());
            async move {
                let answer = match session {
                    Some(session) => session
                        .call(
                            "Network.getResponseBody",
                            json!({ "requestId": job.request_id }),
                            COMMAND_BOUND,
                            deadline,
                        )
                        .await
                        .ok(),
                    None => None,
                };
                (job.index, body_of(&job.mime_type, answer.as_ref()))
            }
        });
        for (index, body) in futures_util::future::join_all(reads).await {
            if let Some(request) = capture.network.get_mut(index) {
                request.response_body = Some(body);
            }
        }
        trace_body::fit_step_budget(&mut capture.network);
    }
}

/// The body a `Network.getResponseBody` answer holds, as the trace records it; `None` (no
/// answer, an error) is a body the browser did not keep.
fn body_of(mime: &str, answer: Option<&Value>) -> TraceBody {
    let Some(text) = answer.and_then(|a| a.get("body")).and_then(Value::as_str) else {
        return TraceBody::omitted(mime, None, BodyOmitted::NotKept);
    };
    let size = text.len() as u64;
    if answer.and_then(|a| a.get("base64Encoded")) == Some(&Value::Bool(true)) {
        // Text by its media type yet not UTF-8 to the browser: not text a report can show.
        return TraceBody::omitted(mime, None, BodyOmitted::NotText);
    }
    if size > MAX_BODY_BYTES {
        return TraceBody::omitted(mime, Some(size), BodyOmitted::OverLimit);
    }
    TraceBody::kept(mime, text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_kept_whole_or_named_as_left_out() {
        let json = "application/json";
        let kept = body_of(
            json,
            Some(&json!({"body": "{\"ok\":1}", "base64Encoded": false})),
        );
        assert_eq!(kept.text.as_deref(), Some("{\"ok\":1}"));
        let gone = body_of(json, None);
        assert_eq!(gone.body_omitted, Some(BodyOmitted::NotKept));
        let binary = body_of(json, Some(&json!({"body": "AAEC", "base64Encoded": true})));
        assert_eq!(binary.body_omitted, Some(BodyOmitted::NotText));
        let big = "x".repeat(MAX_BODY_BYTES as usize + 1);
        let over = body_of(json, Some(&json!({"body": big, "base64Encoded": false})));
        assert_eq!(
            (over.body_omitted, over.bytes, over.text),
            (Some(BodyOmitted::OverLimit), Some(MAX_BODY_BYTES + 1), None)
        );
    }
}
