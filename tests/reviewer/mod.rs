//! The reviewer's own hands in end-to-end tests: a CDP connection of the test's own to the
//! session's Chromium (its DevTools endpoint from `session.json`), which sends real pointer and
//! key events to the page the way a person's mouse and keyboard do. The session's driver
//! refuses to operate the Review Overlay (the overlay is the reviewer's), so a test that plays
//! the reviewer must not go through `agent …`: it goes through this connection, which never
//! touches the ledger and holds no authority of the tool's.
//!
//! chromiumoxide's high-level `Browser` is used here (not the product's router): the test only
//! needs a handful of commands, and it attaches with no viewport emulation, so the page's
//! geometry stays the session's.

use crate::common::wait_until;
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventParams,
    DispatchMouseEventType, InsertTextParams, MouseButton,
};
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::{Browser, Page};
use futures_util::StreamExt;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// How long the reviewer waits for something to appear in the page or the overlay.
const WITHIN: Duration = Duration::from_secs(30);

/// One reviewer at the session's page.
pub struct Reviewer {
    rt: tokio::runtime::Runtime,
    page: Page,
    _browser: Browser,
}

/// A point in CSS pixels of the viewport.
#[derive(serde::Deserialize)]
struct Point {
    x: f64,
    y: f64,
}

/// The element the `find` expression names (`h` is the overlay's shadow root, `d` the
/// document), scrolled into view: its centre, or `null` while it is not there.
fn centre_of(find: &str) -> String {
    format!(
        "(() => {{ const host = document.querySelector('a3s-review-overlay'); \
         const h = host && host.shadowRoot; const d = document; \
         const el = {find}; if (!el) return null; el.scrollIntoView({{ block: 'nearest' }}); \
         const r = el.getBoundingClientRect(); \
         return r.width > 0 && r.height > 0 ? {{ x: r.left + r.width / 2, y: r.top + r.height / 2 }} : null; }})()"
    )
}

/// The overlay's control with `data-focus="focus"`.
pub fn overlay(focus: &str) -> String {
    format!("h && h.querySelector('[data-focus=\"{focus}\"]')")
}

/// The page's button whose text contains `text`.
pub fn page_button(text: &str) -> String {
    format!("[...d.querySelectorAll('button')].find((b) => b.textContent.includes({text:?}))")
}

