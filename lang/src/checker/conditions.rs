//! `wait` (`docs/acl.md` §8) and `expect` (`docs/acl.md` §9) conditions.
//!
//! Both blocks hold exactly one condition attribute (`test.spec.missing_condition` /
//! `test.spec.conflicting_conditions`). Some `expect` forms take helper attributes — `target` for
//! the forms that compare one element's value (`rendered_text = "…"` with `target = css(…)`), and
//! `relative_to` / `tolerance_px` for `layout`; a helper attribute no present condition uses is
//! `test.spec.condition_attribute`. Inline forms carry their target as their own value:
//! `visible = role("button", "Pay")`, `enabled = label("Email")`, `hidden = css(".spinner")`.
//!
//! Stable-target rules: a ref is bound to one observation, so a condition that could pass because
//! an element *disappeared* or that *counts* matches — `hidden`, `in_viewport`, `pointer_reachable`,
//! `rendered_texts`, `visible_count` and both sides of `layout` — rejects a ref with its own code.

use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::stability::stability;
use super::suite::MAX_TIMEOUT_MS;
use super::targets::target;
use super::text::text_value;
use super::values::{
    boolean, keyword, non_empty, optional, string, string_list, string_list_with, u32_in, u64_in,
    ItemRules,
};
use crate::ast::Attribute;
use crate::code::Code;
use crate::ir::{
    ExpectCondition, ExpectForm, Expectation, LayoutRelation, LoadState, NetworkEvent, NetworkWait,
    PageCondition, Target, WaitCondition,
};
use std::sync::LazyLock;

/// Attributes of `wait`: one condition each.
pub(super) const WAIT_SCHEMA: &[&str] = &[
    "load", "text", "url", "visible", "hidden", "request", "response", "status",
];

/// Attributes of `expect`: every form ([`ExpectForm::all`]), the helper attributes, and
/// stability.
pub(super) static EXPECT_SCHEMA: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    ExpectForm::all()
        .map(ExpectForm::name)
        .chain(HELPERS.iter().copied())
        .chain(["stable_for_ms", "sample_interval_ms"])
        .chain(WAITING)
        .chain(["soft"])
        .collect()
});

/// Most items in `rendered_texts`.
pub(super) const MAX_RENDERED_TEXTS: usize = 256;
/// Largest `visible_count` (a sanity bound: no page shows a million matches of one target).
pub(super) const MAX_VISIBLE_COUNT: u32 = 1_000_000;
/// Largest `tolerance_px`.
pub(super) const MAX_TOLERANCE_PX: u32 = 1024;

/// How long an `expect` waits for its condition: `timeout_ms` (its own expect timeout) or
/// `immediate = true` (one observation).
const WAITING: [&str; 2] = ["timeout_ms", "immediate"];

/// The helper attributes an `expect` form may use.
const HELPERS: &[&str] = &[
    "target",
    "relative_to",
    "tolerance_px",
    "max_diff_pixels",
    "max_diff_ratio",
    "threshold",
    "mask",
    "full_page",
    "animations",
];

/// Whether form `form` reads helper attribute `helper`.
fn uses(form: ExpectForm, helper: &str) -> bool {
    match helper {
        "target" => form.reads_target(),
        "relative_to" | "tolerance_px" => form == ExpectForm::Layout,
        h if super::snapshot::VISUAL_HELPERS.contains(&h) => form == ExpectForm::Screenshot,
        _ => false,
    }
}

/// Report a missing or repeated condition; returns the first condition in source order.
fn single_condition<'a>(
    ctx: &mut Ctx,
    fields: &Fields<'a>,
    is_condition: fn(&str) -> bool,
) -> Option<&'a Attribute> {
    let block = fields.block();
    let kind = &block.kind.name;
    let mut conditions = fields.present(is_condition);
    let Some(first) = conditions.next() else {
        if fields.misspelt_any(is_condition) {
            // `txt = "…"` was reported as a misspelt condition; "no condition" would repeat it.
            return None;
        }
        let examples = if kind == "wait" {
            "`load = \"networkidle\"`, `text = \"…\"`, `url = \"…\"`, `visible = <target>`, `hidden = <target>`, `request = \"…\"` or `response = \"…\"`"
        } else {
            "`text = \"…\"`, `visible = <target>`, `enabled = <target>` or `rendered_text = \"…\"` with `target`"
        };
        ctx.error(
            Code::MissingCondition,
            header(block),
            format!("`{kind}` has no condition"),
        )
        .hint(format!("give it exactly one condition, such as {examples}"));
        return None;
    };
    for extra in conditions {
        let (a, b) = (&first.name.name, &extra.name.name);
        ctx.error_in(
            Code::ConflictingConditions,
            b,
            extra.name.span,
            format!("`{kind}` has more than one condition: `{a}` and `{b}`"),
        )
        .also(first.name.span, "first condition here")
        .hint(format!("split them into two `{kind}` steps"));
    }
    Some(first)
}

