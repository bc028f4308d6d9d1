//! The supervisor's ready line: the one JSON line it prints on stdout once its session is up, or
//! once it knows it cannot be, which `agent start` ([`super::spawn`]) waits for (bounded) before
//! it hands the session over.
//!
//! Why typed: it is an answer of one of our processes to another, like the socket's, so it is one
//! enum written and read as itself — not an object whose `ok` and `error.message` the reader
//! picks out by name. Both ends are the same build (`agent start` runs its own executable as the
//! supervisor), so the line needs no version.

use super::code::{SessionCode, SessionError};
use a3s_test_ledger::SessionId;
use serde::{Deserialize, Serialize};

/// How the supervisor's start went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ready {
    /// The session is up and its socket listens; `session.json` is written.
    Started {
        /// The session.
        session: SessionId,
    },
    /// It could not start (its record, when there is one, says so too).
    Failed {
        /// Why.
        error: SessionError,
    },
}

impl Ready {
    /// The line as the supervisor prints it (without the newline).
    pub fn line(&self) -> String {
        serde_json::to_string(self).expect("ready lines serialize")
    }

    /// Read the line `agent start` got: `Ok` when the supervisor started, else the supervisor's
    /// reason as `test.session.supervisor` — also for no line at all (it died) or a line that is
    /// not a ready line.
    pub fn read(line: &str) -> Result<SessionId, SessionError> {
        match serde_json::from_str::<Ready>(line.trim_end()) {
            Ok(Ready::Started { session }) => Ok(session),
            Ok(Ready::Failed { error }) => {
                Err(SessionError::new(SessionCode::Supervisor, error.message))
            }
            Err(_) => Err(SessionError::new(
                SessionCode::Supervisor,
                "the supervisor exited before it was ready (see artifacts/supervisor.log)",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_started_supervisor_names_its_session() {
        let session = SessionId::parse("s-1").unwrap();
        let line = Ready::Started {
            session: session.clone(),
        }
        .line();
        assert_eq!(line, r#"{"started":{"session":"s-1"}}"#);
        assert_eq!(Ready::read(&format!("{line}\n")), Ok(session));
    }

    #[test]
    fn a_failed_start_says_why_and_no_line_says_where_to_look() {
        let error = SessionError::new(SessionCode::Io, "cannot write session.json");
        let line = Ready::Failed { error }.line();
        let e = Ready::read(&line).unwrap_err();
        assert_eq!(e.code, SessionCode::Supervisor);
        assert_eq!(e.message, "cannot write session.json");
        for nothing in ["", "\n", "released", r#"{"ok":true}"#] {
            let e = Ready::read(nothing).unwrap_err();
            assert_eq!(e.code, SessionCode::Supervisor, "{nothing:?}");
            assert!(e.message.contains("supervisor.log"), "{nothing:?}: {e}");
        }
    }

    proptest! {
        /// Any failure reads back with its message; any text is a session or an error, never a
        /// panic.
        #[test]
        fn any_ready_line_reads_as_itself(message in ".{0,80}", id in "[a-zA-Z0-9_][a-zA-Z0-9_-]{0,20}", junk in ".{0,120}") {
            let error = SessionError::new(SessionCode::Interrupted, message.clone());
            prop_assert_eq!(Ready::read(&Ready::Failed { error }.line()).unwrap_err().message, message);
            let session = SessionId::parse(&id).unwrap();
            prop_assert_eq!(Ready::read(&Ready::Started { session: session.clone() }.line()), Ok(session));
            let _ = Ready::read(&junk);
        }
    }
}
