//! One verb per action kind: `click`, `double-click`, `context-click`, `hover`, `focus`,
//! `check`, `uncheck`, `fill`, `type`, `select`, `press` (with an optional target), `navigate`,
//! `scroll`, `wheel`, `drag`, `wait` and `expect` (every condition).
//!
//! Why: an agent should not have to write ACL for a routine action, yet an action must mean
//! exactly what its statement means. So each verb only BUILDS the one ACL statement it stands
//! for and runs it through [`super::session::run`], as `agent exec` does — the same gates, the
//! same step runner, the same record for `promote`. Values the caller gives (text, keys, URLs,
//! option values) go into the statement as ACL string literals, numbers are printed from typed
//! fields, and a target argument must be a ref or one target call ([`target_arg`]), so no value
//! can add syntax to the statement. Each verb's arguments are one struct (`TargetArgs`,
//! `TextArgs`, …) with the method that builds its statement: flattened with the turn
//! ([`Acting`]) it is the CLI subcommand's arguments, the MCP tool's arguments and the tool's
//! input schema at once; as a variant of [`Action`] it is a `test_act` action.

use super::bounded::{items, items_schema, Bounded, Text};
use super::parse_enum;
use super::session::{run, Executed, On};
use super::Context;
use a3s_test_lang::ir::{DragEdge, ExpectForm, FormValue, Modifier, TextValue};
use a3s_test_runner::session::statement::{
    acl_string, block, string_list, target_arg, MAX_TARGET_CHARS, MAX_URL_CHARS,
};
use a3s_test_runner::session::{SessionCode, SessionError};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;

/// Default distance of `scroll`, in CSS pixels.
pub const SCROLL_PX: u32 = 600;

/// Verbs that act on one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetVerb {
    /// `click`.
    Click,
    /// `double_click`.
    DoubleClick,
    /// `context_click`.
    ContextClick,
    /// `hover`.
    Hover,
    /// `focus`.
    Focus,
    /// `check`.
    Check,
    /// `uncheck`.
    Uncheck,
}

impl TargetVerb {
    /// The ACL step kind.
    pub fn kind(self) -> &'static str {
        match self {
            TargetVerb::Click => "click",
            TargetVerb::DoubleClick => "double_click",
            TargetVerb::ContextClick => "context_click",
            TargetVerb::Hover => "hover",
            TargetVerb::Focus => "focus",
            TargetVerb::Check => "check",
            TargetVerb::Uncheck => "uncheck",
        }
    }
}

/// `click`, `hover`, `focus`, `check`, … : one target.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TargetArgs {
    /// A ref @eN of the latest observation, or one ACL target such as role("button", "Save")
    /// (a desktop session's `click` also takes visual_point("@vN", x, y) of its latest
    /// screenshot).
    pub target: Text<0, { MAX_TARGET_CHARS }>,
}

/// Text verbs: `fill` replaces the value, `type` appends keystrokes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextVerb {
    /// `fill`.
    Fill,
    /// `type`.
    Type,
}

/// `fill` / `type`: a target and a text — on a terminal session, `type` takes the text alone
/// (it goes to the program).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextArgs {
    /// A ref @eN or one ACL target; left out on a terminal session. (On the command line, a
    /// single argument is the text: `agent type --session S --observation N "6*7"`.)
    #[serde(default)]
    pub target: Option<Text<0, { MAX_TARGET_CHARS }>>,
    /// The text. Over MCP also `{"env": "NAME"}`: `value = env("NAME")`, the value of that
    /// variable in the session's environment (inherited from `agent start`), never shown or
    /// recorded. On the command line the text is always literal (write `agent exec` with
    /// `env("NAME")` instead).
    #[arg(value_parser = literal_text)]
    #[serde(deserialize_with = "required_text")]
    #[schemars(schema_with = "text_schema", required)]
    pub text: Option<TextValue>,
}

/// A verb's required text, read as [`bounded_text`] reads it (an `Option` only because the
/// command line may give the text as the one argument).
fn required_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<TextValue>, D::Error> {
    bounded_text(d).map(Some)
}

/// The most characters of a literal text (a statement's bound).
const MAX_TEXT: usize = 65536;

