//! Sign in once (`docs/acl.md` §5, "Sign in once") through the binary, real Chromium and a
//! loopback app with a real cookie login ([`LoginApp`]): a set-up scenario signs in through the
//! form and saves the storage state; ten dependants start signed in from it (the app counts one
//! login) with `--jobs 4`; the state file is 0600 and neither its cookie nor its localStorage
//! value appears in anything the run prints or writes, step traces (`--trace on`) included. A failing set-up skips its dependants
//! with the reason in every report; `--shard` and `--filter` pull the set-up in, and the shards
//! merge; a missing state file fails its scenario with `test.run.storage_state_missing`. The
//! runs use `--reporter github` too, so its output is checked with the terminal's.

use crate::harness::{command, finish, workdir, Finished, RUN_BOUND};
use crate::login_app::LoginApp;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// How many scenarios start signed in.
const DEPENDANTS: usize = 10;

/// A suite against `app`: `auth-setup` signs in as alice (expecting `greeting` afterwards) and
/// saves `.a3s-test/auth.json`; `page-0` … `page-9` depend on it and start from that state.
fn suite(app: &LoginApp, greeting: &str) -> String {
    let mut s = format!(
        r#"suite "shop" {{
    base_url = "{origin}"
    storage_state = ".a3s-test/auth.json"
    scenario "auth-setup" {{
        surface = "web"
        navigate "open" {{ url = "/?remember" }}
        fill "user" {{ target = label("User") value = "alice" }}
        click "sign-in" {{ target = role("button", "Sign in") }}
        expect "greeted" {{ text = "{greeting}" }}
        save_storage_state "save" {{ path = ".a3s-test/auth.json" }}
        screenshot "after" {{ path = "signed-in.png" }}
    }}
"#,
        origin = app.origin
    );
    for i in 0..DEPENDANTS {
        s.push_str(&format!(
            r#"    scenario "page-{i}" {{
        surface = "web"
        depends_on = ["auth-setup"]
        tags = ["pages"]
        navigate "open" {{ url = "/" }}
        expect "signed-in" {{ text = "signed in as alice" }}
        expect "theme" {{ text = "theme: remembered" }}
        accessibility "tree" {{ path = "tree.json" }}
        console "log" {{ path = "console.json" }}
    }}
"#
        ));
    }
    s.push_str("}\n");
    s
}

/// `a3s-test run shop.acl <extra…> --json --junit junit.xml --html out/report` in `work`.
fn run(work: &Path, extra: &[&str]) -> Finished {
    let mut args = vec![
        "shop.acl",
        "--json",
        "--junit",
        "junit.xml",
        "--html",
        "out/report",
    ];
    args.extend_from_slice(extra);
    let mut child = command("run", &args, work);
    child.env_remove("CI").env_remove("GITHUB_ACTIONS");
    finish(child.spawn().unwrap(), RUN_BOUND)
}

/// Every regular file under `dir`, at any depth (links are not followed).
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// The scenarios of a `--json` result by id.
fn by_id(json: &Value) -> std::collections::BTreeMap<String, Value> {
    json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["scenario"].as_str().unwrap().to_string(), s.clone()))
        .collect()
}

#[test]
fn a_setup_signs_in_once_and_ten_dependants_start_signed_in_and_no_report_holds_the_secrets() {
    let app = LoginApp::start();
    let work = workdir(&[("shop.acl", &suite(&app, "signed in as alice"))]);
    let args = ["--jobs", "4", "--reporter", "github", "--trace", "on"];
    let done = run(work.path(), &args);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    assert_eq!(app.logins(), 1, "one sign-in for eleven scenarios");
    let json = done.json();
    let scenarios = by_id(&json);
    assert_eq!(scenarios.len(), DEPENDANTS + 1);
    assert!(
        scenarios.values().all(|s| s["status"] == "passed"),
        "{json}"
    );
    let saved = &scenarios["auth-setup"]["steps"][4]["detail"];
    assert_eq!(saved["storage_state"], ".a3s-test/auth.json", "{saved}");
    assert_eq!(saved["cookies"], 1);
    assert_eq!(saved["origins"], 1);

    // The state file: private, and it does hold the secrets (so the greps below mean something).
    let state = work.path().join(".a3s-test/auth.json");
    let mode = std::fs::metadata(&state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the state file is mode {mode:o}");
    let bytes = std::fs::read(&state).unwrap();
    assert!(contains(&bytes, &app.session) && contains(&bytes, &app.theme));

    // Nothing else the run printed or wrote holds either value.
    for (name, out) in [("stdout", &done.stdout), ("stderr", &done.stderr)] {
        for secret in [&app.session, &app.theme] {
            assert!(!out.contains(secret.as_str()), "{name} holds {secret}");
        }
    }
    let mut written = files_under(&work.path().join(".a3s-test"));
    written.extend(files_under(&work.path().join("out")));
    written.push(work.path().join("junit.xml"));
    written.retain(|f| f != &state);
    assert!(
        written.len() > 20,
        "evidence of every scenario: {written:?}"
    );
    let traces = written
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "trace.json"))
        .count();
    assert_eq!(traces, DEPENDANTS + 1, "a step trace of every scenario");
    for file in &written {
        let bytes = std::fs::read(file).unwrap();
        for secret in [&app.session, &app.theme] {
            assert!(
                !contains(&bytes, secret),
                "{} holds {secret}",
                file.display()
            );
        }
    }
}

