//! Atomic file replacement for `fmt`: [`a3s_test_driver::atomic::write_atomic`] with the target's
//! permissions kept and a symbolic link followed (its target is rewritten, so the link survives).
//! The temporary copy is `.a3s-fmt-*.tmp` beside the file; any failure before the rename removes
//! it and leaves the original untouched.

use a3s_test_driver::atomic::{write_atomic, Permissions};
use std::path::Path;

/// Replace the contents of `path` (which must exist) with `bytes` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic(path, bytes, ".a3s-fmt-", Permissions::KeepTarget)
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
