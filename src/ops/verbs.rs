//! One verb per action kind: `click`, `double-click`, `context-click`, `hover`, `focus`,
//! `check`, `uncheck`, `fill`, `type`, `select`, `press` (with an optional target), `navigate`,
//! `scroll`, `wheel`, `drag`, `wait` and `expect` (every condition).
//!
//! Why: an agent should not have to write ACL for a routine action, yet an action must mean
//! exactly what its statement means. So each verb only BUILDS the one ACL statement it stands
//! for and runs it through [`session::exec`] — the same gates, the same step runner, the same
//! record for `promote` as `agent exec`. Values the caller gives (text, keys, URLs, option
//! values) go into the statement as ACL string literals, numbers are printed from typed fields,
//! and a target argument must be a ref or one target call ([`target_arg`]), so no value can add
//! syntax to the statement. Each parameters struct is the CLI subcommand's arguments, the MCP
//! tool's arguments and the tool's input schema at once (as in `ops::session`).

use super::parse_enum;
use super::session::{self, ExecParams, Executed, On};
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
pub struct TargetParams {
    /// A ref @eN of the latest observation, or one ACL target such as role("button", "Save").
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: String,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// Text verbs: `fill` replaces the value, `type` appends keystrokes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextVerb {
    /// `fill`.
    Fill,
    /// `type`.
    Type,
}

/// `fill` / `type`: a target and a text.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct TextParams {
    /// A ref @eN or one ACL target.
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: String,
    /// The text. Over MCP also `{"env": "NAME"}`: `value = env("NAME")`, the value of that
    /// variable in the session's environment (inherited from `agent start`), never shown or
    /// recorded. On the command line the text is always literal (write `agent exec` with
    /// `env("NAME")` instead).
    #[arg(value_parser = literal_text)]
    #[schemars(schema_with = "text_schema")]
    pub text: TextValue,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// The schema of a verb's text: [`TextValue`]'s, with a literal bounded like a statement.
fn text_schema(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = TextValue::json_schema(generator);
    if let Some(literal) = schema
        .pointer_mut("/anyOf/0")
        .and_then(|s| s.as_object_mut())
    {
        literal.insert("maxLength".into(), 65536.into());
    }
    schema
}

/// A command-line text: always the literal text typed (a shell argument never names a
/// variable; `env("NAME")` is written in `agent exec`).
fn literal_text(s: &str) -> Result<TextValue, String> {
    Ok(TextValue::literal(s))
}

