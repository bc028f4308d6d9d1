//! The whole review → repair → verify loop on the example app (`examples/react-vite/`), with real
//! processes only: `a3s-test dev` starts Vite on a copy of the app; the reviewer marks the pay
//! button through the real Review Overlay in the session's Chromium, by keys and pointer over a
//! CDP connection of the test's own (`tests/reviewer`; the session's driver refuses to operate
//! the overlay), and sends the finding, which the dev loop writes to the ledger; the test, acting as the agent,
//! claims it, edits the component's source file, lets Vite hot-reload it, completes and asks for
//! verification (`review_ready`, the example's unit check in the focused slice, a proven
//! candidate); the candidate is promoted into the copy's `suites/`, `a3s-test run suites/` passes,
//! the overlay's candidates read goes through Vite's plugin to the session (none after the passing
//! run; the failing step's element after a failing one), the reviewer accepts, and the overlay in
//! the page shows the finding resolved. Ctrl+C stops
//! `a3s-test dev` and Vite with it.

mod common;
mod dev_support;
mod reviewer;

use common::*;
use dev_support::*;
use reviewer::{overlay, page_button, Reviewer};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Vite's first start and a cold Chromium launch on a busy two-core machine.
const READY_WITHIN: Duration = Duration::from_secs(120);
/// A finding or a status reaching the terminal after the page or the ledger changed.
const EVENT_WITHIN: Duration = Duration::from_secs(30);
/// The component the finding is about, relative to the app's root.
const PAY_BUTTON: &str = "src/checkout/PayButton.tsx";
/// The text the repair adds, which the finding's success criterion expects.
const NOTE: &str = "Payments are encrypted";

/// The example app's folder in the repository.
fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/react-vite")
}

/// A copy of the example in a temporary folder, its `node_modules` linked, with every mention
/// of Vite's usual port (the dev server command and URL, the suite's base URL) moved to `port`.
fn copy_example(port: u16) -> tempfile::TempDir {
    let from = example();
    let modules = from.join("node_modules");
    assert!(
        modules.join(".bin/vite").exists(),
        "{}: run ./scripts/setup.sh",
        modules.display()
    );
    let dir = tempfile::tempdir().expect("temporary folder");
    for name in [
        "src",
        "suites",
        ".a3s-test",
        "index.html",
        "package.json",
        "tsconfig.json",
        "vite.config.ts",
    ] {
        copy_tree(&from.join(name), &dir.path().join(name));
    }
    std::os::unix::fs::symlink(&modules, dir.path().join("node_modules")).unwrap();
    for rel in [".a3s-test/project.acl", "suites/checkout.acl"] {
        let path = dir.path().join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("5173"), "{rel} names Vite's port");
        std::fs::write(&path, text.replace("5173", &port.to_string())).unwrap();
    }
    dir
}

/// Copy a file, or a folder with everything under it.
fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    }
}

/// `GET /__a3s-test/repairs/candidates?page=PAGE` on the dev server (Vite and the Test Kit's
/// plugin) with these extra headers, within [`EVENT_WITHIN`]: its status and JSON answer.
fn candidates(port: u16, page: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    use std::io::{Read, Write};
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("page", page)
        .finish();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("the dev server");
    stream.set_read_timeout(Some(EVENT_WITHIN)).unwrap();
    stream.set_write_timeout(Some(EVENT_WITHIN)).unwrap();
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    write!(
        stream,
        "GET /__a3s-test/repairs/candidates?{query} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nconnection: close\r\n{extra}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .expect("the dev server answers in time");
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head}"));
    let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, json)
}

/// The agent commands and the regression check run with this binary first on `PATH` (the
/// project's `e2e` check and the test itself run `a3s-test`).
struct App {
    dir: PathBuf,
    path: String,
}

impl App {
    /// `a3s-test args…` in the app's folder; the raw run. It runs as on the developer's machine
    /// beside `dev` (`CI` off): the regression run reuses the dev server `dev` started.
    fn run(&self, args: &[&str]) -> Run {
        run_with_env(&self.dir, args, &[("PATH", &self.path), ("CI", "false")])
    }

