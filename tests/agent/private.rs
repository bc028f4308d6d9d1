//! Private values end to end (issue: "nothing private in any output"): a real page with the real
//! Test Kit (`testkit/dist`, its `redact` naming a field and a region) and a card number, expiry,
//! security code, one-time code and password. An agent observes it in every view, inspects its
//! Page Context, types each secret through a different channel (a verb, `exec`, MCP), expects one
//! back, fails a step (failure evidence), takes a screenshot and promotes the session; then a
//! suite reading the secrets from the environment fails on the product with every report. Every
//! answer, stream and file the session, the runs and the reports wrote is searched: no secret is
//! in any of them — and the promoted suite, run with the variables set, passes.

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const CARD: &str = "4000 0566 5566 5556";
const EXPIRY: &str = "EXP-09/39-q";
const CVC: &str = "CVC-qx41";
const OTP: &str = "OTP-77zq-1";
const PASSWORD: &str = "pw-Zq81-never-shown";
const HOLDER: &str = "Hedy Lamarr Private";
const SAVED: &str = "SAVEDCARD-0005";

/// Every value that must stay in the page.
const SECRETS: &[&str] = &[CARD, EXPIRY, CVC, OTP, PASSWORD, HOLDER, SAVED];

/// The page: A3S Test's own rule covers the `cc-*`, one-time-code and password fields; the
/// Test Kit's `redact` covers the card holder's field (no token) and the saved-card region.
const PAGE: &str = r#"<!doctype html><html><head><title>Pay</title></head><body>
<main>
<h1>Payment</h1>
<form>
<label for="card">Card number</label><input id="card" autocomplete="cc-number">
<label for="exp">Expiry</label><input id="exp" autocomplete="cc-exp">
<label for="cvc">Security code</label><input id="cvc" autocomplete="cc-csc">
<label for="otp">One-time code</label><input id="otp" autocomplete="one-time-code">
<label for="pw">Password</label><input id="pw" type="password">
<label for="holder">Name on card</label><input id="holder" class="private">
</form>
<section class="private" aria-label="Saved card"><p>Saved card SAVEDCARD-0005</p></section>
<p role="status">Ready to pay</p>
</main>
<script type="module">
import { installTestKit } from "/kit/index.js";
installTestKit({ enabled: true, page: { id: "pay" }, redact: [".private"] });
</script>
</body></html>"#;

/// The page and the built Test Kit under `/kit/`.
fn pages() -> Vec<(String, String)> {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testkit/dist");
    let entries = std::fs::read_dir(&dist).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): build the Test Kit with ./scripts/setup.sh",
            dist.display()
        )
    });
    let mut out = vec![("/".to_string(), PAGE.to_string())];
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".js") {
            out.push((
                format!("/kit/{name}"),
                std::fs::read_to_string(entry.path()).unwrap(),
            ));
        }
    }
    out
}

/// Every regular file under `dir`, at any depth (links not followed).
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
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

/// No secret in `text`; `what` says where it came from.
fn clean(what: &str, text: &str) {
    for secret in SECRETS {
        assert!(!text.contains(secret), "{what} holds {secret:?}:\n{text}");
    }
}

/// The `@eN` of the control named `name`.
fn field(observation: &Value, name: &str) -> String {
    ref_of(observation, "textbox", name)
}

/// Observe until the Test Kit's bridge is seen (a module script installs it after load).
fn observe_with_page_context(d: &Path, session: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let obs = turn(d, session, &["observe"]);
        if obs["page_context"].is_object() {
            return obs;
        }
        assert!(Instant::now() < until, "no Page Context within 20 s: {obs}");
    }
}