/// The schema of a verb's text: [`TextValue`]'s, with a literal of at most [`MAX_TEXT`]
/// characters, as [`bounded_text`] reads it.
fn text_schema(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = TextValue::json_schema(generator);
    if let Some(literal) = schema
        .pointer_mut("/anyOf/0")
        .and_then(|s| s.as_object_mut())
    {
        literal.insert("maxLength".into(), MAX_TEXT.into());
    }
    schema
}

/// A verb's text, a literal refused past [`MAX_TEXT`] characters (what [`text_schema`] states).
fn bounded_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<TextValue, D::Error> {
    let text = TextValue::deserialize(d)?;
    if let TextValue::Literal(literal) = &text {
        Text::<0, MAX_TEXT>::new(literal.clone()).map_err(serde::de::Error::custom)?;
    }
    Ok(text)
}

/// A command-line text: always the literal text typed (a shell argument never names a
/// variable; `env("NAME")` is written in `agent exec`).
fn literal_text(s: &str) -> Result<TextValue, String> {
    Ok(TextValue::literal(s))
}

/// `select`: options of a `<select>` by value or label.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectArgs {
    /// A ref @eN or one ACL target.
    pub target: Text<0, { MAX_TARGET_CHARS }>,
    /// Option values or labels (at least one).
    #[arg(required = true, num_args = 1..)]
    #[serde(deserialize_with = "items::<_, _, 1, 256>")]
    #[schemars(schema_with = "items_schema::<String, 1, 256>")]
    pub values: Vec<String>,
}

/// `press`: a key or chord, optionally into a target (focused first, in the same statement).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressArgs {
    /// A key or chord: `Enter`, `Tab`, `Control+a`.
    pub key: Text<0, 256>,
    /// Focus this ref or target first (in the same step).
    #[serde(default)]
    pub target: Option<Text<0, { MAX_TARGET_CHARS }>>,
}

/// `navigate`: a URL inside the session's origins.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NavigateArgs {
    /// The URL (relative to the current page).
    pub url: Text<0, { MAX_URL_CHARS }>,
}

/// A scroll direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Towards the top.
    Up,
    /// Towards the bottom.
    Down,
    /// Towards the left.
    Left,
    /// Towards the right.
    Right,
}

/// `scroll`: a wheel turn in one direction, over a target or the viewport centre.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScrollArgs {
    /// up | down | left | right.
    #[arg(value_parser = parse_enum::<Direction>)]
    pub direction: Direction,
    /// Scroll over this ref or target (default: the viewport centre).
    #[serde(default)]
    pub target: Option<Text<0, { MAX_TARGET_CHARS }>>,
    /// How far, in CSS pixels (default 600).
    #[arg(long, value_name = "PX")]
    #[serde(default)]
    pub by: Option<Bounded<u32, 1, 100000>>,
}

/// `wheel`: raw wheel deltas (down and right are positive).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WheelArgs {
    /// Vertical delta in CSS pixels.
    #[arg(long = "dy", value_name = "PX", allow_hyphen_values = true)]
    pub delta_y: Bounded<i64, -100000, 100000>,
    /// Horizontal delta in CSS pixels (default 0).
    #[arg(long = "dx", value_name = "PX", allow_hyphen_values = true)]
    #[serde(default)]
    pub delta_x: Option<Bounded<i64, -100000, 100000>>,
    /// A modifier held during the turn (repeatable): alt | control | meta | shift.
    #[arg(long = "modifier", value_parser = parse_enum::<Modifier>)]
    #[serde(default)]
    pub modifiers: Vec<Modifier>,
    /// Turn the wheel over this ref or target (default: the viewport centre).
    #[serde(default)]
    pub target: Option<Text<0, { MAX_TARGET_CHARS }>>,
}

/// `drag`: `source` onto `target` with real pointer events.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    /// What is dragged: a ref @eN or one ACL target.
    pub source: Text<0, { MAX_TARGET_CHARS }>,
    /// Where it is dropped: a ref @eN or one ACL target.
    pub target: Text<0, { MAX_TARGET_CHARS }>,
    /// Release just inside this edge of the target instead of at its centre: top | bottom |
    /// left | right (a sortable list moves an item past another only once the pointer crosses
    /// that item's middle: `bottom` drops after it).
    #[arg(long, value_parser = parse_enum::<DragEdge>)]
    #[serde(default)]
    pub edge: Option<DragEdge>,
}

