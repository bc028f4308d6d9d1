//! Agent sessions on a page with the Test Kit bridge: the demo app (`testkit/demo/dist`, built
//! by `./scripts/setup.sh`) served on loopback. Observations list `@cN` refs with component and
//! source hints; a `@cN` ends with its observation like an `@eN`, and within it survives a change
//! the page made on its own (a person typing; validated delta) unless its node changed. A present but incompatible bridge is its own failure code.

use crate::reviewer::Reviewer;
use crate::support::*;
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The built demo app, or a panic saying how to build it.
fn demo_pages() -> Vec<(&'static str, String)> {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testkit/demo/dist");
    let read = |name: &str| {
        std::fs::read_to_string(dist.join(name)).unwrap_or_else(|e| {
            panic!(
                "{} is missing ({e}): build the Test Kit demo first with ./scripts/setup.sh \
                 (or `cd testkit && npm ci && npm run build && npm run build:demo`)",
                dist.join(name).display()
            )
        })
    };
    vec![
        ("/", read("index.html")),
        ("/app.js", read("app.js")),
        ("/app.css", read("app.css")),
    ]
}

/// Observe until the bridge (installed by a React effect after the first render) is seen,
/// bounded by a deadline.
fn observe_with_page_context(d: &std::path::Path, session: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let obs = turn(d, session, &["observe"]);
        if obs["page_context"].is_object() {
            return obs;
        }
        assert!(Instant::now() < until, "no Page Context within 20 s: {obs}");
    }
}