/// The suite a team would write: secrets from the environment; three expectations that fail on
/// the product by reading private values and the redacted region.
const SUITE: &str = r#"suite "pay" {
    scenario "pays" {
        surface = "web"
        expect_timeout_ms = 300
        navigate "open" { url = "/" }
        fill "card" {
            target = label("Card number")
            value = env("CARD_NUMBER")
        }
        fill "holder" {
            target = label("Name on card")
            value = env("CARD_HOLDER")
        }
        expect "card-shown" {
            target = label("Card number")
            value = "0000 0000 0000 0000"
        }
    }
    scenario "saved-card" {
        surface = "web"
        expect_timeout_ms = 300
        navigate "open" { url = "/" }
        expect "saved" {
            target = css("section.private")
            rendered_text = "Saved card 1111"
        }
    }
    scenario "page-text" {
        surface = "web"
        expect_timeout_ms = 300
        navigate "open" { url = "/" }
        fill "password" {
            target = label("Password")
            value = env("PASSWORD")
        }
        expect "welcome" { text = "Welcome back" }
    }
}
"#;

#[test]
fn no_private_value_reaches_any_answer_file_report_or_promoted_suite() {
    let pages = pages();
    let borrowed: Vec<(&str, &str)> = pages
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_str()))
        .collect();
    let server = Server::start(&borrowed);
    let dir = project();
    let d = dir.path();
    let mut answers: Vec<String> = Vec::new();
    let groups = start(d, "pay", &server.url(), &[]);
    let obs = observe_with_page_context(d, "pay");
    let before = obs["observation"].as_u64().unwrap().to_string();

    // Each secret goes in through another channel.
    let typed = |words: &[&str], answers: &mut Vec<String>| {
        let out = a3s(d, &turn_args("pay", words));
        answers.extend([out.stdout.clone(), out.stderr.clone()]);
        assert_eq!(out.code, 0, "{words:?}: {}\n{}", out.stdout, out.stderr);
    };
    typed(&["fill", &field(&obs, "Card number"), CARD], &mut answers);
    let obs = turn(d, "pay", &["observe"]);
    typed(&["type", &field(&obs, "Security code"), CVC], &mut answers);
    typed(
        &[
            "exec",
            &format!("fill \"expiry\" {{\n target = label(\"Expiry\")\n value = {EXPIRY:?}\n}}"),
        ],
        &mut answers,
    );
    typed(
        &[
            "exec",
            &format!("fill {{\n target = label(\"Password\")\n value = {PASSWORD:?}\n}}"),
        ],
        &mut answers,
    );
    let mcp = McpClient::start(d, &[], TURN);
    for (target, text) in [
        ("label(\"One-time code\")", OTP),
        ("label(\"Name on card\")", HOLDER),
    ] {
        let (v, refused) = mcp.result(
            "test_fill",
            json!({ "session": "pay", "target": target, "text": text }),
        );
        assert!(!refused, "{v}");
        answers.push(v.to_string());
    }
    // Expected back: the page really holds the value (the searches below are not vacuous).
    let (v, refused) = mcp.result(
        "test_exec",
        json!({ "session": "pay", "statement":
            format!("expect {{\n target = label(\"Card number\")\n value = {CARD:?}\n}}") }),
    );
    assert!(!refused, "{v}");
    answers.push(v.to_string());
    drop(mcp);
    // A value assertion that fails quotes neither side.
    let differs = a3s(
        d,
        &turn_args(
            "pay",
            &[
                "exec",
                "expect {\n target = label(\"Card number\")\n value = \"4000\"\n immediate = true\n}",
            ],
        ),
    );
    assert_ne!(differs.code, 0);
    answers.extend([differs.stdout, differs.stderr]);

    // Every view of the page, its Page Context, and evidence: a screenshot, and the failure
    // evidence (screenshot, accessibility dump) of a step that fails in the page.
    let full = turn(d, "pay", &["observe", "--full"]);
    let views = [
        full.clone(),
        turn(d, "pay", &["observe", "--since", &before]),
        turn(d, "pay", &["inspect"]),
    ];
    let card = full["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "Card number")
        .unwrap_or_else(|| panic!("no card line in {full}"));
    assert_eq!(card["value"], "[redacted]", "{card}");
    answers.extend(views.iter().map(Value::to_string));
    let text_view = a3s(d, &["agent", "observe", "--session", "pay", "--full"]);
    assert!(
        text_view.stdout.contains("[redacted]"),
        "{}",
        text_view.stdout
    );
    answers.push(text_view.stdout);
    typed(&["exec", "screenshot { path = \"pay.png\" }"], &mut answers);
    let missing = a3s(
        d,
        &turn_args("pay", &["exec", "click { target = testid(\"absent\") }"]),
    );
    assert_ne!(missing.code, 0);
    answers.extend([missing.stdout, missing.stderr]);

    // Promotion: each typed secret becomes env("NAME"), with a note; the suite admits.
    let promoted = turn(d, "pay", &["promote", "--output", "suites/promoted.acl"]);
    answers.push(promoted.to_string());
    let suite = std::fs::read_to_string(d.join("suites/promoted.acl")).unwrap();
    for var in [
        "CARD_NUMBER",
        "SECURITY_CODE",
        "EXPIRY",
        "PASSWORD",
        "ONE_TIME_CODE",
        "NAME_ON_CARD",
    ] {
        assert!(suite.contains(&format!("env(\"{var}\")")), "{var}: {suite}");
        assert!(
            promoted["env"].as_array().unwrap().contains(&json!(var)),
            "{promoted}"
        );
    }
    assert!(
        suite.contains("typed a value into a private field"),
        "{suite}"
    );
    let finished = turn(d, "pay", &["finish", "--status", "passed"]);
    answers.push(finished.to_string());
    assert_gone(groups);

    // The promoted suite replays with the secrets from the environment.
    let env = [
        ("CARD_NUMBER", CARD),
        ("SECURITY_CODE", CVC),
        ("EXPIRY", EXPIRY),
        ("PASSWORD", PASSWORD),
        ("ONE_TIME_CODE", OTP),
        ("NAME_ON_CARD", HOLDER),
        ("CARD_HOLDER", HOLDER),
    ];
    let run = |args: &[&str]| -> Out {
        let mut command = Command::new(env!("CARGO_BIN_EXE_a3s-test"));
        command.args(args).current_dir(d);
        for (k, v) in env {
            command.env(k, v);
        }
        Out::from(crate::common::output_within(&mut command, None, TURN))
    };
    let replay = run(&["run", "suites/promoted.acl", "--json"]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    answers.extend([replay.stdout, replay.stderr]);

    // A team's suite that fails on the product, with every report.
    std::fs::write(d.join("suites/pay.acl"), SUITE).unwrap();
    let failed = run(&[
        "run",
        "suites/pay.acl",
        "--json",
        "--junit",
        "junit.xml",
        "--html",
        "reports/html",
        "--base-url",
        &server.origin,
    ]);
    assert_eq!(failed.code, 1, "{}\n{}", failed.stdout, failed.stderr);
    let report: Value = serde_json::from_str(&failed.stdout).unwrap();
    let codes: Vec<&str> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["failure"]["code"].as_str())
        .collect();
    assert_eq!(
        codes,
        [
            "test.assert.value_mismatch",
            "test.assert.rendered_text_mismatch",
            "test.assert.text_mismatch"
        ],
        "{report}"
    );
    answers.extend([failed.stdout, failed.stderr]);

    for (i, answer) in answers.iter().enumerate() {
        clean(&format!("answer {i}"), answer);
    }
    let written = files_under(d);
    for wanted in [
        "events.jsonl",
        "session.json",
        "pay.png",
        "accessibility.json",
        "index.html",
        "junit.xml",
        "last-run.json",
    ] {
        assert!(
            written.iter().any(|p| p.ends_with(wanted)),
            "{wanted} was not written: {written:?}"
        );
    }
    for path in &written {
        let bytes = std::fs::read(path).unwrap();
        for secret in SECRETS {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{} holds {secret:?}",
                path.display()
            );
        }
    }
}
