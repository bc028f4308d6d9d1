//! Stability windows on `expect` (`docs/acl.md` §7): `stable_for_ms` and `sample_interval_ms`.
//!
//! Limits (all `test.spec.stability_limit`): the window is 10–60,000 ms; the interval is
//! 1 ms–window; planned samples `ceil(window / interval) + 1` are at most 1,001.
//!
//! Default interval: `max(min(50, window), ceil(window / 1000))`. A plain `min(50, window)` would
//! plan more than 1,001 samples for windows above 50,000 ms and so reject a window that is itself
//! allowed; the raised default is the same for every window up to 50,000 ms and the coarsest
//! interval that keeps a longer window within the sample limit.

use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::values::integer;
use crate::code::Code;
use crate::ir::Stability;

/// Shortest stability window.
pub(super) const MIN_WINDOW_MS: i64 = 10;
/// Longest stability window.
pub(super) const MAX_WINDOW_MS: i64 = 60_000;
/// Most samples a window may plan.
pub(super) const MAX_SAMPLES: i64 = 1_001;

/// The default interval for a window (see the module docs).
pub(super) fn default_interval(window: u32) -> u32 {
    window.min(50).max(window.div_ceil(1000))
}

/// Read the stability attributes of an `expect`: `Ok(None)` when absent, `Err(())` when reported.
pub(super) fn stability(ctx: &mut Ctx, fields: &Fields<'_>) -> Result<Option<Stability>, ()> {
    let window_attr = fields.get("stable_for_ms");
    let interval_attr = fields.get("sample_interval_ms");
    let window = match window_attr {
        None => None,
        Some(attr) => {
            let Some(n) = integer(ctx, attr) else {
                if let Some(interval) = interval_attr {
                    integer(ctx, interval);
                }
                return Err(());
            };
            if !(MIN_WINDOW_MS..=MAX_WINDOW_MS).contains(&n) {
                ctx.error_in(
                    Code::StabilityLimit,
                    "stable_for_ms",
                    attr.value.span,
                    format!("`stable_for_ms` must be between {MIN_WINDOW_MS} and {MAX_WINDOW_MS}, found {n}"),
                )
                .hint(format!("give a window of {MIN_WINDOW_MS} to {MAX_WINDOW_MS} ms"));
                // Still type-check the interval so a second mistake is not hidden.
                if let Some(interval) = interval_attr {
                    integer(ctx, interval);
                }
                return Err(());
            }
            Some(n)
        }
    };
    let Some(attr) = interval_attr else {
        return Ok(window.map(|w| {
            let w = w as u32;
            Stability {
                stable_for_ms: w,
                sample_interval_ms: default_interval(w),
            }
        }));
    };
    let interval = integer(ctx, attr).ok_or(())?;
    let Some(window) = window else {
        ctx.error_in(
            Code::StabilityLimit,
            "sample_interval_ms",
            attr.name.span,
            "`sample_interval_ms` needs `stable_for_ms`",
        )
        .hint("add `stable_for_ms = …` or remove `sample_interval_ms`");
        return Err(());
    };
    if interval < 1 || interval > window {
        ctx.error_in(
            Code::StabilityLimit,
            "sample_interval_ms",
            attr.value.span,
            format!("`sample_interval_ms` must be between 1 and the window ({window}), found {interval}"),
        )
        .hint(format!("give an interval of 1 to {window} ms"));
        return Err(());
    }
    let samples = (window + interval - 1) / interval + 1;
    if samples > MAX_SAMPLES {
        let min_interval = (window + MAX_SAMPLES - 2) / (MAX_SAMPLES - 1);
        ctx.error_in(
            Code::StabilityLimit,
            "sample_interval_ms",
            attr.value.span,
            format!("a {window} ms window sampled every {interval} ms plans {samples} samples; the limit is {MAX_SAMPLES}"),
        )
        .hint(format!("sample at most every {min_interval} ms, or shorten the window"));
        return Err(());
    }
    Ok(Some(Stability {
        stable_for_ms: window as u32,
        sample_interval_ms: interval as u32,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_interval_keeps_every_allowed_window_admissible() {
        assert_eq!(default_interval(10), 10);
        assert_eq!(default_interval(1000), 50);
        assert_eq!(default_interval(50_000), 50);
        assert_eq!(default_interval(60_000), 60);
        for window in (MIN_WINDOW_MS as u32)..=(MAX_WINDOW_MS as u32) {
            let s = Stability {
                stable_for_ms: window,
                sample_interval_ms: default_interval(window),
            };
            assert!(i64::from(s.planned_samples()) <= MAX_SAMPLES, "{window}");
            assert!(s.sample_interval_ms <= window && s.sample_interval_ms >= 1);
        }
    }
}
