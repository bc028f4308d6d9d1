//! The tree-sitter grammar and `lang` agree on which files parse: every `.acl` file of the
//! repository (the dogfood suites, the project file, every test fixture, the examples and
//! benchmarks) either parses in both without an error, or fails in both. Files `lang` refuses
//! before parsing (not UTF-8, over 1 MiB) and files past `lang`'s nesting, list and integer
//! limits, which a grammar does not count, are left out. The queries compile against the grammar.

use a3s_test_lang::{decode_source, parser, Code};
use std::path::{Path, PathBuf};
use tree_sitter::{Parser, Query};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.acl` file under `dir`, skipping `node_modules`, `target` and hidden folders but the
/// project's `.a3s-test`.
fn acl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let skipped = name == "node_modules"
                || name == "target"
                || (name.starts_with('.') && name != ".a3s-test");
            if !skipped {
                acl_files(&path, out);
            }
        } else if kind.is_file() && name.ends_with(".acl") {
            out.push(path);
        }
    }
}

/// Codes of limits a grammar does not count: nesting depth, list length, 64-bit integers.
fn beyond_limits(code: Code) -> bool {
    matches!(
        code,
        Code::NestingTooDeep | Code::ListTooLong | Code::NumberTooLarge
    )
}

#[test]
fn tree_sitter_and_lang_accept_the_same_files() {
    let mut files = Vec::new();
    let root = repository();
    for dir in [
        "suites",
        "tests",
        "lang",
        "examples",
        "bench",
        ".a3s-test",
        "docs",
        "grammar",
    ] {
        acl_files(&root.join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 50, "found only {} files", files.len());
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_acl::LANGUAGE.into())
        .expect("the generated parser's ABI is supported");
    let (mut compared, mut disagreements) = (0, Vec::new());
    for path in &files {
        let bytes = std::fs::read(path).expect("read");
        let Ok(text) = decode_source(&bytes) else {
            continue;
        };
        let (_, diagnostics) = parser::parse(text);
        if diagnostics.iter().any(|d| beyond_limits(d.code)) {
            continue;
        }
        let lang_parses = diagnostics.is_empty();
        let tree = parser.parse(text, None).expect("a tree");
        let tree_sitter_parses = !tree.root_node().has_error();
        compared += 1;
        if lang_parses != tree_sitter_parses {
            let first = diagnostics
                .first()
                .map(|d| d.code.as_str())
                .unwrap_or("none");
            disagreements.push(format!(
                "{}: lang {} (first: {first}), tree-sitter {}",
                path.strip_prefix(&root).unwrap_or(path).display(),
                if lang_parses { "parses" } else { "refuses" },
                if tree_sitter_parses {
                    "parses"
                } else {
                    "refuses"
                },
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {compared} files:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(compared > 50);
}

#[test]
fn the_queries_compile_against_the_grammar() {
    let language = tree_sitter_acl::LANGUAGE.into();
    for (name, source) in [
        ("highlights", tree_sitter_acl::HIGHLIGHTS_QUERY),
        ("folds", tree_sitter_acl::FOLDS_QUERY),
        ("injections", tree_sitter_acl::INJECTIONS_QUERY),
    ] {
        Query::new(&language, source).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    assert!(tree_sitter_acl::NODE_TYPES.contains("\"block\""));
}
