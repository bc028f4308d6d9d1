//! Success criteria of a finding: plain prose for the reviewer, or one of the typed forms the
//! tool can check in the browser after a repair (`target_text`, `page_text`,
//! `page_text_absent`, `target_visible`, `target_hidden`, `target_state`).
//!
//! Typed criteria are data the verifier evaluates, never text it runs. They are strict (unknown
//! kinds, states and fields are refused) and bounded like the Test Kit's queue, so a criterion
//! the page accepted is one the ledger accepts.

use serde::{Deserialize, Deserializer, Serialize};

/// The most success criteria per finding.
pub const MAX_CRITERIA: usize = 16;
/// The longest criterion text (prose, `equals` or `contains`), in characters.
pub const MAX_CRITERION_CHARS: usize = 2048;

/// An element state a `target_state` criterion requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetState {
    /// Not disabled.
    Enabled,
    /// Disabled.
    Disabled,
    /// Checked (checkbox, radio, switch).
    Checked,
    /// Not checked.
    Unchecked,
    /// Expanded (`aria-expanded="true"`, open details).
    Expanded,
    /// Collapsed.
    Collapsed,
}

impl TargetState {
    /// Every state, in the schema's order.
    pub const ALL: [TargetState; 6] = [
        TargetState::Enabled,
        TargetState::Disabled,
        TargetState::Checked,
        TargetState::Unchecked,
        TargetState::Expanded,
        TargetState::Collapsed,
    ];
}

/// A browser-verifiable success criterion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TypedCriterion {
    /// The target's text equals `equals`.
    TargetText {
        /// The expected text.
        equals: String,
    },
    /// The page's text contains `contains`.
    PageText {
        /// The expected text.
        contains: String,
    },
    /// The page's text does not contain `contains`.
    PageTextAbsent {
        /// The text that must be gone.
        contains: String,
    },
    /// The target is visible.
    TargetVisible {},
    /// The target is hidden (or gone).
    TargetHidden {},
    /// The target is in `state`.
    TargetState {
        /// The required state.
        state: TargetState,
    },
}

impl TypedCriterion {
    /// Every kind, in the schema's order.
    pub const KINDS: [&'static str; 6] = [
        "target_text",
        "page_text",
        "page_text_absent",
        "target_visible",
        "target_hidden",
        "target_state",
    ];

    /// The text the criterion carries, if any.
    pub fn text(&self) -> Option<&str> {
        match self {
            TypedCriterion::TargetText { equals } => Some(equals),
            TypedCriterion::PageText { contains } | TypedCriterion::PageTextAbsent { contains } => {
                Some(contains)
            }
            _ => None,
        }
    }
}

/// One entry of `successCriteria`: prose (not browser-verifiable) or a typed criterion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SuccessCriterion {
    /// Prose for the reviewer.
    Prose(String),
    /// A criterion the tool checks.
    Typed(TypedCriterion),
}

impl<'de> Deserialize<'de> for SuccessCriterion {
    // Not `untagged` on the way in: a bad typed criterion must say what is wrong with it, not
    // "matched no variant".
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        match value {
            serde_json::Value::String(s) => Ok(SuccessCriterion::Prose(s)),
            serde_json::Value::Object(_) => serde_json::from_value(value)
                .map(SuccessCriterion::Typed)
                .map_err(serde::de::Error::custom),
            _ => Err(serde::de::Error::custom(
                "a success criterion is a string or an object with a `kind`",
            )),
        }
    }
}

impl SuccessCriterion {
    /// Why the criterion is out of bounds, if it is.
    pub fn check(&self) -> Result<(), String> {
        let (text, may_be_empty) = match self {
            SuccessCriterion::Prose(s) => (Some(s.as_str()), false),
            SuccessCriterion::Typed(t @ TypedCriterion::TargetText { .. }) => (t.text(), true),
            SuccessCriterion::Typed(t) => (t.text(), false),
        };
        let Some(text) = text else { return Ok(()) };
        if !may_be_empty && text.trim().is_empty() {
            return Err("a criterion's text must not be empty".into());
        }
        let chars = text.chars().count();
        if chars > MAX_CRITERION_CHARS {
            return Err(format!(
                "a criterion's text has {chars} characters; the limit is {MAX_CRITERION_CHARS}"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<SuccessCriterion, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn every_form_round_trips() {
        let all = r#"["Reads calmly",{"kind":"target_text","equals":"Pay"},{"kind":"page_text","contains":"Saved"},{"kind":"page_text_absent","contains":"Error"},{"kind":"target_visible"},{"kind":"target_hidden"},{"kind":"target_state","state":"collapsed"}]"#;
        let parsed: Vec<SuccessCriterion> = serde_json::from_str(all).unwrap();
        assert_eq!(parsed.len(), 7);
        assert!(parsed.iter().all(|c| c.check().is_ok()));
        assert_eq!(serde_json::to_string(&parsed).unwrap(), all);
    }

    #[test]
    fn bad_criteria_say_what_is_wrong() {
        let cases = [
            (
                r#"{"kind":"target_color"}"#,
                "unknown variant `target_color`",
            ),
            (
                r#"{"kind":"target_state","state":"pressed"}"#,
                "unknown variant `pressed`",
            ),
            (
                r#"{"kind":"target_visible","selector":"x"}"#,
                "unknown field `selector`",
            ),
            (r#"{"kind":"target_text"}"#, "missing field `equals`"),
            ("42", "a string or an object"),
        ];
        for (json, want) in cases {
            let err = parse(json).unwrap_err();
            assert!(err.contains(want), "{json}: {err}");
        }
        let long = SuccessCriterion::Prose("x".repeat(MAX_CRITERION_CHARS + 1));
        assert!(long.check().unwrap_err().contains("2048"));
        let blank = SuccessCriterion::Typed(TypedCriterion::PageText {
            contains: " ".into(),
        });
        assert!(blank.check().is_err());
        let cleared = SuccessCriterion::Typed(TypedCriterion::TargetText { equals: "".into() });
        assert!(cleared.check().is_ok());
    }
}
