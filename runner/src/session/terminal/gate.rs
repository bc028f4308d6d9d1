//! The terminal gate: input reaches the program only against the screen the agent saw.
//!
//! A terminal has no refs to prove, so gate 4 of a terminal session binds the statement to the
//! *screen*: input (`type`, `press`, `terminal_paste`, `terminal_resize`) must name the latest
//! observation, that observation must still be open (no action ran since), and the screen's
//! revision now — read after every byte the program already wrote reached it — must be the one
//! that observation saw. Anything else is `test.session.stale_screen` and nothing is sent: an
//! agent that typed into a screen it had not seen (a prompt that moved, a menu that redrew)
//! would act on a guess. Steps that only read (`wait`, `expect`, `snapshot`, `screenshot`,
//! `terminal_recording`) need no observation; one they name is checked the same way.
//!
//! Pure over the session record, so each refusal is unit-tested here.

use crate::session::code::{SessionCode, SessionError};
use crate::session::file::SessionFile;
use a3s_test_lang::ir::{Action, Step, TerminalStep};

/// True for a step that sends something to the program (or changes its terminal).
pub fn is_input(step: &Step) -> bool {
    matches!(
        &step.action,
        Action::Terminal(
            TerminalStep::Type { .. }
                | TerminalStep::Press { .. }
                | TerminalStep::Paste { .. }
                | TerminalStep::Resize { .. }
        )
    )
}

fn stale(message: String) -> SessionError {
    SessionError::new(SessionCode::StaleScreen, message)
}

/// The statement's binding to observation `observation` before any of it is sent: `input` says
/// whether it sends anything, `revision` is the screen's revision now.
pub fn screen_binding(
    file: &SessionFile,
    observation: Option<u64>,
    input: bool,
    revision: u64,
) -> Result<(), SessionError> {
    let Some(n) = observation else {
        if input {
            return Err(stale(
                "input to a terminal must name the observation it was decided on (--observation \
                 N, the latest); nothing was sent: observe first"
                    .to_string(),
            ));
        }
        return Ok(());
    };
    let latest = match &file.latest {
        Some(latest) => latest,
        None => {
            return Err(stale(format!(
                "observation {n} does not exist; nothing was sent: observe first"
            )))
        }
    };
    if latest.id != n {
        return Err(stale(format!(
            "observation {n} is not the latest (that is {}); nothing was sent: observe again",
            latest.id
        )));
    }
    if !latest.open {
        return Err(stale(format!(
            "observation {n} ended (an action ran since); nothing was sent: observe again"
        )));
    }
    match file.screen_revision {
        Some(seen) if seen == revision => Ok(()),
        Some(seen) => Err(stale(format!(
            "the screen changed since observation {n} (revision {seen}, now {revision}): the \
             program wrote to it; nothing was sent: observe again"
        ))),
        None => Err(stale(format!(
            "observation {n} saw no screen; nothing was sent: observe again"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::file::ObservationRecord;

    fn file(latest: Option<(u64, bool)>, revision: Option<u64>) -> SessionFile {
        let mut file: SessionFile = serde_json::from_value(serde_json::json!({
            "format_version": 1, "id": "t", "state": "active", "start_url": "bc -q",
            "goal": null, "success": [], "policy": { "origins": [], "domains": [] },
            "budgets": { "max_actions": 10, "session_ms": 1000, "evidence_bytes": 1, "idle_ms": 1 },
            "cdp_endpoint": null, "socket": "/tmp/s", "ownership": {
                "supervisor_pid": 1, "supervisor_pgid": 1, "browser_pid": 2, "browser_pgid": 2,
                "token": "x" },
            "started_at_ms": 0, "last_turn_at_ms": 0, "next_turn": 1, "next_observation": 1,
            "actions": 0, "latest": null, "refs": [], "steps": [], "closed_reason": null
        }))
        .unwrap();
        file.latest = latest.map(|(id, open)| ObservationRecord {
            id,
            url: String::new(),
            loader_id: String::new(),
            open,
        });
        file.screen_revision = revision;
        file
    }

    fn code(r: Result<(), SessionError>) -> Option<SessionCode> {
        r.err().map(|e| e.code)
    }

    #[test]
    fn input_needs_the_latest_open_observation_of_an_unchanged_screen() {
        let open = file(Some((2, true)), Some(7));
        assert_eq!(code(screen_binding(&open, Some(2), true, 7)), None);
        let stale = Some(SessionCode::StaleScreen);
        assert_eq!(code(screen_binding(&open, None, true, 7)), stale);
        assert_eq!(code(screen_binding(&open, Some(1), true, 7)), stale);
        let changed = screen_binding(&open, Some(2), true, 8).unwrap_err();
        assert_eq!(changed.code, SessionCode::StaleScreen);
        assert!(
            changed.message.contains("revision 7, now 8"),
            "{}",
            changed.message
        );
        let ended = file(Some((2, false)), Some(7));
        assert_eq!(code(screen_binding(&ended, Some(2), true, 7)), stale);
        let none = file(None, None);
        assert_eq!(code(screen_binding(&none, Some(1), true, 0)), stale);
    }

    #[test]
    fn a_read_only_step_needs_no_observation_but_one_it_names_is_checked() {
        let open = file(Some((2, true)), Some(7));
        assert_eq!(code(screen_binding(&open, None, false, 9)), None);
        assert_eq!(
            code(screen_binding(&open, Some(2), false, 9)),
            Some(SessionCode::StaleScreen)
        );
    }
}
