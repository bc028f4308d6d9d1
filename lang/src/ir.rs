//! The admitted IR: what the checker produces and the executor runs.
//!
//! Everything here has already passed every rule of `docs/acl.md` §1–§12, so the runner never
//! re-checks syntax or types: an `Action::Click` always has a target, a `Stability` window is
//! always in range, an evidence path is always relative and `..`-free. The IR keeps each step's
//! logical path and span so runtime failures point back at the source exactly like admission errors
//! do. It is serde-serializable (`a3s-test check --json`) and deserializable (agent sessions
//! persist steps).

use crate::span::Span;
use serde::{Deserialize, Serialize};

mod contract;
pub use contract::{
    Contract, ContractCheck, ContractDecision, ContractExpectation, ContractRelation,
    ContractRoute, ContractSource, ContractState, ExpectationKind,
};
mod groups;
mod terminal;
pub mod terminal_key;
mod text_value;
pub use groups::{GroupCall, GroupDef, GroupItem, GroupKind, Hook, Library, StepGroup};
mod gui;
pub use gui::{GuiProgram, GUI_STEPS};
pub use terminal::{
    ScreenMatch, TerminalCondition, TerminalStep, TuiProgram, TERMINAL_ONLY_STEPS, TERMINAL_STEPS,
};
pub use text_value::{EnvVar, EnvVarError, TextValue, MAX_ENV_NAME_BYTES};
mod aria;
pub use aria::{parse_aria, AriaTemplate, AriaTemplateError, AriaText};
mod snapshot;
pub use snapshot::{
    Animations, AriaExpectation, DiffBudget, SnapshotName, VisualExpectation, DEFAULT_THRESHOLD,
    MAX_MASKS, MAX_SNAPSHOT_NAME_BYTES,
};
mod json_path;
mod network;
pub use json_path::{JsonPath, JsonPathError, JsonScalar, PathSegment, MAX_JSON_PATH};
mod organise;
pub use network::{
    ApiRequest, ContinueOverrides, HarNotFound, HarReplay, JsonCheck, NetworkEvent, NetworkWait,
    RouteResponse, UrlPattern,
};
pub use organise::{Annotations, Dependency, Organisation, SkipAnnotation, StatePath, SLOW_FACTOR};

/// Default scenario deadline (`docs/acl.md` §2).
pub const DEFAULT_SCENARIO_TIMEOUT_MS: u64 = 60_000;
/// Default action-target wait (`docs/acl.md` §4).
pub const DEFAULT_ACTION_TIMEOUT_MS: u64 = 5_000;
/// Default time an `expect` waits for its condition to hold (`docs/acl.md` §9), when neither the
/// step, the scenario, the suite, the run nor the project sets one.
pub const DEFAULT_EXPECT_TIMEOUT_MS: u64 = 5_000;
/// Default dev-server startup deadline (`docs/acl.md` §11).
pub const DEFAULT_STARTUP_TIMEOUT_MS: u64 = 60_000;
/// Default verification check deadline.
pub const DEFAULT_CHECK_TIMEOUT_MS: u64 = 120_000;

/// Defines [`ActionKind`] and [`Action::kind`] from one list, so the enum, its block names and
/// the mapping from actions can never drift apart.
macro_rules! action_kinds {
    ($( $variant:ident => $name:literal ),* $(,)? ; terminal: $( $tvariant:ident => $tname:literal ),* $(,)?) => {
        /// The kind of a step: one ACL step block (`docs/acl.md` §5). Typed, so a driver's
        /// capabilities and the capability gates match exhaustively; serialized as the block name.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        #[serde(rename_all = "snake_case")]
        pub enum ActionKind {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
            $(
                #[doc = concat!("`", $tname, "` (terminal scenarios only)")]
                $tvariant,
            )*
        }

        impl ActionKind {
            /// Every kind, in documentation order.
            pub const ALL: &'static [ActionKind] = &[ $( ActionKind::$variant, )* $( ActionKind::$tvariant, )* ];

            /// The ACL block name (`click`, `network_route`, …).
            pub fn name(self) -> &'static str {
                match self {
                    $( ActionKind::$variant => $name, )*
                    $( ActionKind::$tvariant => $tname, )*
                }
            }

            /// The kind whose block is named `name`, if any.
            pub fn from_name(name: &str) -> Option<ActionKind> {
                match name {
                    $( $name => Some(ActionKind::$variant), )*
                    $( $tname => Some(ActionKind::$tvariant), )*
                    _ => None,
                }
            }
        }

        impl Action {
            /// The kind of step that produced this action.
            pub fn kind(&self) -> ActionKind {
                match self {
                    $( Action::$variant { .. } => ActionKind::$variant, )*
                    Action::Terminal(step) => step.kind(),
                }
            }
        }
    };
}

action_kinds! {
    Navigate => "navigate",
    Click => "click",
    Hover => "hover",
    Focus => "focus",
    DoubleClick => "double_click",
    ContextClick => "context_click",
    Check => "check",
    Uncheck => "uncheck",
    Fill => "fill",
    Type => "type",
    InsertText => "insert_text",
    Select => "select",
    Drag => "drag",
    Press => "press",
    Wheel => "wheel",
    Viewport => "viewport",
    Snapshot => "snapshot",
    Wait => "wait",
    Expect => "expect",
    Screenshot => "screenshot",
    Accessibility => "accessibility",
    Console => "console",
    PageErrors => "page_errors",
    Tab => "tab",
    Frame => "frame",
    Dialog => "dialog",
    Upload => "upload",
    Download => "download",
    NetworkRoute => "network_route",
    NetworkUnroute => "network_unroute",
    Request => "request",
    RouteFromHar => "route_from_har",
    Har => "har",
    Trace => "trace",
    SaveStorageState => "save_storage_state",
    CheckContract => "check_contract",
    Context => "context",
    ClockFastForward => "clock_fast_forward",
    ClockPauseAt => "clock_pause_at",
    ClockResume => "clock_resume",
    ClockSetFixedTime => "clock_set_fixed_time",
    ;
    terminal:
    TerminalPaste => "terminal_paste",
    TerminalResize => "terminal_resize",
    TerminalRecording => "terminal_recording",
}

impl std::fmt::Display for ActionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One admitted file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "root", rename_all = "snake_case")]
pub enum AdmittedDocument {
    /// A test suite.
    Suite(Suite),
    /// Workspace configuration (`.a3s-test/project.acl`).
    Project(ProjectConfig),
    /// Shared step groups, included through the project file.
    Library(Library),
    /// A reviewed Surface Contract (`contract "id" { … }`), checked by `a3s-test contract check`.
    Contract(Contract),
}

/// `suite "id" { … }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suite {
    /// The suite id (its label).
    pub id: String,
    /// `version`, default 1.
    pub version: u32,
    /// Relative `navigate` URLs resolve against it.
    pub base_url: Option<String>,
    /// Scenarios in source order.
    pub scenarios: Vec<Scenario>,
    /// Span of the whole block.
    pub span: Span,
    /// `storage_state`: loaded into every scenario's context unless the scenario names its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_state: Option<StatePath>,
    /// The suite's own context options (already folded into each scenario's `context`).
    #[serde(default, skip_serializing_if = "ContextSettings::is_empty")]
    pub context: ContextSettings,
}