impl Reviewer {
    /// Connect to the Chromium of the session whose record is `session_json`, at its page whose
    /// URL starts with `url`.
    pub fn at(session_json: &Path, url: &str) -> Reviewer {
        let record: Value = serde_json::from_slice(&std::fs::read(session_json).unwrap()).unwrap();
        let endpoint = record["cdp_endpoint"]
            .as_str()
            .expect("the session records its DevTools endpoint")
            .to_string();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (browser, page) = rt.block_on(async {
            let config = HandlerConfig {
                viewport: None,
                ..HandlerConfig::default()
            };
            let (mut browser, mut handler) = Browser::connect_with_config(endpoint, config)
                .await
                .expect("the reviewer connects to the session's browser");
            tokio::spawn(async move { while handler.next().await.is_some() {} });
            let until = tokio::time::Instant::now() + WITHIN;
            loop {
                let _ = browser.fetch_targets().await;
                for page in browser.pages().await.unwrap_or_default() {
                    let at = page.url().await.ok().flatten().unwrap_or_default();
                    if at.starts_with(url) {
                        return (browser, page);
                    }
                }
                assert!(
                    tokio::time::Instant::now() < until,
                    "no page at {url} in the session's browser"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
        Reviewer {
            rt,
            page,
            _browser: browser,
        }
    }

    fn eval(&self, expression: &str) -> Value {
        self.rt.block_on(async {
            self.page
                .evaluate(expression)
                .await
                .map(|r| r.into_value::<Value>().unwrap_or(Value::Null))
                .unwrap_or(Value::Null)
        })
    }

    /// Wait until the element `find` names is on screen; its centre.
    fn point(&self, find: &str) -> Point {
        let expression = centre_of(find);
        let mut found = None;
        let seen = wait_until(WITHIN, || {
            found = serde_json::from_value::<Point>(self.eval(&expression)).ok();
            found.is_some()
        });
        assert!(seen, "the reviewer never saw {find}");
        found.unwrap()
    }

    fn mouse(&self, kind: DispatchMouseEventType, at: &Point) {
        let mut event = DispatchMouseEventParams::builder()
            .r#type(kind.clone())
            .x(at.x)
            .y(at.y);
        if kind != DispatchMouseEventType::MouseMoved {
            event = event.button(MouseButton::Left).click_count(1);
        }
        let event = event.build().unwrap();
        self.rt.block_on(self.page.execute(event)).unwrap();
    }

    /// Move the mouse onto the element `find` names and click it.
    pub fn click(&self, find: &str) {
        let at = self.point(find);
        self.mouse(DispatchMouseEventType::MouseMoved, &at);
        self.mouse(DispatchMouseEventType::MousePressed, &at);
        self.mouse(DispatchMouseEventType::MouseReleased, &at);
    }

    /// Move the focus to the element `find` names, as the reviewer's Tab key would.
    pub fn focus(&self, find: &str) {
        self.point(find);
        let expression = format!(
            "(() => {{ const host = document.querySelector('a3s-review-overlay'); \
             const h = host && host.shadowRoot; const d = document; const el = {find}; \
             el.focus(); return true; }})()"
        );
        assert_eq!(self.eval(&expression), Value::Bool(true));
    }

    /// Press and release one printable key (`e`) on whatever has the focus.
    pub fn key(&self, key: &str) {
        let code = format!("Key{}", key.to_uppercase());
        for kind in [DispatchKeyEventType::KeyDown, DispatchKeyEventType::KeyUp] {
            let mut event = DispatchKeyEventParams::builder()
                .r#type(kind.clone())
                .key(key)
                .code(code.clone());
            if kind == DispatchKeyEventType::KeyDown {
                event = event.text(key);
            }
            let event = event.build().unwrap();
            self.rt.block_on(self.page.execute(event)).unwrap();
        }
    }

    /// Click into the field `find` names and type `text` into it.
    pub fn type_into(&self, find: &str, text: &str) {
        self.click(find);
        let insert = InsertTextParams::new(text);
        self.rt.block_on(self.page.execute(insert)).unwrap();
    }

    /// Choose the option labelled `label` of the `<select>` `find` names. The select's own
    /// list is drawn outside the page, where CDP input does not reach; the choice is made the way
    /// the list makes it (the option selected, then `input` and `change`).
    pub fn choose(&self, find: &str, label: &str) {
        self.click(find);
        let expression = format!(
            "(() => {{ const host = document.querySelector('a3s-review-overlay'); \
             const h = host && host.shadowRoot; const d = document; const s = {find}; \
             const o = [...s.options].find((o) => o.textContent.trim() === {label:?}); \
             if (!o) return false; s.value = o.value; \
             s.dispatchEvent(new Event('input', {{ bubbles: true }})); \
             s.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})()"
        );
        assert_eq!(self.eval(&expression), Value::Bool(true), "no option {label:?}");
    }

    /// Wait until the overlay's rendered text satisfies `holds`; that text.
    pub fn overlay_until(&self, holds: impl Fn(&str) -> bool) -> String {
        let expression = "(() => { const host = document.querySelector('a3s-review-overlay'); \
             if (!host) return ''; return [...host.shadowRoot.children] \
             .map((e) => e.innerText ?? e.textContent ?? '').join('\\n'); })()";
        let mut text = String::new();
        let seen = wait_until(WITHIN, || {
            text = self.eval(expression).as_str().unwrap_or("").to_string();
            holds(&text)
        });
        assert!(seen, "the overlay never showed it; it shows:\n{text}");
        text
    }

    /// The attribute `name` of the overlay's control with `data-focus="focus"`.
    pub fn overlay_attribute(&self, focus: &str, name: &str) -> Option<String> {
        let find = overlay(focus);
        let expression = format!(
            "(() => {{ const host = document.querySelector('a3s-review-overlay'); \
             const h = host && host.shadowRoot; const el = {find}; \
             return el ? el.getAttribute({name:?}) : null; }})()"
        );
        self.eval(&expression).as_str().map(str::to_string)
    }
}
