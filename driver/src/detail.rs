//! The facts a passing step reports ([`crate::StepOutput::detail`]), typed: one variant per kind
//! of fact, so steps build them with the compiler's help, tests match on them instead of reading
//! JSON back by key, and a step that needs another step's fact (`press` into a target reads the
//! element `focus` found) gets it as a value.
//!
//! Why untagged: the runner records each detail as JSON in `--json` results, run events and
//! `agent exec` answers, which tools read. Each variant serializes to exactly the object it
//! stands for, without a tag; the test below pins every shape.
//!
//! It reads back untagged too (`merge-reports` reads a shard's results): serde takes the first
//! variant whose required fields are all present, so the variants are ordered from the most to
//! the least specific (`Clicked` before `Element`, `Download` before `Screenshot`, `TabOpened` —
//! whose `label` is required on reading — before `TabSwitched`). Two variants can print the same
//! object (`Observed` and a `Waited` that saw something); the one read back then prints the same
//! object, which is all a reader of the JSON can tell — the test below reads every shape back and
//! prints it again.
//!
//! Why a second, tagged form ([`Tagged`]): a reader that must get the very variant back — an
//! `agent exec` answer crossing the supervisor socket — cannot rely on the untagged guess. The
//! tagged form names the variant (`{"kind": "waited", "facts": {…}}`) and is generated from the
//! same declaration by the `step_details!` macro, so the two forms cannot drift apart.