/// The surface a scenario drives: each has its own driver crate (`web/`, `tui/`, `gui/`), and
/// the checker admits only the steps and options its driver executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Surface {
    /// A web page in a browser.
    Web,
    /// A desktop GUI.
    Gui,
    /// A terminal UI.
    Tui,
}

impl Surface {
    /// The word a suite writes for it (`surface = "web"`), and messages and reports say.
    pub fn name(self) -> &'static str {
        match self {
            Surface::Web => "web",
            Surface::Gui => "gui",
            Surface::Tui => "tui",
        }
    }
}

/// `scenario "id" { … }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The scenario id, unique in its suite.
    pub id: String,
    /// Display name; defaults to the id.
    pub name: String,
    /// The surface it drives.
    pub surface: Surface,
    /// Deadline for the whole scenario, browser start included.
    pub timeout_ms: u64,
    /// How long an action waits for its target (suite value, overridden by the scenario).
    pub action_timeout_ms: u64,
    /// How long an `expect` waits for its condition (scenario value, else the suite's); `None`
    /// leaves it to the run (`--expect-timeout-ms`, the project file, else
    /// [`DEFAULT_EXPECT_TIMEOUT_MS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_timeout_ms: Option<u64>,
    /// Tags for `--tag`.
    pub tags: Vec<String>,
    /// Steps in run order, hooks and `use` groups expanded: `before_each`, its own, `after_each`.
    pub steps: Vec<Step>,
    /// The hooks and `use` groups its steps came from (`Step::group` indexes it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<StepGroup>,
    /// `suite.<id>.scenario.<id>`.
    pub path: String,
    /// Span of the whole block.
    pub span: Span,
    /// Dependencies, storage state and annotations ([`Organisation`]).
    #[serde(default, skip_serializing_if = "Organisation::is_default")]
    pub organisation: Organisation,
    /// Context options: the suite's with the scenario's own written over them (the runner puts
    /// the project's underneath).
    #[serde(default, skip_serializing_if = "ContextSettings::is_empty")]
    pub context: ContextSettings,
}

/// One step: an action plus where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The label; always present in suites, optional for statements.
    pub label: Option<String>,
    /// Logical path, e.g. `suite.checkout.scenario.guest.click.pay`.
    pub path: String,
    /// Span of the whole step block (of the `use` step, for a step of an included group).
    pub span: Span,
    /// What to do.
    pub action: Action,
    /// The innermost hook or `use` group it came from (index into `Scenario::groups`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    /// The hook it came from, so the executor knows an `after_each` step without the tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<Hook>,
}

/// Every web step of `docs/acl.md` §5.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Load a URL (relative URLs resolve against the suite's `base_url`).
    Navigate {
        /// The URL as written; a relative one resolves against the suite's `base_url`.
        url: String,
    },
    /// Single click (left unless `button` says otherwise).
    Click {
        /// The element acted on.
        target: Target,
        /// The button, the modifiers held and the point on the target.
        #[serde(default, skip_serializing_if = "PointerOptions::is_default")]
        pointer: PointerOptions,
        /// How the click reaches the element: real pointer input, or (a desktop only, where
        /// the step says so) the element's accessibility action.
        #[serde(default, skip_serializing_if = "InputVia::is_pointer")]
        via: InputVia,
        /// The accessibility action `via = "action:NAME"` names (`activate`), for an element
        /// that has several; `None` performs the first click-like one it has.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<String>,
    },
    /// Move the pointer over the target.
    Hover {
        /// The element acted on.
        target: Target,
        /// The button, the modifiers held and the point on the target.
        #[serde(default, skip_serializing_if = "PointerOptions::is_default")]
        pointer: PointerOptions,
    },
    /// Focus the target.
    Focus {
        /// The element acted on.
        target: Target,
    },
    /// Double click.
    DoubleClick {
        /// The element acted on.
        target: Target,
        /// The button, the modifiers held and the point on the target.
        #[serde(default, skip_serializing_if = "PointerOptions::is_default")]
        pointer: PointerOptions,
    },
    /// Right click.
    ContextClick {
        /// The element acted on.
        target: Target,
        /// The button, the modifiers held and the point on the target.
        #[serde(default, skip_serializing_if = "PointerOptions::is_default")]
        pointer: PointerOptions,
    },
    /// Make a checkbox/radio/switch checked.
    Check {
        /// The element acted on.
        target: Target,
    },
    /// Make a checkbox/switch unchecked.
    Uncheck {
        /// The element acted on.
        target: Target,
    },
    /// Replace the control's value.
    Fill {
        /// The element acted on.
        target: Target,
        /// The value that replaces the control's current value (a literal or `env("NAME")`).
        value: TextValue,
    },
    /// Append keystrokes to the control.
    Type {
        /// The element acted on.
        target: Target,
        /// The text typed as keystrokes after the current value (a literal or `env("NAME")`).
        value: TextValue,
    },
    /// Insert text at the current caret.
    InsertText {
        /// The text inserted at the caret (a literal or `env("NAME")`).
        value: TextValue,
    },
    /// Select options by value or label.
    Select {
        /// The element acted on.
        target: Target,
        /// Option values or labels to select (non-empty).
        values: Vec<String>,
    },
    /// Drag with real pointer events.
    Drag {
        /// The element dragged.
        source: Target,
        /// The element it is dropped on.
        target: Target,
        /// Release near this edge of the target instead of at its centre (a sortable list moves
        /// an item below another only once the pointer is past that item's middle).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        edge: Option<DragEdge>,
    },
    /// Press a key or chord, into the focused element or, with a target, into that element
    /// (focused first, in the same step).
    Press {
        /// The key or chord.
        key: KeyChord,
        /// The element focused before the key goes down; `None` = whatever has focus.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Target>,
    },
    /// Mouse wheel.
    Wheel {
        /// Horizontal scroll in CSS pixels (right > 0).
        delta_x: i64,
        /// Vertical scroll in CSS pixels (down > 0).
        delta_y: i64,
        /// Modifiers held during the wheel event (unique).
        modifiers: Vec<Modifier>,
        /// Where the pointer is when scrolling; `None` = the viewport centre.
        target: Option<Target>,
    },
    /// Resize the viewport.
    Viewport {
        /// Width in CSS pixels (> 0).
        width: u32,
        /// Height in CSS pixels (> 0).
        height: u32,
        /// Device scale factor (> 0), when given.
        scale: Option<u32>,
    },
    /// Record an observation.
    Snapshot {
        /// Record only interactive elements.
        interactive: bool,
    },
    /// Poll until a condition holds or the deadline passes.
    Wait {
        /// What to wait for.
        condition: WaitCondition,
    },
    /// Check the page once, or over a stability window.
    Expect {
        /// What must hold, and for how long.
        expectation: Expectation,
    },
    /// Save a PNG screenshot as evidence.
    Screenshot {
        /// Where the evidence is saved (artifact-relative).
        path: EvidencePath,
    },
    /// Save the accessibility tree as JSON evidence.
    Accessibility {
        /// Where the evidence is saved (artifact-relative).
        path: EvidencePath,
        /// Keep only interactive nodes.
        interactive: bool,
    },
    /// Save console messages as JSON evidence.
    Console {
        /// Where the evidence is saved (artifact-relative).
        path: EvidencePath,
        /// Clear the collected messages after saving them.
        clear: bool,
    },
    /// Save uncaught page errors as JSON evidence.
    PageErrors {
        /// Where the evidence is saved (artifact-relative).
        path: EvidencePath,
        /// Clear the collected errors after saving them.
        clear: bool,
    },
    /// Tab operations.
    Tab {
        /// What to do with tabs.
        operation: TabOperation,
    },
    /// Switch the frame that later steps act in.
    Frame {
        /// The frame to switch to.
        target: FrameTarget,
    },
    /// Handle a JavaScript dialog.
    Dialog {
        /// What to do with the dialog.
        operation: DialogOperation,
    },
    /// Set files on a file input.
    Upload {
        /// The element acted on.
        target: Target,
        /// Files to set, relative to the working directory.
        paths: Vec<String>,
    },
    /// Click the target and save the download it starts.
    Download {
        /// The element whose click starts the download.
        target: Target,
        /// Where the evidence is saved (artifact-relative).
        path: EvidencePath,
    },
    /// Fulfil or abort matching requests.
    NetworkRoute {
        /// The requests to intercept: a URL glob (`**/api/users`) or a regular expression.
        pattern: UrlPattern,
        /// How matching requests are answered.
        response: RouteResponse,
        /// `times = N`: the route answers N requests, then is gone and later ones fall through
        /// to older routes or the network; `None` = every request.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        times: Option<u32>,
    },
    /// Remove one route (or all when `pattern` is `None`).
    NetworkUnroute {
        /// The route's pattern as it was set; `None` removes every route.
        pattern: Option<UrlPattern>,
    },
    /// An API call with the context's cookies, and the answer it must get.
    Request {
        /// The call and its expectation.
        request: ApiRequest,
    },
    /// Answer requests from a recorded HAR.
    RouteFromHar {
        /// The file and what an unknown request gets.
        replay: HarReplay,
    },
    /// Record network traffic as HAR.
    Har {
        /// Start or stop recording.
        operation: CaptureOperation,
    },
    /// Record a trace.
    Trace {
        /// Start or stop recording.
        operation: CaptureOperation,
    },
    /// Write the context's cookies and per-origin localStorage (and, opted in, IndexedDB) as
    /// JSON (mode 0600), for `storage_state` to load into later contexts: sign in once.
    SaveStorageState {
        /// Where the state goes, relative to the project root.
        path: StatePath,
        /// Save every IndexedDB database of each origin too (`indexed_db = true`): opt-in, since
        /// an app's databases can be large and hold more than a sign-in.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        indexed_db: bool,
    },
    /// Reconcile one route of a reviewed Surface Contract against the current page: each
    /// expectation met, missing or different (`docs/contracts.md`); the step fails unless all
    /// are met. Reads only.
    CheckContract {
        /// The contract file, the route, and (after the runner's admission) the contract.
        check: Box<ContractCheck>,
    },
    /// Change the emulated context options mid-scenario (`offline`, `geolocation`, media
    /// features, headers, permissions); what it does not name stays as it was.
    Context {
        /// The options to change (only the emulated ones are admitted); boxed, since most steps
        /// are far smaller.
        settings: Box<ContextSettings>,
    },
    /// Move the page's clock forward, firing every timer due on the way.
    ClockFastForward {
        /// How far, in ms.
        ms: u64,
    },
    /// Move the page's clock to `time` (firing the timers due on the way) and stop it there.
    ClockPauseAt {
        /// Where the clock stops.
        time: ClockTime,
    },
    /// Let a paused clock flow with real time again.
    ClockResume,
    /// Make `Date` answer `time` from now on, whatever the timers do.
    ClockSetFixedTime {
        /// What `Date.now()` answers.
        time: ClockTime,
    },
    /// A step of a `surface = "tui"` scenario (`docs/acl.md` §5.1); its block name is
    /// [`TerminalStep::kind`].
    Terminal(TerminalStep),
}