#[test]
fn a_failing_setup_skips_its_dependants_with_the_reason_in_every_report() {
    let app = LoginApp::start();
    let work = workdir(&[("shop.acl", &suite(&app, "signed in as bob"))]);
    let done = run(work.path(), &["--jobs", "4", "--reporter", "github"]);
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let scenarios = by_id(&json);
    assert_eq!(scenarios["auth-setup"]["status"], "failed");
    for i in 0..DEPENDANTS {
        let s = &scenarios[&format!("page-{i}")];
        assert_eq!(s["status"], "skipped", "{s}");
        assert_eq!(s["skip"]["kind"], "dependency");
        assert_eq!(s["skip"]["reason"], "dependency auth-setup failed");
        assert!(
            s["failure"].is_null(),
            "not a failure of the dependant: {s}"
        );
    }
    assert_eq!(json["counts"]["failed"], 1, "{}", json["counts"]);
    assert_eq!(json["counts"]["skipped"], DEPENDANTS);
    assert_eq!(app.logins(), 1);
    assert!(
        !work.path().join(".a3s-test/auth.json").exists(),
        "nothing was saved"
    );

    // Terminal and GitHub (stderr beside --json), JUnit and HTML name the reason.
    assert!(
        done.stderr.contains("::error "),
        "the set-up's failure is annotated"
    );
    assert!(
        done.stderr.contains("SKIP") && done.stderr.contains("dependency auth-setup failed"),
        "{}",
        done.stderr
    );
    assert!(
        done.stderr.contains(&format!("{DEPENDANTS} skipped")),
        "{}",
        done.stderr
    );
    let junit = std::fs::read_to_string(work.path().join("junit.xml")).unwrap();
    assert_eq!(
        junit
            .matches("message=\"dependency auth-setup failed\"")
            .count(),
        DEPENDANTS,
        "{junit}"
    );
    assert!(junit.contains("<skipped"), "{junit}");
    let html = std::fs::read_to_string(work.path().join("out/report/index.html")).unwrap();
    assert!(html.contains("dependency auth-setup failed"));
}

#[test]
fn shards_and_filters_pull_the_setup_in_and_the_shards_merge() {
    let app = LoginApp::start();
    let work = workdir(&[("shop.acl", &suite(&app, "signed in as alice"))]);
    let mut results = Vec::new();
    for shard in ["1/2", "2/2"] {
        let done = run(work.path(), &["--shard", shard, "--jobs", "4"]);
        assert_eq!(done.code, 0, "{shard}: {}\n{}", done.stdout, done.stderr);
        let json = done.json();
        let scenarios = by_id(&json);
        let setup = &scenarios["auth-setup"];
        assert_eq!(setup["status"], "passed", "shard {shard}: {json}");
        let file = work.path().join(format!("shard-{}.json", &shard[..1]));
        std::fs::write(&file, &done.stdout).unwrap();
        results.push((file, setup["dependency_only"] == true));
    }
    assert_eq!(
        results.iter().filter(|(_, pulled)| *pulled).count(),
        1,
        "one shard owns the set-up, the other pulls it in"
    );
    assert_eq!(app.logins(), 2, "once per shard");
    let merged = command(
        "merge-reports",
        &[
            results[0].0.to_str().unwrap(),
            results[1].0.to_str().unwrap(),
            "--json",
        ],
        work.path(),
    )
    .env_remove("GITHUB_ACTIONS")
    .spawn()
    .unwrap();
    let merged = finish(merged, RUN_BOUND);
    assert_eq!(merged.code, 0, "{}\n{}", merged.stdout, merged.stderr);
    let json = merged.json();
    assert_eq!(
        by_id(&json).len(),
        DEPENDANTS + 1,
        "the set-up once: {json}"
    );

    // --filter one dependant: the set-up joins it, reported as a dependency.
    let done = run(work.path(), &["--filter", "page-3"]);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let ids: Vec<&str> = json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["auth-setup", "page-3"]);
    assert_eq!(json["scenarios"][0]["dependency_only"], true);
    assert!(
        done.stderr.contains("run as a dependency"),
        "{}",
        done.stderr
    );
}

