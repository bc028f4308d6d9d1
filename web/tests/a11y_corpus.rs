//! The shared accessible-name corpus (`tests/fixtures/a11y/`) against real Chromium: for every
//! case, (a) the shared TypeScript module as bundled into the driver (`a11y.generated.js`),
//! evaluated in the page, (b) the driver's own `role(r, name)` resolution and (c) Chromium's
//! accessibility tree (its `computedRole`/`computedName`) agree on role and name — or the
//! expectations record Chromium's answer with the reason we deliberately differ.

mod common;

use a3s_test_driver::{ContextOptions, SurfaceDriver};
use a3s_test_web::{LaunchOptions, WebDriver};
use common::*;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;
use tokio::time::Instant;

const LIMIT: Duration = Duration::from_secs(120);

/// The generated bundle of `testkit/src/a11y`, exactly as the driver includes it.
const A11Y_JS: &str = include_str!("../src/a11y.generated.js");

/// One case of `expected.json`.
#[derive(Debug, Deserialize)]
struct Case {
    case: String,
    role: Option<String>,
    name: String,
    /// Chromium's answer where it deliberately differs from ours, and why.
    #[serde(default)]
    chromium: Option<Chromium>,
}

#[derive(Debug, Deserialize)]
struct Chromium {
    role: Option<String>,
    name: String,
    reason: String,
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/a11y")
}

/// Chromium's role spelled as ours: "no role" is `None`, and ARIA 1.3's `image` is our `img`
/// (the name ACL locators and the Test Kit use).
fn chromium_role(v: &Value) -> Option<String> {
    match v.as_str() {
        None | Some("") | Some("generic") | Some("none") => None,
        Some("image") => Some("img".into()),
        Some(r) => Some(r.to_string()),
    }
}

#[test]
fn ours_the_driver_and_chromium_agree_on_every_case() {
    let cases: Vec<Case> =
        serde_json::from_slice(&std::fs::read(fixtures().join("expected.json")).unwrap())
            .expect("expected.json parses");
    assert!(cases.len() >= 40, "the corpus has {} cases", cases.len());
    let corpus = std::fs::read(fixtures().join("corpus.html")).unwrap();
    block_on(LIMIT, async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/corpus.html", listener.local_addr().unwrap());
        tokio::spawn(serve_with(listener, move |_path| {
            let body = corpus.clone();
            async move { ("200 OK", "text/html; charset=utf-8", String::new(), body) }
        }));
        // Chromium exposes its own computation to script behind this feature.
        let driver = WebDriver::launch(LaunchOptions {
            extra_args: vec!["--enable-blink-features=ComputedAccessibilityInfo".into()],
            ..LaunchOptions::default()
        })
        .await
        .expect("launch chromium");
        let mut ctx = driver
            .new_context(ContextOptions::default())
            .await
            .expect("open context");
        let env = Env::new();
        ok(&mut ctx, &env, &format!("navigate {{ url = {url:?} }}")).await;
        let expression = format!(
            "(() => {{ {A11Y_JS}\n{}}})()",
            r#"
const all = [];
const visit = (root) => { for (const el of root.querySelectorAll('*')) { all.push(el); if (el.shadowRoot) visit(el.shadowRoot); } };
visit(document);
const out = {};
for (const el of all) {
  const id = el.getAttribute('data-case');
  if (id === null) continue;
  out[id] = {
    role: A3S_A11Y.roleOf(el) ?? null,
    name: A3S_A11Y.accName(el).name,
    chromiumRole: el.computedRole ?? null,
    chromiumName: el.computedName ?? null,
  };
}
return out;
"#
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        let seen = ctx
            .evaluate_json(&expression, deadline)
            .await
            .expect("evaluate");
        let mut problems = Vec::new();
        let mut actual = Vec::new();
        for case in &cases {
            let got = &seen[&case.case];
            assert!(got.is_object(), "no element has data-case={:?}", case.case);
            let ours = (
                got["role"].as_str().map(str::to_string),
                got["name"].as_str().unwrap_or("").to_string(),
            );
            let theirs = (
                chromium_role(&got["chromiumRole"]),
                got["chromiumName"].as_str().unwrap_or("").to_string(),
            );
            actual.push(json!({ "case": case.case, "ours": [ours.0, ours.1], "chromium": [theirs.0, theirs.1] }));
            if ours != (case.role.clone(), case.name.clone()) {
                problems.push(format!(
                    "{}: ours {ours:?}, expected {:?}",
                    case.case,
                    (&case.role, &case.name)
                ));
            }
            let want = match &case.chromium {
                Some(c) => {
                    assert!(
                        !c.reason.trim().is_empty(),
                        "{}: a difference needs a reason",
                        case.case
                    );
                    (c.role.clone(), c.name.clone())
                }
                None => (case.role.clone(), case.name.clone()),
            };
            if theirs != want {
                problems.push(format!(
                    "{}: chromium {theirs:?}, expected {want:?}",
                    case.case
                ));
            }
            // The driver resolves role(r, name, exact = true) to exactly this one element.
            if let (Some(role), false) = (&case.role, case.name.is_empty()) {
                let name = &case.name;
                let statement = format!(
                    "expect {{\n    target = role({role:?}, {name:?}, exact = true)\n    visible_count = 1\n}}"
                );
                let counted = run(&mut ctx, &env, &statement).await;
                if let Err(f) = counted {
                    problems.push(format!(
                        "{}: the driver's role({role:?}, {:?}, exact = true): {}",
                        case.case, case.name, f.message
                    ));
                }
            }
        }
        assert!(
            problems.is_empty(),
            "{}\n\nactual:\n{}",
            problems.join("\n"),
            serde_json::to_string_pretty(&actual).unwrap()
        );
    });
}
