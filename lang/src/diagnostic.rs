//! One diagnostic type for every admission problem.
//!
//! A [`Diagnostic`] is plain data: a stable [`Code`], a severity, a logical path into the document
//! (`suite.checkout.scenario.guest.click.pay.target`), a primary label with its span, optional
//! secondary labels, and a one-line hint. Renderers under [`crate::render`] turn it into text for
//! people (ariadne), JSON for machines and GitHub workflow annotations; nothing here prints.

use crate::code::Code;
use crate::span::Span;
use serde::{Deserialize, Serialize};

/// How serious a diagnostic is. Admission errors block a file; warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file is not admitted.
    Error,
    /// Admitted, but worth a look.
    Warning,
}

/// A secondary location that explains the primary one (e.g. "first defined here").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecondaryLabel {
    /// Where.
    pub span: Span,
    /// What it has to do with the problem.
    pub message: String,
}

/// A problem found while admitting one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The logical path of the offending node; empty for whole-file problems.
    pub path: String,
    /// The primary location.
    pub span: Span,
    /// What is wrong, in one sentence without a trailing period.
    pub message: String,
    /// How to fix it, in one line.
    pub hint: String,
    /// Related locations.
    pub secondary: Vec<SecondaryLabel>,
}

impl Diagnostic {
    /// An error with the code's default hint.
    pub fn error(
        code: Code,
        path: impl Into<String>,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            path: path.into(),
            span,
            message: message.into(),
            hint: code.default_hint().to_string(),
            secondary: Vec::new(),
        }
    }

    /// Replace the hint with a sharper one (e.g. "did you mean `click`?").
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = hint.into();
        self
    }

    /// Add a secondary label.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(SecondaryLabel {
            span,
            message: message.into(),
        });
        self
    }

    /// True when this diagnostic blocks admission.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Sort diagnostics by position, then code, so every renderer is deterministic and reads top-down.
pub fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| order_key(a).cmp(&order_key(b)));
}

/// The order diagnostics are reported in: position, then code, path and message (so equal
/// positions still sort the same way every time).
fn order_key(d: &Diagnostic) -> (usize, usize, Code, &str, &str) {
    (d.span.start, d.span.end, d.code, &d.path, &d.message)
}

/// The first `limit` diagnostics (in report order) of a stream that may be far longer, and a
/// count by severity of the rest — so a file with a problem every few bytes never holds more
/// than `limit` diagnostics at once while it is admitted (the cap then reports the first
/// [`MAX_DIAGNOSTICS`] and counts the rest, exactly as if all had been kept).
#[derive(Debug)]
pub struct FirstDiagnostics {
    limit: usize,
    heap: std::collections::BinaryHeap<InOrder>,
    omitted: Omitted,
}

/// A diagnostic ordered by [`order_key`], for the heap of [`FirstDiagnostics`].
#[derive(Debug)]
struct InOrder(Diagnostic);

impl PartialEq for InOrder {
    fn eq(&self, other: &Self) -> bool {
        order_key(&self.0) == order_key(&other.0)
    }
}
impl Eq for InOrder {}
impl PartialOrd for InOrder {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for InOrder {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        order_key(&self.0).cmp(&order_key(&other.0))
    }
}

impl FirstDiagnostics {
    /// Keep at most `limit` (`None`: keep everything).
    pub fn new(limit: Option<usize>) -> Self {
        FirstDiagnostics {
            limit: limit.unwrap_or(usize::MAX),
            heap: std::collections::BinaryHeap::new(),
            omitted: Omitted::default(),
        }
    }

    /// Take one; past the limit the last in report order is dropped and counted.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.heap.push(InOrder(diagnostic));
        if self.heap.len() > self.limit {
            if let Some(InOrder(dropped)) = self.heap.pop() {
                if dropped.is_error() {
                    self.omitted.errors += 1;
                } else {
                    self.omitted.warnings += 1;
                }
            }
        }
    }

    /// The kept diagnostics in report order, and what was dropped.
    pub fn finish(self) -> (Vec<Diagnostic>, Omitted) {
        let kept = self
            .heap
            .into_sorted_vec()
            .into_iter()
            .map(|d| d.0)
            .collect();
        (kept, self.omitted)
    }
}

