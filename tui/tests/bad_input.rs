//! Bad input gives a clear coded result with bounded memory and nothing left running: a missing
//! program, one that exits at once, one that floods, one that never prints, invalid UTF-8, and
//! the smallest and largest sizes.

mod common;

use a3s_test_tui::{
    Condition, ProgramExit, Terminal, TerminalOptions, TerminalSize, TuiCode, MAX_COLUMNS, MAX_ROWS,
};
use common::*;
use std::time::Duration;

#[test]
fn a_missing_program_or_folder_is_refused_with_its_code() {
    let missing = Terminal::spawn(&spec(&["a3s-test-no-such-program"]), Default::default());
    assert_eq!(missing.unwrap_err().code(), TuiCode::ProgramNotFound);
    let mut in_nowhere = spec(&["true"]);
    in_nowhere.cwd = Some("/no/such/folder".into());
    let refused = Terminal::spawn(&in_nowhere, Default::default()).unwrap_err();
    assert_eq!(refused.code(), TuiCode::WorkingDirectory);
}

#[tokio::test]
async fn a_program_that_exits_at_once_ends_a_wait_early_and_takes_no_input() {
    let t = start(&["sh", "-c", "echo bye; exit 3"]);
    let early = t
        .wait_for(&Condition::Text("never".into()), within(20))
        .await
        .unwrap_err();
    assert_eq!(early.code(), TuiCode::ExitedEarly);
    assert!(early.to_string().contains("exit code 3"), "{early}");
    assert_eq!(t.exit_status(), Some(ProgramExit::Code(3)));
    assert!(t.screen().contains("bye"));
    assert_eq!(t.type_text("x").unwrap_err().code(), TuiCode::NotRunning);
}

#[tokio::test]
async fn a_program_that_never_prints_times_out_and_its_group_is_gone_after_drop() {
    let t = start(&["sh", "-c", "sleep 300 & sleep 300"]);
    let pgid = t.pid();
    let started = std::time::Instant::now();
    let timeout = t
        .wait_for(
            &Condition::Text("never".into()),
            std::time::Instant::now() + Duration::from_millis(300),
        )
        .await
        .unwrap_err();
    assert_eq!(timeout.code(), TuiCode::WaitTimeout);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!a3s_test_driver::live_group_members(pgid).is_empty());
    drop(t);
    assert!(group_gone(pgid), "nothing of the program's group is left");
}

#[tokio::test]
async fn a_flood_hits_the_output_budget_with_bounded_memory() {
    let options = TerminalOptions {
        max_output_bytes: 2 * 1024 * 1024,
        max_recording_bytes: 64 * 1024,
        ..TerminalOptions::default()
    };
    // 100 MB of output through a pipeline: the shell is the program here, on purpose.
    let t = start_with(
        &["sh", "-c", "head -c 100000000 /dev/zero | tr '\\0' x"],
        options,
    );
    let pgid = t.pid();
    let over = t
        .wait_for(&Condition::Text("never".into()), within(60))
        .await
        .unwrap_err();
    assert_eq!(over.code(), TuiCode::OutputBudget);
    assert!(t.output_bytes() > 2 * 1024 * 1024);
    assert!(t.output_bytes() < 100_000_000, "the reader stopped reading");
    assert!(t.recording_truncated());
    assert!(
        t.recording().len() < 128 * 1024,
        "the recording stays bounded"
    );
    // The program's group was stopped by the engine itself, before any drop.
    assert!(group_gone(pgid));
    assert_eq!(
        t.wait_exit(within(20)).await.unwrap_err().code(),
        TuiCode::OutputBudget
    );
    assert!(matches!(t.exit_status(), Some(ProgramExit::Signal(9))));
}

#[tokio::test]
async fn yes_floods_until_the_budget_and_the_screen_still_reads() {
    let options = TerminalOptions {
        max_output_bytes: 256 * 1024,
        ..TerminalOptions::default()
    };
    let t = start_with(&["yes", "flood"], options);
    let over = t
        .wait_for(&Condition::Exited, within(60))
        .await
        .unwrap_err();
    assert_eq!(over.code(), TuiCode::OutputBudget);
    assert!(t.screen().contains("flood"));
    assert_eq!(t.screen().scrollback.len(), 1000, "scrollback is bounded");
}

#[tokio::test]
async fn invalid_utf8_shows_as_replacement_characters() {
    let t = start(&[
        "python3",
        "-c",
        "import sys; sys.stdout.buffer.write(b'ok \\xff\\xfe \\xe2\\x82 end\\n')",
    ]);
    t.wait_exit(within(20)).await.unwrap();
    let screen = t.screen();
    assert!(screen.text().contains("ok \u{fffd}"), "{}", screen.text());
    assert!(screen.contains("end"));
    assert!(t.svg().contains("ok \u{fffd}"));
}

#[tokio::test]
async fn the_smallest_and_largest_sizes_work_and_beyond_is_refused() {
    let t = start_with(&["printf", "abc"], sized(1, 1));
    t.wait_exit(within(20)).await.unwrap();
    let screen = t.screen();
    assert_eq!((screen.rows.len(), screen.rows[0].len()), (1, 1));
    let _ = t.svg();

    let script = "import os; print('size', *os.get_terminal_size())";
    let t = start_with(
        &["python3", "-c", script],
        sized(u32::from(MAX_COLUMNS), u32::from(MAX_ROWS)),
    );
    t.wait_for(&Condition::Text("size 1000 500".into()), within(20))
        .await
        .unwrap();
    assert!(t.svg().starts_with("<svg"));

    for (columns, rows) in [(0, 24), (80, 0), (1001, 24), (80, 501), (u32::MAX, 1)] {
        let refused = TerminalSize::new(columns, rows).unwrap_err();
        let error = a3s_test_tui::TuiError::from(refused);
        assert_eq!(error.code(), TuiCode::BadSize);
    }
}
