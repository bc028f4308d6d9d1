//! A run writes nothing outside the project (issue 27, item 4): a link in place of `.a3s-test`
//! or `.a3s-test/runs` refuses the run before any browser starts (`test.run.unsafe_path`,
//! exit 2), and a `last-run.json` that is a link is neither read by `--last-failed` nor replaced
//! after the run. The folder or file a link points to stays byte-identical.

use crate::harness::{run, run_served, scenario_ids as ids, workdir, FixtureServer};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

const SUITE: &str = include_str!("../fixtures/suites/pick.acl");

/// A bound for commands that start no browser.
const QUICK: Duration = Duration::from_secs(30);

/// The names and bytes of every file in `dir` (one level: nothing is expected deeper).
fn snapshot(dir: &Path) -> Vec<(std::ffi::OsString, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name(), std::fs::read(e.path()).unwrap_or_default())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_linked_state_or_runs_folder_refuses_the_run_before_any_browser() {
    for linked in [".a3s-test", ".a3s-test/runs"] {
        let work = workdir(&[("pick.acl", SUITE)]);
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep.txt"), b"kept").unwrap();
        let before = snapshot(outside.path());
        let link = work.path().join(linked);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(outside.path(), &link).unwrap();
        // A browser that does not exist: the refusal comes before any launch.
        let args = ["pick.acl", "--json", "--browser", "/nonexistent/chromium"];
        let done = run(&args, work.path(), QUICK);
        assert_eq!(done.code, 2, "{linked}: {}", done.stderr);
        assert!(
            done.stderr.contains("error[test.run.unsafe_path]")
                && done.stderr.contains(&format!("{linked}`"))
                && done.stderr.contains("symbolic link"),
            "{linked}: {}",
            done.stderr
        );
        assert_eq!(snapshot(outside.path()), before, "{linked}");
    }
}

#[test]
fn a_linked_last_run_record_is_neither_read_nor_replaced() {
    let server = FixtureServer::start();
    let work = workdir(&[("pick.acl", SUITE)]);
    let outside = tempfile::tempdir().unwrap();
    // A record naming one scenario; followed, `--last-failed` would select only it.
    let record = br#"{"format_version":1,"run_id":"elsewhere","exit_code":1,"not_passed":[{"id":"pick/passes","status":"failed"}]}"#;
    std::fs::write(outside.path().join("record.json"), record).unwrap();
    let before = snapshot(outside.path());
    std::fs::create_dir(work.path().join(".a3s-test")).unwrap();
    let link = work.path().join(".a3s-test/last-run.json");
    symlink(outside.path().join("record.json"), &link).unwrap();

    let listed = run_served(
        &server,
        work.path(),
        &["pick.acl", "--json", "--last-failed", "--list"],
    );
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(ids(&listed.json()).len(), 3, "every scenario is selected");
    assert!(
        listed
            .stderr
            .contains("last-run.json`: it is a symbolic link"),
        "{}",
        listed.stderr
    );

    let ran = run_served(
        &server,
        work.path(),
        &["pick.acl", "--json", "--tag", "smoke"],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("the next --last-failed cannot use this run"),
        "{}",
        ran.stderr
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(snapshot(outside.path()), before);
}

#[test]
fn a_linked_last_green_folder_refuses_the_run_before_any_browser() {
    let work = workdir(&[("pick.acl", SUITE)]);
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("keep.txt"), b"kept").unwrap();
    let before = snapshot(outside.path());
    std::fs::create_dir(work.path().join(".a3s-test")).unwrap();
    symlink(outside.path(), work.path().join(".a3s-test/last-green")).unwrap();
    let args = ["pick.acl", "--json", "--browser", "/nonexistent/chromium"];
    let done = run(&args, work.path(), QUICK);
    assert_eq!(done.code, 2, "{}", done.stderr);
    assert!(
        done.stderr.contains("error[test.run.unsafe_path]") && done.stderr.contains("last-green"),
        "{}",
        done.stderr
    );
    assert_eq!(snapshot(outside.path()), before);
    // With traces off no last-green record is kept, so the folder is not opened: the run gets
    // as far as launching the (missing) browser.
    let off = [
        "pick.acl",
        "--json",
        "--trace",
        "off",
        "--browser",
        "/nonexistent/chromium",
    ];
    let done = run(&off, work.path(), QUICK);
    assert!(!done.stderr.contains("last-green"), "{}", done.stderr);
    assert!(
        done.stdout.contains("/nonexistent/chromium"),
        "{}",
        done.stdout
    );
    assert_eq!(snapshot(outside.path()), before);
}
