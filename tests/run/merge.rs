//! `merge-reports`: four real `--shard i/4` runs of the binary (real Chromium, real pages) merged
//! into one result, JUnit file and HTML report; a missing shard is reported and exits 2; a
//! duplicate shard is refused with its code and writes nothing.

use crate::harness::{
    command, finish, read_junit, run_served, scenario, workdir, Finished, FixtureServer,
};
use std::path::Path;
use std::time::Duration;

const SUITE: &str = include_str!("../fixtures/suites/matrix.acl");

/// `a3s-test merge-reports …` in `cwd`, in its own process group, with a deadline.
fn merge_reports(args: &[&str], cwd: &Path) -> Finished {
    let child = command("merge-reports", args, cwd)
        .env_remove("GITHUB_ACTIONS")
        .spawn()
        .unwrap();
    finish(child, Duration::from_secs(30))
}

#[test]
fn four_shards_merge_into_one_report_and_bad_sets_are_reported() {
    let server = FixtureServer::start();
    let work = workdir(&[("matrix.acl", SUITE)]);
    let mut per_shard = Vec::new();
    for i in 1..=4 {
        let shard = format!("{i}/4");
        let done = run_served(
            &server,
            work.path(),
            &["matrix.acl", "--shard", &shard, "--json", "--jobs", "2"],
        );
        assert!(
            matches!(done.code, 0 | 1),
            "shard {shard}: {}\n{}",
            done.stdout,
            done.stderr
        );
        let json = done.json();
        assert_eq!(json["shard"]["index"], i, "{json}");
        assert_eq!(json["shard"]["total"], 4, "{json}");
        assert_eq!(json["shard"]["selected"], 6, "{json}");
        per_shard.push(json["scenarios"].as_array().unwrap().len());
        std::fs::write(work.path().join(format!("shard-{i}.json")), &done.stdout).unwrap();
    }
    assert_eq!(per_shard.iter().sum::<usize>(), 6, "{per_shard:?}");

    let all = [
        "shard-1.json",
        "shard-2.json",
        "shard-3.json",
        "shard-4.json",
    ];
    // The JUnit file's folders do not exist yet: a user-named path gets them created.
    let mut args = vec!["--json", "--junit", "out/ci/merged.xml", "--html", "merged"];
    args.extend(all);
    let done = merge_reports(&args, work.path());
    assert_eq!(
        done.code, 1,
        "one scenario fails: {}\n{}",
        done.stdout, done.stderr
    );
    let json = done.json();
    assert_eq!(json["counts"]["total"], 6, "{json}");
    assert_eq!(json["counts"]["passed"], 5, "{json}");
    assert_eq!(json["counts"]["product"], 1, "{json}");
    assert_eq!(json["exit_code"], 1);
    assert_eq!(json["skipped"], 0);
    assert_eq!(json["merge"]["total"], 4);
    assert_eq!(json["merge"]["shards"].as_array().unwrap().len(), 4);
    assert_eq!(json["merge"]["missing_shards"], serde_json::json!([]));
    let mut ids = crate::common::each_str(&json["scenarios"], "id");
    ids.sort();
    assert_eq!(
        ids,
        [
            "matrix/forms",
            "matrix/greets",
            "matrix/home",
            "matrix/layout",
            "matrix/tabs",
            "matrix/widgets"
        ]
    );
    let (counts, xml) = read_junit(&work.path().join("out/ci/merged.xml"));
    assert_eq!(
        (counts.cases, counts.failures, counts.errors),
        (6, 1, 0),
        "{xml}"
    );
    let page = std::fs::read_to_string(work.path().join("merged/index.html")).unwrap();
    assert!(page.contains("Merged from 4 shards of 4"), "{page}");
    assert_eq!(page.matches("<article class=\"scenario\"").count(), 6);
    assert!(
        page.contains("data:image/png;base64,"),
        "the failure screenshot is inline"
    );
    // The failing scenario's step trace (kept by the default `retain-on-failure`) survives the
    // merge: its result names it and the merged report shows its timeline and screenshots.
    let greets = scenario(&json, "matrix/greets");
    let trace = greets["trace"]["path"].as_str().expect("a trace");
    assert!(work.path().join(trace).is_file(), "{trace}");
    assert_eq!(page.matches("role=\"tablist\"").count(), 1, "one timeline");
    assert!(
        page.contains("data:image/jpeg;base64,"),
        "trace screenshots inline"
    );

    // The shard holding the failure is missing: its scenarios are unknown, the merge exits 2.
    let failing_shard = (1..=4)
        .find(|i| {
            let text =
                std::fs::read_to_string(work.path().join(format!("shard-{i}.json"))).unwrap();
            text.contains("test.assert.text_mismatch")
        })
        .unwrap();
    let rest: Vec<String> = (1..=4)
        .filter(|i| *i != failing_shard)
        .map(|i| format!("shard-{i}.json"))
        .collect();
    let mut args = vec!["--html", "partial"];
    args.extend(rest.iter().map(String::as_str));
    let done = merge_reports(&args, work.path());
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    assert!(
        done.stderr.contains(&format!(
            "warning[test.run.merge_missing_shard]: no result for shard {failing_shard}/4"
        )),
        "{}",
        done.stderr
    );
    assert!(
        done.stdout.contains("Result error (exit code 2)"),
        "{}",
        done.stdout
    );
    let page = std::fs::read_to_string(work.path().join("partial/index.html")).unwrap();
    assert!(page.contains("Incomplete: "), "{page}");

    // A shard given twice is refused, with its code and a hint, before anything is written.
    let done = merge_reports(
        &[
            "--html",
            "twice",
            "shard-1.json",
            "shard-2.json",
            "shard-1.json",
        ],
        work.path(),
    );
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    assert!(
        done.stderr.contains(
            "error[test.run.merge_duplicate_shard]: failed to merge: shard 1/4 is given twice"
        ),
        "{}",
        done.stderr
    );
    assert!(done.stderr.contains("= help: "), "{}", done.stderr);
    assert!(!work.path().join("twice").exists(), "nothing was written");

    // A plain (unsharded) result is not a shard.
    let plain = run_served(
        &server,
        work.path(),
        &["matrix.acl", "--filter", "home", "--json"],
    );
    std::fs::write(work.path().join("plain.json"), &plain.stdout).unwrap();
    let done = merge_reports(&["shard-1.json", "plain.json"], work.path());
    assert_eq!(done.code, 2);
    assert!(
        done.stderr.contains("error[test.run.merge_not_sharded]"),
        "{}",
        done.stderr
    );
}
