//! Checker tests: every admission code the checker emits (with its path and span), valid sources
//! for every step and condition form admitted to the expected IR, a file with many mistakes, and
//! statement mode.

mod codes;
mod context_options;
mod contract;
mod desktop;
mod env;
mod groups;
mod mixed;
mod network;
mod organisation;
mod params;
mod project;
mod rules;
mod snapshot;
mod statement;
mod terminal;
mod valid;
mod visual_point;

use a3s_test_lang::ir::{Action, AdmittedDocument, Scenario, Suite};
use a3s_test_lang::{admit, admit_statement, Code, Diagnostic};

/// Wrap step blocks in a minimal suite and scenario (`suite.s.scenario.sc.<kind>.<label>`).
pub fn in_scenario(steps: &str) -> String {
    format!(
        "suite \"s\" {{\n    scenario \"sc\" {{\n        surface = \"web\"\n{steps}\n    }}\n}}\n"
    )
}

/// Admit `source`, panicking with every diagnostic when it is rejected.
pub fn admitted_suite(source: &str) -> Suite {
    let admission = admit(source);
    match admission.document {
        Some(AdmittedDocument::Suite(suite)) => suite,
        other => panic!(
            "expected an admitted suite, got {other:?}\n{}",
            show(source, &admission.diagnostics)
        ),
    }
}

/// The only scenario of an admitted suite.
pub fn only_scenario(source: &str) -> Scenario {
    let mut suite = admitted_suite(source);
    assert_eq!(suite.scenarios.len(), 1);
    suite.scenarios.remove(0)
}

/// The action of a single step block, admitted inside a minimal scenario.
pub fn action(step: &str) -> Action {
    let mut scenario = only_scenario(&in_scenario(step));
    assert_eq!(scenario.steps.len(), 1, "{step}");
    scenario.steps.remove(0).action
}

/// Diagnostics as `(code, path, spanned text)`, for compact assertions.
pub fn problems(source: &str) -> Vec<(Code, String, String)> {
    let admission = admit(source);
    assert!(admission.document.is_none() || admission.diagnostics.iter().all(|d| !d.is_error()));
    admission
        .diagnostics
        .iter()
        .map(|d| (d.code, d.path.clone(), source[d.span.range()].to_string()))
        .collect()
}

/// The diagnostics an agent statement is refused with, as `(code, path, spanned text)`; panics
/// when it is admitted.
pub fn statement_problems(source: &str) -> Vec<(Code, String, String)> {
    match admit_statement(source) {
        Ok(step) => panic!("{source:?} was admitted as {step:?}"),
        Err(diagnostics) => diagnostics
            .iter()
            .map(|d| (d.code, d.path.clone(), source[d.span.range()].to_string()))
            .collect(),
    }
}

/// The one diagnostic `source` is rejected with; panics with every diagnostic when there is not
/// exactly one.
pub fn only_diagnostic(source: &str) -> Diagnostic {
    let admission = admit(source);
    let mut diagnostics = admission.diagnostics;
    assert_eq!(
        diagnostics.len(),
        1,
        "expected one diagnostic in\n{source}\n{}",
        show(source, &diagnostics)
    );
    diagnostics.remove(0)
}

/// A readable dump of diagnostics for failure messages.
pub fn show(source: &str, diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| {
            format!(
                "  {} at {} {:?}: {} (hint: {})",
                d.code,
                d.path,
                &source[d.span.range()],
                d.message,
                d.hint
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
