//! Promotion of a desktop session: its passing statements, in turn order, with every ref
//! replaced by the locator it was dispatched through, as one `surface = "gui"` scenario — each
//! labelled `turn-N` unless the agent labelled it, printed by the canonical printer and admitted
//! again, so a promoted file is always valid. The program is not part of a suite: a comment
//! names it and [`run_command`] is the `a3s-test run` line with the `--gui-*` flags.
//!
//! [`scenario_source`] is also the exec gate's last check: a statement whose ref-free form would
//! not be admitted in a desktop scenario is refused before it is sent.

use crate::session::code::{SessionCode, SessionError};
use crate::session::file::{DesktopProgram, SessionFile};
use crate::session::statement::{
    acl_string, replace_refs_in_source, replace_visual_point_in_source, with_label,
};
use a3s_test_lang::ir::Surface;
use std::collections::BTreeMap;

fn promotion(message: String) -> SessionError {
    SessionError::new(SessionCode::Promotion, message)
}

/// One `surface = "gui"` scenario named `id` holding `statements`, formatted and admitted; a
/// statement a desktop scenario may not hold is `test.session.schema` with the first
/// diagnostic.
pub fn scenario_source(id: &str, statements: &[String]) -> Result<String, SessionError> {
    let body: String = statements.iter().map(|s| format!("{s}\n")).collect();
    let source = format!(
        "suite {id} {{\n scenario {id} {{\n surface = \"gui\"\n{body}}}\n}}\n",
        id = acl_string(id),
    );
    let refused = |d: Option<&a3s_test_lang::Diagnostic>| {
        SessionError::new(
            SessionCode::Schema,
            format!(
                "the statement is not admitted in a desktop scenario: {}",
                d.map(|d| format!("{}: {}; {}", d.code.as_str(), d.message, d.hint))
                    .unwrap_or_default()
            ),
        )
    };
    let formatted =
        a3s_test_lang::printer::format_source(&source).map_err(|d| refused(d.first()))?;
    let admitted = a3s_test_lang::admit(&formatted);
    if !admitted.is_admitted() {
        return Err(refused(admitted.diagnostics.first()));
    }
    Ok(formatted)
}

/// The promoted suite's source text (canonical layout).
pub fn suite_source(file: &SessionFile, program: &DesktopProgram) -> Result<String, SessionError> {
    if file.steps.is_empty() {
        return Err(promotion(format!(
            "session {} has no successful statement to promote",
            file.id
        )));
    }
    let mut statements = Vec::new();
    for record in &file.steps {
        let durable: BTreeMap<_, _> = record.resolved.iter().cloned().collect();
        let written = match visual_point_written(record)? {
            Some(written) => written,
            None => replace_refs_in_source(&record.statement, &durable),
        };
        statements.push(with_label(&written, &format!("turn-{}", record.turn)));
    }
    let scenario = scenario_source(&file.id, &statements)
        .map_err(|e| promotion(format!("the promoted suite is not admitted: {}", e.message)))?;
    Ok(format!(
        "# The program: {} ({}×{}); run it with the flags of `a3s-test agent promote`'s next command.\n{scenario}",
        program.display().replace('\n', " "),
        program.width,
        program.height,
    ))
}

/// A click at a `visual_point` as a suite writes it: the locator recorded at click time for
/// the control at the point (a point of one session's screenshot is never durable). `None`
/// for any other statement; a promotion error when no single locator named that control —
/// the step is refused, never dropped.
fn visual_point_written(
    record: &crate::session::file::StepRecord,
) -> Result<Option<String>, SessionError> {
    let admitted = a3s_test_lang::admit_statement_on(&record.statement, Surface::Gui);
    let Ok(step) = admitted else {
        return Ok(None);
    };
    if !crate::session::statement::has_visual_point(&step) {
        return Ok(None);
    }
    match record
        .resolved
        .iter()
        .find(|(point, _)| point.starts_with("visual_point("))
    {
        Some((_, target)) => Ok(Some(replace_visual_point_in_source(
            &record.statement,
            target,
        ))),
        None => Err(SessionError::new(
            SessionCode::Promotion,
            format!(
                "turn {} clicked a point of a screenshot where no single locator names a \
                 control ({}); a suite cannot hold the point: hint: act on that area through an \
                 @eN ref or a semantic target, or promote the turns before it",
                record.turn, record.statement
            ),
        )),
    }
}

