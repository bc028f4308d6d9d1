//! `upload` (files from the working directory into a file input) and `download` (click, wait for
//! the browser to finish the download, move the file into the artifact folder).

use super::Outcome;
use crate::cdp::{next_event, Event, COMMAND_BOUND};
use crate::context::{detail, with_evidence, WebContext};
use crate::input::{self, Button};
use crate::script;
use crate::target::{self, describe, refuse_ref, Needs};
use a3s_test_driver::evidence;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{EvidenceFile, EvidenceKind, StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{EvidencePath, Target};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;

/// Browser-level download events.
const DOWNLOAD_EVENTS: &[&str] = &["Browser.downloadWillBegin", "Browser.downloadProgress"];

/// Resolve upload paths: relative, existing, and inside the working directory.
pub(crate) fn upload_paths(
    working_dir: &Path,
    paths: &[String],
) -> Result<Vec<PathBuf>, StepFailure> {
    let bad = |why: String| StepFailure::new(FailureCode::UploadPath, why);
    let root = working_dir.canonicalize().map_err(|e| {
        bad(format!(
            "the working directory {} is unusable: {e}",
            working_dir.display()
        ))
    })?;
    let mut out = Vec::new();
    for p in paths {
        let rel = Path::new(p);
        if p.is_empty()
            || rel
                .components()
                .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(bad(format!(
                "upload path {p:?} must be relative without `..`"
            )));
        }
        let full = root
            .join(rel)
            .canonicalize()
            .map_err(|e| bad(format!("upload path {p:?} does not exist: {e}")))?;
        if !full.starts_with(&root) {
            return Err(bad(format!(
                "upload path {p:?} escapes the working directory (symlink to {})",
                full.display()
            )));
        }
        if !full.is_file() {
            return Err(bad(format!("upload path {p:?} is not a file")));
        }
        out.push(full);
    }
    Ok(out)
}

/// `upload { target paths }`: `DOM.setFileInputFiles` on the one matching file input.
pub(crate) async fn upload(
    ctx: &mut WebContext,
    target: &Target,
    paths: &[String],
    env: &StepEnv<'_>,
) -> Outcome {
    refuse_ref(target)?;
    let files = upload_paths(env.working_dir, paths)?;
    let tab = ctx.tab()?;
    let object = script::element_object(tab, target, env.deadline, Some(files.len()))
        .await
        .map_err(|f| target::name_target(f, target))?;
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let set = tab
        .session
        .call(
            "DOM.setFileInputFiles",
            json!({ "files": names, "objectId": object }),
            COMMAND_BOUND,
            env.deadline,
        )
        .await;
    script::release_object(tab, &object, env.deadline).await;
    set?;
    Ok(detail(StepDetail::Files { files: paths.len() }))
}

/// Frame ids of the current tab (downloads are matched to the tab that started them).
async fn frame_ids(ctx: &WebContext, deadline: Instant) -> Result<HashSet<String>, StepFailure> {
    let tab = ctx.tab()?;
    let tree = tab
        .session
        .call("Page.getFrameTree", json!({}), COMMAND_BOUND, deadline)
        .await?;
    let mut ids = HashSet::new();
    fn walk(node: &Value, ids: &mut HashSet<String>) {
        if let Some(id) = node.pointer("/frame/id").and_then(Value::as_str) {
            ids.insert(id.to_string());
        }
        for child in node
            .get("childFrames")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            walk(child, ids);
        }
    }
    walk(&tree["frameTree"], &mut ids);
    Ok(ids)
}

/// `download { target path }`.
pub(crate) async fn download(
    ctx: &mut WebContext,
    target: &Target,
    path: &EvidencePath,
    env: &StepEnv<'_>,
) -> Outcome {
    refuse_ref(target)?;
    let destination = evidence::prepare(env.artifact_dir, path.as_str())?;
    if ctx.download_dir.is_none() {
        let dir = tempfile::Builder::new()
            .prefix("a3s-test-downloads-")
            .tempdir()
            .map_err(|e| {
                StepFailure::new(
                    FailureCode::EvidenceWrite,
                    format!("failed to create a download folder: {e}"),
                )
            })?;
        let params = json!({
            "behavior": "allowAndName",
            "browserContextId": ctx.browser_context_id,
            "downloadPath": dir.path().display().to_string(),
            "eventsEnabled": true,
        });
        ctx.cdp
            .call(
                None,
                "Browser.setDownloadBehavior",
                params,
                COMMAND_BOUND,
                env.deadline,
            )
            .await?;
        ctx.download_dir = Some(dir);
    }
    let frames = frame_ids(ctx, env.deadline).await?;
    let mut events = ctx.cdp.subscribe(None, DOWNLOAD_EVENTS);
    let tab = ctx.tab()?;
    let target::Reached { point, element, .. } =
        target::point_at(tab, target, Needs::PRESS, None, env).await?;
    input::press_release(tab, point, Button::Left, 1, &[], env.deadline).await?;
    let begin_by = (Instant::now() + env.action_timeout).min(env.deadline);
    let (guid, suggested) = wait_begin(&mut events, &frames, begin_by)
        .await
        .ok_or_else(|| {
            StepFailure::new(
                FailureCode::DownloadMissing,
                format!(
                    "{}: clicking {element} started no download within {} ms",
                    describe(target),
                    env.action_timeout.as_millis()
                ),
            )
        })?;
    wait_complete(&mut events, &guid, env.deadline).await?;
    let dir = ctx
        .download_dir
        .as_ref()
        .expect("download folder exists")
        .path();
    let source = dir.join(&guid);
    let bytes = std::fs::metadata(&source).map(|m| m.len()).unwrap_or(0);
    destination
        .dir
        .move_into(&source, &destination.name)
        .map_err(|e| {
            evidence::write_error(
                &destination.path,
                format!("cannot receive the download: {e}"),
            )
        })?;
    let file = EvidenceFile {
        kind: EvidenceKind::Download,
        path: destination.path,
    };
    let facts = StepDetail::Download {
        suggested_filename: suggested,
        bytes,
        untrusted: true,
    };
    Ok(with_evidence(file, facts))
}

async fn wait_begin(
    events: &mut UnboundedReceiver<Event>,
    frames: &HashSet<String>,
    until: Instant,
) -> Option<(String, String)> {
    loop {
        let event = tokio::time::timeout_at(until, events.recv()).await.ok()??;
        if event.method.as_ref() != "Browser.downloadWillBegin" {
            continue;
        }
        let p = &event.params;
        if p["frameId"].as_str().is_some_and(|f| frames.contains(f)) {
            return Some((
                p["guid"].as_str().unwrap_or("").to_string(),
                p["suggestedFilename"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
}

async fn wait_complete(
    events: &mut UnboundedReceiver<Event>,
    guid: &str,
    deadline: Instant,
) -> Result<(), StepFailure> {
    loop {
        let event = next_event(
            events,
            deadline,
            "the connection closed during a download",
            "the download did not finish before the scenario deadline",
        )
        .await?;
        if event.method.as_ref() != "Browser.downloadProgress"
            || event.params["guid"].as_str() != Some(guid)
        {
            continue;
        }
        match event.params["state"].as_str() {
            Some("completed") => return Ok(()),
            Some("canceled") => {
                return Err(StepFailure::new(
                    FailureCode::DownloadMissing,
                    "the download was canceled",
                ))
            }
            _ => {}
        }
    }
}
