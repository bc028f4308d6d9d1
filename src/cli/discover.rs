//! Suite discovery for `check` and `fmt`: the runner's one implementation
//! ([`a3s_test_runner::discover::find`]) with its problems turned into admission diagnostics.
//!
//! Directories are searched recursively for `*.acl`, skipping `target/`, `node_modules/` and
//! hidden entries (`.git/`, editor lock files such as `.#x.acl`); a path named explicitly is always
//! read; links to directories are not followed. Problems (a missing path, a directory without
//! suites) become `test.spec.unreadable` / `test.spec.no_suite_files` diagnostics rather than
//! errors, so `check` reports them beside the files it did read.

use a3s_test_lang::{Code, Diagnostic, Span};
use a3s_test_runner::discover::{find, InputProblem as Found};
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

/// Find the suite files under `paths`.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let found = find(paths);
    let problems = found
        .problems
        .into_iter()
        .map(|problem| match problem {
            // A missing path is most likely a mistyped suite file.
            Found::Missing { path, source } => unreadable(&path, &source, true),
            Found::Unreadable {
                path,
                source,
                is_file,
            } => unreadable(&path, &source, is_file),
            Found::NoSuiteFiles { path } => InputProblem {
                is_file: false,
                diagnostic: Diagnostic::error(
                    Code::NoSuiteFiles,
                    "",
                    Span::default(),
                    format!("directory `{}` holds no `.acl` file", path.display()),
                ),
                path,
            },
        })
        .collect();
    Discovery {
        files: found.files,
        problems,
    }
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
pub fn describe(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
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

    // Walking itself (sorting, skipped folders, links) is tested with `a3s_test_runner::discover`.

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
}
