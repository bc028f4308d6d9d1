//! Requirement sentences → contract candidates, conflicts and open decisions.
//!
//! Why rules and not a model: this is the reference provider, the one a team can run without
//! credentials and whose answers a test can predict. A sentence's quoted texts are the names; a
//! role word near a quote ("the "Pay now" button") makes it an element, otherwise it is text
//! that must be shown; state words (enabled, disabled, checked, hidden, …) and layout words
//! (below, above, left of, right of) add what the sentence says about them. The same element
//! required in opposite states, or one described control ("the primary button") given two
//! names, is a conflict for the reviewer.

use crate::markdown::{sentences, Sentence};
use a3s_test_provider::contract::{
    Candidate, Conflict, ElementState, Evidence, Expectation, OpenDecision, Relation,
};
use std::collections::BTreeMap;

/// Role words and the ARIA role they name.
const ROLES: &[(&str, &str)] = &[
    ("button", "button"),
    ("link", "link"),
    ("heading", "heading"),
    ("title", "heading"),
    ("checkbox", "checkbox"),
    ("field", "textbox"),
    ("input", "textbox"),
    ("textbox", "textbox"),
    ("tab", "tab"),
    ("switch", "switch"),
    ("toggle", "switch"),
    ("radio", "radio"),
];

/// State words.
const STATES: &[(&str, ElementState)] = &[
    ("enabled", ElementState::Enabled),
    ("disabled", ElementState::Disabled),
    ("checked", ElementState::Checked),
    ("unchecked", ElementState::Unchecked),
    ("visible", ElementState::Visible),
    ("hidden", ElementState::Hidden),
];

/// Words that start a descriptive phrase naming a control.
const DETERMINERS: &[&str] = &["the", "a", "an", "our", "its", "their"];

/// What one text source yields.
#[derive(Debug, Default)]
pub struct Extraction {
    /// The candidates, in source order.
    pub candidates: Vec<Candidate>,
    /// Conflicts between them.
    pub conflicts: Vec<Conflict>,
    /// Questions for the reviewer.
    pub open_decisions: Vec<OpenDecision>,
}

/// Candidates from text sources `(id, text)`, numbered across all of them.
pub fn extract(sources: &[(&str, &str)]) -> Extraction {
    let mut x = Extraction::default();
    // A descriptive phrase (route, "primary button") → the candidates it names.
    let mut described: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    let mut unrouted: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (source, text) in sources {
        for s in sentences(text) {
            let route = s.route.clone().unwrap_or_else(|| "/".to_string());
            let ids = sentence(&mut x, source, text, &s, &route, &mut described);
            if s.route.is_none() {
                unrouted.entry(s.heading.clone()).or_default().extend(ids);
            }
        }
    }
    opposite_states(&mut x);
    two_names(&mut x, &described);
    for (heading, ids) in unrouted {
        let question = if heading.is_empty() {
            "These requirements come before any heading that names a route; they were placed on `/`: which page do they describe?".to_string()
        } else {
            format!("The heading \"{heading}\" names no route (a path such as `/checkout`); its requirements were placed on `/`: which page do they describe?")
        };
        let id = format!("d{}", x.open_decisions.len() + 1);
        let mut ids = ids;
        ids.dedup();
        x.open_decisions.push(OpenDecision {
            id,
            question,
            candidates: ids,
        });
    }
    x
}