/// `select`: options of a `<select>` by value or label.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct SelectParams {
    /// A ref @eN or one ACL target.
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: String,
    /// Option values or labels (at least one).
    #[arg(required = true, num_args = 1..)]
    #[schemars(length(min = 1, max = 256))]
    pub values: Vec<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// `press`: a key or chord, optionally into a target (focused first, in the same statement).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct PressParams {
    /// A key or chord: `Enter`, `Tab`, `Control+a`.
    #[schemars(length(max = 256))]
    pub key: String,
    /// Focus this ref or target first (in the same step).
    #[serde(default)]
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// `navigate`: a URL inside the session's origins.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct NavigateParams {
    /// The URL (relative to the current page).
    #[schemars(length(max = MAX_URL_CHARS))]
    pub url: String,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
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
pub struct ScrollParams {
    /// up | down | left | right.
    #[arg(value_parser = parse_enum::<Direction>)]
    pub direction: Direction,
    /// Scroll over this ref or target (default: the viewport centre).
    #[serde(default)]
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: Option<String>,
    /// How far, in CSS pixels (default 600).
    #[arg(long, value_name = "PX")]
    #[serde(default)]
    #[schemars(range(min = 1, max = 100000))]
    pub by: Option<u32>,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// `wheel`: raw wheel deltas (down and right are positive).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct WheelParams {
    /// Vertical delta in CSS pixels.
    #[arg(long = "dy", value_name = "PX", allow_hyphen_values = true)]
    #[schemars(range(min = -100000, max = 100000))]
    pub delta_y: i64,
    /// Horizontal delta in CSS pixels (default 0).
    #[arg(long = "dx", value_name = "PX", allow_hyphen_values = true)]
    #[serde(default)]
    #[schemars(range(min = -100000, max = 100000))]
    pub delta_x: Option<i64>,
    /// A modifier held during the turn (repeatable): alt | control | meta | shift.
    #[arg(long = "modifier", value_parser = parse_enum::<Modifier>)]
    #[serde(default)]
    pub modifiers: Vec<Modifier>,
    /// Turn the wheel over this ref or target (default: the viewport centre).
    #[serde(default)]
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// `drag`: `source` onto `target` with real pointer events.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct DragParams {
    /// What is dragged: a ref @eN or one ACL target.
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub source: String,
    /// Where it is dropped: a ref @eN or one ACL target.
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: String,
    /// Release just inside this edge of the target instead of at its centre: top | bottom |
    /// left | right (a sortable list moves an item past another only once the pointer crosses
    /// that item's middle: `bottom` drops after it).
    #[arg(long, value_parser = parse_enum::<DragEdge>)]
    #[serde(default)]
    pub edge: Option<DragEdge>,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
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
pub struct WaitParams {
    /// load | text | url | visible | hidden.
    #[arg(value_parser = parse_condition::<WaitCondition>)]
    pub condition: WaitCondition,
    /// The load state, text, URL, or target.
    #[schemars(length(max = 65536))]
    pub value: String,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// The input schema of an `expect` condition: the name of one of lang's [`ExpectForm`]s
/// (docs/acl.md §9). Why: the forms are listed once, in lang, so the tool offers every form the
/// language admits and no other.
fn expect_condition_schema(_: &mut SchemaGenerator) -> Schema {
    let names: Vec<&str> = ExpectForm::all().map(ExpectForm::name).collect();
    json_schema!({ "type": "string", "enum": names })
}

/// `expect`: wait (up to `--timeout-ms`, default 2,000 ms) until one condition holds, then,
/// with `--stable-for-ms`, that it keeps holding.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct ExpectParams {
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
    #[schemars(length(min = 1, max = 256))]
    pub values: Vec<String>,
    /// The element the value is about (rendered_text, value, visible_count, layout, …).
    #[arg(long)]
    #[serde(default)]
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub target: Option<String>,
    /// Layout: the element the target is compared with.
    #[arg(long, value_name = "TARGET")]
    #[serde(default)]
    #[schemars(length(max = MAX_TARGET_CHARS))]
    pub relative_to: Option<String>,
    /// Layout: tolerance in CSS px (0–1024).
    #[arg(long, value_name = "PX")]
    #[serde(default)]
    #[schemars(range(max = 1024))]
    pub tolerance_px: Option<u32>,
    /// Hold for this long (10–60000 ms), sampled.
    #[arg(long, value_name = "MS")]
    #[serde(default)]
    #[schemars(range(min = 10, max = 60000))]
    pub stable_for_ms: Option<u32>,
    /// With `stable_for_ms`: the sampling interval.
    #[arg(long, value_name = "MS")]
    #[serde(default)]
    #[schemars(range(min = 1, max = 60000))]
    pub sample_interval_ms: Option<u32>,
    /// How long to wait for the condition to hold [default: 2000]; capped by the turn's
    /// deadline.
    #[arg(long, value_name = "MS", conflicts_with = "immediate")]
    #[serde(default)]
    #[schemars(range(min = 1, max = 3600000))]
    pub timeout_ms: Option<u64>,
    /// Check once, without waiting for the condition to hold.
    #[arg(long)]
    #[serde(default)]
    pub immediate: bool,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
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

impl TargetParams {
    /// The statement of `verb` on this target.
    pub fn statement(&self, verb: TargetVerb) -> Result<String, SessionError> {
        Ok(block(verb.kind(), &[("target", target_arg(&self.target)?)]))
    }
}

impl TextParams {
    /// `fill` or `type` of this text into this target.
    pub fn statement(&self, verb: TextVerb) -> Result<String, SessionError> {
        let kind = match verb {
            TextVerb::Fill => "fill",
            TextVerb::Type => "type",
        };
        Ok(block(
            kind,
            &[
                ("target", target_arg(&self.target)?),
                ("value", self.text.to_string()),
            ],
        ))
    }
}

impl SelectParams {
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

impl PressParams {
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

impl NavigateParams {
    /// `navigate { url }`.
    pub fn statement(&self) -> String {
        block("navigate", &[("url", acl_string(&self.url))])
    }
}

impl ScrollParams {
    /// The `wheel` statement of this scroll.
    pub fn statement(&self) -> Result<String, SessionError> {
        let by = i64::from(self.by.unwrap_or(SCROLL_PX).max(1));
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

impl WheelParams {
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

impl DragParams {
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

impl WaitParams {
    /// `wait { <condition> = <value> }`.
    pub fn statement(&self) -> Result<String, SessionError> {
        let name = self.condition.name();
        let value = condition_value(
            self.condition.value(),
            name,
            std::slice::from_ref(&self.value),
        )?;
        Ok(block("wait", &[(name, value)]))
    }
}

impl ExpectParams {
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

/// Run one built statement through `exec`.
fn run(ctx: &Context, on: &On, statement: String) -> Result<Executed, SessionError> {
    session::exec(
        ctx,
        &ExecParams {
            statement,
            on: on.clone(),
        },
    )
}

/// `click`, `hover`, `focus`, `check`, … on one target.
pub fn on_target(
    ctx: &Context,
    verb: TargetVerb,
    p: &TargetParams,
) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement(verb)?)
}

/// `fill` or `type`.
pub fn text(ctx: &Context, verb: TextVerb, p: &TextParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement(verb)?)
}

/// `select`.
pub fn select(ctx: &Context, p: &SelectParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement()?)
}

/// `press`, into the target when one is given (one statement, one turn).
pub fn press(ctx: &Context, p: &PressParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement()?)
}

/// `navigate`.
pub fn navigate(ctx: &Context, p: &NavigateParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement())
}

/// `scroll`.
pub fn scroll(ctx: &Context, p: &ScrollParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement()?)
}

/// `wheel`.
pub fn wheel(ctx: &Context, p: &WheelParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement()?)
}

/// `drag`.
pub fn drag(ctx: &Context, p: &DragParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement()?)
}

