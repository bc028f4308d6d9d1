//! The reconciliation rules: facts read from the page → met, missing or different, and what was
//! seen. No browser here, so every rule is a unit test.

use super::report::Outcome;
use a3s_test_driver::api::ViewportBox;
use a3s_test_lang::ir::{ContractRelation, ContractState};

/// Layout comparisons forgive this much (CSS px): sub-pixel rounding of boxes.
pub const LAYOUT_TOLERANCE: f64 = 0.5;

/// How many other names a "missing" line lists.
const SEEN_NAMES: usize = 8;

/// What the page shows for one `role` + exact `name`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ElementFacts {
    /// How many elements match the role and exact name.
    pub matches: u32,
    /// The one match is rendered with a box.
    pub visible: bool,
    /// The one match is disabled.
    pub disabled: bool,
    /// The one match is checked (`None`: not checkable).
    pub checked: Option<bool>,
    /// Names of other elements with the same role, in page order.
    pub same_role: Vec<String>,
    /// Roles of elements with the same name but another role.
    pub same_name: Vec<String>,
}

/// An element expectation against its facts.
pub fn element(state: Option<ContractState>, facts: &ElementFacts) -> (Outcome, String) {
    match facts.matches {
        0 => {
            if let Some(role) = facts.same_name.first() {
                return (
                    Outcome::Different,
                    format!("an element with this name has role \"{role}\""),
                );
            }
            let seen = if facts.same_role.is_empty() {
                "no element with this role".to_string()
            } else {
                let names: Vec<String> = facts
                    .same_role
                    .iter()
                    .take(SEEN_NAMES)
                    .map(|n| format!("\"{}\"", one_line(n)))
                    .collect();
                let more = facts.same_role.len().saturating_sub(SEEN_NAMES);
                let tail = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                format!("this role is named {}{tail}", names.join(", "))
            };
            (Outcome::Missing, seen)
        }
        1 => {
            let seen = describe(facts);
            let holds = match state {
                None | Some(ContractState::Visible) => facts.visible,
                Some(ContractState::Hidden) => !facts.visible,
                Some(ContractState::Enabled) => !facts.disabled && facts.visible,
                Some(ContractState::Disabled) => facts.disabled,
                Some(ContractState::Checked) => facts.checked == Some(true),
                Some(ContractState::Unchecked) => facts.checked == Some(false),
            };
            (
                if holds {
                    Outcome::Met
                } else {
                    Outcome::Different
                },
                seen,
            )
        }
        n => (
            Outcome::Different,
            format!("{n} elements have this role and name; the contract names one"),
        ),
    }
}

/// One element's state in words.
fn describe(facts: &ElementFacts) -> String {
    let mut words = vec![if facts.visible { "visible" } else { "hidden" }];
    words.push(if facts.disabled {
        "disabled"
    } else {
        "enabled"
    });
    match facts.checked {
        Some(true) => words.push("checked"),
        Some(false) => words.push("unchecked"),
        None => {}
    }
    words.join(", ")
}

/// A text expectation against the page's visible text (whitespace collapsed).
pub fn text(expected: &str, page_text: &str) -> (Outcome, String) {
    let want = collapse(expected);
    if page_text.contains(&want) {
        return (Outcome::Met, format!("\"{}\" is shown", one_line(&want)));
    }
    let lower = page_text.to_lowercase();
    if let Some(at) = lower.find(&want.to_lowercase()) {
        let end = (at + want.len()).min(page_text.len());
        if let Some(seen) = page_text.get(at..end) {
            return (
                Outcome::Different,
                format!("shown as \"{}\"", one_line(seen)),
            );
        }
    }
    (
        Outcome::Missing,
        format!(
            "not in the page's visible text ({} characters)",
            page_text.chars().count()
        ),
    )
}

