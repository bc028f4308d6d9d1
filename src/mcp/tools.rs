//! The MCP tools: an operation of `crate::ops`, named and described by its
//! `crate::ops::catalog` entry (the CLI subcommand's `about` is the same constant). The input schema is
//! DERIVED from the operation's parameters struct (`crate::ops::schema_of`), the arguments are
//! deserialized into that struct, whose field types refuse what the schema does not allow
//! (`super::args`), and
//! the operation's typed result is the tool result. Adding a tool = one catalog entry and one
//! line here.
//!
//! Reviewer verbs (accept, reject, reopen, answer) and import are deliberately absent: MCP
//! clients are coding agents, and human authorization is a separate authority (docs/repair.md).
//! Draining only moves what a person already sent in the session's page. `test_repair_verify`
//! only asks: the verdict is whatever A3S Test observes, and the orchestrator's `--checks-json`
//! mode is not offered here.

use super::args::{self, Refusal};
use crate::ops::catalog::Spec;
use crate::ops::repair::{self, Operation};
use crate::ops::repair_drain;
use crate::ops::repair_verify;
use crate::ops::session::Executed;
use crate::ops::verbs::{self, TargetParams, TargetVerb, TextParams, TextVerb};
use crate::ops::Context;
use crate::ops::{observe, session};
use a3s_test_runner::session::view::Form;
use a3s_test_runner::session::SessionError;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// Why a tool call did not produce a result.
#[derive(Debug)]
pub enum ToolError {
    /// The arguments do not fit the parameters struct (a JSON-RPC invalid-params error naming
    /// the field).
    InvalidArguments(Refusal),
    /// The operation was refused or failed: the coded error, returned as a tool result with
    /// `isError: true`.
    Refused(Value),
}

type Run = Box<dyn Fn(&Context, &Value, Value) -> Result<Value, ToolError> + Send + Sync>;

/// One tool.
pub struct Tool {
    /// Its name (`test_…`).
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
    /// The JSON Schema of its arguments, derived from the parameters struct.
    pub input_schema: Value,
    run: Run,
}

impl Tool {
    /// Read the arguments into the tool's parameters struct (refused as
    /// [`ToolError::InvalidArguments`]) and run the operation.
    pub fn call(&self, ctx: &Context, args: Value) -> Result<Value, ToolError> {
        (self.run)(ctx, &self.input_schema, args)
    }
}

/// The tool `spec` names, running `op` on the parameters struct `P`, whose schema is the
/// tool's input schema.
/// A refusal or failure of `op` is its coded error, serialized under `error`.
fn tool<P, R, E>(
    spec: &Spec,
    op: impl Fn(&Context, P) -> Result<R, E> + Send + Sync + 'static,
) -> Tool
where
    P: JsonSchema + DeserializeOwned + 'static,
    R: Serialize + 'static,
    E: Serialize + 'static,
{
    Tool {
        name: spec.tool(),
        description: spec.about,
        input_schema: crate::ops::schema_of::<P>(),
        run: Box::new(move |ctx, schema, args| {
            let params: P = args::read(schema, &args).map_err(ToolError::InvalidArguments)?;
            let result = op(ctx, params).map_err(|e| ToolError::Refused(json!({ "error": e })))?;
            Ok(serde_json::to_value(result).expect("tool results serialize"))
        }),
    }
}

/// An operation that reads its parameters by reference, as a tool's operation.
fn by_ref<P, R, E>(
    op: fn(&Context, &P) -> Result<R, E>,
) -> impl Fn(&Context, P) -> Result<R, E> + Send + Sync {
    move |c, p| op(c, &p)
}

/// The operation of a one-target verb tool (`test_click`, `test_hover`, …).
fn on_target(
    verb: TargetVerb,
) -> impl Fn(&Context, TargetParams) -> Result<Executed, SessionError> + Send + Sync {
    move |c, p| verbs::on_target(c, verb, &p)
}

/// The operation of a text verb tool (`test_fill`, `test_type`).
fn text(
    verb: TextVerb,
) -> impl Fn(&Context, TextParams) -> Result<Executed, SessionError> + Send + Sync {
    move |c, p| verbs::text(c, verb, &p)
}