fn cref(obs: &Value, role: &str, name: &str) -> Value {
    obs["page_context"]["refs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["role"] == role && r["name"] == name)
        .unwrap_or_else(|| panic!("no @c {role} {name:?} in {obs}"))
        .clone()
}

/// The `@cN` of [`cref`].
fn cref_id(obs: &Value, role: &str, name: &str) -> String {
    cref(obs, role, name)["ref"].as_str().unwrap().to_string()
}

/// The demo app on a loopback server and a session `session` on it, once `text` shows. The
/// server is returned so the caller keeps it for the test.
fn start_demo(session: &str, text: &str) -> (Server, tempfile::TempDir, (u32, u32)) {
    let pages = demo_pages();
    let borrowed: Vec<(&str, &str)> = pages.iter().map(|(p, b)| (*p, b.as_str())).collect();
    let (server, dir, groups) = session_on(&borrowed, session, &[]);
    turn(dir.path(), session, &["expect-text", text]);
    (server, dir, groups)
}

#[test]
fn c_refs_carry_hints_end_with_their_observation_and_survive_only_changes_that_spare_them() {
    let (server, dir, groups) = start_demo("kit", "Sign in");
    let d = dir.path();
    let obs = observe_with_page_context(d, "kit");
    assert_eq!(obs["page_context"]["sdk_version"], "0.1.0", "{obs}");
    let sign_in = cref(&obs, "button", "Sign in");
    let email = cref(&obs, "textbox", "Email");
    assert_eq!(sign_in["component"], "LoginForm", "{sign_in}");
    assert_eq!(
        sign_in["source"], "testkit/demo/src/main.tsx:24:1",
        "{sign_in}"
    );
    let sign_in = sign_in["ref"].as_str().unwrap().to_string();
    let email = email["ref"].as_str().unwrap().to_string();
    assert!(sign_in.starts_with("@c") && email.starts_with("@c"));

    // The text view lists them too, quoted.
    let text = a3s(d, &["agent", "observe", "--session", "kit"]);
    assert!(
        text.stdout.contains(
            "button \"Sign in\" component=\"LoginForm\" source=\"testkit/demo/src/main.tsx:24:1\""
        ),
        "{}",
        text.stdout
    );
    let obs = observe_with_page_context(d, "kit");
    let sign_in = cref_id(&obs, "button", "Sign in");
    let email = cref_id(&obs, "textbox", "Email");

    // Acting through @cN dispatches its best locator (the Test Kit's, exact: a Page Context
    // node's locator must not find another element whose name merely contains it).
    let filled = turn(d, "kit", &["fill", &email, "a@b.c"]);
    assert_eq!(filled["status"], "passed", "{filled}");
    assert_eq!(
        filled["resolved"][0]["target"],
        "role(\"textbox\", \"Email\", exact = true)"
    );
    // The fill ended the observation, and its @cN refs with it, even one whose node the fill
    // left alone: a ref is valid only in the observation that made it.
    let ended = refused_turn(d, "kit", &["click", &sign_in], "test.session.stale_ref");
    assert!(error_message(&ended).contains("ended"), "{ended}");

    // Within an open observation the page may still change without the agent: a person types
    // into the email field. The session checks a validated delta before dispatch.
    let obs = observe_with_page_context(d, "kit");
    let revision = obs["page_context"]["revision"].as_u64().unwrap();
    let sign_in = cref_id(&obs, "button", "Sign in");
    let email = cref_id(&obs, "textbox", "Email");
    let record = d.join(".a3s-test/agent-sessions/kit/session.json");
    let person = Reviewer::at(&record, &server.url());
    person.type_into("d.querySelector('#email')", "m");
    person.revision_past(revision);
    // The email field changed since the observation: its ref is refused before dispatch.
    let refused_fill = refused_turn(
        d,
        "kit",
        &["fill", &email, "x@y.z"],
        "test.session.stale_ref",
    );
    assert!(
        error_message(&refused_fill).contains(&email),
        "{refused_fill}"
    );
    // The sign-in button did not change: the delta keeps its ref, and nothing was typed.
    let clicked = turn(d, "kit", &["click", &sign_in]);
    assert_eq!(clicked["status"], "passed", "{clicked}");
    turn(d, "kit", &["expect-text", "Signed in as a@b.cm"]);

    // Raw node ids never reach the session file: only 64-hex fingerprints.
    let record = session_json(d, "kit");
    let crefs = record["page_context"]["crefs"].as_array().unwrap();
    assert!(!crefs.is_empty());
    for c in crefs {
        let fp = c["fingerprint"].as_str().unwrap();
        assert_eq!(fp.len(), 64);
        assert!(fp.chars().all(|ch| ch.is_ascii_hexdigit()));
    }
    assert!(crefs.iter().all(|c| c["reference"] != email.as_str()));

    turn(d, "kit", &["finish", "--status", "passed"]);
    assert_gone(groups);
}

#[test]
fn incompatible_churning_or_lying_bridges_fail_with_their_own_codes_and_plain_pages_work() {
    let page = r#"<!doctype html><body><button>Go</button><script>
Object.defineProperty(window, Symbol.for("a3s.test.page-context"), { value: {
  handshake: () => ({ protocol: "a3s.test.testkit-handshake/1", packageName: "@a3s-lab/testkit",
    sdkVersion: "9.0.0", pageContextProtocol: "a3s.test.page-context/1",
    capabilities: ["snapshot.summary", "snapshot.diff", "scope.page"] }) } });
</script></body>"#;
    let plain = "<!doctype html><body><button>Go</button></body>";
    // Compatible fake bridges that misbehave: one whose revision moves on every read, one whose
    // deltas list ids out of UTF-8 order.
    let fake = |snapshot: &str| {
        format!(
            r#"<!doctype html><body><button>Go</button><script>
let rev = 1;
const nodes = [{{ id: "n1", tag: "button", role: "button", name: "Go", state: {{ visible: true }},
  locators: [{{ kind: "role", role: "button", name: "Go" }}] }}];
Object.defineProperty(window, Symbol.for("a3s.test.page-context"), {{ value: {{
  handshake: () => ({{ protocol: "a3s.test.testkit-handshake/1", packageName: "@a3s-lab/testkit",
    sdkVersion: "0.1.0", pageContextProtocol: "a3s.test.page-context/1",
    capabilities: ["snapshot.summary", "snapshot.diff", "scope.page"] }}),
  probe: () => ({{ revision: rev }}),
  snapshot: {snapshot} }} }});
</script></body>"#
        )
    };
    let churn = fake("(req) => ({ revision: ++rev, components: [], nodes })");
    let bad_diff = fake(
        r#"(req) => req.detail === "diff"
    ? { revision: rev + 1, nodes: [], removedNodeIds: [], delta: { protocol: "a3s.test.page-context-diff/1",
        fromRevision: req.sinceRevision, toRevision: rev + 1, status: "complete",
        invalidated: { all: false, page: false, facts: false, ui: true, nodeIds: ["b", "a"], componentIds: [] } } }
    : { revision: rev, components: [], nodes }"#,
    );
    let (_server, dir, groups) = session_on(
        &[
            ("/", page),
            ("/plain", plain),
            ("/churn", &churn),
            ("/bad-diff", &bad_diff),
        ],
        "bad",
        &[],
    );
    let d = dir.path();
    let v = refused_turn(d, "bad", &["observe"], "test.session.step_failed");
    assert!(
        error_message(&v).starts_with("test.driver.web.page_context_incompatible"),
        "{v}"
    );
    // revision → accessibility → revision moved twice: its own code.
    turn(d, "bad", &["navigate", "/churn"]);
    let v = refused_turn(d, "bad", &["observe"], "test.session.step_failed");
    assert!(
        error_message(&v).starts_with("test.driver.web.page_context_changed"),
        "{v}"
    );
    // A delta that breaks a rule is rejected in Rust, and the @cN refs with it.
    turn(d, "bad", &["navigate", "/bad-diff"]);
    let obs = turn(d, "bad", &["observe"]);
    let go = cref_id(&obs, "button", "Go");
    let v = refused_turn(d, "bad", &["click", &go], "test.session.stale_ref");
    assert!(
        error_message(&v).contains("test.driver.web.page_context_diff.unsorted_ids"),
        "{v}"
    );
    refused_turn(d, "bad", &["click", &go], "test.session.stale_ref");
    turn(d, "bad", &["navigate", "/plain"]);
    let obs = turn(d, "bad", &["observe"]);
    assert!(obs.get("page_context").is_none(), "{obs}");
    let go = ref_of(&obs, "button", "Go");
    turn(d, "bad", &["click", &go]);
    refused_turn(d, "bad", &["click", "@c1"], "test.session.target_type");
    turn(d, "bad", &["abort"]);
    assert_gone(groups);
}

#[test]
fn inspect_reads_scopes_and_validated_diffs_as_new_observations() {
    let (_server, dir, groups) = start_demo("insp", "Add item");
    let d = dir.path();
    let obs = observe_with_page_context(d, "insp");
    let id = obs["observation"].as_u64().unwrap();
    let revision = obs["page_context"]["revision"].as_u64().unwrap();

    let summary = turn(d, "insp", &["inspect", "--detail", "summary"]);
    assert_eq!(
        summary["observation"].as_u64(),
        Some(id + 1),
        "a new observation"
    );
    assert_eq!(summary["untrusted"], true);
    assert_eq!(summary["inspection"]["protocol"], "a3s.test.page-context/1");
    assert!(summary["page_context"]["refs"].as_array().unwrap().len() >= 2);

    let scoped = turn(
        d,
        "insp",
        &["inspect", "--detail", "scoped", "--component", "item-list"],
    );
    let nodes = scoped["inspection"]["nodes"].as_array().unwrap();
    assert!(nodes.iter().any(|n| n["name"] == "Add item"), "{scoped}");
    assert!(
        nodes.iter().all(|n| n["name"] != "Sign in"),
        "scoped to the list"
    );

    // A change, then a diff since the observation's revision (it already happened, so the
    // bounded wait returns at once): validated, and it advances.
    let add = cref_id(&summary, "button", "Add item");
    turn(d, "insp", &["click", &add]);
    let since = revision.to_string();
    let diff = turn(
        d,
        "insp",
        &[
            "inspect",
            "--detail",
            "diff",
            "--since-revision",
            &since,
            "--wait-timeout-ms",
            "5000",
        ],
    );
    let delta = &diff["inspection"]["delta"];
    assert_eq!(delta["fromRevision"].as_u64(), Some(revision), "{diff}");
    assert!(delta["toRevision"].as_u64().unwrap() > revision);
    assert_eq!(delta["invalidated"]["ui"], true);

    refused_turn(
        d,
        "insp",
        &["inspect", "--detail", "diff"],
        "test.session.invalid_input",
    );
    refused_turn(
        d,
        "insp",
        &["inspect", "--detail", "scoped", "--region", "0,0,0,10"],
        "test.session.invalid_input",
    );
    turn(d, "insp", &["abort"]);
    assert_gone(groups);
}
