//! The Test Kit demo app (`testkit/demo/dist/`) in real Chromium, driven from Rust through the
//! project's own Web driver: snapshot shape, boundaries with source candidates, shadow DOM, revision
//! bumps (mutation, input, scroll, route) and none on an idle page, complete vs reset diffs, stale
//! cursors, and that a typed password never appears in any bridge output.
//!
//! The demo is served by a loopback server this binary starts; the browser is the one shared by
//! every test of the binary (`common::driver`). Each test opens its own context, so no test depends
//! on another's page state. Every wait is bounded (`waitForChange` / `waitForDiff` with a timeout,
//! an in-page readiness poll with a deadline).

mod common;

use a3s_test_driver::StepFailure;
use a3s_test_web::WebContext;
use common::{block_on, context, ok, Env};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::OnceCell;
use tokio::time::Instant;

/// Distinctive values that must never leave the page through the bridge.
const PASSWORD: &str = "Tr0ub4dor&3-rust-never-serialize-me";
const RECOVERY: &str = "RECOVERY-7731-ALPHA";

/// How long one bridge call may take (it includes the bridge's own bounded waits).
const CALL_BOUND: Duration = Duration::from_secs(15);
/// How long a revision change may take to be reported after the step that caused it.
const CHANGE_MS: u64 = 5_000;

/// The built demo, or a failure telling the reader how to build it.
fn dist() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testkit/demo/dist");
    assert!(
        dir.join("index.html").is_file() && dir.join("app.js").is_file(),
        "the Test Kit demo is not built at {}: run ./scripts/setup.sh \
         (or `cd testkit && npm run build && npm run build:demo`)",
        dir.display()
    );
    dir
}

/// The demo's URL on a loopback static server started once per binary.
async fn demo_url() -> &'static str {
    static URL: OnceCell<String> = OnceCell::const_new();
    URL.get_or_init(|| async {
        let root = dist();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(common::serve_with(listener, move |path| {
            let root = root.clone();
            async move { demo_file(&root, &path).await }
        }));
        format!("http://{addr}/")
    })
    .await
}

/// A file of the built demo (`index.html` for the app's client-side routes).
async fn demo_file(root: &Path, path: &str) -> common::Reply {
    let path = path.split('?').next().unwrap_or("/");
    let name = path.trim_start_matches('/');
    let no_store = "Cache-Control: no-store\r\n".to_string();
    if name.contains("..") {
        return (
            "403 Forbidden",
            "text/plain",
            no_store,
            b"forbidden".to_vec(),
        );
    }
    // Extension-less paths are client-side routes of the single-page app.
    let ext = Path::new(name).extension().and_then(|e| e.to_str());
    let file = match ext {
        Some(_) => root.join(name),
        None => root.join("index.html"),
    };
    let ctype = match ext.unwrap_or("html") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "map" => "application/json",
        _ => "application/octet-stream",
    };
    match tokio::fs::read(&file).await {
        Ok(body) => ("200 OK", ctype, no_store, body),
        Err(_) => (
            "404 Not Found",
            "text/plain",
            no_store,
            b"not found".to_vec(),
        ),
    }
}

/// A context on the demo page with the Test Kit bridge ready, plus every bridge output so far.
struct Demo {
    ctx: WebContext,
    env: Env,
    outputs: Vec<String>,
}

