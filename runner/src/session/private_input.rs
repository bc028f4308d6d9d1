//! A value an agent types into a private field — a password, a card number, a one-time code,
//! anything the page's Test Kit redacts (`a3s_test_driver::privacy`) — is used once, for its
//! step, and kept nowhere. Before such a statement runs, the session asks the page whether its
//! target is private; if it is, every record of the statement (the session file's steps, the
//! event log, the answer, a promoted suite) holds it with the value written as `env("NAME")`,
//! named after the field, so a promoted suite reads the secret from the environment it runs in.
//!
//! The rewrite is textual, through the lexer (like `statement::replace_refs_in_source`): the
//! one string literal after `value =` is replaced, so nothing else the agent wrote changes.

use a3s_test_driver::privacy::PrivacyLevel;
use a3s_test_driver::TargetPrivacy;
use a3s_test_lang::ir::{Action, ExpectCondition, Step, Target};
use a3s_test_lang::lexer::{decode_string, lex, Token};

/// Longest environment variable name derived from a field, in characters.
const MAX_NAME: usize = 48;

/// What a statement puts into the page or compares with it that could be a private value: the
/// text, and the element it goes into (`None`: the focused element).
pub struct TypedValue<'a> {
    /// The value as the statement holds it.
    pub value: &'a str,
    /// The element it goes into or is compared with; `None` for the focused element.
    pub target: Option<&'a Target>,
}

/// The value `step` types (`fill`, `type`, `insert_text`) or compares (`expect … value`), when
/// it is one the agent wrote (a value read from the environment is never written anywhere).
pub fn typed_value(step: &Step) -> Option<TypedValue<'_>> {
    let (value, target) = match &step.action {
        Action::Fill { target, value } | Action::Type { target, value } => (value, Some(target)),
        Action::InsertText { value } => (value, None),
        Action::Expect { expectation } => match &expectation.condition {
            ExpectCondition::Value { target, value } => (value, Some(target)),
            _ => return None,
        },
        _ => return None,
    };
    let value = value.as_literal()?;
    (!value.is_empty()).then_some(TypedValue { value, target })
}

/// The environment variable a private field's value is recorded as: its accessible name (else
/// its autocomplete token) in upper snake case — `Card number` → `CARD_NUMBER` — or `SECRET`.
pub fn env_name(field: &TargetPrivacy) -> String {
    let words = if field.name.trim().is_empty() {
        field.autocomplete.as_str()
    } else {
        field.name.as_str()
    };
    let mut name = String::new();
    for c in words.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_uppercase());
        } else if !name.ends_with('_') && !name.is_empty() {
            name.push('_');
        }
        if name.len() >= MAX_NAME {
            break;
        }
    }
    let name = name.trim_end_matches('_').to_string();
    match name.chars().next() {
        None => "SECRET".into(),
        Some(c) if c.is_ascii_digit() => format!("SECRET_{name}"),
        Some(_) => name,
    }
}

/// True when a value going into `field` must not be recorded.
pub fn is_private(field: &TargetPrivacy) -> bool {
    field.level != PrivacyLevel::Open
}

/// `source` with the string literal after `value =` that holds `value` replaced by
/// `env("<var>")`; `None` when there is no such literal.
pub fn redact_source(source: &str, value: &str, var: &str) -> Option<String> {
    let tokens = lex(source).tokens;
    let at = tokens.windows(3).find_map(|w| match w {
        [(Token::Ident("value"), _), (Token::Eq, _), (Token::Str(raw), span)]
            if decode_string(raw) == value =>
        {
            Some(*span)
        }
        _ => None,
    })?;
    let mut out = source.to_string();
    out.replace_range(
        at.start..at.end,
        &format!("env({})", super::statement::acl_string(var)),
    );
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, autocomplete: &str) -> TargetPrivacy {
        TargetPrivacy {
            level: PrivacyLevel::Value,
            name: name.into(),
            autocomplete: autocomplete.into(),
        }
    }

    #[test]
    fn a_field_is_named_in_upper_snake_case() {
        assert_eq!(env_name(&field("Card number", "cc-number")), "CARD_NUMBER");
        assert_eq!(env_name(&field("  Expiry (MM/YY) ", "")), "EXPIRY_MM_YY");
        assert_eq!(env_name(&field("", "cc-csc")), "CC_CSC");
        assert_eq!(env_name(&field("", "")), "SECRET");
        assert_eq!(env_name(&field("2FA code", "")), "SECRET_2FA_CODE");
        assert_eq!(env_name(&field("Пароль", "")), "SECRET");
        let long = env_name(&field(&"word ".repeat(40), ""));
        assert!(long.len() <= MAX_NAME && !long.ends_with('_'), "{long}");
    }

    #[test]
    fn only_the_value_literal_is_replaced() {
        let source = "fill \"pw\" {\n    target = label(\"hunter2\")\n    value = \"hunter2\"\n}";
        let out = redact_source(source, "hunter2", "PASSWORD").unwrap();
        assert_eq!(
            out,
            "fill \"pw\" {\n    target = label(\"hunter2\")\n    value = env(\"PASSWORD\")\n}"
        );
        assert_eq!(redact_source(source, "other", "PASSWORD"), None);
        let escaped = "fill { target = ref(\"@e1\") value = \"a\\\"b\" }";
        assert_eq!(
            redact_source(escaped, "a\"b", "X").as_deref(),
            Some("fill { target = ref(\"@e1\") value = env(\"X\") }")
        );
    }
}
