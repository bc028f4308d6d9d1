//! The last passing trace of each scenario (`<output-dir>/last-green/<suite>/<scenario>.json`,
//! or `--last-green-dir`): what a failing run is compared with.
//!
//! Bounded: one file per scenario, without screenshots or bodies (the comparison reads outlines,
//! console and requests' outcomes only), at most [`MAX_RECORD_BYTES`]; replaced atomically on every traced pass,
//! read through `fsroot` like all evidence. The store as a whole holds at most
//! [`Bound::DEFAULT`] (`bound.rs`: the least recently written or used records of other
//! scenarios than the run's go first). A record that is missing, too large or not of this
//! schema is no comparison, never an error of the run.

mod bound;
mod error;

pub use bound::Bound;
pub use error::StoreError;

use super::diff;
use super::record::{Trace, TraceStep, TRACE_SCHEMA};
use crate::evidence::safe_component;
use a3s_test_fsroot::Dir;
use std::collections::HashSet;
use std::path::PathBuf;

/// Largest last-green record kept or read.
pub const MAX_RECORD_BYTES: u64 = 2_000_000;

/// Where scenario `id`'s record lives below the store.
fn record_path(id: &str) -> PathBuf {
    let (suite, scenario) = id.split_once('/').unwrap_or(("", id));
    PathBuf::from(safe_component(suite)).join(format!("{}.json", safe_component(scenario)))
}

/// Keep `trace` (a pass) as its scenario's last green run, screenshots and bodies left out. When
/// `previous` (the record this run read) already says the same to a comparison — the same
/// steps, pages, outlines, requests and errors — nothing is written: an unchanged app's passing
/// run costs no write and no `fsync`. `Ok(true)` when the record was written. A write that
/// would take the store past [`Bound::DEFAULT`] first removes the least recently written or
/// used records of scenarios not in `in_run` (the ids of the run's scenarios), or is refused.
pub fn store(
    store: &Dir,
    trace: &Trace,
    previous: Option<&Trace>,
    in_run: &HashSet<String>,
) -> Result<bool, StoreError> {
    store_within(store, trace, previous, in_run, Bound::DEFAULT)
}

