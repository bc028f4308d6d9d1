//! Relative paths below an anchor: the pure check of which paths may be walked at all, before any
//! file system call. An absolute path or a `..` component could leave the anchor without any
//! link, so both are refused here; `.` components name the folder they are in and are skipped.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

/// Why a relative path was refused before it was walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RelError {
    /// It starts at the file system root (or a prefix), so it is not below the anchor.
    #[error("it is absolute")]
    Absolute,
    /// It has a `..` component, which could climb out of the anchor.
    #[error("it has a `..` component")]
    Parent,
    /// A component holds a NUL byte, which no file name can.
    #[error("it has a NUL byte")]
    Nul,
}

/// The components of `path` to walk one by one, or why `path` may not be walked. An empty path
/// (or one of `.` only) has no components: it names the anchor itself.
pub fn components(path: &Path) -> Result<Vec<&OsStr>, RelError> {
    let mut out = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) if part.as_bytes().contains(&0) => return Err(RelError::Nul),
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => return Err(RelError::Parent),
            Component::RootDir | Component::Prefix(_) => return Err(RelError::Absolute),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_split_into_their_names() {
        let ok = components(Path::new(".a3s-test/agent-sessions/s1/repairs.jsonl")).unwrap();
        assert_eq!(ok, [".a3s-test", "agent-sessions", "s1", "repairs.jsonl"]);
        assert!(components(Path::new("")).unwrap().is_empty());
        assert_eq!(components(Path::new("./a//b/")).unwrap(), ["a", "b"]);
    }

    #[test]
    fn escapes_are_refused() {
        assert_eq!(
            components(Path::new("/etc/passwd")),
            Err(RelError::Absolute)
        );
        assert_eq!(components(Path::new("a/../../b")), Err(RelError::Parent));
        assert_eq!(components(Path::new("..")), Err(RelError::Parent));
        let nul = OsStr::from_bytes(b"a\0b");
        assert_eq!(components(Path::new(nul)), Err(RelError::Nul));
    }
}
