//! Terminal scenarios (`docs/acl.md` §5.1): the public 1.0 suite shape is admitted to terminal
//! steps; browser steps and page conditions in a tui scenario, terminal steps and screen
//! conditions in a web one, bad regular expressions, keys and sizes are refused with their codes,
//! paths and spans (snapshotted as rendered diagnostics).

use crate::{admitted_suite, problems, show};
use a3s_test_lang::admit;
use a3s_test_lang::ir::terminal_key::{Key, NamedKey};
use a3s_test_lang::ir::{
    Action, AdmittedDocument, ScreenMatch, TerminalCondition, TerminalStep, TextValue,
};
use a3s_test_lang::Code;

fn tui(steps: &str) -> String {
    format!("suite \"s\" {{\n  scenario \"sc\" {{\n    surface = \"tui\"\n{steps}\n  }}\n}}\n")
}

fn terminal_steps(source: &str) -> Vec<TerminalStep> {
    let suite = admitted_suite(source);
    suite.scenarios[0]
        .steps
        .iter()
        .map(|s| match &s.action {
            Action::Terminal(t) => t.clone(),
            other => panic!("not a terminal step: {other:?}"),
        })
        .collect()
}

/// Every diagnostic of `source`, one line each, for snapshots.
fn rendered(source: &str) -> String {
    let admission = admit(source);
    assert!(!admission.is_admitted(), "{source}");
    show(source, &admission.diagnostics)
}

#[test]
fn the_public_1_0_terminal_suite_shape_is_admitted() {
    let source = tui(r##"    wait "ready" { text = "Ready" }
    terminal_resize "wide" { columns = 100 rows = 30 }
    terminal_paste "paste" { text = "hello\nworld" }
    press "submit" { key = "Enter" }
    wait "answer" { regex = "total: \\d+" }
    expect "shown" { text = "done" }
    terminal_recording "cast" { path = "session.cast" }"##);
    let steps = terminal_steps(&source);
    assert_eq!(
        steps,
        vec![
            TerminalStep::Wait {
                condition: ScreenMatch::Text {
                    text: "Ready".into()
                }
            },
            TerminalStep::Resize {
                columns: 100,
                rows: 30
            },
            TerminalStep::Paste {
                text: "hello\nworld".into()
            },
            TerminalStep::Press {
                key: Key::Named(NamedKey::Enter)
            },
            TerminalStep::Wait {
                condition: ScreenMatch::Regex {
                    regex: "total: \\d+".into()
                }
            },
            TerminalStep::Expect {
                condition: TerminalCondition::Shows(ScreenMatch::Text {
                    text: "done".into()
                }),
                timeout_ms: None
            },
            TerminalStep::Recording {
                path: a3s_test_lang::ir::EvidencePath("session.cast".into())
            },
        ]
    );
    // The IR round-trips through JSON (agent sessions and `check --json` serialize it).
    let suite = admitted_suite(&source);
    let json = serde_json::to_string(&suite).unwrap();
    let back: a3s_test_lang::ir::Suite = serde_json::from_str(&json).unwrap();
    assert_eq!(back, suite);
}

#[test]
fn every_terminal_step_and_condition_is_admitted() {
    let source = tui(r##"    type "calc" { value = "6*7" }
    press "ctrl" { key = "Control+c" }
    press "alt" { key = "Alt+x" }
    expect "regex" { regex = "^4\\d$" timeout_ms = 200 }
    expect "gone" { not_text = "error" }
    expect "cursor" { cursor_at = [2, 1] }
    expect "ended" { exit_code = 0 }
    snapshot "screen" {}
    screenshot "image" { path = "shots/end.svg" }"##);
    let steps = terminal_steps(&source);
    assert_eq!(
        steps[0],
        TerminalStep::Type {
            value: TextValue::Literal("6*7".into())
        }
    );
    assert_eq!(
        steps[1],
        TerminalStep::Press {
            key: Key::Control('c')
        }
    );
    assert_eq!(steps[2], TerminalStep::Press { key: Key::Alt('x') });
    assert_eq!(
        steps[3],
        TerminalStep::Expect {
            condition: TerminalCondition::Shows(ScreenMatch::Regex {
                regex: "^4\\d$".into()
            }),
            timeout_ms: Some(200)
        }
    );
    assert!(matches!(
        steps[5],
        TerminalStep::Expect {
            condition: TerminalCondition::CursorAt { row: 2, column: 1 },
            ..
        }
    ));
    assert!(matches!(
        steps[6],
        TerminalStep::Expect {
            condition: TerminalCondition::ExitCode { code: 0 },
            ..
        }
    ));
    assert_eq!(steps[7], TerminalStep::Snapshot { path: None });
    assert_eq!(steps[8].kind().name(), "screenshot");
}

#[test]
fn a_mixed_suite_admits_each_scenario_on_its_surface() {
    let source = r##"suite "mixed" {
  scenario "page" {
    surface = "web"
    navigate "open" { url = "https://example.com/" }
    wait "title" { text = "Example" }
  }
  scenario "calc" {
    surface = "tui"
    wait "prompt" { text = ">>> " }
  }
}
"##;
    let suite = admitted_suite(source);
    assert!(matches!(
        suite.scenarios[0].steps[1].action,
        Action::Wait { .. }
    ));
    assert!(matches!(
        suite.scenarios[1].steps[0].action,
        Action::Terminal(TerminalStep::Wait { .. })
    ));
}

#[test]
fn browser_steps_and_conditions_in_a_tui_scenario_are_refused() {
    let source = tui(r##"    navigate "open" { url = "https://example.com/" }
    click "pay" { target = css("button") }
    type "into" { target = css("#q") value = "x" }
    wait "loaded" { load = "networkidle" }
    expect "seen" { visible = css("h1") }
    snapshot "tree" { interactive = true }"##);
    insta::assert_snapshot!(rendered(&source));
    let codes: Vec<Code> = problems(&source).into_iter().map(|p| p.0).collect();
    assert!(codes.iter().all(|c| *c == Code::SurfaceStep), "{codes:?}");
}

#[test]
fn terminal_steps_and_conditions_in_a_web_scenario_are_refused() {
    let source = r##"suite "s" {
  scenario "sc" {
    surface = "web"
    terminal_resize "r" { columns = 100 rows = 30 }
    wait "w" { regex = "a+" }
    expect "e" { cursor_at = [1, 1] }
  }
}
"##;
    insta::assert_snapshot!(rendered(source));
}

#[test]
fn a_web_step_a_hook_brings_into_a_tui_scenario_is_refused() {
    // A mixed suite: the hook holds web steps, so the terminal scenario refuses it.
    let mixed = r##"suite "s" {
  before_each {
    navigate "open" { url = "https://example.com/" }
  }
  scenario "page" {
    surface = "web"
    click "c" { target = css("a") }
  }
  scenario "sc" {
    surface = "tui"
    wait "w" { text = "ready" }
  }
}
"##;
    let found = problems(mixed);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::SurfaceStep);
    assert_eq!(found[0].1, "suite.s.scenario.sc.before_each.navigate.open");
    // An all-terminal suite: the hook is checked by the terminal rules where it is written.
    let terminal = mixed.replace(
        "  scenario \"page\" {\n    surface = \"web\"\n    click \"c\" { target = css(\"a\") }\n  }\n",
        "",
    );
    let found = problems(&terminal);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::SurfaceStep);
    assert_eq!(found[0].1, "suite.s.before_each.navigate.open");
}

