//! Context open/close timings, so the per-scenario budget (≤ 30 ms to open and close a context)
//! can be reported and checked.

use std::sync::Mutex;
use std::time::Duration;

/// Aggregated open + close times of every context the driver opened and closed.
#[derive(Debug, Default)]
pub struct ContextStats {
    inner: Mutex<Totals>,
}

/// A snapshot of [`ContextStats`].
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    /// Contexts opened and closed.
    pub contexts: u32,
    /// Sum of open times the scenarios waited.
    pub open: Duration,
    /// Sum of the times it took to create those contexts (in the background when prepared ahead).
    pub cold_open: Duration,
    /// Sum of close times the scenarios waited (disposal itself runs in the background).
    pub close: Duration,
    /// Sum of the times the browser took to dispose of those contexts, in the background.
    pub dispose: Duration,
    /// The slowest open + close of one context.
    pub worst: Duration,
}

impl Totals {
    /// Mean open + close time per context.
    pub fn mean(&self) -> Duration {
        if self.contexts == 0 {
            Duration::ZERO
        } else {
            (self.open + self.close) / self.contexts
        }
    }
}

impl ContextStats {
    /// Record one context.
    pub fn record(&self, open: Duration, cold_open: Duration, close: Duration) {
        let mut t = self.inner.lock().expect("stats lock");
        t.contexts += 1;
        t.open += open;
        t.cold_open += cold_open;
        t.close += close;
        t.worst = t.worst.max(open + close);
    }

    /// Record how long one background disposal took.
    pub fn record_dispose(&self, dispose: Duration) {
        self.inner.lock().expect("stats lock").dispose += dispose;
    }

    /// The totals so far.
    pub fn totals(&self) -> Totals {
        *self.inner.lock().expect("stats lock")
    }
}