/// A `wait` condition (docs/acl.md §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WaitCondition {
    /// A load state: `domcontentloaded` or `networkidle`.
    Load,
    /// Visible page text contains the value.
    Text,
    /// The URL equals the value.
    Url,
    /// The target is visible.
    Visible,
    /// No visible match of the (stable, not ref) target exists.
    Hidden,
}

impl WaitCondition {
    fn name(self) -> &'static str {
        match self {
            WaitCondition::Load => "load",
            WaitCondition::Text => "text",
            WaitCondition::Url => "url",
            WaitCondition::Visible => "visible",
            WaitCondition::Hidden => "hidden",
        }
    }

    fn value(self) -> FormValue {
        match self {
            WaitCondition::Load => FormValue::Keyword,
            WaitCondition::Text | WaitCondition::Url => FormValue::Text,
            WaitCondition::Visible | WaitCondition::Hidden => FormValue::Target,
        }
    }
}

/// `wait`: poll until one condition holds (bounded by the turn's deadline).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// load | text | url | visible | hidden.
    #[arg(value_parser = parse_condition::<WaitCondition>)]
    pub condition: WaitCondition,
    /// The load state, text, URL, or target.
    pub value: Text<0, 65536>,
}

/// The input schema of an `expect` condition: the name of one of lang's [`ExpectForm`]s
/// (docs/acl.md §9). Why: the forms are listed once, in lang, so the tool offers every form the
/// language admits and no other.
fn expect_condition_schema(_: &mut SchemaGenerator) -> Schema {
    let names: Vec<&str> = ExpectForm::all()
        .filter(|f| !f.needs_suite())
        .map(ExpectForm::name)
        .collect();
    json_schema!({ "type": "string", "enum": names })
}

/// `expect`: wait (up to `--timeout-ms`, default 2,000 ms) until one condition holds, then,
/// with `--stable-for-ms`, that it keeps holding.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectArgs {
    /// The condition: text, url, visible, hidden, in_viewport, pointer_reachable,
    /// rendered_text, rendered_texts, visible_count, value, selected_values,
    /// viewport_coverage_at_least|at_most, a state (enabled, disabled, checked, unchecked,
    /// selected, unselected, focused, unfocused, focus_within, focus_outside, expanded,
    /// collapsed, pressed, unpressed, readonly, writable, required, optional, invalid, valid)
    /// or layout.
    #[arg(value_parser = parse_condition::<ExpectForm>)]
    #[schemars(schema_with = "expect_condition_schema")]
    pub condition: ExpectForm,
    /// The expected text(s), count, percent or relation, or the target of a visibility or
    /// state condition.
    #[arg(required = true, num_args = 1..)]
    #[serde(deserialize_with = "items::<_, _, 1, 256>")]
    #[schemars(schema_with = "items_schema::<String, 1, 256>")]
    pub values: Vec<String>,
    /// The element the value is about (rendered_text, value, visible_count, layout, …).
    #[arg(long)]
    #[serde(default)]
    pub target: Option<Text<0, { MAX_TARGET_CHARS }>>,
    /// Layout: the element the target is compared with.
    #[arg(long, value_name = "TARGET")]
    #[serde(default)]
    pub relative_to: Option<Text<0, { MAX_TARGET_CHARS }>>,
    /// Layout: tolerance in CSS px (0–1024).
    #[arg(long, value_name = "PX")]
    #[serde(default)]
    pub tolerance_px: Option<Bounded<u32, 0, 1024>>,
    /// Hold for this long (10–60000 ms), sampled.
    #[arg(long, value_name = "MS")]
    #[serde(default)]
    pub stable_for_ms: Option<Bounded<u32, 10, 60000>>,
    /// With `stable_for_ms`: the sampling interval.
    #[arg(long, value_name = "MS")]
    #[serde(default)]
    pub sample_interval_ms: Option<Bounded<u32, 1, 60000>>,
    /// How long to wait for the condition to hold [default: 2000]; capped by the turn's
    /// deadline.
    #[arg(long, value_name = "MS", conflicts_with = "immediate")]
    #[serde(default)]
    pub timeout_ms: Option<Bounded<u64, 1, 3600000>>,
    /// Check once, without waiting for the condition to hold.
    #[arg(long)]
    #[serde(default)]
    pub immediate: bool,
}

/// A condition word on the command line: the wire spelling, `-` accepted for `_`.
fn parse_condition<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, String> {
    parse_enum(&s.replace('-', "_"))
}

