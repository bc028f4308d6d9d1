//! Operations shared by the command line and the MCP server. Each operation has ONE parameters
//! struct (the CLI subcommand's `clap::Args`, the MCP tool's `Deserialize` and, through
//! `schemars`, the tool's input schema) and ONE typed result (`Serialize`): the CLI renders it as
//! text or prints it with `--json`, the MCP server returns it as the tool result. One
//! implementation, two front ends (docs/agent.md, docs/repair.md).

pub mod audit;
pub mod bounded;
pub mod catalog;
pub mod desktop;
pub mod dev;
pub mod ground;
pub mod observe;
pub mod project;
pub mod repair;
pub mod repair_drain;
pub mod repair_promote;
pub mod repair_verify;
pub mod session;
pub mod terminal;
pub mod ui;
pub mod verbs;

use a3s_test_ledger::{Clock, RandomRequestIds, SystemClock};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The environment variable that overrides the project root (where `.a3s-test/` lives).
pub const ROOT_ENV: &str = "A3S_TEST_ROOT";

/// What every operation needs: the project root, a clock and a source of request ids for
/// generated commands.
pub struct Context {
    /// The project root holding `.a3s-test/`.
    pub root: PathBuf,
    /// The clock leases are measured with.
    pub clock: Arc<dyn Clock>,
    /// Fresh request ids for generated next-action commands.
    pub ids: RandomRequestIds,
    /// The sessions this front end started, when it is scoped to them (the MCP server: an agent
    /// sees only its own sessions unless it names another). `None` = unscoped (the CLI).
    pub owned: Option<Arc<Mutex<BTreeSet<String>>>>,
}

impl Context {
    /// A context for `root` (else `$A3S_TEST_ROOT`, else the working directory) on the system
    /// clock.
    pub fn new(root: Option<PathBuf>) -> Self {
        let root = root
            .or_else(|| std::env::var_os(ROOT_ENV).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("."));
        Context {
            root,
            clock: Arc::new(SystemClock),
            ids: RandomRequestIds::default(),
            owned: None,
        }
    }

    /// The same context, scoped to the sessions it starts (see [`Context::owned`]).
    pub fn scoped(mut self) -> Self {
        self.owned = Some(Arc::new(Mutex::new(BTreeSet::new())));
        self
    }

    /// Remember that this front end started `session` (a no-op when unscoped).
    pub fn own(&self, session: &str) {
        if let Some(owned) = &self.owned {
            owned
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(session.to_owned());
        }
    }

    /// The sessions a listing without a named session may show: `None` = every session under
    /// the root; `Some(ids)` = only these (a scoped front end).
    pub fn visible_sessions(&self) -> Option<Vec<String>> {
        self.owned.as_ref().map(|owned| {
            owned
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .cloned()
                .collect()
        })
    }
}

/// Parse a CLI value into a serde enum by its wire spelling (`passed`, `forensic`, …), so a
/// flag accepts exactly the words the JSON protocol does without a second enum. A wrong word is
/// answered with serde's list of the right ones ("expected one of `top`, `bottom`, …"), so the
/// error says what to write instead.
pub fn parse_enum<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(s.to_owned())).map_err(|e| {
        let e = e.to_string();
        match e.split_once("expected ") {
            Some((_, expected)) => format!("expected {expected}"),
            None => format!("not one of the accepted words: {e}"),
        }
    })
}

/// The JSON Schema of `T` as a tool's input schema: derived from the parameters struct
/// (draft 2020-12, subschemas inlined so a client needs no references), with unknown top-level
/// fields refused. The struct's own doc comment is left out: what the tool does is said once,
/// by its `catalog` entry.
pub fn schema_of<T: schemars::JsonSchema>() -> serde_json::Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).expect("schemas serialize");
    if let Some(map) = value.as_object_mut() {
        map.remove("title");
        map.remove("description");
        if map.get("type").and_then(|t| t.as_str()) == Some("object") {
            map.insert(
                "additionalProperties".into(),
                serde_json::Value::Bool(false),
            );
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::parse_enum;
    use a3s_test_lang::ir::DragEdge;

    #[test]
    fn a_wrong_word_is_answered_with_the_accepted_ones() {
        assert_eq!(parse_enum::<DragEdge>("top"), Ok(DragEdge::Top));
        assert_eq!(
            parse_enum::<DragEdge>("middle").unwrap_err(),
            "expected one of `top`, `bottom`, `left`, `right`"
        );
    }
}
