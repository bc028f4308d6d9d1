//! Suite discovery: turn the paths named on the command line into a sorted list of `.acl` files.
//!
//! Directories are searched recursively for `*.acl`, skipping `target/`, `node_modules/` and
//! hidden entries (`.git/`, editor lock files such as `.#x.acl`), because those hold build output,
//! dependencies and tool state, never suites. A path named explicitly is always read, whatever
//! its name. Symbolic links to files are followed; links to directories are not, so a link cycle
//! cannot make discovery loop. The result is sorted and de-duplicated so output order never
//! depends on the file system. Problems (a missing path, a directory without suites) become
//! admission diagnostics rather than errors, so `check` reports them beside the files it did read.

use a3s_test_lang::{Code, Diagnostic, Span};
use std::path::{Path, PathBuf};

/// A path that could not be turned into suite files, and why.
#[derive(Debug, Clone)]
pub struct InputProblem {
    /// The path as given or as found while walking.
    pub path: PathBuf,
    /// `test.spec.unreadable` or `test.spec.no_suite_files`.
    pub diagnostic: Diagnostic,
    /// True when the path is (or, missing, was meant to be) a suite file rather than a directory;
    /// such paths count as files in summaries and appear in `check --json`.
    pub is_file: bool,
}

/// The outcome of discovery.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Every suite file, sorted by path, without duplicates.
    pub files: Vec<PathBuf>,
    /// Every path that yielded no file, in the order found.
    pub problems: Vec<InputProblem>,
}

/// Directory names never searched (unless named explicitly).
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// Find the suite files under `paths`.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut discovery = Discovery::default();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let before = discovery.files.len();
                walk(path, &mut discovery);
                if discovery.files.len() == before {
                    discovery.problems.push(InputProblem {
                        is_file: false,
                        path: path.clone(),
                        diagnostic: Diagnostic::error(
                            Code::NoSuiteFiles,
                            "",
                            Span::default(),
                            format!("directory `{}` holds no `.acl` file", path.display()),
                        ),
                    });
                }
            }
            Ok(_) => discovery.files.push(path.clone()),
            // A missing path is most likely a mistyped suite file.
            Err(e) => discovery.problems.push(unreadable(path, &e, true)),
        }
    }
    discovery.files.sort();
    discovery.files.dedup();
    discovery
}

/// The `test.spec.unreadable` diagnostic for `path`.
pub fn unreadable(path: &Path, error: &std::io::Error, is_file: bool) -> InputProblem {
    InputProblem {
        is_file,
        path: path.to_path_buf(),
        diagnostic: Diagnostic::error(
            Code::Unreadable,
            "",
            Span::default(),
            format!("cannot read `{}`: {}", path.display(), describe(error)),
        ),
    }
}

/// An I/O error without the platform's `(os error N)` suffix, which adds nothing for a user.
fn describe(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

fn walk(dir: &Path, discovery: &mut Discovery) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            discovery.problems.push(unreadable(dir, &e, false));
            return;
        }
    };
    let mut entries: Vec<_> = match entries.collect::<Result<Vec<_>, _>>() {
        Ok(entries) => entries,
        Err(e) => {
            discovery.problems.push(unreadable(dir, &e, false));
            return;
        }
    };
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let file_type = match entry.file_type() {
            Ok(t) => t,
            Err(e) => {
                discovery.problems.push(unreadable(&path, &e, true));
                continue;
            }
        };
        if file_type.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_ref()) {
                walk(&path, discovery);
            }
        } else if name.ends_with(".acl") {
            // A link to a directory named `*.acl` is neither followed nor read.
            if file_type.is_symlink() && path.metadata().is_ok_and(|m| m.is_dir()) {
                continue;
            }
            discovery.files.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn touch(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "x").unwrap();
    }

    #[test]
    fn walks_sorted_and_skips_build_hidden_and_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in [
            "b.acl",
            "a/z.acl",
            "a/y.acl",
            "notes.txt",
            "target/x.acl",
            "node_modules/p/x.acl",
            ".git/x.acl",
            ".#b.acl",
            "deep/er/c.acl",
        ] {
            touch(&root.join(f));
        }
        let found = discover(&[root.to_path_buf()]);
        let rel: Vec<_> = found
            .files
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            rel,
            ["a/y.acl", "a/z.acl", "b.acl", "deep/er/c.acl"].map(PathBuf::from)
        );
        assert!(found.problems.is_empty());
    }

    #[test]
    fn explicit_paths_are_always_read_and_deduplicated() {
        let dir = tempfile::tempdir().unwrap();
        let hidden = dir.path().join(".a3s-test/project.acl");
        touch(&hidden);
        let txt = dir.path().join("suite.txt");
        touch(&txt);
        let found = discover(&[
            hidden.clone(),
            txt.clone(),
            hidden.clone(),
            dir.path().join(".a3s-test"),
        ]);
        assert_eq!(found.files, [hidden, txt]);
    }

    #[test]
    fn missing_path_and_empty_directory_are_diagnostics() {
        let dir = tempfile::tempdir().unwrap();
        let found = discover(&[dir.path().join("missing.acl"), dir.path().to_path_buf()]);
        let codes: Vec<_> = found.problems.iter().map(|p| p.diagnostic.code).collect();
        assert_eq!(codes, [Code::Unreadable, Code::NoSuiteFiles]);
        assert!(found.problems[0]
            .diagnostic
            .message
            .contains("No such file or directory"));
        assert!(!found.problems[0].diagnostic.message.contains("os error"));
    }

    #[cfg(unix)]
    #[test]
    fn directory_links_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("a/s.acl"));
        std::os::unix::fs::symlink(dir.path(), dir.path().join("a/loop")).unwrap();
        let found = discover(&[dir.path().to_path_buf()]);
        assert_eq!(found.files.len(), 1);
    }
}
