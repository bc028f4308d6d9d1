//! Helpers: run the binary with a deadline in its own process group, finding documents.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

pub const BIN: &str = env!("CARGO_BIN_EXE_a3s-test");
pub const DEADLINE: Duration = Duration::from_secs(60);

/// Run `a3s-test --root <root> args…` (stdin from `input`), with a deadline.
pub fn run(root: &Path, args: &[&str], input: Option<&[u8]>) -> Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env("A3S_TEST_ROOT", root)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = input {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(bytes).unwrap();
    }
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let status = match child.wait_timeout(DEADLINE).unwrap() {
        Some(s) => s,
        None => {
            // SAFETY: signals the process group of a child this test spawned.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            panic!("a3s-test {args:?} missed its deadline");
        }
    };
    Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
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