use a3s_test_lang::ir::Modifier;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Declares [`StepDetail`] once and derives both of its JSON forms from that one declaration:
/// the enum itself, untagged (results, run events, printed answers), and `TaggedForm`, serde's
/// remote mirror of it with an adjacent `kind` tag ([`Tagged`], the supervisor socket). The
/// compiler checks the mirror against the enum, and both are written by this macro from the same
/// tokens.
macro_rules! step_details {
    (
        $(#[$meta:meta])*
        pub enum StepDetail {
            $(
                $(#[$vmeta:meta])*
                $variant:ident
                $({ $($(#[$fmeta:meta])* $field:ident: $fty:ty),* $(,)? })?
                $(($inner:ty))?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(untagged)]
        pub enum StepDetail {
            $(
                $(#[$vmeta])*
                $variant $({ $($(#[$fmeta])* $field: $fty),* })? $(($inner))?
            ),*
        }

        /// [`StepDetail`] with its variant named: serde's remote mirror, never built itself.
        #[derive(Serialize, Deserialize)]
        #[serde(remote = "StepDetail", tag = "kind", content = "facts", rename_all = "snake_case")]
        #[allow(dead_code)]
        enum TaggedForm {
            $(
                $(#[$vmeta])*
                $variant $({ $($(#[$fmeta])* $field: $fty),* })? $(($inner))?
            ),*
        }
    };
}

step_details! {
/// What a step that ran to completion found or did, in the shape its JSON record has.
pub enum StepDetail {
    /// A desktop session's window screenshot bound as `@vN` (`screenshot`), or a click at a
    /// point of one (`visual_point`): the id, the PNG's digest and size, and for a click the
    /// point and the element found there. First: its required `screenshot` and `sha256` make it
    /// the most specific.
    VisualPoint {
        /// The screenshot id, `@vN`.
        screenshot: String,
        /// SHA-256 of the PNG, lower-case hex.
        sha256: String,
        /// The window image's width in pixels.
        width: u32,
        /// The window image's height in pixels.
        height: u32,
        /// Screen x of the image's left edge (other steps' details give screen pixels).
        left: i32,
        /// Screen y of the image's top edge.
        top: i32,
        /// For a click: the point, pixels from the image's left edge.
        #[serde(skip_serializing_if = "Option::is_none")]
        x: Option<u32>,
        /// For a click: the point, pixels from the image's top edge.
        #[serde(skip_serializing_if = "Option::is_none")]
        y: Option<u32>,
        /// For a click: the durable locator of the element at the point, when exactly one
        /// names it (what promotion writes), else the element described.
        #[serde(skip_serializing_if = "Option::is_none")]
        element: Option<String>,
    },
    /// A desktop step's input (`docs/gui.md`): the element, which input path ran (real XTest
    /// events, or an accessibility action where the step says so), where a pointer pressed and
    /// what the hit test found there, and — when the step ended the program (an OK that closes
    /// its last window) — how it ended. First: its required `input` makes it the most specific.
    Desktop {
        /// The element, described (`push button "7"`).
        element: String,
        /// The input path: `xtest` or `accessibility_action`.
        input: String,
        /// The accessibility action performed (`click`, `press` …) when the path is
        /// `accessibility_action`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<String>,
        /// Screen x of a pointer press.
        #[serde(skip_serializing_if = "Option::is_none")]
        x: Option<i32>,
        /// Screen y of a pointer press.
        #[serde(skip_serializing_if = "Option::is_none")]
        y: Option<i32>,
        /// The deepest element at the point before the press (the element or inside it).
        #[serde(skip_serializing_if = "Option::is_none")]
        hit: Option<String>,
        /// Keys sent (one per character, or one chord).
        #[serde(skip_serializing_if = "Option::is_none")]
        keys: Option<usize>,
        /// How a key step's target got the keyboard focus before its keys: `had`, `click`
        /// (a real click, whose point and hit are `x`, `y`, `hit`), `grab_focus` (the toolkit's
        /// focus request) or `window` (a top-level window as the target).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        focus: Option<String>,
        /// The window's default button a bare Enter in a single-line field presses, when the
        /// step waited for it to be enabled before sending the key (`push button "Save"`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        default_button: Option<String>,
        /// `exit code N` / `signal N` when the program had ended once the step's input was
        /// handled.
        #[serde(skip_serializing_if = "Option::is_none")]
        program_exit: Option<String>,
    },
    /// `click`, `double_click`, `context_click`: the element, the viewport point pressed and
    /// the element the hit test found there (the target or something inside it).
    Clicked {
        /// The element, described.
        element: String,
        /// The topmost element at the point just before the press: the target itself, a
        /// descendant of it, or a label that forwards to it.
        hit: String,
        /// Viewport x of the press, CSS px.
        x: f64,
        /// Viewport y of the press, CSS px.
        y: f64,
    },
    /// `check`, `uncheck`: whether the state had to change.
    Checked {
        /// The element, described.
        element: String,
        /// False when it already was in the wanted state (nothing was clicked).
        changed: bool,
        /// `Some(false)` when a dialog opened before the new state could be read back.
        #[serde(skip_serializing_if = "Option::is_none")]
        verified: Option<bool>,
        /// When it was clicked: the topmost element at the point pressed (the control, inside
        /// it, or a label of it).
        #[serde(skip_serializing_if = "Option::is_none")]
        hit: Option<String>,
    },
    /// `type`: how many keystrokes went to the element.
    Typed {
        /// The element, described.
        element: String,
        /// Keystrokes sent (one per character).
        keys: usize,
    },
    /// `select`: the options now selected.
    Selected {
        /// The element, described.
        element: String,
        /// The values of the selected options (untrusted page data).
        selected: Vec<String>,
    },
    /// `press`: the key sent, and the element focused first when the step named a target.
    Pressed {
        /// `KeyboardEvent.key` of the key.
        key: String,
        /// Modifiers held.
        modifiers: Vec<Modifier>,
        /// The element focused first, described.
        #[serde(skip_serializing_if = "Option::is_none")]
        element: Option<String>,
    },
    /// `hover`, `focus`, `fill`: the element acted on.
    Element {
        /// The element, described.
        element: String,
        /// `Some(false)` when a dialog opened before `fill` could read the value back.
        #[serde(skip_serializing_if = "Option::is_none")]
        verified: Option<bool>,
        /// `hover`: the topmost element at the point the pointer rests on (the target or inside
        /// it).
        #[serde(skip_serializing_if = "Option::is_none")]
        hit: Option<String>,
    },
    /// `drag`: from which element to which, and what was on top at either end.
    Dragged {
        /// The source element, described.
        source: String,
        /// The destination element, described.
        target: String,
        /// The topmost element where the drag pressed (the source or inside it).
        source_hit: String,
        /// The topmost element where it released, checked before the drag began.
        target_hit: String,
        /// Viewport point of the press, CSS px: a trace marks where the drag began. Absent in
        /// records written before it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<(f64, f64)>,
        /// Viewport point of the release, CSS px (absent as `from` is).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<(f64, f64)>,
    },
    /// `wheel`: where and how far.
    Wheeled {
        /// Viewport x of the wheel event, CSS px.
        x: f64,
        /// Viewport y of the wheel event, CSS px.
        y: f64,
        /// Horizontal delta.
        delta_x: i64,
        /// Vertical delta.
        delta_y: i64,
    },
    /// `download`: what the page downloaded.
    Download {
        /// The file name the page suggested (untrusted).
        suggested_filename: String,
        /// Size of the saved file.
        bytes: u64,
        /// Always true: the name is page data.
        untrusted: bool,
    },
    /// `screenshot`: the PNG's size.
    Screenshot {
        /// PNG bytes.
        bytes: usize,
    },
    /// `insert_text`: how many characters went in.
    Chars {
        /// Characters inserted.
        chars: usize,
    },
    /// `frame`: the document later steps act in.
    Frame {
        /// `main`, or the iframe's CSS selector.
        frame: String,
        /// The iframe document's URL (absent for `main`).
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
    /// `navigate`: the URL loaded (relative URLs resolved).
    Url {
        /// The absolute URL.
        url: String,
    },
    /// `upload`: how many files the input now holds.
    Files {
        /// Files set on the input.
        files: usize,
    },
    /// `tab { operation = "list" }`: every open tab.
    Tabs {
        /// The tabs in opening order.
        tabs: Vec<TabEntry>,
    },
    /// `tab { operation = "new" }`: the tab opened (now the current one).
    TabOpened {
        /// Its index.
        index: usize,
        /// Its label, `null` when it has none (always written, and required on reading, so a
        /// `TabSwitched` is not read as this).
        #[serde(deserialize_with = "Option::deserialize")]
        label: Option<String>,
    },
    /// `tab { operation = "switch" }`: the tab now current.
    TabSwitched {
        /// Its index.
        index: usize,
    },
    /// `tab { operation = "close" }`: which tab closed and how many stay open.
    TabClosed {
        /// The closed tab's index.
        closed: usize,
        /// Tabs still open.
        open: usize,
    },
    /// `dialog { operation = "status" }`.
    Dialog(DialogStatus),
    /// `dialog { operation = "accept" | "dismiss" }`: the dialog answered.
    DialogHandled {
        /// The dialog, described (type and untrusted message).
        handled: String,
        /// True when accepted.
        accepted: bool,
    },
    /// `viewport`: the new size.
    Viewport {
        /// Width, CSS px.
        width: u32,
        /// Height, CSS px.
        height: u32,
        /// Device scale factor.
        scale: u32,
    },
    /// `network_route`: the route set and how many routes there are now.
    Routed {
        /// The URL pattern.
        pattern: String,
        /// Routes in force.
        routes: usize,
    },
    /// `network_unroute`: how many routes were removed.
    Unrouted {
        /// Routes removed.
        removed: usize,
    },
    /// `har { operation = "start" }`.
    HarStarted {
        /// Always true.
        recording: bool,
    },
    /// `request`: the answer's status and size (never its body or the headers sent).
    ApiAnswered {
        /// The HTTP status.
        api_status: u16,
        /// Bytes of the body read.
        body_bytes: usize,
    },
    /// `route_from_har`: how many recorded answers the route holds.
    HarRouted {
        /// Entries read from the HAR file.
        har_entries: usize,
    },
    /// `har { operation = "stop" }`: entries written.
    HarWritten {
        /// HAR entries.
        entries: usize,
    },
    /// `save_storage_state`: where the state went and how much of it (never its values).
    StorageStateSaved {
        /// The path as written (relative to the project root).
        storage_state: String,
        /// Cookies saved.
        cookies: usize,
        /// Origins whose localStorage was saved.
        origins: usize,
        /// IndexedDB databases saved (`indexed_db = true`); absent when none.
        #[serde(default, skip_serializing_if = "is_zero")]
        databases: usize,
    },
    /// `trace { operation = "start" }`.
    TraceStarted {
        /// Always true.
        tracing: bool,
    },
    /// `trace { operation = "stop" }`: trace events written.
    TraceWritten {
        /// Trace events.
        events: usize,
    },
    /// `snapshot`: the size of the observation.
    Snapshot {
        /// Nodes in the tree.
        nodes: usize,
        /// Interactive nodes among them.
        interactive_nodes: usize,
        /// Whether the step asked for interactive nodes only.
        interactive: bool,
    },
    /// `accessibility`: the size of the tree written.
    Accessibility {
        /// Nodes in the tree.
        nodes: usize,
        /// Interactive nodes among them.
        interactive: usize,
    },
    /// `console`: messages written.
    Console {
        /// Console messages in the file.
        messages: usize,
        /// Whether the log was emptied.
        cleared: bool,
    },
    /// `page_errors`: errors written.
    PageErrors {
        /// Page errors in the file.
        errors: usize,
        /// Whether the log was emptied.
        cleared: bool,
    },
    /// `expect` with stability: the condition held, then every planned sample held.
    Stable {
        /// Samples taken.
        samples: u32,
        /// The stability window, ms.
        window_ms: u32,
        /// From the step's start to the first reading that held (where the window starts), ms.
        waited_ms: u64,
    },
    /// `expect` without stability: what the reading that held saw, and how long the step
    /// waited for it (0 when it held at once).
    Observed {
        /// The resolver's observation (untrusted page data; its shape is the condition's).
        /// JSON on purpose: the surface's reading (`ConditionSample::Holds`) passed on untouched,
        /// shaped by the condition and the page, never read by the runner.
        observed: Value,
        /// From the step's start to the reading that held, ms.
        waited_ms: u64,
    },
    /// `wait`: how long it took and (except `load = "networkidle"`) what it last saw.
    Waited {
        /// Time waited, ms.
        waited_ms: u64,
        /// The resolver's observation when the condition held (JSON for the reason
        /// [`StepDetail::Observed`]'s is).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        observed: Option<Value>,
    },
}
}

/// A [`StepDetail`] that names its variant on the wire (`{"kind": "tab_opened", "facts":
/// {"index": 1, "label": null}}`), so it reads back as exactly the variant written: the form an
/// `agent exec` answer carries across the supervisor socket, where the untagged guess could turn
/// a `wait` into an `expect`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tagged(#[serde(with = "TaggedForm")] pub StepDetail);

/// One tab of `tab { operation = "list" }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TabEntry {
    /// Position in opening order.
    pub index: usize,
    /// The tab's label, `null` when it has none.
    pub label: Option<String>,
    /// The tab's URL (`null` when the browser did not list it).
    pub url: Option<String>,
    /// The tab's title (untrusted; `null` when the browser did not list it).
    pub title: Option<String>,
    /// True for the current tab.
    pub current: bool,
}

/// `dialog { operation = "status" }`: `{"open": false}`, or the open dialog's facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DialogStatus {
    /// Whether a dialog is open.
    pub open: bool,
    /// The open dialog.
    #[serde(flatten)]
    pub dialog: Option<OpenDialog>,
}

/// A JavaScript dialog that is open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenDialog {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The message (untrusted page text).
    pub message: String,
    /// The default prompt text.
    pub default_prompt: Option<String>,
    /// Always true: the message is page data.
    pub untrusted: bool,
}

/// A count worth writing only when it is not zero.
/// Reads a field that is there as `Some`, even when it is `null`: serde's default reads a JSON
/// `null` as `None`, which would turn a `wait` that saw `null` into one that saw nothing (the
/// field is left out when there is nothing, so the two print apart and must read apart too).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl StepDetail {
    /// The detail of a step that acted on one element and has nothing else to report (`hover`,
    /// `focus`, a verified `fill`).
    pub fn element(element: String) -> StepDetail {
        StepDetail::Element {
            element,
            verified: None,
            hit: None,
        }
    }
}

impl From<StepDetail> for Value {
    fn from(detail: StepDetail) -> Value {
        serde_json::to_value(detail).expect("step details serialize")
    }
}

#[cfg(test)]
mod tagged_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `detail => json` pairs (a braced macro, so each case stays one line).
    macro_rules! shapes {
        ($($detail:expr => $json:tt;)*) => { vec![$(($detail, json!($json))),*] };
    }

    /// Every variant against the JSON the runner has always recorded for it.
    #[test]
    fn each_detail_serializes_to_its_recorded_shape() {
        use StepDetail::*;
        let el = || "button \"Save\"".to_string();
        let tab = TabEntry {
            index: 0,
            label: None,
            url: Some("about:blank".into()),
            title: None,
            current: true,
        };
        let prompt = OpenDialog {
            kind: "prompt".into(),
            message: "Name?".into(),
            default_prompt: None,
            untrusted: true,
        };
        let cases: Vec<(StepDetail, Value)> = shapes! {
            Desktop { element: el(), input: "xtest".into(), action: None, x: Some(3), y: Some(4), hit: Some(el()), keys: None, focus: None, default_button: None, program_exit: None } => { "element": el(), "input": "xtest", "x": 3, "y": 4, "hit": el() };
            Desktop { element: el(), input: "xtest".into(), action: None, x: None, y: None, hit: None, keys: Some(2), focus: Some("click".into()), default_button: None, program_exit: Some("exit code 0".into()) } => { "element": el(), "input": "xtest", "keys": 2, "focus": "click", "program_exit": "exit code 0" };
            Desktop { element: el(), input: "xtest".into(), action: None, x: None, y: None, hit: None, keys: Some(1), focus: Some("had".into()), default_button: Some("push button \"Save\"".into()), program_exit: None } => { "element": el(), "input": "xtest", "keys": 1, "focus": "had", "default_button": "push button \"Save\"" };
            Desktop { element: el(), input: "accessibility_action".into(), action: Some("click".into()), x: None, y: None, hit: None, keys: None, focus: None, default_button: None, program_exit: None } => { "element": el(), "input": "accessibility_action", "action": "click" };
            Clicked { element: el(), hit: "<span> \"Save\"".into(), x: 10.5, y: 20.0 } => { "element": el(), "hit": "<span> \"Save\"", "x": 10.5, "y": 20.0 };
            Element { element: el(), verified: None, hit: None } => { "element": el() };
            Element { element: el(), verified: Some(false), hit: None } => { "element": el(), "verified": false };
            Element { element: el(), verified: None, hit: Some(el()) } => { "element": el(), "hit": el() };
            Checked { element: el(), changed: true, verified: Some(false), hit: Some(el()) } => { "element": el(), "changed": true, "verified": false, "hit": el() };
            Checked { element: el(), changed: false, verified: None, hit: None } => { "element": el(), "changed": false };
            Typed { element: el(), keys: 3 } => { "element": el(), "keys": 3 };
            Selected { element: el(), selected: vec!["a".into()] } => { "element": el(), "selected": ["a"] };
            Dragged { source: el(), target: "div".into(), source_hit: el(), target_hit: "div".into(), from: None, to: None } => { "source": el(), "target": "div", "source_hit": el(), "target_hit": "div" };
            Dragged { source: el(), target: "div".into(), source_hit: el(), target_hit: "div".into(), from: Some((1.5, 2.0)), to: Some((30.0, 40.25)) } => { "source": el(), "target": "div", "source_hit": el(), "target_hit": "div", "from": [1.5, 2.0], "to": [30.0, 40.25] };
            Wheeled { x: 1.0, y: 2.0, delta_x: 0, delta_y: -120 } => { "x": 1.0, "y": 2.0, "delta_x": 0, "delta_y": -120 };
            Pressed { key: "Enter".into(), modifiers: vec![Modifier::Shift], element: Some(el()) } => { "key": "Enter", "modifiers": ["shift"], "element": el() };
            Pressed { key: "a".into(), modifiers: vec![], element: None } => { "key": "a", "modifiers": [] };
            Chars { chars: 4 } => { "chars": 4 };
            Url { url: "about:blank".into() } => { "url": "about:blank" };
            StorageStateSaved { storage_state: ".a3s-test/auth.json".into(), cookies: 2, origins: 1, databases: 0 } => { "storage_state": ".a3s-test/auth.json", "cookies": 2, "origins": 1 };
            StorageStateSaved { storage_state: ".a3s-test/auth.json".into(), cookies: 2, origins: 1, databases: 3 } => { "storage_state": ".a3s-test/auth.json", "cookies": 2, "origins": 1, "databases": 3 };
            Files { files: 2 } => { "files": 2 };
            Download { suggested_filename: "r.txt".into(), bytes: 17, untrusted: true } => { "suggested_filename": "r.txt", "bytes": 17, "untrusted": true };
            Tabs { tabs: vec![tab] } => { "tabs": [{ "index": 0, "label": null, "url": "about:blank", "title": null, "current": true }] };
            TabOpened { index: 1, label: None } => { "index": 1, "label": null };
            TabSwitched { index: 0 } => { "index": 0 };
            TabClosed { closed: 1, open: 1 } => { "closed": 1, "open": 1 };
            Frame { frame: "main".into(), url: None } => { "frame": "main" };
            Frame { frame: "#child".into(), url: Some("http://x/".into()) } => { "frame": "#child", "url": "http://x/" };
            Dialog(DialogStatus { open: false, dialog: None }) => { "open": false };
            Dialog(DialogStatus { open: true, dialog: Some(prompt) }) => { "open": true, "type": "prompt", "message": "Name?", "default_prompt": null, "untrusted": true };
            DialogHandled { handled: "alert \"hi\"".into(), accepted: true } => { "handled": "alert \"hi\"", "accepted": true };
            Viewport { width: 800, height: 600, scale: 1 } => { "width": 800, "height": 600, "scale": 1 };
            Routed { pattern: "**/api".into(), routes: 1 } => { "pattern": "**/api", "routes": 1 };
            Unrouted { removed: 2 } => { "removed": 2 };
            HarStarted { recording: true } => { "recording": true };
            HarWritten { entries: 4 } => { "entries": 4 };
            ApiAnswered { api_status: 200, body_bytes: 17 } => { "api_status": 200, "body_bytes": 17 };
            HarRouted { har_entries: 3 } => { "har_entries": 3 };
            TraceStarted { tracing: true } => { "tracing": true };
            TraceWritten { events: 9 } => { "events": 9 };
            Screenshot { bytes: 99 } => { "bytes": 99 };
            Accessibility { nodes: 5, interactive: 2 } => { "nodes": 5, "interactive": 2 };
            Snapshot { nodes: 5, interactive_nodes: 2, interactive: false } => { "nodes": 5, "interactive_nodes": 2, "interactive": false };
            Console { messages: 3, cleared: true } => { "messages": 3, "cleared": true };
            PageErrors { errors: 0, cleared: false } => { "errors": 0, "cleared": false };
            Observed { observed: json!({ "count": 1 }), waited_ms: 0 } => { "observed": { "count": 1 }, "waited_ms": 0 };
            Observed { observed: Value::Null, waited_ms: 3 } => { "observed": null, "waited_ms": 3 };
            Stable { samples: 5, window_ms: 400, waited_ms: 620 } => { "samples": 5, "window_ms": 400, "waited_ms": 620 };
            Waited { waited_ms: 12, observed: Some(Value::Null) } => { "waited_ms": 12, "observed": null };
            Waited { waited_ms: 501, observed: None } => { "waited_ms": 501 };
        };
        for (detail, want) in cases {
            let text = serde_json::to_string(&detail).unwrap();
            // Read back, it prints the same object (the variant it reads as may print alike).
            let back: StepDetail = serde_json::from_str(&text).unwrap();
            assert_eq!(
                Value::from(back.clone()),
                want,
                "{text} read back as {back:?}"
            );
            assert_eq!(Value::from(detail), want, "{text}");
        }
    }
}
