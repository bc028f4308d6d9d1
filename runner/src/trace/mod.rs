//! Step traces (`run --trace`): per step of a traced scenario, the step (kind, ACL line, the
//! element it resolved to, duration, result), a scaled screenshot after it, the page's outline
//! (the agent observation's, `session/view/outline.rs`), and the console messages, page errors
//! and requests of the step — one typed record ([`record::Trace`], schema `a3s.test.trace/1`)
//! written once per scenario, plus [`diff`]: what changed since the scenario last passed.
//!
//! Why here and not in a driver: what to keep, for which attempt, within which budget and what
//! it is compared with is one rule for every surface; the driver only answers the capture
//! through the contract (`SurfaceContext::trace_capture`), and a surface without it is listed
//! as "not traced" instead of showing empty pages.

mod body_budget;
pub mod diff;
pub mod last_green;
pub mod record;
mod recorder;

pub use body_budget::SCENARIO_BODY_BYTES;
pub use recorder::{Finished, Recorder, TRACE_FILE};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Screenshot bytes one scenario's trace keeps; later screenshots are left out with a note.
/// With the report's other content this keeps a 20-step failing scenario under the 2 MB a
/// report page allows it (`docs/reports.md`).
pub const SCREENSHOT_BUDGET: u64 = 1_200_000;

/// Widest trace screenshot, in pixels (the viewport is scaled down to it, never up).
pub const SCREENSHOT_WIDTH: u32 = 640;

/// Most ACL lines a trace carries of its scenario.
pub const MAX_SOURCE_LINES: usize = 400;

/// Most outline lines kept per step.
pub const MAX_OUTLINE_LINES: usize = 600;

/// Bound on one capture after a step (screenshot and outline together): a wedged page delays
/// a step by a known amount, never the run.
pub const CAPTURE_BOUND: std::time::Duration = std::time::Duration::from_secs(3);

/// Which scenario attempts are traced, and which traces are kept (`run --trace`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraceMode {
    /// No trace (and no last-green record).
    #[default]
    Off,
    /// Every attempt traced and kept.
    On,
    /// Every attempt traced; kept only when it did not pass (a pass still refreshes the
    /// last-green record). The CLI's default.
    RetainOnFailure,
    /// Only the first retry traced (and kept): a first run costs nothing.
    OnFirstRetry,
}

impl TraceMode {
    /// Every mode by its flag value.
    pub const ALL: [(TraceMode, &'static str); 4] = [
        (TraceMode::Off, "off"),
        (TraceMode::On, "on"),
        (TraceMode::RetainOnFailure, "retain-on-failure"),
        (TraceMode::OnFirstRetry, "on-first-retry"),
    ];

    /// The flag value.
    pub fn as_str(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map(|(_, s)| *s)
            .unwrap_or("off")
    }

    /// The mode a flag value names.
    pub fn from_name(name: &str) -> Option<TraceMode> {
        Self::ALL.iter().find(|(_, s)| *s == name).map(|(m, _)| *m)
    }

    /// Whether attempt `attempt` (1-based) is recorded.
    pub fn records(self, attempt: u32) -> bool {
        match self {
            TraceMode::Off => false,
            TraceMode::On | TraceMode::RetainOnFailure => true,
            TraceMode::OnFirstRetry => attempt == 2,
        }
    }

    /// Whether a recorded attempt's trace is written, given whether it passed.
    pub fn keeps(self, passed: bool) -> bool {
        match self {
            TraceMode::Off => false,
            TraceMode::On | TraceMode::OnFirstRetry => true,
            TraceMode::RetainOnFailure => !passed,
        }
    }
}

impl From<a3s_test_lang::ir::TraceSetting> for TraceMode {
    fn from(setting: a3s_test_lang::ir::TraceSetting) -> TraceMode {
        use a3s_test_lang::ir::TraceSetting as S;
        match setting {
            S::Off => TraceMode::Off,
            S::On => TraceMode::On,
            S::RetainOnFailure => TraceMode::RetainOnFailure,
            S::OnFirstRetry => TraceMode::OnFirstRetry,
        }
    }
}

/// The executor's trace settings.
#[derive(Debug, Clone, Default)]
pub struct TraceConfig {
    /// Which attempts are traced and kept.
    pub mode: TraceMode,
    /// Where each scenario's last passing trace is kept (`<output-dir>/last-green/`, or
    /// `--last-green-dir`), opened and verified; `None` keeps none.
    pub last_green: Option<a3s_test_fsroot::Dir>,
}

/// What a scenario result says of its trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceSummary {
    /// The trace file (`<scenario folder>/trace.json`).
    pub path: PathBuf,
    /// Steps traced.
    pub steps: usize,
    /// Screenshot bytes kept.
    pub screenshot_bytes: u64,
    /// For a scenario that did not pass and passed before: what changed since that last
    /// passing run, step by step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_last_green: Option<diff::TraceDiff>,
    /// Why the trace file could not be written (the verdict stands; the evidence is lost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_written: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::TraceMode;

    #[test]
    fn modes_record_and_keep_the_attempts_they_name() {
        let table = [
            (TraceMode::Off, [false, false], [false, false]),
            (TraceMode::On, [true, true], [true, true]),
            (TraceMode::RetainOnFailure, [true, true], [false, true]),
            (TraceMode::OnFirstRetry, [false, true], [true, true]),
        ];
        for (mode, records, keeps) in table {
            assert_eq!([mode.records(1), mode.records(2)], records, "{mode:?}");
            assert_eq!([mode.keeps(true), mode.keeps(false)], keeps, "{mode:?}");
            assert_eq!(TraceMode::from_name(mode.as_str()), Some(mode));
        }
        assert_eq!(TraceMode::from_name("sometimes"), None);
    }

    use a3s_test_driver::trace::PageFingerprint;
    use proptest::prelude::*;

    proptest! {
        /// A page fingerprint is written as 16 hex digits and read back as the same value.
        #[test]
        fn a_page_fingerprint_reads_back_as_written(x in any::<u64>()) {
            let json = serde_json::to_string(&PageFingerprint(x)).unwrap();
            prop_assert_eq!(json.len(), 18);
            prop_assert_eq!(serde_json::from_str::<PageFingerprint>(&json).unwrap(), PageFingerprint(x));
        }

        /// Any other text is refused (a record that holds one is no comparison), never a panic.
        #[test]
        fn anything_else_is_not_a_page_fingerprint(s in "\\PC{0,20}") {
            let hex = s.len() == 16 && s.chars().all(|c| c.is_ascii_hexdigit());
            prop_assert_eq!(PageFingerprint::from_hex(&s).is_some(), hex);
        }
    }
}
