//! `@cN` refs: actionable Page Context nodes of one observation, each stored as a fingerprint of
//! its private node id (never the id itself), its component and source hints, and durable
//! targets built from the node's own `locators[]` in the protocol's preference order (role+name,
//! label, test id, placeholder, text, css). [`apply_delta`] keeps exactly the refs a validated
//! delta leaves untouched; a reset clears them all.

use super::diff::Delta;
use super::fingerprint::{fingerprint, fingerprints};
// Roles a `@cN` ref may name: the same operable roles `@eN` observations list.
use a3s_test_driver::OPERABLE_ROLES as ACTIONABLE_ROLES;
use a3s_test_lang::ir::{Target, TextMatch};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Tags that are actionable without a role.
const ACTIONABLE_TAGS: &[&str] = &["button", "a", "input", "select", "textarea", "summary"];

/// One `@cN` ref.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CRefEntry {
    /// `@cN`.
    pub reference: String,
    /// [`fingerprint`] of the node id within this session.
    pub fingerprint: String,
    /// Role (untrusted).
    pub role: String,
    /// Accessible name (untrusted).
    pub name: String,
    /// The component boundary's name, if the node is inside one (untrusted).
    pub component: Option<String>,
    /// The component's source hint `file:line:column` (untrusted evidence, no file authority).
    pub source: Option<String>,
    /// Durable targets from the node's locators, in preference order.
    pub durable: Vec<Target>,
}

/// The Page Context side of a session record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageContextState {
    /// The bridge's SDK version (from a compatible handshake).
    pub sdk_version: String,
    /// The revision the `@cN` refs are known to be valid at.
    pub baseline: u64,
    /// The surviving refs.
    pub crefs: Vec<CRefEntry>,
}

/// Durable targets from a node's `locators[]`; unknown kinds and shadow-piercing css (which a
/// plain `css()` target cannot reach) are skipped.
pub fn targets_of(locators: &Value) -> Vec<Target> {
    let mut out = Vec::new();
    for l in locators.as_array().into_iter().flatten() {
        let value = l.get("value").and_then(Value::as_str).unwrap_or("");
        let t = match l.get("kind").and_then(Value::as_str) {
            Some("role") => {
                let role = l.get("role").and_then(Value::as_str).unwrap_or("");
                let name = l.get("name").and_then(Value::as_str).unwrap_or("");
                (!role.is_empty()).then(|| Target::Role {
                    role: role.into(),
                    name: (!name.is_empty()).then(|| TextMatch::exact(name)),
                })
            }
            Some("label") if !value.is_empty() => Some(Target::Label {
                label: TextMatch::exact(value),
            }),
            Some("testId") if !value.is_empty() => Some(Target::TestId {
                test_id: value.into(),
            }),
            Some("placeholder") if !value.is_empty() => Some(Target::Placeholder {
                placeholder: TextMatch::exact(value),
            }),
            Some("text") if !value.is_empty() => Some(Target::Text {
                text: TextMatch::exact(value),
            }),
            Some("css") if !value.is_empty() && l.get("shadowHosts").is_none() => {
                Some(Target::Css {
                    selector: value.into(),
                })
            }
            _ => None,
        };
        out.extend(t);
    }
    out
}

fn is_actionable(node: &Value) -> bool {
    let role = node.get("role").and_then(Value::as_str).unwrap_or("");
    let tag = node.get("tag").and_then(Value::as_str).unwrap_or("");
    let visible = node.pointer("/state/visible") == Some(&Value::Bool(true));
    visible && (ACTIONABLE_ROLES.contains(&role) || ACTIONABLE_TAGS.contains(&tag))
}

fn source_hint(component: &Value) -> Option<String> {
    let s = component.get("source")?;
    let file = s.get("file")?.as_str()?;
    let mut out = file.to_string();
    if let Some(line) = s.get("line").and_then(Value::as_u64) {
        out.push_str(&format!(":{line}"));
        if let Some(col) = s.get("column").and_then(Value::as_u64) {
            out.push_str(&format!(":{col}"));
        }
    }
    Some(out)
}

