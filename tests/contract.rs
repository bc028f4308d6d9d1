//! The contract workflow end to end: the real binary, the real reference extractor
//! (`providers/contract-extractor`, Tesseract for the design) on a loopback port this test spawns
//! and owns, and real Chromium on pages a loopback server serves. A PRD's three requirements and
//! a design PNG become candidates with exact byte spans and image regions, a conflict blocks the contract until it is chosen, the approved
//! contract passes on the app and fails with exact differences on a changed app, a source edited
//! after generation is refused, a provider answering with a verdict is refused, and the
//! interactive review form is answered through the terminal driver (`run` on a `tui` scenario).

mod common;

use common::{loopback, read_request, respond, run_in, serve_each, workdir};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const PRD: &str = "# Shop\n\n## Checkout `/checkout`\n\n- The \"Pay now\" button must be enabled.\n- The page shows the \"Order total\" heading.\n- The \"Pay now\" button sits below the \"Order total\" heading.\n";

const CONFLICTING: &str = "## Cart `/cart`\n\n- The \"Checkout\" button must be enabled.\n- The \"Checkout\" button stays disabled while the cart is empty.\n";

/// The app as the PRD describes it.
const APP: &str = "<!doctype html><title>Checkout</title><h1>Order total</h1><p>$42.00</p><button>Pay now</button>";

/// The app after a change: the button is disabled and above a renamed heading.
const CHANGED_APP: &str = "<!doctype html><title>Checkout</title><button disabled>Pay now</button><h1>Total due</h1><p>$42.00</p>";

/// A design: "Order total", "Free shipping" and a "Pay now" button, rendered by Chromium from
/// `tests/fixtures/contract/design.html` at 400×240 (`chromium --headless --screenshot
/// --window-size=400,240`) and committed, so what Tesseract reads is known.
const DESIGN: &[u8] = include_bytes!("fixtures/contract/design.png");

/// Left, top, right and bottom edges in image pixels.
type Edges = (u64, u64, u64, u64);

/// Where the design draws each text (left, top, right, bottom in image pixels, from the HTML's
/// absolute positions and font sizes); a region Tesseract reports must lie inside.
const DRAWN: &[(&str, Edges)] = &[
    ("Order total", (36, 28, 240, 66)),
    ("Free shipping", (36, 98, 200, 132)),
    ("Pay now", (56, 168, 170, 206)),
];

/// The reference extractor, spawned in a process group of its own and killed with it on drop.
struct Extractor {
    child: Child,
    endpoint: String,
}