impl Action {
    /// Every target the step names, in the order it uses them (a drag's source, then its
    /// target; an expectation's subject first): what the desktop checker vets and what a step
    /// trace records as the locators the step was resolved by.
    pub fn targets(&self) -> Vec<&Target> {
        match self {
            Action::Click { target, .. }
            | Action::Hover { target, .. }
            | Action::Focus { target }
            | Action::DoubleClick { target, .. }
            | Action::ContextClick { target, .. }
            | Action::Check { target }
            | Action::Uncheck { target }
            | Action::Fill { target, .. }
            | Action::Type { target, .. }
            | Action::Select { target, .. }
            | Action::Upload { target, .. }
            | Action::Download { target, .. } => vec![target],
            Action::Drag { source, target, .. } => vec![source, target],
            Action::Press { target, .. } | Action::Wheel { target, .. } => target.iter().collect(),
            Action::Wait {
                condition: WaitCondition::Page(page),
            } => page.target().into_iter().collect(),
            Action::Expect { expectation } => expectation.condition.targets(),
            _ => Vec::new(),
        }
    }
}

/// How an element is found (`docs/acl.md` §3).
///
/// Simple locators find elements by one property; `within`, `nth` and the filters combine
/// locators (nestable). Every form but `ref` can be resolved again later ([`Target::is_stable`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Target {
    /// Accessible role, and accessible name when given.
    Role {
        /// The ARIA role (`button`, `link`, …).
        role: String,
        /// The accessible name, when given.
        name: Option<TextMatch>,
    },
    /// Form control by its label.
    Label {
        /// The label text.
        label: TextMatch,
    },
    /// Input by placeholder.
    Placeholder {
        /// The placeholder text.
        placeholder: TextMatch,
    },
    /// Element by visible text (the deepest elements whose text matches).
    Text {
        /// The visible text.
        text: TextMatch,
    },
    /// `data-testid` (exact), in the document and its open shadow roots.
    TestId {
        /// The `data-testid` value.
        test_id: String,
    },
    /// The AT-SPI accessible id a desktop toolkit sets (`automation_id("save")`; desktop
    /// scenarios only).
    AutomationId {
        /// The id, exact.
        automation_id: String,
    },
    /// CSS selector, in the current document and its open shadow roots.
    Css {
        /// The CSS selector.
        selector: String,
    },
    /// A ref from the latest agent observation.
    Ref {
        /// The observation-bound ref.
        reference: ElementRef,
    },
    /// `visual_point("@v2", 120, 40)`: a point of one desktop session's window screenshot
    /// (`@vN`), for what has no accessible node (a drawn area). Bound to that screenshot's
    /// digest, so it is never durable: only a desktop agent session's `click` takes it, and
    /// promotion writes the element at the point instead.
    VisualPoint {
        /// The screenshot's number, `N` of `@vN`.
        shot: u32,
        /// Pixels from the screenshot's left edge.
        x: u32,
        /// Pixels from the screenshot's top edge.
        y: u32,
    },
    /// `within(outer, inner)`: matches of `inner` inside any match of `outer`.
    Within {
        /// Where to look.
        outer: Box<Target>,
        /// What to look for there.
        inner: Box<Target>,
    },
    /// `nth(target, i)` (`first`, `last`): one match of `target` by position in document order;
    /// a negative index counts from the end (`-1` is the last).
    Nth {
        /// The locator whose matches are counted.
        target: Box<Target>,
        /// 0-based position; negative from the end.
        index: i32,
    },
    /// `has_text(target, …)`, `has(target, inner)` and their negations: the matches of `target`
    /// that pass `filter`.
    Filter {
        /// The locator whose matches are filtered.
        target: Box<Target>,
        /// What each match must (not) contain.
        filter: TargetFilter,
    },
}

