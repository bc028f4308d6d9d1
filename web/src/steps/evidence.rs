//! Evidence steps (screenshot, accessibility, console, page_errors, snapshot) and the bounded,
//! best-effort evidence captured after a failure.

use super::Outcome;
use crate::ax;
use crate::cdp::COMMAND_BOUND;
use crate::context::{detail, with_evidence, WebContext};
use crate::tab::ContextShared;
use a3s_test_driver::evidence;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::privacy;
use a3s_test_driver::{AgentContext, EvidenceKind};
use a3s_test_driver::{
    EvidenceFile, FailureEvidence, MissingEvidence, StepDetail, StepEnv, StepFailure,
};
use a3s_test_lang::ir::EvidencePath;
use base64::Engine;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// Deadline of each failure-evidence capture.
const FAILURE_CAPTURE: Duration = Duration::from_secs(3);

/// How long the failure capture waits for page events still in flight (console, errors).
const FLUSH_BOUND: Duration = Duration::from_secs(1);

/// A PNG of the viewport with every private element painted over (`a3s_test_driver::privacy`): the
/// private elements are listed alongside the capture, and a screenshot that cannot be masked is
/// not returned.
pub(crate) async fn png(ctx: &WebContext, deadline: Instant) -> Result<Vec<u8>, StepFailure> {
    let tab = ctx.tab()?;
    let capture = tab.session.call(
        "Page.captureScreenshot",
        json!({ "format": "png" }),
        COMMAND_BOUND,
        deadline,
    );
    let (reply, private) = futures_util::future::join(capture, ctx.private_nodes(deadline)).await;
    let (reply, private) = (reply?, private?);
    let data = reply.get("data").and_then(Value::as_str).unwrap_or("");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            StepFailure::new(
                FailureCode::Protocol,
                format!("the screenshot was not valid base64: {e}"),
            )
        })?;
    if private.rects.is_empty() {
        return Ok(bytes);
    }
    privacy::mask_png(&bytes, &private.rects, private.scale)
        .map_err(|e| StepFailure::new(FailureCode::Protocol, e.to_string()))
}

/// The accessibility tree with private values and redacted regions replaced (`a3s_test_driver::privacy`).
pub(crate) async fn redacted_ax_tree(
    ctx: &WebContext,
    deadline: Instant,
) -> Result<Value, StepFailure> {
    ax_tree(ctx, deadline).await
}

async fn ax_tree(ctx: &WebContext, deadline: Instant) -> Result<Value, StepFailure> {
    let tab = ctx.tab()?;
    let tree = tab.session.call(
        "Accessibility.getFullAXTree",
        json!({}),
        COMMAND_BOUND,
        deadline,
    );
    let (reply, private) = futures_util::future::join(tree, ctx.private_nodes(deadline)).await;
    let (mut reply, private) = (reply?, private?);
    if let Some(nodes) = reply.get_mut("nodes").and_then(Value::as_array_mut) {
        privacy::redact_ax(nodes, &private);
    }
    Ok(reply)
}

fn pretty(value: &Value) -> Vec<u8> {
    serde_json::to_vec_pretty(value).expect("JSON values serialize")
}

/// `screenshot { path }`.
pub(crate) async fn screenshot(
    ctx: &mut WebContext,
    path: &EvidencePath,
    env: &StepEnv<'_>,
) -> Outcome {
    let target = evidence::prepare(env.artifact_dir, path.as_str())?;
    // A page blocked in alert() cannot produce a frame.
    ctx.tab()?.fail_if_dialog()?;
    let bytes = png(ctx, env.deadline).await?;
    let file = evidence::write(&target, EvidenceKind::Screenshot, &bytes)?;
    let bytes = bytes.len();
    Ok(with_evidence(file, StepDetail::Screenshot { bytes }))
}

