//! Targets (`docs/acl.md` §3): `role()`, `label()`, `placeholder()`, `text()`, `testid()`, `css()`,
//! `ref()`, and `main()` for frames.
//!
//! A target is a call value. This file checks the function name (`test.spec.unknown_target` with a
//! "did you mean"), arity and argument kinds (`test.spec.target_arguments`, at the argument's own
//! span), empty strings, and the ref grammar: `@eN` / `@cN` are targets, `@uN` is read-only
//! evidence (`test.spec.target_observation_only`), anything else is `test.spec.invalid_ref`.
//! `main()` is only a frame target (`test.spec.main_outside_frame`), and a frame is entered only
//! through `main()`, `css()` or `ref()` (`test.spec.frame_target`). Whether a ref belongs to the
//! latest observation is the session's job, not admission's.

use super::context::{Annotate, Ctx};
use super::values::{type_error, unreadable};
use crate::ast::{Ident, Value, ValueKind};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::{ElementRef, FrameTarget, Target};

/// Element target functions (`docs/acl.md` §3), for "did you mean" hints; public so the editor
/// grammar's test can check it highlights every one.
pub const TARGET_FUNCTIONS: &[&str] = &[
    "role",
    "label",
    "placeholder",
    "text",
    "testid",
    "css",
    "ref",
];
/// Frame target functions (public for the same reason).
pub const FRAME_FUNCTIONS: &[&str] = &["main", "css", "ref"];
/// What a target looks like, for type errors.
const TARGET_EXAMPLE: &str = "a target such as role(\"button\", \"Save\")";

/// Why a ref string is not a usable target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RefProblem {
    /// A well-formed `@uN`: observation-only evidence.
    ObservationOnly,
    /// Not `@eN`, `@cN` or `@uN`.
    Malformed,
}

/// Parse `@eN` / `@cN`. `N` is a decimal `u32` without leading zeros, so every ref has exactly one
/// spelling (the session compares refs as text in its ledger).
pub(super) fn parse_ref(text: &str) -> Result<ElementRef, RefProblem> {
    let rest = text.strip_prefix('@').ok_or(RefProblem::Malformed)?;
    let mut chars = rest.chars();
    let namespace = chars.next().ok_or(RefProblem::Malformed)?;
    let digits = chars.as_str();
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !(digits.len() > 1 && digits.starts_with('0'));
    let index: u32 = if well_formed {
        digits.parse().map_err(|_| RefProblem::Malformed)?
    } else {
        0
    };
    match (namespace, well_formed) {
        ('e', true) => Ok(ElementRef::Accessibility(index)),
        ('c', true) => Ok(ElementRef::PageContext(index)),
        ('u', true) => Err(RefProblem::ObservationOnly),
        _ => Err(RefProblem::Malformed),
    }
}

/// An element target written as the value of attribute `attr` (`target`, `visible`, `enabled`, …).
pub(super) fn target(ctx: &mut Ctx, attr: &str, value: &Value) -> Option<Target> {
    let call = call_or_type_error(ctx, attr, value)?;
    let (name, args) = (call.name, call.args);
    match name.name.as_str() {
        "role" => {
            call.arity(ctx, 1, 2, "(role, name?)")?;
            let role = call.text_arg(ctx, 0, "role");
            let accessible_name = match args.get(1) {
                Some(_) => Some(call.text_arg(ctx, 1, "name")?),
                None => None,
            };
            Some(Target::Role {
                role: role?.to_string(),
                name: accessible_name.map(str::to_string),
            })
        }
        "label" => call
            .single_text(ctx, "label")
            .map(|label| Target::Label { label }),
        "placeholder" => call
            .single_text(ctx, "placeholder")
            .map(|placeholder| Target::Placeholder { placeholder }),
        "testid" => call
            .single_text(ctx, "test id")
            .map(|test_id| Target::TestId { test_id }),
        "css" => call
            .single_text(ctx, "selector")
            .map(|selector| Target::Css { selector }),
        "text" => {
            call.arity(ctx, 1, 2, "(text, exact?)")?;
            let text = call.text_arg(ctx, 0, "text");
            let exact = match args.get(1) {
                Some(arg) => Some(call.bool_arg(ctx, arg, "exact")?),
                None => None,
            };
            Some(Target::Text {
                text: text?.to_string(),
                exact: exact.unwrap_or(false),
            })
        }
        "ref" => call
            .reference(ctx)
            .map(|reference| Target::Ref { reference }),
        "main" => {
            ctx.error_in(
                Code::MainOutsideFrame,
                attr,
                value.span,
                "`main()` is only a `frame` target",
            )
            .hint("use main() only in `frame { target = main() }`; here give an element target");
            None
        }
        other => {
            unknown_function(ctx, attr, name, other, TARGET_FUNCTIONS);
            None
        }
    }
}

