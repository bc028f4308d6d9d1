//! One fixture per diagnostic code (`lang/tests/fixtures/codes/<suffix>.acl`), each with its full
//! human (no colour) and JSON rendering as an insta snapshot.
//!
//! Codes that need bytes or paths rather than text are generated here instead of committed:
//! `not_utf8` (invalid bytes), `file_too_large` (1 MiB + 1 byte in memory), `list_too_long`
//! (10,001 items), `too_many_diagnostics` (a 24 KB line of stray escapes), and the CLI's `unreadable` / `no_suite_files` (the real binary on a missing
//! path and on an empty directory) and `unwritable` (`fmt` on a read-only file). A fixture whose first line is `# mode: statement` is admitted
//! in statement mode. The test fails when a code in `Code::ALL` has neither a fixture nor a
//! generator, and when a fixture does not produce its code. It also checks `docs/codes.md`: each
//! runtime code family's table equals its registry (code, meaning, order), and the exit-code table
//! lists every `Exit`.

mod common;

use a3s_test_lang::render::{render, Colour, Format};
use a3s_test_lang::{
    admit, admit_bytes, admit_statement, Code, Diagnostic, StableCode, MAX_FILE_BYTES,
};
use std::collections::BTreeMap;

/// Codes produced from generated input rather than a committed fixture.
const GENERATED: &[Code] = &[
    Code::NotUtf8,
    Code::FileTooLarge,
    Code::ListTooLong,
    Code::Unreadable,
    Code::Unwritable,
    Code::NoSuiteFiles,
    Code::TooManyDiagnostics,
];

fn suffix(code: Code) -> &'static str {
    code.as_str()
        .strip_prefix("test.spec.")
        .expect("test.spec. prefix")
}

/// Admit `source` the way its fixture asks (file or statement mode).
fn diagnostics_of(source: &str) -> Vec<Diagnostic> {
    if source.starts_with("# mode: statement") {
        admit_statement(source).err().unwrap_or_default()
    } else {
        admit(source).diagnostics
    }
}

/// Human (plain) and JSON renderings of one file's diagnostics, as one snapshot body.
fn both(file: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    format!(
        "{}\n--- json ---\n{}",
        render(Format::Human, Colour::Never, file, source, diagnostics),
        render(Format::Json, Colour::Never, file, source, diagnostics)
    )
}

fn assert_produces(code: Code, diagnostics: &[Diagnostic], context: &str) {
    assert!(
        diagnostics.iter().any(|d| d.code == code),
        "{context} should produce {code}, got {:?}",
        diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.message.as_str()))
            .collect::<Vec<_>>()
    );
}

#[test]
fn every_code_has_a_fixture_or_generator() {
    let dir = common::fixtures("codes");
    let fixtures: Vec<String> = common::acl_files(&dir)
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for code in Code::ALL {
        let has_fixture = fixtures.iter().any(|f| f == suffix(*code));
        let generated = GENERATED.contains(code);
        assert!(
            has_fixture ^ generated,
            "{code}: needs exactly one of a fixture ({}.acl) or a generator",
            suffix(*code)
        );
    }
    for f in &fixtures {
        assert!(
            Code::from_name(&format!("test.spec.{f}")).is_some(),
            "fixture {f}.acl names no code"
        );
    }
}

#[test]
fn each_fixture_produces_its_code() {
    let mut snapshots = BTreeMap::new();
    for path in common::acl_files(&common::fixtures("codes")) {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let code =
            Code::from_name(&format!("test.spec.{stem}")).expect("fixture named after a code");
        let source = std::fs::read_to_string(&path).expect("fixture is UTF-8");
        let diagnostics = diagnostics_of(&source);
        assert_produces(code, &diagnostics, &format!("{stem}.acl"));
        for d in &diagnostics {
            assert!(!d.hint.is_empty(), "{stem}.acl: {} has no hint", d.code);
            assert!(d.span.end <= source.len(), "{stem}.acl: span past the end");
        }
        snapshots.insert(
            stem.clone(),
            both(&format!("{stem}.acl"), &source, &diagnostics),
        );
    }
    for (stem, body) in snapshots {
        insta::assert_snapshot!(stem, body);
    }
}

#[test]
fn not_utf8_is_generated() {
    let bytes = b"suite \"caf\xe9\" {\n}\n";
    let admission = admit_bytes(bytes);
    assert_produces(Code::NotUtf8, &admission.diagnostics, "latin-1 bytes");
    let shown = String::from_utf8_lossy(bytes);
    insta::assert_snapshot!(
        "not_utf8",
        both("not_utf8.acl", &shown, &admission.diagnostics)
    );
}