/// The candidates of one sentence; returns the ids it touched.
fn sentence(
    x: &mut Extraction,
    source: &str,
    text: &str,
    s: &Sentence,
    route: &str,
    described: &mut BTreeMap<(String, String), Vec<usize>>,
) -> Vec<String> {
    let sentence_text = &text[s.span.clone()];
    let words = words(sentence_text);
    let state = STATES
        .iter()
        .find(|(w, _)| words.iter().any(|x| x == w))
        .map(|(_, st)| *st);
    let relation = relation(&words);
    let mut touched = Vec::new();
    let mut elements = Vec::new();
    for (i, q) in s.quotes.iter().enumerate() {
        let name = &text[q.clone()];
        // Quote marks are not word characters: the slices between quotes may hold them.
        let before_from = if i == 0 {
            s.span.start
        } else {
            s.quotes[i - 1].end
        };
        let after_to = s.quotes.get(i + 1).map_or(s.span.end, |n| n.start);
        let after = words_of(&text[q.end..after_to]);
        let before = words_of(&text[before_from..q.start]);
        let (role, key) = match after.iter().take(2).find_map(|w| role_of(w)) {
            Some(role) => (Some(role), None),
            None => match before.iter().rposition(|w| role_of(w).is_some()) {
                Some(at) => (role_of(&before[at]), phrase(&before[..=at])),
                None => (None, None),
            },
        };
        let evidence = Evidence::Span {
            source: source.to_string(),
            start: q.start as u64,
            end: q.end as u64,
            quote: name.to_string(),
        };
        let (expectation, confidence) = match role {
            Some(role) => (
                Expectation::Element {
                    role: role.to_string(),
                    name: name.to_string(),
                    state: if i == 0 { state } else { None },
                },
                if state.is_some() { 0.9 } else { 0.8 },
            ),
            None => (
                Expectation::Text {
                    text: name.to_string(),
                },
                0.6,
            ),
        };
        let at = add(x, route, expectation, confidence, evidence);
        if let Some(key) = key {
            let list = described.entry((route.to_string(), key)).or_default();
            if !list.contains(&at) {
                list.push(at);
            }
        }
        if role.is_some() {
            elements.push(at);
        }
        touched.push(x.candidates[at].id.clone());
    }
    if let (Some(relation), [subject, object, ..]) = (relation, elements.as_slice()) {
        let expectation = Expectation::Layout {
            subject: x.candidates[*subject].id.clone(),
            relation,
            object: x.candidates[*object].id.clone(),
        };
        let evidence = Evidence::Span {
            source: source.to_string(),
            start: s.span.start as u64,
            end: s.span.end as u64,
            quote: sentence_text.to_string(),
        };
        let at = add(x, route, expectation, 0.7, evidence);
        touched.push(x.candidates[at].id.clone());
    }
    touched
}

/// Add a candidate, or the evidence to an equal one of the same route; its index.
fn add(
    x: &mut Extraction,
    route: &str,
    expectation: Expectation,
    confidence: f64,
    evidence: Evidence,
) -> usize {
    // An element named again without a state is the one already proposed (a layout sentence
    // names its elements without restating their states).
    let same = |c: &Candidate| match (&c.expectation, &expectation) {
        (
            Expectation::Element {
                role: r1, name: n1, ..
            },
            Expectation::Element {
                role: r2,
                name: n2,
                state: None,
            },
        ) => r1 == r2 && n1 == n2,
        (a, b) => a == b,
    };
    if let Some(at) = x
        .candidates
        .iter()
        .position(|c| c.route == route && same(c))
    {
        let c = &mut x.candidates[at];
        if !c.evidence.contains(&evidence) && c.evidence.len() < 16 {
            c.evidence.push(evidence);
        }
        return at;
    }
    x.candidates.push(Candidate {
        id: format!("c{}", x.candidates.len() + 1),
        route: route.to_string(),
        expectation,
        confidence,
        evidence: vec![evidence],
    });
    x.candidates.len() - 1
}

/// The same element (route, role, name) required in opposite states.
fn opposite_states(x: &mut Extraction) {
    let opposite = |a: ElementState, b: ElementState| {
        use ElementState::*;
        matches!(
            (a, b),
            (Enabled, Disabled)
                | (Disabled, Enabled)
                | (Checked, Unchecked)
                | (Unchecked, Checked)
                | (Visible, Hidden)
                | (Hidden, Visible)
        )
    };
    let mut found = Vec::new();
    for (i, a) in x.candidates.iter().enumerate() {
        for b in &x.candidates[i + 1..] {
            if let (
                Expectation::Element {
                    role: ra,
                    name: na,
                    state: Some(sa),
                },
                Expectation::Element {
                    role: rb,
                    name: nb,
                    state: Some(sb),
                },
            ) = (&a.expectation, &b.expectation)
            {
                if a.route == b.route && ra == rb && na == nb && opposite(*sa, *sb) {
                    found.push(Conflict {
                        id: String::new(),
                        candidates: vec![a.id.clone(), b.id.clone()],
                        reason: format!(
                            "the {ra} \"{na}\" on {} is required {} ({}) and {} ({})",
                            a.route,
                            state_word(*sa),
                            a.id,
                            state_word(*sb),
                            b.id
                        ),
                    });
                }
            }
        }
    }
    for mut c in found {
        c.id = format!("k{}", x.conflicts.len() + 1);
        x.conflicts.push(c);
    }
}