/// The target of a `frame` step: `main()`, `css()` or `ref()`.
pub(super) fn frame_target(ctx: &mut Ctx, attr: &str, value: &Value) -> Option<FrameTarget> {
    let call = call_or_type_error(ctx, attr, value)?;
    let name = call.name;
    match name.name.as_str() {
        "main" => {
            call.arity(ctx, 0, 0, "()")?;
            Some(FrameTarget::Main)
        }
        "css" => call
            .single_text(ctx, "selector")
            .map(|selector| FrameTarget::Css { selector }),
        "ref" => call
            .reference(ctx)
            .map(|reference| FrameTarget::Ref { reference }),
        known if TARGET_FUNCTIONS.contains(&known) => {
            ctx.error_in(
                Code::FrameTarget,
                attr,
                value.span,
                format!("a frame cannot be entered through `{known}()`"),
            )
            .hint("a frame target is main(), css(\"iframe…\") or ref(\"@eN\")");
            None
        }
        other => {
            unknown_function(ctx, attr, name, other, FRAME_FUNCTIONS);
            None
        }
    }
}

/// The call written as attribute `attr`, or a type error for any other value.
fn call_or_type_error<'a>(ctx: &mut Ctx, attr: &'a str, value: &'a Value) -> Option<Call<'a>> {
    match &value.kind {
        ValueKind::Call { name, args } => Some(Call {
            attr,
            name,
            args,
            value,
        }),
        ValueKind::String(s) => {
            let hint = if s.starts_with('@') {
                format!("wrap the ref: ref(\"{s}\")")
            } else if s.starts_with(['#', '.', '[']) || s.contains(['>', '=']) {
                format!("wrap the selector: css(\"{s}\")")
            } else {
                format!("wrap the text in a target function: text(\"{s}\"), or name the element with role(\"button\", \"{s}\")")
            };
            if let Some(d) = type_error(ctx, attr, value, TARGET_EXAMPLE) {
                d.hint(hint);
            }
            None
        }
        _ => {
            type_error(ctx, attr, value, TARGET_EXAMPLE);
            None
        }
    }
}

fn unknown_function(ctx: &mut Ctx, attr: &str, name: &Ident, written: &str, candidates: &[&str]) {
    let hint = match did_you_mean(written, candidates.iter().copied()) {
        Some(suggestion) => format!("did you mean `{suggestion}()`?"),
        None => {
            let list: Vec<String> = candidates.iter().map(|c| format!("{c}()")).collect();
            format!("use one of {}", list.join(", "))
        }
    };
    ctx.error_in(
        Code::UnknownTarget,
        attr,
        name.span,
        format!("`{written}()` is not a target"),
    )
    .hint(hint);
}

/// One target call being checked.
struct Call<'a> {
    attr: &'a str,
    name: &'a Ident,
    args: &'a [Value],
    value: &'a Value,
}