#[test]
fn file_too_large_is_generated() {
    let bytes = vec![b'#'; MAX_FILE_BYTES + 1];
    let admission = admit_bytes(&bytes);
    assert_produces(Code::FileTooLarge, &admission.diagnostics, "1 MiB + 1 byte");
    // Nothing of a too-large file is shown, as in the CLI.
    insta::assert_snapshot!(
        "file_too_large",
        both("file_too_large.acl", "", &admission.diagnostics)
    );
}

#[test]
fn list_too_long_is_generated() {
    let items: Vec<String> = (0..=a3s_test_lang::MAX_LIST_ITEMS)
        .map(|_| "\"t\"".to_string())
        .collect();
    let source = format!(
        "suite \"codes\" {{\n    scenario \"main\" {{\n        surface = \"web\"\n        tags = [{}]\n        navigate \"open\" {{ url = \"/\" }}\n    }}\n}}\n",
        items.join(",")
    );
    let diagnostics = admit(&source).diagnostics;
    assert_produces(Code::ListTooLong, &diagnostics, "10,001 tags");
    // The excerpt would print the 40 kB line; the JSON rendering says everything.
    insta::assert_snapshot!(
        "list_too_long",
        render(
            Format::Json,
            Colour::Never,
            "list_too_long.acl",
            &source,
            &diagnostics
        )
    );
}

#[test]
fn too_many_diagnostics_is_generated() {
    // Issue 16 case 6: one line of 4,000 `\u{41}` escapes outside any string.
    let source = format!("suite \"codes\" {{\n    {}\n}}\n", "\\u{41}".repeat(4000));
    let admission = admit(&source);
    let diagnostics = &admission.diagnostics;
    assert_produces(Code::TooManyDiagnostics, diagnostics, "4,000 stray escapes");
    assert_eq!(
        diagnostics.len(),
        a3s_test_lang::diagnostic::MAX_DIAGNOSTICS + 1
    );
    assert_eq!(diagnostics.last().unwrap().code, Code::TooManyDiagnostics);
    assert!(admission.omitted.errors > 3000, "{:?}", admission.omitted);
    // The last reported diagnostic (windowed: its line is 24 KB) and the summary, in every format.
    let tail = &diagnostics[diagnostics.len() - 2..];
    insta::assert_snapshot!(
        "too_many_diagnostics",
        format!(
            "{}\n--- github ---\n{}",
            both("too_many_diagnostics.acl", &source, tail),
            render(
                Format::Github,
                Colour::Never,
                "too_many_diagnostics.acl",
                &source,
                tail
            )
        )
    );
}

#[test]
fn unreadable_and_no_suite_files_come_from_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let human = common::run_in(dir.path(), &["check", "missing.acl", "empty"]);
    assert_eq!(human.code, Some(2), "{human:?}");
    let json = common::run_in(
        dir.path(),
        &["check", "--format", "json", "missing.acl", "empty"],
    );
    assert_eq!(json.code, Some(2), "{json:?}");
    for code in [Code::Unreadable, Code::NoSuiteFiles] {
        assert!(
            json.stdout.contains(&format!("\"code\":\"{code}\"")),
            "{code} in {}",
            json.stdout
        );
    }
    insta::assert_snapshot!(
        "unreadable_and_no_suite_files",
        format!("{}\n--- json ---\n{}", human.stdout, json.stdout)
    );
}

#[cfg(unix)]
#[test]
fn unwritable_comes_from_fmt_on_a_read_only_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ro.acl");
    let messy = "suite \"x\" {\nscenario \"a\" {\nsurface = \"web\"\nnavigate \"o\" { url = \"/\" }\n}\n}\n";
    std::fs::write(&file, messy).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let human = common::run_in(dir.path(), &["fmt", "ro.acl"]);
    assert_eq!(human.code, Some(2), "{human:?}");
    let json = common::run_in(dir.path(), &["fmt", "--format", "json", "ro.acl"]);
    assert_eq!(json.code, Some(2), "{json:?}");
    assert!(
        json.stdout
            .contains(&format!("\"code\":\"{}\"", Code::Unwritable)),
        "{}",
        json.stdout
    );
    insta::assert_snapshot!(
        "unwritable",
        format!("{}\n--- json ---\n{}", human.stdout, json.stdout)
    );
}

/// `docs/codes.md`: the table of every runtime code family and of the exit codes.
fn codes_page() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/codes.md"))
        .expect("docs/codes.md")
}

/// The lines of the `## {heading}` section of `page` (up to the next `## `).
fn section<'a>(page: &'a str, heading: &str) -> Vec<&'a str> {
    let start = format!("## {heading}");
    page.lines()
        .skip_while(|l| *l != start)
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect()
}