fn invalid(message: String) -> SessionError {
    SessionError::new(SessionCode::InvalidInput, message)
}

/// One condition value as ACL.
fn condition_value(kind: FormValue, name: &str, values: &[String]) -> Result<String, SessionError> {
    let one = || match values {
        [v] => Ok(v.as_str()),
        _ => Err(invalid(format!(
            "`{name}` takes one value, {} were given",
            values.len()
        ))),
    };
    match kind {
        FormValue::Text | FormValue::Keyword => Ok(acl_string(one()?)),
        FormValue::Texts => Ok(string_list(values)),
        FormValue::Target => target_arg(one()?),
        FormValue::Count => one()?
            .trim()
            .parse::<u64>()
            .map(|n| n.to_string())
            .map_err(|_| invalid(format!("`{name}` takes a whole number"))),
        FormValue::Percent => {
            let p: f64 = one()?
                .trim()
                .parse()
                .ok()
                .filter(|p: &f64| p.is_finite())
                .ok_or_else(|| invalid(format!("`{name}` takes a percent (0-100)")))?;
            Ok(if p.fract() == 0.0 {
                format!("{}", p as i64)
            } else {
                format!("{p}")
            })
        }
    }
}

impl TargetArgs {
    /// The statement of `verb` on this target.
    pub fn statement(&self, verb: TargetVerb) -> Result<String, SessionError> {
        Ok(block(verb.kind(), &[("target", target_arg(&self.target)?)]))
    }
}

impl TextArgs {
    /// `fill` or `type` of this text into this target; without a target (a terminal session),
    /// `type { value }`. On the command line one argument is the text (clap fills the target
    /// first).
    pub fn statement(&self, verb: TextVerb) -> Result<String, SessionError> {
        let kind = match verb {
            TextVerb::Fill => "fill",
            TextVerb::Type => "type",
        };
        let (target, text) = match (&self.target, &self.text) {
            (Some(target), Some(text)) => (Some(target_arg(target)?), text.to_string()),
            (None, Some(text)) => (None, text.to_string()),
            (Some(only), None) => (None, TextValue::literal(only.to_string()).to_string()),
            (None, None) => return Err(invalid("the text to type is missing".into())),
        };
        let mut attributes = Vec::new();
        if let Some(target) = target {
            attributes.push(("target", target));
        }
        attributes.push(("value", text));
        Ok(block(kind, &attributes))
    }
}

/// `paste`: text pasted into a terminal program as a terminal pastes it (`terminal_paste`:
/// newlines as carriage returns, wrapped in bracketed-paste markers when the program asked).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PasteArgs {
    /// The text.
    pub text: Text<0, 65536>,
}

impl PasteArgs {
    /// `terminal_paste { text }`.
    pub fn statement(&self) -> String {
        block("terminal_paste", &[("text", acl_string(&self.text))])
    }
}

/// `resize`: a new size for a terminal session's terminal (`terminal_resize`; the program is
/// told by `SIGWINCH`).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResizeArgs {
    /// Columns (1–1000).
    pub columns: Bounded<u32, 1, 1000>,
    /// Rows (1–500).
    pub rows: Bounded<u32, 1, 500>,
}

impl ResizeArgs {
    /// `terminal_resize { columns rows }`.
    pub fn statement(&self) -> String {
        block(
            "terminal_resize",
            &[
                ("columns", self.columns.to_string()),
                ("rows", self.rows.to_string()),
            ],
        )
    }
}

impl SelectArgs {
    /// `select { target values }`.
    pub fn statement(&self) -> Result<String, SessionError> {
        Ok(block(
            "select",
            &[
                ("target", target_arg(&self.target)?),
                ("values", string_list(&self.values)),
            ],
        ))
    }
}

impl PressArgs {
    /// `press { target key }`: with a target, one statement that focuses it and then presses,
    /// so the ref is checked once, before anything is dispatched, and the turn is one step.
    pub fn statement(&self) -> Result<String, SessionError> {
        let mut attributes = Vec::new();
        if let Some(t) = &self.target {
            attributes.push(("target", target_arg(t)?));
        }
        attributes.push(("key", acl_string(&self.key)));
        Ok(block("press", &attributes))
    }
}

impl NavigateArgs {
    /// `navigate { url }`.
    pub fn statement(&self) -> String {
        block("navigate", &[("url", acl_string(&self.url))])
    }
}

