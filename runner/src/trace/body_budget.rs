//! The scenario-wide bound on a trace's body text. The driver keeps at most 64 KiB of bodies per
//! step (`driver/src/trace_body.rs`), but a scenario of many such steps would still grow its
//! `trace.json` past what the report reads (8 MiB), and the report would drop the whole trace;
//! so the recorder keeps at most [`SCENARIO_BODY_BYTES`] of body text per scenario, in step
//! order, and says in the trace's cuts how many bodies it left out.

use a3s_test_driver::trace::TraceRequest;
use a3s_test_driver::trace_body::{self, BodyOmitted};

/// Most body text one scenario's trace keeps, all steps together.
pub const SCENARIO_BODY_BYTES: u64 = 1024 * 1024;

/// What a scenario's steps have kept of [`SCENARIO_BODY_BYTES`] so far.
#[derive(Debug, Default)]
pub(super) struct BodyBudget {
    used: u64,
    omitted: usize,
}

impl BodyBudget {
    /// Keep the bodies of one step's `requests` that still fit the scenario's budget, in order
    /// (each request's sent body before its answer's); a body that would pass it is omitted
    /// (`"over the scenario's 1 MiB of bodies"`), its size kept.
    pub(super) fn fit(&mut self, requests: &mut [TraceRequest]) {
        self.omitted += trace_body::keep_within(
            requests,
            &mut self.used,
            SCENARIO_BODY_BYTES,
            BodyOmitted::OverScenarioBudget,
        );
    }

    /// The trace's cut, when a body was left out.
    pub(super) fn cut(&self) -> Option<String> {
        (self.omitted > 0).then(|| {
            format!(
                "{} request or response bodies left out past the scenario's {} KiB of bodies",
                self.omitted,
                SCENARIO_BODY_BYTES / 1024
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_driver::trace_body::TraceBody;

    fn request(body: usize) -> TraceRequest {
        TraceRequest {
            method: "POST".into(),
            url: "http://127.0.0.1/api".into(),
            status: Some(200),
            failed: None,
            resource_type: "Fetch".into(),
            duration_ms: None,
            received_bytes: None,
            request_body: Some(TraceBody::kept("application/json", "q".repeat(body))),
            response_body: Some(TraceBody::kept("application/json", "a".repeat(body))),
        }
    }

    #[test]
    fn bodies_past_the_scenarios_budget_are_omitted_with_their_size_and_counted_in_a_cut() {
        let mut budget = BodyBudget::default();
        // Steps of 64 KiB of bodies each (the step's own cap): sixteen fill the budget.
        for _ in 0..16 {
            let mut step = vec![request(16 * 1024), request(16 * 1024)];
            budget.fit(&mut step);
            let kept = |b: &Option<TraceBody>| b.as_ref().is_some_and(|b| b.text.is_some());
            assert!(step
                .iter()
                .all(|r| kept(&r.request_body) && kept(&r.response_body)));
        }
        assert_eq!(budget.cut(), None);
        let mut over = vec![request(10)];
        budget.fit(&mut over);
        for body in [&over[0].request_body, &over[0].response_body] {
            let body = body.as_ref().unwrap();
            assert_eq!(body.text, None);
            assert_eq!(body.bytes, Some(10));
            assert_eq!(body.body_omitted, Some(BodyOmitted::OverScenarioBudget));
        }
        assert_eq!(
            serde_json::to_value(BodyOmitted::OverScenarioBudget).unwrap(),
            "over the scenario's 1 MiB of bodies"
        );
        assert_eq!(
            budget.cut().as_deref(),
            Some("2 request or response bodies left out past the scenario's 1024 KiB of bodies")
        );
    }
}