/// How a locator compares a text with a page's (an accessible name, a label, a placeholder, an
/// element's visible text). Both sides are whitespace-normalised first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "match", rename_all = "snake_case")]
pub enum TextMatch {
    /// Case-insensitive substring: the default, as in Playwright.
    Contains {
        /// The text looked for.
        value: String,
    },
    /// The whole text, case included (`exact = true`).
    Exact {
        /// The text.
        value: String,
    },
    /// A regular expression in JavaScript syntax, `/pattern/flags`.
    Regex {
        /// The body between the slashes, as written.
        pattern: String,
        /// The flags (`i`, `m`, `s`, `u`).
        flags: String,
    },
}

impl TextMatch {
    /// The default match: case-insensitive substring.
    pub fn contains(value: impl Into<String>) -> TextMatch {
        TextMatch::Contains {
            value: value.into(),
        }
    }

    /// The exact match (`exact = true`).
    pub fn exact(value: impl Into<String>) -> TextMatch {
        TextMatch::Exact {
            value: value.into(),
        }
    }

    /// The text looked for (the pattern of a regular expression).
    pub fn text(&self) -> &str {
        match self {
            TextMatch::Contains { value } | TextMatch::Exact { value } => value,
            TextMatch::Regex { pattern, .. } => pattern,
        }
    }

    /// The argument(s) as ACL: `"Save"`, `"Save", exact = true` or `/save/i`.
    fn write_args(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::printer::string_literal as q;
        match self {
            TextMatch::Contains { value } => f.write_str(&q(value)),
            TextMatch::Exact { value } => write!(f, "{}, exact = true", q(value)),
            TextMatch::Regex { pattern, flags } => write!(f, "/{pattern}/{flags}"),
        }
    }
}

/// What a [`Target::Filter`] keeps of its target's matches.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "filter", rename_all = "snake_case")]
pub enum TargetFilter {
    /// `has_text`: its visible text matches.
    HasText {
        /// The text.
        text: TextMatch,
    },
    /// `has_not_text`: its visible text does not match.
    HasNotText {
        /// The text.
        text: TextMatch,
    },
    /// `has`: an element inside it matches `inner`.
    Has {
        /// The locator searched inside each match.
        inner: Box<Target>,
    },
    /// `has_not`: no element inside it matches `inner`.
    HasNot {
        /// The locator searched inside each match.
        inner: Box<Target>,
    },
}

impl TargetFilter {
    /// The ACL function that writes this filter.
    pub fn function(&self) -> &'static str {
        match self {
            TargetFilter::HasText { .. } => "has_text",
            TargetFilter::HasNotText { .. } => "has_not_text",
            TargetFilter::Has { .. } => "has",
            TargetFilter::HasNot { .. } => "has_not",
        }
    }
}

impl Target {
    /// True for targets that can be re-resolved later (everything but refs, and compound
    /// locators made only of such).
    pub fn is_stable(&self) -> bool {
        match self {
            Target::Ref { .. } | Target::VisualPoint { .. } => false,
            Target::Within { outer, inner } => outer.is_stable() && inner.is_stable(),
            Target::Nth { target, .. } => target.is_stable(),
            Target::Filter { target, filter } => {
                target.is_stable()
                    && match filter {
                        TargetFilter::Has { inner } | TargetFilter::HasNot { inner } => {
                            inner.is_stable()
                        }
                        _ => true,
                    }
            }
            _ => true,
        }
    }

    /// `role(role, name)` with the exact name: what a durable locator read off a page writes.
    pub fn role_named(role: impl Into<String>, name: impl Into<String>) -> Target {
        Target::Role {
            role: role.into(),
            name: Some(TextMatch::exact(name)),
        }
    }
}

/// A target in ACL syntax (`role("button", "Save")`), exactly as the parser reads it back; used
/// in messages and when refs are replaced by durable targets in promoted suites.
impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::printer::string_literal as q;
        match self {
            Target::Role {
                role,
                name: Some(name),
            } => {
                write!(f, "role({}, ", q(role))?;
                name.write_args(f)?;
                f.write_str(")")
            }
            Target::Role { role, name: None } => write!(f, "role({})", q(role)),
            Target::Label { label } => {
                f.write_str("label(")?;
                label.write_args(f)?;
                f.write_str(")")
            }
            Target::Placeholder { placeholder } => {
                f.write_str("placeholder(")?;
                placeholder.write_args(f)?;
                f.write_str(")")
            }
            Target::Text { text } => {
                f.write_str("text(")?;
                text.write_args(f)?;
                f.write_str(")")
            }
            Target::TestId { test_id } => write!(f, "testid({})", q(test_id)),
            Target::AutomationId { automation_id } => {
                write!(f, "automation_id({})", q(automation_id))
            }
            Target::Css { selector } => write!(f, "css({})", q(selector)),
            Target::Ref { reference } => write!(f, "ref(\"{reference}\")"),
            Target::VisualPoint { shot, x, y } => {
                write!(f, "visual_point(\"@v{shot}\", {x}, {y})")
            }
            Target::Within { outer, inner } => write!(f, "within({outer}, {inner})"),
            Target::Nth { target, index: 0 } => write!(f, "first({target})"),
            Target::Nth { target, index: -1 } => write!(f, "last({target})"),
            Target::Nth { target, index } => write!(f, "nth({target}, {index})"),
            Target::Filter { target, filter } => {
                write!(f, "{}({target}, ", filter.function())?;
                match filter {
                    TargetFilter::HasText { text } | TargetFilter::HasNotText { text } => {
                        text.write_args(f)?
                    }
                    TargetFilter::Has { inner } | TargetFilter::HasNot { inner } => {
                        write!(f, "{inner}")?
                    }
                }
                f.write_str(")")
            }
        }
    }
}

/// An observation-bound ref, `@eN` or `@cN`. (`@uN` is rejected at admission.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "namespace", content = "index", rename_all = "snake_case")]
pub enum ElementRef {
    /// `@eN`: an accessibility-tree node.
    Accessibility(u32),
    /// `@cN`: a Test Kit Page Context node.
    PageContext(u32),
}

impl std::fmt::Display for ElementRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ElementRef::Accessibility(n) => write!(f, "@e{n}"),
            ElementRef::PageContext(n) => write!(f, "@c{n}"),
        }
    }
}

/// The target of a `frame` step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum FrameTarget {
    /// Back to the top document.
    Main,
    /// An iframe by CSS selector.
    Css {
        /// The CSS selector of the iframe.
        selector: String,
    },
    /// An iframe by ref.
    Ref {
        /// The iframe's observation-bound ref.
        reference: ElementRef,
    },
}

/// A key chord for `press`: modifiers held while `key` is pressed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyChord {
    /// Modifiers in the order written, unique.
    pub modifiers: Vec<Modifier>,
    /// The key: a single character or a named key (`Enter`, `ArrowDown`, `F5`, …).
    pub key: String,
}

