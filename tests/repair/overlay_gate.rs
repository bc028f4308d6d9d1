//! The Review Overlay is the reviewer's: in real Chromium, with the real Test Kit and overlay
//! mounted on the page, an agent session neither sees nor operates it. Observations list none
//! of its controls, no target resolves inside it, a click whose point it covers is refused with
//! `test.session.review_overlay` (exit 2) before the pointer moves, and so are a key press and a
//! text insertion while the focus is inside it. A suite step meets the same gate.

use crate::page_server::AppServer;
use crate::support::*;
use serde_json::Value;
use std::path::Path;

const SESSION: &str = "og";

/// A page with the Test Kit and the mounted overlay; a button placed exactly under the
/// overlay's own "Element" button; a page button that moves the focus into the overlay (as a
/// reviewer's Tab would); every key and click the page sees is written to `#state`.
const PAGE: &str = r#"<!doctype html><html><head><title>Gate</title></head><body>
<main><h1>Shop</h1><button id="pay">Pay</button> <button id="focus">Focus the overlay</button>
<p id="state">Loading</p></main>
<button id="under" style="position: fixed; z-index: 0">Under the overlay</button>
<script type="importmap">{ "imports": { "@a3s-lab/testkit": "/kit/index.js" } }</script>
<script type="module">
import { installTestKit } from "/kit/index.js";
import { mountReviewOverlay } from "/kit/overlay.js";
installTestKit({ enabled: true, page: { id: "gate" } });
mountReviewOverlay({ enabled: true, locale: "en" });
const state = document.getElementById("state");
const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
const host = document.querySelector("a3s-review-overlay");
let element = null;
for (let i = 0; i < 120 && element === null; i++) {
  await frame();
  element = host.shadowRoot.querySelector('[data-focus="mode-element"]');
}
const r = element.getBoundingClientRect();
Object.assign(document.getElementById("under").style, {
  left: r.left + "px", top: r.top + "px", width: r.width + "px", height: r.height + "px",
});
document.getElementById("under").addEventListener("click", () => { state.textContent = "Under clicked"; });
document.getElementById("focus").addEventListener("click", () => { element.focus(); state.textContent = "Overlay focused"; });
document.addEventListener("keydown", (e) => { state.textContent = "Key " + e.key; }, true);
document.addEventListener("beforeinput", () => { state.textContent = "Text inserted"; }, true);
state.textContent = "Ready";
</script></body></html>"#;

fn exec(root: &Path, statement: &str) -> (Option<i32>, Value) {
    let out = run(
        root,
        &["agent", "exec", statement, "--session", SESSION, "--json"],
        None,
    );
    (out.status.code(), json(&out))
}

fn refused_by_the_gate(root: &Path, statement: &str) {
    let (code, v) = exec(root, statement);
    assert_eq!(code, Some(2), "{statement}: {v}");
    assert_eq!(v["error"]["code"], "test.session.review_overlay", "{v}");
}

fn state_is(root: &Path, text: &str) {
    let (code, v) = exec(root, &format!(r#"wait {{ text = "{text}" }}"#));
    assert_eq!(code, Some(0), "{text}: {v}");
}

#[test]
fn an_agent_neither_sees_nor_operates_the_review_overlay() {
    let app = AppServer::start(PAGE);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let _abort = start_session(root, &app.origin, SESSION);
    state_is(root, "Ready");

    // Observations: the page's controls, none of the overlay's.
    let seen =
        String::from_utf8(run(root, &["agent", "observe", "--session", SESSION], None).stdout)
            .unwrap();
    assert!(seen.contains("button \"Pay\""), "{seen}");
    assert!(seen.contains("button \"Under the overlay\""), "{seen}");
    for theirs in ["heading \"Review\"", "button \"Element\"", "Send"] {
        assert!(!seen.contains(theirs), "{theirs} in {seen}");
    }
    // No target resolves inside it, by role or by its host's tag.
    for target in [
        r#"role("button", "Element")"#,
        r#"css("a3s-review-overlay")"#,
    ] {
        let (code, v) = exec(root, &format!("expect {{ hidden = {target} }}"));
        assert_eq!(code, Some(0), "{target}: {v}");
    }

    // A click whose point the overlay covers is refused; the button under it never hears it.
    let observed = ok_json(root, &["agent", "observe", "--session", SESSION, "--json"]);
    let under = ref_named(&observed, "Under the overlay");
    refused_by_the_gate(root, &format!("click {{ target = ref(\"{under}\") }}"));
    refused_by_the_gate(root, r##"click { target = css("#under") }"##);
    state_is(root, "Ready");

    // With the focus inside the overlay, keys and text are refused; the page sees neither.
    let (code, v) = exec(
        root,
        r#"click { target = role("button", "Focus the overlay") }"#,
    );
    assert_eq!(code, Some(0), "{v}");
    state_is(root, "Overlay focused");
    refused_by_the_gate(root, r#"press { key = "Enter" }"#);
    refused_by_the_gate(root, r#"insert_text { value = "Send it" }"#);
    state_is(root, "Overlay focused");
    // Keys into a page control still work.
    let (code, v) = exec(
        root,
        "press {\n  key = \"Enter\"\n  target = role(\"button\", \"Pay\")\n}",
    );
    assert_eq!(code, Some(0), "{v}");
    state_is(root, "Key Enter");

    // A suite meets the same gate: its step fails with the driver's code, a specification
    // failure (the suite is wrong, not the product), so the run exits 2.
    let suite = root.join("gate.acl");
    std::fs::write(
        &suite,
        format!(
            "suite \"gate\" {{\n    base_url = \"{}\"\n\n    scenario \"under\" {{\n        name = \"A click through the overlay\"\n        surface = \"web\"\n        navigate \"open\" {{ url = \"/\" }}\n        wait \"ready\" {{ text = \"Ready\" }}\n        click \"under\" {{ target = css(\"#under\") }}\n    }}\n}}\n",
            app.origin
        ),
    )
    .unwrap();
    let out = crate::common::output_within(
        std::process::Command::new(BIN)
            .args(["run", suite.to_str().unwrap()])
            .current_dir(root),
        None,
        DEADLINE,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("test.driver.web.review_overlay"), "{text}");
}

/// The ref of the observed control named `name`.
fn ref_named(observation: &Value, name: &str) -> String {
    observation["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .and_then(|r| r["ref"].as_str())
        .unwrap_or_else(|| panic!("no ref named {name:?} in {observation}"))
        .to_string()
}
