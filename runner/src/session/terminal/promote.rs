//! Promotion of a terminal session: its passing statements, in turn order, as one `surface =
//! "tui"` scenario — each labelled `turn-N` unless the agent labelled it, printed by the
//! language's canonical printer and admitted again, so a promoted file is always valid. The
//! program is not part of a suite (the public A3S Test 1.0 CLI passes it as run flags): a comment
//! names it and [`run_command`] is the `a3s-test run` line that runs the suite on it.

use crate::session::code::{SessionCode, SessionError};
use crate::session::file::{SessionFile, TerminalProgram};
use crate::session::statement::{acl_string, with_label};

fn promotion(message: String) -> SessionError {
    SessionError::new(SessionCode::Promotion, message)
}

/// The promoted suite's source text (canonical layout).
pub fn suite_source(file: &SessionFile, program: &TerminalProgram) -> Result<String, SessionError> {
    if file.steps.is_empty() {
        return Err(promotion(format!(
            "session {} has no successful statement to promote",
            file.id
        )));
    }
    let mut body = String::new();
    let mut used: Vec<String> = Vec::new();
    for record in &file.steps {
        let labelled = with_label(&record.statement, &format!("turn-{}", record.turn));
        let step = a3s_test_lang::admit_statement_on(&labelled, a3s_test_lang::ir::Surface::Tui)
            .map_err(|d| {
                promotion(format!(
                    "turn {} no longer admits: {:?}",
                    record.turn,
                    d.first().map(|d| &d.message)
                ))
            })?;
        let label = step.label.unwrap_or_default();
        if used.contains(&label) {
            return Err(promotion(format!(
                "step label {label:?} is used twice; relabel turn {}",
                record.turn
            )));
        }
        used.push(label);
        body.push_str(&labelled);
        body.push('\n');
    }
    let source = format!(
        "# The program: {} ({}×{}); run it with the flags of `a3s-test agent promote`'s next command.\n\
         suite {id} {{\n scenario {id} {{\n surface = \"tui\"\n{body}}}\n}}\n",
        program.display().replace('\n', " "),
        program.columns,
        program.rows,
        id = acl_string(&file.id),
    );
    let formatted = a3s_test_lang::printer::format_source(&source).map_err(|d| {
        promotion(format!(
            "the promoted suite is not admitted: {}",
            d.first()
                .map(|d| format!("{}: {}", d.code.as_str(), d.message))
                .unwrap_or_default()
        ))
    })?;
    let admitted = a3s_test_lang::admit(&formatted);
    if !admitted.is_admitted() {
        return Err(promotion(format!(
            "the promoted suite is not admitted: {:?}",
            admitted.diagnostics.first().map(|d| &d.message)
        )));
    }
    Ok(formatted)
}

/// The `a3s-test run` command that runs the promoted suite at `output` on the session's program
/// (the public 1.0 terminal flags; an argument that starts with `-` is passed as `--tui-arg=…`).
pub fn run_command(output: &std::path::Path, program: &TerminalProgram) -> String {
    crate::session::run_line::program_run_command(
        output,
        "tui",
        &program.command,
        &program.cwd,
        [("columns", program.columns), ("rows", program.rows)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::file::StepRecord;

    fn file(statements: &[&str]) -> SessionFile {
        let mut file: SessionFile = serde_json::from_value(serde_json::json!({
            "format_version": 1, "id": "calc", "state": "finished", "start_url": "bc -q",
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
            .map(|(i, s)| StepRecord {
                turn: i as u64 + 2,
                statement: s.to_string(),
                resolved: Vec::new(),
                navigated: None,
                private: None,
            })
            .collect();
        file
    }

    fn program() -> TerminalProgram {
        TerminalProgram {
            command: vec!["bc".into(), "-q".into()],
            cwd: "/tmp/a b".into(),
            env: Vec::new(),
            columns: 80,
            rows: 24,
        }
    }

    #[test]
    fn the_passing_turns_become_a_terminal_scenario() {
        let source = suite_source(
            &file(&[
                "type { value = \"6*7\" }",
                "press \"go\" { key = \"Enter\" }",
                "expect { text = \"42\" }",
            ]),
            &program(),
        )
        .unwrap();
        insta::assert_snapshot!(source, @r#"
        # The program: bc -q (80×24); run it with the flags of `a3s-test agent promote`'s next command.
        suite "calc" {
            scenario "calc" {
                surface = "tui"
                type "turn-2" { value = "6*7" }
                press "go" { key = "Enter" }
                expect "turn-4" { text = "42" }
            }
        }
        "#);
        assert_eq!(
            run_command(std::path::Path::new("suites/calc.acl"), &program()),
            "a3s-test run suites/calc.acl --tui-executable bc --tui-arg=-q \
             --tui-working-directory '/tmp/a b' --tui-columns 80 --tui-rows 24"
        );
    }

    #[test]
    fn nothing_to_promote_is_a_promotion_error() {
        let e = suite_source(&file(&[]), &program()).unwrap_err();
        assert_eq!(e.code, SessionCode::Promotion);
    }
}