macro_rules! keyword_enum {
    ($(#[doc = $doc:literal])* $name:ident { $( $variant:ident => $kw:literal ),* $(,)? }) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub enum $name {
            $( #[doc = concat!("`", $kw, "`")] #[serde(rename = $kw)] $variant, )*
        }

        impl $name {
            /// Every value, in documentation order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];

            /// Every ACL keyword, in the order of [`Self::ALL`] (what an error lists).
            pub const KEYWORDS: &'static [&'static str] = &[ $( $kw, )* ];

            /// The ACL keyword.
            pub fn keyword(self) -> &'static str {
                match self { $( $name::$variant => $kw, )* }
            }

            /// Parse the ACL keyword.
            pub fn from_keyword(s: &str) -> Option<Self> {
                match s { $( $kw => Some($name::$variant), )* _ => None }
            }
        }
    };
}

mod browser_context;
pub mod devices;
pub use browser_context::{
    ClockInstall, ClockTime, ColorScheme, ContextSettings, ForcedColors, Geolocation,
    HttpCredentials, HttpHeader, Permission, ReducedMotion, ViewportSize,
};

keyword_enum! {
    /// A keyboard modifier (Alt is Option and Meta is Command on macOS).
    Modifier {
        Alt => "alt", Control => "control", Meta => "meta", Shift => "shift",
    }
}

/// What the page shows: the conditions `wait` and `expect` share (`docs/acl.md` §8, §9), defined
/// once so a `wait` waits for exactly what the same `expect` checks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "condition", rename_all = "snake_case")]
pub enum PageCondition {
    /// Visible page text contains this.
    Text {
        /// The text to find.
        text: String,
    },
    /// The URL equals this exactly.
    Url {
        /// The URL.
        url: String,
    },
    /// The target is visible.
    Visible {
        /// The element that is (or must become) visible.
        target: Target,
    },
    /// No visible match of the (stable) target exists.
    Hidden {
        /// The stable target that must have no visible match.
        target: Target,
    },
}

impl PageCondition {
    /// The element the condition is about, if any.
    pub fn target(&self) -> Option<&Target> {
        match self {
            PageCondition::Text { .. } | PageCondition::Url { .. } => None,
            PageCondition::Visible { target } | PageCondition::Hidden { target } => Some(target),
        }
    }
}

/// `wait` conditions (`docs/acl.md` §8). Serialized flat, as `{"condition": "text", …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "condition", rename_all = "snake_case")]
pub enum WaitCondition {
    /// A load state.
    Load {
        /// The load state.
        state: LoadState,
    },
    /// A request or response since the preceding action began.
    Network {
        /// Which one, and its URL.
        #[serde(flatten)]
        wait: NetworkWait,
    },
    /// What the page shows, as `expect` checks it.
    #[serde(untagged)]
    Page(PageCondition),
}

/// Load states a `wait` can wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadState {
    /// `DOMContentLoaded` fired.
    Domcontentloaded,
    /// No network request in flight for a quiet period.
    Networkidle,
}

/// An `expect`: one condition, waited for until it holds (web-first), optionally held over a
/// sampled window once it does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expectation {
    /// What must hold.
    pub condition: ExpectCondition,
    /// Sampling window, when `stable_for_ms` is set.
    pub stability: Option<Stability>,
    /// The step's own expect timeout (`timeout_ms`), overriding the scenario's and the run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// `immediate = true`: one observation, no waiting for the condition to hold.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub immediate: bool,
    /// `soft = true`: a failure is recorded and the scenario goes on; it fails at its end.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soft: bool,
}

/// `expect` conditions (`docs/acl.md` §9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "condition", rename_all = "snake_case")]
pub enum ExpectCondition {
    /// The target intersects the viewport.
    InViewport {
        /// The element checked.
        target: Target,
    },
    /// The pointer can reach the target's centre (nothing covers it).
    PointerReachable {
        /// The element checked.
        target: Target,
    },
    /// The target's rendered text equals this.
    RenderedText {
        /// The element checked.
        target: Target,
        /// The expected text (whitespace-normalised).
        text: String,
    },
    /// The rendered texts of all matches equal this list, in order.
    RenderedTexts {
        /// The element checked.
        target: Target,
        /// The expected texts, in order (≤ 256).
        texts: Vec<String>,
    },
    /// Exactly this many visible matches.
    VisibleCount {
        /// The element checked.
        target: Target,
        /// The expected number of visible matches.
        count: u32,
    },
    /// The control's value equals this.
    Value {
        /// The element checked.
        target: Target,
        /// The expected value (a literal or `env("NAME")`, whose value is never shown).
        value: TextValue,
    },
    /// The selected option values equal this set.
    SelectedValues {
        /// The element checked.
        target: Target,
        /// The expected selected values, as a set.
        values: Vec<String>,
    },
    /// Percentage of the viewport the target covers, at least or at most.
    ViewportCoverage {
        /// The element checked.
        target: Target,
        /// Whether `percent` is a lower or an upper bound.
        bound: CoverageBound,
        /// The bound, in percent of the viewport.
        percent: u32,
    },
    /// A control or semantic state.
    State {
        /// The element checked.
        target: Target,
        /// The state that must hold.
        state: ElementState,
    },
    /// A geometric relation between two stable targets.
    Layout {
        /// The element whose position is checked.
        target: Target,
        /// How `target` must relate to `relative_to`.
        relation: LayoutRelation,
        /// The reference element.
        relative_to: Target,
        /// Allowed deviation in CSS pixels (0–1024).
        tolerance_px: u32,
    },
    /// The page looks like its baseline image (`screenshot = "cart.png"`).
    Screenshot(VisualExpectation),
    /// The accessibility tree matches a written outline (`aria_snapshot = """…"""`).
    AriaSnapshot(AriaExpectation),
    /// What the page shows, as `wait` also waits for it.
    #[serde(untagged)]
    Page(PageCondition),
}

/// Direction of a viewport coverage bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoverageBound {
    /// `viewport_coverage_at_least`.
    AtLeast,
    /// `viewport_coverage_at_most`.
    AtMost,
}

impl CoverageBound {
    /// Both bounds, in documentation order.
    pub const ALL: &'static [CoverageBound] = &[CoverageBound::AtLeast, CoverageBound::AtMost];
}

/// The form of an `expect` condition: the attribute that names it (`docs/acl.md` §9), such as
/// `rendered_text` or `enabled`.
///
/// Why: the checker reads an `expect` block by these names and the agent's `expect` verb offers
/// exactly these names, so the list of forms is written once, here, and a new form reaches both.
/// Serialized as its attribute name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExpectForm {
    /// `text = "…"`: visible page text contains it.
    Text,
    /// `url = "…"`: the URL equals it.
    Url,
    /// `visible = <target>`.
    Visible,
    /// `hidden = <target>` (stable).
    Hidden,
    /// `in_viewport = <target>` (stable).
    InViewport,
    /// `pointer_reachable = <target>` (stable).
    PointerReachable,
    /// `rendered_text = "…"` with `target`.
    RenderedText,
    /// `rendered_texts = ["…"]` with a stable `target`.
    RenderedTexts,
    /// `visible_count = N` with a stable `target`.
    VisibleCount,
    /// `value = "…"` with `target`.
    Value,
    /// `selected_values = ["…"]` with `target`.
    SelectedValues,
    /// `viewport_coverage_at_least` / `viewport_coverage_at_most = P` with `target`.
    ViewportCoverage(CoverageBound),
    /// An inline element state: `enabled = <target>`, `checked = <target>`, ….
    State(ElementState),
    /// `layout = "<relation>"` with `target`, `relative_to` and `tolerance_px`.
    Layout,
    /// `screenshot = "name.png"` with the visual options (`max_diff_pixels`, `mask`, …).
    Screenshot,
    /// `aria_snapshot = """…"""`, optionally with `target`.
    AriaSnapshot,
}