impl Demo {
    async fn open() -> Demo {
        let url = demo_url().await;
        let mut env = Env::new();
        env.deadline = Instant::now() + Duration::from_secs(90);
        env.action_timeout = Duration::from_secs(10);
        let mut ctx = context().await;
        ok(&mut ctx, &env, &format!("navigate {{ url = {url:?} }}")).await;
        // Bounded in-page poll for the bridge's readiness (the module script runs after load).
        let ready = ctx
            .evaluate_json(
                r#"new Promise((resolve) => {
  const until = performance.now() + 10000;
  const check = () => {
    const b = window[Symbol.for("a3s.test.page-context")];
    if (b !== undefined && b.probe().ready === true) return resolve(true);
    if (performance.now() > until) return resolve(false);
    setTimeout(check, 20);
  };
  check();
})"#,
                Instant::now() + CALL_BOUND,
            )
            .await
            .expect("readiness poll");
        assert_eq!(ready, json!(true), "the Test Kit bridge never became ready");
        Demo {
            ctx,
            env,
            outputs: Vec::new(),
        }
    }

    /// Call a bridge method; its JSON output is kept for the secrets check.
    async fn try_call(&mut self, method: &str, args: Value) -> Result<Value, StepFailure> {
        let expression = format!(
            r#"(async (m, args) => {{
  const b = window[Symbol.for("a3s.test.page-context")];
  if (b === undefined) throw new Error("no bridge");
  if (typeof b[m] !== "function") throw new Error("no method " + m);
  return await b[m](...args);
}})({}, {})"#,
            Value::String(method.into()),
            args
        );
        let result = self
            .ctx
            .evaluate_json(&expression, Instant::now() + CALL_BOUND)
            .await;
        match &result {
            Ok(v) => self.outputs.push(v.to_string()),
            Err(f) => self.outputs.push(f.message.clone()),
        }
        result
    }

    async fn call(&mut self, method: &str, args: Value) -> Value {
        match self.try_call(method, args).await {
            Ok(v) => v,
            Err(f) => panic!("{method}() failed: {} {}", f.code, f.message),
        }
    }

    async fn snapshot(&mut self, request: Value) -> Value {
        self.call("snapshot", json!([request])).await
    }

    async fn revision(&mut self) -> u64 {
        let r = self.snapshot(json!({})).await;
        r["revision"].as_u64().expect("revision")
    }

    /// `waitForChange(revision, ms)`: the bridge's bounded wait for the next revision.
    async fn wait_for_change(&mut self, revision: u64, ms: u64) -> Value {
        self.call("waitForChange", json!([revision, ms])).await
    }

    /// Wait for a change after `revision` and require `reason` among its reasons.
    async fn expect_change(&mut self, revision: u64, reason: &str) -> u64 {
        let c = self.wait_for_change(revision, CHANGE_MS).await;
        assert_eq!(c["changed"], json!(true), "no change for {reason}: {c}");
        let reasons = c["reasons"].as_array().expect("reasons");
        assert!(reasons.contains(&json!(reason)), "expected {reason}: {c}");
        let next = c["revision"].as_u64().expect("revision");
        assert!(next > revision, "revision did not advance: {c}");
        next
    }

    /// Run one ACL statement that must pass.
    async fn step(&mut self, statement: &str) {
        ok(&mut self.ctx, &self.env, statement).await;
    }

    async fn eval(&self, expression: &str) -> Value {
        self.ctx
            .evaluate_json(expression, Instant::now() + CALL_BOUND)
            .await
            .unwrap_or_else(|f| panic!("{expression}: {} {}", f.code, f.message))
    }

    async fn close(self) {
        use a3s_test_driver::SurfaceContext;
        self.ctx.close().await.expect("close context");
    }
}

/// `click` the element with this test id.
fn click(id: &str) -> String {
    format!("click {{ target = testid({id:?}) }}")
}

/// `fill` the control with this test id.
fn fill(id: &str, value: &str) -> String {
    format!("fill {{\n    target = testid({id:?})\n    value = {value:?}\n}}")
}

fn by_test_id<'a>(snapshot: &'a Value, id: &str) -> &'a Value {
    snapshot["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|n| n["testId"] == json!(id))
        .unwrap_or_else(|| panic!("no node with testId {id}"))
}