impl<'a> Call<'a> {
    /// Report a wrong argument count; `signature` is shown in the message.
    fn arity(&self, ctx: &mut Ctx, min: usize, max: usize, signature: &str) -> Option<()> {
        let n = self.args.len();
        if (min..=max).contains(&n) {
            return Some(());
        }
        let fname = &self.name.name;
        let expected = match (min, max) {
            (0, 0) => "no arguments".to_string(),
            (a, b) if a == b => format!("{a} argument{}", if a == 1 { "" } else { "s" }),
            (a, b) => format!("{a} or {b} arguments"),
        };
        ctx.error_in(
            Code::TargetArguments,
            self.attr,
            self.value.span,
            format!("`{fname}` takes {expected}, found {n}"),
        )
        .hint(format!("write `{fname}{signature}`"));
        None
    }

    /// A non-empty string argument at `index`.
    fn text_arg(&self, ctx: &mut Ctx, index: usize, what: &str) -> Option<&'a str> {
        let arg = &self.args[index];
        let fname = &self.name.name;
        match &arg.kind {
            ValueKind::String(s) if s.trim().is_empty() => {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    arg.span,
                    format!("the {what} of `{fname}()` is empty"),
                )
                .hint(format!("give `{fname}()` a non-empty {what}"));
                None
            }
            ValueKind::String(s) => Some(s),
            _ if unreadable(arg) => None,
            other => {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    arg.span,
                    format!(
                        "the {what} of `{fname}()` must be a string, found {}",
                        other.describe()
                    ),
                )
                .hint("quote the argument");
                None
            }
        }
    }

    /// A boolean argument.
    fn bool_arg(&self, ctx: &mut Ctx, arg: &Value, what: &str) -> Option<bool> {
        let fname = &self.name.name;
        match arg.kind {
            ValueKind::Bool(b) => Some(b),
            _ if unreadable(arg) => None,
            ref other => {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    arg.span,
                    format!(
                        "the {what} flag of `{fname}()` must be a boolean, found {}",
                        other.describe()
                    ),
                )
                .hint(format!("write `{fname}(\"…\", true)` for an exact match"));
                None
            }
        }
    }

    /// Exactly one non-empty string argument.
    fn single_text(&self, ctx: &mut Ctx, what: &str) -> Option<String> {
        self.arity(ctx, 1, 1, &format!("(\"{what}\")"))?;
        self.text_arg(ctx, 0, what).map(str::to_string)
    }

    /// `ref("@eN")` / `ref("@cN")`.
    fn reference(&self, ctx: &mut Ctx) -> Option<ElementRef> {
        self.arity(ctx, 1, 1, "(\"@e4\")")?;
        let arg = &self.args[0];
        let text = match &arg.kind {
            ValueKind::String(s) => s,
            _ => {
                self.text_arg(ctx, 0, "ref")?;
                return None;
            }
        };
        match parse_ref(text) {
            Ok(reference) => Some(reference),
            Err(RefProblem::ObservationOnly) => {
                ctx.error_in(
                    Code::TargetObservationOnly,
                    self.attr,
                    arg.span,
                    format!("\"{text}\" is read-only evidence, not a target"),
                );
                None
            }
            Err(RefProblem::Malformed) => {
                ctx.error_in(
                    Code::InvalidRef,
                    self.attr,
                    arg.span,
                    format!("\"{text}\" is not a ref"),
                );
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_parse_in_both_target_namespaces() {
        assert_eq!(parse_ref("@e4"), Ok(ElementRef::Accessibility(4)));
        assert_eq!(parse_ref("@c0"), Ok(ElementRef::PageContext(0)));
        assert_eq!(
            parse_ref("@e4294967295"),
            Ok(ElementRef::Accessibility(u32::MAX))
        );
    }

    #[test]
    fn observation_refs_and_malformed_refs_are_told_apart() {
        assert_eq!(parse_ref("@u3"), Err(RefProblem::ObservationOnly));
        for bad in [
            "",
            "@",
            "@e",
            "e4",
            "@x4",
            "@e04",
            "@e-1",
            "@e4a",
            "@E4",
            "@e4294967296",
            "@u",
            "@e 4",
        ] {
            assert_eq!(parse_ref(bad), Err(RefProblem::Malformed), "{bad:?}");
        }
    }
}
