//! Atomic file replacement for `fmt`.
//!
//! The new text is written to a temporary file in the same directory (same file system, so the
//! rename is atomic), flushed to disk with `fsync`, given the original file's permissions, and
//! renamed over the original; the directory is then synced so the rename itself survives a crash.
//! Any failure before the rename removes the temporary file and leaves the original untouched.
//! A symbolic link is followed and its target rewritten, so the link itself survives.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Replace the contents of `path` with `bytes` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // Renaming over a link would replace the link with a plain file; write where it points.
    let resolved: PathBuf = if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        std::fs::canonicalize(path)?
    } else {
        path.to_path_buf()
    };
    let path = resolved.as_path();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let permissions = std::fs::metadata(path)?.permissions();
    let mut temp = tempfile::Builder::new()
        .prefix(".a3s-fmt-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    temp.as_file().set_permissions(permissions)?;
    temp.persist(path).map_err(|e| e.error)?;
    // Make the rename durable. Some file systems refuse to sync a directory; the data is already
    // on disk and the rename done, so that is not worth failing the command for.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_keeps_permissions_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("s.acl");
        std::fs::write(&file, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomically(&file, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
                0o640
            );
        }
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["s.acl"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_keeps_pointing_at_the_rewritten_file() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.acl");
        let link = dir.path().join("link.acl");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn a_missing_target_fails_without_creating_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("missing.acl");
        assert!(write_atomically(&file, b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