/// A layout expectation against the two elements' boxes (`None`: not exactly one element).
pub fn layout(
    relation: ContractRelation,
    subject: (&str, Option<ViewportBox>),
    object: (&str, Option<ViewportBox>),
) -> (Outcome, String) {
    let (Some(s), Some(o)) = (subject.1, object.1) else {
        let absent: Vec<&str> = [subject, object]
            .iter()
            .filter(|(_, b)| b.is_none())
            .map(|(id, _)| *id)
            .collect();
        return (
            Outcome::Missing,
            format!("no single element for {}", absent.join(" and ")),
        );
    };
    let t = LAYOUT_TOLERANCE;
    let (holds, seen) = match relation {
        ContractRelation::Below => (
            s.y + t >= o.y + o.height,
            format!(
                "{} top {:.0}, {} bottom {:.0}",
                subject.0,
                s.y,
                object.0,
                o.y + o.height
            ),
        ),
        ContractRelation::Above => (
            s.y + s.height <= o.y + t,
            format!(
                "{} bottom {:.0}, {} top {:.0}",
                subject.0,
                s.y + s.height,
                object.0,
                o.y
            ),
        ),
        ContractRelation::LeftOf => (
            s.x + s.width <= o.x + t,
            format!(
                "{} right {:.0}, {} left {:.0}",
                subject.0,
                s.x + s.width,
                object.0,
                o.x
            ),
        ),
        ContractRelation::RightOf => (
            s.x + t >= o.x + o.width,
            format!(
                "{} left {:.0}, {} right {:.0}",
                subject.0,
                s.x,
                object.0,
                o.x + o.width
            ),
        ),
    };
    (
        if holds {
            Outcome::Met
        } else {
            Outcome::Different
        },
        seen,
    )
}

/// Runs of whitespace as one space, trimmed: how the page's visible text is read.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Page text in one line, cut at 120 characters.
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match flat.char_indices().nth(120) {
        Some((at, _)) => format!("{}…", &flat[..at]),
        None => flat,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(visible: bool, disabled: bool, checked: Option<bool>) -> ElementFacts {
        ElementFacts {
            matches: 1,
            visible,
            disabled,
            checked,
            ..ElementFacts::default()
        }
    }

    #[test]
    fn an_element_in_its_state_is_met_and_otherwise_different() {
        assert_eq!(
            element(Some(ContractState::Enabled), &one(true, false, None)).0,
            Outcome::Met
        );
        let (o, seen) = element(Some(ContractState::Enabled), &one(true, true, None));
        assert_eq!(
            (o, seen.as_str()),
            (Outcome::Different, "visible, disabled")
        );
        assert_eq!(
            element(Some(ContractState::Checked), &one(true, false, Some(false))).0,
            Outcome::Different
        );
        assert_eq!(
            element(None, &one(false, false, None)).0,
            Outcome::Different
        );
        assert_eq!(
            element(Some(ContractState::Hidden), &one(false, false, None)).0,
            Outcome::Met
        );
    }

    #[test]
    fn a_missing_element_says_what_its_role_is_named_instead() {
        let facts = ElementFacts {
            same_role: vec!["Checkout".into(), "Back".into()],
            ..ElementFacts::default()
        };
        assert_eq!(
            element(None, &facts),
            (
                Outcome::Missing,
                "this role is named \"Checkout\", \"Back\"".to_string()
            )
        );
        let facts = ElementFacts {
            same_name: vec!["link".into()],
            ..ElementFacts::default()
        };
        assert_eq!(element(None, &facts).0, Outcome::Different);
        let facts = ElementFacts {
            matches: 2,
            ..ElementFacts::default()
        };
        assert_eq!(element(None, &facts).0, Outcome::Different);
    }

    #[test]
    fn text_is_met_different_in_case_or_missing() {
        assert_eq!(
            text("Order  total", "Your Order total is 5").0,
            Outcome::Met
        );
        assert_eq!(
            text("order total", "Your Order total is 5"),
            (Outcome::Different, "shown as \"Order total\"".into())
        );
        assert_eq!(text("Gift", "Your order").0, Outcome::Missing);
    }

    #[test]
    fn layout_compares_edges_with_a_half_pixel_tolerance() {
        let b = |y: f64| {
            Some(ViewportBox {
                x: 0.0,
                y,
                width: 10.0,
                height: 10.0,
            })
        };
        assert_eq!(
            layout(ContractRelation::Below, ("a", b(20.0)), ("b", b(10.2))).0,
            Outcome::Met
        );
        assert_eq!(
            layout(ContractRelation::Below, ("a", b(0.0)), ("b", b(10.0))).0,
            Outcome::Different
        );
        assert_eq!(
            layout(ContractRelation::Above, ("a", b(0.0)), ("b", b(10.0))).0,
            Outcome::Met
        );
        assert_eq!(
            layout(ContractRelation::Below, ("a", None), ("b", b(0.0))).0,
            Outcome::Missing
        );
    }
}
