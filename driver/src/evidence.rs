//! Evidence paths: confine every written file to the scenario's artifact folder.
//!
//! The checker already refused absolute paths and `..`; a link can only be seen on disk. The
//! artifact folder reaches the driver as an open [`Dir`] the runner verified from the project
//! folder down, and every component below it is opened through `a3s_test_fsroot` without
//! following links (missing folders created), so a link planted anywhere — the artifact folder's
//! own parents included — is refused instead of followed. Stale output is removed first
//! (`docs/acl.md` §10). The length and depth limits of `a3s_test_lang::limits` are checked on the
//! whole path first.

use crate::api::{EvidenceFile, EvidenceKind, StepFailure};
use crate::failure::FailureCode;
use a3s_test_fsroot::{Access, Dir, EntryKind, FsError, SHARED};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// A place for one evidence file: its folder (open, verified) and its name there.
#[derive(Debug)]
pub struct Prepared {
    /// The folder the file goes in.
    pub dir: Dir,
    /// The file's name in it.
    pub name: OsString,
    /// The whole path, for reports.
    pub path: PathBuf,
}

/// Resolve `relative` under `artifact_dir`, create missing folders, remove a stale file.
pub fn prepare(artifact_dir: &Dir, relative: &str) -> Result<Prepared, StepFailure> {
    let escape = |why: String| {
        StepFailure::new(
            FailureCode::EvidencePathEscape,
            format!("evidence path {relative:?} {why}"),
        )
    };
    let rel = Path::new(relative);
    if relative.is_empty() {
        return Err(escape("is empty".into()));
    }
    // The whole path is checked before the first folder is created: a path admitted by an older
    // checker (or an IR built by hand) must not leave thousands of folders behind.
    if let Some(problem) = a3s_test_lang::limits::evidence_path_limit(relative) {
        let mut shown: String = relative.chars().take(64).collect();
        if shown.len() < relative.len() {
            shown.push('…');
        }
        return Err(StepFailure::new(
            FailureCode::EvidencePathLimit,
            format!("evidence path \"{shown}\" {problem}"),
        ));
    }
    let mut parts = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_os_string()),
            Component::CurDir => {}
            _ => return Err(escape("must be relative and must not contain `..`".into())),
        }
    }
    let Some(name) = parts.pop() else {
        return Err(escape("names no file".into()));
    };
    let folder: PathBuf = parts.iter().collect();
    let dir = artifact_dir
        .create_dir_all(&folder)
        .map_err(|e| fs_failure(relative, e))?;
    let path = dir.path().join(&name);
    match dir.kind_of(&name).map_err(|e| fs_failure(relative, e))? {
        None => {}
        Some(EntryKind::Symlink) => {
            return Err(escape(format!("is a symlink ({})", path.display())))
        }
        Some(_) => dir
            .remove_file(&name)
            .map_err(|e| write_error(&path, format!("stale output cannot be removed: {e}")))?,
    }
    Ok(Prepared { dir, name, path })
}

/// A refused path is the evidence-path rule's failure; anything else could not be written.
fn fs_failure(relative: &str, e: FsError) -> StepFailure {
    if e.is_refusal() {
        StepFailure::new(
            FailureCode::EvidencePathEscape,
            format!("evidence path {relative:?} {e}"),
        )
    } else {
        StepFailure::new(FailureCode::EvidenceWrite, e.to_string())
    }
}

/// Write `bytes` to an already prepared place.
pub fn write(
    target: &Prepared,
    kind: EvidenceKind,
    bytes: &[u8],
) -> Result<EvidenceFile, StepFailure> {
    let written = target
        .dir
        .open_file(&target.name, Access::CreateNew, SHARED)
        .map_err(|e| fs_failure(&target.path.display().to_string(), e))?
        .write_all(bytes);
    written.map_err(|e| write_error(&target.path, format!("cannot be written: {e}")))?;
    Ok(EvidenceFile {
        kind,
        path: target.path.clone(),
    })
}

/// Prepare and write in one go: the one confined evidence write every surface's driver uses
/// (re-exported as `save_evidence`).
pub fn save(
    artifact_dir: &Dir,
    relative: &str,
    kind: EvidenceKind,
    bytes: &[u8],
) -> Result<EvidenceFile, StepFailure> {
    let target = prepare(artifact_dir, relative)?;
    write(&target, kind, bytes)
}

/// The `test.run.evidence_write` failure for a file that could not be written, naming it.
pub fn write_error(path: &Path, why: String) -> StepFailure {
    StepFailure::new(
        FailureCode::EvidenceWrite,
        format!("{} {why}", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchor(dir: &tempfile::TempDir) -> Dir {
        Dir::open_anchor(dir.path()).unwrap()
    }

    #[test]
    fn an_over_long_path_is_refused_before_any_folder_is_made() {
        // Issue 16 case 9: 2,013 nested folders were created before the write failed.
        let dir = tempfile::tempdir().unwrap();
        let deep = vec!["d"; 2013].join("/") + "/log.json";
        let err = prepare(&anchor(&dir), &deep).unwrap_err();
        assert_eq!(err.code, FailureCode::EvidencePathLimit);
        let long = "n".repeat(300) + "/log.json";
        assert_eq!(
            prepare(&anchor(&dir), &long).unwrap_err().code,
            FailureCode::EvidencePathLimit
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn confines_paths_and_removes_stale_output() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let artifacts = anchor(&dir);
        let target = prepare(&artifacts, "shots/a.png").unwrap();
        assert_eq!(target.path, root.join("shots/a.png"));
        write(&target, EvidenceKind::Screenshot, b"old").unwrap();
        let again = prepare(&artifacts, "shots/a.png").unwrap();
        assert!(!again.path.exists(), "stale output is removed");
        assert_eq!(
            prepare(&artifacts, "../x.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
        assert_eq!(
            prepare(&artifacts, "/x.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("link")).unwrap();
        assert_eq!(
            prepare(&artifacts, "link/x.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
        std::os::unix::fs::symlink(outside.path().join("f"), root.join("f.png")).unwrap();
        assert_eq!(
            prepare(&artifacts, "f.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