/// A target that must be re-resolvable (not a ref); `code` names the form's rule.
fn stable_target(ctx: &mut Ctx, attr: &Attribute, code: Code, form: &str) -> Option<Target> {
    let t = target(ctx, &attr.name.name, &attr.value)?;
    if !t.is_stable() {
        ctx.error_in(
            code,
            &attr.name.name,
            attr.value.span,
            format!("`{form}` needs a stable target, not a ref bound to one observation"),
        );
        return None;
    }
    Some(t)
}

/// The values of a `wait`'s `load`.
pub(super) const LOAD_STATES: &[&str] = &["domcontentloaded", "networkidle"];

/// `wait { <condition> }`.
pub(super) fn wait(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<WaitCondition> {
    let first = single_condition(ctx, fields, |name| name != "status");
    let status = fields.get("status");
    let first = match (first, status) {
        (Some(first), Some(status)) if first.name.name != "response" => {
            ctx.error_in(
                Code::ConditionAttribute,
                "status",
                status.name.span,
                format!("`status` has no effect on `wait {{ {} }}`", first.name.name),
            )
            .also(first.name.span, "the condition")
            .hint("`status` belongs to `wait { response = \"…\" status = 200 }`: remove it");
            return None;
        }
        (first, _) => first?,
    };
    match first.name.name.as_str() {
        "request" | "response" => {
            let event = if first.name.name == "request" {
                NetworkEvent::Request
            } else {
                NetworkEvent::Response
            };
            let pattern = super::network::url_pattern(ctx, first);
            let status = match status {
                Some(a) => u32_in(ctx, a, 100, 599)
                    .and_then(|s| u16::try_from(s).ok())
                    .map(Some),
                None => Some(None),
            };
            return Some(WaitCondition::Network {
                wait: NetworkWait {
                    event,
                    pattern: pattern?,
                    status: status?,
                },
            });
        }
        "load" => {
            let all = [LoadState::Domcontentloaded, LoadState::Networkidle];
            let state = keyword(ctx, first, LOAD_STATES, |s| {
                all.into_iter().find(|st| load_keyword(*st) == s)
            })?;
            return Some(WaitCondition::Load { state });
        }
        "text" => non_empty(ctx, first).map(|t| PageCondition::Text {
            text: t.to_string(),
        }),
        "url" => non_empty(ctx, first).map(|u| PageCondition::Url { url: u.to_string() }),
        "visible" => {
            target(ctx, "visible", &first.value).map(|target| PageCondition::Visible { target })
        }
        _ => stable_target(ctx, first, Code::HiddenTargetUnstable, "hidden")
            .map(|target| PageCondition::Hidden { target }),
    }
    .map(WaitCondition::Page)
}

fn load_keyword(state: LoadState) -> &'static str {
    match state {
        LoadState::Domcontentloaded => "domcontentloaded",
        LoadState::Networkidle => "networkidle",
    }
}

