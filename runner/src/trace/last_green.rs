//! The last passing trace of each scenario (`<output-dir>/last-green/<suite>/<scenario>.json`,
//! or `--last-green-dir`): what a failing run is compared with.
//!
//! Bounded: one file per scenario, without screenshots (the comparison reads outlines, console
//! and requests only), at most [`MAX_RECORD_BYTES`]; replaced atomically on every traced pass,
//! read through `fsroot` like all evidence. A record that is missing, too large or not of this
//! schema is no comparison, never an error of the run.

use super::record::{Trace, TRACE_SCHEMA};
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

/// Keep `trace` (a pass) as its scenario's last green run, screenshots left out.
pub fn store(store: &Dir, trace: &Trace) -> Result<(), String> {
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
        .map_err(|e| e.to_string())
}

/// The last green trace of scenario `id`, when there is a readable one of this schema.
pub fn load(store: &Dir, id: &str) -> Option<Trace> {
    let bytes = store.read(record_path(id), MAX_RECORD_BYTES).ok()?;
    let trace: Trace = serde_json::from_slice(&bytes).ok()?;
    (trace.schema == TRACE_SCHEMA && trace.scenario == id).then_some(trace)
}
