//! `expect { screenshot = "cart.png" … }`: capture until the page holds still, compare with the
//! baseline, and read again until it matches or the expect timeout passes (`docs/acl.md` §9.2).
//!
//! The schedule, as Playwright's `toHaveScreenshot`: the first capture is compared at once (a
//! page that already matches costs one capture); after that a capture counts only when it is
//! pixel-for-pixel the one before it (the page held still between two captures), and only such a
//! stable capture is compared, written as a new baseline, or kept as the failure's actual image.
//! Captures are spaced by the backoff of [`crate::expect`].
//!
//! On a failure the expected, actual and diff PNGs go into the scenario's artifact folder through
//! the one confined evidence write (`a3s_test_driver::save_evidence`) as
//! `snapshots/<stem>-{expected,actual,diff}.png`; the message gives the counts. A baseline is
//! written only as `--update-snapshots` says ([`UpdateSnapshots`]), never over a file that is not
//! a PNG.

use super::baseline::Baseline;
use super::pixels::{compare, decode_png, encode_png, Comparison, Rgba};
use crate::expect::BACKOFF;
use a3s_test_driver::snapshot::{CaptureRequest, Captured, SnapshotSettings, UpdateSnapshots};
use a3s_test_driver::{
    save_evidence, EvidenceFile, EvidenceKind, FailureCode, StepDetail, StepEnv, StepFailure,
    StepOutput, SurfaceContext, Waited,
};
use a3s_test_lang::ir::{DiffBudget, VisualExpectation};
use serde_json::json;
use std::time::Duration;
use tokio::time::Instant;

/// Run a visual expectation that may wait up to `patience` (`None`: one capture).
pub async fn expect<C: SurfaceContext>(
    ctx: &mut C,
    visual: &VisualExpectation,
    patience: Option<Duration>,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let Some(settings) = env.snapshots else {
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            "a `screenshot` expectation compares with a baseline beside its suite file; there is \
             none here (promote the steps to a suite first)",
        ));
    };
    let baseline = Baseline::of(settings, &visual.name);
    let expected = baseline.read()?;
    let start = Instant::now();
    let limit = match patience {
        Some(t) => (start + t).min(env.deadline),
        None => start,
    };
    let mut previous: Option<Rgba> = None;
    let mut last: Option<(Rgba, Comparison)> = None;
    let mut held_still = false;
    let mut attempt = 0usize;
    loop {
        let began = Instant::now();
        let actual = capture(ctx, visual, env).await?;
        let stable = previous.as_ref().is_some_and(|p| *p == actual);
        held_still |= stable;
        match &expected {
            Some(expected) if attempt == 0 || stable => {
                let found = compare(expected, &actual, visual.threshold);
                if within(&found, visual.budget) {
                    return Ok(passed(&baseline, &found, start, attempt + 1, false));
                }
                if stable && settings.update == UpdateSnapshots::All {
                    baseline.write(&encode_png(&actual))?;
                    return Ok(passed(&baseline, &found, start, attempt + 1, true));
                }
                last = Some((actual.clone(), found));
            }
            None if stable || patience.is_none() => {
                return missing(settings, &baseline, visual, &actual, start, env);
            }
            _ => {}
        }
        previous = Some(actual);
        if began >= limit {
            break;
        }
        attempt += 1;
        let gap = BACKOFF[(attempt - 1).min(BACKOFF.len() - 1)];
        let next = (began + gap).min(limit);
        // The capture schedule (as `expect`'s backoff), not a synchronisation sleep.
        tokio::time::sleep_until(next).await;
    }
    let waited = start.elapsed();
    let deadline_first = patience.is_some_and(|t| env.deadline < start + t);
    match (expected, last) {
        // One capture (`immediate = true`) is compared as it is.
        (Some(expected), Some((actual, found))) if held_still || patience.is_none() => {
            Err(mismatch(
                visual,
                &baseline,
                &expected,
                &actual,
                &found,
                waited,
                deadline_first,
                env,
            ))
        }
        (None, _) => {
            let actual = previous.expect("at least one capture was taken");
            missing(settings, &baseline, visual, &actual, start, env)
        }
        (Some(expected), first) => {
            let mut failure = StepFailure::new(
                if deadline_first {
                    FailureCode::Timeout
                } else {
                    FailureCode::ScreenshotMismatch
                },
                format!(
                    "screenshot = \"{}\": the page never held still — no two consecutive \
                     captures were equal (waited {} ms)",
                    visual.name,
                    waited.as_millis()
                ),
            );
            failure.waited = Some(Waited {
                waited_ms: waited.as_millis() as u64,
                last_seen: "a page that changed between every two captures".into(),
            });
            // The first capture, compared at once, is what the page looked like.
            if let Some((actual, found)) = first {
                failure.evidence = evidence(visual, &expected, &actual, &found.diff, env);
            }
            Err(failure)
        }
    }
}

/// One capture, decoded.
async fn capture<C: SurfaceContext>(
    ctx: &mut C,
    visual: &VisualExpectation,
    env: &StepEnv<'_>,
) -> Result<Rgba, StepFailure> {
    match ctx.capture(CaptureRequest::Screenshot(visual), env).await? {
        Captured::Png(bytes) => decode_png(&bytes).map_err(|e| {
            StepFailure::new(
                FailureCode::Protocol,
                format!("the browser's screenshot could not be read: {e}"),
            )
        }),
        Captured::Aria(_) => Err(StepFailure::new(
            FailureCode::Protocol,
            "the driver answered a screenshot with an accessibility tree",
        )),
    }
}