#[test]
fn bad_regexes_keys_sizes_and_conditions_are_refused_at_their_spans() {
    let source = tui(r##"    wait "bad" { regex = "(unclosed" }
    press "k" { key = "Control+1" }
    press "k2" { key = "Hyper" }
    terminal_resize "r" { columns = 0 rows = 501 }
    wait "none" {}
    expect "two" { text = "a" not_text = "b" }
    expect "cur" { cursor_at = [0, 1] }
    terminal_recording "rec" { path = "../out.cast" }
    screenshot "png" { path = "shot.png" }"##);
    insta::assert_snapshot!(rendered(&source));
}

#[test]
fn the_project_tui_block_is_admitted_and_checked() {
    let ok = r##"project "p" {
  tui {
    command = ["bc", "-q"]
    cwd = "."
    env = { LANG = "C", BC_LINE_LENGTH = "0" }
    columns = 100
    rows = 30
  }
}
"##;
    let Some(AdmittedDocument::Project(project)) = admit(ok).document else {
        panic!("{}", show(ok, &admit(ok).diagnostics));
    };
    let program = project.tui.expect("a tui block");
    assert_eq!(program.command, vec!["bc", "-q"]);
    assert_eq!(program.env[1], ("BC_LINE_LENGTH".into(), "0".into()));
    assert_eq!((program.columns, program.rows), (Some(100), Some(30)));
    let bad = r##"project "p" {
  tui {
    command = []
    env = { LANG = 1 }
    columns = 1001
  }
}
"##;
    insta::assert_snapshot!(rendered(bad));
}

#[test]
fn hooks_and_groups_of_an_all_terminal_suite_hold_terminal_steps() {
    let source = r##"suite "s" {
  before_each {
    wait "ready" { text = ">>> " }
  }
  steps "answer" {
    press "enter" { key = "Enter" }
  }
  scenario "a" {
    surface = "tui"
    type "t" { value = "6*7" }
    use "answer" {}
  }
  scenario "b" {
    surface = "tui"
    expect "e" { not_text = "error" }
  }
}
"##;
    let suite = admitted_suite(source);
    for scenario in &suite.scenarios {
        assert!(
            scenario
                .steps
                .iter()
                .all(|s| matches!(s.action, Action::Terminal(_))),
            "{:?}",
            scenario.steps
        );
    }
    assert_eq!(suite.scenarios[0].steps.len(), 3);
}