/// [`store`] within `bound`.
fn store_within(
    store: &Dir,
    trace: &Trace,
    previous: Option<&Trace>,
    in_run: &HashSet<String>,
    bound: Bound,
) -> Result<bool, StoreError> {
    if previous.is_some_and(|previous| same_for_comparison(previous, trace)) {
        return Ok(false);
    }
    let mut kept = trace.clone();
    // The comparison reads no screenshot and no body: neither is kept.
    for step in &mut kept.steps {
        step.screenshot = None;
        for request in &mut step.network {
            request.request_body = None;
            request.response_body = None;
        }
    }
    kept.screenshot_bytes = 0;
    let json = serde_json::to_vec(&kept)?;
    if json.len() as u64 > MAX_RECORD_BYTES {
        return Err(StoreError::TooLarge {
            bytes: json.len() as u64,
            cap: MAX_RECORD_BYTES,
        });
    }
    let rel = record_path(&trace.scenario);
    bound::make_room(store, &rel, json.len() as u64, in_run, bound)?;
    if let Some(parent) = rel.parent().filter(|p| !p.as_os_str().is_empty()) {
        store
            .create_dir_all(parent)
            .map_err(StoreError::io("create the suite's folder"))?;
    }
    store
        .write_atomic(&rel, &json, a3s_test_fsroot::SHARED)
        .map_err(StoreError::io("write the record"))?;
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

/// The last green trace of scenario `id`, when there is a readable one of this schema; a
/// record read is marked used (the store's bound removes it after the ones not used since).
pub fn load(store: &Dir, id: &str) -> Option<Trace> {
    let rel = record_path(id);
    let bytes = store.read(&rel, MAX_RECORD_BYTES).ok()?;
    let trace: Trace = serde_json::from_slice(&bytes).ok()?;
    let ours = trace.schema == TRACE_SCHEMA && trace.scenario == id;
    if ours {
        bound::touch(store, &rel);
    }
    ours.then_some(trace)
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
                request_body: None,
                response_body: None,
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
        let none = HashSet::new();
        assert!(store(&root, &was, None, &none).unwrap());
        let written = std::fs::read(&file).unwrap();
        // Same to a comparison: the record is left as it was (its timings are the first run's).
        let again = trace(step(&["button \"Buy\""], Some(200), 70));
        assert!(!store(&root, &again, Some(&was), &none).unwrap());
        assert_eq!(std::fs::read(&file).unwrap(), written);
        assert_eq!(load(&root, "s/buy").as_ref(), Some(&was));
        // Another page: replaced.
        let changed = trace(step(&["button \"Pay\""], Some(200), 5));
        assert!(store(&root, &changed, Some(&was), &none).unwrap());
        assert_eq!(load(&root, "s/buy"), Some(changed));
    }

    #[test]
    fn the_record_keeps_no_screenshot_and_no_body() {
        use a3s_test_driver::trace_body::TraceBody;
        let dir = tempfile::tempdir().unwrap();
        let root = Dir::open_anchor(dir.path()).unwrap();
        let mut with = trace(step(&["button \"Buy\""], Some(200), 5));
        let request = &mut with.steps[0].network[0];
        request.request_body = Some(TraceBody::kept("application/json", "{\"q\":1}".into()));
        request.response_body = Some(TraceBody::kept("application/json", "{\"ok\":true}".into()));
        assert!(store(&root, &with, None, &HashSet::new()).unwrap());
        let kept = load(&root, "s/buy").unwrap();
        let request = &kept.steps[0].network[0];
        assert_eq!(
            (&request.request_body, &request.response_body),
            (&None, &None)
        );
        assert_eq!(kept.steps[0].screenshot, None);
        let raw = std::fs::read_to_string(dir.path().join("s/buy.json")).unwrap();
        assert!(!raw.contains("ok\\\":true"), "{raw}");
    }

    /// A passing trace of scenario `id`.
    fn trace_of(id: &str) -> Trace {
        let mut t = trace(step(&["button \"Buy\""], Some(200), 5));
        t.scenario = id.into();
        t
    }

    /// Set `path`'s modification time to `secs` after 1970 (the store's order of age).
    fn age(path: &std::path::Path, secs: u64) {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        let when = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        file.set_modified(when).unwrap();
    }

    fn ids(list: &[&str]) -> HashSet<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn writing_past_the_bound_removes_the_oldest_records_of_other_scenarios_never_the_runs() {
        let dir = tempfile::tempdir().unwrap();
        let root = Dir::open_anchor(dir.path()).unwrap();
        let bound = Bound {
            records: 3,
            bytes: 1_000_000,
        };
        let none = HashSet::new();
        for (k, id) in ["s/a", "s/b", "s/c"].iter().enumerate() {
            assert!(store_within(&root, &trace_of(id), None, &none, bound).unwrap());
            age(&dir.path().join(format!("{}.json", id)), 1000 + k as u64);
        }
        // A fourth: the oldest record goes, except that `s/a` is a scenario of this run.
        let run = ids(&["s/a", "s/d"]);
        assert!(store_within(&root, &trace_of("s/d"), None, &run, bound).unwrap());
        let exists = |id: &str| dir.path().join(format!("{id}.json")).exists();
        assert!(exists("s/a") && exists("s/c") && exists("s/d"));
        assert!(
            !exists("s/b"),
            "the least recently written other record was removed"
        );
        // Replacing a record adds none: nothing removed.
        assert!(store_within(&root, &trace_of("s/c"), None, &none, bound).unwrap());
        assert!(exists("s/a") && exists("s/c") && exists("s/d"));
        age(&dir.path().join("s/d.json"), 2000);
        age(&dir.path().join("s/c.json"), 2001);
        // A record read for a comparison counts as used: `s/a` (the oldest) is now the newest.
        assert!(load(&root, "s/a").is_some());
        assert!(store_within(&root, &trace_of("s/e"), None, &none, bound).unwrap());
        assert!(exists("s/a") && exists("s/c") && exists("s/e"));
        assert!(!exists("s/d"), "the least recently used record was removed");
        // Only this run's records left: the write is refused, nothing of the run removed.
        let full = ids(&["s/a", "s/d", "s/e", "s/c", "s/f"]);
        let refused = store_within(&root, &trace_of("s/f"), None, &full, bound);
        assert!(
            matches!(refused, Err(StoreError::Full { records: 4, .. })),
            "{refused:?}"
        );
        assert!(!exists("s/f"));
        assert_eq!(
            ["s/a", "s/c", "s/d", "s/e"]
                .iter()
                .filter(|id| exists(id))
                .count(),
            3
        );
        // A byte bound works the same way.
        let small = Bound {
            records: 100,
            bytes: std::fs::metadata(dir.path().join("s/a.json"))
                .unwrap()
                .len()
                * 2,
        };
        assert!(store_within(&root, &trace_of("s/g"), None, &ids(&["s/a", "s/g"]), small).unwrap());
        assert!(exists("s/a") && exists("s/g"));
        assert_eq!(
            ["s/c", "s/d", "s/e"].iter().filter(|id| exists(id)).count(),
            0
        );
    }

    #[test]
    fn a_link_or_a_foreign_file_in_the_store_is_never_followed_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let store_dir = dir.path().join("store");
        std::fs::create_dir_all(store_dir.join("s")).unwrap();
        // Outside the store: a valid record, reached by a link to it and by a linked folder.
        let target = outside.path().join("x.json");
        std::fs::write(&target, serde_json::to_vec(&trace_of("s/x")).unwrap()).unwrap();
        std::os::unix::fs::symlink(&target, store_dir.join("s/x.json")).unwrap();
        std::os::unix::fs::symlink(outside.path(), store_dir.join("linked")).unwrap();
        // In the store, not the store's: other JSON, a record in another scenario's place.
        std::fs::write(store_dir.join("s/notes.json"), b"{}").unwrap();
        let misplaced = store_dir.join("s/y.json");
        std::fs::write(&misplaced, serde_json::to_vec(&trace_of("s/z")).unwrap()).unwrap();
        for (k, path) in [store_dir.join("s/notes.json"), misplaced.clone()]
            .iter()
            .enumerate()
        {
            age(path, 10 + k as u64);
        }
        let root = Dir::open_anchor(&store_dir).unwrap();
        let bound = Bound {
            records: 3,
            bytes: 1_000_000,
        };
        let none = HashSet::new();
        for (k, id) in ["s/a", "s/b", "s/c"].iter().enumerate() {
            let written = store_within(&root, &trace_of(id), None, &none, bound);
            assert!(written.unwrap(), "{id}");
            age(&store_dir.join(format!("{id}.json")), 1000 + k as u64);
        }
        // The foreign files do not count against the bound: three records fit.
        assert!(store_dir.join("s/notes.json").exists() && misplaced.exists());
        for id in ["s/a", "s/b", "s/c"] {
            assert!(store_dir.join(format!("{id}.json")).exists(), "{id}");
        }
        // A fourth goes past it: the oldest record of the store's own goes, never a foreign file.
        assert!(store_within(&root, &trace_of("s/d"), None, &none, bound).unwrap());
        assert!(store_dir.join("s/notes.json").exists() && misplaced.exists());
        assert!(!store_dir.join("s/a.json").exists());
        assert!(store_dir.join("s/b.json").exists() && store_dir.join("s/c.json").exists());
        // The links are still links, and what they point to is untouched.
        assert!(store_dir
            .join("s/x.json")
            .symlink_metadata()
            .unwrap()
            .is_symlink());
        assert!(store_dir
            .join("linked")
            .symlink_metadata()
            .unwrap()
            .is_symlink());
        assert_eq!(
            std::fs::read(&target).unwrap(),
            serde_json::to_vec(&trace_of("s/x")).unwrap()
        );
        // A link in a record's own place is neither read nor followed.
        assert_eq!(load(&root, "s/x"), None);
    }
}
