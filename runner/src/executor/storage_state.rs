//! Loading a scenario's `storage_state` into its fresh context before the first step (and the
//! project's into an agent session's context before its start URL, `session/engine.rs`).
//!
//! The file is read when the scenario starts (after its dependencies, one of which usually
//! wrote it), relative to the project root and through `fsroot`, so a link on the way is
//! refused (`test.run.unsafe_path`). A missing file is `test.run.storage_state_missing` and a
//! malformed one `test.run.storage_state_invalid`: failures of that scenario, with a hint, never
//! a panic. Messages name the path, never the file's contents.

use crate::result::FailureRecord;
use a3s_test_driver::storage_state::{StorageState, MAX_STORAGE_STATE_BYTES};
use a3s_test_driver::{FailureCode, SurfaceContext};
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::StatePath;
use std::path::Path;
use tokio::time::Instant;

/// Read `path` (relative to `project`) and load it into `ctx`.
pub(crate) async fn load<C: SurfaceContext>(
    ctx: &mut C,
    project: &Path,
    path: &StatePath,
    deadline: Instant,
) -> Result<(), FailureRecord> {
    let state = read(project, path).map_err(|(code, message)| FailureRecord::new(code, message))?;
    ctx.load_storage_state(&state, deadline)
        .await
        .map_err(|f| FailureRecord::new(f.code, f.message))
}

/// The state file, or why not (a code and a message naming the path, never the contents).
fn read(project: &Path, path: &StatePath) -> Result<StorageState, (FailureCode, String)> {
    let shown = path.as_str();
    let bytes = ConfinedPath::new(project, shown)
        .read(MAX_STORAGE_STATE_BYTES)
        .map_err(|e| {
            if e.is_not_found() {
                (
                    FailureCode::StorageStateMissing,
                    format!(
                        "storage state `{shown}` does not exist; run the scenario that saves it \
                         first (name it in `depends_on`)"
                    ),
                )
            } else if e.is_refusal() {
                (FailureCode::UnsafePath, format!("storage state: {e}"))
            } else {
                (
                    FailureCode::StorageStateInvalid,
                    format!("storage state `{shown}` cannot be read: {e}"),
                )
            }
        })?;
    StorageState::from_json(&bytes).map_err(|e| {
        (
            FailureCode::StorageStateInvalid,
            format!("storage state `{shown}` {e}; save it again with `save_storage_state`"),
        )
    })
}