    /// `a3s-test args…`, which must exit 0; its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let run = self.run(args);
        assert_eq!(run.code, Some(0), "a3s-test {args:?}: {run:?}");
        run.stdout
    }

    /// `a3s-test args… --json`, which must exit 0; its answer.
    fn json(&self, args: &[&str]) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        let out = self.ok(&args);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}"))
    }

    /// Observe the page (the agent's view: the overlay is never in it) until `holds` is true of the observation, within
    /// `within`; the observation. Each observation is one bounded session turn.
    fn observe_until(&self, within: Duration, holds: impl Fn(&str) -> bool) -> String {
        let mut last = String::new();
        let seen = wait_until(within, || {
            last = self.ok(&[
                "agent",
                "observe",
                "--session",
                "dev",
                "--max-bytes",
                "16384",
            ]);
            holds(&last)
        });
        assert!(seen, "the page never showed it; last observation:\n{last}");
        last
    }
}

/// Aborts the `dev` session when the test ends (a no-op once `a3s-test dev` closed it).
struct AbortSession<'a>(&'a App);

impl Drop for AbortSession<'_> {
    fn drop(&mut self) {
        let _ = self
            .0
            .run(&["agent", "abort", "--session", "dev", "--json"]);
    }
}

#[test]
fn the_whole_loop_runs_on_the_example_from_the_overlay_to_resolved() {
    let port = free_port();
    let project = copy_example(port);
    let dir = project.path().to_path_buf();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_a3s-test")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let app = App {
        dir: dir.clone(),
        path: path.clone(),
    };

    // 1–2. `a3s-test dev` starts Vite from the project and opens the session on it. Should the
    // test fail after a `kill -9` of the command, the session's supervisor is aborted too.
    let _abort = AbortSession(&app);
    let mut dev = Dev::start_with(&dir, &[("PATH", &path)]);
    let ready = dev.event(READY_WITHIN, |e| e["event"] == "ready");
    assert_eq!(ready["server"], "started", "{ready}");
    let vite = pids(&ready["server_pids"]);
    assert!(!vite.is_empty(), "{ready}");
    let url = format!("http://127.0.0.1:{port}");
    assert!(ready["url"].as_str().unwrap().starts_with(&url), "{ready}");

    // 3. The reviewer, with their own mouse and keyboard (a CDP connection of the test's own:
    // the session's driver refuses to operate the overlay), fills the address and the card so the pay button
    // is enabled, focuses the pay button and presses E (element mode), clicks the button, writes
    // the instruction and an expected text, and presses Send.
    let reviewer = Reviewer::at(&dir.join(".a3s-test/agent-sessions/dev/session.json"), &url);
    reviewer.overlay_until(|t| t.contains("Review"));
    // The agent's observation of the same page shows none of the overlay.
    let page = app.observe_until(EVENT_WITHIN, |o| o.contains("textbox \"Full name\""));
    assert!(!page.contains("button \"Element\""), "{page}");
    for (label, value) in [
        ("Full name", "Ada Lovelace"),
        ("Street", "1 Analytical Row"),
        ("City", "London"),
        ("Postcode", "10115"),
        ("Card number", "4242 4242 4242 4242"),
        ("Expiry (MM/YY)", "12/30"),
        ("Security code", "123"),
    ] {
        let field = format!(
            "[...d.querySelectorAll('label')].find((l) => l.textContent.trim() === {label:?})?.control"
        );
        reviewer.type_into(&field, value);
    }
    // The pay button is enabled once the address and the card are complete; the reviewer moves the focus to
    // it (a click would submit the form: no mode is on yet) and presses E.
    reviewer.focus(&page_button("Pay"));
    reviewer.key("e");
    let pressed = wait_until(EVENT_WITHIN, || {
        reviewer
            .overlay_attribute("mode-element", "aria-pressed")
            .as_deref()
            == Some("true")
    });
    assert!(pressed, "element mode is on");
    reviewer.click(&page_button("Pay"));
    let editor = reviewer.overlay_until(|t| t.contains("Finding"));
    assert!(editor.contains("<button> Pay €43.80"), "{editor}");
    reviewer.type_into(
        &overlay("instruction"),
        "Say under the button that the payment is secure",
    );
    reviewer.click(&overlay("criterion-add"));
    reviewer.choose(&overlay("criterion-kind-0"), "Page text contains");
    reviewer.type_into(&overlay("criterion-value-0"), NOTE);
    reviewer.click(&overlay("send"));

    // The page posts it to the plugin, the plugin to the session: a finding event, queued.
    let finding = dev.event(EVENT_WITHIN, |e| e["event"] == "finding");
    assert_eq!(finding["status"], "queued", "{finding}");
    assert_eq!(finding["baseline"], true, "{finding}");
    let id = finding["finding_id"].as_str().unwrap().to_string();
    let id = id.as_str();
    let inbox = app.json(&["agent", "repair-inbox", "--session", "dev"]);
    assert_eq!(inbox["items"][0]["finding_id"], id, "{inbox}");
    // The reviewer's click on the overlay's Send sent it: a person's intake, and shown as such.
    assert_eq!(finding["sent_by"], "human", "{finding}");
    assert_eq!(inbox["items"][0]["sent_by"], "human", "{inbox}");

    // 4. The agent claims it, edits the component, and waits for Vite's hot reload in the page.
    let on = |verb: &str, rid: &str, extra: &[&str]| -> Value {
        let mut args = vec!["agent", verb, id, "--session", "dev", "--request-id", rid];
        args.extend_from_slice(extra);
        app.json(&args)
    };
    let claim = on("repair-claim", "r-claim", &[]);
    let attempt = claim["result"]["attempt_id"].as_str().unwrap().to_string();
    let with = ["--attempt-id", attempt.as_str()];
    on("repair-progress", "r-progress", &with);
    let source = dir.join(PAY_BUTTON);
    let before = std::fs::read_to_string(&source).unwrap();
    let after = before.replacen(
        "      </button>\n",
        &format!("      </button>\n      <p className=\"pay-note\">{NOTE}</p>\n"),
        1,
    );
    assert_ne!(before, after, "the edit applies to {PAY_BUTTON}");
    // Saved the way editors save (a new file renamed over the old one): Vite's watcher never
    // reads a truncated, half-written module, which it would serve until the next change.
    let saved = dir.join(".edit.tmp");
    std::fs::write(&saved, after).unwrap();
    std::fs::rename(&saved, &source).unwrap();
    app.observe_until(EVENT_WITHIN, |o| o.contains(NOTE));
    let changed = [
        "--attempt-id",
        attempt.as_str(),
        "--changed-file",
        PAY_BUTTON,
    ];
    let complete = on("repair-complete", "r-complete", &changed);
    assert_eq!(complete["result"]["to"], "verifying", "{complete}");

    let verified = on("repair-verify", "r-verify", &changed);
    assert_eq!(verified["passed"], true, "{verified}");
    assert_eq!(verified["result"]["to"], "review_ready", "{verified}");
    let record = &verified["record"];
    let slice = &record["slice"];
    assert_eq!(slice["scope"], "focused", "{slice}");
    assert_eq!(
        slice["selectedChecks"],
        serde_json::json!(["checkout-unit"]),
        "{slice}"
    );
    let unit = &record["checks"][0];
    assert_eq!(unit["id"], "checkout-unit", "{record}");
    assert_eq!(unit["mode"], "executed", "{unit}");
    assert_eq!(unit["outcome"], "passed", "{unit}");
    assert_eq!(record["criteria"][0]["passed"], true, "{record}");
    assert_eq!(record["candidate"]["proof"]["passed"], true, "{record}");

    // 5. The reviewer keeps the proven candidate in the app's suites; the whole suite passes.
    let promoted = app.json(&[
        "agent",
        "repair-promote",
        id,
        "--session",
        "dev",
        "--output",
        "suites/pay-button.acl",
    ]);
    assert_eq!(promoted["overwritten"], false, "{promoted}");
    let suite = std::fs::read_to_string(dir.join("suites/pay-button.acl")).unwrap();
    assert!(suite.contains(NOTE), "{suite}");
    let regression = app.run(&["run", "suites/"]);
    assert_eq!(regression.code, Some(0), "{regression:?}");
    assert!(
        regression.stdout.contains("2 scenarios: 2 passed"),
        "{}",
        regression.stdout
    );

    // The Review Overlay's candidates read, through the Vite plugin to the session's channel:
    // the latest run (the one that passed) has none on the checkout page …
    let home = format!("{url}/");
    let (status, feed) = candidates(port, &home, &[]);
    assert_eq!(status, 200, "{feed}");
    assert_eq!(feed["protocol"], "a3s.test.run-candidates/1", "{feed}");
    assert!(feed["run_id"].is_string(), "{feed}");
    assert_eq!(feed["candidates"], serde_json::json!([]), "{feed}");
    // … a failing run on the same page is one, the failing step's element its locator.
    std::fs::create_dir_all(dir.join("candidates")).unwrap();
    std::fs::write(
        dir.join("candidates/paid.acl"),
        format!(
            "suite \"paid\" {{\n    base_url = \"{url}\"\n\n    scenario \"label\" {{\n        name = \"The pay button says Paid\"\n        surface = \"web\"\n        navigate \"open\" {{ url = \"/\" }}\n        expect \"paid\" {{\n            rendered_text = \"Paid\"\n            target = role(\"button\", \"Pay\")\n        }}\n    }}\n}}\n"
        ),
    )
    .unwrap();
    let failing = app.run(&["run", "candidates/"]);
    assert_ne!(failing.code, Some(0), "{failing:?}");
    let (status, feed) = candidates(
        port,
        &format!("{url}/?step=2"),
        &[("sec-fetch-site", "same-origin")],
    );
    assert_eq!(status, 200, "{feed}");
    assert_ne!(feed["run_id"], Value::Null, "{feed}");
    let found = &feed["candidates"];
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{feed}");
    assert_eq!(found[0]["id"], "paid/label", "{feed}");
    assert_eq!(found[0]["status"], "failed", "{feed}");
    assert_eq!(
        found[0]["locator"],
        serde_json::json!({"kind": "role", "role": "button", "name": "Pay", "mode": "contains"}),
        "{feed}"
    );
    // The plugin refuses another server's page and another origin before asking the session.
    let (status, refused) = candidates(port, "http://evil.example/", &[]);
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        refused["error"]["code"],
        "test.session.repair_endpoint_origin"
    );
    let (status, refused) = candidates(port, &home, &[("origin", "http://evil.example")]);
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        refused["error"]["code"],
        "test.session.repair_endpoint_origin"
    );

    // … accepts it: resolved in the ledger, pushed to the page, shown by the overlay.
    let accepted = on("repair-accept", "r-accept", &[]);
    assert_eq!(accepted["result"]["to"], "resolved", "{accepted}");
    dev.event(EVENT_WITHIN, |e| {
        e["event"] == "statuses"
            && e["changes"].as_array().is_some_and(|changes| {
                changes
                    .iter()
                    .any(|c| c["finding_id"] == id && c["status"] == "resolved")
            })
    });
    let shown = reviewer.overlay_until(|t| t.contains("Status: Resolved"));
    assert!(shown.contains("Reopen"), "{shown}");
    let inspect = app.json(&["agent", "repair-inspect", id, "--session", "dev"]);
    assert_eq!(inspect["status"], "resolved", "{inspect}");

    // 6. Ctrl+C: the session and Vite stop, the command exits 0.
    dev.interrupt();
    dev.event(EVENT_WITHIN, |e| {
        e["event"] == "stopped" && e["server_left_running"] == false
    });
    assert_eq!(dev.exit(EVENT_WITHIN), Some(0));
    assert_eq!(gone(&vite, Duration::from_secs(15)), Vec::<u32>::new());
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing serves the app's port any more"
    );
}
