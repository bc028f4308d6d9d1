//! The replacement target an agent may declare at `repair-complete` when its repair removed or
//! renamed the marked element. It is admitted here, by `lang`, at the moment it is declared, so
//! a bad target is refused to the agent that wrote it (exit 2, nothing appended) instead of
//! surfacing later as a failed verification; the ledger stores the admitted target printed again
//! from its IR, and verification step 2 resolves it instead of the finding's own locators.

use a3s_test_lang::ir::{Action, PageCondition, WaitCondition};
use a3s_test_ledger::{ErrorCode, LedgerError};

/// The declared replacement as `lang` admits it, printed again from its IR (so the stored text is
/// one target and nothing else, in the printer's canonical form).
pub fn admit(text: &str) -> Result<String, LedgerError> {
    let refused = |why: String| {
        LedgerError::new(
            ErrorCode::InvalidInput,
            format!("--replacement is not one ACL target: {why}"),
        )
    };
    if text.contains(['\n', '\r']) {
        return Err(refused("it must be one line".into()));
    }
    let statement = format!("wait {{ visible = {text} }}");
    let step = a3s_test_lang::admit_statement(&statement).map_err(|d| {
        refused(
            d.first()
                .map(|d| format!("{}: {}", d.code.as_str(), d.message))
                .unwrap_or_default(),
        )
    })?;
    match step.action {
        Action::Wait {
            condition: WaitCondition::Page(PageCondition::Visible { target }),
        } => Ok(target.to_string()),
        _ => Err(refused("it does not read as a target".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replacement_is_one_target_printed_again() {
        assert_eq!(
            admit(r#"role("button", "Pay")"#).unwrap(),
            r#"role("button", "Pay")"#
        );
        for bad in [
            "",
            "role(",
            r#"role("button") } click { target = css("x")"#,
            "css(\"a\")\ncss(\"b\")",
            "@e1",
            "42",
        ] {
            let e = admit(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidInput, "{bad}");
        }
    }
}
