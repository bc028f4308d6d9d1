//! Errors an agent can act on: a failure after dispatch is told in the agent's own terms — the
//! statement it sent and the refs it named — not in the durable targets the session resolved
//! those refs to (a structural CSS path means nothing to the agent that sent `@e3`).

use super::code::SessionError;
use super::reply::Resolved;
use super::statement::print_target;
use a3s_test_driver::StepFailure;
use a3s_test_lang::ir::Target;

/// Longest statement quoted in a one-line message, in characters.
const STATEMENT_CLIP: usize = 160;

/// The statement as one short line (whitespace collapsed, clipped).
pub fn statement_line(statement: &str) -> String {
    let flat = statement.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= STATEMENT_CLIP {
        flat
    } else {
        let mut out: String = flat.chars().take(STATEMENT_CLIP - 1).collect();
        out.push('…');
        out
    }
}

/// `text` with every durable target of `resolved` (as ACL, and a CSS selector also bare)
/// replaced by the ref it stood for.
pub fn in_ref_terms(text: &str, resolved: &[(String, Target)]) -> String {
    let mut out = text.to_string();
    // Longest first, so a target that contains another is replaced whole.
    let mut pairs: Vec<(String, &str)> = Vec::new();
    for (reference, target) in resolved {
        pairs.push((print_target(target), reference.as_str()));
        if let Target::Css { selector } = target {
            pairs.push((selector.clone(), reference.as_str()));
        }
    }
    pairs.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
    for (target, reference) in pairs {
        if !target.is_empty() {
            out = out.replace(&target, reference);
        }
    }
    out
}

/// `test.session.step_failed` for a statement the browser failed: the message quotes the
/// statement and names refs, not their durable targets; the detail keeps the driver's failure
/// (as the driver said it), its class, the statement and the refs with their targets.
pub fn step_failed(
    failure: StepFailure,
    statement: &str,
    resolved: &[(String, Target)],
) -> SessionError {
    // The driver refused before any input reached the page: a gate refusal (exit 2), not a
    // failed step.
    if failure.code == a3s_test_driver::FailureCode::ReviewOverlay {
        let message = format!(
            "`{}` refused: {}",
            statement_line(statement),
            in_ref_terms(&failure.message, resolved)
        );
        return SessionError::new(super::code::SessionCode::ReviewOverlay, message).with(|d| {
            d.statement = Some(statement.to_string());
            d.failure = Some(failure);
        });
    }
    let message = format!(
        "`{}` ran and failed: {}: {}",
        statement_line(statement),
        failure.code,
        in_ref_terms(&failure.message, resolved)
    );
    SessionError::new(super::code::SessionCode::StepFailed, message)
        .with(|d| {
            d.class = Some(failure.code.class());
            d.failure = Some(failure);
            d.statement = Some(statement.to_string());
            d.refs = resolved
                .iter()
                .map(|(r, t)| Resolved {
                    reference: r.clone(),
                    target: print_target(t),
                })
                .collect();
        })
        .after_dispatch()
}

/// A refusal before dispatch, with the statement it refused in the detail (the message already
/// names the ref or the rule).
pub fn refused(error: SessionError, statement: &str) -> SessionError {
    error.with(|d| d.statement = Some(statement.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_driver::FailureCode;

    #[test]
    fn failures_name_the_ref_and_the_statement_not_the_css_path() {
        let path = "html > body:nth-of-type(1) > div:nth-of-type(2)";
        let resolved = vec![(
            "@e3".to_string(),
            Target::Css {
                selector: path.into(),
            },
        )];
        let failure = StepFailure::new(
            FailureCode::TargetNotActionable,
            format!("css(\"{path}\") is covered by <div#overlay>; also {path}"),
        );
        let e = step_failed(failure, "click {\n  target = ref(\"@e3\")\n}", &resolved);
        assert_eq!(e.code, super::super::code::SessionCode::StepFailed);
        assert!(e.dispatched());
        assert!(!e.message.contains("nth-of-type"), "{}", e.message);
        assert!(
            e.message
                .starts_with("`click { target = ref(\"@e3\") }` ran and failed: "),
            "{}",
            e.message
        );
        assert!(e
            .message
            .ends_with("@e3 is covered by <div#overlay>; also @e3"));
        let detail = e.detail.unwrap();
        assert_eq!(detail.refs[0].reference, "@e3");
        assert!(detail.dispatched);
    }

    #[test]
    fn the_driver_refusing_the_review_overlay_is_a_gate_refusal_not_a_failed_step() {
        let failure = StepFailure::new(FailureCode::ReviewOverlay, "covered by the overlay");
        let e = step_failed(failure, "press \"Enter\"", &[]);
        assert_eq!(e.code, super::super::code::SessionCode::ReviewOverlay);
        assert!(e.code.is_gate());
        assert!(!e.dispatched(), "nothing reached the page");
        assert_eq!(e.exit(), crate::exit::Exit::InvalidInput);
        assert!(e.message.contains("refused"), "{}", e.message);
    }
}
