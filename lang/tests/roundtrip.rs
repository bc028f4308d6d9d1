//! Formatter round trip: for every admitted fixture, and every generated suite, the canonical layout admits to the same IR (compared as JSON
//! with every `span` removed, since layout moves bytes) and formatting it again changes nothing.
//! (The examples of `docs/acl.md` get the same treatment in the root crate's `tests/docs.rs`.)

// This target reads fixture files; the I/O bans in `lang/clippy.toml` are for the library only.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod common;
#[path = "../benches/support/suite_gen.rs"]
mod suite_gen;

use a3s_test_lang::{admit, printer::format_source};
use common::strip_spans;
use serde_json::Value;
use std::path::Path;

/// The IR as JSON without `span` fields.
fn ir_without_spans(source: &str, what: &str) -> Value {
    let admission = admit(source);
    let document = admission
        .document
        .unwrap_or_else(|| panic!("{what} must admit: {:?}", admission.diagnostics));
    let mut json = serde_json::to_value(document).expect("IR serializes");
    strip_spans(&mut json);
    json
}

/// Assert the round-trip properties for one admitted source.
fn assert_round_trip(source: &str, what: &str) {
    let before = ir_without_spans(source, what);
    let formatted = format_source(source).unwrap_or_else(|d| panic!("{what} must format: {d:?}"));
    let after = ir_without_spans(&formatted, &format!("{what} (formatted)"));
    assert_eq!(
        before, after,
        "{what}: formatting changed the IR\n--- formatted ---\n{formatted}"
    );
    let again = format_source(&formatted).expect("formatted text formats");
    assert_eq!(again, formatted, "{what}: formatting is not idempotent");
}

fn fixtures(sub: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "acl"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn valid_fixtures_round_trip() {
    let valid = fixtures("valid");
    assert!(valid.len() >= 5);
    for (name, source) in valid {
        assert_round_trip(&source, &name);
    }
}

#[test]
fn admitted_code_fixtures_round_trip_and_the_others_format_or_refuse_consistently() {
    for (name, source) in fixtures("codes") {
        if admit(&source).is_admitted() {
            assert_round_trip(&source, &name);
        } else if let Ok(formatted) = format_source(&source) {
            // A file the checker rejects but the parser reads still formats, idempotently, and keeps
            // the same diagnostics codes.
            assert_eq!(
                format_source(&formatted).as_ref(),
                Ok(&formatted),
                "{name}: not idempotent"
            );
            let codes = |s: &str| {
                let mut c: Vec<_> = admit(s).diagnostics.iter().map(|d| d.code).collect();
                c.sort();
                c
            };
            assert_eq!(
                codes(&source),
                codes(&formatted),
                "{name}: formatting changed the diagnostics"
            );
        }
    }
}

#[test]
fn generated_suites_round_trip() {
    for scenarios in [1, 7, 60] {
        assert_round_trip(
            &suite_gen::suite("gen", scenarios),
            &format!("generated suite of {scenarios}"),
        );
    }
}

#[test]
fn the_benchmark_file_admits_and_round_trips() {
    let source = suite_gen::suite("bench-1", suite_gen::BENCH_SCENARIOS);
    assert!(
        source.len() < a3s_test_lang::MAX_FILE_BYTES,
        "{} bytes",
        source.len()
    );
    assert!(source.len() > 900_000, "{} bytes", source.len());
    assert_round_trip(&source, "benchmark suite");
}
