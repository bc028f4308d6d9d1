//! Canonical formatting: snapshots of `format_source` on fixture files, idempotence, meaning
//! preservation and comment placement.

// This target reads fixture files; the I/O bans in `lang/clippy.toml` are for the library only.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use a3s_test_lang::printer::format_source;
use std::path::Path;

mod common;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fmt")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Format, check idempotence and meaning, and return the formatted text.
fn format_checked(source: &str) -> String {
    let formatted = format_source(source).unwrap_or_else(|d| panic!("refused: {d:#?}"));
    let again = format_source(&formatted)
        .unwrap_or_else(|d| panic!("refused its own output: {d:#?}\n{formatted}"));
    assert_eq!(again, formatted, "formatting is not idempotent");
    common::assert_same_meaning(source, &formatted);
    formatted
}

#[test]
fn reference_suite() {
    insta::assert_snapshot!(format_checked(&fixture("reference.acl")));
}

#[test]
fn project_configuration() {
    insta::assert_snapshot!(format_checked(&fixture("project.acl")));
}

#[test]
fn messy_file_with_comments() {
    insta::assert_snapshot!(format_checked(&fixture("messy.acl")));
}

#[test]
fn long_lists_and_calls_break_one_item_per_line() {
    let formatted = format_checked(&fixture("long_values.acl"));
    assert!(
        formatted.lines().all(|l| l.chars().count() <= 100),
        "{formatted}"
    );
    insta::assert_snapshot!(formatted);
}

#[test]
fn every_fixture_parses_alike_on_both_paths_and_formats_idempotently() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for dir in ["valid", "codes", "fmt"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "acl") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("fixture is UTF-8");
            let parsed = a3s_test_lang::parser::parse(&source);
            assert_eq!(
                parsed,
                a3s_test_lang::parser::parse_recovering(&source),
                "{}: parsers disagree",
                path.display()
            );
            let (_, diagnostics) = parsed;
            if diagnostics.is_empty() {
                format_checked(&source);
                checked += 1;
            } else {
                assert!(
                    format_source(&source).is_err(),
                    "{} has syntax errors but was formatted",
                    path.display()
                );
            }
        }
    }
    assert!(checked >= 3, "only {checked} fixtures checked");
}

#[test]
fn refuses_files_with_syntax_errors() {
    let errors = format_source("suite \"s\" {\n    url = \n").expect_err("must refuse");
    assert!(
        errors.iter().all(|d| d.code == a3s_test_lang::Code::Syntax),
        "{errors:#?}"
    );
    assert_eq!(errors.len(), 2);
    assert!(format_source("a { s = \"open\n}").is_err());
    assert!(format_source("a { v = [").is_err());
}

#[test]
fn comments_stay_where_they_belong() {
    let source = "# file header\nsuite \"s\" { # after brace\n    # before a\n    a = 1 # after a\n    b = [1, # inside b\n        2]\n    # before the closing brace\n} # after the suite\n# end of file\n";
    let formatted = format_checked(source);
    assert_eq!(
        formatted,
        "# file header\nsuite \"s\" { # after brace\n    # before a\n    a = 1 # after a\n    # inside b\n    b = [1, 2]\n    # before the closing brace\n} # after the suite\n# end of file\n"
    );
}

#[test]
fn blank_lines_follow_the_rules() {
    // One-line steps pack; an author's blank line survives (collapsed); multi-line blocks are
    // set apart; nothing blank after `{` or before `}`.
    let source = "suite \"s\" {\n\n\n    scenario \"a\" {\n        surface = \"web\"\n        navigate \"o\" { url = \"/\" }\n\n\n\n        click \"c\" { target = css(\"#b\") }\n        wait { text = \"a\" text2 = \"b\" }\n        expect \"e\" { text = \"ok\" }\n\n    }\n    scenario \"b\" { version = 1 }\n}\n";
    assert_eq!(
        format_checked(source),
        "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        navigate \"o\" { url = \"/\" }\n\n        click \"c\" { target = css(\"#b\") }\n\n        wait {\n            text = \"a\"\n            text2 = \"b\"\n        }\n\n        expect \"e\" { text = \"ok\" }\n    }\n\n    scenario \"b\" { version = 1 }\n}\n"
    );
}

#[test]
fn strings_and_numbers_are_canonical() {
    let source =
        "a { s = 'it\\'s \\\"q\\\" \\u{41}\\u{9}\\u{7F}' n = -0 f = 2.50 g = -0.0 e = 100.000 }\n";
    assert_eq!(
        format_checked(source),
        "a {\n    s = \"it's \\\"q\\\" A\\t\\u{7F}\"\n    n = 0\n    f = 2.5\n    g = -0.0\n    e = 100.0\n}\n"
    );
}

#[test]
fn empty_and_comment_only_files() {
    assert_eq!(format_checked(""), "");
    assert_eq!(format_checked("\n\n  \n"), "");
    assert_eq!(
        format_checked("# only\n\n\n// comments\n"),
        "# only\n\n// comments\n"
    );
    assert_eq!(format_checked("a {}"), "a {}\n");
    assert_eq!(
        format_checked("a {\n}\nb \"x\" { }"),
        "a {}\n\nb \"x\" {}\n"
    );
}
