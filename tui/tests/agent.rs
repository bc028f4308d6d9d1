//! The terminal's agent surface (`TerminalAgentContext`'s parts on the engine): the screen as
//! plain rows with a 1-based cursor and how the program ended, and the settle wait after input a
//! program does not answer — on real programs.

mod common;

use common::*;
use std::time::Duration;

#[tokio::test]
async fn the_agent_screen_is_plain_rows_a_one_based_cursor_and_the_exit() {
    let t = start(&["sh", "-c", "printf 'a\\nbc'; exit 3"]);
    t.wait_exit(within(20)).await.unwrap();
    t.drained(tokio::time::Instant::now() + Duration::from_secs(5))
        .await;
    let screen = t.agent_screen();
    assert_eq!(screen.rows.len(), 24);
    assert_eq!(screen.rows[..3], ["a", "bc", ""]);
    assert_eq!((screen.cursor.row, screen.cursor.column), (2, 3));
    assert_eq!(screen.columns, 80);
    assert_eq!(screen.exit.as_deref(), Some("exit code 3"));
    assert_eq!(screen.revision, t.revision());
}

#[tokio::test]
async fn input_a_program_does_not_answer_settles_at_the_cap_as_quiet() {
    let t = start(&["sh", "-c", "stty -echo; printf ready; cat >/dev/null"]);
    t.wait_for(&a3s_test_tui::Condition::Text("ready".into()), within(20))
        .await
        .unwrap();
    let before = t.revision();
    t.type_text("x").unwrap();
    let cap = Duration::from_millis(300);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let settled = t
        .settle(Some(before), Duration::from_millis(20), cap, deadline)
        .await;
    assert!(settled.settled, "{settled:?}");
    assert!(settled.waited_ms >= 300, "{settled:?}");
    assert_eq!(t.revision(), before, "nothing was echoed");
}

/// What another process writes to the program's terminal is on the screen once `drained`
/// returns — with no wait for the text: the gate that refuses input after a change relies on
/// exactly this. Repeated, since a miss would be a race with the kernel's buffer worker.
#[tokio::test]
async fn output_written_before_drained_is_on_the_screen_after_it() {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let t = start(&["sh", "-c", "stty -echo; printf ready; cat >/dev/null"]);
    t.wait_for(&a3s_test_tui::Condition::Text("ready".into()), within(20))
        .await
        .unwrap();
    let tty = std::fs::read_link(format!("/proc/{}/fd/0", t.pid())).unwrap();
    let mut terminal = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(rustix::fs::OFlags::NOCTTY.bits() as i32)
        .open(&tty)
        .unwrap();
    for i in 0..200 {
        let before = t.revision();
        write!(terminal, "\r\nline {i}").unwrap();
        t.drained(tokio::time::Instant::now() + Duration::from_secs(10))
            .await;
        let screen = t.agent_screen();
        assert!(screen.revision > before, "write {i} not seen");
        assert!(
            screen.rows.iter().any(|r| r == &format!("line {i}")),
            "write {i}: {:?}",
            screen.rows
        );
    }
}
