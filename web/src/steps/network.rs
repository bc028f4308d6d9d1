//! `network_route`, `network_unroute`, `har` and `trace`.

use super::Outcome;
use crate::cdp::{next_event, Event, COMMAND_BOUND};
use crate::context::{detail, with_evidence, WebContext};
use crate::har::HarRecorder;
use crate::har_replay::HarArchive;
use crate::network_log::{NetEntry, Search};
use crate::route::{self, Answer, Route, UrlMatcher};
use a3s_test_driver::evidence;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::EvidenceKind;
use a3s_test_driver::{StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{CaptureOperation, HarReplay, NetworkWait, RouteResponse, UrlPattern};
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;

/// Trace categories: page timeline, scripting, loading and user timing.
const TRACE_CATEGORIES: &[&str] = &[
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "v8.execute",
    "blink.user_timing",
    "loading",
    "latencyInfo",
];

async fn apply_all(ctx: &WebContext, env: &StepEnv<'_>) -> Result<(), StepFailure> {
    for tab in &ctx.tabs {
        route::apply_patterns(tab, &ctx.shared, env.deadline).await?;
    }
    Ok(())
}

/// `network_route { pattern body|abort|continue … times }`. A route without `times` replaces
/// one set earlier with the same pattern; one with `times` goes on top of it, so once used up the
/// requests fall through to it again.
pub(crate) async fn route(
    ctx: &mut WebContext,
    pattern: &UrlPattern,
    response: &RouteResponse,
    times: Option<u32>,
    env: &StepEnv<'_>,
) -> Outcome {
    let answer = Answer::resolve(response, env.vars)?;
    {
        let mut routes = ctx.shared.routes.lock().expect("routes lock");
        if times.is_none() {
            routes.retain(|r| &r.pattern != pattern);
        }
        routes.push(Route::new(pattern.clone(), answer, times));
    }
    apply_all(ctx, env).await?;
    Ok(detail(StepDetail::Routed {
        pattern: pattern.to_string(),
        routes: ctx.shared.routes.lock().expect("routes lock").len(),
    }))
}

/// `route_from_har { path not_found }`: the file read and checked now (a bad one sets no route),
/// then one route over every request, newest of all (a later `network_route` goes on top).
pub(crate) async fn route_from_har(
    ctx: &mut WebContext,
    replay: &HarReplay,
    env: &StepEnv<'_>,
) -> Outcome {
    let file = env.working_dir.join(&replay.path);
    let archive = HarArchive::load(&file, &replay.path)?;
    let entries = archive.len();
    {
        let mut routes = ctx.shared.routes.lock().expect("routes lock");
        routes.push(Route::new(
            UrlPattern::Glob("*".to_string()),
            Answer::Har {
                archive: std::sync::Arc::new(archive),
                not_found: replay.not_found,
            },
            None,
        ));
    }
    apply_all(ctx, env).await?;
    Ok(detail(StepDetail::HarRouted {
        har_entries: entries,
    }))
}

/// `network_unroute { pattern }` (all routes when no pattern).
pub(crate) async fn unroute(
    ctx: &mut WebContext,
    pattern: Option<&UrlPattern>,
    env: &StepEnv<'_>,
) -> Outcome {
    let removed = {
        let mut routes = ctx.shared.routes.lock().expect("routes lock");
        let before = routes.len();
        match pattern {
            Some(p) => routes.retain(|r| &r.pattern != p),
            None => routes.clear(),
        }
        before - routes.len()
    };
    apply_all(ctx, env).await?;
    Ok(detail(StepDetail::Unrouted { removed }))
}

/// `wait { request = … }` / `wait { response = … status = … }`: the first matching entry of the
/// network log since the preceding action began, waiting for one up to the expect timeout.
pub(crate) async fn wait_network(
    ctx: &mut WebContext,
    wait: &NetworkWait,
    env: &StepEnv<'_>,
) -> Outcome {
    let started = Instant::now();
    let until = (started + env.expect_timeout).min(env.deadline);
    let matcher = UrlMatcher::new(&wait.pattern);
    let mut changed = ctx
        .shared
        .network_log
        .lock()
        .expect("network log lock")
        .subscribe();
    loop {
        // Subscribed before searching: an entry pushed after the search wakes the loop.
        let search = ctx
            .shared
            .network_log
            .lock()
            .expect("network log lock")
            .search(wait, &matcher);
        let near = match search {
            Search::Found(entry) => {
                let waited_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                let observed = json!({ "url": entry.url, "status": entry.status });
                return Ok(detail(StepDetail::Waited {
                    waited_ms,
                    observed: Some(observed),
                }));
            }
            Search::Missing(near) => near,
        };
        let woke = tokio::time::timeout_at(until, changed.changed()).await;
        if !matches!(woke, Ok(Ok(()))) {
            return Err(not_seen(wait, started, until == env.deadline, &near));
        }
    }
}

/// The failure of a network wait: what it waited for, for how long, and what came instead.
fn not_seen(
    wait: &NetworkWait,
    started: Instant,
    deadline: bool,
    near: &[NetEntry],
) -> StepFailure {
    let ms = started.elapsed().as_millis();
    let bound = if deadline {
        "the scenario deadline"
    } else {
        "the expect timeout"
    };
    let mut message =
        format!("no {wait} since the previous action began, after waiting {ms} ms ({bound})");
    if let Some(last) = near.last() {
        let statuses: Vec<String> = near
            .iter()
            .filter_map(|e| e.status.map(|s| s.to_string()))
            .collect();
        message.push_str(&format!(
            "; {} matching response(s) came with status {} (last: {})",
            near.len(),
            statuses.join(", "),
            last.url
        ));
    }
    let code = if deadline {
        FailureCode::Timeout
    } else {
        FailureCode::NetworkNotSeen
    };
    StepFailure::new(code, message)
}

fn not_started(what: &str) -> StepFailure {
    StepFailure::new(
        FailureCode::CaptureNotStarted,
        format!(
            "no {what} recording is running; start one with `{what} {{ operation = \"start\" }}`"
        ),
    )
}

/// `har { operation }`.
pub(crate) async fn har(ctx: &mut WebContext, op: &CaptureOperation, env: &StepEnv<'_>) -> Outcome {
    match op {
        CaptureOperation::Start => {
            *ctx.shared.har.lock().expect("har lock") = Some(HarRecorder::default());
            Ok(detail(StepDetail::HarStarted { recording: true }))
        }
        CaptureOperation::Stop { path } => {
            let target = evidence::prepare(env.artifact_dir, path.as_str())?;
            let recorder = ctx
                .shared
                .har
                .lock()
                .expect("har lock")
                .take()
                .ok_or_else(|| not_started("har"))?;
            let doc = recorder.to_har();
            let bytes = serde_json::to_vec_pretty(&doc).expect("JSON values serialize");
            let file = evidence::write(&target, EvidenceKind::Har, &bytes)?;
            let entries = recorder.len();
            Ok(with_evidence(file, StepDetail::HarWritten { entries }))
        }
    }
}

/// `trace { operation }`: the Tracing domain of the current tab, written as a JSON trace.
pub(crate) async fn trace(
    ctx: &mut WebContext,
    op: &CaptureOperation,
    env: &StepEnv<'_>,
) -> Outcome {
    match op {
        CaptureOperation::Start => {
            let tab = ctx.tab()?;
            let params = json!({
                "transferMode": "ReportEvents",
                "traceConfig": { "includedCategories": TRACE_CATEGORIES },
            });
            tab.session
                .call("Tracing.start", params, COMMAND_BOUND, env.deadline)
                .await?;
            ctx.tracing = true;
            Ok(detail(StepDetail::TraceStarted { tracing: true }))
        }
        CaptureOperation::Stop { path } => {
            if !ctx.tracing {
                return Err(not_started("trace"));
            }
            let target = evidence::prepare(env.artifact_dir, path.as_str())?;
            let tab = ctx.tab()?;
            let mut events = ctx.cdp.subscribe(
                Some(&tab.session.id),
                &["Tracing.dataCollected", "Tracing.tracingComplete"],
            );
            tab.session
                .call("Tracing.end", json!({}), COMMAND_BOUND, env.deadline)
                .await?;
            ctx.tracing = false;
            let trace_events = collect_trace(&mut events, env.deadline).await?;
            let count = trace_events.len();
            let doc = json!({ "traceEvents": trace_events });
            let file = evidence::write(
                &target,
                EvidenceKind::Trace,
                &serde_json::to_vec(&doc).expect("JSON values serialize"),
            )?;
            Ok(with_evidence(
                file,
                StepDetail::TraceWritten { events: count },
            ))
        }
    }
}

async fn collect_trace(
    events: &mut UnboundedReceiver<Event>,
    deadline: Instant,
) -> Result<Vec<Value>, StepFailure> {
    let mut out = Vec::new();
    loop {
        let e = next_event(
            events,
            deadline,
            "the connection closed while tracing",
            "the trace did not complete before the scenario deadline",
        )
        .await?;
        if e.method.as_ref() == "Tracing.tracingComplete" {
            return Ok(out);
        }
        if let Some(values) = e.params.get("value").and_then(Value::as_array) {
            out.extend(values.iter().cloned());
        }
    }
}
