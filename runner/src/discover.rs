//! Discovery: turn the paths given on the command line into a sorted list of `*.acl` files.
//!
//! The one implementation both `a3s-test run` ([`discover`]) and `a3s-test check`/`fmt`
//! ([`find`], whose [`InputProblem`]s the CLI turns into `test.spec.unreadable` /
//! `test.spec.no_suite_files` diagnostics) use, so the two commands always see the same files.
//!
//! A file argument is taken as is (whatever its name: the user named it). A directory is walked
//! recursively for `*.acl`, skipping hidden entries (`.a3s-test`, `.git`, editor lock files such
//! as `.#x.acl`), `node_modules` and `target`, and never following a symlinked folder (no loops,
//! no escaping the tree); a symlinked file is read like any other. The result is sorted and
//! de-duplicated so every later stage, and every report, is deterministic.

use std::path::{Path, PathBuf};

/// The file extension of ACL suites.
pub const ACL_EXTENSION: &str = "acl";

/// Folders discovery never descends into (unless named explicitly).
const SKIPPED_DIRS: &[&str] = &["node_modules", "target"];

/// A path that yielded no suite file, and why. Walking goes on past it.
#[derive(Debug)]
pub enum InputProblem {
    /// A path given on the command line does not exist or cannot be inspected.
    Missing {
        /// The path as given.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A folder (or one of its entries) found while walking could not be read.
    Unreadable {
        /// The folder or entry.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
        /// True when the path is an entry of a folder rather than the folder itself.
        is_file: bool,
    },
    /// A folder given on the command line holds no `*.acl` file.
    NoSuiteFiles {
        /// The folder as given.
        path: PathBuf,
    },
}

/// Everything found under the given paths.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Every suite file, sorted by path, without duplicates.
    pub files: Vec<PathBuf>,
    /// Every path that yielded no file, in the order found.
    pub problems: Vec<InputProblem>,
}

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

/// Find every suite file under `paths` for `run`: the first missing or unreadable path is an
/// error, and so is finding nothing at all (one empty folder among others is fine).
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, DiscoverError> {
    let found = find(paths);
    for problem in found.problems {
        match problem {
            InputProblem::Missing { path, .. } => return Err(DiscoverError::Missing { path }),
            InputProblem::Unreadable { path, source, .. } => {
                return Err(DiscoverError::ReadDir { path, source })
            }
            InputProblem::NoSuiteFiles { .. } => {}
        }
    }
    if found.files.is_empty() {
        return Err(DiscoverError::NoSuites {
            paths: paths.to_vec(),
        });
    }
    Ok(found.files)
}

/// Find every suite file under `paths` (files as given, folders walked), collecting every problem
/// instead of stopping at the first.
pub fn find(paths: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let before = found.files.len();
                walk(path, &mut found);
                if found.files.len() == before {
                    found
                        .problems
                        .push(InputProblem::NoSuiteFiles { path: path.clone() });
                }
            }
            Ok(_) => found.files.push(path.clone()),
            Err(source) => found.problems.push(InputProblem::Missing {
                path: path.clone(),
                source,
            }),
        }
    }
    found.files.sort();
    found.files.dedup();
    found
}

fn walk(dir: &Path, found: &mut Discovery) {
    let unreadable = |path: &Path, source, is_file| InputProblem::Unreadable {
        path: path.to_path_buf(),
        source,
        is_file,
    };
    let entries = match std::fs::read_dir(dir).and_then(|d| d.collect::<Result<Vec<_>, _>>()) {
        Ok(entries) => entries,
        Err(source) => {
            found.problems.push(unreadable(dir, source, false));
            return;
        }
    };
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        // `file_type` does not follow symlinks: a symlinked folder is never walked.
        let file_type = match entry.file_type() {
            Ok(t) => t,
            Err(source) => {
                found.problems.push(unreadable(&path, source, true));
                continue;
            }
        };
        if file_type.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_ref()) {
                walk(&path, found);
            }
        } else if path.extension().is_some_and(|e| e == ACL_EXTENSION) {
            // A link to a folder named `*.acl` is neither followed nor read.
            if file_type.is_symlink() && path.metadata().is_ok_and(|m| m.is_dir()) {
                continue;
            }
            found.files.push(path);
        }
    }
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
            ".#lock.acl",
            ".git/x.acl",
            "deep/er/d.acl",
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
        assert_eq!(names, ["a.acl", "b.acl", "deep/er/d.acl", "nested/c.acl"]);
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

    #[test]
    fn find_collects_every_problem_and_keeps_going() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let suite = dir.path().join("s.acl");
        std::fs::write(&suite, "").unwrap();
        let found = find(&[dir.path().join("missing.acl"), empty.clone(), suite.clone()]);
        assert_eq!(found.files, std::slice::from_ref(&suite));
        assert!(matches!(
            &found.problems[..],
            [InputProblem::Missing { .. }, InputProblem::NoSuiteFiles { path }] if *path == empty
        ));
        // `run` ignores one empty folder among others, but not a missing path.
        assert!(discover(&[empty.clone(), suite.clone()]).is_ok());
        assert!(matches!(
            discover(&[dir.path().join("missing.acl"), suite]),
            Err(DiscoverError::Missing { .. })
        ));
    }
}