/// Build the `@cN` refs of a snapshot response (a validated-compatible bridge's `summary`).
/// Nodes without any usable locator get no ref: there would be nothing to dispatch through.
pub fn crefs_of(response: &Value, token: &str) -> Vec<CRefEntry> {
    let components: Vec<&Value> = response
        .get("components")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for node in response
        .get("nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(id) = node.get("id").and_then(Value::as_str) else {
            continue;
        };
        if !is_actionable(node) {
            continue;
        }
        let durable = targets_of(node.get("locators").unwrap_or(&Value::Null));
        if durable.is_empty() {
            continue;
        }
        let component = node
            .get("componentId")
            .and_then(Value::as_str)
            .and_then(|cid| {
                components
                    .iter()
                    .find(|c| c.get("id").and_then(Value::as_str) == Some(cid))
            });
        out.push(CRefEntry {
            reference: format!("@c{}", out.len() + 1),
            fingerprint: fingerprint(token, id),
            role: node
                .get("role")
                .and_then(Value::as_str)
                .or_else(|| node.get("tag").and_then(Value::as_str))
                .unwrap_or("")
                .to_string(),
            name: node
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            component: component
                .and_then(|c| c.get("name").and_then(Value::as_str))
                .map(str::to_string),
            source: component.and_then(|c| source_hint(c)),
            durable,
        });
    }
    out
}

/// Keep the refs `delta` leaves untouched and move the baseline to its revision; a reset
/// clears every ref.
pub fn apply_delta(state: &mut PageContextState, delta: &Delta, token: &str) {
    match delta {
        Delta::Unchanged { .. } => {}
        Delta::Reset { to, .. } => {
            state.crefs.clear();
            state.baseline = *to;
        }
        Delta::Complete { to, node_ids, .. } => {
            let gone = fingerprints(token, node_ids);
            state.crefs.retain(|r| !gone.contains(&r.fingerprint));
            state.baseline = *to;
        }
    }
}

/// One `@cN` ref as an observation shows it (role, name, component and source are untrusted page
/// data). Fields in alphabetical order: the view used to be built as a JSON object (whose keys
/// print sorted), and answers print the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CRefView {
    /// The component boundary's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<String>,
    /// Accessible name.
    pub name: String,
    /// `@cN`.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Role.
    pub role: String,
    /// The component's source hint `file:line:column`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The Page Context part of an observation on a page with the Test Kit bridge (fields
/// alphabetical, as [`CRefView`]'s).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageContextView {
    /// How many `@cN` refs the observation has.
    pub ref_count: usize,
    /// The refs.
    pub refs: Vec<CRefView>,
    /// The Page Context revision they are bound to.
    pub revision: u64,
    /// The bridge's SDK version.
    pub sdk_version: String,
}

