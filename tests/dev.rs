//! `a3s-test dev` end to end, with real processes and real Chromium: the project's dev server is
//! `a3s-test serve` on a folder holding a page with the built Test Kit (`testkit/dist`). The
//! command becomes ready and says so; a finding the page sends after that (a click driven
//! through the session's `exec`) reaches the ledger with no drain command; the channel refuses a
//! wrong token (401) and a wrong content type (415) and takes a valid document; SIGINT stops the
//! browser, the supervisor and the dev server (checked by the pids the command reported) and
//! removes `channel.json`. A server that was already running is attached to and left running.

mod common;
mod dev_support;

use common::*;
use dev_support::*;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Long enough for a cold Chromium launch on a busy two-core machine.
const READY_WITHIN: Duration = Duration::from_secs(90);
const EVENT_WITHIN: Duration = Duration::from_secs(30);

/// A page with the Test Kit and no `repairEndpoint`: a sent finding waits in the page queue.
const PAGE: &str = r#"<!doctype html><html><head><title>Checkout</title></head><body>
<main><h1>Checkout</h1><button id="pay" data-testid="pay">Pay</button>
<button id="send">Send a finding</button><p id="statuses"></p></main>
<script type="module">
import { installTestKit } from "/kit/index.js";
const bridge = installTestKit({ enabled: true, page: { id: "checkout" } });
bridge.subscribeRepairs(() => {
  document.getElementById("statuses").textContent =
    bridge.listRepairs().map((r) => r.id + ":" + r.status).join(" ");
});
document.getElementById("send").addEventListener("click", () => {
  const pay = bridge.snapshot().nodes.find((n) => n.testId === "pay").id;
  bridge.submitRepair({ id: "finding-late", target: { kind: "node", nodeIds: [pay] },
    instruction: "Say what the payment costs", intent: "fix", severity: "important" });
});
</script></body></html>"#;

/// A project whose dev server serves `site/` (the page and the built Test Kit) on `port`.
fn project(port: u16) -> tempfile::TempDir {
    let dir = workdir(&[("site/index.html", PAGE)]);
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("testkit/dist");
    for entry in std::fs::read_dir(&dist)
        .expect("testkit/dist: run ./scripts/setup.sh")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "js") {
            let name = entry.file_name();
            write(
                dir.path(),
                &format!("site/kit/{}", name.to_string_lossy()),
                std::fs::read(&path).unwrap(),
            );
        }
    }
    let acl = format!(
        "project \"dev-test\" {{\n    version = 1\n\n    dev_server {{\n        command = [\"a3s-test\", \"serve\", \"site\", \"--port\", \"{port}\"]\n        url = \"http://127.0.0.1:{port}/\"\n        startup_timeout_ms = 20000\n    }}\n}}\n"
    );
    write(dir.path(), ".a3s-test/project.acl", acl);
    dir
}

