//! A suite with a dozen mixed mistakes (`lang/tests/fixtures/mistakes/dozen.acl`): admission
//! reports every one — not just the first — each with its code, a caret at the span and a hint,
//! in source order. The full human rendering is a snapshot; the binary's JSON agrees with it.

mod common;

use a3s_test_lang::render::{render, Colour, Format};
use a3s_test_lang::{admit, Code};

#[test]
fn a_dozen_mistakes_are_all_reported_with_code_caret_and_hint() {
    let path = common::fixtures("mistakes/dozen.acl");
    let source = std::fs::read_to_string(&path).unwrap();
    let admission = admit(&source);
    assert!(!admission.is_admitted());
    let diagnostics = &admission.diagnostics;
    assert!(
        diagnostics.len() >= 12,
        "{} diagnostics: {diagnostics:#?}",
        diagnostics.len()
    );

    let mut codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    codes.sort();
    codes.dedup();
    assert!(codes.len() >= 12, "twelve different codes, got {codes:?}");
    let mut previous = 0;
    for d in diagnostics {
        assert!(!d.hint.is_empty(), "{} has a hint", d.code);
        assert!(!d.path.is_empty(), "{} has a logical path", d.code);
        assert!(d.span.start >= previous, "sorted by position");
        previous = d.span.start;
    }

    let human = render(
        Format::Human,
        Colour::Never,
        "dozen.acl",
        &source,
        diagnostics,
    );
    for d in diagnostics {
        assert!(
            human.contains(&format!("error[{}]: {}", d.code, d.message)),
            "header of {}",
            d.code
        );
        assert!(
            human.contains(&format!("Help: {}", d.hint)),
            "hint of {}",
            d.code
        );
        assert!(
            human.contains(&format!("Note: at {}", d.path)),
            "path of {}",
            d.code
        );
    }
    // One caret label (`╰──`) per diagnostic, at least.
    assert!(human.matches('╰').count() >= diagnostics.len());
    insta::assert_snapshot!(human);

    let dir = path.parent().unwrap();
    let run = common::run_in(dir, &["check", "--format", "json", "dozen.acl"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stdout.lines().count(), diagnostics.len());
    assert_eq!(
        run.stderr,
        format!("1 file, 0 scenarios, {} errors\n", diagnostics.len())
    );
}
