//! The terminal driver behind the contract, on a real shell program: every screen condition
//! holds and fails with its code, evidence steps and the failure capture write their files,
//! a wait into the deadline is `test.run.timeout`, and closing the context stops the program.

use a3s_test_driver::{
    ContextOptions, FailureCode, ProcessVars, StepEnv, StepFailure, StepOutput, SurfaceContext,
    SurfaceDriver,
};
use a3s_test_fsroot::Dir;
use a3s_test_lang::ir::{AdmittedDocument, Step};
use a3s_test_tui::{ProgramSpec, TerminalOptions, TuiContext, TuiDriver};
use std::time::Duration;
use tokio::time::Instant;

/// The steps of one terminal scenario holding `body`.
fn steps(body: &str) -> Vec<Step> {
    let source =
        format!("suite \"s\" {{\n  scenario \"sc\" {{\n    surface = \"tui\"\n{body}\n  }}\n}}\n");
    match a3s_test_lang::admit(&source).document {
        Some(AdmittedDocument::Suite(mut suite)) => suite.scenarios.remove(0).steps,
        other => panic!("not admitted: {other:?}"),
    }
}

/// A program that prints `ab`, reads a line, answers `got <line>` and exits 3.
async fn context() -> TuiContext {
    let program = ProgramSpec::new(
        "sh",
        ["-c", "printf ab; read x; printf 'got %s\\n' \"$x\"; exit 3"],
    );
    TuiDriver::new(program, TerminalOptions::default())
        .new_context(ContextOptions::default())
        .await
        .expect("the program starts")
}

async fn run(
    ctx: &mut TuiContext,
    dir: &Dir,
    step: &Step,
    deadline: Duration,
) -> Result<StepOutput, StepFailure> {
    let env = StepEnv {
        base_url: None,
        action_timeout: Duration::from_secs(5),
        expect_timeout: Duration::from_secs(5),
        deadline: Instant::now() + deadline,
        deadline_name: "scenario",
        artifact_dir: dir,
        working_dir: std::path::Path::new("."),
        snapshots: None,
        vars: &ProcessVars::RUN,
    };
    ctx.execute(step, &env).await
}

#[tokio::test]
async fn terminal_steps_hold_fail_with_their_codes_and_write_evidence() {
    let folder = tempfile::tempdir().unwrap();
    let dir = Dir::open_anchor(folder.path()).unwrap();
    let mut ctx = context().await;
    let pid = ctx.terminal().pid();
    let passing = steps(
        r#"    wait "ab" { text = "ab" }
    expect "cursor" { cursor_at = [1, 3] }
    expect "absent" { not_text = "zzz" }
    snapshot "snap" {}
    screenshot "shot" {}
    type "answer" { value = "hi" }
    press "enter" { key = "Enter" }
    wait "got" { regex = "got h." }
    expect "ended" { exit_code = 3 }"#,
    );
    for step in &passing {
        let out = run(&mut ctx, &dir, step, Duration::from_secs(20))
            .await
            .unwrap_or_else(|f| panic!("{}: {f:?}", step.path));
        if step.label.as_deref() == Some("shot") {
            assert_eq!(out.evidence[0].kind.as_str(), "screenshot");
        }
    }
    let snap = std::fs::read_to_string(folder.path().join("snap.txt")).unwrap();
    assert!(snap.contains("│ab"), "{snap}");
    let svg = std::fs::read_to_string(folder.path().join("shot.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");

    let failing = steps(
        r#"    expect "text" { text = "nope" timeout_ms = 100 }
    expect "cursor" { cursor_at = [9, 9] timeout_ms = 100 }
    expect "code" { exit_code = 0 }
    wait "never" { text = "never shown" }"#,
    );
    let codes = [
        FailureCode::TextMismatch,
        FailureCode::CursorMismatch,
        FailureCode::ExitCodeMismatch,
        FailureCode::TuiExitedEarly,
    ];
    for (step, code) in failing.iter().zip(codes) {
        let f = run(&mut ctx, &dir, step, Duration::from_millis(300))
            .await
            .expect_err("fails");
        assert_eq!(f.code, code, "{}: {f:?}", step.path);
        if code != FailureCode::ExitCodeMismatch {
            let seen = &f.waited.as_ref().expect("the last screen").last_seen;
            assert!(seen.contains("got hi"), "{seen}");
        }
    }
    // Input to an ended program is the engine's coded failure.
    let typed = steps(r#"    type "late" { value = "x" }"#);
    let f = run(&mut ctx, &dir, &typed[0], Duration::from_secs(5))
        .await
        .expect_err("the program has ended");
    assert_eq!(f.code, FailureCode::TuiNotRunning);

    let failure = Dir::open_anchor(folder.path())
        .unwrap()
        .create_dir("failure")
        .unwrap();
    let evidence = ctx
        .capture_failure_evidence(&failure, Instant::now() + Duration::from_secs(5))
        .await;
    assert!(evidence.missing.is_empty(), "{:?}", evidence.missing);
    let kinds: Vec<&str> = evidence.files.iter().map(|f| f.kind.as_str()).collect();
    assert_eq!(kinds, ["screen", "screenshot", "recording", "exit_status"]);
    let status = std::fs::read_to_string(folder.path().join("failure/exit-status.txt")).unwrap();
    assert_eq!(status, "exit code 3\n");
    ctx.close().await.unwrap();
    assert!(a3s_test_driver::live_group_members(pid).is_empty());
}

#[tokio::test]
async fn closing_a_context_stops_a_running_program_and_its_group() {
    let mut ctx = context().await;
    let folder = tempfile::tempdir().unwrap();
    let dir = Dir::open_anchor(folder.path()).unwrap();
    let wait = steps(r#"    wait "ab" { text = "ab" }"#);
    run(&mut ctx, &dir, &wait[0], Duration::from_secs(20))
        .await
        .unwrap();
    // A wait the program never satisfies runs into the deadline: `test.run.timeout`.
    let never = steps(r#"    wait "never" { text = "never shown" }"#);
    let f = run(&mut ctx, &dir, &never[0], Duration::from_millis(200))
        .await
        .expect_err("times out");
    assert_eq!(f.code, FailureCode::Timeout, "{f:?}");
    assert!(f.waited.unwrap().last_seen.starts_with("ab"));
    let pid = ctx.terminal().pid();
    assert!(!a3s_test_driver::live_group_members(pid).is_empty());
    ctx.close().await.unwrap();
    assert!(a3s_test_driver::live_group_members(pid).is_empty());
}