/// `wait`.
pub fn wait(ctx: &Context, p: &WaitParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement()?)
}

/// `expect`.
pub fn expect(ctx: &Context, p: &ExpectParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::admit_statement;

    fn on() -> On {
        On {
            session: "s".parse().unwrap(),
            observation: None,
            observe: false,
            view: Default::default(),
            form: Default::default(),
        }
    }

    fn admitted(statement: &str) {
        admit_statement(statement).unwrap_or_else(|d| panic!("{statement}: {d:?}"));
    }

    #[test]
    fn every_verb_builds_an_admitted_statement() {
        let t = |target: &str| TargetParams {
            target: target.into(),
            on: on(),
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
        let text = TextParams {
            target: "@e2".into(),
            text: "a\"b\n} click { target = css(\"x\") }".into(),
            on: on(),
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
            &SelectParams {
                target: "@e3".into(),
                values: vec!["m".into(), "l".into()],
                on: on(),
            }
            .statement()
            .unwrap(),
        );
        let press = PressParams {
            key: "Enter".into(),
            target: Some("@e4".into()),
            on: on(),
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
            &PressParams {
                target: None,
                ..press
            }
            .statement()
            .unwrap(),
        );
        admitted(
            &NavigateParams {
                url: "/next".into(),
                on: on(),
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
                &ScrollParams {
                    direction,
                    target: Some("@e1".into()),
                    by: None,
                    on: on(),
                }
                .statement()
                .unwrap(),
            );
        }
        admitted(
            &WheelParams {
                delta_y: -300,
                delta_x: Some(5),
                modifiers: vec![Modifier::Shift],
                target: None,
                on: on(),
            }
            .statement()
            .unwrap(),
        );
        admitted(
            &DragParams {
                source: "@e1".into(),
                target: "@e2".into(),
                edge: None,
                on: on(),
            }
            .statement()
            .unwrap(),
        );
        for &edge in DragEdge::ALL {
            let statement = DragParams {
                source: "@e1".into(),
                target: "@e2".into(),
                edge: Some(edge),
                on: on(),
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
                &WaitParams {
                    condition,
                    value: value.into(),
                    on: on(),
                }
                .statement()
                .unwrap(),
            );
        }
        let all: Vec<ExpectForm> = serde_json::from_value(
            crate::ops::schema_of::<ExpectParams>()["properties"]["condition"]["enum"].clone(),
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
            let p = ExpectParams {
                condition,
                values: values.iter().map(|v| v.to_string()).collect(),
                target: target.map(str::to_owned),
                relative_to: relative_to.map(str::to_owned),
                tolerance_px: None,
                stable_for_ms: None,
                sample_interval_ms: None,
                timeout_ms: None,
                immediate: false,
                on: on(),
            };
            admitted(&p.statement().unwrap());
        }
    }

    #[test]
    fn caller_values_never_become_syntax() {
        let injected = TargetParams {
            target: "css(\"a\") }\nnavigate { url = \"http://evil/\"".into(),
            on: on(),
        };
        assert_eq!(
            injected.statement(TargetVerb::Click).unwrap_err().code,
            SessionCode::InvalidInput
        );
        let p = ExpectParams {
            condition: ExpectForm::VisibleCount,
            values: vec!["2 }".into()],
            target: Some("@e1".into()),
            relative_to: None,
            tolerance_px: None,
            stable_for_ms: None,
            sample_interval_ms: None,
            timeout_ms: None,
            immediate: false,
            on: on(),
        };
        assert_eq!(p.statement().unwrap_err().code, SessionCode::InvalidInput);
    }
}
