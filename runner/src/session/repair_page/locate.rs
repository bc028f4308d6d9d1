//! Step 2 of a repair verification: find the finding's element again on the repaired page.
//!
//! The Test Kit recorded up to five locators per marked node when the finding was sent
//! (`context.locators[{nodeId, locators}]`, built in `testkit/src/snapshot/locators.ts`). They
//! are tried in the documented order — role+name, label, test id, placeholder, text, css — and
//! the first that names exactly one element wins. A replacement the agent declared (an ACL
//! target admitted by `lang`) is tried alone instead. Node ids are never used: they belong to
//! the page at send time. Everything read from the context is untrusted and only becomes an
//! ACL target value (never text that is run).

use a3s_test_driver::{AgentContext, TargetFacts};
use a3s_test_lang::ir::{Action, Target, TextMatch};
use a3s_test_ledger::verification::{LocatorKind, TargetResolution};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::time::Instant;

/// The longest locator value kept from a context (the Test Kit's string budget is smaller).
const MAX_LOCATOR_CHARS: usize = 2_048;
/// The most locators tried for one finding (the Test Kit writes at most five per node).
pub const MAX_LOCATORS: usize = 8;

/// One locator as the Test Kit writes it (`Locator` in `testkit/src/protocol.ts`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum PageLocator {
    /// Accessible role and name.
    Role {
        /// The role.
        role: String,
        /// The accessible name.
        name: String,
    },
    /// A form control's label.
    Label {
        /// The label text.
        value: String,
    },
    /// `data-testid`.
    TestId {
        /// The test id.
        value: String,
    },
    /// An input's placeholder.
    Placeholder {
        /// The placeholder text.
        value: String,
    },
    /// The element's own text.
    Text {
        /// The text.
        value: String,
    },
    /// A CSS path, inside the given shadow hosts when there are any.
    Css {
        /// The selector.
        value: String,
        /// CSS paths of enclosing shadow hosts, outermost first.
        #[serde(default, rename = "shadowHosts", skip_serializing_if = "Vec::is_empty")]
        shadow_hosts: Vec<String>,
    },
}

impl PageLocator {
    /// Its kind in the seeds' order.
    pub fn kind(&self) -> LocatorKind {
        match self {
            PageLocator::Role { .. } => LocatorKind::RoleName,
            PageLocator::Label { .. } => LocatorKind::Label,
            PageLocator::TestId { .. } => LocatorKind::TestId,
            PageLocator::Placeholder { .. } => LocatorKind::Placeholder,
            PageLocator::Text { .. } => LocatorKind::Text,
            PageLocator::Css { .. } => LocatorKind::Css,
        }
    }

    /// The ACL target this locator means; `None` when it cannot be one (an empty value, a
    /// selector written relative to a shadow root, which `css()` — searching the document and
    /// every open shadow root — could match elsewhere too).
    pub fn target(&self) -> Option<Target> {
        let keep = |s: &str| !s.trim().is_empty() && s.chars().count() <= MAX_LOCATOR_CHARS;
        match self {
            PageLocator::Role { role, name } if keep(role) && keep(name) => {
                Some(Target::role_named(role, name))
            }
            PageLocator::Label { value } if keep(value) => Some(Target::Label {
                label: TextMatch::exact(value),
            }),
            PageLocator::TestId { value } if keep(value) => Some(Target::TestId {
                test_id: value.clone(),
            }),
            PageLocator::Placeholder { value } if keep(value) => Some(Target::Placeholder {
                placeholder: TextMatch::exact(value),
            }),
            PageLocator::Text { value } if keep(value) => Some(Target::Text {
                text: TextMatch::exact(value),
            }),
            PageLocator::Css {
                value,
                shadow_hosts,
            } if keep(value) && shadow_hosts.is_empty() => Some(Target::Css {
                selector: value.clone(),
            }),
            _ => None,
        }
    }

    /// The targets to try for this locator, shortest first: a name, label or placeholder as
    /// the default (case-insensitive substring) match, then exactly — the default form reads
    /// as a person writes it and still names the element when it alone matches; the exact form
    /// holds where a longer name contains this one.
    pub fn targets(&self) -> Vec<Target> {
        let Some(exact) = self.target() else {
            return Vec::new();
        };
        let short = match &exact {
            Target::Role {
                role,
                name: Some(TextMatch::Exact { value }),
            } => Some(Target::Role {
                role: role.clone(),
                name: Some(TextMatch::contains(value)),
            }),
            Target::Label {
                label: TextMatch::Exact { value },
            } => Some(Target::Label {
                label: TextMatch::contains(value),
            }),
            Target::Placeholder {
                placeholder: TextMatch::Exact { value },
            } => Some(Target::Placeholder {
                placeholder: TextMatch::contains(value),
            }),
            _ => None,
        };
        short.into_iter().chain([exact]).collect()
    }
}