const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn snapshot_shape_boundaries_and_shadow_dom() {
    block_on(LIMIT, async {
        let mut demo = Demo::open().await;
        let h = demo.call("handshake", json!([])).await;
        assert_eq!(h["protocol"], "a3s.test.testkit-handshake/1", "{h}");
        assert_eq!(h["packageName"], "@a3s-lab/testkit", "{h}");

        let r = demo.snapshot(json!({})).await;
        assert_eq!(r["protocol"], "a3s.test.page-context/1");
        assert!(
            r["revision"].as_u64().expect("revision") >= 1,
            "{}",
            r["revision"]
        );
        assert_eq!(r["truncated"], json!(false));
        assert_eq!(r["nextCursor"], Value::Null);
        let page = &r["page"];
        assert_eq!(page["id"], "testkit-demo");
        assert_eq!(page["route"], "/");
        assert_eq!(page["title"], "A3S Test Kit demo");
        assert_eq!(page["ready"], json!(true));
        // The layout viewport (clientWidth/Height: scrollbars excluded) of the 1280x720 window.
        let client = demo
            .eval("[document.documentElement.clientWidth, document.documentElement.clientHeight, innerWidth, innerHeight]")
            .await;
        assert_eq!(client[2], json!(1280), "window {client}");
        assert_eq!(client[3], json!(720), "window {client}");
        assert_eq!(page["viewport"]["width"], client[0], "{}", page["viewport"]);
        assert_eq!(
            page["viewport"]["height"], client[1],
            "{}",
            page["viewport"]
        );
        assert_eq!(page["viewport"]["dpr"], json!(1));
        assert_eq!(r["facts"], json!({ "route": "/", "demo": true }));

        let nodes = r["nodes"].as_array().expect("nodes");
        assert!(!nodes.is_empty());
        let mut ids = std::collections::HashSet::new();
        for n in nodes {
            let id = n["id"].as_str().expect("every node has an id");
            assert!(!id.is_empty() && ids.insert(id.to_string()), "id {id}");
            assert!(n["locators"].is_array(), "locators of {n}");
        }
        let sign_in = by_test_id(&r, "sign-in");
        assert_eq!(sign_in["role"], "button");
        assert_eq!(sign_in["name"], "Sign in");
        assert_eq!(sign_in["componentId"], "login-form");
        assert_eq!(
            sign_in["locators"][0],
            json!({ "kind": "role", "role": "button", "name": "Sign in" })
        );
        let email = by_test_id(&r, "email");
        let kinds: Vec<&str> = email["locators"]
            .as_array()
            .expect("locators")
            .iter()
            .filter_map(|l| l["kind"].as_str())
            .collect();
        assert_eq!(kinds, ["role", "label", "testId", "placeholder", "css"]);

        // Boundaries become components with source hints …
        let mut components: Vec<&str> = r["components"]
            .as_array()
            .expect("components")
            .iter()
            .filter_map(|c| c["id"].as_str())
            .collect();
        components.sort_unstable();
        assert_eq!(
            components,
            ["item-list", "login-form", "scroll-region", "shadow-widget"]
        );
        let list = r["components"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "item-list")
            .unwrap();
        assert_eq!(list["name"], "ItemList");
        assert_eq!(
            list["source"],
            json!({ "file": "testkit/demo/src/main.tsx", "line": 48, "column": 1 })
        );
        assert_eq!(list["facts"], json!({ "count": 3 }));
        assert!(!list["boxes"].as_array().expect("boxes").is_empty());
        // … and nodes inside them carry source-mapping candidates.
        let add = by_test_id(&r, "add-item");
        let mapping = &add["sourceMapping"];
        assert_eq!(mapping["protocol"], "a3s.test.source-mapping/1", "{add}");
        let candidate = &mapping["candidates"][0];
        assert_eq!(candidate["span"]["file"], "testkit/demo/src/main.tsx");
        assert_eq!(candidate["span"]["line"], json!(48));
        assert_eq!(candidate["origin"], "boundary_hint");
        assert_eq!(candidate["relation"], "ancestor");
        assert_eq!(candidate["registrationId"], "item-list");

        // Open shadow DOM nodes are part of the snapshot, and a driver click reaches them.
        let button = by_test_id(&r, "shadow-button");
        assert_eq!(button["inShadowRoot"], json!(true));
        assert_eq!(button["role"], "button");
        assert_eq!(button["name"], "Shadow action");
        assert_eq!(button["componentId"], "shadow-widget");
        let last = button["locators"]
            .as_array()
            .and_then(|l| l.last())
            .expect("a css locator");
        assert_eq!(last["kind"], "css");
        assert!(
            last["shadowHosts"][0]
                .as_str()
                .is_some_and(|h| h.contains("demo-shadow-widget")),
            "{last}"
        );
        let rev = r["revision"].as_u64().unwrap();
        demo.step(r#"click { target = role("button", "Shadow action") }"#)
            .await;
        demo.expect_change(rev, "mutation").await;
        let after = demo.snapshot(json!({})).await;
        assert_eq!(
            by_test_id(&after, "shadow-count")["text"],
            "Pressed 1 times"
        );
        demo.close().await;
    });
}

#[test]
fn revision_is_still_when_idle_and_bumps_on_mutation_input_scroll_and_route() {
    block_on(LIMIT, async {
        let mut demo = Demo::open().await;
        let rev = demo.revision().await;
        let idle = demo.wait_for_change(rev, 300).await;
        assert_eq!(
            idle,
            json!({ "revision": rev, "changed": false, "reasons": [] }),
            "an idle page advanced its revision"
        );

        demo.step(&click("add-item")).await;
        let rev = demo.expect_change(rev, "mutation").await;

        demo.step(&fill("email", "ada@example.com")).await;
        demo.expect_change(rev, "input").await;

        let rev = demo.revision().await;
        demo.eval(r#"document.querySelector('[data-testid="scroller"]').scrollTo(0, 200)"#)
            .await;
        let rev = demo.expect_change(rev, "scroll").await;

        demo.step(&click("nav-settings")).await;
        demo.expect_change(rev, "route").await;
        let settings = demo.snapshot(json!({})).await;
        assert_eq!(settings["page"]["route"], "/settings");
        assert!(settings["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "Settings page"));
        assert_eq!(demo.eval("location.pathname").await, "/settings");
        demo.close().await;
    });
}

#[test]
fn complete_and_reset_diffs_and_stale_cursors() {
    block_on(LIMIT, async {
        let mut demo = Demo::open().await;
        let base = demo.snapshot(json!({})).await;
        let base_rev = base["revision"].as_u64().unwrap();
        demo.step(&click("remove-item")).await;
        let d = demo
            .call(
                "waitForDiff",
                json!([{ "sinceRevision": base_rev, "timeoutMs": CHANGE_MS }]),
            )
            .await;
        let delta = &d["delta"];
        assert_eq!(delta["status"], "complete", "{d}");
        assert_eq!(delta["invalidated"]["all"], json!(false));
        let apples = base["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["tag"] == "li" && n["text"] == "Apples")
            .expect("the Apples item");
        let removed = d["removedNodeIds"].as_array().expect("removedNodeIds");
        assert!(removed.contains(&apples["id"]), "{d}");
        let invalidated: Vec<&str> = delta["invalidated"]["nodeIds"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let mut sorted = invalidated.clone();
        sorted.sort_unstable();
        assert_eq!(invalidated, sorted, "invalidated ids are sorted");
        let diff_nodes = d["nodes"].as_array().unwrap();
        for n in diff_nodes {
            assert!(!removed.contains(&n["id"]), "a removed node is listed: {n}");
        }
        assert!(diff_nodes.len() * 2 < base["nodes"].as_array().unwrap().len());

        // A projection that was never snapshotted has no baseline.
        let scoped = demo
            .snapshot(json!({
                "detail": "diff",
                "sinceRevision": base_rev,
                "scope": { "kind": "component", "componentId": "item-list" },
            }))
            .await;
        assert_eq!(scoped["delta"]["status"], "reset_required", "{scoped}");
        assert_eq!(scoped["delta"]["invalidated"]["all"], json!(true));
        assert_eq!(scoped["delta"]["invalidated"]["nodeIds"], json!([]));

        // Cursors page through one revision and are rejected once the page changed.
        let first = demo.snapshot(json!({ "limits": { "nodes": 5 } })).await;
        assert_eq!(first["truncated"], json!(true));
        let cursor = first["nextCursor"].clone();
        assert!(cursor.is_string(), "{first}");
        let second = demo
            .snapshot(json!({ "limits": { "nodes": 5 }, "cursor": cursor }))
            .await;
        assert_ne!(second["nodes"][0]["id"], first["nodes"][0]["id"]);
        demo.step(&click("add-item")).await;
        demo.expect_change(first["revision"].as_u64().unwrap(), "mutation")
            .await;
        let stale = demo
            .try_call(
                "snapshot",
                json!([{ "limits": { "nodes": 5 }, "cursor": cursor }]),
            )
            .await;
        match stale {
            Ok(v) => panic!("a stale cursor was accepted: {v}"),
            Err(f) => assert!(f.message.contains("cursor_stale"), "{}", f.message),
        }
        demo.close().await;
    });
}

#[test]
fn a_typed_password_never_appears_in_any_output() {
    block_on(LIMIT, async {
        let mut demo = Demo::open().await;
        let base_rev = demo.revision().await;
        demo.step(&fill("password", PASSWORD)).await;
        demo.step(r#"focus { target = testid("password") }"#).await;
        // The value really is in the page: the check below is not vacuous.
        assert_eq!(
            demo.eval(r#"document.querySelector('[data-testid="password"]').value"#)
                .await,
            PASSWORD
        );
        let r = demo
            .snapshot(json!({ "detail": "forensic", "ui": true }))
            .await;
        let pw = by_test_id(&r, "password");
        assert_eq!(pw["state"]["valueRedacted"], json!(true), "{pw}");
        assert_eq!(pw["state"]["focused"], json!(true), "{pw}");
        let notes = by_test_id(&r, "private-notes");
        assert_eq!(notes["redacted"], json!(true));
        assert_eq!(notes["text"], "[redacted]");
        let pw_id = pw["id"].clone();
        demo.snapshot(json!({})).await;
        demo.snapshot(json!({ "detail": "scoped" })).await;
        demo.snapshot(json!({ "scope": { "kind": "node", "nodeId": pw_id } }))
            .await;
        demo.snapshot(json!({ "detail": "diff", "sinceRevision": base_rev }))
            .await;
        demo.call(
            "waitForDiff",
            json!([{ "sinceRevision": base_rev, "timeoutMs": 0 }]),
        )
        .await;
        demo.call(
            "waitForDiff",
            json!([{ "sinceRevision": 1, "timeoutMs": 0 }]),
        )
        .await;
        demo.call("probe", json!([])).await;

        assert!(demo.outputs.len() >= 8, "{} outputs", demo.outputs.len());
        let all = demo.outputs.join("\n");
        assert!(!all.contains(PASSWORD), "the password value was serialized");
        assert!(!all.contains(RECOVERY), "a redacted region was serialized");
        let dom = demo.eval("document.documentElement.outerHTML").await;
        let dom = dom.as_str().expect("html");
        assert!(!dom.contains("data-a3s") && !dom.contains("a3s-node-id"));
        demo.close().await;
    });
}

/// A card number typed into a field the page never marked private: A3S Test's own rule
/// (`autocomplete="cc-number"`) keeps it out.
const CARD: &str = "4111 1111 1111 1111";

#[test]
fn the_driver_reports_nothing_private_in_observations_messages_evidence_or_screenshots() {
    use a3s_test_driver::privacy::{PrivacyLevel, REDACTED};
    use a3s_test_driver::{AgentContext, FailureCode};
    block_on(LIMIT, async {
        let mut demo = Demo::open().await;
        demo.eval(
            r#"document.querySelector('form').insertAdjacentHTML('beforeend',
  '<label for="card">Card number</label><input id="card" data-testid="card" autocomplete="cc-number">')"#,
        )
        .await;
        demo.step(&fill("password", PASSWORD)).await;
        demo.step(&fill("card", CARD)).await;
        let deadline = Instant::now() + CALL_BOUND;
        let mut outputs = Vec::new();

        // The observation: names kept, values and the region's text replaced.
        let snapshot = demo
            .ctx
            .snapshot_controls(deadline)
            .await
            .expect("snapshot");
        let observed = serde_json::to_string(&snapshot).unwrap();
        let card = snapshot
            .controls
            .iter()
            .find(|c| c.name == "Card number")
            .unwrap_or_else(|| panic!("no card field in {observed}"));
        assert_eq!(card.value.as_deref(), Some(REDACTED), "{observed}");
        assert!(
            snapshot.texts.iter().any(|t| t.text.contains(REDACTED)),
            "the private notes are shown as redacted: {observed}"
        );
        outputs.push(observed);

        // What the session asks before it records a typed value.
        for (target, level) in [
            ("password", PrivacyLevel::Value),
            ("card", PrivacyLevel::Value),
            ("private-notes", PrivacyLevel::Hidden),
            ("email", PrivacyLevel::Open),
        ] {
            let t = a3s_test_lang::ir::Target::TestId {
                test_id: target.into(),
            };
            let p = demo.ctx.target_privacy(Some(&t), deadline).await.unwrap();
            assert_eq!(p.level, level, "{target}: {p:?}");
            outputs.push(serde_json::to_string(&p).unwrap());
        }

        // Failure messages: a value assertion, a page-text assertion, a rendered-text one.
        for (statement, code) in [
            (
                r#"expect "card" {
    target = testid("card")
    value = "4111"
    immediate = true
}"#,
                FailureCode::ValueMismatch,
            ),
            (
                r#"expect "text" {
    text = "nowhere on this page"
    immediate = true
}"#,
                FailureCode::TextMismatch,
            ),
            (
                r#"expect "notes" {
    target = testid("private-notes")
    rendered_text = "nothing"
    immediate = true
}"#,
                FailureCode::RenderedTextMismatch,
            ),
        ] {
            outputs.push(common::fails(&mut demo.ctx, &demo.env, statement, code).await);
        }

        // Evidence: the accessibility dump and a screenshot with the private boxes painted over.
        demo.step(r#"accessibility { path = "private/a11y.json" }"#)
            .await;
        demo.step(r#"screenshot { path = "private/shot.png" }"#)
            .await;
        outputs.push(std::fs::read_to_string(demo.env.artifact("private/a11y.json")).unwrap());
        let shot = std::fs::read(demo.env.artifact("private/shot.png")).unwrap();
        let notes = demo
            .eval(
                r#"(() => { const r = document.querySelector('[data-testid="private-notes"]').getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2, devicePixelRatio]; })()"#,
            )
            .await;
        let (x, y, scale) = (
            notes[0].as_f64().unwrap(),
            notes[1].as_f64().unwrap(),
            notes[2].as_f64().unwrap(),
        );
        assert_eq!(
            pixel(&shot, x * scale, y * scale),
            [0x33, 0x33, 0x33],
            "the redacted region is masked in the screenshot"
        );

        let all = outputs.join("\n");
        for secret in [PASSWORD, CARD, RECOVERY] {
            assert!(!all.contains(secret), "{secret} was reported:\n{all}");
        }
        demo.close().await;
    });
}

/// The RGB of one pixel of a PNG.
fn pixel(png_bytes: &[u8], x: f64, y: f64) -> [u8; 3] {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.line_size / info.width as usize;
    let i = (y as usize) * info.line_size + (x as usize) * channels;
    [buf[i], buf[i + 1], buf[i + 2]]
}