impl From<&PageContextState> for PageContextView {
    fn from(state: &PageContextState) -> Self {
        PageContextView {
            ref_count: state.crefs.len(),
            refs: state
                .crefs
                .iter()
                .map(|r| CRefView {
                    component: r.component.clone(),
                    name: r.name.clone(),
                    reference: r.reference.clone(),
                    role: r.role.clone(),
                    source: r.source.clone(),
                })
                .collect(),
            revision: state.baseline,
            sdk_version: state.sdk_version.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeSet;

    /// The typed view prints the very text the JSON object it replaced printed (sorted keys,
    /// absent component and source left out).
    #[test]
    fn the_page_context_view_prints_as_its_json_did() {
        let entry = |n: u32, component: Option<&str>, source: Option<&str>| CRefEntry {
            reference: format!("@c{n}"),
            fingerprint: format!("f{n}"),
            role: "button".into(),
            name: format!("Save {n}"),
            component: component.map(str::to_string),
            source: source.map(str::to_string),
            durable: Vec::new(),
        };
        let state = PageContextState {
            sdk_version: "1.2.0".into(),
            baseline: 7,
            crefs: vec![
                entry(1, Some("Form"), Some("src/a.tsx:1:2")),
                entry(2, None, None),
            ],
        };
        let refs: Vec<Value> = state
            .crefs
            .iter()
            .map(|r| {
                let mut v = json!({ "ref": r.reference, "role": r.role, "name": r.name });
                if let Some(c) = &r.component {
                    v["component"] = json!(c);
                }
                if let Some(s) = &r.source {
                    v["source"] = json!(s);
                }
                v
            })
            .collect();
        let before = json!({
            "sdk_version": state.sdk_version,
            "revision": state.baseline,
            "refs": refs,
            "ref_count": state.crefs.len(),
        });
        let view = PageContextView::from(&state);
        assert_eq!(
            serde_json::to_string(&view).unwrap(),
            serde_json::to_string(&before).unwrap()
        );
        let back: PageContextView = serde_json::from_value(before).unwrap();
        assert_eq!(back, view);
    }

    fn response() -> Value {
        json!({
            "revision": 4,
            "components": [{ "id": "login-form", "name": "LoginForm",
                             "source": { "file": "src/main.tsx", "line": 24, "column": 1 } }],
            "nodes": [
                { "id": "n1", "tag": "section", "state": { "visible": true }, "locators": [] },
                { "id": "n2", "tag": "input", "role": "textbox", "name": "Email",
                  "componentId": "login-form", "state": { "visible": true },
                  "locators": [
                    { "kind": "role", "role": "textbox", "name": "Email" },
                    { "kind": "label", "value": "Email" },
                    { "kind": "testId", "value": "email" },
                    { "kind": "css", "value": "x-w > input", "shadowHosts": ["x-w"] }
                  ] },
                { "id": "n3", "tag": "button", "role": "button", "name": "Add",
                  "state": { "visible": true },
                  "locators": [{ "kind": "text", "value": "Add" }, { "kind": "css", "value": "#add" }] },
                { "id": "n4", "tag": "button", "role": "button", "name": "Hidden",
                  "state": { "visible": false },
                  "locators": [{ "kind": "testId", "value": "h" }] }
            ]
        })
    }

    #[test]
    fn refs_name_actionable_nodes_with_hints_and_no_raw_ids() {
        let refs = crefs_of(&response(), "tok");
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[0].reference, "@c1");
        assert_eq!(refs[0].component.as_deref(), Some("LoginForm"));
        assert_eq!(refs[0].source.as_deref(), Some("src/main.tsx:24:1"));
        assert_eq!(refs[0].durable.len(), 3, "shadow css is skipped");
        assert_eq!(
            refs[1].durable[1],
            Target::Css {
                selector: "#add".into()
            }
        );
        let stored = serde_json::to_string(&refs).unwrap();
        assert!(!stored.contains("\"n2\"") && !stored.contains("\"n3\""));
    }

    #[test]
    fn deltas_keep_only_unaffected_refs() {
        let mut state = PageContextState {
            sdk_version: "0.1.0".into(),
            baseline: 4,
            crefs: crefs_of(&response(), "tok"),
        };
        let delta = Delta::Complete {
            from: 4,
            to: 6,
            page: false,
            facts: false,
            node_ids: BTreeSet::from(["n2".to_string()]),
            removed: BTreeSet::new(),
            component_ids: BTreeSet::new(),
        };
        apply_delta(&mut state, &delta, "tok");
        assert_eq!(state.baseline, 6);
        assert_eq!(
            state
                .crefs
                .iter()
                .map(|r| r.reference.as_str())
                .collect::<Vec<_>>(),
            ["@c2"]
        );
        apply_delta(&mut state, &Delta::Unchanged { revision: 6 }, "tok");
        assert_eq!(state.crefs.len(), 1);
        apply_delta(&mut state, &Delta::Reset { from: 6, to: 9 }, "tok");
        assert!(state.crefs.is_empty());
        assert_eq!(state.baseline, 9);
    }
}
