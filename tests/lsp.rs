//! `a3s-test lsp` end to end over real stdio pipes: Neovim's built-in client (headless) on a
//! broken suite — diagnostics with codes, hover, completion, a quick fix and formatting applied,
//! then the file admits — and raw frames for the protocol's edges: exit codes, a stream that is
//! not UTF-8, a client that goes away.

mod common;

use common::{output_within, run_in, workdir};
use serde_json::Value;
use std::process::Command;
use std::time::Duration;

/// Neovim starts, the server answers and both stop well within this.
const DEADLINE: Duration = Duration::from_secs(90);

const BROKEN: &str = r#"# A suite with a misspelt attribute, in a loose layout.
suite "shop" {
    scenario "cart" {
        surface = "web"
        navigate "open" { urll = "http://127.0.0.1:4173/cart" }
          click "add" {
              target = role("button", "Add") }
        
    }
}
"#;

#[test]
fn neovim_gets_diagnostics_hover_completion_a_fix_and_formatting() {
    let dir = workdir(&[("suites/shop.acl", BROKEN)]);
    let file = dir.path().join("suites/shop.acl");
    let out = dir.path().join("answers.json");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lsp/neovim.lua");
    let output = output_within(
        Command::new("nvim")
            .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
            .arg(format!("luafile {script}"))
            .env("A3S_TEST_BIN", env!("CARGO_BIN_EXE_a3s-test"))
            .env("A3S_LSP_FILE", &file)
            .env("A3S_LSP_OUT", &out)
            .current_dir(dir.path()),
        None,
        DEADLINE,
    );
    let answers: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!(
            "neovim wrote no answers ({e}); status {:?}, stderr {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    }))
    .unwrap();
    assert_eq!(answers["ok"], true, "{answers:#}");
    assert_eq!(answers["got_diagnostics"], true, "{answers:#}");
    assert_eq!(
        answers["diagnostics"][0]["code"], "test.spec.unknown_attribute",
        "{answers:#}"
    );
    assert_eq!(answers["diagnostics"][0]["line"], 4);
    let hover = answers["hover"]["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(hover.starts_with("**navigate** — Loads a URL"), "{hover}");
    let labels: Vec<&str> = answers["completion"]["result"]
        .as_array()
        .map(|items| items.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    for expected in ["click", "navigate", "expect", "use", "depends_on"] {
        assert!(labels.contains(&expected), "{expected} in {labels:?}");
    }
    assert_eq!(
        answers["steps"][0], "applied: Replace `urll` with `url`",
        "{answers:#}"
    );
    assert!(
        answers["formatting_edits"].as_i64().unwrap_or(0) > 0,
        "{answers:#}"
    );
    assert_eq!(answers["cleared"], true, "{answers:#}");
    assert_eq!(answers["stopped"], true, "{answers:#}");

    // The file Neovim wrote admits and is in the canonical layout.
    let check = run_in(dir.path(), &["check", "suites/shop.acl"]);
    assert_eq!(check.code, Some(0), "{}{}", check.stdout, check.stderr);
    let fmt = run_in(dir.path(), &["fmt", "--check", "suites/shop.acl"]);
    assert_eq!(fmt.code, Some(0), "{}{}", fmt.stdout, fmt.stderr);
}

/// One message framed as the protocol frames it.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn json_frame(value: Value) -> Vec<u8> {
    frame(value.to_string().as_bytes())
}

fn handshake() -> Vec<u8> {
    let mut input = json_frame(serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} }
    }));
    input.extend(json_frame(serde_json::json!({
        "jsonrpc": "2.0", "method": "initialized", "params": {}
    })));
    input
}

fn serve(input: &[u8]) -> std::process::Output {
    serve_in(&workdir(&[]), input)
}

fn serve_in(dir: &tempfile::TempDir, input: &[u8]) -> std::process::Output {
    output_within(
        Command::new(env!("CARGO_BIN_EXE_a3s-test"))
            .arg("lsp")
            .current_dir(dir.path()),
        Some(input),
        DEADLINE,
    )
}

#[test]
fn shutdown_then_exit_ends_with_status_0_and_exit_alone_with_1() {
    let mut input = handshake();
    input.extend(json_frame(
        serde_json::json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }),
    ));
    input.extend(json_frame(
        serde_json::json!({ "jsonrpc": "2.0", "method": "exit" }),
    ));
    let output = serve(&input);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(r#""id":2,"result":null"#), "{stdout}");

    let mut input = handshake();
    input.extend(json_frame(
        serde_json::json!({ "jsonrpc": "2.0", "method": "exit" }),
    ));
    assert_eq!(serve(&input).status.code(), Some(1));
}

#[test]
fn a_stream_that_is_not_utf8_or_that_ends_early_stops_the_server_with_a_reason() {
    let mut input = handshake();
    input.extend(frame(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"\xff\xfe\"}",
    ));
    let output = serve(&input);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("a3s-test lsp:"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let output = serve(&handshake());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("without `exit`"), "{stderr}");
}

#[test]
fn a_suite_may_use_the_groups_of_the_libraries_the_project_includes() {
    let suite = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        use \"sign-in\" {}\n    }\n}\n";
    let dir = workdir(&[
        (".a3s-test/project.acl", "project \"p\" {\n    include = [\"shared/*.acl\"]\n}\n"),
        ("shared/auth.acl", "library \"auth\" {\n    steps \"sign-in\" {\n        navigate \"login\" { url = \"http://127.0.0.1:4173/login\" }\n    }\n}\n"),
        ("suites/s.acl", suite),
    ]);
    let check = run_in(dir.path(), &["check", "suites/s.acl"]);
    assert_eq!(check.code, Some(0), "{}{}", check.stdout, check.stderr);
    let mut input = handshake();
    input.extend(json_frame(serde_json::json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": "file:///project/suites/s.acl", "languageId": "acl", "version": 1, "text": suite } }
    })));
    input.extend(json_frame(serde_json::json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": "file:///project/suites/t.acl", "languageId": "acl", "version": 1, "text": suite.replace("sign-in", "sign-out") } }
    })));
    input.extend(json_frame(
        serde_json::json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }),
    ));
    input.extend(json_frame(
        serde_json::json!({ "jsonrpc": "2.0", "method": "exit" }),
    ));
    let output = serve_in(&dir, &input);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let published: Vec<Value> = stdout
        .split("Content-Length")
        .filter_map(|m| {
            m.find('{')
                .and_then(|at| serde_json::from_str::<Value>(&m[at..]).ok())
        })
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .collect();
    assert_eq!(published.len(), 2, "{stdout}");
    assert_eq!(
        published[0]["params"]["diagnostics"],
        serde_json::json!([]),
        "{stdout}"
    );
    assert_eq!(
        published[1]["params"]["diagnostics"][0]["code"], "test.spec.unknown_group",
        "{stdout}"
    );
}
