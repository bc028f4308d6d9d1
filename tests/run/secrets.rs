//! `env("NAME")` texts through the binary in real Chromium (`docs/acl.md` §5): a password typed
//! from the run's environment reaches the page and is expected back, a mismatch quotes neither
//! side, and the value appears in nothing the run prints or writes — stdout, stderr, the JSON,
//! JUnit and HTML reports, the artifacts, `last-run.json`. A variable that is not set fails its
//! step with `test.spec.env_unset` and the run exits 2.

use crate::harness::{command, finish, scenario, workdir, Finished, FixtureServer, RUN_BOUND};
use std::path::{Path, PathBuf};

const SUITE: &str = include_str!("../fixtures/suites/secrets.acl");

/// The variable the suite reads.
const VAR: &str = "A3S_TEST_SECRET";

/// Its value in the passing run: set only in that child's environment.
const SECRET: &str = "A3S-secret-7c1e9f42";

/// `a3s-test run secrets.acl` with every report, and `A3S_TEST_SECRET` set to `secret` in the
/// child only (removed when `None`).
fn run(server: &FixtureServer, work: &Path, secret: Option<&str>) -> Finished {
    let args = [
        "secrets.acl",
        "--json",
        "--junit",
        "junit.xml",
        "--html",
        "out/report",
        "--base-url",
        server.base_url.as_str(),
        // Every step traced and kept: outlines show field values back, and must not show this.
        "--trace",
        "on",
    ];
    let mut run = command("run", &args, work);
    run.env_remove(VAR);
    if let Some(secret) = secret {
        run.env(VAR, secret);
    }
    finish(run.spawn().unwrap(), RUN_BOUND)
}

/// Every regular file under `dir`, at any depth (symbolic links are not followed).
pub(crate) fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn a_secret_from_the_environment_is_typed_and_expected_but_never_written() {
    let server = FixtureServer::start();
    let work = workdir(&[("secrets.acl", SUITE)]);
    let done = run(&server, work.path(), Some(SECRET));
    let json = done.json();
    assert_eq!(
        done.code, 1,
        "one scenario failed on the product\n{json}\n{}",
        done.stderr
    );

    // The page received the secret: the password was typed and expected back.
    let signs_in = scenario(&json, "secrets/signs-in");
    assert_eq!(signs_in["status"], "passed", "{signs_in}");
    let typed = &signs_in["steps"][3];
    assert_eq!(typed["kind"], "type", "{typed}");
    assert!(
        typed["detail"].get("keys").is_none(),
        "no length of a secret: {typed}"
    );

    // The mismatch names the variable and quotes neither the secret nor what the field holds.
    let differs = scenario(&json, "secrets/user-differs");
    assert_eq!(differs["status"], "failed", "{differs}");
    let failure = &differs["failure"];
    assert_eq!(failure["code"], "test.assert.value_mismatch", "{failure}");
    let message = failure["message"].as_str().unwrap();
    assert!(
        message.starts_with("value = env(\"A3S_TEST_SECRET\") with target = label(\"User\") did not hold within 300 ms"),
        "{message}"
    );
    assert!(message.contains("private, not shown"), "{message}");
    assert!(!message.contains("ada"), "{message}");
    // Its failure evidence was captured (and is searched below).
    assert!(
        failure["evidence"]
            .as_array()
            .is_some_and(|e| !e.is_empty()),
        "{failure}"
    );

    // Nowhere: not on either stream, not in any file of the run's folder.
    let secret = SECRET.as_bytes();
    assert!(!done.stdout.contains(SECRET), "stdout holds the secret");
    assert!(
        !done.stderr.contains(SECRET),
        "stderr holds the secret:\n{}",
        done.stderr
    );
    let written = files_under(work.path());
    for wanted in [
        "junit.xml",
        "out/report/index.html",
        ".a3s-test/last-run.json",
    ] {
        assert!(
            written.contains(&work.path().join(wanted)),
            "{wanted} was not written: {written:?}"
        );
    }
    assert!(
        written.iter().any(|p| p.ends_with("accessibility.json")
            && p.starts_with(work.path().join(".a3s-test/runs"))),
        "failure evidence under .a3s-test/runs: {written:?}"
    );
    for path in &written {
        let bytes = std::fs::read(path).unwrap();
        assert!(
            !contains(&bytes, secret),
            "{} holds the secret",
            path.display()
        );
    }
    // The reports say where the text came from.
    let junit = std::fs::read_to_string(work.path().join("junit.xml")).unwrap();
    assert!(
        junit.contains("env(&quot;A3S_TEST_SECRET&quot;)")
            || junit.contains("env(\"A3S_TEST_SECRET\")"),
        "{junit}"
    );

    // The admitted IR holds the name only.
    let check = finish(
        command("check", &["--json", "secrets.acl"], work.path())
            .env(VAR, SECRET)
            .spawn()
            .unwrap(),
        RUN_BOUND,
    );
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        check.stdout.contains(r#"{"env":"A3S_TEST_SECRET"}"#),
        "{}",
        check.stdout
    );
    assert!(!check.stdout.contains(SECRET) && !check.stderr.contains(SECRET));
}

#[test]
fn an_unset_variable_fails_its_step_naming_it_and_the_run_exits_2() {
    let server = FixtureServer::start();
    let work = workdir(&[("secrets.acl", SUITE)]);
    let done = run(&server, work.path(), None);
    let json = done.json();
    assert_eq!(
        done.code, 2,
        "a specification failure\n{json}\n{}",
        done.stderr
    );
    for (id, step) in [("secrets/signs-in", 2), ("secrets/user-differs", 1)] {
        let s = scenario(&json, id);
        assert_eq!(s["status"], "failed", "{s}");
        let failure = &s["failure"];
        assert_eq!(failure["code"], "test.spec.env_unset", "{failure}");
        assert_eq!(failure["failure_class"], "specification", "{failure}");
        let message = failure["message"].as_str().unwrap();
        assert!(
            message.starts_with("env(\"A3S_TEST_SECRET\"): the variable A3S_TEST_SECRET is not set in the environment of `a3s-test run`"),
            "{message}"
        );
        assert!(message.contains("export A3S_TEST_SECRET="), "{message}");
        // The step that reads the variable is the one that failed; the ones before it passed.
        let steps = s["steps"].as_array().unwrap();
        assert_eq!(steps.len(), step + 1, "{s}");
        assert_eq!(steps[step]["label"], "password", "{s}");
        assert_eq!(steps[step]["status"], "failed", "{s}");
    }
}