/// Most diagnostics reported for one file (or one statement); the rest are counted in one summary.
///
/// Why a cap: a hostile or broken file can hold a problem every few bytes (a line of 4,000 stray
/// escapes is 24 KB), and every diagnostic quotes its source. A hundred is more than anyone
/// fixes before checking again, and keeps the work and the output of one file bounded.
pub const MAX_DIAGNOSTICS: usize = 100;

/// What [`cap`] left out: counted by severity, so a summary line can still say how many errors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Omitted {
    /// Errors not reported.
    pub errors: usize,
    /// Warnings not reported.
    pub warnings: usize,
}

impl Omitted {
    /// Everything left out.
    pub fn total(self) -> usize {
        self.errors + self.warnings
    }
}

/// Keep the first [`MAX_DIAGNOSTICS`] of `diagnostics` (already sorted) and, when more were found,
/// append one `test.spec.too_many_diagnostics` summary at the first one left out.
pub fn cap(diagnostics: &mut Vec<Diagnostic>) -> Omitted {
    cap_after(diagnostics, Omitted::default())
}

/// [`cap`] when `earlier` were already dropped past the end of `diagnostics` (by a
/// [`FirstDiagnostics`] that kept more than [`MAX_DIAGNOSTICS`] of them): the summary counts both.
pub fn cap_after(diagnostics: &mut Vec<Diagnostic>, earlier: Omitted) -> Omitted {
    if diagnostics.len() <= MAX_DIAGNOSTICS {
        debug_assert_eq!(earlier, Omitted::default(), "dropped ones follow kept ones");
        return earlier;
    }
    let rest = diagnostics.split_off(MAX_DIAGNOSTICS);
    let errors = rest.iter().filter(|d| d.is_error()).count();
    let omitted = Omitted {
        errors: errors + earlier.errors,
        warnings: rest.len() - errors + earlier.warnings,
    };
    let at = rest[0].span.start;
    let noun = if omitted.total() == 1 {
        "diagnostic"
    } else {
        "diagnostics"
    };
    diagnostics.push(Diagnostic::error(
        Code::TooManyDiagnostics,
        "",
        Span::new(at, at),
        format!(
            "{} more {noun} in this file not shown (only the first {MAX_DIAGNOSTICS} are reported)",
            omitted.total()
        ),
    ));
    omitted
}

/// The closest candidate to a misspelt name, for "did you mean …?" hints.
///
/// Why edit distance with a length-scaled cut-off: a one-letter slip in a short block name
/// (`clik`) should be caught, but `url` must not be "corrected" to an unrelated three-letter word.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_keeps_the_first_hundred_and_counts_the_rest() {
        let one = |i: usize| Diagnostic::error(Code::InvalidToken, "", Span::new(i, i + 1), "x");
        let mut few: Vec<Diagnostic> = (0..MAX_DIAGNOSTICS).map(one).collect();
        assert_eq!(cap(&mut few), Omitted::default());
        assert_eq!(few.len(), MAX_DIAGNOSTICS);
        let mut many: Vec<Diagnostic> = (0..MAX_DIAGNOSTICS + 7).map(one).collect();
        let omitted = cap(&mut many);
        assert_eq!(
            omitted,
            Omitted {
                errors: 7,
                warnings: 0
            }
        );
        assert_eq!(many.len(), MAX_DIAGNOSTICS + 1);
        let summary = many.last().unwrap();
        assert_eq!(summary.code, Code::TooManyDiagnostics);
        assert_eq!(summary.span, Span::new(MAX_DIAGNOSTICS, MAX_DIAGNOSTICS));
        assert!(
            summary.message.starts_with("7 more diagnostics"),
            "{}",
            summary.message
        );
    }

    #[test]
    fn suggests_close_names_only() {
        let blocks = ["click", "check", "navigate", "expect"];
        assert_eq!(did_you_mean("clik", blocks), Some("click"));
        assert_eq!(did_you_mean("navgate", blocks), Some("navigate"));
        assert_eq!(did_you_mean("zzz", blocks), None);
    }
}
