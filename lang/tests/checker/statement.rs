//! Statement mode (`docs/acl.md` §12): one step block, label optional, paths under `statement`;
//! `soft` is refused (§9.1).

use crate::statement_problems;
use a3s_test_lang::ir::{Action, ElementRef, Target};
use a3s_test_lang::{admit_statement, Code};

#[test]
fn an_unlabelled_statement_is_admitted() {
    let step = admit_statement("click { target = ref(\"@e3\") }").expect("admitted");
    assert_eq!(step.label, None);
    assert_eq!(step.path, "statement.click");
    assert_eq!(
        step.action,
        Action::Click {
            target: Target::Ref {
                reference: ElementRef::Accessibility(3)
            },
            pointer: Default::default(),
            via: Default::default(),
            action: None,
        }
    );
}

#[test]
fn a_labelled_statement_keeps_its_label() {
    let step =
        admit_statement("fill \"email\" {\n target = label(\"Email\")\n value = \"a@b.c\"\n}")
            .expect("admitted");
    assert_eq!(step.label.as_deref(), Some("email"));
    assert_eq!(step.path, "statement.fill.email");
}

#[test]
fn statement_paths_start_at_statement() {
    assert_eq!(
        statement_problems("click { target = ref(\"@u3\") }"),
        vec![(
            Code::TargetObservationOnly,
            "statement.click.target".into(),
            "\"@u3\"".into()
        )]
    );
    assert_eq!(
        statement_problems("click \"go\" { target = rol(\"button\") }"),
        vec![(
            Code::UnknownTarget,
            "statement.click.go.target".into(),
            "rol".into()
        )]
    );
    assert_eq!(
        statement_problems("click \"bad label\" { target = css(\"a\") }"),
        vec![(
            Code::InvalidId,
            "statement.click.bad label".into(),
            "\"bad label\"".into()
        )]
    );
}

#[test]
fn zero_or_several_blocks_are_a_statement_count_error() {
    let none = statement_problems("   ");
    assert_eq!(none.len(), 1);
    assert_eq!(none[0].0, Code::StatementCount);
    assert_eq!(none[0].1, "statement");

    let two = statement_problems("click { target = css(\"a\") }\nclick { target = css(\"b\") }");
    assert_eq!(
        two,
        vec![(Code::StatementCount, "statement".into(), "click".into())]
    );
}

#[test]
fn a_suite_is_not_a_statement() {
    let source = "suite \"s\" {\n scenario \"sc\" {\n surface = \"web\"\n navigate \"n\" { url = \"/\" }\n }\n}";
    let diagnostics = admit_statement(source).expect_err("rejected");
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].code, Code::StatementCount);
    assert!(
        diagnostics[0].hint.contains("a3s-test run"),
        "{}",
        diagnostics[0].hint
    );
}

#[test]
fn an_unknown_statement_kind_suggests_a_step() {
    let diagnostics = admit_statement("clik { target = css(\"a\") }").expect_err("rejected");
    assert_eq!(diagnostics[0].code, Code::UnknownBlock);
    assert_eq!(diagnostics[0].hint, "did you mean `click`?");
}

#[test]
fn an_agent_statement_refuses_a_soft_expect() {
    assert_eq!(
        statement_problems("expect {\n  text = \"Saved\"\n  soft = true\n}"),
        [(
            Code::InvalidValue,
            "statement.expect.soft".to_string(),
            "soft = true".to_string()
        )]
    );
    // `soft = false` says nothing an agent turn could not do, but it is refused the same way:
    // soft expects belong to suites.
    assert_eq!(
        statement_problems("expect {\n  text = \"Saved\"\n  soft = false\n}").len(),
        1
    );
}

/// A terminal session's statements are judged by the terminal rules: `type { value }` (no
/// target) and `press { key }` are terminal steps, a browser step is `surface_step` at its span,
/// and the same `type` without a target is still a web error in a web session.
#[test]
fn a_terminal_statement_is_admitted_by_the_terminal_rules() {
    use a3s_test_lang::admit_statement_on;
    use a3s_test_lang::ir::{Surface, TerminalStep};
    let step = admit_statement_on("type { value = \"6*7\" }", Surface::Tui).expect("admitted");
    assert!(
        matches!(step.action, Action::Terminal(TerminalStep::Type { .. })),
        "{step:?}"
    );
    let press = admit_statement_on("press \"go\" { key = \"Enter\" }", Surface::Tui).unwrap();
    assert_eq!(press.label.as_deref(), Some("go"));
    assert!(matches!(
        press.action,
        Action::Terminal(TerminalStep::Press { .. })
    ));
    let source = "click { target = css(\"a\") }";
    let refused = admit_statement_on(source, Surface::Tui).unwrap_err();
    assert_eq!(refused[0].code, Code::SurfaceStep, "{refused:?}");
    assert_eq!(&source[refused[0].span.range()], "click");
    assert!(admit_statement("type { value = \"6*7\" }").is_err());
}
