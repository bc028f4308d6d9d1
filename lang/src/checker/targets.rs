//! Targets (`docs/acl.md` §3): `role()`, `label()`, `placeholder()`, `text()`, `testid()`, `css()`,
//! `ref()`; the combinators `within()`, `nth()`/`first()`/`last()`, `has_text()`, `has_not_text()`,
//! `has()`, `has_not()` over them (nestable); and `main()` for frames.
//!
//! A target is a call value. This file checks the function name (`test.spec.unknown_target` with a
//! "did you mean"), arity and argument kinds (`test.spec.target_arguments`, at the argument's own
//! span), named arguments (`exact = true`, after the positional ones), regular expressions
//! (`test.spec.invalid_regex`: empty, or a flag other than `i m s u`), empty strings, refs inside a
//! combinator (refused: a ref names one node already), and the ref grammar: `@eN` / `@cN` are targets, `@uN` is read-only
//! evidence (`test.spec.target_observation_only`), anything else is `test.spec.invalid_ref`.
//! `main()` is only a frame target (`test.spec.main_outside_frame`), and a frame is entered only
//! through `main()`, `css()` or `ref()` (`test.spec.frame_target`). Whether a ref belongs to the
//! latest observation is the session's job, not admission's.

use super::context::{Annotate, Ctx};
use super::values::{type_error, unreadable};
use crate::ast::{Ident, Value, ValueKind};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::{ElementRef, FrameTarget, Target, TargetFilter, TextMatch};

/// Element target functions (`docs/acl.md` §3), for "did you mean" hints; public so the editor
/// grammar's test can check it highlights every one.
pub const TARGET_FUNCTIONS: &[&str] = &[
    "role",
    "label",
    "placeholder",
    "text",
    "testid",
    "automation_id",
    "css",
    "ref",
    "visual_point",
    "within",
    "nth",
    "first",
    "last",
    "has_text",
    "has_not_text",
    "has",
    "has_not",
];
/// Frame target functions (public for the same reason).
pub const FRAME_FUNCTIONS: &[&str] = &["main", "css", "ref"];
/// What a target looks like, for type errors.
const TARGET_EXAMPLE: &str = "a target such as role(\"button\", \"Save\")";
/// The regular expression flags a locator accepts (JavaScript's, less those that make no sense
/// for one test: `g`, `y`, `d`, `v`).
const REGEX_FLAGS: &[char] = &['i', 'm', 's', 'u'];

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

/// Parse `@vN` (a desktop session's screenshot id); `N` a decimal `u32` without leading zeros.
pub(super) fn parse_shot(text: &str) -> Option<u32> {
    let digits = text.strip_prefix("@v")?;
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !(digits.len() > 1 && digits.starts_with('0'));
    well_formed.then(|| digits.parse().ok()).flatten()
}

