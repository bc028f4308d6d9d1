//! What a surface captures for a snapshot expectation (`expect { screenshot }` and
//! `expect { aria_snapshot }`, `docs/acl.md` §9.2), and where the run keeps its baselines.
//!
//! Why in the contract: the runner decides a snapshot expectation (it holds the baseline, the
//! update mode and the retry loop in `runner/src/expect.rs`), so a surface only *captures* —
//! a PNG with the page made still and the masks painted, or the accessibility tree in the one
//! evidence shape the `accessibility` step writes — through
//! [`crate::SurfaceContext::capture`].

use a3s_test_lang::ir::{Target, VisualExpectation};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The colour masked elements are painted in a visual comparison (magenta, as Playwright's
/// default), in both the baseline and the actual image.
pub const MASK_COLOUR: [u8; 4] = [0xff, 0x00, 0xff, 0xff];

/// What to capture.
#[derive(Debug, Clone, Copy)]
pub enum CaptureRequest<'a> {
    /// A PNG as the visual expectation asks (full page or viewport, masks, animations).
    Screenshot(&'a VisualExpectation),
    /// The accessibility tree, of the page or of one element's subtree.
    Aria {
        /// The element whose subtree is read; the whole page when `None`.
        target: Option<&'a Target>,
    },
}

/// What was captured.
#[derive(Debug, Clone, PartialEq)]
pub enum Captured {
    /// PNG bytes, private regions and masks already painted.
    Png(Vec<u8>),
    /// The accessibility tree as `{ "nodes": [ { role, name, level, checked, …, children } ] }`
    /// (the `accessibility` evidence shape), private values already redacted.
    Aria(Value),
}

/// When a run writes baselines (`--update-snapshots`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpdateSnapshots {
    /// Never: a missing baseline fails (the default in CI; `--update-snapshots=none`).
    #[default]
    None,
    /// No flag, outside CI (as Playwright): a missing baseline is written from the actual
    /// image and the expectation still fails, so the new baseline is looked at before it counts.
    MissingFails,
    /// Write baselines that do not exist yet (`--update-snapshots=missing`).
    Missing,
    /// Write missing baselines and rewrite every one that differs (`--update-snapshots`).
    All,
}

/// Where a scenario's snapshot expectations find their baselines.
#[derive(Debug, Clone)]
pub struct SnapshotSettings {
    /// The suite file (an `aria_snapshot` update rewrites it).
    pub suite_file: PathBuf,
    /// `<suite>.snapshots/` beside it.
    pub dir: PathBuf,
    /// The platform baselines are named for (`linux`, `darwin`, `win32`, as Playwright names them).
    pub platform: &'static str,
    /// Whether this run writes baselines.
    pub update: UpdateSnapshots,
    /// The suite-file rewrites of this run so far (shared by every scenario of the run).
    pub edits: Arc<SuiteEdits>,
}

/// The `aria_snapshot` rewrites a run made in its suite files: for each file, where each edit
/// began in the file as admitted and how many bytes it added, so a later edit of the same file
/// finds its span in the file as it is now.
///
/// Why a record and not a re-read: spans come from the admitted text, and several scenarios of
/// one suite may each rewrite their outline, in any order, while the run goes on.
#[derive(Debug, Default)]
pub struct SuiteEdits {
    /// Per file: (start in the admitted text, bytes added — negative when removed).
    pub applied: Mutex<HashMap<PathBuf, Vec<(usize, isize)>>>,
}

impl SnapshotSettings {
    /// The settings of the suite at `suite_file`, for this machine's platform.
    pub fn for_suite(
        suite_file: PathBuf,
        update: UpdateSnapshots,
        edits: Arc<SuiteEdits>,
    ) -> SnapshotSettings {
        let stem = suite_file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let dir = suite_file.with_file_name(format!("{stem}.snapshots"));
        SnapshotSettings {
            suite_file,
            dir,
            platform: platform(),
            update,
            edits,
        }
    }
}

/// This machine's platform, spelled as Playwright spells it in baseline names.
pub fn platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    }
}
