//! Replacing a file atomically at a path the person named, or in a folder the tool owns outside
//! the project: `fmt`'s rewrites, the HTML report, `repair-promote`'s output, the browser
//! profile's owner marker. Files under the project's `.a3s-test/` (session records, the ledger,
//! run records, evidence) are replaced through `a3s_test_fsroot::Dir::write_atomic` instead,
//! which never follows a link on the way.
//!
//! Why `tempfile`: it creates the temporary file in the target's own folder (same file system,
//! so the final rename is atomic) under a fresh random name (concurrent writers never rename each
//! other's half-written file), removes it on every early return, and `persist` is the rename. The
//! bytes are `fsync`ed before the rename, and the folder after it, so after a crash a reader sees
//! either the old file or the whole new one. A folder that refuses to be synced is not an error:
//! the data is on disk and the rename done.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The permissions the replacement gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permissions {
    /// Readable by the owner only (`0600`, what `tempfile` creates): run records, session files.
    Private,
    /// A fixed Unix mode, e.g. `0o644` for a report meant to be opened in a browser.
    Mode(u32),
    /// Those of the file being replaced, which must exist; a symbolic link is followed and its
    /// target rewritten, so the link survives (`fmt`).
    KeepTarget,
}

/// Replace `path` with `bytes` atomically. The temporary file is `<prefix><random>.tmp` beside
/// the target.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    prefix: &str,
    permissions: Permissions,
) -> std::io::Result<()> {
    let target: PathBuf = match permissions {
        // Renaming over a link would replace the link with a plain file; write where it points.
        Permissions::KeepTarget if std::fs::symlink_metadata(path)?.file_type().is_symlink() => {
            std::fs::canonicalize(path)?
        }
        _ => path.to_path_buf(),
    };
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mode = match permissions {
        Permissions::Private => None,
        Permissions::Mode(mode) => {
            use std::os::unix::fs::PermissionsExt;
            Some(std::fs::Permissions::from_mode(mode))
        }
        Permissions::KeepTarget => Some(std::fs::metadata(&target)?.permissions()),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(prefix)
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    if let Some(mode) = mode {
        temp.as_file().set_permissions(mode)?;
    }
    temp.persist(&target).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn names(dir: &Path) -> Vec<std::ffi::OsString> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect()
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn creates_or_replaces_with_the_asked_permissions_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.json");
        write_atomic(&file, b"one", ".r-", Permissions::Private).unwrap();
        assert_eq!(mode(&file), 0o600);
        write_atomic(&file, b"two", ".r-", Permissions::Mode(0o644)).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "two");
        assert_eq!(mode(&file), 0o644);
        assert_eq!(names(dir.path()), ["r.json"]);
    }

    #[test]
    fn keep_target_keeps_permissions_and_links_and_needs_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.acl");
        let link = dir.path().join("link.acl");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new", ".f-", Permissions::KeepTarget).unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(mode(&real), 0o640);
        let missing = dir.path().join("missing.acl");
        assert!(write_atomic(&missing, b"x", ".f-", Permissions::KeepTarget).is_err());
        assert!(!missing.exists());
        assert_eq!(names(dir.path()).len(), 2);
    }
}