/// What the attribute of an `expect` form holds, so a caller that builds a statement (the
/// agent's `expect` verb) writes a value the checker reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormValue {
    /// One string.
    Text,
    /// A list of strings.
    Texts,
    /// A whole number.
    Count,
    /// A percentage of the viewport, 0–100.
    Percent,
    /// A target: the element the form is about.
    Target,
    /// A keyword written as a string (`layout = "above"`).
    Keyword,
}

impl ExpectForm {
    /// Every form, in documentation order (the order of `docs/acl.md` §9).
    pub fn all() -> impl Iterator<Item = ExpectForm> {
        use ExpectForm as F;
        [
            F::Text,
            F::Url,
            F::Visible,
            F::Hidden,
            F::InViewport,
            F::PointerReachable,
            F::RenderedText,
            F::RenderedTexts,
            F::VisibleCount,
            F::Value,
            F::SelectedValues,
        ]
        .into_iter()
        .chain(CoverageBound::ALL.iter().map(|b| F::ViewportCoverage(*b)))
        .chain(ElementState::ALL.iter().map(|s| F::State(*s)))
        .chain([F::Layout, F::Screenshot, F::AriaSnapshot])
    }

    /// The attribute that names the form.
    pub fn name(self) -> &'static str {
        use ExpectForm as F;
        match self {
            F::Text => "text",
            F::Url => "url",
            F::Visible => "visible",
            F::Hidden => "hidden",
            F::InViewport => "in_viewport",
            F::PointerReachable => "pointer_reachable",
            F::RenderedText => "rendered_text",
            F::RenderedTexts => "rendered_texts",
            F::VisibleCount => "visible_count",
            F::Value => "value",
            F::SelectedValues => "selected_values",
            F::ViewportCoverage(CoverageBound::AtLeast) => "viewport_coverage_at_least",
            F::ViewportCoverage(CoverageBound::AtMost) => "viewport_coverage_at_most",
            F::State(state) => state.keyword(),
            F::Layout => "layout",
            F::Screenshot => "screenshot",
            F::AriaSnapshot => "aria_snapshot",
        }
    }

    /// The form named by attribute `name`, if any.
    pub fn from_name(name: &str) -> Option<ExpectForm> {
        ExpectForm::all().find(|f| f.name() == name)
    }

    /// What the form's own attribute holds.
    pub fn value(self) -> FormValue {
        use ExpectForm as F;
        match self {
            F::Text | F::Url | F::RenderedText | F::Value | F::Screenshot | F::AriaSnapshot => {
                FormValue::Text
            }
            F::RenderedTexts | F::SelectedValues => FormValue::Texts,
            F::VisibleCount => FormValue::Count,
            F::ViewportCoverage(_) => FormValue::Percent,
            F::Layout => FormValue::Keyword,
            F::Visible | F::Hidden | F::InViewport | F::PointerReachable | F::State(_) => {
                FormValue::Target
            }
        }
    }

    /// Whether the form compares with something kept beside a suite file (a baseline image, an
    /// outline `--update-snapshots` rewrites): refused in agent statements, and left out of the
    /// agent's `expect` verb.
    pub fn needs_suite(self) -> bool {
        matches!(self, ExpectForm::Screenshot | ExpectForm::AriaSnapshot)
    }

    /// Whether the form reads the element from a separate `target` attribute (its own value is
    /// what that element must show).
    pub fn reads_target(self) -> bool {
        use ExpectForm as F;
        matches!(
            self,
            F::RenderedText
                | F::RenderedTexts
                | F::VisibleCount
                | F::Value
                | F::SelectedValues
                | F::ViewportCoverage(_)
                | F::Layout
                | F::AriaSnapshot
        )
    }
}

impl ExpectCondition {
    /// The targets this condition reads, the subject first (a layout relation also names the
    /// element it is relative to); none for whole-page snapshots. One list, so every rule that
    /// asks "what does this expectation look at" sees the same answer.
    pub fn targets(&self) -> Vec<&Target> {
        use ExpectCondition as C;
        match self {
            C::Page(page) => page.target().into_iter().collect(),
            C::InViewport { target }
            | C::PointerReachable { target }
            | C::RenderedText { target, .. }
            | C::RenderedTexts { target, .. }
            | C::VisibleCount { target, .. }
            | C::Value { target, .. }
            | C::SelectedValues { target, .. }
            | C::ViewportCoverage { target, .. }
            | C::State { target, .. } => vec![target],
            C::Layout {
                target,
                relative_to,
                ..
            } => vec![target, relative_to],
            C::Screenshot(_) | C::AriaSnapshot(_) => Vec::new(),
        }
    }

    /// The form this condition was written in.
    pub fn form(&self) -> ExpectForm {
        use ExpectCondition as C;
        use ExpectForm as F;
        match self {
            C::Page(PageCondition::Text { .. }) => F::Text,
            C::Page(PageCondition::Url { .. }) => F::Url,
            C::Page(PageCondition::Visible { .. }) => F::Visible,
            C::Page(PageCondition::Hidden { .. }) => F::Hidden,
            C::InViewport { .. } => F::InViewport,
            C::PointerReachable { .. } => F::PointerReachable,
            C::RenderedText { .. } => F::RenderedText,
            C::RenderedTexts { .. } => F::RenderedTexts,
            C::VisibleCount { .. } => F::VisibleCount,
            C::Value { .. } => F::Value,
            C::SelectedValues { .. } => F::SelectedValues,
            C::ViewportCoverage { bound, .. } => F::ViewportCoverage(*bound),
            C::State { state, .. } => F::State(*state),
            C::Layout { .. } => F::Layout,
            C::Screenshot(_) => F::Screenshot,
            C::AriaSnapshot(_) => F::AriaSnapshot,
        }
    }
}

impl std::fmt::Display for ExpectCondition {
    /// The condition as its `expect` attributes read in ACL (`text = "Saved"`,
    /// `rendered_text = "3 items" with target = css("#cart")`): what a failure says was expected.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::printer::string_literal as q;
        use ExpectCondition as C;
        let name = self.form().name();
        let list = |items: &[String]| {
            let items: Vec<String> = items.iter().map(|s| q(s)).collect();
            format!("[{}]", items.join(", "))
        };
        match self {
            C::Page(PageCondition::Text { text }) => write!(f, "{name} = {}", q(text)),
            C::Page(PageCondition::Url { url }) => write!(f, "{name} = {}", q(url)),
            C::Page(PageCondition::Visible { target } | PageCondition::Hidden { target })
            | C::InViewport { target }
            | C::PointerReachable { target }
            | C::State { target, .. } => write!(f, "{name} = {target}"),
            C::RenderedText { target, text } => {
                write!(f, "{name} = {} with target = {target}", q(text))
            }
            C::Value { target, value } => write!(f, "{name} = {value} with target = {target}"),
            C::RenderedTexts { target, texts } => {
                write!(f, "{name} = {} with target = {target}", list(texts))
            }
            C::SelectedValues { target, values } => {
                write!(f, "{name} = {} with target = {target}", list(values))
            }
            C::VisibleCount { target, count } => {
                write!(f, "{name} = {count} with target = {target}")
            }
            C::ViewportCoverage {
                target, percent, ..
            } => write!(f, "{name} = {percent} with target = {target}"),
            C::Layout {
                target,
                relation,
                relative_to,
                tolerance_px,
            } => {
                write!(
                    f,
                    "{name} = {} with target = {target}, relative_to = {relative_to}",
                    q(relation.keyword())
                )?;
                if *tolerance_px > 0 {
                    write!(f, ", tolerance_px = {tolerance_px}")?;
                }
                Ok(())
            }
            C::Screenshot(v) => write!(f, "{name} = {}", q(v.name.as_str())),
            C::AriaSnapshot(a) => {
                write!(f, "{name} ({} lines)", a.snapshot.lines().count())?;
                if let Some(target) = &a.target {
                    write!(f, " with target = {target}")?;
                }
                Ok(())
            }
        }
    }
}