/// The `a3s-test run` command that runs the promoted suite at `output` on the session's program.
pub fn run_command(output: &std::path::Path, program: &DesktopProgram) -> String {
    crate::session::run_line::program_run_command(
        output,
        "gui",
        &program.command,
        &program.cwd,
        [("width", program.width), ("height", program.height)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::file::StepRecord;
    use a3s_test_lang::ir::Target;

    fn file(statements: &[(&str, Option<&str>)]) -> SessionFile {
        let mut file: SessionFile = serde_json::from_value(serde_json::json!({
            "format_version": 1, "id": "calc", "state": "finished", "start_url": "gnome-calculator",
            "goal": null, "success": [], "policy": { "origins": [], "domains": [] },
            "budgets": { "max_actions": 10, "session_ms": 1000, "evidence_bytes": 1, "idle_ms": 1 },
            "cdp_endpoint": null, "socket": "/tmp/s", "ownership": {
                "supervisor_pid": 1, "supervisor_pgid": 1, "browser_pid": 2, "browser_pgid": 2,
                "token": "x" },
            "started_at_ms": 0, "last_turn_at_ms": 0, "next_turn": 1, "next_observation": 1,
            "actions": 0, "latest": null, "refs": [], "steps": [], "closed_reason": "passed"
        }))
        .unwrap();
        file.steps = statements
            .iter()
            .enumerate()
            .map(|(i, (s, name))| StepRecord {
                turn: i as u64 + 2,
                statement: s.to_string(),
                resolved: name
                    .map(|n| vec![("@e1".to_string(), Target::role_named("push button", n))])
                    .unwrap_or_default(),
                navigated: None,
                private: None,
            })
            .collect();
        file
    }

    fn program() -> DesktopProgram {
        DesktopProgram {
            command: vec!["gnome-calculator".into(), "--mode=basic".into()],
            cwd: "/tmp/a b".into(),
            env: Vec::new(),
            width: 1280,
            height: 800,
        }
    }

    #[test]
    fn the_passing_turns_become_a_desktop_scenario_with_refs_replaced() {
        let source = suite_source(
            &file(&[
                ("click { target = ref(\"@e1\") }", Some("7")),
                ("press \"go\" { key = \"Enter\" }", None),
                ("expect { text = \"42\" }", None),
            ]),
            &program(),
        )
        .unwrap();
        insta::assert_snapshot!(source, @r#"
        # The program: gnome-calculator --mode=basic (1280×800); run it with the flags of `a3s-test agent promote`'s next command.
        suite "calc" {
            scenario "calc" {
                surface = "gui"
                click "turn-2" { target = role("push button", "7", exact = true) }
                press "go" { key = "Enter" }
                expect "turn-4" { text = "42" }
            }
        }
        "#);
        assert_eq!(
            run_command(std::path::Path::new("suites/calc.acl"), &program()),
            "a3s-test run suites/calc.acl --gui-executable gnome-calculator \
             --gui-arg=--mode=basic --gui-working-directory '/tmp/a b' --gui-width 1280 \
             --gui-height 800"
        );
    }

    #[test]
    fn a_visual_point_is_written_as_the_control_found_there_or_refused() {
        let mut named = file(&[("click { target = visual_point(\"@v1\", 120, 40) }", None)]);
        named.steps[0].resolved = vec![(
            "visual_point(\"@v1\", 120, 40)".into(),
            Target::role_named("push button", "7"),
        )];
        let source = suite_source(&named, &program()).unwrap();
        assert!(
            source.contains(
                "click \"turn-2\" { target = role(\"push button\", \"7\", exact = true) }"
            ),
            "{source}"
        );
        assert!(!source.contains("visual_point"), "{source}");
        let unnamed = file(&[
            ("press \"go\" { key = \"Enter\" }", None),
            ("click { target = visual_point(\"@v1\", 5, 6) }", None),
        ]);
        let e = suite_source(&unnamed, &program()).unwrap_err();
        assert_eq!(e.code, SessionCode::Promotion);
        assert!(e.message.contains("turn 3"), "{}", e.message);
        assert!(e.message.contains("hint:"), "{}", e.message);
    }

    #[test]
    fn a_browser_only_statement_is_refused_and_nothing_promotes_from_nothing() {
        let e = scenario_source("s", &["click \"a\" { target = css(\"#a\") }".to_string()])
            .unwrap_err();
        assert_eq!(e.code, SessionCode::Schema);
        assert!(e.message.contains("css"), "{}", e.message);
        let e = suite_source(&file(&[]), &program()).unwrap_err();
        assert_eq!(e.code, SessionCode::Promotion);
    }
}
