//! The accessibility tree as evidence: `Accessibility.getFullAXTree` (sent raw; the generated
//! types lag Chrome's role and property lists) turned into a compact nested JSON tree.
//!
//! Ignored nodes and inline text boxes are dropped (their children are kept); values of text
//! fields are never written, so a password can never leak into evidence.

use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// Chrome's internal roles for the parts of a native `<select>` popup, operable like options.
const NATIVE_POPUP_ROLES: &[&str] = &["MenuListPopup", "MenuListOption", "ListBoxOption"];

/// True for roles a person can operate; `interactive = true` keeps only these.
fn is_interactive(role: &str) -> bool {
    a3s_test_driver::api::OPERABLE_ROLES.contains(&role) || NATIVE_POPUP_ROLES.contains(&role)
}

/// Roles whose `value` is user input and is never written.
const TEXT_ROLES: &[&str] = &["textbox", "searchbox", "combobox", "spinbutton"];

/// Boolean/tristate properties worth keeping.
const STATES: &[&str] = &[
    "focused", "disabled", "checked", "expanded", "selected", "pressed", "required", "invalid",
    "readonly", "modal", "level",
];

fn text(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer).and_then(|x| match x {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    })
}

/// Counts of a full tree: (kept nodes, interactive nodes).
pub(crate) fn counts(reply: &Value) -> (usize, usize) {
    let nodes = reply
        .get("nodes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let kept: Vec<&Value> = nodes
        .iter()
        .filter(|n| n["ignored"] != Value::Bool(true))
        .collect();
    let interactive = kept
        .iter()
        .filter(|n| text(n, "/role/value").is_some_and(|r| is_interactive(&r)))
        .count();
    (kept.len(), interactive)
}

/// Turn a `getFullAXTree` reply into the evidence document.
pub(crate) fn to_json(reply: &Value, interactive_only: bool) -> Value {
    tree(reply, interactive_only, None)
}

/// The whole tree in the evidence shape, rooted at the node of DOM element `root_backend` when
/// given (an `aria_snapshot` with a `target`; no nodes when that element has no accessibility
/// node).
pub(crate) fn tree_json(reply: &Value, root_backend: Option<i64>) -> Value {
    tree(reply, false, root_backend)
}

fn tree(reply: &Value, interactive_only: bool, root_backend: Option<i64>) -> Value {
    let nodes = reply
        .get("nodes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let by_id: HashMap<String, &Value> = nodes
        .iter()
        .filter_map(|n| text(n, "/nodeId").map(|id| (id, n)))
        .collect();
    let describe = |n: &Value| -> Option<Value> {
        if n["ignored"] == Value::Bool(true) {
            return None;
        }
        let role = text(n, "/role/value").unwrap_or_default();
        if role == "InlineTextBox" || role.is_empty() {
            return None;
        }
        let mut out = Map::new();
        out.insert("role".into(), json!(role));
        if let Some(name) = text(n, "/name/value").filter(|s| !s.is_empty()) {
            out.insert("name".into(), json!(name));
        }
        if !TEXT_ROLES.contains(&role.as_str()) {
            if let Some(value) = text(n, "/value/value").filter(|s| !s.is_empty()) {
                out.insert("value".into(), json!(value));
            }
        }
        for p in n
            .get("properties")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = p["name"].as_str().unwrap_or("");
            if STATES.contains(&name) {
                out.insert(
                    name.into(),
                    p.pointer("/value/value").cloned().unwrap_or(Value::Null),
                );
            }
        }
        Some(Value::Object(out))
    };
    if interactive_only {
        let list: Vec<Value> = nodes
            .iter()
            .filter(|n| text(n, "/role/value").is_some_and(|r| is_interactive(&r)))
            .filter_map(describe)
            .collect();
        return json!({ "interactive": true, "nodes": list });
    }
    fn build(
        n: &Value,
        by_id: &HashMap<String, &Value>,
        describe: &dyn Fn(&Value) -> Option<Value>,
        depth: usize,
    ) -> Vec<Value> {
        let mut children = Vec::new();
        if depth < 256 {
            for id in n
                .get("childIds")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(child) = id.as_str().and_then(|id| by_id.get(id)) {
                    children.extend(build(child, by_id, describe, depth + 1));
                }
            }
        }
        match describe(n) {
            Some(mut me) => {
                if !children.is_empty() {
                    me["children"] = Value::Array(children);
                }
                vec![me]
            }
            None => children,
        }
    }
    let root = match root_backend {
        Some(id) => nodes
            .iter()
            .find(|n| n.get("backendDOMNodeId").and_then(Value::as_i64) == Some(id)),
        None => nodes
            .iter()
            .find(|n| n.get("parentId").is_none())
            .or(nodes.first()),
    };
    let tree = root
        .map(|r| build(r, &by_id, &describe, 0))
        .unwrap_or_default();
    json!({ "interactive": false, "nodes": tree })
}
