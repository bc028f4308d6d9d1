//! The outline of an observation: the page's text and its refs in document order, one line
//! each, typed (states are booleans where the page's state is on/off).
//!
//! Why one outline: an agent reads the page once, as a person would, and finds each control
//! where it stands, next to the text that explains it — instead of a list of refs and, somewhere
//! else, a list of texts.

use super::super::observation::RefEntry;
use a3s_test_driver::PageSnapshot;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Longest name or value of a control line in the default view, in characters.
pub const NAME_CHARS: usize = 80;
/// Longest text line in the default view, in characters.
pub const TEXT_CHARS: usize = 300;
/// Longest name, value or text line in a `--full` view, in characters.
pub const FULL_CHARS: usize = 1_000;

/// One line of an outline: a control with its ref, or page text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Line {
    /// An operable control.
    Ref(RefLine),
    /// Page text.
    Text(TextLine),
}

/// A control: its ref, role, name, value and states.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefLine {
    /// `@eN`, valid in this observation.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Accessible role.
    pub role: String,
    /// Accessible name (untrusted).
    pub name: String,
    /// Current value (untrusted), once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// States: `true`/`false` for on/off states, a string only for a third value (`"mixed"`).
    /// JSON on purpose: besides on/off, each value is the page's own as the browser's
    /// accessibility tree reported it (`typed_state` only turns `"true"`/`"false"` into
    /// booleans).
    #[serde(flatten)]
    pub states: BTreeMap<String, Value>,
    /// The backend node (what a diff matches controls by; not sent).
    #[serde(skip)]
    pub node: i64,
}

/// Page text with its role (`heading`, `alert`, …; none for plain text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextLine {
    /// The text (untrusted).
    pub text: String,
    /// Its role, when it is not plain text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

impl Line {
    /// The ref of a control line.
    pub fn reference(&self) -> Option<&str> {
        match self {
            Line::Ref(r) => Some(&r.reference),
            Line::Text(_) => None,
        }
    }
}

/// Collapse whitespace and cut at `max` characters (with `…`).
pub fn clip(s: &str, max: usize) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        let mut out: String = flat.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// A state as the view types it: the accessibility tree reports tristates (`checked`,
/// `pressed`) and `invalid` as strings; on/off becomes a boolean.
fn typed_state(v: &Value) -> Value {
    match v.as_str() {
        Some("true") => Value::Bool(true),
        Some("false") => Value::Bool(false),
        _ => v.clone(),
    }
}

impl Line {
    /// The line as a view shows it: names and values cut at [`NAME_CHARS`], texts at
    /// [`TEXT_CHARS`] (a `full` view at [`FULL_CHARS`]).
    pub fn clipped(&self, full: bool) -> Line {
        let (name_max, text_max) = if full {
            (FULL_CHARS, FULL_CHARS)
        } else {
            (NAME_CHARS, TEXT_CHARS)
        };
        match self {
            Line::Ref(r) => Line::Ref(RefLine {
                name: clip(&r.name, name_max),
                value: r.value.as_deref().map(|v| clip(v, name_max)),
                ..r.clone()
            }),
            Line::Text(t) => Line::Text(TextLine {
                text: clip(&t.text, text_max),
                role: t.role.clone(),
            }),
        }
    }
}

/// The outline of `snapshot` with the ref table `refs` (one entry per control, same order),
/// lines at most [`FULL_CHARS`] long (a view clips them further, [`Line::clipped`]).
pub fn build(snapshot: &PageSnapshot, refs: &[RefEntry]) -> Vec<Line> {
    let (name_max, text_max) = (FULL_CHARS, FULL_CHARS);
    let ref_line = |r: &RefEntry| {
        Line::Ref(RefLine {
            reference: r.reference.clone(),
            role: r.role.clone(),
            name: clip(&r.name, name_max),
            value: r.value.as_deref().map(|v| clip(v, name_max)),
            states: r
                .states
                .iter()
                .map(|(k, v)| (k.clone(), typed_state(v)))
                .collect(),
            node: r.backend_node_id,
        })
    };
    let mut lines = Vec::with_capacity(refs.len() + snapshot.texts.len());
    let mut texts = snapshot.texts.iter().peekable();
    for (i, r) in refs.iter().enumerate() {
        while let Some(t) = texts.next_if(|t| t.controls_before.is_some_and(|c| c <= i)) {
            lines.push(text_line(&t.role, &t.text, text_max));
        }
        lines.push(ref_line(r));
    }
    lines.extend(texts.map(|t| text_line(&t.role, &t.text, text_max)));
    drop_labels(lines)
}

fn text_line(role: &str, text: &str, max: usize) -> Line {
    Line::Text(TextLine {
        text: clip(text, max),
        role: (role != "StaticText").then(|| role.to_string()),
    })
}

/// A plain text right beside a control that has it as its name is that control's label: the
/// control line already says it.
fn drop_labels(lines: Vec<Line>) -> Vec<Line> {
    let name_at = |i: Option<usize>| match i.and_then(|i| lines.get(i)) {
        Some(Line::Ref(r)) => Some(r.name.as_str()),
        _ => None,
    };
    let keep: Vec<bool> = (0..lines.len())
        .map(|i| match &lines[i] {
            Line::Text(t) if t.role.is_none() => {
                name_at(i.checked_sub(1)) != Some(&t.text) && name_at(Some(i + 1)) != Some(&t.text)
            }
            _ => true,
        })
        .collect();
    lines
        .into_iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(l))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_driver::{ControlNode, PageText};

    fn control(role: &str, name: &str) -> ControlNode {
        ControlNode {
            backend_node_id: 1,
            role: role.into(),
            name: name.into(),
            value: None,
            states: BTreeMap::from([("checked".to_string(), Value::from("false"))]),
            tag: "input".into(),
            attributes: BTreeMap::new(),
            named_by_label: false,
        }
    }

    fn text(t: &str, at: usize) -> PageText {
        PageText {
            role: "StaticText".into(),
            text: t.into(),
            controls_before: Some(at),
        }
    }

    #[test]
    fn texts_stand_among_controls_repeats_kept_labels_once() {
        let snapshot = PageSnapshot {
            url: "u".into(),
            loader_id: "L".into(),
            controls: vec![control("checkbox", "Accept"), control("button", "Go")],
            texts: vec![
                text("x", 0),
                text("x", 0),
                text("Accept", 1),
                text("after", 2),
            ],
            truncated: false,
            cut: Vec::new(),
        };
        let refs = super::super::super::observation::refs_of(&snapshot);
        let lines = build(&snapshot, &refs);
        let json = serde_json::to_string(&lines).unwrap();
        assert_eq!(
            json,
            r#"[{"text":"x"},{"text":"x"},{"ref":"@e1","role":"checkbox","name":"Accept","checked":false},{"ref":"@e2","role":"button","name":"Go","checked":false},{"text":"after"}]"#
        );
        let back: Vec<Line> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.len(), 5);
        assert_eq!(back[2].reference(), Some("@e1"));
    }
}
