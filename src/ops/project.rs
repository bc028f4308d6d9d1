//! The project file an agent session reads when it starts (`.a3s-test/project.acl` under the
//! project root): a terminal session's `tui { … }` block, and a browser session's context options
//! and `storage_state`, so the session sees the pages the way `run` shows them to the suites it
//! promotes. Read without following a link from the root down; a file that does not admit is
//! refused (an absent one is no project).

use a3s_test_lang::ir::{AdmittedDocument, ProjectConfig};
use a3s_test_runner::evidence::under_state_dir;
use a3s_test_runner::session::{SessionCode, SessionError};
use std::path::Path;

/// The project file, under the project root.
pub const PROJECT_FILE: &str = ".a3s-test/project.acl";

/// The admitted project file under `root`, when there is one.
pub fn read(root: &Path) -> Result<Option<ProjectConfig>, SessionError> {
    let Some(location) = under_state_dir(root, &root.join(PROJECT_FILE)) else {
        return Ok(None);
    };
    let bytes = match location.read(a3s_test_lang::MAX_FILE_BYTES as u64) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(SessionError::fs(&e)),
    };
    match a3s_test_lang::admit_bytes(&bytes).document {
        Some(AdmittedDocument::Project(project)) => Ok(Some(project)),
        _ => Err(SessionError::new(
            SessionCode::InvalidInput,
            format!(
                "{PROJECT_FILE} is not an admitted project file (run `a3s-test check {PROJECT_FILE}`)"
            ),
        )),
    }
}