/// Whether `found` is within the budget.
pub fn within(found: &Comparison, budget: DiffBudget) -> bool {
    if found.size_mismatch.is_some() {
        return false;
    }
    match budget {
        DiffBudget::Pixels(n) => found.diff_pixels <= n,
        DiffBudget::Ratio(r) => found.ratio() <= r,
    }
}

fn allowed(budget: DiffBudget, total: u64) -> String {
    match budget {
        DiffBudget::Pixels(n) => format!("{n} allowed"),
        DiffBudget::Ratio(r) => format!(
            "{} allowed (max_diff_ratio {r})",
            (r * total as f64).floor() as u64
        ),
    }
}

fn passed(
    baseline: &Baseline,
    found: &Comparison,
    start: Instant,
    captures: usize,
    updated: bool,
) -> StepOutput {
    StepOutput {
        evidence: Vec::new(),
        detail: Some(StepDetail::Observed {
            observed: json!({
                "baseline": baseline.file,
                "diff_pixels": found.diff_pixels,
                "anti_aliased": found.anti_aliased,
                "captures": captures,
                "updated": updated,
            }),
            waited_ms: start.elapsed().as_millis() as u64,
        }),
    }
}

/// No baseline: written from `actual` when the run says so; the step passes only when the run
/// asked for baselines (`--update-snapshots`), else fails with the actual image kept.
fn missing(
    settings: &SnapshotSettings,
    baseline: &Baseline,
    visual: &VisualExpectation,
    actual: &Rgba,
    start: Instant,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let png = encode_png(actual);
    let written = match settings.update {
        UpdateSnapshots::None => false,
        UpdateSnapshots::MissingFails | UpdateSnapshots::Missing | UpdateSnapshots::All => {
            baseline.write(&png)?;
            true
        }
    };
    if matches!(
        settings.update,
        UpdateSnapshots::Missing | UpdateSnapshots::All
    ) {
        return Ok(StepOutput {
            evidence: Vec::new(),
            detail: Some(StepDetail::Observed {
                observed: json!({ "baseline": baseline.file, "written": true }),
                waited_ms: start.elapsed().as_millis() as u64,
            }),
        });
    }
    let stem = stem(visual);
    let mut failure = StepFailure::new(
        FailureCode::SnapshotMissing,
        format!(
            "screenshot = \"{}\" has no baseline {}; {}",
            visual.name,
            baseline.path().display(),
            if written {
                "the actual image was written as the baseline: look at it, then run again"
            } else {
                "the actual image is kept with this failure; run with --update-snapshots to \
                 write it"
            }
        ),
    );
    if let Ok(file) = save_evidence(
        env.artifact_dir,
        &format!("snapshots/{stem}-actual.png"),
        EvidenceKind::SnapshotActual,
        &png,
    ) {
        failure.evidence.push(file);
    }
    Err(failure)
}

#[allow(clippy::too_many_arguments)]
fn mismatch(
    visual: &VisualExpectation,
    baseline: &Baseline,
    expected: &Rgba,
    actual: &Rgba,
    found: &Comparison,
    waited: Duration,
    deadline_first: bool,
    env: &StepEnv<'_>,
) -> StepFailure {
    let seen = match found.size_mismatch {
        Some(((ew, eh), (aw, ah))) => {
            format!("an image of {aw}×{ah} pixels where the baseline is {ew}×{eh}")
        }
        None => format!(
            "{} pixels differ ({:.2}% of {}), {}",
            found.diff_pixels,
            found.ratio() * 100.0,
            found.total_pixels,
            allowed(visual.budget, found.total_pixels)
        ),
    };
    let code = if deadline_first {
        FailureCode::Timeout
    } else {
        FailureCode::ScreenshotMismatch
    };
    let mut failure = StepFailure::new(
        code,
        format!(
            "screenshot = \"{}\" did not match the baseline {} within {} ms: {seen}",
            visual.name,
            baseline.file,
            waited.as_millis()
        ),
    );
    failure.waited = Some(Waited {
        waited_ms: waited.as_millis() as u64,
        last_seen: seen,
    });
    failure.evidence = evidence(visual, expected, actual, &found.diff, env);
    failure
}

/// The expected, actual and diff images of a failure (each best effort: a write that fails
/// leaves the failure's own code and message as they are).
fn evidence(
    visual: &VisualExpectation,
    expected: &Rgba,
    actual: &Rgba,
    diff: &Rgba,
    env: &StepEnv<'_>,
) -> Vec<EvidenceFile> {
    let stem = stem(visual);
    [
        ("expected", EvidenceKind::SnapshotExpected, expected),
        ("actual", EvidenceKind::SnapshotActual, actual),
        ("diff", EvidenceKind::SnapshotDiff, diff),
    ]
    .into_iter()
    .filter_map(|(what, kind, image)| {
        save_evidence(
            env.artifact_dir,
            &format!("snapshots/{stem}-{what}.png"),
            kind,
            &encode_png(image),
        )
        .ok()
    })
    .collect()
}

fn stem(visual: &VisualExpectation) -> &str {
    let name = visual.name.as_str();
    name.strip_suffix(".png").unwrap_or(name)
}

#[cfg(test)]
mod tests;
