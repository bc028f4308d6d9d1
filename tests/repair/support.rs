//! Helpers: run the binary with a deadline in its own process group, finding documents.

use crate::common::output_within;
use a3s_test_runner::session::client;
use a3s_test_runner::session::repair_page::{ObserveRequest, PageVerification};
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_a3s-test");
pub const DEADLINE: Duration = Duration::from_secs(60);

/// Run `a3s-test --root <root> args…` (stdin from `input`), with a deadline.
pub fn run(root: &Path, args: &[&str], input: Option<&[u8]>) -> Output {
    output_within(
        Command::new(BIN).args(args).env("A3S_TEST_ROOT", root),
        input,
        DEADLINE,
    )
}

/// Parse stdout as JSON.
pub fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A finding item.
pub fn finding(id: &str, instruction: &str) -> serde_json::Value {
    serde_json::json!({
        "id": id,
        "createdAt": "2026-01-01T00:00:00Z",
        "target": { "kind": "node", "nodeIds": [format!("n-{id}")] },
        "instruction": instruction,
        "successCriteria": ["it is blue"],
        "intent": "fix",
        "severity": "important",
        "status": "queued",
        "context": { "untrusted": true, "route": "/" }
    })
}

/// A document with `items`.
pub fn doc(items: &[serde_json::Value]) -> String {
    serde_json::json!({ "protocol": "a3s.test.repair/1", "repairs": items }).to_string()
}

/// The ledger file of session `s` under `root`.
pub fn ledger_path(root: &Path, s: &str) -> std::path::PathBuf {
    root.join(".a3s-test/agent-sessions")
        .join(s)
        .join("repairs.jsonl")
}

/// Run `args` under `root` (stdin from `input`), expect success, and return the JSON answer (both
/// outputs in the failure message, so a refusal says why).
pub fn ok_json_with(root: &Path, args: &[&str], input: Option<&[u8]>) -> serde_json::Value {
    let out = run(root, args, input);
    assert!(
        out.status.success(),
        "a3s-test {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

/// [`ok_json_with`] without input.
pub fn ok_json(root: &Path, args: &[impl AsRef<str>]) -> serde_json::Value {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    ok_json_with(root, &args, None)
}

/// `agent repair-import -` of `document` into `session`; expects success, returns the answer.
pub fn import(root: &Path, session: &str, document: &str) -> serde_json::Value {
    let args = [
        "agent",
        "repair-import",
        "-",
        "--session",
        session,
        "--json",
    ];
    ok_json_with(root, &args, Some(document.as_bytes()))
}

/// `agent start <origin>/ --session <session>`; expects an active session, which the returned
/// guard aborts when the test ends.
pub fn start_session<'a>(root: &'a Path, origin: &str, session: &'a str) -> AbortOnDrop<'a> {
    let url = format!("{origin}/");
    let started = ok_json(
        root,
        &["agent", "start", &url, "--session", session, "--json"],
    );
    assert_eq!(started["state"], "active", "{started}");
    AbortOnDrop(root, session)
}

/// One `RepairObserve` turn on the socket of `session`'s supervisor (steps 1–5 of a repair
/// verification in its live page); the typed answer, which must be an ok one.
pub fn repair_observe(root: &Path, session: &str, request: ObserveRequest) -> PageVerification {
    let record = root
        .join(".a3s-test/agent-sessions")
        .join(session)
        .join("session.json");
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(record).unwrap()).unwrap();
    let socket = std::path::PathBuf::from(file["socket"].as_str().unwrap());
    client::call(&socket, request, Duration::from_secs(90)).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The failed step (as its JSON name) and the code of a page verification, if it failed.
pub fn failure_code(v: &PageVerification) -> Option<(String, String)> {
    v.failure.as_ref().map(|f| {
        let step = serde_json::to_value(f.step).unwrap();
        (step.as_str().unwrap().to_string(), f.code.clone())
    })
}

/// Aborts the session (and so its browser) when the test ends, pass or fail.
pub struct AbortOnDrop<'a>(pub &'a Path, pub &'a str);

impl AbortOnDrop<'_> {
    /// The supervisor's and the browser's process groups, from the session record.
    pub fn groups(&self) -> [u32; 2] {
        let path = self
            .0
            .join(".a3s-test/agent-sessions")
            .join(self.1)
            .join("session.json");
        let file: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let o = &file["ownership"];
        [
            o["supervisor_pgid"].as_u64().unwrap() as u32,
            o["browser_pgid"].as_u64().unwrap() as u32,
        ]
    }
}

impl Drop for AbortOnDrop<'_> {
    fn drop(&mut self) {
        let _ = run(
            self.0,
            &["agent", "abort", "--session", self.1, "--json"],
            None,
        );
    }
}
