//! A provider's authorization value and usage budget, end to end: the real binary, real Chromium
//! and a grounding provider written here on loopback that echoes the `Authorization` header it
//! receives into its answers (a box's text, a failure's message) and reports more usage than the
//! block allows. The value must reach the provider and nothing else: not one byte of it in any
//! command's output, the session folder, the session's report or anything else the tool wrote
//! under the project.

use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

/// The authorization value: distinctive, so any copy of it anywhere is found.
const SECRET: &str = "Bearer a3s-gr0und-s3cret-5b1e";
const SECRET_ENV: &str = "A3S_TEST_PROVIDER_AUTHORIZATION_ECHO";
const PROTOCOL: &str = "a3s.test.visual-grounding/1";

/// Answer one grounding request as provider `name` on `path`: `/echo` a success whose box text
/// is the Authorization header, `/fail` a failure whose message holds it, `/usage` a success
/// reporting 5 output units.
fn answer(path: &str, authorization: &str, request: &Value) -> Value {
    let bound = |name: &str, text: &str, output_units: u64| {
        json!({
            "status": "success",
            "protocol": PROTOCOL,
            "response": {
                "provider": name,
                "model": "echo-1",
                "observation_id": request["request"]["observation_id"],
                "screenshot_sha256": request["request"]["screenshot"]["sha256"],
                "boxes": [{ "x": 4.0, "y": 4.0, "width": 40.0, "height": 10.0,
                            "confidence": 0.5, "text": text }],
                "usage": { "input_units": 1, "output_units": output_units },
                "cost_microusd": 0
            }
        })
    };
    match path {
        "/echo" => bound("echo", &format!("seen {authorization}"), 1),
        "/usage" => bound("metered", "Checkout", 5),
        _ => json!({
            "status": "failure",
            "protocol": PROTOCOL,
            "error": { "code": "echo.denied",
                       "message": format!("no access with {authorization}"),
                       "retryable": false }
        }),
    }
}

/// The echoing provider; returns its origin and the Authorization values it received.
fn echo_provider() -> (String, Arc<Mutex<Vec<String>>>) {
    let (listener, origin) = crate::common::loopback();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    crate::common::serve_each(listener, move |stream| {
        let Some(request) = crate::common::read_request(&stream) else {
            return;
        };
        let authorization = request.header("authorization").unwrap_or("").to_string();
        log.lock().unwrap().push(authorization.clone());
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let reply = answer(&request.target, &authorization, &body);
        crate::common::respond(
            &stream,
            "200 OK",
            "application/json",
            "",
            reply.to_string().as_bytes(),
        );
    });
    (origin, seen)
}

/// `a3s-test args…` in `dir` with the authorization variable set; exit code, stdout, stderr.
fn with_secret(dir: &Path, args: &[&str]) -> Out {
    Out::from(crate::common::output_within(
        Command::new(env!("CARGO_BIN_EXE_a3s-test"))
            .args(args)
            .env(SECRET_ENV, SECRET)
            .current_dir(dir),
        None,
        TURN,
    ))
}

fn block(name: &str, endpoint: &str, extra: &str) -> String {
    format!(
        r#"    provider "{name}" {{
        kind = "visual_grounding"
        endpoint = "{endpoint}"
        model = "echo-1"
        authorization_env = "{SECRET_ENV}"
        timeout_ms = 20000
        max_cost_microusd = 0
        {extra}
    }}
"#
    )
}

/// Every regular file under `dir` holding `needle`, recursively.
fn files_holding(dir: &Path, needle: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let (path, kind) = (entry.path(), entry.file_type().unwrap());
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                let bytes = std::fs::read(&path).unwrap_or_default();
                if bytes.windows(needle.len()).any(|w| w == needle) {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    found
}

#[test]
fn the_authorization_value_reaches_the_provider_only_and_usage_is_held_to_its_budget() {
    let (origin, seen) = echo_provider();
    let page = "<!doctype html><title>Shop</title><button>Checkout</button>";
    let server = Server::start(&[("/", page)]);
    let dir = project();
    let d = dir.path();
    crate::common::write(
        d,
        ".a3s-test/project.acl",
        format!(
            "project \"shop\" {{\n{}{}{}}}\n",
            block("echo", &format!("{origin}/echo"), ""),
            block("fail", &format!("{origin}/fail"), ""),
            block(
                "metered",
                &format!("{origin}/usage"),
                "max_output_units = 1"
            ),
        ),
    );
    let mut outputs = Vec::new();
    let mut run = |args: &[&str]| {
        let out = with_secret(d, args);
        outputs.push(format!("{args:?}\n{}\n{}", out.stdout, out.stderr));
        out
    };
    let started = run(&[
        "agent",
        "start",
        &server.url(),
        "--session",
        "echo",
        "--json",
    ]);
    assert_eq!(started.code, 0, "{}{}", started.stdout, started.stderr);
    let groups = groups(d, "echo");
    let observed = run(&turn_args("echo", &["observe"]));
    assert_eq!(observed.code, 0, "{}", observed.stderr);

    // The provider echoes the value into a box's text: it is redacted in the answer.
    let g = run(&turn_args(
        "echo",
        &["ground", "Checkout", "--provider", "echo"],
    ));
    assert_eq!(g.code, 0, "{}{}", g.stdout, g.stderr);
    let g = g.json();
    assert_eq!(g["authority"], "advisory", "{g}");
    assert_eq!(g["places"][0]["box"]["text"], "seen [redacted]", "{g}");

    // A failure whose message holds the value: a coded refusal, the value redacted.
    let r = run(&turn_args(
        "echo",
        &["ground", "Checkout", "--provider", "fail"],
    ));
    assert_ne!(r.code, 0);
    let r = r.json();
    assert_eq!(r["error"]["code"], "test.session.provider", "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("test.provider.refused"), "{r}");
    assert!(message.contains("[redacted]"), "{r}");

    // More output units than the block allows: refused, its advice unused.
    let r = run(&turn_args(
        "echo",
        &["ground", "Checkout", "--provider", "metered"],
    ));
    assert_ne!(r.code, 0);
    let r = r.json();
    assert_eq!(r["error"]["code"], "test.session.provider", "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("test.provider.over_usage"), "{r}");
    assert!(message.contains("5 output units"), "{r}");
    assert!(message.contains("max_output_units"), "{r}");

    let finished = run(&[
        "agent",
        "finish",
        "--session",
        "echo",
        "--status",
        "passed",
        "--summary",
        "grounded with an authorized provider",
        "--json",
    ]);
    assert_eq!(finished.code, 0, "{}{}", finished.stdout, finished.stderr);
    assert_gone(groups);

    // The value did reach the provider, on every call…
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen, vec![SECRET.to_string(); 3]);
    // …and nothing else: no output, no file the tool wrote (session folder, report, logs).
    for out in &outputs {
        assert!(!out.contains(SECRET), "the value leaked into output: {out}");
        assert!(!out.contains("a3s-gr0und-s3cret"), "a part leaked: {out}");
    }
    let session_dir = d.join(".a3s-test/agent-sessions/echo");
    assert!(session_dir.join("session.json").is_file());
    let report = files_holding(&session_dir, b"grounded with an authorized provider");
    assert!(!report.is_empty(), "the session's report was written");
    assert_eq!(files_holding(d, b"a3s-gr0und-s3cret"), Vec::<String>::new());
}
