//! UI understanding for agents (issue 31, item 3) in real Chromium: a page with the built Test Kit
//! (`testkit/dist`) where a card's overflow cuts its Pay button, a toast covers the Save button
//! and a spinner pulses. `observe --ui` reports them as read-only `@uN` facts; an `@uN` is refused
//! as a click target before anything reaches the page (the page counts every pointer event and
//! saw none), an `@uN` of an earlier observation is stale, a 5,000-node page stays inside the
//! budget with the cut said, a bridge that lies about its UI record is refused whole, and an MCP
//! client over a real pipe reads the same facts.

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The page: fixed boxes (no font decides a size), the Test Kit installed by a module script,
/// and a counter of every pointer event anywhere on the page.
const PAGE: &str = r#"<!doctype html><html><head><title>Layout</title><style>
body { margin: 0; font: 12px/1 monospace; }
#card { position: absolute; left: 10px; top: 10px; width: 200px; height: 60px; overflow: hidden; }
#pay { position: absolute; left: 150px; top: 10px; width: 100px; height: 30px; }
#save { position: absolute; left: 10px; top: 100px; width: 80px; height: 30px; }
#toast { position: absolute; left: 50px; top: 110px; width: 200px; height: 40px; background: #fe0; }
#spin { position: absolute; left: 300px; top: 10px; width: 20px; height: 20px; background: #333;
        animation: pulse 1s linear infinite alternate; }
@keyframes pulse { to { opacity: 0.2; } }
#free { position: absolute; left: 400px; top: 100px; width: 60px; height: 30px; }
#log { position: absolute; left: 10px; top: 200px; width: 300px; height: 20px; margin: 0; }
</style></head><body>
<section id="card" aria-label="Card"><button id="pay">Pay</button></section>
<button id="save">Save</button>
<div id="toast" role="status">Saved</div>
<div id="spin" role="img" aria-label="Loading"></div>
<button id="free">Free</button>
<p id="log">events: 0</p>
<script>
let events = 0;
for (const kind of ["pointerdown", "mousedown", "click"]) {
  document.addEventListener(kind, () => { events += 1; document.getElementById("log").textContent = "events: " + events; }, true);
}
</script>
<script type="module">
import { installTestKit } from "/kit/index.js";
installTestKit({ enabled: true, page: { id: "layout" } });
</script>
</body></html>"#;

/// `page` at `/` and the built Test Kit under `/kit/`.
fn with_kit(page: String) -> Vec<(String, String)> {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testkit/dist");
    let entries = std::fs::read_dir(&dist).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): build the Test Kit with ./scripts/setup.sh",
            dist.display()
        )
    });
    let mut out = vec![("/".to_string(), page)];
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

/// A session `id` on `page` (with the Test Kit); the server and folder are the caller's to keep.
fn session(page: String, id: &str) -> (Server, tempfile::TempDir, (u32, u32)) {
    let pages = with_kit(page);
    let borrowed: Vec<(&str, &str)> = pages
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_str()))
        .collect();
    session_on(&borrowed, id, &[])
}

/// `observe --ui` (and `extra`) until the bridge is seen, bounded by a deadline.
fn observe_ui(d: &Path, id: &str, extra: &[&str]) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    let mut words = vec!["observe", "--ui"];
    words.extend_from_slice(extra);
    loop {
        let out = a3s(d, &turn_args(id, &words));
        if out.code == 0 {
            let obs = out.json();
            assert!(obs["ui"].is_object(), "{obs}");
            return obs;
        }
        // Before the module script ran, the page has no bridge yet.
        assert_eq!(
            out.json()["error"]["code"],
            "test.session.capability",
            "{}",
            out.stdout
        );
        assert!(
            Instant::now() < until,
            "no Test Kit bridge within 20 s: {}",
            out.stdout
        );
    }
}

/// The facts of an observation.
fn facts(obs: &Value) -> Vec<Value> {
    obs["ui"]["refs"].as_array().cloned().unwrap_or_default()
}

/// The one fact of `kind` whose JSON mentions `word`.
fn fact(obs: &Value, kind: &str, word: &str) -> Value {
    facts(obs)
        .into_iter()
        .find(|f| f["kind"] == kind && f.to_string().contains(word))
        .unwrap_or_else(|| panic!("no {kind} fact about {word} in {obs}"))
}

