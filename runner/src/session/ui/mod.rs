//! UI understanding for agents (`observe --ui`, `inspect --ui`): the Test Kit's
//! `a3s.test.ui-understanding/1` record, asked for within a budget, re-checked in Rust
//! ([`record`]) and shown as read-only `@uN` facts bound to the observation ([`facts`]). An
//! `@uN` is never an action target ([`gate`]).
//!
//! The budget, which the request states and the check holds the answer to: at most
//! [`UiBudget::nodes`] layout nodes (default 200, at most 1000) read within
//! [`UiBudget::time_ms`] (default 32 ms, at most 100 ms) in the page, and at most
//! [`facts::MAX_FACTS`] facts shown. Whatever either side cut is said in the view's notes; the
//! Test Kit leaves the record out altogether rather than break it when its response's byte bound
//! (`responseBytes`, 1 MiB by default) cannot hold it, and the view says that too.

pub mod evidence;
pub mod facts;
pub mod gate;
pub mod record;
pub mod text;

use crate::session::code::{SessionCode, SessionError};
use facts::{NodeName, UiView};
use record::{Binding, Viewport};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Default [`UiBudget::nodes`].
pub const DEFAULT_UI_NODES: u32 = 200;
/// Default [`UiBudget::time_ms`].
pub const DEFAULT_UI_TIME_MS: u32 = 32;

/// What an observation asks of the Test Kit's UI understanding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UiBudget {
    /// Most layout nodes read (1..=1000).
    pub nodes: u32,
    /// Most milliseconds spent in the page (1..=100).
    pub time_ms: u32,
}

impl Default for UiBudget {
    fn default() -> Self {
        UiBudget {
            nodes: DEFAULT_UI_NODES,
            time_ms: DEFAULT_UI_TIME_MS,
        }
    }
}

impl UiBudget {
    /// Refuse a budget outside the Test Kit's bounds (never clamped).
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=record::MAX_UI_NODES).contains(&self.nodes) {
            return Err(format!(
                "ui_nodes must be 1..={}, not {}",
                record::MAX_UI_NODES,
                self.nodes
            ));
        }
        if !(1..=record::MAX_UI_TIME_MS).contains(&self.time_ms) {
            return Err(format!(
                "ui_time_ms must be 1..={}, not {}",
                record::MAX_UI_TIME_MS,
                self.time_ms
            ));
        }
        Ok(())
    }

    /// The bridge's `snapshot` argument: the page's summary with UI understanding in budget.
    pub fn bridge_request(&self) -> Value {
        json!({
            "detail": "summary",
            "scope": { "kind": "page" },
            "ui": true,
            "limits": { "uiNodes": self.nodes, "uiTimeMs": self.time_ms },
        })
    }
}

/// Names of a response's nodes by private id: `@cN` from `cref_of`, else role (or tag) and
/// name, or the node's own text when it has no name (a `status` is named by no content).
pub fn names_of(
    response: &Value,
    cref_of: impl Fn(&str) -> Option<String>,
) -> BTreeMap<String, NodeName> {
    let str_of = |n: &Value, k: &str| n.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    response
        .get("nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|n| {
            let id = n.get("id")?.as_str()?;
            let role = Some(str_of(n, "role"))
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| str_of(n, "tag"));
            let name = Some(str_of(n, "name"))
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| str_of(n, "text"));
            Some((id.to_string(), NodeName::new(cref_of(id), &role, &name)))
        })
        .collect()
}

/// The checked facts of a Page Context `response` asked for with `budget`, before numbering:
/// `Ok(None)` facts with notes when the Test Kit left the record out; a coded
/// `test.session.ui_invalid` error when the record breaks a rule (nothing of it is shown).
pub fn read(
    response: &Value,
    budget: &UiBudget,
    names: &BTreeMap<String, NodeName>,
) -> Result<(Vec<facts::UiFact>, UiView), SessionError> {
    let revision = response
        .get("revision")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let mut notes = Vec::new();
    if response.get("truncated") == Some(&Value::Bool(true)) {
        let reasons = response.get("truncatedReasons").and_then(Value::as_array);
        if reasons.is_some_and(|r| r.iter().any(|x| x == "node_limit" || x == "nodes")) {
            notes.push(
                "the Page Context itself is cut (its node limit), so UI understanding covers only \
                 the nodes it holds"
                    .to_string(),
            );
        }
    }
    let empty = |notes: Vec<String>| UiView {
        revision,
        nodes: 0,
        refs: Vec::new(),
        notes,
        read_only: true,
    };
    let Some(raw) = response.get("ui") else {
        let dropped = response
            .get("truncatedReasons")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x == "ui"));
        notes.push(if dropped {
            "UI understanding left out: it did not fit the Test Kit's response byte budget \
             (responseBytes); ask for fewer ui_nodes"
                .to_string()
        } else {
            "UI understanding left out: the Test Kit gave none (installed with \
             uiUnderstanding={false}, or no node fitted the budget)"
                .to_string()
        });
        return Ok((Vec::new(), empty(notes)));
    };
    let invalid = |message: String| {
        SessionError::new(
            SessionCode::UiInvalid,
            format!("the Test Kit's UI-understanding record was refused, nothing of it is shown: {message}"),
        )
    };
    let viewport: Viewport = response
        .pointer("/page/viewport")
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or_else(|| invalid("its Page Context has no page viewport".into()))?;
    let node_ids: BTreeSet<String> = names.keys().cloned().collect();
    let binding = Binding {
        revision,
        viewport,
        node_ids: &node_ids,
        max_nodes: budget.nodes,
        max_time_ms: budget.time_ms,
    };
    let record = record::validate(raw, &binding).map_err(|v| invalid(v.to_string()))?;
    notes.extend(facts::cut_notes(&record, budget.nodes));
    let (list, more) = facts::facts_of(&record, names);
    if more > 0 {
        notes.push(format!(
            "{more} more UI facts past the {}-fact bound are not shown",
            facts::MAX_FACTS
        ));
    }
    let mut view = empty(notes);
    view.nodes = record.layout.nodes.len();
    Ok((list, view))
}

#[cfg(test)]
mod tests;
