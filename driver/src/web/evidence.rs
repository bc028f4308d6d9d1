//! Evidence paths: confine every written file to the scenario's artifact folder.
//!
//! The checker already refused absolute paths and `..`; a symlink can only be seen on disk, so each
//! existing component under the artifact folder is checked with `symlink_metadata` before anything
//! is created or written, and stale output is removed first (`docs/acl.md` §10). The length and
//! depth limits of `a3s_test_lang::limits` are checked on the whole path first.

use crate::failure::FailureCode;
use crate::{EvidenceFile, EvidenceKind, StepFailure};
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

/// Resolve `relative` under `artifact_dir`, create missing folders, remove a stale file.
pub(crate) fn prepare(artifact_dir: &Path, relative: &str) -> Result<PathBuf, StepFailure> {
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
    let Some(file) = parts.pop() else {
        return Err(escape("names no file".into()));
    };
    let mut current = artifact_dir.to_path_buf();
    for part in parts {
        current.push(part);
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(escape(format!(
                    "passes through the symlink {}",
                    current.display()
                )))
            }
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(write_error(
                    &current,
                    "is a file where a folder is needed".into(),
                ))
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                std::fs::create_dir(&current)
                    .map_err(|e| write_error(&current, format!("cannot be created: {e}")))?;
            }
            Err(e) => return Err(write_error(&current, format!("cannot be inspected: {e}"))),
        }
    }
    current.push(file);
    match std::fs::symlink_metadata(&current) {
        Ok(meta) if meta.file_type().is_symlink() => {
            Err(escape(format!("is a symlink ({})", current.display())))
        }
        Ok(meta) if meta.is_dir() => Err(write_error(&current, "is a folder".into())),
        Ok(_) => {
            std::fs::remove_file(&current).map_err(|e| {
                write_error(&current, format!("stale output cannot be removed: {e}"))
            })?;
            Ok(current)
        }
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(current),
        Err(e) => Err(write_error(&current, format!("cannot be inspected: {e}"))),
    }
}

/// Write `bytes` to an already prepared path.
pub(crate) fn write(
    path: &Path,
    kind: EvidenceKind,
    bytes: &[u8],
) -> Result<EvidenceFile, StepFailure> {
    std::fs::write(path, bytes)
        .map_err(|e| write_error(path, format!("cannot be written: {e}")))?;
    Ok(EvidenceFile {
        kind,
        path: path.to_path_buf(),
    })
}

/// Prepare and write in one go.
pub(crate) fn save(
    artifact_dir: &Path,
    relative: &str,
    kind: EvidenceKind,
    bytes: &[u8],
) -> Result<EvidenceFile, StepFailure> {
    let path = prepare(artifact_dir, relative)?;
    write(&path, kind, bytes)
}

fn write_error(path: &Path, why: String) -> StepFailure {
    StepFailure::new(
        FailureCode::EvidenceWrite,
        format!("{} {why}", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_over_long_path_is_refused_before_any_folder_is_made() {
        // Issue 16 case 9: 2,013 nested folders were created before the write failed.
        let dir = tempfile::tempdir().unwrap();
        let deep = vec!["d"; 2013].join("/") + "/log.json";
        let err = prepare(dir.path(), &deep).unwrap_err();
        assert_eq!(err.code, FailureCode::EvidencePathLimit);
        let long = "n".repeat(300) + "/log.json";
        assert_eq!(
            prepare(dir.path(), &long).unwrap_err().code,
            FailureCode::EvidencePathLimit
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn confines_paths_and_removes_stale_output() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let path = prepare(root, "shots/a.png").unwrap();
        assert_eq!(path, root.join("shots/a.png"));
        std::fs::write(&path, b"old").unwrap();
        let again = prepare(root, "shots/a.png").unwrap();
        assert!(!again.exists(), "stale output is removed");
        assert_eq!(
            prepare(root, "../x.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
        assert_eq!(
            prepare(root, "/x.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("link")).unwrap();
        assert_eq!(
            prepare(root, "link/x.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
        std::os::unix::fs::symlink(outside.path().join("f"), root.join("f.png")).unwrap();
        assert_eq!(
            prepare(root, "f.png").unwrap_err().code,
            FailureCode::EvidencePathEscape
        );
    }
}