/// `accessibility { path interactive }`.
pub(crate) async fn accessibility(
    ctx: &mut WebContext,
    path: &EvidencePath,
    interactive: bool,
    env: &StepEnv<'_>,
) -> Outcome {
    let target = evidence::prepare(env.artifact_dir, path.as_str())?;
    let reply = ax_tree(ctx, env.deadline).await?;
    let doc = ax::to_json(&reply, interactive);
    let file = evidence::write(&target, EvidenceKind::Accessibility, &pretty(&doc))?;
    let (nodes, interactive_nodes) = ax::counts(&reply);
    let facts = StepDetail::Accessibility {
        nodes,
        interactive: interactive_nodes,
    };
    Ok(with_evidence(file, facts))
}

/// `snapshot { interactive }`: record the observation's size.
pub(crate) async fn snapshot(
    ctx: &mut WebContext,
    interactive: bool,
    env: &StepEnv<'_>,
) -> Outcome {
    let reply = ax_tree(ctx, env.deadline).await?;
    let (nodes, interactive_nodes) = ax::counts(&reply);
    Ok(detail(StepDetail::Snapshot {
        nodes,
        interactive_nodes,
        interactive,
    }))
}

/// Make sure every console message and page error the page produced so far (e.g. by the last
/// click's handler) has arrived; best effort, the logs are written either way.
async fn flush_page_events(ctx: &WebContext, deadline: Instant) {
    if let Ok(tab) = ctx.tab() {
        let _ = tab.flush_events(deadline).await;
    }
}

/// `console { path clear }`.
pub(crate) const CONSOLE: PageLog = PageLog {
    kind: EvidenceKind::Console,
    key: "messages",
    entries: |shared| &shared.console,
    detail: |messages, cleared| StepDetail::Console { messages, cleared },
};

/// `page_errors { path clear }`.
pub(crate) const PAGE_ERRORS: PageLog = PageLog {
    kind: EvidenceKind::PageErrors,
    key: "errors",
    entries: |shared| &shared.page_errors,
    detail: |errors, cleared| StepDetail::PageErrors { errors, cleared },
};

/// One of the logs a tab collects from page events (console messages, uncaught errors): the
/// `console` and `page_errors` steps write it the same way, under their own key.
pub(crate) struct PageLog {
    kind: EvidenceKind,
    /// The JSON key of the entries in the file.
    key: &'static str,
    entries: fn(&ContextShared) -> &std::sync::Mutex<Vec<Value>>,
    /// The step's detail: how many entries were written, and whether the log was emptied.
    detail: fn(usize, bool) -> StepDetail,
}

impl PageLog {
    /// Write the log to `path` (taking it when `clear`), after the tab's pending page events.
    pub(crate) async fn write(
        &self,
        ctx: &mut WebContext,
        path: &EvidencePath,
        clear: bool,
        env: &StepEnv<'_>,
    ) -> Outcome {
        let target = evidence::prepare(env.artifact_dir, path.as_str())?;
        flush_page_events(ctx, env.deadline).await;
        let entries = {
            let mut log = (self.entries)(&ctx.shared).lock().expect("page log lock");
            if clear {
                std::mem::take(&mut *log)
            } else {
                log.clone()
            }
        };
        let count = entries.len();
        let file = evidence::write(&target, self.kind, &pretty(&json!({ (self.key): entries })))?;
        Ok(with_evidence(file, (self.detail)(count, clear)))
    }
}

