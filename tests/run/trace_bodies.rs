//! Request and response bodies in step traces (`a3s_test_driver::trace_body`), through the real
//! binary and real Chromium against `tests/fixtures/web/trace-bodies.html`: a small JSON exchange
//! is recorded both ways, in the trace and the report; an exchange with an `Authorization`
//! header or a `Set-Cookie` answer keeps no body and says "credentials"; an answer over 8 KiB
//! keeps its size only; a body naming a password or an `X-API-Key` exchange keeps none; a page
//! showing a password field keeps no body; an `env("NAME")` value typed and posted is in no file
//! the run writes;
//! and a passing step under `retain-on-failure` reads no body from the browser.

use crate::harness::{command, finish, trace_file, workdir, Finished, FixtureServer, RUN_BOUND};
use crate::secrets::files_under;
use serde_json::Value;
use std::path::Path;

const SUITE: &str = include_str!("../fixtures/suites/trace-bodies.acl");

const VAR: &str = "A3S_TEST_BODY_SECRET";

/// Typed into the page and posted as a form and as JSON: a space, quotes and a `!` make each
/// encoding differ from the text (and no credential-like word, which would keep the body out
/// for that reason instead of the scrub's).
const SECRET: &str = "A3S body \"hidden\" 9d!";

/// `a3s-test run` of `suite` with `SECRET` in the child's environment and every CDP command
/// printed on stderr.
fn run(server: &FixtureServer, work: &Path, suite: &str, extra: &[&str]) -> Finished {
    let mut args = vec![suite, "--json", "--base-url", server.base_url.as_str()];
    args.extend(extra);
    let mut run = command("run", &args, work);
    run.env(VAR, SECRET).env("A3S_TEST_CDP_TRACE", "1");
    finish(run.spawn().unwrap(), RUN_BOUND)
}

fn trace_of(work: &Path, result: &Value) -> Value {
    trace_file(work, &result["scenarios"][0])
}

/// The only request of step `index`.
fn request(trace: &Value, index: usize) -> &Value {
    let network = trace["steps"][index]["network"].as_array().unwrap();
    assert_eq!(network.len(), 1, "{network:#?}");
    &network[0]
}

