//! Nothing under `.a3s-test/` reaches outside the project (issue 27, item 4), through the real
//! binary: a session's `repairs.jsonl` linked to a file outside the project — a real ledger whose
//! last line is torn (no final newline) — is refused (`test.session.repair_unsafe_path`) by a
//! claim the ledger would refuse anyway and by a normal one, over the CLI and the MCP
//! `test_repair_claim` (the inbox names it under `warnings`); so are a linked `.a3s-test` and
//! `agent-sessions`. Each time the outside
//! file is byte-identical afterwards, its folder holds exactly what it held, and no `.torn` copy
//! appears in the workspace. (The old writer cut such a file to 0 bytes on a refused claim and
//! copied it into `repairs.jsonl.torn`.)

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::json;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

const UNSAFE: &str = "test.session.repair_unsafe_path";

/// A folder outside the project holding a real ledger of finding `f1` plus a torn last line.
struct Outside {
    dir: tempfile::TempDir,
    bytes: Vec<u8>,
}

impl Outside {
    fn new() -> Outside {
        let scratch = tempfile::tempdir().unwrap();
        import(scratch.path(), "s1", &doc(&[finding("f1", "make it blue")]));
        let mut bytes = std::fs::read(ledger_path(scratch.path(), "s1")).unwrap();
        bytes.extend_from_slice(br#"{"format":1,"seq":2,"at":"2026-"#);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("repairs.jsonl"), &bytes).unwrap();
        Outside { dir, bytes }
    }

    fn ledger(&self) -> PathBuf {
        self.dir.path().join("repairs.jsonl")
    }

    /// The outside file is byte-identical and nothing was created beside it.
    fn assert_untouched(&self) {
        assert_eq!(std::fs::read(self.ledger()).unwrap(), self.bytes);
        let names: Vec<_> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["repairs.jsonl"], "nothing was created outside");
    }
}

/// A project whose session `s1` has its ledger linked to the outside file.
fn linked_ledger(outside: &Outside) -> tempfile::TempDir {
    let project = tempfile::tempdir().unwrap();
    let session = project.path().join(".a3s-test/agent-sessions/s1");
    std::fs::create_dir_all(&session).unwrap();
    symlink(outside.ledger(), session.join("repairs.jsonl")).unwrap();
    project
}

fn claim_args<'a>(finding: &'a str, request: &'a str) -> [&'a str; 8] {
    [
        "agent",
        "repair-claim",
        finding,
        "--session",
        "s1",
        "--request-id",
        request,
        "--json",
    ]
}

/// A CLI refusal: exit 1, the stable code, a one-line message naming `path`.
fn assert_refused(root: &Path, args: &[&str], input: Option<&[u8]>, path: &Path) {
    let out = run(root, args, input);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
    let error = &json(&out)["error"];
    assert_eq!(error["code"], UNSAFE, "{args:?}: {error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(!message.contains('\n'), "{message}");
}

#[test]
fn a_linked_ledger_is_refused_by_the_cli_and_the_file_it_points_to_is_untouched() {
    let outside = Outside::new();
    let project = linked_ledger(&outside);
    let root = project.path();
    let link = root.join(".a3s-test/agent-sessions/s1/repairs.jsonl");
    // A claim the ledger refuses anyway (no such finding), then a claim it would grant.
    assert_refused(root, &claim_args("f9", "r1"), None, &link);
    assert_refused(root, &claim_args("f1", "r2"), None, &link);
    // The inbox lists what it can and names the refused ledger under `warnings`.
    let inbox = ok_json(
        root,
        &["agent", "repair-inbox", "--session", "s1", "--json"],
    );
    assert_eq!(inbox["items"], json!([]), "{inbox}");
    assert_eq!(inbox["warnings"][0]["code"], UNSAFE, "{inbox}");
    let inspect = ["agent", "repair-inspect", "f1", "--session", "s1", "--json"];
    assert_refused(root, &inspect, None, &link);
    let document = doc(&[finding("f2", "and green")]);
    let import = ["agent", "repair-import", "-", "--session", "s1", "--json"];
    assert_refused(root, &import, Some(document.as_bytes()), &link);
    // Human output: the code on stderr.
    let out = run(root, &claim_args("f1", "r3")[..7], None);
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("error[{UNSAFE}]")));
    assert!(!root
        .join(".a3s-test/agent-sessions/s1/repairs.jsonl.torn")
        .exists());
    outside.assert_untouched();
}

#[test]
fn a_linked_ledger_is_refused_by_mcp_test_repair_claim() {
    let outside = Outside::new();
    let project = linked_ledger(&outside);
    let root = project.path();
    let mcp = McpClient::start(root, &["--root".as_ref(), root.as_os_str()], DEADLINE);
    for (finding, request) in [("f9", "r1"), ("f1", "r2")] {
        let (refused, is_error) = mcp.result(
            "test_repair_claim",
            json!({"session": "s1", "finding": finding, "request_id": request}),
        );
        assert!(is_error, "{refused}");
        assert_eq!(refused["error"]["code"], UNSAFE, "{refused}");
    }
    let (inbox, _) = mcp.result("test_repair_inbox", json!({"session": "s1"}));
    assert_eq!(inbox["warnings"][0]["code"], UNSAFE, "{inbox}");
    assert!(!root
        .join(".a3s-test/agent-sessions/s1/repairs.jsonl.torn")
        .exists());
    outside.assert_untouched();
}

#[test]
fn a_linked_state_or_sessions_folder_takes_no_ledger_outside() {
    for linked in [".a3s-test", ".a3s-test/agent-sessions"] {
        let outside = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        let link = root.join(linked);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(outside.path(), &link).unwrap();
        let document = doc(&[finding("f1", "make it blue")]);
        let import = ["agent", "repair-import", "-", "--session", "s1", "--json"];
        assert_refused(root, &import, Some(document.as_bytes()), &link);
        assert_refused(root, &claim_args("f1", "r1"), None, &link);
        let inbox = ["agent", "repair-inbox", "--json"];
        assert_refused(root, &inbox, None, &link);
        assert_eq!(
            std::fs::read_dir(outside.path()).unwrap().count(),
            0,
            "{linked}: nothing was created outside"
        );
    }
}

#[test]
fn importing_from_a_fifo_is_refused_at_once_not_waited_on() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    let fifo = root.join("findings.json");
    let path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let file = fifo.display().to_string();
    let out = run(
        root,
        &["agent", "repair-import", &file, "--session", "s1", "--json"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let error = &json(&out)["error"];
    assert_eq!(
        error["code"], "test.session.repair_invalid_input",
        "{error}"
    );
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("not a regular file"), "{message}");
    assert!(!root.join(".a3s-test").exists(), "nothing was written");
}
