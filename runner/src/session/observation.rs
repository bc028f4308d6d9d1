//! Observations: the ref table — each `@eN` of an observation with the backend node it names and
//! the durable targets a ref can later be dispatched through and promoted to. What a view shows
//! of an observation is [`super::view`].

use a3s_test_driver::{ControlNode, PageSnapshot};
use a3s_test_lang::ir::{Target, TextMatch};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One ref of an observation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefEntry {
    /// `@eN`.
    pub reference: String,
    /// The backend DOM node it names.
    pub backend_node_id: i64,
    /// Accessible role.
    pub role: String,
    /// Accessible name (untrusted).
    pub name: String,
    /// Current value (untrusted; never a password).
    pub value: Option<String>,
    /// Accessibility states, JSON on purpose: the values the browser's accessibility tree
    /// reported for the page's controls (strings, booleans, numbers), passed on untouched.
    pub states: BTreeMap<String, Value>,
    /// Durable targets in preference order (role+name, label, testid, placeholder, text, css).
    pub durable: Vec<Target>,
}

/// The ref table of a snapshot numbered from `@e1` in document order (a session numbers refs
/// stably across observations instead: [`super::view::Numbering`]).
pub fn refs_of(snapshot: &PageSnapshot) -> Vec<RefEntry> {
    snapshot
        .controls
        .iter()
        .enumerate()
        .map(|(i, c)| RefEntry::of(i as u64 + 1, c))
        .collect()
}

impl RefEntry {
    /// Ref `@e<n>` naming control `c`, with its durable targets.
    pub fn of(n: u64, c: &ControlNode) -> RefEntry {
        RefEntry {
            reference: format!("@e{n}"),
            backend_node_id: c.backend_node_id,
            role: c.role.clone(),
            name: c.name.clone(),
            value: c.value.clone(),
            states: c.states.clone(),
            durable: durable_targets(c),
        }
    }
}

fn css_string(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Durable targets for one control, most readable first: each text form as the default,
/// case-insensitive substring match (what a person writes) before its exact form (which a longer
/// name containing this one cannot also match). Which of them still names the same node alone
/// is decided at dispatch time, by the browser; when none does, the page writes one
/// (`RefProof`).
pub fn durable_targets(c: &ControlNode) -> Vec<Target> {
    let mut out = Vec::new();
    let name = c.name.split_whitespace().collect::<Vec<_>>().join(" ");
    if !name.is_empty() {
        out.push(Target::Role {
            role: c.role.clone(),
            name: Some(TextMatch::contains(&name)),
        });
        out.push(Target::role_named(&c.role, &name));
    }
    if c.named_by_label && !name.is_empty() {
        out.push(Target::Label {
            label: TextMatch::exact(&name),
        });
    }
    // An attribute with more than white space in it.
    let worded = |attribute: &str| {
        c.attributes
            .get(attribute)
            .filter(|s| !s.trim().is_empty())
            .cloned()
    };
    if let Some(label) = worded("aria-label") {
        out.push(Target::Label {
            label: TextMatch::exact(label),
        });
    }
    if let Some(id) = c.attributes.get("data-testid").filter(|s| !s.is_empty()) {
        out.push(Target::TestId {
            test_id: id.clone(),
        });
    }
    if let Some(placeholder) = worded("placeholder") {
        out.push(Target::Placeholder {
            placeholder: TextMatch::exact(placeholder),
        });
    }
    if !name.is_empty() && matches!(c.role.as_str(), "button" | "link" | "tab" | "menuitem") {
        out.push(Target::Text {
            text: TextMatch::exact(name),
        });
    }
    let tag = if c
        .tag
        .chars()
        .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
    {
        c.tag.as_str()
    } else {
        ""
    };
    if let Some(id) = c.attributes.get("id").filter(|s| !s.is_empty()) {
        out.push(Target::Css {
            selector: format!("{tag}[id={}]", css_string(id)),
        });
    }
    if let Some(n) = c.attributes.get("name").filter(|s| !s.is_empty()) {
        out.push(Target::Css {
            selector: format!("{tag}[name={}]", css_string(n)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(role: &str, name: &str, attrs: &[(&str, &str)]) -> ControlNode {
        ControlNode {
            backend_node_id: 7,
            role: role.into(),
            name: name.into(),
            value: None,
            states: BTreeMap::new(),
            tag: "input".into(),
            named_by_label: false,
            attributes: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn durable_targets_prefer_role_and_name() {
        let c = control(
            "textbox",
            "  Email\n address ",
            &[
                ("data-testid", "email"),
                ("placeholder", "you@x"),
                ("id", "e\"1"),
            ],
        );
        let d = durable_targets(&c);
        assert_eq!(
            d[0],
            Target::Role {
                role: "textbox".into(),
                name: Some(TextMatch::contains("Email address"))
            }
        );
        assert_eq!(d[1], Target::role_named("textbox", "Email address"));
        assert_eq!(
            d[2],
            Target::TestId {
                test_id: "email".into()
            }
        );
        assert_eq!(
            d[3],
            Target::Placeholder {
                placeholder: TextMatch::exact("you@x")
            }
        );
        assert_eq!(
            d[4],
            Target::Css {
                selector: "input[id=\"e\\\"1\"]".into()
            }
        );
    }
}
