//! `expect { aria_snapshot = """…""" }`: read the page's accessibility tree until it matches the
//! written outline or the expect timeout passes (`docs/acl.md` §9.2); with `--update-snapshots`
//! an outline that does not match (or is empty) is rewritten in the suite file with the page's.
//!
//! The tree is read through the driver's capture (the `accessibility` evidence shape, private
//! values already redacted) and written as an outline by `outline.rs`; the match and the diff a
//! failure shows are `matching.rs`. The rewrite replaces exactly the admitted value's span,
//! shifted by the run's earlier rewrites of the same file, once the bytes there still read as
//! the admitted outline; the file is replaced atomically through `a3s_test_fsroot`.

pub mod matching;
pub mod outline;

use crate::expect::BACKOFF;
use a3s_test_driver::snapshot::{CaptureRequest, Captured, SnapshotSettings, UpdateSnapshots};
use a3s_test_driver::{
    FailureCode, StepDetail, StepEnv, StepFailure, StepOutput, SurfaceContext, Waited,
};
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::{parse_aria, AriaExpectation};
use outline::AxNode;
use serde_json::json;
use std::time::Duration;
use tokio::time::Instant;

/// Largest suite file rewritten (admission refuses larger ones anyway).
const MAX_SUITE_BYTES: u64 = 1024 * 1024;

/// Run an `aria_snapshot` expectation that may wait up to `patience` (`None`: one reading).
pub async fn expect<C: SurfaceContext>(
    ctx: &mut C,
    aria: &AriaExpectation,
    patience: Option<Duration>,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let templates = parse_aria(&aria.snapshot).map_err(|e| {
        StepFailure::new(
            FailureCode::Unsupported,
            format!("aria_snapshot outline, {e}"),
        )
    })?;
    let update = env.snapshots.map(|s| s.update).unwrap_or_default();
    let empty = templates.is_empty();
    let start = Instant::now();
    let limit = match patience {
        Some(t) => (start + t).min(env.deadline),
        None => start,
    };
    let mut attempt = 0usize;
    let nodes = loop {
        let began = Instant::now();
        let nodes = read(ctx, aria, env).await?;
        if !empty && matching::matches(&templates, &nodes) {
            return Ok(StepOutput {
                evidence: Vec::new(),
                detail: Some(StepDetail::Observed {
                    observed: json!({ "aria_snapshot": "matched", "lines": aria.snapshot.lines().count() }),
                    waited_ms: start.elapsed().as_millis() as u64,
                }),
            });
        }
        // An empty outline is filled in at once; waiting would not make it match.
        if empty || began >= limit {
            break nodes;
        }
        attempt += 1;
        let next = (began + BACKOFF[(attempt - 1).min(BACKOFF.len() - 1)]).min(limit);
        // The reading schedule (as `expect`'s backoff), not a synchronisation sleep.
        tokio::time::sleep_until(next).await;
    };
    let waited = start.elapsed();
    let actual = matching::page_outline(&nodes);
    let rewrite = match update {
        UpdateSnapshots::All => true,
        UpdateSnapshots::Missing | UpdateSnapshots::MissingFails => empty,
        UpdateSnapshots::None => false,
    };
    if rewrite {
        let settings = env.snapshots.expect("an update mode comes with settings");
        rewrite_outline(settings, aria, &actual)?;
        if update != UpdateSnapshots::MissingFails {
            return Ok(StepOutput {
                evidence: Vec::new(),
                detail: Some(StepDetail::Observed {
                    observed: json!({ "aria_snapshot": "written", "lines": actual.lines().count() }),
                    waited_ms: waited.as_millis() as u64,
                }),
            });
        }
    }
    if empty {
        return Err(StepFailure::new(
            FailureCode::SnapshotMissing,
            format!(
                "aria_snapshot is empty; {}:\n{actual}",
                if rewrite {
                    "the page's outline was written into the suite: look at it, then run again"
                } else {
                    "run with --update-snapshots to write the page's outline into the suite"
                }
            ),
        ));
    }
    let diff = matching::diff(&aria.snapshot, &templates, &nodes);
    let deadline_first = patience.is_some_and(|t| env.deadline < start + t);
    let mut failure = StepFailure::new(
        if deadline_first {
            FailureCode::Timeout
        } else {
            FailureCode::AriaSnapshotMismatch
        },
        format!(
            "aria_snapshot did not match within {} ms (- written, + on the page):\n{diff}",
            waited.as_millis()
        ),
    );
    failure.waited = Some(Waited {
        waited_ms: waited.as_millis() as u64,
        last_seen: diff,
    });
    Err(failure)
}

/// One reading of the tree, as outline nodes.
async fn read<C: SurfaceContext>(
    ctx: &mut C,
    aria: &AriaExpectation,
    env: &StepEnv<'_>,
) -> Result<Vec<AxNode>, StepFailure> {
    let request = CaptureRequest::Aria {
        target: aria.target.as_ref(),
    };
    match ctx.capture(request, env).await? {
        Captured::Aria(tree) => Ok(outline::nodes(&tree)),
        Captured::Png(_) => Err(StepFailure::new(
            FailureCode::Protocol,
            "the driver answered an accessibility tree with a screenshot",
        )),
    }
}

/// Replace the outline at the admitted span with `actual`, as a block string indented under its
/// attribute.
fn rewrite_outline(
    settings: &SnapshotSettings,
    aria: &AriaExpectation,
    actual: &str,
) -> Result<(), StepFailure> {
    let path = &settings.suite_file;
    let fail = |why: String| {
        StepFailure::new(
            FailureCode::SnapshotWrite,
            format!("the suite file {} was not rewritten: {why}", path.display()),
        )
    };
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(fail("it names no file".into()));
    };
    let file = ConfinedPath::new(folder, name);
    let mut edits = settings
        .edits
        .applied
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let applied = edits.entry(path.clone()).or_default();
    let shift: isize = applied
        .iter()
        .filter(|(at, _)| *at < aria.value_span.start)
        .map(|(_, d)| *d)
        .sum();
    let bytes = file
        .read(MAX_SUITE_BYTES)
        .map_err(|e| fail(format!("it cannot be read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| fail("it is not UTF-8".into()))?;
    let start = aria.value_span.start as isize + shift;
    let end = aria.value_span.end as isize + shift;
    let (Ok(start), Ok(end)) = (usize::try_from(start), usize::try_from(end)) else {
        return Err(fail("the outline's place in it is gone".into()));
    };
    let Some(current) = text.get(start..end) else {
        return Err(fail("it changed during the run".into()));
    };
    if a3s_test_lang::lexer::decode_string(current) != aria.snapshot {
        return Err(fail(
            "it changed during the run, or the step comes from another file (a library)".into(),
        ));
    }
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[line_start..start]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let replacement = block(actual, &indent);
    let mut updated = String::with_capacity(text.len() + replacement.len());
    updated.push_str(&text[..start]);
    updated.push_str(&replacement);
    updated.push_str(&text[end..]);
    file.write_atomic(updated.as_bytes(), a3s_test_fsroot::SHARED)
        .map_err(|e| fail(e.to_string()))?;
    applied.push((
        aria.value_span.start,
        replacement.len() as isize - (end - start) as isize,
    ));
    Ok(())
}

/// `outline` as a block string whose lines sit one indentation step under `indent`.
fn block(outline: &str, indent: &str) -> String {
    let pad = format!("{indent}    ");
    let mut out = String::from("\"\"\"\n");
    for line in outline.lines() {
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str(&pad);
    out.push_str("\"\"\"");
    out
}
