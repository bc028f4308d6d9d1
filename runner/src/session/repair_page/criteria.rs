//! Step 3 of a repair verification: the finding's typed success criteria, checked against the
//! element step 2 found and the page's visible text. Pure: the browser reads happen before, so
//! every rule here is unit-tested without one.
//!
//! Prose criteria are for the reviewer; they are recorded as not verifiable, never guessed at.
//! Texts compare after collapsing whitespace and trimming, as the page renders them.

use a3s_test_driver::TargetFacts;
use a3s_test_ledger::verification::CriterionOutcome;
use a3s_test_ledger::{SuccessCriterion, TargetState, TypedCriterion};

/// The longest observed value kept in an outcome (page text is untrusted and unbounded).
const MAX_OBSERVED_CHARS: usize = 200;

/// What step 2 left for the target criteria.
#[derive(Debug, Clone, Copy)]
pub enum TargetView<'a> {
    /// One element, with its facts.
    Found(&'a TargetFacts),
    /// No locator names an element any more.
    Gone,
    /// The target could not be resolved to exactly one element.
    Unresolved,
    /// The finding marks no element (a region or drawing).
    NoTarget,
}

/// Whitespace collapsed and trimmed.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn clip(s: &str) -> String {
    if s.chars().count() <= MAX_OBSERVED_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX_OBSERVED_CHARS - 1).collect();
    out.push('…');
    out
}

/// Whether any criterion needs the page's text (so it is read only then).
pub fn needs_page_text(criteria: &[SuccessCriterion]) -> bool {
    criteria.iter().any(|c| {
        matches!(
            c,
            SuccessCriterion::Typed(
                TypedCriterion::PageText { .. } | TypedCriterion::PageTextAbsent { .. }
            )
        )
    })
}

/// True when every typed target criterion is `target_hidden` (and there is one): then a target
/// that is gone is what the reviewer asked for, not a failure to find it.
pub fn only_hidden_wanted(criteria: &[SuccessCriterion]) -> bool {
    let mut any = false;
    for c in criteria {
        match c {
            SuccessCriterion::Typed(TypedCriterion::TargetHidden {}) => any = true,
            SuccessCriterion::Typed(
                TypedCriterion::TargetText { .. }
                | TypedCriterion::TargetVisible {}
                | TypedCriterion::TargetState { .. },
            ) => return false,
            _ => {}
        }
    }
    any
}

/// (passed, observed) of a state the element must be in.
fn state(facts: &TargetFacts, want: TargetState) -> (Option<bool>, String) {
    let tri = |v: Option<bool>, yes: bool, on: &str, off: &str, none: &str| match v {
        Some(b) => (Some(b == yes), if b { on } else { off }.to_string()),
        None => (Some(false), none.to_string()),
    };
    match want {
        TargetState::Enabled | TargetState::Disabled => {
            let ok = facts.disabled == (want == TargetState::Disabled);
            let is = if facts.disabled {
                "disabled"
            } else {
                "enabled"
            };
            (Some(ok), is.to_string())
        }
        TargetState::Checked => tri(facts.checked, true, "checked", "unchecked", "not checkable"),
        TargetState::Unchecked => tri(
            facts.checked,
            false,
            "checked",
            "unchecked",
            "not checkable",
        ),
        TargetState::Expanded => tri(
            facts.expanded,
            true,
            "expanded",
            "collapsed",
            "not expandable",
        ),
        TargetState::Collapsed => tri(
            facts.expanded,
            false,
            "expanded",
            "collapsed",
            "not expandable",
        ),
    }
}

/// One typed criterion: (verifiable, passed, observed).
fn typed(
    c: &TypedCriterion,
    target: TargetView<'_>,
    page_text: Option<&str>,
) -> (bool, Option<bool>, Option<String>) {
    let page = |contains: &str, present: bool| match page_text {
        Some(text) => {
            let found = text.contains(&norm(contains));
            let said = if found { "present" } else { "absent" };
            (true, Some(found == present), Some(said.to_string()))
        }
        None => (true, None, Some("the page text could not be read".into())),
    };
    match c {
        TypedCriterion::PageText { contains } => return page(contains, true),
        TypedCriterion::PageTextAbsent { contains } => return page(contains, false),
        _ => {}
    }
    let facts = match target {
        TargetView::Found(f) => f,
        TargetView::Gone if matches!(c, TypedCriterion::TargetHidden {}) => {
            return (true, Some(true), Some("gone".into()));
        }
        TargetView::Gone | TargetView::Unresolved => {
            return (true, None, Some("the target was not resolved".into()));
        }
        TargetView::NoTarget => {
            return (
                false,
                None,
                Some("the finding marks no element to check this against".into()),
            );
        }
    };
    let (passed, observed) = match c {
        TypedCriterion::TargetText { equals } => {
            let have = norm(facts.text.as_deref().unwrap_or(""));
            (Some(have == norm(equals)), clip(&have))
        }
        TypedCriterion::TargetVisible {} => (
            Some(facts.visible),
            if facts.visible { "visible" } else { "hidden" }.into(),
        ),
        TypedCriterion::TargetHidden {} => (
            Some(!facts.visible),
            if facts.visible { "visible" } else { "hidden" }.into(),
        ),
        TypedCriterion::TargetState { state: want } => state(facts, *want),
        // Answered above, before the target was needed.
        TypedCriterion::PageText { contains } => return page(contains, true),
        TypedCriterion::PageTextAbsent { contains } => return page(contains, false),
    };
    (true, passed, Some(observed))
}

