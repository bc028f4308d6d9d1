//! The clock steps (`docs/acl.md` §5, "The clock"): `clock_fast_forward { ms }`,
//! `clock_pause_at { time }`, `clock_resume`, `clock_set_fixed_time { time }`, and the RFC 3339
//! instants they and `clock = { install_at }` take.
//!
//! Instants are parsed with the `time` crate's RFC 3339 reader, so a date that does not exist
//! (`2020-02-30`) or lacks its offset is refused at its span (`test.spec.invalid_time`) rather
//! than read in some local zone.

use super::context::Ctx;
use super::fields::Fields;
use super::values::{string, u64_in};
use crate::ast::Attribute;
use crate::code::Code;
use crate::ir::{Action, ActionKind, ClockTime};

/// Longest fast-forward: one year, in ms (every timer of a year-long session fires on the way,
/// so a longer jump is most likely a unit mistake).
pub(super) const MAX_FAST_FORWARD_MS: u64 = 365 * 24 * 3_600_000;

/// The attributes of the clock step `kind`.
pub(super) fn schema(kind: ActionKind) -> &'static [&'static str] {
    match kind {
        ActionKind::ClockFastForward => &["ms"],
        ActionKind::ClockPauseAt | ActionKind::ClockSetFixedTime => &["time"],
        _ => &[],
    }
}

/// Check clock step `kind` and build its action.
pub(super) fn step(ctx: &mut Ctx, f: &Fields<'_>, kind: ActionKind) -> Option<Action> {
    Some(match kind {
        ActionKind::ClockFastForward => {
            let ms = f
                .required(ctx, "ms")
                .and_then(|a| u64_in(ctx, a, 1, MAX_FAST_FORWARD_MS));
            Action::ClockFastForward { ms: ms? }
        }
        ActionKind::ClockPauseAt => Action::ClockPauseAt {
            time: f.required(ctx, "time").and_then(|a| clock_time(ctx, a))?,
        },
        ActionKind::ClockSetFixedTime => Action::ClockSetFixedTime {
            time: f.required(ctx, "time").and_then(|a| clock_time(ctx, a))?,
        },
        _ => Action::ClockResume,
    })
}

/// An RFC 3339 instant (`2020-01-01T00:00:00Z`, `2024-03-01T09:30:00+01:00`).
pub(super) fn clock_time(ctx: &mut Ctx, attr: &Attribute) -> Option<ClockTime> {
    let text = string(ctx, attr)?;
    let format = time::format_description::well_known::Rfc3339;
    match time::OffsetDateTime::parse(text, &format) {
        Ok(at) => {
            let unix_ms = at.unix_timestamp_nanos() / 1_000_000;
            let unix_ms = i64::try_from(unix_ms).ok()?;
            Some(ClockTime {
                unix_ms,
                text: text.to_string(),
            })
        }
        Err(e) => {
            let name = &attr.name.name;
            ctx.error_in(
                Code::InvalidTime,
                name,
                attr.value.span,
                format!("\"{text}\" is not an RFC 3339 date and time: {e}"),
            );
            None
        }
    }
}
