//! `--shard i/n` balanced by recorded durations, through the binary: `--list` shows each shard's
//! part, the parts cover the selection exactly once, and a slow scenario gets a shard of its own;
//! a run records the durations the next `--shard` reads from the output folder.

use crate::harness::{run, run_once, workdir, RUN_BOUND};
use std::collections::BTreeSet;

/// Eight quick scenarios and one slow one.
fn suite() -> String {
    let mut text = String::from("suite \"skewed\" {\n");
    for name in ["slow", "a", "b", "c", "d", "e", "f", "g", "h"] {
        text.push_str(&format!(
            "    scenario \"{name}\" {{\n        surface = \"web\"\n        navigate \"open\" {{ url = \"/\" }}\n    }}\n"
        ));
    }
    text.push_str("}\n");
    text
}

/// The ids `--list --json` prints for `args`.
fn listed(work: &std::path::Path, args: &[&str]) -> (BTreeSet<String>, String) {
    let mut all = vec!["skewed.acl", "--list", "--json"];
    all.extend(args);
    let done = run(&all, work, RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let ids = done.json()["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    (ids, done.stderr)
}

#[test]
fn list_shows_duration_balanced_shards_that_cover_the_selection_once() {
    // The durations a CI job restores: a run's --json result (8 × 1 s, one of 8 s).
    let mut scenarios = Vec::new();
    for name in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        scenarios.push(format!(
            r#"{{"id":"skewed/{name}","status":"passed","duration_ms":1000}}"#
        ));
    }
    scenarios.push(r#"{"id":"skewed/slow","status":"passed","duration_ms":8000}"#.into());
    let result = format!(r#"{{"scenarios":[{}]}}"#, scenarios.join(","));
    let work = workdir(&[("skewed.acl", &suite()), ("last.json", &result)]);
    let (first, note) = listed(work.path(), &["--shard", "1/2", "--durations", "last.json"]);
    let (second, _) = listed(work.path(), &["--shard", "2/2", "--durations", "last.json"]);
    assert!(first.is_disjoint(&second), "{first:?} {second:?}");
    assert_eq!(first.len() + second.len(), 9);
    let alone = if first.contains("skewed/slow") {
        &first
    } else {
        &second
    };
    assert_eq!(
        alone.len(),
        1,
        "the slow scenario shares its shard: {alone:?}"
    );
    assert!(
        note.contains("9 of 9 scenarios known") && note.contains("8.0s, 8.0s"),
        "{note}"
    );
    // Without durations the hash decides, as before.
    let (hashed, note) = listed(work.path(), &["--shard", "1/2"]);
    assert!(!note.contains("balanced"), "{note}");
    assert!(!hashed.is_empty());
    // A file that is neither is refused before anything runs.
    let done = run(
        &[
            "skewed.acl",
            "--list",
            "--shard",
            "1/2",
            "--durations",
            "skewed.acl",
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}", done.stderr);
    assert!(
        done.stderr.contains("neither a durations file"),
        "{}",
        done.stderr
    );
}

#[test]
fn a_run_records_the_durations_the_next_shard_reads() {
    let (done, work) = run_once(&[("skewed.acl", &suite())], &["skewed.acl", "--json"]);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let history = std::fs::read_to_string(work.path().join(".a3s-test/durations.json")).unwrap();
    let history: serde_json::Value = serde_json::from_str(&history).unwrap();
    assert_eq!(history["format_version"], 1);
    assert_eq!(
        history["scenarios"].as_object().unwrap().len(),
        9,
        "{history}"
    );
    let (_, note) = listed(work.path(), &["--shard", "1/3"]);
    assert!(note.contains("9 of 9 scenarios known"), "{note}");
    // A shard's own run does not change the history the other shards read.
    let done = run(
        &[
            "skewed.acl",
            "--shard",
            "1/3",
            "--base-url",
            "http://127.0.0.1:9/",
            "--filter",
            "none",
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    let after = std::fs::read_to_string(work.path().join(".a3s-test/durations.json")).unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&after).unwrap(),
        history
    );
}