/// Every criterion's outcome, in the finding's order.
pub fn evaluate(
    criteria: &[SuccessCriterion],
    target: TargetView<'_>,
    page_text: Option<&str>,
) -> Vec<CriterionOutcome> {
    criteria
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (verifiable, passed, observed) = match c {
                SuccessCriterion::Prose(_) => (false, None, None),
                SuccessCriterion::Typed(t) => typed(t, target, page_text),
            };
            CriterionOutcome {
                index: i as u32,
                criterion: c.clone(),
                verifiable,
                passed,
                observed,
            }
        })
        .collect()
}

/// The first verifiable criterion that does not hold, as a sentence.
pub fn first_failure(outcomes: &[CriterionOutcome]) -> Option<String> {
    outcomes
        .iter()
        .find(|o| o.verifiable && o.passed == Some(false))
        .map(|o| {
            let what = serde_json::to_string(&o.criterion).unwrap_or_default();
            let seen = o.observed.as_deref().unwrap_or("nothing");
            format!(
                "success criterion {} {what} does not hold (observed: {seen:?})",
                o.index
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn criteria(v: serde_json::Value) -> Vec<SuccessCriterion> {
        serde_json::from_value(v).unwrap()
    }

    fn button(text: &str) -> TargetFacts {
        TargetFacts {
            matches: 1,
            text: Some(text.into()),
            visible: true,
            disabled: false,
            checked: None,
            expanded: Some(false),
        }
    }

    #[test]
    fn typed_criteria_hold_or_fail_and_prose_is_not_verifiable() {
        let c = criteria(json!([
            "Feels lighter",
            { "kind": "target_text", "equals": "  Pay   now " },
            { "kind": "page_text", "contains": "Card  saved" },
            { "kind": "page_text_absent", "contains": "Error" },
            { "kind": "target_visible" },
            { "kind": "target_state", "state": "enabled" },
            { "kind": "target_state", "state": "collapsed" },
        ]));
        let facts = button("Pay now");
        let out = evaluate(
            &c,
            TargetView::Found(&facts),
            Some("Checkout Card saved Pay now"),
        );
        assert!(!out[0].verifiable && out[0].passed.is_none());
        assert!(
            out[1..]
                .iter()
                .all(|o| o.verifiable && o.passed == Some(true)),
            "{out:?}"
        );
        assert_eq!(first_failure(&out), None);
    }

    #[test]
    fn a_false_criterion_is_named_with_what_was_seen() {
        let c = criteria(json!([
            { "kind": "target_text", "equals": "Pay" },
            { "kind": "target_state", "state": "checked" },
        ]));
        let facts = button("Pay now");
        let out = evaluate(&c, TargetView::Found(&facts), None);
        assert_eq!(out[0].passed, Some(false));
        assert_eq!(out[0].observed.as_deref(), Some("Pay now"));
        assert_eq!(out[1].observed.as_deref(), Some("not checkable"));
        let message = first_failure(&out).unwrap();
        assert!(
            message.contains("criterion 0") && message.contains("Pay now"),
            "{message}"
        );
    }

    #[test]
    fn a_gone_target_satisfies_only_target_hidden() {
        let c = criteria(json!([{ "kind": "target_hidden" }, "prose"]));
        assert!(only_hidden_wanted(&c));
        let out = evaluate(&c, TargetView::Gone, None);
        assert_eq!(out[0].passed, Some(true));
        let c = criteria(json!([{ "kind": "target_hidden" }, { "kind": "target_visible" }]));
        assert!(!only_hidden_wanted(&c));
        let out = evaluate(&c, TargetView::Gone, None);
        assert_eq!(out[1].passed, None);
    }

    #[test]
    fn without_a_marked_element_target_criteria_are_not_verifiable() {
        let c = criteria(
            json!([{ "kind": "target_visible" }, { "kind": "page_text", "contains": "x" }]),
        );
        assert!(needs_page_text(&c));
        let out = evaluate(&c, TargetView::NoTarget, Some("y"));
        assert!(!out[0].verifiable);
        assert_eq!(out[1].passed, Some(false));
    }
}