impl Serialize for ExpectForm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for ExpectForm {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        ExpectForm::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("no `expect` form `{name}`")))
    }
}

keyword_enum! {
    /// Inline element states for `expect` (`docs/acl.md` §9), each written `<state> = <target>`.
    ElementState {
        Enabled => "enabled", Disabled => "disabled",
        Checked => "checked", Unchecked => "unchecked",
        Selected => "selected", Unselected => "unselected",
        Focused => "focused", Unfocused => "unfocused",
        FocusWithin => "focus_within", FocusOutside => "focus_outside",
        Expanded => "expanded", Collapsed => "collapsed",
        Pressed => "pressed", Unpressed => "unpressed",
        Readonly => "readonly", Writable => "writable",
        Required => "required", Optional => "optional",
        Invalid => "invalid", Valid => "valid",
    }
}

keyword_enum! {
    /// How a `click` reaches its element (`via`): real pointer input at its visible centre after
    /// the hit test (the default, what a person does), or — on a desktop, where pointer input
    /// is impossible (an off-screen control) — the element's own accessibility action.
    InputVia {
        Pointer => "pointer", Action => "action",
    }
}

impl Default for InputVia {
    /// Real input unless the step says otherwise.
    fn default() -> InputVia {
        InputVia::Pointer
    }
}

impl InputVia {
    /// True for the default (serialization leaves it out).
    pub fn is_pointer(&self) -> bool {
        *self == InputVia::Pointer
    }
}

keyword_enum! {
    /// The mouse button a `click` or `double_click` presses.
    MouseButton {
        Left => "left", Right => "right", Middle => "middle",
    }
}

/// How a pointer action presses: the button, the modifiers held while it does, and the point on
/// the target. Every field is optional so that a plain `click { target }` stays the same IR (and
/// JSON) it always was.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointerOptions {
    /// The button (`click`, `double_click`); `None` = the step's own (left, or right for
    /// `context_click`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub button: Option<MouseButton>,
    /// Modifiers held down while the pointer acts (unique, in the order written).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    /// The point, relative to the top-left corner of the target's padding box (inside its
    /// border, as Playwright and `MouseEvent.offsetX/Y` count); `None` = the centre of its
    /// visible part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
}

impl PointerOptions {
    /// True when nothing differs from a plain action (serialization leaves it out).
    pub fn is_default(&self) -> bool {
        self == &PointerOptions::default()
    }
}

/// A point relative to the top-left corner of an element's padding box, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// Pixels right of the box's left edge.
    pub x: u32,
    /// Pixels below the box's top edge.
    pub y: u32,
}

keyword_enum! {
    /// Where `drag` releases on its target when not at the centre: just inside this edge.
    DragEdge {
        Top => "top", Bottom => "bottom", Left => "left", Right => "right",
    }
}

keyword_enum! {
    /// Layout relations for `expect { layout = "…" }`.
    LayoutRelation {
        Above => "above", Below => "below", LeftOf => "left_of", RightOf => "right_of",
        Contains => "contains", Inside => "inside", Overlaps => "overlaps",
        NotOverlapping => "not_overlapping",
        AlignedLeft => "aligned_left", AlignedRight => "aligned_right",
        AlignedTop => "aligned_top", AlignedBottom => "aligned_bottom",
        AlignedCenterX => "aligned_center_x", AlignedCenterY => "aligned_center_y",
        SameWidth => "same_width", SameHeight => "same_height", SameSize => "same_size",
    }
}

/// A sampled stability window (`docs/acl.md` §7). Always within limits once admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stability {
    /// Window length, 10–60,000 ms.
    pub stable_for_ms: u32,
    /// Interval between samples, ≤ window.
    pub sample_interval_ms: u32,
}

impl Stability {
    /// Planned samples: `ceil(window / interval) + 1` (≤ 1,001 once admitted).
    pub fn planned_samples(&self) -> u32 {
        self.stable_for_ms.div_ceil(self.sample_interval_ms.max(1)) + 1
    }
}

/// A relative evidence path under the scenario's artifact folder, with no `..` and no root.
///
/// Symlinks cannot be ruled out statically; the runner re-checks confinement before writing.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EvidencePath(pub String);

impl EvidencePath {
    /// The path text as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `tab` operations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum TabOperation {
    /// Record the open tabs.
    List,
    /// Open a tab (optionally at a URL, optionally with a label to switch back to it).
    New {
        /// The URL to open; `None` opens a blank tab.
        url: Option<String>,
        /// A label to switch back to the tab by.
        label: Option<String>,
    },
    /// Switch to a tab by label or index.
    Switch {
        /// The tab to switch to.
        tab: TabRef,
    },
    /// Close a tab (the current one when `None`).
    Close {
        /// The tab to close; `None` = the current tab.
        tab: Option<TabRef>,
    },
}

/// A tab by label or by zero-based index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TabRef {
    /// The zero-based index in opening order.
    Index(u32),
    /// The label given at `tab { operation = "new" label = "…" }`.
    Label(String),
}

/// `dialog` operations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum DialogOperation {
    /// Record whether a dialog is open and its message.
    Status,
    /// Accept the dialog (with prompt text when given).
    Accept {
        /// Text typed into a prompt before accepting.
        text: Option<String>,
    },
    /// Dismiss the dialog.
    Dismiss,
}

/// `har` / `trace` operations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum CaptureOperation {
    /// Start recording.
    Start,
    /// Stop and save.
    Stop {
        /// Where to save the recording (artifact-relative).
        path: EvidencePath,
    },
}