/// One described control ("the primary button") given different names.
fn two_names(x: &mut Extraction, described: &BTreeMap<(String, String), Vec<usize>>) {
    for ((route, key), at) in described {
        let mut names: Vec<(&str, &str)> = Vec::new();
        for i in at {
            let c = &x.candidates[*i];
            if let Expectation::Element { name, .. } = &c.expectation {
                if !names.iter().any(|(n, _)| n == name) {
                    names.push((name, &c.id));
                }
            }
        }
        if names.len() >= 2 {
            let listed: Vec<String> = names
                .iter()
                .map(|(n, id)| format!("\"{n}\" ({id})"))
                .collect();
            let conflict = Conflict {
                id: format!("k{}", x.conflicts.len() + 1),
                candidates: names.iter().map(|(_, id)| id.to_string()).collect(),
                reason: format!(
                    "the {key} on {route} is given two names: {}",
                    listed.join(" and ")
                ),
            };
            x.conflicts.push(conflict);
        }
    }
}

fn state_word(s: ElementState) -> &'static str {
    STATES.iter().find(|(_, x)| *x == s).map_or("", |(w, _)| w)
}

/// The layout relation a sentence states, if any.
fn relation(words: &[String]) -> Option<Relation> {
    let pair = |a: &str, b: &str| words.windows(2).any(|w| w[0] == a && w[1] == b);
    if words
        .iter()
        .any(|w| w == "below" || w == "under" || w == "beneath")
    {
        Some(Relation::Below)
    } else if words.iter().any(|w| w == "above") {
        Some(Relation::Above)
    } else if pair("left", "of") {
        Some(Relation::LeftOf)
    } else if pair("right", "of") {
        Some(Relation::RightOf)
    } else {
        None
    }
}

fn role_of(word: &str) -> Option<&'static str> {
    let singular = word.strip_suffix('s').unwrap_or(word);
    ROLES
        .iter()
        .find(|(w, _)| *w == word || *w == singular)
        .map(|(_, r)| *r)
}

/// The descriptive phrase ending at the role word (`primary button`), from after the last
/// determiner; `None` when the role word stands alone.
fn phrase(words: &[String]) -> Option<String> {
    let from = words
        .iter()
        .rposition(|w| DETERMINERS.contains(&w.as_str()))?
        + 1;
    let phrase = &words[from..];
    (phrase.len() >= 2 && phrase.len() <= 4).then(|| phrase.join(" "))
}

/// Lowercase words of `text`, quoted texts included.
fn words(text: &str) -> Vec<String> {
    words_of(text)
}

fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_states_of_one_button_conflict() {
        let prd = "## Cart `/cart`\nThe \"Checkout\" button must be enabled.\nThe \"Checkout\" button is disabled until the cart has items.\n";
        let x = extract(&[("s1", prd)]);
        assert_eq!(x.candidates.len(), 2, "{:?}", x.candidates);
        assert_eq!(x.conflicts.len(), 1);
        assert_eq!(x.conflicts[0].candidates, ["c1", "c2"]);
    }

    #[test]
    fn one_described_control_with_two_names_conflicts() {
        let prd = "## Pay `/pay`\nThe primary button is labelled \"Pay now\".\nThe primary button reads \"Pay\".\n";
        let x = extract(&[("s1", prd)]);
        assert_eq!(x.conflicts.len(), 1, "{:?}", x);
        assert!(
            x.conflicts[0].reason.contains("primary button"),
            "{}",
            x.conflicts[0].reason
        );
    }

    #[test]
    fn a_layout_sentence_relates_two_elements() {
        let prd = "## Pay `/pay`\nThe \"Pay now\" button sits below the \"Order total\" heading.\n";
        let x = extract(&[("s1", prd)]);
        assert_eq!(x.candidates.len(), 3, "{:?}", x.candidates);
        assert!(matches!(
            &x.candidates[2].expectation,
            Expectation::Layout { relation: Relation::Below, subject, object } if subject == "c1" && object == "c2"
        ));
    }

    #[test]
    fn a_heading_without_a_path_is_an_open_decision() {
        let x = extract(&[("s1", "## Checkout\nShow \"Total\".\n")]);
        assert_eq!(x.candidates[0].route, "/");
        assert_eq!(x.open_decisions.len(), 1);
    }

    proptest::proptest! {
        /// Whatever the text, every span the extractor gives quotes its bytes exactly.
        #[test]
        fn every_span_quotes_its_source(text in "(## `/p`\n|The |\"Pay\"|'Ok'|“Né”| button| link| below | disabled| enabled|\\. |\n|é|x){0,40}") {
            let x = extract(&[("s1", &text)]);
            for c in &x.candidates {
                for e in &c.evidence {
                    if let Evidence::Span { start, end, quote, .. } = e {
                        proptest::prop_assert!(a3s_test_provider::contract::check_span(&text, *start, *end, quote).is_ok());
                    }
                }
            }
        }
    }
}