/// Header lines whose numbers change from run to run (revision, observation id) made stable.
fn stable(text: &str, server: &Server) -> String {
    text.replace(&server.origin, "http://127.0.0.1:PORT")
        .lines()
        .map(|l| {
            let mut words: Vec<String> = l.split(' ').map(str::to_string).collect();
            for i in 1..words.len() {
                let after = words[i - 1].as_str();
                if matches!(after, "observation" | "revision") && words[i].parse::<u64>().is_ok() {
                    words[i] = "N".into();
                }
            }
            words.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn overlapping_clipped_and_moving_boxes_are_read_only_u_refs() {
    let (server, dir, groups) = session(PAGE.to_string(), "ui");
    let d = dir.path();
    let obs = observe_ui(d, "ui", &[]);
    let save = obs["page_context"]["refs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Save")
        .unwrap_or_else(|| panic!("no @c for Save in {obs}"))["ref"]
        .clone();
    let pay_c = obs["page_context"]["refs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Pay")
        .unwrap_or_else(|| panic!("no @c for Pay in {obs}"))["ref"]
        .clone();

    // The toast covers Save: on top by the browser's own hit test, 40×20 px shared.
    let overlap = fact(&obs, "overlap", "Saved");
    assert_eq!(overlap["above"]["name"], "Saved", "{overlap}");
    assert_eq!(overlap["area_px"], 800, "{overlap}");
    assert!(
        overlap["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["ref"] == save),
        "{overlap}"
    );
    // The card's overflow cuts Pay in half.
    let clip = fact(&obs, "clip", "Card");
    assert_eq!(clip["node"]["ref"], pay_c, "{clip}");
    assert_eq!(clip["visible_percent"], 50, "{clip}");
    // The spinner pulses (its opacity: no size changes from one observation to the next).
    let motion = fact(&obs, "motion", "Loading");
    assert_eq!(
        (motion["name"].as_str(), motion["state"].as_str()),
        (Some("pulse"), Some("running"))
    );
    assert_eq!(obs["ui"]["read_only"], true);
    // No private node id reaches the agent.
    assert!(!obs["ui"].to_string().contains("nodeId"), "{obs}");

    // The text view, printed like @eN and @cN.
    let text = a3s(d, &["agent", "observe", "--ui", "--session", "ui"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let ui_part = text
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("ui revision"))
        .take_while(|l| !l.starts_with("next:"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("ui_observation_text", stable(&ui_part, &server));

    // Acting on an @uN is refused by kind, exit 2, with a hint naming the @cN it is about.
    let obs = observe_ui(d, "ui", &[]);
    let u_overlap = fact(&obs, "overlap", "Saved")["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let out = a3s(d, &turn_args("ui", &["click", &u_overlap]));
    assert_eq!(out.code, 2, "{}", out.stdout);
    let refused = out.json();
    assert_eq!(
        refused["error"]["code"], "test.session.ref_kind",
        "{refused}"
    );
    let message = error_message(&refused);
    assert!(
        message.contains(save.as_str().unwrap()) && message.contains("read-only"),
        "{message}"
    );
    let statement = format!("click {{ target = ref(\"{u_overlap}\") }}");
    refused_turn(d, "ui", &["exec", &statement], "test.session.ref_kind");
    // Nothing reached the page, and the observation is still open.
    let seen = turn(d, "ui", &["expect-text", "events: 0"]);
    assert_eq!(seen["status"], "passed", "{seen}");

    // A new observation issues new numbers: the old @uN is stale, never another fact.
    let newer = observe_ui(d, "ui", &[]);
    assert!(
        facts(&newer).iter().all(|f| f["ref"] != u_overlap.as_str()),
        "{newer}"
    );
    let stale = refused_turn(d, "ui", &["click", &u_overlap], "test.session.stale_ref");
    assert!(error_message(&stale).contains(&u_overlap), "{stale}");
    // An observation without --ui ends them too.
    let current = fact(&newer, "clip", "Card")["ref"]
        .as_str()
        .unwrap()
        .to_string();
    turn(d, "ui", &["observe"]);
    refused_turn(d, "ui", &["click", &current], "test.session.stale_ref");
    turn(d, "ui", &["expect-text", "events: 0"]);

    // The counter does see a click that is dispatched (pointerdown, mousedown, click).
    let obs = turn(d, "ui", &["observe"]);
    let free = ref_of(&obs, "button", "Free");
    turn(d, "ui", &["click", &free]);
    turn(d, "ui", &["expect-text", "events: 3"]);

    turn(d, "ui", &["finish", "--status", "passed"]);
    assert_gone(groups);
}

/// 5,000 list items with the Test Kit.
fn big_page() -> String {
    let items: String = (0..5_000).map(|i| format!("<li>Item {i}</li>")).collect();
    format!(
        r#"<!doctype html><html><head><title>Big</title></head><body><h1>Catalogue</h1><ul>{items}</ul>
<script type="module">
import {{ installTestKit }} from "/kit/index.js";
installTestKit({{ enabled: true, page: {{ id: "big" }} }});
</script></body></html>"#
    )
}

#[test]
fn the_budget_holds_on_a_five_thousand_node_page_and_the_cut_is_said() {
    let (_server, dir, groups) = session(big_page(), "big");
    let d = dir.path();
    let obs = observe_ui(d, "big", &["--ui-nodes", "150"]);
    let ui = &obs["ui"];
    let nodes = ui["nodes"].as_u64().unwrap();
    assert!(nodes > 0 && nodes <= 150, "{ui}");
    let notes: Vec<&str> = ui["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // The Page Context is cut at its own node limit, and UI understanding within its budget.
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Page Context itself is cut")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("150-node budget") || n.contains("time budget")),
        "{notes:?}"
    );
    // The items are one cluster, listed in part.
    let cluster = fact(&obs, "cluster", "listitem");
    assert!(cluster["count"].as_u64().unwrap() >= 2, "{cluster}");
    assert!(cluster["nodes"].as_array().unwrap().len() <= 6, "{cluster}");
    // The text view says the cut on its own lines.
    let text = a3s(
        d,
        &[
            "agent",
            "observe",
            "--ui",
            "--ui-nodes",
            "150",
            "--session",
            "big",
        ],
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("… the Page Context itself is cut"),
        "{}",
        text.stdout
    );
    // A budget past the Test Kit's bounds is refused before the page is asked.
    refused_turn(
        d,
        "big",
        &["observe", "--ui", "--ui-nodes", "1001"],
        "test.session.invalid_input",
    );
    turn(d, "big", &["finish", "--status", "passed"]);
    assert_gone(groups);
}

/// A bridge whose UI record names a node its own answer does not have (a stale node).
const LYING: &str = r#"<!doctype html><body><button>Go</button><script>
const viewport = { width: innerWidth, height: innerHeight, dpr: devicePixelRatio };
const edges = { top: 0, right: 0, bottom: 0, left: 0 };
const layoutNode = (nodeId) => ({ nodeId, display: "block", position: "static",
  rect: { x: 0, y: 0, width: 10, height: 10 }, margin: edges, border: edges, padding: edges,
  overflow: { x: "visible", y: "visible" }, boxSizing: "content-box",
  writingMode: "horizontal-tb", direction: "ltr" });
Object.defineProperty(window, Symbol.for("a3s.test.page-context"), { value: {
  handshake: () => ({ protocol: "a3s.test.testkit-handshake/1", packageName: "@a3s-lab/testkit",
    sdkVersion: "0.1.0", pageContextProtocol: "a3s.test.page-context/1",
    capabilities: ["snapshot.summary", "snapshot.diff", "scope.page", "ui-understanding"] }),
  probe: () => ({ revision: 1 }),
  snapshot: (req) => ({ protocol: "a3s.test.page-context/1", revision: 1, page: { viewport },
    nodes: [{ id: "n1", tag: "button", role: "button", name: "Go", state: { visible: true },
              locators: [{ kind: "role", role: "button", name: "Go" }] }],
    truncated: false, truncatedReasons: [],
    ui: req && req.ui ? { protocol: "a3s.test.ui-understanding/1", observationId: "ui-1",
      pageRevision: 1, viewport, scope: { kind: "page" },
      budget: { limits: { nodes: 200, timeMs: 32 }, used: { nodes: 2, timeMs: 1 },
                truncated: false, reasons: [] },
      evidence: { source: "computed_style", nodeCount: 2, inaccessibleStyleSheets: 0, untrusted: true },
      style: { color: [], spacing: [], radius: [], shadow: [], typography: [] },
      layout: { nodes: [layoutNode("n1"), layoutNode("n7-gone")], edges: [] },
      components: [], stateDiffs: [],
      overlaps: [{ a: "n1", b: "n7-gone", area: { x: 0, y: 0, width: 10, height: 10 } }],
      clips: [], motion: { runningAnimations: 0, reducedMotion: false, animations: [] } } : undefined }) } });
</script></body>"#;

#[test]
fn a_ui_record_naming_a_node_of_no_answer_is_refused_whole() {
    let (_server, dir, groups) = session_on(&[("/", LYING)], "lie", &[]);
    let d = dir.path();
    // Without --ui the semantic observation works.
    let obs = turn(d, "lie", &["observe"]);
    assert!(obs["page_context"].is_object(), "{obs}");
    let out = a3s(d, &turn_args("lie", &["observe", "--ui"]));
    assert_eq!(out.code, 2, "{}", out.stdout);
    let refused = out.json();
    assert_eq!(
        refused["error"]["code"], "test.session.ui_invalid",
        "{refused}"
    );
    let message = error_message(&refused);
    assert!(
        message.contains("unknown_node") && !message.contains("n7-gone"),
        "{message}"
    );
    // Nothing of the record is shown, and the observation before it ended with it.
    assert!(
        refused.get("ui").is_none() && !out.stdout.contains("@u1"),
        "{}",
        out.stdout
    );
    let go = ref_of(&obs, "button", "Go");
    refused_turn(d, "lie", &["click", &go], "test.session.stale_ref");
    turn(d, "lie", &["finish", "--status", "passed"]);
    assert_gone(groups);
}

#[test]
fn an_mcp_client_reads_u_refs_and_cannot_act_on_them() {
    let (_server, dir, groups) = session(PAGE.to_string(), "mu");
    let d = dir.path();
    // The CLI waits for the bridge; the MCP client then observes the same session.
    observe_ui(d, "mu", &[]);
    let mcp = McpClient::start(d, &[], TURN);
    let (obs, err) = mcp.result(
        "test_observe",
        json!({ "session": "mu", "ui": true, "ui_nodes": 300 }),
    );
    assert!(!err, "{obs}");
    let overlap = fact(&obs, "overlap", "Saved");
    let u = overlap["ref"].as_str().unwrap();
    assert!(u.starts_with("@u"), "{overlap}");
    let (refused, err) = mcp.result(
        "test_exec",
        json!({ "session": "mu", "statement": format!("click {{ target = ref(\"{u}\") }}") }),
    );
    assert!(err, "{refused}");
    assert_eq!(
        refused["error"]["code"], "test.session.ref_kind",
        "{refused}"
    );
    // A budget past the bounds is refused by the tool's schema or the operation, never sent.
    let bad = match mcp.call(
        "test_observe",
        json!({ "session": "mu", "ui": true, "ui_nodes": 5000 }),
    ) {
        Ok(result) => {
            assert_eq!(result["isError"], true, "{result}");
            result
        }
        Err(error) => error,
    };
    assert!(bad.to_string().contains("ui_nodes"), "{bad}");
    // inspect --ui: the semantic inspection and, in the observation that comes with it, the facts.
    let (inspected, err) = mcp.result(
        "test_inspect",
        json!({ "session": "mu", "detail": "summary", "ui": true }),
    );
    assert!(!err, "{inspected}");
    assert!(inspected["inspection"]["nodes"].is_array(), "{inspected}");
    assert!(
        inspected["inspection"].get("ui").is_none(),
        "raw UI evidence passed through: {inspected}"
    );
    fact(&inspected, "clip", "Card");
    drop(mcp);
    turn(d, "mu", &["expect-text", "events: 0"]);
    turn(d, "mu", &["finish", "--status", "passed"]);
    assert_gone(groups);
}
