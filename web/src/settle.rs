//! Waiting for a quiet page before an agent observes it (`observe --settle-ms T`).
//!
//! Why: a menu that opens on a timer, an animation or a list a fetch fills is observed half
//! drawn when the observation comes right after the action. The wait is on the condition
//! itself — no DOM mutation (a `MutationObserver` held only for the length of one evaluation and
//! disconnected before it returns, so nothing stays installed in the page) and no request in
//! flight (the `Network.*` events the tab already tracks) for `T` ms — and it is bounded by a
//! cap, so a page that never stops changing answers "not settled" instead of hanging.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use a3s_test_driver::api::Settled;
use a3s_test_driver::{FailureCode, StepFailure};
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

/// Resolves once the document had no mutation for `quiet` ms, or after `cap` ms:
/// `{ quiet, mutations }`. The observer is disconnected before the promise resolves.
/// A suite's page clock (`clock.rs`) replaces the page's timers; this wait keeps the real ones.
const DOM_QUIET_JS: &str = r#"((quiet, cap) => new Promise((resolve) => {
  const real = globalThis[Symbol.for('a3s-test.real-timers')];
  const setTimeout = real ? real.setTimeout : globalThis.setTimeout.bind(globalThis);
  const performance = real ? { now: real.now } : globalThis.performance;
  const t0 = performance.now();
  let last = t0, mutations = 0;
  const mo = new MutationObserver((records) => { mutations += records.length; last = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const check = () => {
    const now = performance.now();
    const done = now - last >= quiet;
    if (done || now - t0 >= cap) { mo.disconnect(); resolve({ quiet: done, mutations }); return; }
    setTimeout(check, Math.max(1, Math.min(quiet - (now - last), cap - (now - t0))));
  };
  check();
}))"#;

impl WebContext {
    /// See [`a3s_test_driver::AgentContext::settle`].
    pub(crate) async fn settle_page(
        &self,
        quiet: Duration,
        cap: Duration,
        deadline: Instant,
    ) -> Result<Settled, StepFailure> {
        let start = Instant::now();
        let cap_at = (start + cap).min(deadline);
        let tab = self.tab()?;
        let mut changes = tab.state.network_changed.subscribe();
        let mut mutations = 0u64;
        let mut failures = 0;
        let quiet_ms = quiet.as_millis() as u64;
        loop {
            let left = cap_at.saturating_duration_since(Instant::now());
            let expression = format!("{DOM_QUIET_JS}({quiet_ms}, {})", left.as_millis());
            let reply = self
                .evaluate_reply(&expression, true, left + COMMAND_BOUND, deadline)
                .await;
            let dom_quiet = match reply {
                Ok(r) if r.get("exceptionDetails").is_none() => {
                    let v = r.pointer("/result/value").cloned().unwrap_or(Value::Null);
                    mutations += v["mutations"].as_u64().unwrap_or(0);
                    failures = 0;
                    v["quiet"] == Value::Bool(true)
                }
                // A document replaced mid-wait fails the evaluation: that is a change too. Twice
                // in a row (or a dialog) is not a page that is settling.
                Ok(_) | Err(_) if failures == 0 && tab.dialog().is_none() => {
                    failures += 1;
                    false
                }
                Ok(_) => {
                    return Err(StepFailure::new(
                        FailureCode::Protocol,
                        "waiting for the page to settle failed in the page",
                    ))
                }
                Err(f) => return Err(f),
            };
            // Wait (bounded by the cap) until no request was in flight for `quiet`; when that
            // took a wait, the DOM is checked again (it may have changed meanwhile).
            let mut waited = false;
            let net_quiet = loop {
                let (idle_since, in_flight) = {
                    let net = tab.state.network.lock().expect("network lock");
                    (
                        net.inflight.is_empty().then_some(net.last_change),
                        net.inflight.len(),
                    )
                };
                let now = Instant::now();
                if idle_since.is_some_and(|s| now.duration_since(s) >= quiet) {
                    break (true, in_flight);
                }
                if now >= cap_at {
                    break (false, in_flight);
                }
                let quiet_at = idle_since.map_or(cap_at, |s| (s + quiet).min(cap_at));
                waited = true;
                tokio::select! {
                    _ = changes.changed() => {}
                    _ = tokio::time::sleep_until(quiet_at) => {}
                }
            };
            let settled = dom_quiet && net_quiet.0 && !waited;
            if settled || Instant::now() >= cap_at {
                return Ok(Settled {
                    settled,
                    waited_ms: start.elapsed().as_millis() as u64,
                    mutations,
                    in_flight: net_quiet.1,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DOM_QUIET_JS;

    #[test]
    fn the_observer_is_always_disconnected_before_resolving() {
        assert_eq!(
            DOM_QUIET_JS.matches("resolve(").count(),
            DOM_QUIET_JS.matches("mo.disconnect(); resolve(").count()
        );
    }
}
