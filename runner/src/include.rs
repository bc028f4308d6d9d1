//! The project file's `include = ["shared/*.acl"]`: the `library` files whose `steps` groups
//! every suite's `use` steps may call (`docs/acl.md` §2.2).
//!
//! Why here: `lang` is pure, so the runner finds and reads the files and hands their admitted
//! groups to admission (`a3s_test_lang::admit_with`). A pattern is matched (`globset`, `*` not
//! crossing `/`, `**` any depth) against the `.acl` files under its literal leading folder,
//! relative to the project folder; the files are admitted in path order, each must be a
//! `library`, and a pattern that matches nothing is an error — an include that silently finds
//! nothing would turn into "no group is named …" far from its cause. Two included files that
//! define the same group are refused too: which one a `use` got would depend on file names.

use crate::admit::{admit_path, RejectedFile, Rejection, SourceFile};
use a3s_test_lang::ir::{AdmittedDocument, Library};
use globset::GlobBuilder;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The admitted libraries, each with its path as shown to people, in the order found.
pub type Libraries = Vec<(String, Library)>;

/// Find, read and admit every file `patterns` name under `root`. Every problem is returned, one
/// [`RejectedFile`] each (a pattern's own problem names the pattern as its path).
pub fn include(root: &Path, patterns: &[String]) -> Result<Libraries, Vec<RejectedFile>> {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut rejected = Vec::new();
    for pattern in patterns {
        match matching(root, pattern) {
            Ok(found) if found.is_empty() => rejected.push(problem(
                pattern,
                format!("include pattern `{pattern}` matches no .acl file"),
            )),
            Ok(found) => {
                for file in found {
                    if !files.contains(&file) {
                        files.push(file);
                    }
                }
            }
            Err(message) => rejected.push(problem(pattern, message)),
        }
    }
    let mut libraries = Vec::new();
    for path in files {
        let shown = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
        let outcome = admit_path(&path);
        let text = |bytes: &[u8]| Arc::from(std::str::from_utf8(bytes).unwrap_or(""));
        match outcome {
            Err(e) => rejected.push(RejectedFile {
                source: Arc::new(SourceFile {
                    path: shown,
                    text: Arc::from(""),
                }),
                rejection: Rejection::Unreadable(e.to_string()),
            }),
            Ok(read) => {
                let source = Arc::new(SourceFile {
                    path: shown,
                    text: text(&read.bytes),
                });
                match read.admission.document {
                    Some(AdmittedDocument::Library(library)) => {
                        if let Some(rejection) = duplicate(&libraries, &library) {
                            rejected.push(RejectedFile { source, rejection });
                            continue;
                        }
                        libraries.push((source.display(), library))
                    }
                    Some(_) => rejected.push(RejectedFile {
                        source,
                        rejection: Rejection::NotALibrary,
                    }),
                    None => rejected.push(RejectedFile {
                        source,
                        rejection: Rejection::Diagnostics(read.admission.diagnostics),
                    }),
                }
            }
        }
    }
    if rejected.is_empty() {
        Ok(libraries)
    } else {
        Err(rejected)
    }
}

/// A group of `library` that an earlier included file already defines: which one would win
/// depends on file names, so the run is refused instead.
fn duplicate(libraries: &Libraries, library: &Library) -> Option<Rejection> {
    library.groups.iter().find_map(|group| {
        libraries.iter().find_map(|(file, earlier)| {
            earlier
                .groups
                .iter()
                .any(|g| g.name == group.name)
                .then(|| Rejection::DuplicateGroup {
                    name: group.name.clone(),
                    first: file.clone(),
                })
        })
    })
}

fn problem(pattern: &str, message: String) -> RejectedFile {
    RejectedFile {
        source: Arc::new(SourceFile {
            path: PathBuf::from(pattern),
            text: Arc::from(""),
        }),
        rejection: Rejection::Unreadable(message),
    }
}

/// The `.acl` files under `root` that `pattern` (relative, no `..`) matches, sorted.
fn matching(root: &Path, pattern: &str) -> Result<Vec<PathBuf>, String> {
    let relative = Path::new(pattern);
    if relative.is_absolute()
        || relative
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(format!(
            "include pattern `{pattern}` must be relative to the project folder, without `..`"
        ));
    }
    let glob = GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("include pattern `{pattern}` is not a valid glob: {e}"))?
        .compile_matcher();
    // Walk only the literal folder the pattern starts with.
    let literal: PathBuf = relative
        .components()
        .take_while(|c| {
            !c.as_os_str()
                .to_string_lossy()
                .contains(['*', '?', '[', '{'])
        })
        .collect();
    let start = root.join(&literal);
    if !start.is_dir() {
        return Ok(if start.is_file() && glob.is_match(&literal) {
            vec![start]
        } else {
            Vec::new()
        });
    }
    let found = crate::discover::find(&[start]);
    let mut files: Vec<PathBuf> = found
        .files
        .into_iter()
        .filter(|f| f.strip_prefix(root).is_ok_and(|r| glob.is_match(r)))
        .collect();
    files.sort();
    Ok(files)
}
