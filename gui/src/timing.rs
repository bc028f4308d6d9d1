//! Where a desktop step's time goes, printed under `A3S_TEST_GUI_TIMING=1`: one `gui-timing`
//! line on stderr per timed part — a click, keys, the wheel, a find (from a fresh read or the
//! kept one), the read of the top-level windows (`scope`), a bulk tree read and the program's
//! start — naming each phase and its milliseconds.
//!
//! Why: a click is a handful of calls to the program and the X server, and under load one of
//! them dominates; the benchmarks (`docs/benchmarks.md`) are met by cutting that one, and this
//! names it without a profiler. Nothing is measured when the variable is unset.

use std::time::Instant;

/// The environment variable that turns the lines on (`1`).
pub const TIMING_ENV: &str = "A3S_TEST_GUI_TIMING";

/// Whether [`TIMING_ENV`] is set to `1` (read once).
pub fn enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os(TIMING_ENV).is_some_and(|v| v == "1"))
}

/// The phases of one action, each timed from the end of the one before.
#[derive(Debug)]
pub(crate) struct Laps {
    what: &'static str,
    at: Option<Instant>,
    laps: Vec<(&'static str, f64)>,
}

impl Laps {
    /// Start timing `what` (nothing is timed when the lines are off).
    pub(crate) fn start(what: &'static str) -> Laps {
        Laps {
            what,
            at: enabled().then(Instant::now),
            laps: Vec::new(),
        }
    }

    /// The phase `phase` ended now.
    pub(crate) fn lap(&mut self, phase: &'static str) {
        if let Some(at) = self.at {
            let now = Instant::now();
            self.laps.push((phase, (now - at).as_secs_f64() * 1000.0));
            self.at = Some(now);
        }
    }

    /// The line, when the lines are on.
    fn line(&self) -> Option<String> {
        self.at?;
        let total: f64 = self.laps.iter().map(|(_, ms)| ms).sum();
        let laps: Vec<String> = self
            .laps
            .iter()
            .map(|(phase, ms)| format!("{phase} {ms:.1}"))
            .collect();
        Some(format!(
            "gui-timing {} ms: {} = {total:.1}",
            self.what,
            laps.join(", ")
        ))
    }

    /// Print the line (when the lines are on).
    pub(crate) fn print(&self) {
        if let Some(line) = self.line() {
            eprintln!("{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_names_each_phase_and_the_total() {
        let laps = Laps {
            what: "click",
            at: Some(Instant::now()),
            laps: vec![("locate", 1.25), ("hit", 2.0)],
        };
        assert_eq!(
            laps.line().as_deref(),
            Some("gui-timing click ms: locate 1.2, hit 2.0 = 3.2")
        );
        let off = Laps {
            what: "click",
            at: None,
            laps: Vec::new(),
        };
        assert_eq!(off.line(), None);
    }
}
