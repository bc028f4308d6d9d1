//! Scenario annotations (`docs/acl.md` §2, "Annotations"): `skip = "reason"`,
//! `fixme = "reason"`, `slow = true`, `only = true`.
//!
//! A reason is required and non-empty, because a skipped scenario is reported with it and a
//! skip nobody can explain is a deleted test in disguise. `skip` and `fixme` say the same thing
//! (not run) for different reasons, so a scenario takes at most one of them
//! (`test.spec.conflicting_annotations`).

use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::values::{boolean, non_empty};
use crate::code::Code;
use crate::ir::{Annotations, SkipAnnotation};

/// Read the annotations of a scenario's `fields`.
pub(super) fn annotations(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Annotations> {
    let skip = fields.get("skip").map(|a| non_empty(ctx, a));
    let fixme = fields.get("fixme").map(|a| non_empty(ctx, a));
    let slow = fields.get("slow").map(|a| boolean(ctx, a));
    let only = fields.get("only").map(|a| boolean(ctx, a));
    if let (Some(first), Some(second)) = (fields.get("skip"), fields.get("fixme")) {
        let (first, second) = if first.span.start <= second.span.start {
            (first, second)
        } else {
            (second, first)
        };
        ctx.error_in(
            Code::ConflictingAnnotations,
            &second.name.name,
            second.span,
            "a scenario is either `skip` or `fixme`, not both",
        )
        .also(first.span, "already annotated here");
        return None;
    }
    let skip = match (skip, fixme) {
        (Some(reason), _) => Some(SkipAnnotation::Skip(reason?.to_string())),
        (None, Some(reason)) => Some(SkipAnnotation::Fixme(reason?.to_string())),
        (None, None) => None,
    };
    Some(Annotations {
        skip,
        slow: slow.unwrap_or(Some(false))?,
        only: only.unwrap_or(Some(false))?,
    })
}
