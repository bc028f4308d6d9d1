//! Discovery: turn the paths given to `a3s-test run` into a sorted list of `*.acl` files.
//!
//! A file argument is taken as is (whatever its extension: the user named it). A directory is
//! walked recursively for `*.acl`, skipping hidden folders (`.a3s-test`, `.git`), `node_modules`
//! and `target`, and never following a symlinked folder (no loops, no escaping the tree). The
//! result is sorted and de-duplicated so every later stage, and every report, is deterministic.

use std::path::{Path, PathBuf};

/// The file extension of ACL suites.
pub const ACL_EXTENSION: &str = "acl";

/// Folders discovery never descends into.
const SKIPPED_DIRS: &[&str] = &["node_modules", "target"];

/// Why discovery failed.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// A path given on the command line does not exist.
    #[error("failed to find `{}`: no such file or directory", path.display())]
    Missing {
        /// The path as given.
        path: PathBuf,
    },
    /// A folder could not be read.
    #[error("failed to read folder `{}`: {source}", path.display())]
    ReadDir {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Nothing to run.
    #[error("found no .acl file in {}", list(paths))]
    NoSuites {
        /// The paths searched.
        paths: Vec<PathBuf>,
    },
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| format!("`{}`", p.display()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Find every suite file under `paths` (files as given, folders walked), sorted.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, DiscoverError> {
    let mut found = Vec::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).map_err(|_| DiscoverError::Missing { path: path.clone() })?;
        if meta.is_dir() {
            walk(path, &mut found)?;
        } else {
            found.push(path.clone());
        }
    }
    found.sort();
    found.dedup();
    if found.is_empty() {
        return Err(DiscoverError::NoSuites {
            paths: paths.to_vec(),
        });
    }
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), DiscoverError> {
    let entries = std::fs::read_dir(dir).map_err(|source| DiscoverError::ReadDir {
        path: dir.to_path_buf(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| DiscoverError::ReadDir {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // `file_type` does not follow symlinks: a symlinked folder is skipped, a symlinked file is
        // read like any other (its contents are admitted, nothing is written through it).
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        if file_type.is_dir() {
            if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_ref()) {
                walk(&path, found)?;
            }
        } else if path.extension().is_some_and(|e| e == ACL_EXTENSION)
            && (!file_type.is_symlink() || std::fs::metadata(&path).is_ok_and(|m| m.is_file()))
        {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_sorted_and_skips_hidden_and_build_folders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for file in [
            "b.acl",
            "a.acl",
            "nested/c.acl",
            "notes.txt",
            ".a3s-test/project.acl",
            "node_modules/x.acl",
            "target/y.acl",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        std::os::unix::fs::symlink(root.join("nested"), root.join("loop")).unwrap();
        let found = discover(&[root.to_path_buf(), root.join("a.acl")]).unwrap();
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.acl", "b.acl", "nested/c.acl"]);
    }

    #[test]
    fn missing_path_and_empty_folder_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            discover(&[dir.path().join("nope")]),
            Err(DiscoverError::Missing { .. })
        ));
        assert!(matches!(
            discover(&[dir.path().to_path_buf()]),
            Err(DiscoverError::NoSuites { .. })
        ));
    }
}