impl Extractor {
    fn start(name: &str) -> Extractor {
        let mut command = Command::new(extractor_binary());
        command
            .args(["--listen", "127.0.0.1:0", "--name", name, "--stop-on-eof"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().expect("spawn the contract extractor");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        // The first line is written once the port accepts connections.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let _ = reader.read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the extractor announces its address");
        let address = line
            .trim()
            .strip_prefix("listening on ")
            .expect("listening on ADDRESS")
            .to_string();
        Extractor {
            child,
            endpoint: format!("http://{address}/"),
        }
    }
}

impl Drop for Extractor {
    fn drop(&mut self) {
        // SAFETY: signals the process group of a child this test spawned.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// The extractor binary beside this package's ([`common::workspace_binary`]).
fn extractor_binary() -> PathBuf {
    common::workspace_binary("a3s-test-contract-extractor")
}

/// A project whose `contract_generation` provider is at `endpoint`, holding `files`.
fn project(endpoint: &str, name: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let project = format!(
        "project \"shop\" {{\n    provider \"{name}\" {{\n        kind = \"contract_generation\"\n        endpoint = \"{endpoint}\"\n        model = \"markdown-rules-1\"\n        timeout_ms = 20000\n        max_cost_microusd = 0\n    }}\n}}\n"
    );
    let mut all = vec![(".a3s-test/project.acl", project.as_str())];
    all.extend_from_slice(files);
    workdir(&all)
}

/// A loopback server answering `/checkout` with `html`; its origin.
fn app(html: &'static str) -> String {
    let (listener, origin) = loopback();
    serve_each(listener, move |stream| {
        if let Some(request) = read_request(&stream) {
            if request.target == "/checkout" {
                respond(
                    &stream,
                    "200 OK",
                    "text/html; charset=utf-8",
                    "",
                    html.as_bytes(),
                );
            } else {
                respond(&stream, "404 Not Found", "text/plain", "", b"not found");
            }
        }
    });
    origin
}

fn candidates(dir: &Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(dir.join("contract.candidates.json")).expect("candidates file"),
    )
    .expect("JSON")
}

#[test]
fn a_prd_with_three_requirements_and_a_design_give_candidates_with_spans_and_regions() {
    let extractor = Extractor::start("extractor");
    let dir = project(&extractor.endpoint, "extractor", &[("prd.md", PRD)]);
    std::fs::write(dir.path().join("design.png"), DESIGN).expect("write the design");
    let run = run_in(
        dir.path(),
        &[
            "contract",
            "generate",
            "--source",
            "prd.md",
            "--source",
            "design.png",
            "--out",
            "contract.candidates.json",
        ],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let file = candidates(dir.path());
    let sources = file["sources"].as_array().expect("sources");
    assert_eq!(sources[0]["sha256"], hex(&Sha256::digest(PRD.as_bytes())));
    assert_eq!(sources[1]["media_type"], "image/png");
    assert_eq!(sources[1]["sha256"], hex(&Sha256::digest(DESIGN)));
    assert_eq!(
        (sources[1]["width"].as_u64(), sources[1]["height"].as_u64()),
        (Some(400), Some(240))
    );
    let list = file["candidates"].as_array().expect("candidates");
    let kinds: Vec<String> = list
        .iter()
        .map(|c| c["expectation"]["kind"].as_str().unwrap_or("").to_string())
        .collect();
    // The PRD's three requirements, then the one text only the design shows.
    assert_eq!(kinds, ["element", "element", "layout", "text"], "{file}");
    assert_eq!(list[0]["expectation"]["name"], "Pay now");
    assert_eq!(list[0]["expectation"]["state"], "enabled");
    assert_eq!(list[1]["expectation"]["role"], "heading");
    assert_eq!(list[2]["expectation"]["relation"], "below");
    assert_eq!(list[3]["expectation"]["text"], "Free shipping");
    // Every span quotes the PRD's bytes exactly; every region lies where the design draws its
    // text, and on the route the PRD names.
    let mut regions = Vec::new();
    for c in list {
        assert_eq!(c["route"], "/checkout");
        for e in c["evidence"].as_array().expect("evidence") {
            if e["kind"] == "region" {
                assert_eq!(e["source"], "s2", "{c}");
                let text = e["text"].as_str().unwrap().to_string();
                let (_, (left, top, right, bottom)) = DRAWN
                    .iter()
                    .find(|(t, _)| *t == text)
                    .unwrap_or_else(|| panic!("a region reads {text:?}: {c}"));
                let (x, y, w, h) = (
                    e["x"].as_u64().unwrap(),
                    e["y"].as_u64().unwrap(),
                    e["width"].as_u64().unwrap(),
                    e["height"].as_u64().unwrap(),
                );
                assert!(
                    x >= *left
                        && y >= *top
                        && x + w <= *right
                        && y + h <= *bottom
                        && w > 0
                        && h > 0,
                    "{text}: {x},{y} {w}x{h} outside {left},{top}..{right},{bottom}"
                );
                regions.push((c["id"].as_str().unwrap().to_string(), text));
                continue;
            }
            let (start, end) = (
                e["start"].as_u64().unwrap() as usize,
                e["end"].as_u64().unwrap() as usize,
            );
            assert_eq!(&PRD[start..end], e["quote"].as_str().unwrap(), "{c}");
        }
    }
    let region = |id: &str, text: &str| (id.to_string(), text.to_string());
    assert_eq!(
        regions,
        [
            region("c1", "Pay now"),
            region("c2", "Order total"),
            region("c4", "Free shipping"),
        ]
    );
    let first = &list[0]["evidence"][0];
    assert_eq!(
        (first["start"].as_u64(), first["end"].as_u64()),
        (Some(40), Some(47))
    );
    assert!(file["conflicts"].as_array().expect("conflicts").is_empty());

    // The workflow's region checks accept them: the reviewed contract cites the design.
    let review = run_in(
        dir.path(),
        &[
            "contract",
            "review",
            "contract.candidates.json",
            "--approve-all",
            "--out",
            "contract.acl",
        ],
    );
    assert_eq!(review.code, Some(0), "{review:?}");
    let contract = std::fs::read_to_string(dir.path().join("contract.acl")).expect("contract");
    assert!(contract.contains("\"s2@"), "{contract}");
    assert!(contract.contains("text = \"Free shipping\""), "{contract}");

    // A design changed after generation is refused, and nothing is written.
    let mut tampered = DESIGN.to_vec();
    tampered.extend_from_slice(b"\0");
    std::fs::write(dir.path().join("design.png"), tampered).expect("tamper with the design");
    std::fs::remove_file(dir.path().join("contract.acl")).expect("remove the contract");
    let refused = run_in(
        dir.path(),
        &[
            "contract",
            "review",
            "contract.candidates.json",
            "--approve-all",
            "--out",
            "contract.acl",
        ],
    );
    assert_eq!(refused.code, Some(2), "{refused:?}");
    assert!(
        refused
            .stderr
            .contains("error[test.contract.source_changed]: design.png is "),
        "{}",
        refused.stderr
    );
    assert!(!dir.path().join("contract.acl").exists());
}

#[test]
fn a_conflict_blocks_the_contract_until_it_is_chosen() {
    let extractor = Extractor::start("extractor");
    let dir = project(
        &extractor.endpoint,
        "extractor",
        &[("cart.md", CONFLICTING)],
    );
    let run = run_in(
        dir.path(),
        &[
            "contract",
            "generate",
            "--source",
            "cart.md",
            "--out",
            "contract.candidates.json",
        ],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let file = candidates(dir.path());
    assert_eq!(
        file["conflicts"][0]["candidates"],
        serde_json::json!(["c1", "c2"]),
        "{file}"
    );

    let refused = run_in(
        dir.path(),
        &[
            "contract",
            "review",
            "contract.candidates.json",
            "--approve-all",
            "--out",
            "contract.acl",
        ],
    );
    assert_eq!(refused.code, Some(2), "{refused:?}");
    assert!(
        refused
            .stderr
            .contains("error[test.contract.unresolved_conflict]: conflict k1 is not settled"),
        "{}",
        refused.stderr
    );
    assert!(
        !dir.path().join("contract.acl").exists(),
        "nothing is written while a conflict is open"
    );

    let no_rationale = run_in(
        dir.path(),
        &[
            "contract",
            "review",
            "contract.candidates.json",
            "--approve-all",
            "--choose",
            "k1=c2",
            "--out",
            "contract.acl",
        ],
    );
    assert_eq!(no_rationale.code, Some(2), "{no_rationale:?}");
    assert!(!dir.path().join("contract.acl").exists());

    let chosen = run_in(
        dir.path(),
        &[
            "contract",
            "review",
            "contract.candidates.json",
            "--approve-all",
            "--choose",
            "k1=c2",
            "--rationale",
            "an empty cart cannot check out",
            "--out",
            "contract.acl",
        ],
    );
    assert_eq!(chosen.code, Some(0), "{chosen:?}");
    let text = std::fs::read_to_string(dir.path().join("contract.acl")).expect("the contract");
    assert!(text.contains("state = \"disabled\""), "{text}");
    assert!(!text.contains("state = \"enabled\""), "{text}");
    assert!(text.contains("decision \"k1\" {\n        chosen = \"c2\"\n        over = [\"c1\"]\n        rationale = \"an empty cart cannot check out\""), "{text}");
    assert!(
        text.contains(&format!(
            "sha256 = \"{}\"",
            hex(&Sha256::digest(CONFLICTING.as_bytes()))
        )),
        "{text}"
    );
    let checked = run_in(dir.path(), &["check", "contract.acl"]);
    assert_eq!(
        checked.code,
        Some(0),
        "lang admits the written contract: {checked:?}"
    );
}

#[test]
fn the_approved_contract_passes_on_the_app_and_fails_with_exact_differences_after_a_change() {
    let extractor = Extractor::start("extractor");
    let dir = project(&extractor.endpoint, "extractor", &[("prd.md", PRD)]);
    let run = run_in(
        dir.path(),
        &[
            "contract",
            "generate",
            "--source",
            "prd.md",
            "--out",
            "contract.candidates.json",
        ],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let review = run_in(
        dir.path(),
        &[
            "contract",
            "review",
            "contract.candidates.json",
            "--approve-all",
            "--out",
            "contract.acl",
        ],
    );
    assert_eq!(review.code, Some(0), "{review:?}");

    let passing = run_in(
        dir.path(),
        &["contract", "check", "contract.acl", "--url", &app(APP)],
    );
    assert_eq!(passing.code, Some(0), "{passing:?}");
    assert!(
        passing.stdout.contains("3 met, 0 missing, 0 different"),
        "{}",
        passing.stdout
    );

    let changed = app(CHANGED_APP);
    let failing = run_in(
        dir.path(),
        &[
            "contract",
            "check",
            "contract.acl",
            "--url",
            &changed,
            "--reporter",
            "json",
        ],
    );
    assert_eq!(failing.code, Some(1), "{failing:?}");
    let report: Value = serde_json::from_str(&failing.stdout).expect("the JSON report");
    let seen: Vec<(String, String, String)> = report["routes"][0]["expectations"]
        .as_array()
        .expect("expectations")
        .iter()
        .map(|e| {
            (
                e["id"].as_str().unwrap().into(),
                e["outcome"].as_str().unwrap().into(),
                e["seen"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = |id: &str, o: &str, s: &str| (id.to_string(), o.to_string(), s.to_string());
    assert_eq!(
        seen,
        [
            want("c1", "different", "visible, disabled"),
            want("c2", "missing", "this role is named \"Total due\""),
            want("c3", "missing", "no single element for c2"),
        ]
    );
    assert_eq!(
        (
            report["met"].as_u64(),
            report["missing"].as_u64(),
            report["different"].as_u64()
        ),
        (Some(0), Some(2), Some(1))
    );
    assert_eq!(report["routes"][0]["url"], format!("{changed}/checkout"));

    let list = run_in(
        dir.path(),
        &["contract", "check", "contract.acl", "--url", &changed],
    );
    assert_eq!(list.code, Some(1));
    let shown = list.stdout.replace(&changed, "http://APP");
    insta::assert_snapshot!("contract_check_changed_app", shown);

    let bad_url = run_in(
        dir.path(),
        &["contract", "check", "contract.acl", "--url", "checkout"],
    );
    assert_eq!(bad_url.code, Some(2), "{bad_url:?}");
    assert!(
        bad_url.stderr.contains("error[test.contract.url]"),
        "{}",
        bad_url.stderr
    );
}

#[test]
fn a_source_edited_after_generation_is_refused() {
    let extractor = Extractor::start("extractor");
    let dir = project(&extractor.endpoint, "extractor", &[("prd.md", PRD)]);
    let run = run_in(
        dir.path(),
        &[
            "contract",
            "generate",
            "--source",
            "prd.md",
            "--out",
            "contract.candidates.json",
        ],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    std::fs::write(
        dir.path().join("prd.md"),
        PRD.replace("Pay now", "Pay later"),
    )
    .expect("edit the PRD");
    let review = run_in(
        dir.path(),
        &[
            "contract",
            "review",
            "contract.candidates.json",
            "--approve-all",
            "--out",
            "contract.acl",
        ],
    );
    assert_eq!(review.code, Some(2), "{review:?}");
    assert!(
        review
            .stderr
            .contains("error[test.contract.source_changed]: prd.md is "),
        "{}",
        review.stderr
    );
    assert!(!dir.path().join("contract.acl").exists());
}

/// How a fake provider answers a request.
type Answer = fn(&Value) -> Value;

/// A provider (a loopback server of this test) that answers every request with `answer(request)`.
fn fake_provider(answer: Answer) -> String {
    let (listener, origin) = loopback();
    serve_each(listener, move |stream| {
        if let Some(request) = read_request(&stream) {
            let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
            let reply = serde_json::to_vec(&answer(&body)).unwrap_or_default();
            respond(&stream, "200 OK", "application/json", "", &reply);
        }
    });
    format!("{origin}/")
}

/// A well-formed answer for `request` with one element candidate quoting bytes 40..47.
fn answer_for(request: &Value) -> Value {
    let source = &request["request"]["sources"][0];
    serde_json::json!({
        "status": "success",
        "protocol": "a3s.test.contract-candidates/1",
        "response": {
            "provider": "fake",
            "model": "markdown-rules-1",
            "sources": [{"id": source["id"], "sha256": source["sha256"]}],
            "candidates": [{
                "id": "c1",
                "route": "/checkout",
                "expectation": {"kind": "element", "role": "button", "name": "Pay now"},
                "confidence": 0.9,
                "evidence": [{"kind": "span", "source": source["id"], "start": 40, "end": 47, "quote": "Pay now"}]
            }],
            "conflicts": [],
            "open_decisions": [],
            "usage": {"input_units": 1, "output_units": 1},
            "cost_microusd": 0
        }
    })
}

#[test]
fn a_provider_answering_with_a_verdict_or_a_wrong_span_is_refused() {
    let cases: [(Answer, &str); 4] = [
        (answer_for, ""),
        (
            |r| {
                let mut a = answer_for(r);
                a["response"]["verdict"] = "pass".into();
                a
            },
            "error[test.provider.malformed]",
        ),
        (
            |r| {
                let mut a = answer_for(r);
                a["response"]["candidates"][0]["action"] = serde_json::json!({"click": "Pay now"});
                a
            },
            "error[test.provider.malformed]",
        ),
        (
            |r| {
                let mut a = answer_for(r);
                a["response"]["candidates"][0]["evidence"][0]["start"] = 39.into();
                a
            },
            "error[test.provider.span]",
        ),
    ];
    for (answer, refusal) in cases {
        let endpoint = fake_provider(answer);
        let dir = project(&endpoint, "fake", &[("prd.md", PRD)]);
        let run = run_in(
            dir.path(),
            &[
                "contract",
                "generate",
                "--source",
                "prd.md",
                "--out",
                "contract.candidates.json",
            ],
        );
        let written = dir.path().join("contract.candidates.json").exists();
        if refusal.is_empty() {
            assert_eq!(run.code, Some(0), "{run:?}");
            assert!(written);
        } else {
            assert_eq!(run.code, Some(1), "{run:?}");
            assert!(run.stderr.contains(refusal), "{refusal}: {}", run.stderr);
            assert!(
                !written,
                "no candidates file is written from a refused answer"
            );
        }
    }
    // The digest of another file is refused too.
    let endpoint = fake_provider(|r| {
        let mut a = answer_for(r);
        a["response"]["sources"][0]["sha256"] = "0".repeat(64).into();
        a
    });
    let dir = project(&endpoint, "fake", &[("prd.md", PRD)]);
    let run = run_in(
        dir.path(),
        &[
            "contract",
            "generate",
            "--source",
            "prd.md",
            "--out",
            "contract.candidates.json",
        ],
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.contains("error[test.provider.digest]"),
        "{}",
        run.stderr
    );
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The interactive review form, answered through the repo's own terminal driver: `a3s-test run`
/// drives `a3s-test contract review` on a real pseudoterminal.
#[test]
fn the_review_form_on_a_terminal_settles_a_conflict_and_writes_the_contract() {
    let extractor = Extractor::start("extractor");
    let suite = r#"suite "review" {
    scenario "form" {
        surface = "tui"
        wait "first" { text = "c1 /cart button" }
        type "approve-c1" { value = "y" }
        press "enter-c1" { key = "Enter" }
        wait "second" { text = "c2 /cart button" }
        type "approve-c2" { value = "y" }
        press "enter-c2" { key = "Enter" }
        wait "conflict" { text = "keep which? [c1/c2]" }
        type "keep" { value = "c2" }
        press "enter-keep" { key = "Enter" }
        wait "why" { text = "why keep c2 for k1?" }
        type "rationale" { value = "an empty cart cannot check out" }
        press "enter-why" { key = "Enter" }
        expect "written" { text = "wrote contract.acl" }
        expect "ended" { exit_code = 0 }
    }
}
"#;
    let dir = project(
        &extractor.endpoint,
        "extractor",
        &[("cart.md", CONFLICTING), ("review.acl", suite)],
    );
    let run = run_in(
        dir.path(),
        &[
            "contract",
            "generate",
            "--source",
            "cart.md",
            "--out",
            "contract.candidates.json",
        ],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let binary = env!("CARGO_BIN_EXE_a3s-test");
    let form = run_in(
        dir.path(),
        &[
            "run",
            "review.acl",
            "--tui-executable",
            binary,
            "--tui-arg",
            "contract",
            "--tui-arg",
            "review",
            "--tui-arg",
            "contract.candidates.json",
            "--tui-arg",
            "--out",
            "--tui-arg",
            "contract.acl",
        ],
    );
    assert_eq!(form.code, Some(0), "{form:?}");
    let text = std::fs::read_to_string(dir.path().join("contract.acl")).expect("the contract");
    assert!(text.contains("chosen = \"c2\""), "{text}");
    assert!(
        text.contains("rationale = \"an empty cart cannot check out\""),
        "{text}"
    );
}