#[test]
fn last_failed_pulls_the_setup_back_in() {
    let app = LoginApp::start();
    let work = workdir(&[("shop.acl", &suite(&app, "signed in as alice"))]);
    // page-0 fails once: it expects a theme the app never stores.
    let broken = suite(&app, "signed in as alice").replacen("theme: remembered", "theme: light", 1);
    std::fs::write(work.path().join("shop.acl"), broken).unwrap();
    let first = run(work.path(), &["--jobs", "4"]);
    assert_eq!(first.code, 1, "{}", first.stderr);
    let again = run(work.path(), &["--last-failed"]);
    let json = again.json();
    let ids: Vec<&str> = json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["auth-setup", "page-0"], "{}", again.stderr);
    assert_eq!(json["scenarios"][0]["dependency_only"], true);
}

#[test]
fn a_missing_state_file_fails_its_scenario_with_a_code() {
    let app = LoginApp::start();
    let source = format!(
        r#"suite "shop" {{
    base_url = "{}"
    scenario "alone" {{
        surface = "web"
        storage_state = ".a3s-test/never-saved.json"
        navigate "open" {{ url = "/" }}
    }}
}}
"#,
        app.origin
    );
    let work = workdir(&[("shop.acl", &source)]);
    let done = run(work.path(), &[]);
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let failure = &done.json()["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"], "test.run.storage_state_missing",
        "{failure}"
    );
    assert!(
        failure["message"]
            .as_str()
            .unwrap()
            .contains(".a3s-test/never-saved.json"),
        "{failure}"
    );
}

#[test]
fn a_state_path_through_a_link_is_refused_and_nothing_is_written_there() {
    let app = LoginApp::start();
    let source =
        suite(&app, "signed in as alice").replace(".a3s-test/auth.json", "states/auth.json");
    let work = workdir(&[("shop.acl", &source)]);
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), work.path().join("states")).unwrap();
    let done = run(work.path(), &["--filter", "auth-setup"]);
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let failure = &done.json()["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.run.unsafe_path", "{failure}");
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).unwrap().count(),
        0,
        "nothing was written through the link"
    );
}

#[test]
fn an_expect_after_a_form_redirect_waits_for_a_document_with_content() {
    // The redirect's page arrives 300 ms after its head: until then the new document has no
    // element, and `expect` must read that as "not yet", not fail the resolver.
    let app = LoginApp::start();
    let source =
        suite(&app, "signed in as alice").replace("url = \"/?remember\"", "url = \"/?late\"");
    let work = workdir(&[("shop.acl", &source)]);
    let done = run(work.path(), &["--filter", "auth-setup"]);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
}

#[test]
fn the_project_file_names_the_state_every_suite_starts_from() {
    let app = LoginApp::start();
    let source = suite(&app, "signed in as alice")
        .replace("    storage_state = \".a3s-test/auth.json\"\n", "");
    assert!(
        !source.contains("storage_state ="),
        "only the project names it"
    );
    let project = "project \"shop\" {\n    storage_state = \".a3s-test/auth.json\"\n}\n";
    let work = workdir(&[("shop.acl", &source), (".a3s-test/project.acl", project)]);
    let done = run(work.path(), &["--filter", "page-1"]);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    assert_eq!(app.logins(), 1);
    assert_eq!(
        crate::harness::scenario_ids(&done.json()),
        ["shop/auth-setup", "shop/page-1"]
    );
}