impl ScrollArgs {
    /// The `wheel` statement of this scroll.
    pub fn statement(&self) -> Result<String, SessionError> {
        let by = i64::from(self.by.map_or(SCROLL_PX, Into::into));
        let (dx, dy) = match self.direction {
            Direction::Up => (0, -by),
            Direction::Down => (0, by),
            Direction::Left => (-by, 0),
            Direction::Right => (by, 0),
        };
        let mut attributes = vec![("delta_y", dy.to_string())];
        if dx != 0 {
            attributes.push(("delta_x", dx.to_string()));
        }
        if let Some(t) = &self.target {
            attributes.push(("target", target_arg(t)?));
        }
        Ok(block("wheel", &attributes))
    }
}

impl WheelArgs {
    /// `wheel { delta_y delta_x modifiers target }`.
    pub fn statement(&self) -> Result<String, SessionError> {
        let mut attributes = vec![("delta_y", self.delta_y.to_string())];
        if let Some(dx) = self.delta_x {
            attributes.push(("delta_x", dx.to_string()));
        }
        if !self.modifiers.is_empty() {
            let names: Vec<String> = self.modifiers.iter().map(|m| m.keyword().into()).collect();
            attributes.push(("modifiers", string_list(&names)));
        }
        if let Some(t) = &self.target {
            attributes.push(("target", target_arg(t)?));
        }
        Ok(block("wheel", &attributes))
    }
}

impl DragArgs {
    /// `drag { source target edge }`.
    pub fn statement(&self) -> Result<String, SessionError> {
        let mut attributes = vec![
            ("source", target_arg(&self.source)?),
            ("target", target_arg(&self.target)?),
        ];
        if let Some(edge) = self.edge {
            attributes.push(("edge", acl_string(edge.keyword())));
        }
        Ok(block("drag", &attributes))
    }
}

impl WaitArgs {
    /// `wait { <condition> = <value> }`.
    pub fn statement(&self) -> Result<String, SessionError> {
        let name = self.condition.name();
        let value = condition_value(self.condition.value(), name, &[self.value.to_string()])?;
        Ok(block("wait", &[(name, value)]))
    }
}

impl ExpectArgs {
    /// `expect { <condition> = <value> … }` with the helper attributes given.
    pub fn statement(&self) -> Result<String, SessionError> {
        let name = self.condition.name();
        let value = condition_value(self.condition.value(), name, &self.values)?;
        let mut attributes = vec![(name, value)];
        if let Some(t) = &self.target {
            attributes.push(("target", target_arg(t)?));
        }
        if let Some(t) = &self.relative_to {
            attributes.push(("relative_to", target_arg(t)?));
        }
        if let Some(px) = self.tolerance_px {
            attributes.push(("tolerance_px", px.to_string()));
        }
        if let Some(ms) = self.stable_for_ms {
            attributes.push(("stable_for_ms", ms.to_string()));
        }
        if let Some(ms) = self.sample_interval_ms {
            attributes.push(("sample_interval_ms", ms.to_string()));
        }
        if let Some(ms) = self.timeout_ms {
            attributes.push(("timeout_ms", ms.to_string()));
        }
        if self.immediate {
            attributes.push(("immediate", "true".to_string()));
        }
        Ok(block("expect", &attributes))
    }
}

/// `expect-text TEXT` and `test_act`'s `expect_text`: `expect { text = … }`, the one
/// condition common enough to have its own short form.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectTextArgs {
    /// Text the page must show.
    pub text: Text<0, 65536>,
}

impl ExpectTextArgs {
    /// The `expect` it is short for.
    pub fn expect(&self) -> ExpectArgs {
        ExpectArgs {
            condition: ExpectForm::Text,
            values: vec![self.text.to_string()],
            target: None,
            relative_to: None,
            tolerance_px: None,
            stable_for_ms: None,
            sample_interval_ms: None,
            timeout_ms: None,
            immediate: false,
        }
    }
}