/// One HTTP/1.1 POST to `url` (loopback); the status code and body.
fn post(url: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let request = common::post_request(host, &format!("/{path}"), headers, body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// [`post`] of a JSON document with this `authorization` header.
fn post_json(url: &str, authorization: &str, body: &str) -> (u16, String) {
    let headers = [
        ("authorization", authorization),
        ("content-type", "application/json"),
    ];
    post(url, &headers, body)
}

fn ledger_has(dir: &Path, id: &str) -> bool {
    std::fs::read_to_string(dir.join(".a3s-test/agent-sessions/dev/repairs.jsonl"))
        .is_ok_and(|text| text.contains(&format!("\"{id}\"")))
}

#[test]
fn dev_starts_the_server_drains_live_guards_the_channel_and_stops_what_it_started() {
    let port = free_port();
    let project = project(port);
    let dir = project.path();
    let mut dev = Dev::start(dir);
    let ready = dev.event(READY_WITHIN, |e| e["event"] == "ready");
    assert_eq!(ready["server"], "started", "{ready}");
    assert_eq!(ready["headed"], false, "{ready}");
    assert_eq!(
        ready["next"],
        json!(["a3s-test agent repair-inbox --session dev", "a3s-test mcp"])
    );
    let mut owned = pids(&ready["server_pids"]);
    assert!(!owned.is_empty(), "{ready}");
    owned.push(ready["browser_pid"].as_u64().expect("a browser pid") as u32);
    owned.push(ready["supervisor_pid"].as_u64().expect("a supervisor pid") as u32);

    // The channel file: private, the agreed shape, the token the channel checks.
    let file = std::path::PathBuf::from(ready["channel_file"].as_str().unwrap());
    assert_eq!(
        file,
        dir.canonicalize()
            .unwrap()
            .join(".a3s-test/dev/dev/channel.json")
            .canonicalize()
            .unwrap()
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let channel: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(channel["protocol"], "a3s.test.dev-channel/1");
    assert_eq!(channel["url"], ready["channel"]);
    assert_eq!(channel["pid"], dev.child.id());
    let token = channel["token"].as_str().unwrap().to_string();
    assert!(
        token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{token}"
    );
    let url = channel["url"].as_str().unwrap().to_string();
    let doc = json!({ "protocol": "a3s.test.repair/1", "repairs": [{
        "id": "finding-posted", "createdAt": "2026-01-01T00:00:00Z",
        "target": { "kind": "node", "nodeIds": ["n-title"] },
        "instruction": "Make the title larger", "successCriteria": ["it is larger"],
        "intent": "fix", "severity": "important", "status": "queued",
        "context": { "untrusted": true, "route": "/" } }] })
    .to_string();
    let bearer = format!("Bearer {token}");
    let wrong = format!("Bearer {}", "0".repeat(64));
    let (status, body) = post_json(&url, &wrong, &doc);
    assert_eq!(status, 401, "{body}");
    assert!(
        body.contains("test.session.repair_endpoint_unauthorized"),
        "{body}"
    );
    let (status, body) = post(&url, &[("content-type", "application/json")], &doc);
    assert_eq!(status, 401, "{body}");
    let (status, body) = post(
        &url,
        &[("authorization", &bearer), ("content-type", "text/plain")],
        &doc,
    );
    assert_eq!(status, 415, "{body}");
    assert!(
        !ledger_has(dir, "finding-posted"),
        "a refused request appended nothing"
    );

    // A finding sent in the page reaches the ledger with no drain command.
    let exec = run_in(
        dir,
        &[
            "agent",
            "exec",
            "--session",
            "dev",
            "click { target = css(\"#send\") }",
        ],
    );
    assert_eq!(exec.code, Some(0), "{exec:?}");
    let finding = dev.event(EVENT_WITHIN, |e| {
        e["event"] == "finding" && e["finding_id"] == "finding-late"
    });
    assert_eq!(finding["source"], "page", "{finding}");
    assert_eq!(finding["status"], "queued", "{finding}");
    // The page's own button called `submitRepair`: page code sent it, however real the click.
    assert_eq!(finding["sent_by"], "page_script", "{finding}");
    assert!(ledger_has(dir, "finding-late"));

    // An agent claims it: the ledger's new status is mirrored into the page.
    let claim = run_in(
        dir,
        &[
            "agent",
            "repair-claim",
            "finding-late",
            "--session",
            "dev",
            "--request-id",
            "req-claim-1",
        ],
    );
    assert_eq!(claim.code, Some(0), "{claim:?}");
    // The push of the intake status may come first: wait for the one that carries the claim.
    dev.event(EVENT_WITHIN, |e| {
        e["event"] == "statuses"
            && e["applied"].as_u64() >= Some(1)
            && e["changes"].as_array().is_some_and(|changes| {
                changes
                    .iter()
                    .any(|c| c["finding_id"] == "finding-late" && c["status"] == "claimed")
            })
    });
    let shown = run_in(
        dir,
        &[
            "agent",
            "exec",
            "--session",
            "dev",
            "expect \"claimed\" { text = \"finding-late:claimed\" }",
        ],
    );
    assert_eq!(shown.code, Some(0), "{shown:?}");

    // A valid document over the channel with the token: the endpoint's own answer.
    let (status, body) = post_json(&url, &bearer, &doc);
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["accepted"], json!(["finding-posted"]), "{answer}");
    let posted = dev.event(EVENT_WITHIN, |e| {
        e["event"] == "finding" && e["finding_id"] == "finding-posted"
    });
    // A document that does not say who sent it is page code's.
    assert_eq!(posted["sent_by"], "page_script", "{posted}");

    // SIGINT: everything it started goes, and nothing is left of the channel.
    assert!(owned.iter().all(|p| alive(*p)), "{owned:?}");
    dev.interrupt();
    dev.event(EVENT_WITHIN, |e| {
        e["event"] == "stopped" && e["server_left_running"] == false
    });
    assert_eq!(dev.exit(EVENT_WITHIN), Some(0));
    assert_eq!(gone(&owned, Duration::from_secs(15)), Vec::<u32>::new());
    assert!(!file.exists(), "channel.json is removed on exit");

    // Run again with the same session: the closed session is reopened, its ledger kept.
    let mut again = Dev::start(dir);
    let ready = again.event(READY_WITHIN, |e| e["event"] == "ready");
    assert_eq!(ready["server"], "started", "{ready}");
    let inbox = run_in(
        dir,
        &["agent", "repair-inbox", "--session", "dev", "--json"],
    );
    assert_eq!(inbox.code, Some(0), "{inbox:?}");
    assert!(inbox.stdout.contains("finding-late"), "{}", inbox.stdout);
    again.interrupt();
    again.event(EVENT_WITHIN, |e| e["event"] == "stopped");
    assert_eq!(again.exit(EVENT_WITHIN), Some(0));
}

#[test]
fn dev_attaches_to_a_running_server_and_leaves_it_running() {
    let port = free_port();
    let project = project(port);
    let dir = project.path();
    let mut serve = Command::new(env!("CARGO_BIN_EXE_a3s-test"));
    serve
        .args(["serve", "site", "--port", &port.to_string()])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let server = Group(spawn_grouped(&mut serve));
    assert!(
        wait_until(Duration::from_secs(20), || TcpStream::connect((
            "127.0.0.1",
            port
        ))
        .is_ok()),
        "the test's own server did not listen"
    );
    let mut dev = Dev::start(dir);
    let ready = dev.event(READY_WITHIN, |e| e["event"] == "ready");
    assert_eq!(ready["server"], "attached", "{ready}");
    assert_eq!(ready["server_pids"], json!([]));
    let browser = ready["browser_pid"].as_u64().unwrap() as u32;
    dev.interrupt();
    dev.event(EVENT_WITHIN, |e| {
        e["event"] == "stopped" && e["server_left_running"] == true
    });
    assert_eq!(dev.exit(EVENT_WITHIN), Some(0));
    assert_eq!(gone(&[browser], Duration::from_secs(15)), Vec::<u32>::new());
    assert!(alive(server.0.id()), "the server it attached to still runs");
    assert!(TcpStream::connect(("127.0.0.1", port)).is_ok());
}

#[test]
fn a_linked_dev_folder_refuses_the_channel_before_anything_starts() {
    // Issue 27 item 4: the channel's token is never written through a link, and no server or
    // browser starts. The project's dev server would be `false`; it is never run.
    let dir = workdir(&[(
        ".a3s-test/project.acl",
        "project \"p\" {\n    dev_server {\n        command = [\"false\"]\n        url = \"http://127.0.0.1:9/\"\n    }\n}\n",
    )]);
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("keep.txt"), b"kept").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join(".a3s-test/dev")).unwrap();
    let out = run_in(dir.path(), &["dev", "--session", "d1", "--json"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("error[test.session.unsafe_path]: failed to open the dev channel")
            && out.stderr.contains(".a3s-test/dev`: it is a symbolic link"),
        "{}",
        out.stderr
    );
    let names: Vec<_> = std::fs::read_dir(outside.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["keep.txt"]);
    assert_eq!(
        std::fs::read(outside.path().join("keep.txt")).unwrap(),
        b"kept"
    );
}
