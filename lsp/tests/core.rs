//! The pure core, feature by feature, on fixed texts: answers snapshotted with insta.

use a3s_test_lsp::core::edit::apply;
use a3s_test_lsp::core::features::{
    completion, diagnostics, fixes, folding, format, hover, names, symbols, tokens,
};
use a3s_test_lsp::core::text::Lines;

const BROKEN: &str = include_str!("fixtures/broken.acl");

/// The byte offset just after the first occurrence of `needle` (+ `shift`).
fn at(text: &str, needle: &str, shift: isize) -> usize {
    let start = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` in the text"));
    (start as isize + needle.len() as isize + shift) as usize
}

#[test]
fn diagnostics_are_the_check_diagnostics() {
    let found = diagnostics::diagnose(BROKEN, &[]);
    let brief: Vec<String> = found
        .iter()
        .map(|d| {
            format!(
                "{} {}..{} {} | {}",
                d.code, d.span.start, d.span.end, d.message, d.hint
            )
        })
        .collect();
    insta::assert_yaml_snapshot!(brief);
}

#[test]
fn fixes_follow_the_hints_and_the_whole_file_then_admits() {
    let found = diagnostics::diagnose(BROKEN, &[]);
    let all = fixes::fixes(BROKEN, &found, 0, BROKEN.len());
    insta::assert_yaml_snapshot!(all);
    let preferred: Vec<_> = all
        .iter()
        .filter(|f| f.preferred)
        .flat_map(|f| f.edits.clone())
        .collect();
    let fixed = apply(BROKEN, &preferred);
    let left = diagnostics::diagnose(&fixed, &[]);
    assert!(left.is_empty(), "{left:#?}\n{fixed}");
}

#[test]
fn a_missing_attribute_is_inserted_in_a_one_line_and_a_multi_line_block() {
    let text = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        navigate \"open\" {}\n        fill \"name\" {\n            target = label(\"Name\")\n        }\n    }\n}\n";
    let found = diagnostics::diagnose(text, &[]);
    let all = fixes::fixes(text, &found, 0, text.len());
    let edits: Vec<_> = all.iter().flat_map(|f| f.edits.clone()).collect();
    insta::assert_snapshot!(apply(text, &edits));
}

#[test]
fn an_unknown_step_offers_the_nearest_kinds() {
    let text = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        chek \"x\" { target = label(\"A\") }\n    }\n}\n";
    let found = diagnostics::diagnose(text, &[]);
    let titles: Vec<String> = fixes::fixes(text, &found, 0, text.len())
        .into_iter()
        .map(|f| f.title)
        .collect();
    insta::assert_yaml_snapshot!(titles);
}

#[test]
fn formatting_is_fmt_as_line_edits_and_a_range_keeps_its_own() {
    let text = "suite \"s\" {\nscenario \"a\" {\n  surface = \"web\"   # the web\n navigate \"o\" { url = \"/\" }\n}\n\n\n   scenario \"b\" {\nsurface = \"web\"\n}\n}\n";
    let edits = format::format(text).unwrap();
    let whole = apply(text, &edits);
    assert_eq!(whole, a3s_test_lang::printer::format_source(text).unwrap());
    insta::assert_snapshot!(whole);
    let second = text.find("   scenario \"b\"").unwrap();
    let ranged = format::format_range(text, second, text.len()).unwrap();
    assert!(!ranged.is_empty() && ranged.len() < edits.len());
    assert!(ranged.iter().all(|e| e.end >= second));
    assert!(format::format("suite \"s\" {").is_none());
}

#[test]
fn hover_shows_the_reference_rows_and_codes() {
    let found = diagnostics::diagnose(BROKEN, &[]);
    let show = |needle: &str, shift: isize| {
        hover::hover(BROKEN, &found, at(BROKEN, needle, shift)).map(|h| h.markdown)
    };
    insta::assert_snapshot!("hover_step", show("navigate", -2).unwrap());
    insta::assert_snapshot!("hover_attribute", show("surface", -1).unwrap());
    insta::assert_snapshot!("hover_function", show("role", -1).unwrap());
    insta::assert_snapshot!("hover_code", show("urll", -1).unwrap());
    assert!(show("http", 0).is_none());
}

#[test]
fn completion_offers_what_fits_the_place() {
    let labels = |text: &str, offset: usize| -> Vec<String> {
        completion::complete(text, offset)
            .into_iter()
            .map(|c| format!("{} => {}", c.label, c.insert))
            .collect()
    };
    let in_scenario = "suite \"s\" {\n    scenario \"a\" {\n        \n    }\n}\n";
    let step_kinds = labels(in_scenario, at(in_scenario, "{\n        ", 0));
    assert!(
        step_kinds
            .iter()
            .any(|l| l.starts_with("click => click \"${1:label}\" { target = $2 }")),
        "{step_kinds:#?}"
    );
    assert!(
        step_kinds
            .iter()
            .any(|l| l.starts_with("surface => surface = \"${1|web,gui,tui|}\"")),
        "{step_kinds:#?}"
    );
    let root = labels("", 0);
    insta::assert_yaml_snapshot!("completion_root", root);
    let attribute = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        drag \"d\" { source = css(\"a\")  }\n    }\n}\n";
    insta::assert_yaml_snapshot!(
        "completion_drag_attributes",
        labels(attribute, at(attribute, "css(\"a\") ", 0))
    );
    let edge =
        "suite \"s\" {\n    scenario \"a\" {\n        drag \"d\" { edge = \"\" }\n    }\n}\n";
    insta::assert_yaml_snapshot!(
        "completion_edge_values",
        labels(edge, at(edge, "edge = \"", 0))
    );
    let target =
        "suite \"s\" {\n    scenario \"a\" {\n        click \"c\" { target =  }\n    }\n}\n";
    insta::assert_yaml_snapshot!(
        "completion_targets",
        labels(target, at(target, "target = ", 0))
    );
    let depends = at(BROKEN, "depends_on = [\"", 0);
    insta::assert_yaml_snapshot!("completion_depends_on", labels(BROKEN, depends));
    let group = at(BROKEN, "steps = \"", 0);
    assert_eq!(labels(BROKEN, group), ["sign-in => sign-in"]);
    let call = at(BROKEN, "use \"", 0);
    assert_eq!(labels(BROKEN, call), ["sign-in => sign-in"]);
}

#[test]
fn symbols_folds_and_tokens() {
    insta::assert_yaml_snapshot!("symbols", symbols::symbols(BROKEN));
    let lines = Lines::new(BROKEN);
    insta::assert_yaml_snapshot!("folds", folding::folds(BROKEN, &lines));
    let classes: Vec<String> = tokens::tokens(BROKEN)
        .iter()
        .take(24)
        .map(|t| {
            format!(
                "{:?}{} {:?}",
                t.kind,
                if t.declaration { "*" } else { "" },
                &BROKEN[t.span.range()]
            )
        })
        .collect();
    insta::assert_yaml_snapshot!("tokens", classes);
}

#[test]
fn names_link_definitions_and_references_and_rename_them() {
    let all = names::occurrences(BROKEN);
    let setup = names::at(&all, at(BROKEN, "[\"set", 0)).unwrap();
    let same: Vec<(bool, &str)> = names::same(&all, setup)
        .iter()
        .map(|o| (o.definition, &BROKEN[o.span.range()]))
        .collect();
    assert_eq!(same, [(true, "setup"), (false, "setup")]);
    let group = names::at(&all, at(BROKEN, "steps \"sig", 0)).unwrap();
    assert_eq!(
        names::same(&all, group).len(),
        3,
        "the definition, `use \"sign-in\" {{}}` and `steps = \"sign-in\"`"
    );
    let edits = names::rename(BROKEN, at(BROKEN, "steps \"sig", 0), "log-in").unwrap();
    insta::assert_snapshot!("renamed_group", apply(BROKEN, &edits));
    assert!(names::rename(BROKEN, at(BROKEN, "steps \"sig", 0), "not an id").is_err());
    assert!(names::rename(BROKEN, 0, "x").is_err());

    let tabs = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        tab \"open\" { operation = \"new\" label = \"report\" }\n        tab \"back\" { operation = \"switch\" tab = 0 }\n        tab \"again\" { operation = \"switch\" tab = \"report\" }\n    }\n}\n";
    assert!(diagnostics::diagnose(tabs, &[]).is_empty());
    let edits = names::rename(tabs, at(tabs, "tab = \"rep", 0), "summary").unwrap();
    let renamed = apply(tabs, &edits);
    assert_eq!(renamed.matches("\"summary\"").count(), 2, "{renamed}");
    assert!(diagnostics::diagnose(&renamed, &[]).is_empty());
}

#[test]
fn hostile_text_gets_answers_not_panics() {
    let big = format!("suite \"s\" {{\n# {}\n}}\n", "x".repeat(1024 * 1024));
    let found = diagnostics::diagnose(&big, &[]);
    assert_eq!(found[0].code.as_str(), "test.spec.file_too_large");
    assert!(format::format(&big).is_none());
    assert!(symbols::symbols(&big).is_empty());
    assert!(completion::complete(&big, big.len() / 2).is_empty());
    for text in [
        "",
        "{",
        "suite \"",
        "suite \"s\" { scenario",
        "\u{feff}é😀 = = =",
    ] {
        let _ = diagnostics::diagnose(text, &[]);
        for offset in 0..=text.len() {
            let _ = completion::complete(text, offset);
            let _ = hover::hover(text, &[], offset);
        }
        let _ = tokens::tokens(text);
        let _ = folding::folds(text, &Lines::new(text));
    }
}
