//! The last passing trace of each scenario (`<output-dir>/last-green/<suite>/<scenario>.json`,
//! or `--last-green-dir`): what a failing run is compared with.
//!
//! Bounded: one file per scenario, without screenshots (the comparison reads outlines, console
//! and requests only), at most [`MAX_RECORD_BYTES`]; replaced atomically on every traced pass,
//! read through `fsroot` like all evidence. A record that is missing, too large or not of this
//! schema is no comparison, never an error of the run.

use super::diff;
use super::record::{Trace, TraceStep, TRACE_SCHEMA};
use crate::evidence::safe_component;
use a3s_test_fsroot::Dir;
use std::path::PathBuf;

/// Largest last-green record kept or read.
pub const MAX_RECORD_BYTES: u64 = 2_000_000;

/// Where scenario `id`'s record lives below the store.
fn record_path(id: &str) -> PathBuf {
    let (suite, scenario) = id.split_once('/').unwrap_or(("", id));
    PathBuf::from(safe_component(suite)).join(format!("{}.json", safe_component(scenario)))
}

/// Keep `trace` (a pass) as its scenario's last green run, screenshots left out. When
/// `previous` (the record this run read) already says the same to a comparison — the same
/// steps, pages, outlines, requests and errors — nothing is written: an unchanged app's passing
/// run costs no write and no `fsync`. `Ok(true)` when the record was written.
pub fn store(store: &Dir, trace: &Trace, previous: Option<&Trace>) -> Result<bool, String> {
    if previous.is_some_and(|previous| same_for_comparison(previous, trace)) {
        return Ok(false);
    }
    let mut kept = trace.clone();
    for step in &mut kept.steps {
        step.screenshot = None;
    }
    kept.screenshot_bytes = 0;
    let json = serde_json::to_vec(&kept).map_err(|e| e.to_string())?;
    if json.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "the record is {} bytes, over the {MAX_RECORD_BYTES}-byte cap",
            json.len()
        ));
    }
    let rel = record_path(&trace.scenario);
    if let Some(parent) = rel.parent().filter(|p| !p.as_os_str().is_empty()) {
        store.create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    store
        .write_atomic(&rel, &json, a3s_test_fsroot::SHARED)
        .map_err(|e| e.to_string())?;
    Ok(true)
}

/// True when a comparison with `a` and with `b` would read the same: the steps by position
/// (path and kind), their page fingerprints and outlines (refs aside, as `diff` compares them),
/// their requests' outcomes and their errors. Durations, sizes and timings are not compared.
pub fn same_for_comparison(a: &Trace, b: &Trace) -> bool {
    a.schema == b.schema
        && a.scenario == b.scenario
        && a.steps.len() == b.steps.len()
        && a.steps.iter().zip(&b.steps).all(|(a, b)| same_step(a, b))
}

fn same_step(a: &TraceStep, b: &TraceStep) -> bool {
    let outline = |s: &TraceStep| {
        s.outline
            .iter()
            .map(|l| diff::without_ref(l))
            .collect::<Vec<_>>()
    };
    let requests = |s: &TraceStep| {
        s.network
            .iter()
            .map(|r| (r.method.clone(), r.url.clone(), r.status, r.failed.clone()))
            .collect::<Vec<_>>()
    };
    a.index == b.index
        && a.path == b.path
        && a.kind == b.kind
        && a.status == b.status
        && a.page == b.page
        && a.outline_carried == b.outline_carried
        && a.console == b.console
        && a.page_errors == b.page_errors
        && outline(a) == outline(b)
        && requests(a) == requests(b)
}

