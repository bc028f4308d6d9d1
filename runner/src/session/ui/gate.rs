//! Gate 3 for `@uN`: a UI fact is evidence about the page, never something to act on. The front
//! end already refuses an `@uN` target (`test.spec.target_observation_only`); this turns that
//! refusal into the session's answer: `test.session.ref_kind` with a hint naming the `@cN` refs
//! the fact is about, or `test.session.stale_ref` for an `@uN` an earlier observation issued.
//! Either way nothing was sent to the page.

use super::facts::UiRefs;
use crate::session::code::{SessionCode, SessionError};
use crate::session::file::ObservationRecord;

/// The `@uN` refs named in `message` (a diagnostic's sentence quotes the ref it refuses).
fn urefs_in(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = message;
    while let Some(at) = rest.find("@u") {
        let digits: String = rest[at + 2..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if !digits.is_empty() {
            let r = format!("@u{digits}");
            if !out.contains(&r) {
                out.push(r);
            }
        }
        rest = &rest[at + 2..];
    }
    out
}

/// The refusal of a statement acting on an `@uN` (`refused`: gate 1's `test.session.ref_kind`
/// error, its diagnostics attached), worded for what the session knows of that `@uN`.
/// `observation` is the statement's `--observation`, when given.
pub fn refine(
    refused: SessionError,
    latest: Option<&ObservationRecord>,
    observation: Option<u64>,
    refs: &UiRefs,
) -> SessionError {
    if refused.code != SessionCode::RefKind {
        return refused;
    }
    let named: Vec<String> = refused
        .detail
        .as_ref()
        .map(|d| {
            d.diagnostics
                .iter()
                .flat_map(|g| urefs_in(&g.message))
                .collect()
        })
        .unwrap_or_default();
    let Some(first) = named.first() else {
        return refused;
    };
    let n: u64 = first[2..].parse().unwrap_or(0);
    let current = latest
        .filter(|l| l.open && observation.is_none_or(|o| o == l.id))
        .and_then(|l| refs.of(l.id, first));
    let (code, message) = match current {
        Some(fact) => {
            let about = fact.fact.crefs();
            let hint = if about.is_empty() {
                "act on an @eN or @cN ref of the same observation, or a semantic target such as \
                 role()"
                    .to_string()
            } else {
                format!(
                    "act on {} it names, or a semantic target such as role()",
                    about.join(" or ")
                )
            };
            (
                SessionCode::RefKind,
                format!(
                    "{first} is a read-only UI fact ({}), never an action target; {hint}",
                    fact.fact.kind()
                ),
            )
        }
        None if refs.issued(n) => (
            SessionCode::StaleRef,
            format!(
                "{first} is stale: it came from an earlier observation (and is read-only: act on \
                 an @eN or @cN ref); observe again"
            ),
        ),
        None => (
            SessionCode::RefKind,
            format!(
                "{first} is a read-only UI ref, never an action target (no observation of this \
                 session issued it); act on an @eN or @cN ref, or a semantic target such as role()"
            ),
        ),
    };
    SessionError {
        code,
        message,
        detail: refused.detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::gates;
    use crate::session::ui::facts::{NodeName, UiFact};

    fn latest(id: u64, open: bool) -> ObservationRecord {
        ObservationRecord {
            id,
            url: "u".into(),
            loader_id: "L".into(),
            open,
        }
    }

    fn clip() -> UiFact {
        UiFact::Clip {
            node: NodeName::new(Some("@c2".into()), "button", "Pay"),
            by: NodeName::new(None, "div", "Card"),
            visible_percent: 50,
        }
    }

    #[test]
    fn names_in_messages() {
        assert_eq!(
            urefs_in("\"@u3\" is read-only, @u3 @u12 @u"),
            ["@u3", "@u12"]
        );
    }

    #[test]
    fn a_current_u_ref_is_refused_by_kind_an_earlier_one_as_stale() {
        let mut refs = UiRefs::default();
        refs.bind(4, vec![clip(), clip()]);
        let click =
            |r: &str| gates::schema(&format!("click {{ target = ref(\"{r}\") }}")).unwrap_err();
        let e = refine(click("@u1"), Some(&latest(4, true)), None, &refs);
        assert_eq!(e.code, SessionCode::RefKind);
        assert!(
            e.message.contains("(clip)") && e.message.contains("act on @c2"),
            "{}",
            e.message
        );
        assert!(!e.detail.as_ref().unwrap().diagnostics.is_empty());
        // Observation 5 replaced them: @u1 and @u2 are stale, @u3 is observation 5's.
        refs.bind(5, vec![clip()]);
        let e = refine(click("@u2"), Some(&latest(5, true)), None, &refs);
        assert_eq!(e.code, SessionCode::StaleRef);
        assert_eq!(
            refine(click("@u3"), Some(&latest(5, true)), None, &refs).code,
            SessionCode::RefKind
        );
        // An action ended observation 5; an older --observation is stale too.
        assert_eq!(
            refine(click("@u3"), Some(&latest(5, false)), None, &refs).code,
            SessionCode::StaleRef
        );
        assert_eq!(
            refine(click("@u3"), Some(&latest(5, true)), Some(4), &refs).code,
            SessionCode::StaleRef
        );
        // Never issued: refused by kind.
        let e = refine(click("@u9"), Some(&latest(5, true)), None, &refs);
        assert_eq!(e.code, SessionCode::RefKind);
        assert!(e.message.contains("no observation"), "{}", e.message);
    }
}