/// The failure evidence of a context: console messages and page errors first (they are in
/// memory and need no page), then the screenshot and the accessibility tree, each finished by
/// `deadline` (and at most [`FAILURE_CAPTURE`] apiece). What cannot be had — the browser is gone,
/// a dialog blocks the page, a command did not answer in time, a write failed — is listed as
/// missing with the reason. Files are listed screenshot, accessibility, console, page errors.
pub(crate) async fn failure_evidence(
    ctx: &mut WebContext,
    dir: &a3s_test_fsroot::Dir,
    deadline: Instant,
) -> FailureEvidence {
    let by = |cap: Duration| deadline.min(Instant::now() + cap);
    let mut missing = Vec::new();
    // Late console messages and errors reach the logs through the event stream: a short flush.
    flush_page_events(ctx, by(FLUSH_BOUND)).await;
    let console = json!({ "messages": ctx.shared.console.lock().expect("console lock").clone() });
    let errors =
        json!({ "errors": ctx.shared.page_errors.lock().expect("page errors lock").clone() });
    let console = save(
        dir,
        "console.json",
        EvidenceKind::Console,
        &pretty(&console),
        &mut missing,
    );
    let errors = save(
        dir,
        "page-errors.json",
        EvidenceKind::PageErrors,
        &pretty(&errors),
        &mut missing,
    );
    let page_gone = match (ctx.cdp.live().dead_reason(), ctx.tab()) {
        (Some(reason), _) => Some(format!("the browser is gone ({reason})")),
        (None, Err(f)) => Some(f.message),
        (None, Ok(tab)) if tab.dialog().is_some() => {
            Some("a JavaScript dialog blocks the page".to_string())
        }
        (None, Ok(_)) => None,
    };
    let (mut screenshot, mut tree, mut page_url) = (None, None, None);
    match page_gone {
        Some(reason) => {
            for kind in [EvidenceKind::Screenshot, EvidenceKind::Accessibility] {
                missing.push(MissingEvidence {
                    kind,
                    reason: reason.clone(),
                });
            }
        }
        None => {
            // The page's address: a later reviewer of that page is offered this failure.
            if let Ok((url, _)) = ctx.document_identity(by(FAILURE_CAPTURE)).await {
                page_url = Some(url).filter(|u| !u.is_empty());
            }
            match png(ctx, by(FAILURE_CAPTURE)).await {
                Ok(bytes) => screenshot = Some(bytes),
                Err(f) => missing.push(not_captured(EvidenceKind::Screenshot, f)),
            }
            match ax_tree(ctx, by(FAILURE_CAPTURE)).await {
                Ok(reply) => tree = Some(pretty(&ax::to_json(&reply, false))),
                Err(f) => missing.push(not_captured(EvidenceKind::Accessibility, f)),
            }
        }
    }
    let screenshot = screenshot.and_then(|b| {
        save(
            dir,
            "screenshot.png",
            EvidenceKind::Screenshot,
            &b,
            &mut missing,
        )
    });
    let tree = tree.and_then(|b| {
        save(
            dir,
            "accessibility.json",
            EvidenceKind::Accessibility,
            &b,
            &mut missing,
        )
    });
    let files = [screenshot, tree, console, errors]
        .into_iter()
        .flatten()
        .collect();
    // Missing evidence in the same order as the files.
    missing.sort_by_key(|m| FailureEvidence::KINDS.iter().position(|k| *k == m.kind));
    FailureEvidence {
        files,
        missing,
        page_url,
    }
}

/// Write one evidence file, or note it missing with the reason the write failed.
fn save(
    dir: &a3s_test_fsroot::Dir,
    name: &str,
    kind: EvidenceKind,
    bytes: &[u8],
    missing: &mut Vec<MissingEvidence>,
) -> Option<EvidenceFile> {
    evidence::save(dir, name, kind, bytes)
        .map_err(|f| missing.push(not_captured(kind, f)))
        .ok()
}

/// Why `kind` was not captured: a command that ran out of time says so in the capture's own
/// terms (its deadline is the evidence bound, not the scenario's).
fn not_captured(kind: EvidenceKind, failure: StepFailure) -> MissingEvidence {
    let reason = match failure.code {
        FailureCode::Timeout | FailureCode::CommandTimeout => {
            "the browser did not answer within the evidence bound".to_string()
        }
        _ => failure.message,
    };
    MissingEvidence { kind, reason }
}