/// An element target written as the value of attribute `attr` (`target`, `visible`, `enabled`, …).
pub(super) fn target(ctx: &mut Ctx, attr: &str, value: &Value) -> Option<Target> {
    let call = call_or_type_error(ctx, attr, value)?;
    let name = call.name;
    match name.name.as_str() {
        "role" => {
            call.named_args(ctx, &["exact"])?;
            call.arity(ctx, 1, 2, "(role, name?, exact = false)")?;
            let role = call.text_arg(ctx, 0, "role");
            let accessible_name = match call.positional.get(1) {
                Some(_) => Some(call.text_match(ctx, 1, "name")?),
                None => {
                    call.exact_without_text(ctx)?;
                    None
                }
            };
            Some(Target::Role {
                role: role?.to_string(),
                name: accessible_name,
            })
        }
        "label" => call
            .single_match(ctx, "label")
            .map(|label| Target::Label { label }),
        "placeholder" => call
            .single_match(ctx, "placeholder")
            .map(|placeholder| Target::Placeholder { placeholder }),
        "text" => call
            .single_match(ctx, "text")
            .map(|text| Target::Text { text }),
        "testid" => call
            .single_text(ctx, "test id")
            .map(|test_id| Target::TestId { test_id }),
        "automation_id" => call
            .single_text(ctx, "automation id")
            .map(|automation_id| Target::AutomationId { automation_id }),
        "css" => call
            .single_text(ctx, "selector")
            .map(|selector| Target::Css { selector }),
        "ref" => call
            .reference(ctx)
            .map(|reference| Target::Ref { reference }),
        "visual_point" => call.visual_point(ctx),
        "within" => {
            call.named_args(ctx, &[])?;
            call.arity(ctx, 2, 2, "(outer, inner)")?;
            let outer = call.inner_target(ctx, 0);
            let inner = call.inner_target(ctx, 1);
            Some(Target::Within {
                outer: Box::new(outer?),
                inner: Box::new(inner?),
            })
        }
        "nth" => {
            call.named_args(ctx, &[])?;
            call.arity(ctx, 2, 2, "(target, index)")?;
            let target = call.inner_target(ctx, 0);
            let index = call.index_arg(ctx, 1);
            Some(Target::Nth {
                target: Box::new(target?),
                index: index?,
            })
        }
        "first" | "last" => {
            call.named_args(ctx, &[])?;
            call.arity(ctx, 1, 1, "(target)")?;
            let target = call.inner_target(ctx, 0)?;
            Some(Target::Nth {
                target: Box::new(target),
                index: if name.name == "first" { 0 } else { -1 },
            })
        }
        "has_text" | "has_not_text" => {
            call.named_args(ctx, &["exact"])?;
            call.arity(ctx, 2, 2, "(target, text, exact = false)")?;
            let target = call.inner_target(ctx, 0);
            let text = call.text_match(ctx, 1, "text");
            let (target, text) = (target?, text?);
            let filter = if name.name == "has_text" {
                TargetFilter::HasText { text }
            } else {
                TargetFilter::HasNotText { text }
            };
            Some(Target::Filter {
                target: Box::new(target),
                filter,
            })
        }
        "has" | "has_not" => {
            call.named_args(ctx, &[])?;
            call.arity(ctx, 2, 2, "(target, inner)")?;
            let target = call.inner_target(ctx, 0);
            let inner = Box::new(call.inner_target(ctx, 1)?);
            let filter = if name.name == "has" {
                TargetFilter::Has { inner }
            } else {
                TargetFilter::HasNot { inner }
            };
            Some(Target::Filter {
                target: Box::new(target?),
                filter,
            })
        }
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
        // `env()` is a text, never an element: the type error says where it belongs.
        ValueKind::Call { .. } if super::text::is_env_call(value) => {
            type_error(ctx, attr, value, TARGET_EXAMPLE);
            None
        }
        ValueKind::Call { name, args } => Some(Call::new(attr, name, args, value)),
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

/// One target call being checked: its positional arguments, then its named ones.
struct Call<'a> {
    attr: &'a str,
    name: &'a Ident,
    /// The positional arguments, in order (named ones are never among them).
    positional: Vec<&'a Value>,
    /// `name = value` arguments.
    named: Vec<(&'a Ident, &'a Value)>,
    /// Every argument as written, for order checks.
    args: &'a [Value],
    value: &'a Value,
}

impl<'a> Call<'a> {
    fn new(attr: &'a str, name: &'a Ident, args: &'a [Value], value: &'a Value) -> Call<'a> {
        let mut positional = Vec::new();
        let mut named = Vec::new();
        for arg in args {
            match &arg.kind {
                ValueKind::Named { name, value } => named.push((name, &**value)),
                _ => positional.push(arg),
            }
        }
        Call {
            attr,
            name,
            positional,
            named,
            args,
            value,
        }
    }

    /// Report named arguments this function does not take, twice-given ones, and positional
    /// arguments after a named one.
    fn named_args(&self, ctx: &mut Ctx, known: &[&str]) -> Option<()> {
        let fname = &self.name.name;
        let mut ok = true;
        let mut seen: Vec<&str> = Vec::new();
        for (name, _) in &self.named {
            let n = name.name.as_str();
            if !known.contains(&n) {
                let hint = match did_you_mean(n, known.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None if known.is_empty() => format!("`{fname}()` takes no named arguments"),
                    None => format!("`{fname}()` takes `{}`", known.join("`, `")),
                };
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    name.span,
                    format!("`{fname}()` has no argument `{n}`"),
                )
                .hint(hint);
                ok = false;
            } else if seen.contains(&n) {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    name.span,
                    format!("`{n}` is given twice to `{fname}()`"),
                )
                .hint(format!("give `{n}` once"));
                ok = false;
            }
            seen.push(n);
        }
        let first_named = self
            .args
            .iter()
            .position(|a| matches!(a.kind, ValueKind::Named { .. }));
        if let Some(first) = first_named {
            if let Some(late) = self.args[first..]
                .iter()
                .find(|a| !matches!(a.kind, ValueKind::Named { .. }))
            {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    late.span,
                    format!("a positional argument of `{fname}()` follows a named one"),
                )
                .hint("write the positional arguments first, then `name = value`");
                ok = false;
            }
        }
        ok.then_some(())
    }

    /// Report a wrong count of positional arguments; `signature` is shown in the message.
    fn arity(&self, ctx: &mut Ctx, min: usize, max: usize, signature: &str) -> Option<()> {
        let n = self.positional.len();
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
        let arg = self.positional[index];
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
            _ if super::text::is_env_call(arg) => {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    arg.span,
                    format!(
                        "the {what} of `{fname}()` must be a string; it cannot read an environment variable"
                    ),
                )
                .hint(super::text::ENV_ALLOWED);
                None
            }
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

    /// The `exact` argument: named (`exact = true`), or for `text()` also positional as its
    /// second argument (the form of earlier versions, kept so their suites still admit).
    fn exact(&self, ctx: &mut Ctx) -> Option<Option<(bool, &'a Value)>> {
        let named = self.named.iter().find(|(n, _)| n.name == "exact");
        let positional = (self.name.name == "text")
            .then(|| self.positional.get(1).copied())
            .flatten();
        let Some(arg) = named.map(|(_, v)| *v).or(positional) else {
            return Some(None);
        };
        self.bool_arg(ctx, arg, "exact").map(|b| Some((b, arg)))
    }

    /// `exact = …` on a call with no text to match (`role("button", exact = true)`).
    fn exact_without_text(&self, ctx: &mut Ctx) -> Option<()> {
        if let Some((_, arg)) = self.exact(ctx)? {
            let fname = &self.name.name;
            ctx.error_in(
                Code::TargetArguments,
                self.attr,
                arg.span,
                format!("`exact` needs a name to match in `{fname}()`"),
            )
            .hint(format!(
                "write `{fname}(\"button\", \"Save\", exact = true)`"
            ));
            return None;
        }
        Some(())
    }

    /// The text argument at `index` as a [`TextMatch`]: a string (case-insensitive substring,
    /// or whole with `exact = true`) or a regular expression.
    fn text_match(&self, ctx: &mut Ctx, index: usize, what: &str) -> Option<TextMatch> {
        let arg = self.positional[index];
        let exact = self.exact(ctx);
        if let ValueKind::Regex { pattern, flags } = &arg.kind {
            let exact = exact?;
            if let Some((_, flag)) = exact {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    flag.span,
                    "`exact` has no meaning with a regular expression",
                )
                .hint("anchor the expression instead: /^Save$/");
                return None;
            }
            return regex(ctx, self.attr, arg, pattern, flags);
        }
        let text = self.text_arg(ctx, index, what);
        let (text, exact) = (text?, exact?);
        Some(match exact {
            Some((true, _)) => TextMatch::exact(text),
            _ => TextMatch::contains(text),
        })
    }

    /// Exactly one text argument (and `exact` at most): `label()`, `placeholder()`, `text()`.
    fn single_match(&self, ctx: &mut Ctx, what: &str) -> Option<TextMatch> {
        self.named_args(ctx, &["exact"])?;
        let max = if self.name.name == "text" { 2 } else { 1 };
        self.arity(ctx, 1, max, &format!("(\"{what}\", exact = false)"))?;
        self.text_match(ctx, 0, what)
    }

    /// An element target nested as argument `index` (`within`, `nth`, the filters). A ref is
    /// refused there: it names one node of one observation, which no combination can improve.
    fn inner_target(&self, ctx: &mut Ctx, index: usize) -> Option<Target> {
        let arg = self.positional[index];
        let t = target(ctx, self.attr, arg)?;
        if !t.is_stable() {
            let fname = &self.name.name;
            ctx.error_in(
                Code::TargetArguments,
                self.attr,
                arg.span,
                format!("a ref or visual point cannot be combined in `{fname}()`"),
            )
            .hint("a ref already names one element: use it alone, as `target = ref(\"@e3\")`");
            return None;
        }
        Some(t)
    }

    /// The index of `nth()`: an integer that fits 32 bits (negative counts from the end).
    fn index_arg(&self, ctx: &mut Ctx, index: usize) -> Option<i32> {
        let fits = i64::from(i32::MIN)..=i64::from(i32::MAX);
        let n = self.integer_arg(ctx, index, fits, |found| match found {
            ValueKind::Integer(n) => (
                format!("the index {n} of `nth()` is out of range"),
                "give an index between -2147483648 and 2147483647",
            ),
            other => (
                format!(
                    "the index of `nth()` must be an integer, found {}",
                    other.describe()
                ),
                "write `nth(target, 0)` for the first match, `nth(target, -1)` for the last",
            ),
        })?;
        i32::try_from(n).ok()
    }

    /// Argument `index` as an integer within `range`. Anything else is
    /// `test.spec.target_arguments` at the argument, with the message and hint `refused` gives
    /// for what was found (an integer out of range, or another kind of value); an argument
    /// already reported unreadable is not reported again.
    fn integer_arg(
        &self,
        ctx: &mut Ctx,
        index: usize,
        range: std::ops::RangeInclusive<i64>,
        refused: impl FnOnce(&ValueKind) -> (String, &'static str),
    ) -> Option<i64> {
        let arg = self.positional[index];
        let (message, hint) = match arg.kind {
            ValueKind::Integer(n) if range.contains(&n) => return Some(n),
            _ if unreadable(arg) => return None,
            ref found => refused(found),
        };
        ctx.error_in(Code::TargetArguments, self.attr, arg.span, message)
            .hint(hint);
        None
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
                .hint(format!(
                    "write `{fname}(\"…\", exact = true)` for an exact match"
                ));
                None
            }
        }
    }

    /// Exactly one non-empty string argument.
    fn single_text(&self, ctx: &mut Ctx, what: &str) -> Option<String> {
        self.named_args(ctx, &[])?;
        self.arity(ctx, 1, 1, &format!("(\"{what}\")"))?;
        self.text_arg(ctx, 0, what).map(str::to_string)
    }

    /// `visual_point("@vN", x, y)`: a point of a desktop session's screenshot `@vN`, only in
    /// one agent statement — a suite is refused (`test.spec.visual_point_in_suite`): the
    /// screenshot belonged to one session, so no later run could prove the point means the same.
    fn visual_point(&self, ctx: &mut Ctx) -> Option<Target> {
        self.named_args(ctx, &[])?;
        self.arity(ctx, 3, 3, "(\"@v1\", x, y)")?;
        let shot = self.shot_arg(ctx);
        let x = self.pixel_arg(ctx, 1, "x");
        let y = self.pixel_arg(ctx, 2, "y");
        let (shot, x, y) = (shot?, x?, y?);
        if !ctx.in_statement() {
            ctx.error_in(
                Code::VisualPointInSuite,
                self.attr,
                self.value.span,
                "`visual_point(…)` names a point of one agent session's screenshot; a suite cannot hold it",
            )
            .hint("promote the session: the click is written as the element at that point");
            return None;
        }
        Some(Target::VisualPoint { shot, x, y })
    }

    /// The screenshot id `"@vN"` of `visual_point()` (N without leading zeros).
    fn shot_arg(&self, ctx: &mut Ctx) -> Option<u32> {
        let arg = self.positional[0];
        let text = match &arg.kind {
            ValueKind::String(s) => s,
            _ => {
                self.text_arg(ctx, 0, "screenshot id")?;
                return None;
            }
        };
        match parse_shot(text) {
            Some(n) => Some(n),
            None => {
                ctx.error_in(
                    Code::TargetArguments,
                    self.attr,
                    arg.span,
                    format!("\"{text}\" is not a screenshot id"),
                )
                .hint("a desktop session's screenshot answers with its id, e.g. \"@v1\"");
                None
            }
        }
    }

    /// A pixel coordinate of `visual_point()`: an integer from 0 to 32767 (an X screen's range).
    fn pixel_arg(&self, ctx: &mut Ctx, index: usize, what: &str) -> Option<u32> {
        let screen = 0..=i64::from(i16::MAX);
        let n = self.integer_arg(ctx, index, screen, |found| {
            (
                format!(
                    "{what} of `visual_point()` must be a pixel from 0 to 32767, found {}",
                    found.describe()
                ),
                "give pixels from the screenshot's top-left corner",
            )
        })?;
        u32::try_from(n).ok()
    }

    /// `ref("@eN")` / `ref("@cN")`.
    fn reference(&self, ctx: &mut Ctx) -> Option<ElementRef> {
        self.named_args(ctx, &[])?;
        self.arity(ctx, 1, 1, "(\"@e4\")")?;
        let arg = self.positional[0];
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

/// A regular expression literal: a non-empty body and flags from [`REGEX_FLAGS`], each once.
/// Whether the body is a valid JavaScript expression is known only to the page (JavaScript and
/// Rust regular expressions differ); a body the page rejects fails there as an invalid locator.
fn regex(ctx: &mut Ctx, attr: &str, arg: &Value, pattern: &str, flags: &str) -> Option<TextMatch> {
    if pattern.is_empty() {
        ctx.error_in(
            Code::InvalidRegex,
            attr,
            arg.span,
            "the regular expression is empty",
        );
        return None;
    }
    let mut seen = Vec::new();
    for f in flags.chars() {
        if !REGEX_FLAGS.contains(&f) || seen.contains(&f) {
            let problem = if seen.contains(&f) {
                format!("the flag `{f}` is given twice")
            } else {
                format!("`{f}` is not a flag a locator takes")
            };
            ctx.error_in(
                Code::InvalidRegex,
                attr,
                arg.span,
                format!("{problem} in /{pattern}/{flags}"),
            );
            return None;
        }
        seen.push(f);
    }
    Some(TextMatch::Regex {
        pattern: pattern.to_string(),
        flags: flags.to_string(),
    })
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