/// The last green trace of scenario `id`, when there is a readable one of this schema.
pub fn load(store: &Dir, id: &str) -> Option<Trace> {
    let bytes = store.read(record_path(id), MAX_RECORD_BYTES).ok()?;
    let trace: Trace = serde_json::from_slice(&bytes).ok()?;
    (trace.schema == TRACE_SCHEMA && trace.scenario == id).then_some(trace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{ScenarioStatus, StepStatus};
    use crate::trace::record::TraceSource;
    use a3s_test_driver::trace::{PageFingerprint, TraceConsole, TraceRequest};

    fn step(outline: &[&str], status: Option<u16>, duration_ms: u64) -> TraceStep {
        TraceStep {
            index: 0,
            kind: "click".into(),
            label: None,
            path: "steps[0]".into(),
            line: 3,
            resolved: None,
            locator: None,
            status: StepStatus::Passed,
            duration_ms,
            failure: None,
            candidates: Vec::new(),
            screenshot: None,
            outline: outline.iter().map(|l| l.to_string()).collect(),
            outline_carried: false,
            outline_from_last_green: false,
            page: Some(PageFingerprint(7)),
            console: vec![TraceConsole {
                level: "info".into(),
                text: "ready".into(),
            }],
            page_errors: Vec::new(),
            network: vec![TraceRequest {
                method: "GET".into(),
                url: "http://127.0.0.1/api".into(),
                status,
                failed: None,
                resource_type: "Fetch".into(),
                duration_ms: Some(duration_ms),
                received_bytes: Some(duration_ms * 10),
            }],
            missing: Vec::new(),
        }
    }

    fn trace(step: TraceStep) -> Trace {
        Trace {
            schema: TRACE_SCHEMA.into(),
            scenario: "s/buy".into(),
            file: "s.acl".into(),
            attempt: 1,
            status: ScenarioStatus::Passed,
            source: TraceSource {
                first_line: 1,
                lines: Vec::new(),
            },
            steps: vec![step],
            screenshot_bytes: 0,
            cuts: Vec::new(),
            traced: true,
        }
    }

    #[test]
    fn timings_and_refs_do_not_make_a_record_differ_but_pages_and_outcomes_do() {
        let was = trace(step(&["@e1 button \"Buy\""], Some(200), 5));
        // Other durations, sizes and ref numbers: the same to a comparison.
        let again = trace(step(&["@e4 button \"Buy\""], Some(200), 90));
        assert!(same_for_comparison(&was, &again));
        let outline = trace(step(&["@e1 button \"Pay\""], Some(200), 5));
        assert!(!same_for_comparison(&was, &outline));
        let status = trace(step(&["@e1 button \"Buy\""], Some(500), 5));
        assert!(!same_for_comparison(&was, &status));
        let mut page = again.clone();
        page.steps[0].page = Some(PageFingerprint(8));
        assert!(!same_for_comparison(&was, &page));
        let mut console = again.clone();
        console.steps[0].console.clear();
        assert!(!same_for_comparison(&was, &console));
        let mut longer = again;
        longer.steps.push(step(&[], None, 1));
        assert!(!same_for_comparison(&was, &longer));
    }

    #[test]
    fn a_pass_that_says_the_same_writes_nothing_and_one_that_differs_replaces_the_record() {
        let dir = tempfile::tempdir().unwrap();
        let root = Dir::open_anchor(dir.path()).unwrap();
        let file = dir.path().join("s/buy.json");
        let was = trace(step(&["button \"Buy\""], Some(200), 5));
        assert_eq!(store(&root, &was, None), Ok(true));
        let written = std::fs::read(&file).unwrap();
        // Same to a comparison: the record is left as it was (its timings are the first run's).
        let again = trace(step(&["button \"Buy\""], Some(200), 70));
        assert_eq!(store(&root, &again, Some(&was)), Ok(false));
        assert_eq!(std::fs::read(&file).unwrap(), written);
        assert_eq!(load(&root, "s/buy").as_ref(), Some(&was));
        // Another page: replaced.
        let changed = trace(step(&["button \"Pay\""], Some(200), 5));
        assert_eq!(store(&root, &changed, Some(&was)), Ok(true));
        assert_eq!(load(&root, "s/buy"), Some(changed));
    }
}
