//! Baseline images beside the suite: `<suite>.snapshots/<name>-<platform>.png`, read and
//! written through `a3s_test_fsroot` from the suite's folder down (no link followed, a link or
//! a FIFO in a baseline's place refused), replaced atomically.

use super::pixels::{decode_png, Rgba};
use a3s_test_driver::snapshot::SnapshotSettings;
use a3s_test_driver::{FailureCode, StepFailure};
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::SnapshotName;
use std::path::PathBuf;

/// Largest baseline file read (a 16k × 16k PNG compresses well below this).
const MAX_BASELINE_BYTES: u64 = 256 * 1024 * 1024;

/// Where one baseline lives.
#[derive(Debug, Clone)]
pub struct Baseline {
    at: ConfinedPath,
    /// The file name (`cart-linux.png`), as messages show it.
    pub file: String,
}

impl Baseline {
    /// The baseline of `name` for the settings' suite and platform.
    pub fn of(settings: &SnapshotSettings, name: &SnapshotName) -> Baseline {
        let file = name.for_platform(settings.platform);
        let anchor = settings
            .dir
            .parent()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."));
        let folder = settings
            .dir
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_default();
        Baseline {
            at: ConfinedPath::new(anchor, folder.join(&file)),
            file,
        }
    }

    /// The path shown to people.
    pub fn path(&self) -> PathBuf {
        self.at.path()
    }

    /// The baseline image, `None` when there is none yet; `test.run.snapshot_invalid` when the
    /// file is not a PNG, too large, or not a regular file reached without links.
    pub fn read(&self) -> Result<Option<Rgba>, StepFailure> {
        let invalid = |why: String| {
            StepFailure::new(
                FailureCode::SnapshotInvalid,
                format!("the baseline {} {why}", self.path().display()),
            )
        };
        let bytes = match self.at.read(MAX_BASELINE_BYTES) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(e) => return Err(invalid(format!("cannot be read: {e}"))),
        };
        decode_png(&bytes).map(Some).map_err(|e| {
            invalid(format!(
                "is {e}; it was left as it is — remove it (or replace it with a PNG) and run \
                 with --update-snapshots"
            ))
        })
    }

    /// Write (or replace) the baseline with `png`.
    pub fn write(&self, png: &[u8]) -> Result<(), StepFailure> {
        let fail = |e: a3s_test_fsroot::FsError| {
            StepFailure::new(
                FailureCode::SnapshotWrite,
                format!(
                    "the baseline {} cannot be written: {e}",
                    self.path().display()
                ),
            )
        };
        if let Some((folder, _)) = self.at.split() {
            folder.create_dir_all().map_err(fail)?;
        }
        self.at
            .write_atomic(png, a3s_test_fsroot::SHARED)
            .map_err(fail)
    }
}