/// A verb's own arguments `A` and the session turn it runs in: the parameters of every verb
/// subcommand and tool. Why apart: the same `A` is a variant of [`Action`] (`test_act`), where
/// the turn is given once beside the action, so a verb's arguments and statement are written
/// once for both.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct Acting<A: clap::Args> {
    /// The verb's arguments.
    #[command(flatten)]
    #[serde(flatten)]
    pub args: A,
    /// The session, the observation and the answer's view.
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// `click`, `hover`, `focus`, `check`, … (and their tools).
pub type TargetParams = Acting<TargetArgs>;
/// `fill` / `type`.
pub type TextParams = Acting<TextArgs>;
/// `select`.
pub type SelectParams = Acting<SelectArgs>;
/// `press`.
pub type PressParams = Acting<PressArgs>;
/// `navigate`.
pub type NavigateParams = Acting<NavigateArgs>;
/// `scroll`.
pub type ScrollParams = Acting<ScrollArgs>;
/// `wheel`.
pub type WheelParams = Acting<WheelArgs>;
/// `drag`.
pub type DragParams = Acting<DragArgs>;
/// `wait`.
pub type WaitParams = Acting<WaitArgs>;
/// `expect`.
pub type ExpectParams = Acting<ExpectArgs>;
/// `expect-text`.
pub type ExpectTextParams = Acting<ExpectTextArgs>;
/// `paste`.
pub type PasteParams = Acting<PasteArgs>;
/// `resize`.
pub type ResizeParams = Acting<ResizeArgs>;

/// One typed action of `test_act`: `{"action": VERB, …}` with exactly the arguments of that
/// verb (its own args struct, so its statement is built by the same method as the verb's).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// `click`.
    Click(TargetArgs),
    /// `double_click`.
    DoubleClick(TargetArgs),
    /// `context_click`.
    ContextClick(TargetArgs),
    /// `hover`.
    Hover(TargetArgs),
    /// `focus`.
    Focus(TargetArgs),
    /// `check`.
    Check(TargetArgs),
    /// `uncheck`.
    Uncheck(TargetArgs),
    /// `fill`.
    Fill(TextArgs),
    /// `type`.
    Type(TextArgs),
    /// `select`.
    Select(SelectArgs),
    /// `press`.
    Press(PressArgs),
    /// `navigate`.
    Navigate(NavigateArgs),
    /// `scroll`.
    Scroll(ScrollArgs),
    /// `wheel`.
    Wheel(WheelArgs),
    /// `drag`.
    Drag(DragArgs),
    /// `wait`.
    Wait(WaitArgs),
    /// `expect`.
    Expect(ExpectArgs),
    /// `expect { text = … }`.
    ExpectText(ExpectTextArgs),
    /// `terminal_paste` (terminal sessions).
    Paste(PasteArgs),
    /// `terminal_resize` (terminal sessions).
    Resize(ResizeArgs),
}

impl Action {
    /// The one statement this action stands for, built by its verb.
    pub fn statement(&self) -> Result<String, SessionError> {
        use TargetVerb as T;
        match self {
            Action::Click(a) => a.statement(T::Click),
            Action::DoubleClick(a) => a.statement(T::DoubleClick),
            Action::ContextClick(a) => a.statement(T::ContextClick),
            Action::Hover(a) => a.statement(T::Hover),
            Action::Focus(a) => a.statement(T::Focus),
            Action::Check(a) => a.statement(T::Check),
            Action::Uncheck(a) => a.statement(T::Uncheck),
            Action::Fill(a) => a.statement(TextVerb::Fill),
            Action::Type(a) => a.statement(TextVerb::Type),
            Action::Select(a) => a.statement(),
            Action::Press(a) => a.statement(),
            Action::Navigate(a) => Ok(a.statement()),
            Action::Scroll(a) => a.statement(),
            Action::Wheel(a) => a.statement(),
            Action::Drag(a) => a.statement(),
            Action::Wait(a) => a.statement(),
            Action::Expect(a) => a.statement(),
            Action::ExpectText(a) => a.expect().statement(),
            Action::Paste(a) => Ok(a.statement()),
            Action::Resize(a) => Ok(a.statement()),
        }
    }
}

/// `click`, `hover`, `focus`, `check`, … on one target.
pub fn on_target(
    ctx: &Context,
    verb: TargetVerb,
    p: &TargetParams,
) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement(verb)?)
}

/// `fill` or `type`.
pub fn text(ctx: &Context, verb: TextVerb, p: &TextParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement(verb)?)
}

/// `select`.
pub fn select(ctx: &Context, p: &SelectParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement()?)
}

/// `press`, into the target when one is given (one statement, one turn).
pub fn press(ctx: &Context, p: &PressParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement()?)
}

