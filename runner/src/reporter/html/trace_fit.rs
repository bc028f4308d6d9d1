//! Which parts of a scenario's trace section fit its budget, decided on their rendered sizes.
//!
//! Why sizes as rendered: an outline line with quotes grows by five bytes per `"` once escaped,
//! and the lists of what a step changed, the changes since the last green run, the ACL source
//! and the tags around them are all page bytes too. So `trace.rs` renders every part once, and
//! this module keeps parts in a fixed order of importance while they fit: the section starts as
//! its smallest form (timeline, each step's facts, a placeholder in place of every optional
//! part, the longest note this module can write) and each part kept adds its rendered size less
//! its placeholder's. Whatever is left out is counted in one visible note.

use crate::trace::diff::TraceDiff;
use crate::trace::record::Trace;
use std::collections::BTreeSet;

/// A part of the section the budget may leave out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Part {
    /// Step `n`'s screenshot.
    Image(usize),
    /// What changed at step `n` since the last green run.
    SinceGreen(usize),
    /// Step `n`'s outline changes, outline, console, page errors and requests.
    Text(usize),
    /// The scenario's ACL source.
    Source,
}

/// The parts kept.
#[derive(Debug, Default)]
pub(super) struct Kept(BTreeSet<Part>);

impl Kept {
    /// Whether `part` is shown.
    pub(super) fn has(&self, part: Part) -> bool {
        self.0.contains(&part)
    }

    /// What was left out, of the parts the trace has.
    pub(super) fn cuts(&self, steps: usize, has_image: &[bool], has_since: &[bool]) -> Cuts {
        let missing = |flags: &[bool], part: fn(usize) -> Part| {
            (0..steps)
                .filter(|&i| flags.get(i).copied().unwrap_or(false) && !self.has(part(i)))
                .count()
        };
        Cuts {
            images: missing(has_image, Part::Image),
            since: missing(has_since, Part::SinceGreen),
            texts: (0..steps).filter(|&i| !self.has(Part::Text(i))).count(),
            source: !self.has(Part::Source),
        }
    }
}

/// Counts of what the budget left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cuts {
    images: usize,
    since: usize,
    texts: usize,
    source: bool,
}

impl Cuts {
    /// Everything of `steps` steps left out: the longest note [`cut_note`] writes for them.
    pub(super) fn worst_case(steps: usize) -> Cuts {
        Cuts {
            images: steps,
            since: steps,
            texts: steps,
            source: true,
        }
    }
}

/// The steps whose parts come first: the step selected first (the failed one) and the first
/// step whose page differs from the last green run's.
pub(super) fn first_steps(trace: &Trace, diff: Option<&TraceDiff>) -> Vec<usize> {
    if trace.steps.is_empty() {
        return Vec::new();
    }
    let mut first = vec![super::trace::first_selected(trace)];
    let differs = diff
        .and_then(|d| d.first_difference.as_ref())
        .and_then(|at| trace.steps.iter().position(|s| s.index == at.index));
    first.extend(differs.filter(|i| !first.contains(i)));
    first
}

/// The order parts get room in: all parts of the [`first_steps`], the source, every other
/// step's changes since the last green run, then their screenshots, then their outlines and logs.
pub(super) fn part_order(first: &[usize], steps: usize, has_since: &[bool]) -> Vec<Part> {
    let since = |i: usize| has_since.get(i).copied().unwrap_or(false);
    let mut order = Vec::with_capacity(steps * 3 + 1);
    for &i in first {
        order.extend(since(i).then_some(Part::SinceGreen(i)));
        order.extend([Part::Text(i), Part::Image(i)]);
    }
    order.push(Part::Source);
    let rest: Vec<usize> = (0..steps).filter(|i| !first.contains(i)).collect();
    order.extend(
        rest.iter()
            .filter(|&&i| since(i))
            .map(|&i| Part::SinceGreen(i)),
    );
    order.extend(rest.iter().map(|&i| Part::Image(i)));
    order.extend(rest.iter().map(|&i| Part::Text(i)));
    order
}

/// Keep each part of `order` whose `growth` (bytes over its placeholder) still fits in `left`.
/// A part that does not fit is skipped, not the end: a later, smaller one may still fit.
pub(super) fn choose(mut left: usize, order: Vec<Part>, growth: impl Fn(Part) -> usize) -> Kept {
    let mut kept = Kept::default();
    for part in order {
        let bytes = growth(part);
        if bytes <= left {
            left -= bytes;
            kept.0.insert(part);
        }
    }
    kept
}

/// The visible note of what the budget left out, `None` when nothing was.
pub(super) fn cut_note(cuts: &Cuts) -> Option<String> {
    let mut what = Vec::new();
    if cuts.images > 0 {
        what.push(format!("{} screenshot(s)", cuts.images));
    }
    if cuts.since > 0 {
        what.push(format!(
            "what changed since the last green run at {} step(s)",
            cuts.since
        ));
    }
    if cuts.texts > 0 {
        what.push(format!("the outline and logs of {} step(s)", cuts.texts));
    }
    if cuts.source {
        what.push("the ACL source".to_string());
    }
    (!what.is_empty()).then(|| {
        format!(
            "Left out to keep this trace within the report's {} KB per scenario: {} (all of \
             it is in the scenario's trace folder and the JSON result).",
            super::trace_view::TRACE_REPORT_BUDGET / 1000,
            what.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_kept_in_order_while_they_fit_and_a_smaller_later_one_still_can() {
        let order = part_order(&[2], 3, &[false, true, true]);
        assert_eq!(
            order,
            [
                Part::SinceGreen(2),
                Part::Text(2),
                Part::Image(2),
                Part::Source,
                Part::SinceGreen(1),
                Part::Image(0),
                Part::Image(1),
                Part::Text(0),
                Part::Text(1),
            ]
        );
        let size = |p: Part| match p {
            Part::Image(_) => 50,
            Part::Text(0) => 100,
            _ => 10,
        };
        let kept = choose(150, order, size);
        // 10 + 10 + 50 + 10 + 10 + 50 = 140; Image(1) and Text(0) do not fit, Text(1) does.
        assert!(kept.has(Part::Image(0)) && kept.has(Part::Text(1)));
        assert!(!kept.has(Part::Image(1)) && !kept.has(Part::Text(0)));
        let cuts = kept.cuts(3, &[true, true, true], &[false, true, true]);
        assert_eq!(
            cut_note(&cuts).unwrap(),
            "Left out to keep this trace within the report's 2000 KB per scenario: 1 \
             screenshot(s), the outline and logs of 1 step(s) (all of it is in the scenario's \
             trace folder and the JSON result)."
        );
        assert!(cut_note(&Kept::default().cuts(0, &[], &[])).is_some_and(|n| n.contains("source")));
    }

    #[test]
    fn the_worst_case_note_is_the_longest() {
        let worst = cut_note(&Cuts::worst_case(20)).unwrap().len();
        for (images, since, texts, source) in
            [(20, 20, 20, true), (3, 0, 19, false), (0, 0, 0, true)]
        {
            let note = cut_note(&Cuts {
                images,
                since,
                texts,
                source,
            })
            .unwrap();
            assert!(note.len() <= worst, "{note}");
        }
    }
}