/// The arguments of a tool that takes none.
#[derive(serde::Deserialize, JsonSchema)]
struct NoParams {}

/// `tools![SPEC => op; …]`: one [`tool`] per entry, named and described by its
/// `crate::ops::catalog` entry (the subcommand shows the same text), in the order `tools/list`
/// gives them, so that a tool is one entry of one table.
macro_rules! tools {
    ($($spec:expr => $op:expr;)*) => {
        vec![$(tool(&$spec, $op)),*]
    };
}

/// Every tool the server offers.
pub fn all() -> Vec<Tool> {
    use crate::ops::catalog as c;
    tools![
        c::REPAIR_INBOX => by_ref(repair::inbox);
        c::REPAIR_INSPECT => by_ref(repair::inspect_finding);
        c::REPAIR_CLAIM => |c, p| repair::act(c, Operation::claim(p));
        c::REPAIR_PROGRESS => |c, p| repair::act(c, Operation::progress(p));
        c::REPAIR_REPLY => |c, p| repair::act(c, Operation::reply(p)?);
        c::REPAIR_COMPLETE => |c, p| repair::act(c, Operation::complete(p)?);
        c::REPAIR_FAIL => |c, p| repair::act(c, Operation::fail(p));
        c::REPAIR_CANCEL => |c, p| repair::act(c, Operation::cancel(p));
        c::REPAIR_DRAIN => by_ref(repair_drain::drain);
        c::REPAIR_VERIFY => by_ref(repair_verify::verify);
        c::START => |c, p| {
            let started = session::start(c, p, &|| false)?;
            c.own(&started.session);
            Ok::<_, SessionError>(started)
        };
        c::OBSERVE => |c, p| observe::observe(c, &p, Form::Json);
        c::INSPECT => by_ref(session::inspect);
        c::GROUND => by_ref(crate::ops::ground::ground);
        c::AUDIT => by_ref(crate::ops::audit::audit);
        c::EXEC => by_ref(session::exec);
        c::ACT => by_ref(session::act);
        c::CLICK => on_target(TargetVerb::Click);
        c::DOUBLE_CLICK => on_target(TargetVerb::DoubleClick);
        c::CONTEXT_CLICK => on_target(TargetVerb::ContextClick);
        c::HOVER => on_target(TargetVerb::Hover);
        c::FOCUS => on_target(TargetVerb::Focus);
        c::CHECK => on_target(TargetVerb::Check);
        c::UNCHECK => on_target(TargetVerb::Uncheck);
        c::FILL => text(TextVerb::Fill);
        c::TYPE => text(TextVerb::Type);
        c::PASTE => by_ref(verbs::paste);
        c::RESIZE => by_ref(verbs::resize);
        c::SELECT => by_ref(verbs::select);
        c::PRESS => by_ref(verbs::press);
        c::NAVIGATE => by_ref(verbs::navigate);
        c::SCROLL => by_ref(verbs::scroll);
        c::WHEEL => by_ref(verbs::wheel);
        c::DRAG => by_ref(verbs::drag);
        c::WAIT => by_ref(verbs::wait);
        c::EXPECT => by_ref(verbs::expect);
        c::FINISH => by_ref(session::finish);
        c::ABORT => by_ref(session::abort);
        c::SCHEMA => |_, _: NoParams| Ok::<_, SessionError>(session::schema());
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derived input schema of the tool `name`.
    fn schema(name: &str) -> Value {
        all()
            .into_iter()
            .find(|t| t.name == name)
            .map(|t| t.input_schema)
            .unwrap_or_else(|| panic!("no tool {name}"))
    }

    /// Every tool is an operation of the catalog, described by its text, and every catalog
    /// entry with a tool is offered.
    #[test]
    fn every_tool_is_its_catalog_entry() {
        let tools = all();
        let specs: Vec<_> = crate::ops::catalog::ALL
            .iter()
            .filter(|s| s.mcp.is_some())
            .collect();
        assert_eq!(tools.len(), specs.len());
        for (tool, spec) in tools.iter().zip(specs) {
            assert_eq!(Some(tool.name), spec.mcp);
            assert_eq!(tool.description, spec.about, "{}", tool.name);
        }
    }

    #[test]
    fn every_schema_is_a_closed_object() {
        for tool in all() {
            // What the tool does is its description, said once.
            assert!(
                tool.input_schema.get("description").is_none(),
                "{}",
                tool.name
            );
            assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
            assert_eq!(
                tool.input_schema["additionalProperties"], false,
                "{}",
                tool.name
            );
        }
    }

    #[test]
    fn derived_schemas_carry_the_bounds() {
        let inbox = schema("test_repair_inbox");
        assert_eq!(inbox["properties"]["limit"]["maximum"], 100);
        let claim = schema("test_repair_claim");
        assert_eq!(claim["properties"]["lease_ms"]["minimum"], 1000);
        let required = schema("test_repair_complete")["required"].clone();
        for field in [
            "finding",
            "session",
            "request_id",
            "attempt_id",
            "changed_files",
        ] {
            assert!(
                required.as_array().unwrap().contains(&json!(field)),
                "{field}"
            );
        }
        assert_eq!(
            schema("test_finish")["properties"]["status"]["enum"],
            json!(["passed", "failed"])
        );
        // The replacement target is declared with the completion, never with the request to
        // verify it.
        let complete = schema("test_repair_complete");
        assert_eq!(
            complete["properties"]["replacement"]["maxLength"],
            a3s_test_ledger::validate::MAX_REPLACEMENT_BYTES
        );
        assert!(schema("test_repair_verify")["properties"]
            .get("replacement")
            .is_none());
    }

    #[test]
    fn every_action_tool_answers_with_the_next_observation_unless_told_not_to() {
        let acting = [
            "test_exec",
            "test_act",
            "test_click",
            "test_double_click",
            "test_context_click",
            "test_hover",
            "test_focus",
            "test_check",
            "test_uncheck",
            "test_fill",
            "test_type",
            "test_paste",
            "test_resize",
            "test_select",
            "test_press",
            "test_navigate",
            "test_scroll",
            "test_wheel",
            "test_drag",
            "test_wait",
            "test_expect",
        ];
        let observe = all()
            .into_iter()
            .find(|t| t.name == "test_observe")
            .unwrap()
            .input_schema;
        for tool in all() {
            let props = &tool.input_schema["properties"];
            if !acting.contains(&tool.name) {
                assert!(props.get("observe").is_none(), "{}", tool.name);
                continue;
            }
            assert_eq!(props["observe"]["default"], true, "{}", tool.name);
            assert_eq!(props["observe"]["type"], "boolean", "{}", tool.name);
            // The view options are observe's, bounds and all.
            for option in ["full", "since", "settle_ms", "max_bytes", "scope"] {
                assert_eq!(
                    props[option], observe["properties"][option],
                    "{} {option}",
                    tool.name
                );
            }
        }
    }

    #[test]
    fn texts_take_a_string_or_an_env_variable() {
        use crate::ops::session::ActParams;
        use crate::ops::verbs::TextParams;
        let act = |text: Value| json!({ "session": "s", "action": { "action": "fill", "target": "@e1", "text": text } });
        let fill = |text: Value| json!({ "session": "s", "target": "@e1", "text": text });
        for (name, call) in [
            ("test_act", &act as &dyn Fn(Value) -> Value),
            ("test_fill", &fill),
            ("test_type", &fill),
        ] {
            let s = schema(name);
            let validate = |args: &Value| -> Result<(), Refusal> {
                if name == "test_act" {
                    args::read::<ActParams>(&s, args).map(drop)
                } else {
                    args::read::<TextParams>(&s, args).map(drop)
                }
            };
            for good in [json!("a@b.c"), json!(""), json!({ "env": "A3S_PASSWORD" })] {
                assert_eq!(validate(&call(good.clone())), Ok(()), "{name} {good}");
            }
            for bad in [
                json!({ "env": "9LIVES" }),
                json!({ "env": "A", "other": 1 }),
                json!({}),
                json!(3),
            ] {
                assert!(validate(&call(bad.clone())).is_err(), "{name} {bad}");
            }
        }
        // The text bound still applies to a literal.
        let long = json!("x".repeat(65_537));
        let refused = args::read::<TextParams>(&schema("test_fill"), &fill(long)).unwrap_err();
        assert_eq!(refused.field, "/text");
    }
}