/// `project "id" { … }` (`docs/acl.md` §11).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectConfig {
    /// The project id.
    pub id: String,
    /// `version`, default 1.
    pub version: u32,
    /// The app's development server, when the run should start one.
    pub dev_server: Option<DevServer>,
    /// Browser settings.
    pub browser: Option<BrowserSettings>,
    /// How long an `expect` waits for its condition when the suite does not say
    /// (`expect_timeout_ms`); `None` = [`DEFAULT_EXPECT_TIMEOUT_MS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_timeout_ms: Option<u64>,
    /// Trusted verification checks, in source order.
    pub checks: Vec<VerificationCheck>,
    /// `include`: glob patterns (relative to the project folder) of the `library` files whose
    /// `steps` groups every suite may `use`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    /// The program terminal scenarios run (`tui { … }`), when the project names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tui: Option<Box<TuiProgram>>,
    /// The program desktop scenarios run (`gui { … }`), when the project names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gui: Option<Box<GuiProgram>>,
    /// Span of the whole block.
    pub span: Span,
    /// `storage_state`: loaded into every scenario whose suite and scenario name none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_state: Option<StatePath>,
    /// Context options every scenario starts from (its suite's and its own win).
    #[serde(default, skip_serializing_if = "ContextSettings::is_empty")]
    pub context: ContextSettings,
    /// `trace`: which `run` attempts record a step trace when `--trace` does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceSetting>,
    /// `grid { … }`: the Selenium Grid web scenarios run on when neither `--grid` nor
    /// `A3S_TEST_GRID` names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<Box<GridConfig>>,
    /// `provider "name" { … }` blocks: the advisory model providers the deployment plugs in, in
    /// source order, names unique.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub providers: Vec<ProviderConfig>,
}

/// What a provider is asked for: each kind has its own typed request and response and its own
/// `protocol` string (`a3s-test-provider`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// Where something drawn is on a screenshot: boxes with confidence.
    VisualGrounding,
    /// Which UI expectations a PRD or a design states: candidates for a person to review.
    ContractGeneration,
    /// Design advice on one page revision (screenshot and forensic Page Context): findings with
    /// priority, rationale and recommendation, never a verdict or an action.
    DesignReview,
}

impl ProviderKind {
    /// Every kind with its ACL spelling, for the checker and the CLI.
    pub const NAMES: [(&'static str, ProviderKind); 3] = [
        ("visual_grounding", ProviderKind::VisualGrounding),
        ("contract_generation", ProviderKind::ContractGeneration),
        ("design_review", ProviderKind::DesignReview),
    ];

    /// The kind an ACL spelling names.
    pub fn from_name(name: &str) -> Option<ProviderKind> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
    }

    /// The ACL spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::VisualGrounding => "visual_grounding",
            ProviderKind::ContractGeneration => "contract_generation",
            ProviderKind::DesignReview => "design_review",
        }
    }
}

/// Prefix every `authorization_env` name must carry, so a project file cannot make the tool send
/// an unrelated secret of the environment (`AWS_SECRET_ACCESS_KEY`) to a provider.
pub const PROVIDER_AUTHORIZATION_ENV_PREFIX: &str = "A3S_TEST_PROVIDER_AUTHORIZATION_";

/// Default per-call deadline of a provider (`timeout_ms`).
pub const DEFAULT_PROVIDER_TIMEOUT_MS: u64 = 30_000;

/// The project file's `provider "name" { … }` block: one advisory model provider. It holds no
/// secret: the authorization value is read from the environment variable it names, when used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderConfig {
    /// The label: the provider's identity, which its answers must repeat.
    pub name: String,
    /// What it is asked for.
    pub kind: ProviderKind,
    /// `https://…`, or `http://` to explicit loopback only.
    pub endpoint: String,
    /// The model its answers must name.
    pub model: String,
    /// The environment variable holding the `Authorization` header value, if it needs one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_env: Option<String>,
    /// The deadline of one call, connection to last byte.
    pub timeout_ms: u64,
    /// The most one call may cost, in millionths of a US dollar.
    pub max_cost_microusd: u64,
    /// The most input units (tokens, images) one answer may report using; `None`: no limit.
    /// A deployment whose provider bills in units rather than dollars caps them here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_input_units: Option<u64>,
    /// The most output units one answer may report using; `None`: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_units: Option<u64>,
}

/// Most Grid sessions one run may open (`sessions`, `--grid-sessions`).
pub const MAX_GRID_SESSIONS: u16 = 256;

/// The project file's `grid` block (`docs/scale.md`): where the Grid is and what each session
/// asks it for. The flags and `A3S_TEST_GRID` win over it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GridConfig {
    /// The Grid's `http(s)` address, without credentials (admission refuses them here).
    pub url: String,
    /// Sessions to open; `None` = the run's job count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<u16>,
    /// Capabilities written over the defaults key by key. JSON because they are the Grid's own
    /// vocabulary, passed to it untouched and never read by the tool.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub capabilities: serde_json::Map<String, serde_json::Value>,
    /// How long a new session may wait in the Grid's queue; `None` = the flag's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_timeout_ms: Option<u64>,
}

/// The project file's `trace` (`run --trace`): which scenario attempts record a step trace and
/// which traces are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraceSetting {
    /// No trace.
    Off,
    /// Every attempt, every trace kept.
    On,
    /// Every attempt; the traces of attempts that did not pass kept.
    RetainOnFailure,
    /// The first retry only.
    OnFirstRetry,
}

impl TraceSetting {
    /// Every value by its name, as written in the project file.
    pub const NAMES: [(&'static str, TraceSetting); 4] = [
        ("off", TraceSetting::Off),
        ("on", TraceSetting::On),
        ("retain-on-failure", TraceSetting::RetainOnFailure),
        ("on-first-retry", TraceSetting::OnFirstRetry),
    ];

    /// The value a name stands for.
    pub fn from_name(name: &str) -> Option<TraceSetting> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

/// `dev_server { … }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DevServer {
    /// Argument vector, run without a shell.
    pub command: Vec<String>,
    /// URL that answers once the server is ready.
    pub url: String,
    /// How long to wait for `url`.
    pub startup_timeout_ms: u64,
    /// `reuse_existing`: when `url` already answers before launch, use that server and start
    /// nothing. `None` leaves it to the run: reuse, except in CI (`CI` set), where a server
    /// nobody started is more likely a leftover than the one meant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reuse_existing: Option<bool>,
    /// `ignore_https_errors = true` (Playwright's `webServer.ignoreHTTPSErrors`): an `https`
    /// `url` is probed accepting any certificate, for a dev server under a self-signed one.
    /// Without it an `https` probe trusts the machine's store only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignore_https_errors: bool,
}

impl DevServer {
    /// Whether a server already answering at `url` is used instead of starting one: the
    /// project's `reuse_existing`, else yes outside CI and no in CI.
    pub fn reuses(&self, in_ci: bool) -> bool {
        self.reuse_existing.unwrap_or(!in_ci)
    }
}

/// `browser { … }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrowserSettings {
    /// Chromium executable to launch.
    pub executable: Option<String>,
    /// Show a window instead of running headless.
    pub headed: bool,
}

/// `check "id" { … }` inside `verification`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerificationCheck {
    /// The check id.
    pub id: String,
    /// When it runs.
    pub tier: CheckTier,
    /// Argument vector, run without a shell.
    pub command: Vec<String>,
    /// Changed files under one of these prefixes select the check (empty = always).
    pub file_prefixes: Vec<String>,
    /// Deadline.
    pub timeout_ms: u64,
}

keyword_enum! {
    /// Verification tiers, narrowest first.
    CheckTier {
        Focused => "focused",
        Regression => "regression",
        Full => "full",
    }
}

#[cfg(test)]
mod tests {
    use super::ActionKind;

    #[test]
    fn action_kinds_serialize_as_their_block_names() {
        assert_eq!(ActionKind::ALL.len(), 44);
        for kind in ActionKind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, serde_json::json!(kind.name()));
            assert_eq!(ActionKind::from_name(kind.name()), Some(*kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!(ActionKind::from_name("clik"), None);
    }
}