/// The locators of the first marked node in a finding's context that has any, skipping entries
/// that are not locators (the context is untrusted page data). Empty when there is no context
/// or it names no node (a region or drawing mark).
pub fn locators_of_context(context: &Value) -> Vec<PageLocator> {
    let nodes = context.get("locators").and_then(Value::as_array);
    for node in nodes.into_iter().flatten().take(16) {
        let found: Vec<PageLocator> = node
            .get("locators")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|l| serde_json::from_value(l.clone()).ok())
            .take(MAX_LOCATORS)
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// An agent's declared replacement, admitted by `lang` as the target of one step. Refs
/// (`@eN`, `@cN`) are refused: they are bound to one observation.
pub fn admit_replacement(source: &str) -> Result<Target, String> {
    if source.contains('\n') || source.chars().count() > MAX_LOCATOR_CHARS {
        return Err("the replacement must be one ACL target on one line".into());
    }
    let step =
        a3s_test_lang::admit_statement(&format!("hover {{ target = {source} }}")).map_err(|d| {
            let first = d.first().map(|d| d.message.clone()).unwrap_or_default();
            format!("the replacement is not an admitted ACL target: {first}")
        })?;
    match step.action {
        Action::Hover { target, .. } if target.is_stable() => Ok(target),
        Action::Hover { .. } => Err("the replacement must not be an observation ref".into()),
        _ => Err("the replacement is not an ACL target".into()),
    }
}

/// The candidates to try, in order: the replacement alone, else every usable locator sorted
/// into the seeds' order (ties keep the context's order).
pub fn candidates(
    locators: &[PageLocator],
    replacement: Option<&Target>,
) -> Vec<(LocatorKind, Target)> {
    if let Some(t) = replacement {
        return vec![(LocatorKind::Replacement, t.clone())];
    }
    let mut out: Vec<(LocatorKind, Target)> = locators
        .iter()
        .take(MAX_LOCATORS)
        .flat_map(|l| l.targets().into_iter().map(move |t| (l.kind(), t)))
        .collect();
    out.sort_by_key(|(k, _)| *k);
    out
}

/// Whether a target kind is stable across a repair (role+name, label, test id), whichever way
/// it was declared.
fn stable(kind: LocatorKind, target: &Target) -> bool {
    match kind {
        LocatorKind::Replacement => matches!(
            target,
            Target::Role { name: Some(_), .. } | Target::Label { .. } | Target::TestId { .. }
        ),
        k => k.is_stable(),
    }
}

/// What resolving the target found.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Located {
    /// Exactly one element, through this locator; with its facts.
    One(TargetResolution, Target, TargetFacts),
    /// No candidate named any element.
    Missing,
    /// No candidate named exactly one element, and at least one named several.
    Ambiguous(u32),
    /// There was nothing to resolve (no locators, no replacement).
    Nothing,
}

/// Try `candidates` in order in the current page.
pub async fn resolve<C: AgentContext>(
    ctx: &C,
    candidates: &[(LocatorKind, Target)],
    deadline: Instant,
) -> Located {
    if candidates.is_empty() {
        return Located::Nothing;
    }
    let mut most = 0;
    for (kind, target) in candidates {
        // A candidate the page cannot evaluate (an invalid selector) names nothing.
        let Ok(facts) = ctx.target_facts(target, deadline).await else {
            continue;
        };
        if facts.matches == 1 {
            let resolution = TargetResolution {
                locator: *kind,
                acl_target: target.to_string(),
                stable: stable(*kind, target),
            };
            return Located::One(resolution, target.clone(), facts);
        }
        most = most.max(facts.matches);
    }
    if most > 1 {
        Located::Ambiguous(most)
    } else {
        Located::Missing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn locators_are_tried_in_the_seeds_order() {
        let context = json!({ "locators": [{ "nodeId": "n1", "locators": [
            { "kind": "css", "value": "#pay" },
            { "kind": "text", "value": "Pay now" },
            { "kind": "testId", "value": "pay" },
            { "kind": "role", "role": "button", "name": "Pay now" },
            { "kind": "bogus", "value": "x" },
        ]}]});
        let found = locators_of_context(&context);
        assert_eq!(found.len(), 4, "the unknown kind is skipped");
        let tried = candidates(&found, None);
        let order: Vec<LocatorKind> = tried.iter().map(|c| c.0).collect();
        assert_eq!(
            order,
            [
                LocatorKind::RoleName,
                LocatorKind::RoleName,
                LocatorKind::TestId,
                LocatorKind::Text,
                LocatorKind::Css
            ]
        );
        // A name is tried as a person writes it first, then exactly.
        assert_eq!(tried[0].1.to_string(), r#"role("button", "Pay now")"#);
        assert_eq!(
            tried[1].1.to_string(),
            r#"role("button", "Pay now", exact = true)"#
        );
    }

    #[test]
    fn shadow_css_and_empty_values_are_not_targets() {
        let shadow = PageLocator::Css {
            value: "div".into(),
            shadow_hosts: vec!["#host".into()],
        };
        assert_eq!(shadow.target(), None);
        let empty = PageLocator::Role {
            role: "button".into(),
            name: " ".into(),
        };
        assert_eq!(empty.target(), None);
    }

    #[test]
    fn a_replacement_is_admitted_by_lang_and_replaces_the_locators() {
        let t = admit_replacement(r#"role("button", "Submit")"#).unwrap();
        assert_eq!(t.to_string(), r#"role("button", "Submit")"#);
        let found = candidates(
            &[PageLocator::TestId {
                value: "pay".into(),
            }],
            Some(&t),
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, LocatorKind::Replacement);
        assert!(stable(found[0].0, &found[0].1));
        assert!(!stable(
            LocatorKind::Replacement,
            &Target::Css {
                selector: "p".into()
            }
        ));
    }

    #[test]
    fn refs_and_non_targets_are_refused_as_replacements() {
        assert!(admit_replacement("@e1").is_err());
        assert!(admit_replacement(r#"role("button") } click { target = css("x")"#).is_err());
        assert!(admit_replacement("not a target").is_err());
        assert!(admit_replacement("css(\"a\")\ncss(\"b\")").is_err());
    }
}