/// `navigate`.
pub fn navigate(ctx: &Context, p: &NavigateParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement())
}

/// `scroll`.
pub fn scroll(ctx: &Context, p: &ScrollParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement()?)
}

/// `wheel`.
pub fn wheel(ctx: &Context, p: &WheelParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement()?)
}

/// `drag`.
pub fn drag(ctx: &Context, p: &DragParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement()?)
}

/// `wait`.
pub fn wait(ctx: &Context, p: &WaitParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement()?)
}

/// `expect`.
pub fn expect(ctx: &Context, p: &ExpectParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement()?)
}

/// `paste` (terminal sessions).
pub fn paste(ctx: &Context, p: &PasteParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement())
}

/// `resize` (terminal sessions).
pub fn resize(ctx: &Context, p: &ResizeParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.statement())
}

/// `expect-text`.
pub fn expect_text(ctx: &Context, p: &ExpectTextParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.args.expect().statement()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::admit_statement;

    fn admitted(statement: &str) {
        admit_statement(statement).unwrap_or_else(|d| panic!("{statement}: {d:?}"));
    }

    #[test]
    fn every_verb_builds_an_admitted_statement() {
        let t = |target: &str| TargetArgs {
            target: target.parse().unwrap(),
        };
        for verb in [
            TargetVerb::Click,
            TargetVerb::DoubleClick,
            TargetVerb::ContextClick,
            TargetVerb::Hover,
            TargetVerb::Focus,
            TargetVerb::Check,
            TargetVerb::Uncheck,
        ] {
            admitted(&t("@e1").statement(verb).unwrap());
            admitted(&t("role(\"button\", \"Go\")").statement(verb).unwrap());
        }
        let text = TextArgs {
            target: Some("@e2".parse().unwrap()),
            text: Some("a\"b\n} click { target = css(\"x\") }".into()),
        };
        for verb in [TextVerb::Fill, TextVerb::Type] {
            let s = text.statement(verb).unwrap();
            admitted(&s);
            let step = admit_statement(&s).unwrap();
            assert_eq!(
                step.action.kind().name(),
                if verb == TextVerb::Fill {
                    "fill"
                } else {
                    "type"
                }
            );
        }
        admitted(
            &SelectArgs {
                target: "@e3".parse().unwrap(),
                values: vec!["m".into(), "l".into()],
            }
            .statement()
            .unwrap(),
        );
        let press = PressArgs {
            key: "Enter".parse().unwrap(),
            target: Some("@e4".parse().unwrap()),
        };
        let one = press.statement().unwrap();
        admitted(&one);
        let step = admit_statement(&one).unwrap();
        assert!(
            matches!(
                &step.action,
                a3s_test_lang::ir::Action::Press {
                    target: Some(_),
                    ..
                }
            ),
            "{one}"
        );
        admitted(
            &PressArgs {
                target: None,
                ..press
            }
            .statement()
            .unwrap(),
        );
        admitted(
            &NavigateArgs {
                url: "/next".parse().unwrap(),
            }
            .statement(),
        );
        for direction in [
            Direction::Up,
            Direction::Down,
            Direction::Left,
            Direction::Right,
        ] {
            admitted(
                &ScrollArgs {
                    direction,
                    target: Some("@e1".parse().unwrap()),
                    by: None,
                }
                .statement()
                .unwrap(),
            );
        }
        admitted(
            &WheelArgs {
                delta_y: Bounded::new(-300).unwrap(),
                delta_x: Some(Bounded::new(5).unwrap()),
                modifiers: vec![Modifier::Shift],
                target: None,
            }
            .statement()
            .unwrap(),
        );
        admitted(
            &DragArgs {
                source: "@e1".parse().unwrap(),
                target: "@e2".parse().unwrap(),
                edge: None,
            }
            .statement()
            .unwrap(),
        );
        for &edge in DragEdge::ALL {
            let statement = DragArgs {
                source: "@e1".parse().unwrap(),
                target: "@e2".parse().unwrap(),
                edge: Some(edge),
            }
            .statement()
            .unwrap();
            let step = admit_statement(&statement).unwrap();
            match step.action {
                a3s_test_lang::ir::Action::Drag { edge: Some(e), .. } => assert_eq!(e, edge),
                other => panic!("{statement}: {other:?}"),
            }
        }
    }

    #[test]
    fn wait_and_every_expect_condition_build_admitted_statements() {
        for (condition, value) in [
            (WaitCondition::Load, "networkidle"),
            (WaitCondition::Text, "Saved"),
            (WaitCondition::Url, "http://h/x"),
            (WaitCondition::Visible, "@e1"),
            (WaitCondition::Hidden, "testid(\"spinner\")"),
        ] {
            admitted(
                &WaitArgs {
                    condition,
                    value: value.parse().unwrap(),
                }
                .statement()
                .unwrap(),
            );
        }
        let all: Vec<ExpectForm> = serde_json::from_value(
            crate::ops::schema_of::<ExpectArgs>()["properties"]["condition"]["enum"].clone(),
        )
        .unwrap();
        assert_eq!(all.len(), 34);
        for condition in all {
            let stable = "css(\"main\")";
            let (values, target, relative_to): (Vec<&str>, Option<&str>, Option<&str>) =
                match condition.value() {
                    FormValue::Keyword => (vec!["above"], Some(stable), Some("css(\"footer\")")),
                    FormValue::Text if !condition.reads_target() => (vec!["x"], None, None),
                    FormValue::Text => (vec!["x"], Some("@e1"), None),
                    FormValue::Texts => (vec!["a", "b"], Some(stable), None),
                    FormValue::Count => (vec!["2"], Some(stable), None),
                    FormValue::Percent => (vec!["50"], Some("@e1"), None),
                    FormValue::Target => (vec![stable], None, None),
                };
            let p = ExpectArgs {
                condition,
                values: values.iter().map(|v| v.to_string()).collect(),
                target: target.map(|t| t.parse().unwrap()),
                relative_to: relative_to.map(|t| t.parse().unwrap()),
                tolerance_px: None,
                stable_for_ms: None,
                sample_interval_ms: None,
                timeout_ms: None,
                immediate: false,
            };
            admitted(&p.statement().unwrap());
        }
    }

    #[test]
    fn caller_values_never_become_syntax() {
        let injected = TargetArgs {
            target: "css(\"a\") }\nnavigate { url = \"http://evil/\""
                .parse()
                .unwrap(),
        };
        assert_eq!(
            injected.statement(TargetVerb::Click).unwrap_err().code,
            SessionCode::InvalidInput
        );
        let p = ExpectArgs {
            condition: ExpectForm::VisibleCount,
            values: vec!["2 }".into()],
            target: Some("@e1".parse().unwrap()),
            relative_to: None,
            tolerance_px: None,
            stable_for_ms: None,
            sample_interval_ms: None,
            timeout_ms: None,
            immediate: false,
        };
        assert_eq!(p.statement().unwrap_err().code, SessionCode::InvalidInput);
    }

    /// `test_act` reads the same JSON as before the verbs took it over, and every action's
    /// statement is its verb's.
    #[test]
    fn an_action_is_its_verbs_statement() {
        use serde_json::json;
        let action = |v: serde_json::Value| -> Action { serde_json::from_value(v).unwrap() };
        let click = action(json!({ "action": "click", "target": "@e3" }));
        let verb = TargetArgs {
            target: "@e3".parse().unwrap(),
        };
        assert_eq!(
            click.statement().unwrap(),
            verb.statement(TargetVerb::Click).unwrap()
        );
        let fill = action(json!({ "action": "fill", "target": "@e1", "text": { "env": "PW" } }));
        admitted(&fill.statement().unwrap());
        for v in [
            json!({ "action": "press", "key": "Enter" }),
            json!({ "action": "navigate", "url": "/next" }),
            json!({ "action": "expect_text", "text": "Done" }),
            json!({ "action": "scroll", "direction": "down" }),
            json!({ "action": "drag", "source": "@e1", "target": "@e2", "edge": "bottom" }),
            json!({ "action": "expect", "condition": "checked", "values": ["@e2"] }),
        ] {
            admitted(&action(v).statement().unwrap());
        }
        assert_eq!(
            action(json!({ "action": "expect_text", "text": "Done" }))
                .statement()
                .unwrap(),
            "expect { text = \"Done\" }"
        );
        // An argument another verb takes is not this verb's.
        assert!(serde_json::from_value::<Action>(
            json!({ "action": "click", "target": "@e1", "key": "Enter" })
        )
        .is_err());
    }
}