/// `expect { <condition> [helpers] [stability] }`.
pub(super) fn expect(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Expectation> {
    let is_condition = |name: &str| ExpectForm::from_name(name).is_some();
    let stability = stability(ctx, fields);
    let first = single_condition(ctx, fields, is_condition);
    if let Some(first) = first {
        for helper in HELPERS {
            let Some(attr) = fields.get(helper) else {
                continue;
            };
            let used = fields
                .present(is_condition)
                .filter_map(|c| ExpectForm::from_name(&c.name.name))
                .any(|f| uses(f, helper));
            if !used {
                let form = &first.name.name;
                ctx.error_in(
                    Code::ConditionAttribute,
                    helper,
                    attr.name.span,
                    format!("`{helper}` does not belong to an `expect` on `{form}`"),
                )
                .hint(helper_hint(helper, form));
            }
        }
    }
    let waiting = waiting(ctx, fields);
    let first = first?;
    let form = ExpectForm::from_name(&first.name.name)?;
    if matches!(form, ExpectForm::Screenshot | ExpectForm::AriaSnapshot) {
        // A snapshot expectation waits until it matches; a window after that means nothing.
        for name in ["stable_for_ms", "sample_interval_ms"] {
            if let Some(attr) = fields.get(name) {
                ctx.error_in(
                    Code::ConditionAttribute,
                    name,
                    attr.name.span,
                    format!(
                        "`{name}` does not belong to an `expect` on `{}`",
                        form.name()
                    ),
                )
                .hint("a snapshot expectation already waits for the page to hold still; remove it");
            }
        }
    }
    let condition = condition(ctx, fields, form, first);
    let soft = match fields.get("soft") {
        Some(attr) => boolean(ctx, attr),
        None => Some(false),
    };
    let (timeout_ms, immediate) = waiting?;
    Some(Expectation {
        condition: condition?,
        stability: stability.ok()?,
        timeout_ms,
        immediate,
        soft: soft?,
    })
}

/// `timeout_ms` (1–3,600,000 ms) and `immediate`; both at once is a contradiction.
fn waiting(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<(Option<u64>, bool)> {
    let timeout = fields
        .get("timeout_ms")
        .map(|a| u64_in(ctx, a, 1, MAX_TIMEOUT_MS));
    let immediate = match fields.get("immediate") {
        Some(a) => boolean(ctx, a),
        None => Some(false),
    };
    let (timeout, immediate) = (optional(timeout)?, immediate?);
    if let (true, Some(_), Some(attr)) = (immediate, timeout, fields.get("timeout_ms")) {
        ctx.error_in(
            Code::InvalidValue,
            "timeout_ms",
            attr.name.span,
            "`timeout_ms` has no effect on an `expect` with `immediate = true`",
        )
        .hint(
            "remove `immediate` to wait up to `timeout_ms`, or remove `timeout_ms` to check once",
        );
        return None;
    }
    Some((timeout, immediate))
}

fn helper_hint(helper: &str, form: &str) -> String {
    match helper {
        "target" if matches!(form, "text" | "url") => {
            format!("`{form}` checks the whole page; remove `target`")
        }
        "target" => format!("`{form}` carries its own target (`{form} = css(…)`); remove `target`"),
        h if super::snapshot::VISUAL_HELPERS.contains(&h) => {
            format!("`{helper}` is only used by `screenshot`; remove it")
        }
        _ => format!("`{helper}` is only used by `layout`; remove it"),
    }
}

/// The separate `target` of a form that needs one.
fn helper_target(
    ctx: &mut Ctx,
    fields: &Fields<'_>,
    form: &str,
    stable: Option<Code>,
) -> Option<Target> {
    let Some(attr) = fields.get("target") else {
        fields.report_missing(
            ctx,
            "target",
            format!("`{form}` needs a `target`"),
            format!("add `target = role(…)` naming the element `{form}` reads"),
        );
        return None;
    };
    match stable {
        Some(code) => stable_target(ctx, attr, code, form),
        None => target(ctx, "target", &attr.value),
    }
}

fn condition(
    ctx: &mut Ctx,
    fields: &Fields<'_>,
    form: ExpectForm,
    attr: &Attribute,
) -> Option<ExpectCondition> {
    let name = attr.name.name.as_str();
    Some(match form {
        ExpectForm::Text => ExpectCondition::Page(PageCondition::Text {
            text: non_empty(ctx, attr)?.to_string(),
        }),
        ExpectForm::Url => ExpectCondition::Page(PageCondition::Url {
            url: non_empty(ctx, attr)?.to_string(),
        }),
        ExpectForm::Visible => ExpectCondition::Page(PageCondition::Visible {
            target: target(ctx, name, &attr.value)?,
        }),
        ExpectForm::Hidden => ExpectCondition::Page(PageCondition::Hidden {
            target: stable_target(ctx, attr, Code::HiddenTargetUnstable, name)?,
        }),
        ExpectForm::InViewport => ExpectCondition::InViewport {
            target: stable_target(ctx, attr, Code::InViewportTargetUnstable, name)?,
        },
        ExpectForm::PointerReachable => ExpectCondition::PointerReachable {
            target: stable_target(ctx, attr, Code::PointerReachableTargetUnstable, name)?,
        },
        ExpectForm::State(state) => ExpectCondition::State {
            target: target(ctx, name, &attr.value)?,
            state,
        },
        ExpectForm::RenderedText => {
            let t = helper_target(ctx, fields, name, None);
            let text = string(ctx, attr);
            ExpectCondition::RenderedText {
                target: t?,
                text: text?.to_string(),
            }
        }
        ExpectForm::Value => {
            let t = helper_target(ctx, fields, name, None);
            let value = text_value(ctx, attr, false);
            ExpectCondition::Value {
                target: t?,
                value: value?,
            }
        }
        ExpectForm::RenderedTexts => {
            let t = helper_target(ctx, fields, name, Some(Code::RenderedTextsTargetUnstable));
            let texts = string_list(ctx, attr);
            if let Some(texts) = &texts {
                if texts.len() > MAX_RENDERED_TEXTS {
                    ctx.error_in(
                        Code::InvalidValue,
                        name,
                        attr.value.span,
                        format!(
                            "`rendered_texts` lists {} texts; the limit is {MAX_RENDERED_TEXTS}",
                            texts.len()
                        ),
                    )
                    .hint("check a shorter collection, or split it with more specific targets");
                    return None;
                }
            }
            ExpectCondition::RenderedTexts {
                target: t?,
                texts: texts?.into_iter().map(str::to_string).collect(),
            }
        }
        ExpectForm::VisibleCount => {
            let t = helper_target(ctx, fields, name, Some(Code::VisibleCountTargetUnstable));
            let count = u32_in(ctx, attr, 0, MAX_VISIBLE_COUNT);
            ExpectCondition::VisibleCount {
                target: t?,
                count: count?,
            }
        }
        ExpectForm::SelectedValues => {
            let t = helper_target(ctx, fields, name, None);
            let rules = ItemRules {
                non_empty: false,
                unique: true,
                at_least_one: false,
            };
            let values = string_list_with(ctx, attr, rules);
            ExpectCondition::SelectedValues {
                target: t?,
                values: values?.into_iter().map(str::to_string).collect(),
            }
        }
        ExpectForm::ViewportCoverage(bound) => {
            let t = helper_target(ctx, fields, name, None);
            let percent = u32_in(ctx, attr, 0, 100);
            ExpectCondition::ViewportCoverage {
                target: t?,
                bound,
                percent: percent?,
            }
        }
        ExpectForm::Layout => layout(ctx, fields, attr)?,
        ExpectForm::Screenshot => super::snapshot::screenshot(ctx, fields, attr)?,
        ExpectForm::AriaSnapshot => super::snapshot::aria(ctx, fields, attr)?,
    })
}

fn layout(ctx: &mut Ctx, fields: &Fields<'_>, attr: &Attribute) -> Option<ExpectCondition> {
    let relation = keyword(
        ctx,
        attr,
        LayoutRelation::KEYWORDS,
        LayoutRelation::from_keyword,
    );
    let t = helper_target(ctx, fields, "layout", Some(Code::LayoutTargetUnstable));
    let relative_to = match fields.get("relative_to") {
        Some(other) => stable_target(ctx, other, Code::LayoutTargetUnstable, "layout"),
        None => {
            fields.report_missing(
                ctx,
                "relative_to",
                "`layout` needs `relative_to`".to_string(),
                "add `relative_to = role(…)` naming the element to compare against".to_string(),
            );
            None
        }
    };
    let tolerance = match fields.get("tolerance_px") {
        Some(tol) => u32_in(ctx, tol, 0, MAX_TOLERANCE_PX),
        None => Some(0),
    };
    Some(ExpectCondition::Layout {
        target: t?,
        relation: relation?,
        relative_to: relative_to?,
        tolerance_px: tolerance?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ElementState;

    #[test]
    fn expect_schema_names_every_form_and_state() {
        for state in ElementState::ALL {
            assert!(EXPECT_SCHEMA.contains(&state.keyword()), "{state:?}");
        }
        for name in EXPECT_SCHEMA.iter() {
            let known = ExpectForm::from_name(name).is_some()
                || HELPERS.contains(name)
                || matches!(*name, "stable_for_ms" | "sample_interval_ms")
                || WAITING.contains(name)
                || *name == "soft";
            assert!(known, "{name}");
        }
        assert_eq!(EXPECT_SCHEMA.len(), 50);
        assert!(EXPECT_SCHEMA.len() <= super::super::fields::MAX_SCHEMA);
    }
}