/// One family's table rows as `docs/codes.md` must show them: code, then its registry doc
/// (and, for runtime failures, the failure class), in registry order.
fn rows<C: StableCode>(extra: impl Fn(C) -> Option<String>) -> Vec<String> {
    C::ALL
        .iter()
        .map(|c| {
            let doc = c.doc().replace('|', "\\|");
            match extra(*c) {
                Some(more) => format!("| `{}` | {more} | {doc} |", c.as_str()),
                None => format!("| `{}` | {doc} |", c.as_str()),
            }
        })
        .collect()
}

/// The table rows of a section (lines starting with "| `").
fn table_rows(page: &str, heading: &str) -> Vec<String> {
    section(page, heading)
        .into_iter()
        .filter(|l| l.starts_with("| `"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_code_tables_equal_the_registries() {
    use a3s_test_driver::failure::{DiffRule, FailureClass, FailureCode, MergeCode, SelectionCode};
    use a3s_test_gui::GuiCode;
    use a3s_test_ledger::{EndpointCode, ErrorCode, WarningCode};
    use a3s_test_runner::session::SessionCode;
    use a3s_test_tui::TuiCode;
    let page = codes_page();
    let gui_class = |c: GuiCode| {
        Some(
            serde_json::to_value(c.class())
                .expect("class")
                .as_str()
                .expect("a string")
                .to_string(),
        )
    };
    let tui_class = |c: TuiCode| {
        Some(
            serde_json::to_value(c.class())
                .expect("class")
                .as_str()
                .expect("a string")
                .to_string(),
        )
    };
    let class = |c: FailureCode| {
        Some(
            serde_json::to_value(c.class())
                .expect("class")
                .as_str()
                .expect("a string")
                .to_string(),
        )
    };
    // The runtime registry holds the `test.driver.tui.*` and `test.driver.gui.*` families too (a
    // step failure carries a `FailureCode`); they are listed once, under "Terminal driver" and
    // "Desktop driver", and must be the engines'.
    let tui = |c: &FailureCode| {
        c.as_str().starts_with("test.driver.tui.") || c.as_str().starts_with("test.driver.gui.")
    };
    let runtime: Vec<String> = rows(class)
        .into_iter()
        .zip(FailureCode::ALL)
        .filter(|(_, c)| !tui(c))
        .map(|(row, _)| row)
        .collect();
    let mirrored: Vec<(&str, FailureClass)> = FailureCode::ALL
        .iter()
        .filter(|c| tui(c))
        .map(|c| (c.as_str(), c.class()))
        .collect();
    let engine: Vec<(&str, FailureClass)> = TuiCode::ALL
        .iter()
        .map(|c| (c.as_str(), c.class()))
        .chain(GuiCode::ALL.iter().map(|c| (c.as_str(), c.class())))
        .collect();
    assert_eq!(
        mirrored, engine,
        "FailureCode's test.driver.tui.* and gui.* codes are TuiCode's and GuiCode's"
    );
    let families: Vec<(&str, Vec<String>)> = vec![
        ("Runtime failures", runtime),
        ("Terminal driver", rows::<TuiCode>(tui_class)),
        ("Desktop driver", rows::<GuiCode>(gui_class)),
        (
            "Providers",
            rows::<a3s_test_provider::ProviderCode>(|_| None),
        ),
        (
            "Contracts",
            rows::<a3s_test_provider::contract::ContractCode>(|_| None),
        ),
        ("Page Context deltas", rows::<DiffRule>(|_| None)),
        ("Merging shard results", rows::<MergeCode>(|_| None)),
        ("Run selection", rows::<SelectionCode>(|_| None)),
        ("Agent sessions", rows::<SessionCode>(|_| None)),
        ("Repair ledger", rows::<ErrorCode>(|_| None)),
        ("Repair inbox warnings", rows::<WarningCode>(|_| None)),
        (
            "Repair endpoint",
            rows::<EndpointCode>(|c| Some(c.status().to_string())),
        ),
    ];
    let mut expected = String::new();
    let mut wrong = Vec::new();
    for (heading, want) in &families {
        expected.push_str(&format!("## {heading}\n{}\n\n", want.join("\n")));
        if &table_rows(&page, heading) != want {
            wrong.push(*heading);
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/codes.md sections {wrong:?} differ from the registries; they should read:\n{expected}"
    );
}

#[test]
fn the_exit_code_table_lists_every_exit_code() {
    use a3s_test_runner::exit::Exit;
    let page = codes_page();
    let listed: Vec<u8> = section(&page, "Exit codes")
        .into_iter()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split_once(" |"))
        .filter_map(|(n, _)| n.parse().ok())
        .collect();
    let all: Vec<u8> = Exit::ALL.iter().map(|e| e.code()).collect();
    assert_eq!(
        listed, all,
        "docs/codes.md ## Exit codes must list Exit::ALL"
    );
}
