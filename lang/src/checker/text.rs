//! Text values that may be secrets (`docs/acl.md` §5, "Secrets from the environment"): a string
//! literal, or `env("NAME")`.
//!
//! `env("NAME")` is admitted only where a step types or compares a control's text — the `value`
//! of `fill`, `type` and `insert_text` and `expect { value = … }` — and in the header values and
//! credentials of the context options (`checker/browser_context.rs`), because only there does the
//! runner keep the text out of every message and report. Anywhere else the type error says where
//! `env()` belongs (`values::type_error`, list items, target arguments). The name is checked here
//! (`test.spec.invalid_env_name`); the variable itself is read by the runner when the step runs,
//! never at admission (`lang` reads no environment).

use super::context::{Annotate, Ctx};
use super::values::{type_error, unreadable};
use crate::ast::{Attribute, Value, ValueKind};
use crate::code::Code;
use crate::ir::{EnvVar, TextValue};

/// The function that reads a variable (public for the editor grammar's test).
pub const ENV_FUNCTION: &str = "env";

/// Where `env()` is allowed, for every diagnostic that refuses it elsewhere.
pub(super) const ENV_ALLOWED: &str = "env(\"NAME\") is allowed only as the `value` of `fill`, `type` and `insert_text`, in `expect { value = … }`, in `extra_http_headers` and `http_credentials`, and in a `network_route`'s `headers`";

/// What a text attribute takes, for type errors.
const TEXT_EXPECTED: &str = "a string or env(\"NAME\")";

/// True when `value` is a call of `env()`.
pub(super) fn is_env_call(value: &Value) -> bool {
    matches!(&value.kind, ValueKind::Call { name, .. } if name.name == ENV_FUNCTION)
}

/// A text attribute that may read a variable: a string literal, or `env("NAME")`. With
/// `non_empty`, a literal must hold more than whitespace (a variable's value is known only when
/// the step runs).
pub(super) fn text_value(ctx: &mut Ctx, attr: &Attribute, non_empty: bool) -> Option<TextValue> {
    let name = &attr.name.name;
    match &attr.value.kind {
        ValueKind::String(s) if non_empty && s.trim().is_empty() => {
            super::values::empty(ctx, attr);
            None
        }
        ValueKind::String(s) => Some(TextValue::literal(s.as_str())),
        ValueKind::Call { name: function, .. } if function.name == ENV_FUNCTION => {
            env_call(ctx, name, &attr.value).map(TextValue::Env)
        }
        ValueKind::Call { name: function, .. } => {
            let near = crate::diagnostic::did_you_mean(&function.name, [ENV_FUNCTION]);
            if let Some(d) = type_error(ctx, name, &attr.value, TEXT_EXPECTED) {
                if near.is_some() {
                    d.hint("did you mean `env()`?");
                } else {
                    d.hint(format!(
                        "give `{name}` a string, or env(\"NAME\") to read it from the environment"
                    ));
                }
            }
            None
        }
        _ => {
            type_error(ctx, name, &attr.value, TEXT_EXPECTED);
            None
        }
    }
}

/// `env("NAME")` written as attribute `attr`: exactly one positional string argument that is a
/// variable name.
fn env_call(ctx: &mut Ctx, attr: &str, value: &Value) -> Option<EnvVar> {
    let ValueKind::Call { args, .. } = &value.kind else {
        return None;
    };
    if unreadable(value) {
        return None;
    }
    if let Some(named) = args.iter().find_map(|a| match &a.kind {
        ValueKind::Named { name, .. } => Some(name),
        _ => None,
    }) {
        ctx.error_in(
            Code::Type,
            attr,
            named.span,
            format!("`env()` has no argument `{}`", named.name),
        )
        .hint("write env(\"NAME\") with the variable's name only");
        return None;
    }
    let [arg] = args.as_slice() else {
        ctx.error_in(
            Code::Type,
            attr,
            value.span,
            format!(
                "`env()` takes 1 argument, the variable's name, found {}",
                args.len()
            ),
        )
        .hint("write env(\"NAME\")");
        return None;
    };
    let ValueKind::String(text) = &arg.kind else {
        ctx.error_in(
            Code::Type,
            attr,
            arg.span,
            format!(
                "the name given to `env()` must be a string, found {}",
                arg.kind.describe()
            ),
        )
        .hint("quote the variable's name: env(\"NAME\")");
        return None;
    };
    match EnvVar::new(text.as_str()) {
        Ok(var) => Some(var),
        Err(problem) => {
            ctx.error_in(
                Code::InvalidEnvName,
                attr,
                arg.span,
                format!(
                    "{} is not an environment variable name: {problem}",
                    clip(text)
                ),
            );
            None
        }
    }
}

/// A name quoted for a message, cut after 40 characters (a 10,000-byte name need not be
/// repeated in full).
fn clip(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", crate::printer::string_literal(&text[..end])),
        None => crate::printer::string_literal(text),
    }
}