#[test]
fn bodies_are_recorded_under_the_limit_and_never_for_credentials_or_secrets() {
    let server = FixtureServer::start();
    let work = workdir(&[("bodies.acl", SUITE)]);
    let done = run(
        &server,
        work.path(),
        "bodies.acl",
        &["--trace", "on", "--html", "report"],
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let trace = trace_of(work.path(), &done.json());

    // A small JSON exchange, both ways.
    let order = request(&trace, 1);
    assert_eq!(order["method"], "POST");
    let sent = &order["request_body"];
    assert_eq!(sent["mime_type"], "application/json", "{order:#}");
    assert_eq!(sent["text"], r#"{"item":"tea","qty":2}"#, "{order:#}");
    assert_eq!(sent["bytes"], 22);
    let answer = &order["response_body"];
    assert_eq!(answer["mime_type"], "application/json", "{order:#}");
    assert_eq!(answer["text"], r#"{"echo":"{\"item\":\"tea\",\"qty\":2}"}"#);
    assert!(answer.get("body_omitted").is_none());

    // Credentials in the exchange: neither body, and the reason named.
    let auth = request(&trace, 2);
    for body in [&auth["request_body"], &auth["response_body"]] {
        assert_eq!(body["body_omitted"], "credentials", "{auth:#}");
        assert!(body.get("text").is_none(), "{auth:#}");
    }
    let cookie = request(&trace, 3);
    assert!(cookie.get("request_body").is_none(), "a GET sends none");
    assert_eq!(cookie["response_body"]["body_omitted"], "credentials");
    assert!(cookie["response_body"].get("text").is_none());

    // Over the limit: the size, not the body.
    let big = &request(&trace, 4)["response_body"];
    assert_eq!(big["body_omitted"], "over 8 KiB", "{big:#}");
    assert_eq!(big["bytes"], 10_010);
    assert!(big.get("text").is_none());

    // A body that names a password (typed literally: no env() scrub knows it) and an exchange
    // with an X-API-Key header: neither body, the reason named, the values nowhere (below).
    for index in [5, 6] {
        let r = request(&trace, index);
        for body in [&r["request_body"], &r["response_body"]] {
            assert_eq!(body["body_omitted"], "credentials", "{r:#}");
            assert!(body.get("text").is_none(), "{r:#}");
        }
    }

    // The typed secret is posted as a form and as JSON, and echoed back: each body shows the
    // variable's name where the value was.
    let posted = trace["steps"][8]["network"].as_array().unwrap();
    assert_eq!(posted.len(), 2, "{posted:#?}");
    for r in posted {
        for side in ["request_body", "response_body"] {
            let text = r[side]["text"].as_str().unwrap_or_else(|| panic!("{r:#}"));
            assert!(
                text.contains("env(\"A3S_TEST_BODY_SECRET\")"),
                "{side}: {text}"
            );
        }
    }

    // The report shows the bodies in a collapsed, escaped block.
    let html = std::fs::read_to_string(work.path().join("report/index.html")).unwrap();
    assert!(html.contains("<details class=\"bodies\"><summary>Bodies</summary>"));
    assert!(html.contains("{&quot;item&quot;:&quot;tea&quot;,&quot;qty&quot;:2}"));
    assert!(html.contains("not recorded: credentials"));
    assert!(html.contains("not recorded: over 8 KiB"));

    // The secret in none of its encodings, in any file of the run.
    let encoded = [
        SECRET.to_string(),
        "A3S+body+%22hidden%22+9d%21".to_string(),
        r#"A3S body \"hidden\" 9d!"#.to_string(),
        r#"A3S body \\\"hidden\\\" 9d!"#.to_string(),
        "typed-literally-7".to_string(),
        "k-31337".to_string(),
    ];
    let files = files_under(work.path());
    assert!(files.len() > 5, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for form in &encoded {
            if let Some(at) = text.find(form.as_str()) {
                let from = text.floor_char_boundary(at.saturating_sub(300));
                panic!("{form} in {}: {}", file.display(), &text[from..at + 40]);
            }
        }
    }
    assert!(
        done.stderr.contains("Network.getResponseBody"),
        "{}",
        done.stderr
    );

    // A page that shows a password field: the same small exchange keeps neither body.
    let result = done.json();
    let private = result["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "private")
        .unwrap_or_else(|| panic!("{result:#}"));
    let path = private["trace"]["path"].as_str().unwrap();
    let trace: Value =
        serde_json::from_slice(&std::fs::read(work.path().join(path)).unwrap()).unwrap();
    let order = request(&trace, 1);
    for body in [&order["request_body"], &order["response_body"]] {
        assert_eq!(body["body_omitted"], "private page", "{order:#}");
        assert!(body.get("text").is_none(), "{order:#}");
    }
}

#[test]
fn a_passing_step_under_retain_on_failure_reads_no_body() {
    let server = FixtureServer::start();
    let failing = SUITE.replace("post answered 200", "post answered 500");
    let work = workdir(&[("bodies.acl", &failing)]);
    let done = run(&server, work.path(), "bodies.acl", &[]);
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let trace = trace_of(work.path(), &done.json());
    let steps = trace["steps"].as_array().unwrap();
    assert_eq!(steps.last().unwrap()["status"], "failed");
    // Every request is listed; the steps that sent them passed, so no body was read.
    assert!(steps[1]["network"].as_array().is_some_and(|n| n.len() == 1));
    for step in steps {
        for r in step["network"].as_array().into_iter().flatten() {
            assert!(
                r.get("request_body").is_none() && r.get("response_body").is_none(),
                "{r:#}"
            );
        }
    }
    assert!(
        !done.stderr.contains("Network.getResponseBody"),
        "{}",
        done.stderr
    );
}
