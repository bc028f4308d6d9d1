//! Helpers: run the binary with a deadline in its own process group, finding documents.

use crate::common::output_within;
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
