//! The typed events of an agent session, one line each in `events.jsonl`.
//!
//! Why typed: like a run's `RunEventKind`, every event the session can emit is one variant here,
//! so a reader of the log (and the code that writes it) knows every shape; the JSON on disk keeps
//! the shape it always had (`kind`, and for turns `turn`, `request`, `ok` …), see docs/agent.md.

use super::code::{SessionCode, SessionError};
use super::protocol::Request;
use serde::Serialize;

/// Why the supervisor closed an idle session on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ExpiryReason {
    /// The session's whole lifetime (`--session-timeout`) ran out.
    #[serde(rename = "session deadline")]
    SessionDeadline,
    /// No turn came within the idle timeout.
    #[serde(rename = "idle timeout")]
    IdleTimeout,
}

impl ExpiryReason {
    /// The text recorded as the session's closing summary.
    pub fn as_str(self) -> &'static str {
        match self {
            ExpiryReason::SessionDeadline => "session deadline",
            ExpiryReason::IdleTimeout => "idle timeout",
        }
    }
}

/// How a turn ended, as logged (the answer itself goes to the client).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnOutcome {
    /// True when the turn succeeded.
    pub ok: bool,
    /// The observation the turn took, when it took one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<u64>,
    /// The error code of a failed turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<SessionCode>,
    /// The error message of a failed turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl TurnOutcome {
    /// A successful turn, with the observation it took (if any).
    pub fn passed(observation: Option<u64>) -> Self {
        TurnOutcome {
            ok: true,
            observation,
            code: None,
            message: None,
        }
    }

    /// A turn refused or failed with `error`.
    pub fn failed(error: &SessionError) -> Self {
        TurnOutcome {
            ok: false,
            observation: None,
            code: Some(error.code),
            message: Some(error.message.clone()),
        }
    }

    /// How a served turn ended: its answer's observation, or its error (with the observation a
    /// failed step still showed). Every engine records turns through this one reading.
    pub fn of(result: &Result<super::protocol::Replied, SessionError>) -> Self {
        match result {
            Ok(reply) => TurnOutcome::passed(reply.observation()),
            Err(e) => TurnOutcome {
                observation: e
                    .detail
                    .as_ref()
                    .and_then(|d| d.observation.as_ref())
                    .map(|seen| seen.observation),
                ..TurnOutcome::failed(e)
            },
        }
    }
}

/// One served turn: its number, the request and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnRecord {
    /// The turn number (from 0, in order).
    pub turn: u64,
    /// What the client asked.
    pub request: Request,
    /// How it ended.
    #[serde(flatten)]
    pub outcome: TurnOutcome,
}

/// Everything a session logs; the `kind` field names the variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SessionEvent {
    /// The browser is up on the start URL.
    Started {
        /// The start URL.
        url: String,
    },
    /// `agent start` went away before handing the session over.
    StartAbandoned,
    /// SIGTERM, SIGINT or SIGHUP closed the session.
    Terminated,
    /// The idle timeout or the session deadline closed the session.
    Expired {
        /// Which one.
        reason: ExpiryReason,
    },
    /// An `observe` turn.
    Observe(TurnRecord),
    /// An `inspect` turn.
    Inspect(TurnRecord),
    /// A `repair_peek` turn.
    RepairPeek(TurnRecord),
    /// A `repair_take` turn.
    RepairTake(TurnRecord),
    /// A `repair_actions_peek` turn (the reviewer's queued actions read by a drain).
    RepairActionsPeek(TurnRecord),
    /// A `repair_actions_take` turn (the ledger's answers handed back to the page).
    RepairActionsTake(TurnRecord),
    /// A `repair_prove` turn (a candidate proven in a fresh context).
    RepairProve(TurnRecord),
    /// A `repair_baseline` turn.
    RepairBaseline(TurnRecord),
    /// A `repair_observe` turn.
    RepairObserve(TurnRecord),
    /// A `wait_revision` turn (a verification's step 1 read).
    WaitRevision(TurnRecord),
    /// A `locate_target` turn (a verification's step 2 read).
    LocateTarget(TurnRecord),
    /// A `read_page_text` turn (a verification's step 3 read).
    ReadPageText(TurnRecord),
    /// A `measure_layout` turn (a layout finding's step 3 read).
    MeasureLayout(TurnRecord),
    /// A `capture_evidence` turn (a verification's steps 4–5 read).
    CaptureEvidence(TurnRecord),
    /// An `audit_capture` turn (`agent audit` reading the page it reviews).
    AuditCapture(TurnRecord),
    /// A `show_advice` turn (a design review's advice handed to the page's overlay).
    ShowAdvice(TurnRecord),
    /// A `repair_wait` turn (`a3s-test dev` waiting for the page's queue to change).
    RepairWait(TurnRecord),
    /// A `repair_apply` turn (ledger status changes mirrored in the page).
    RepairApply(TurnRecord),
    /// A `ground_capture` turn (the screenshot a grounding provider is asked about).
    GroundCapture(TurnRecord),
    /// A `ground_map` turn (a grounding answer's points hit-tested in the page).
    GroundMap(TurnRecord),
    /// An `exec` turn.
    Exec(TurnRecord),
    /// A `finish` turn.
    Finish(TurnRecord),
    /// An `abort` turn.
    Abort(TurnRecord),
}

impl SessionEvent {
    /// The event logging `record`, of the kind its request names.
    pub fn turn(record: TurnRecord) -> Self {
        match &record.request {
            Request::Observe(_) => SessionEvent::Observe(record),
            Request::Inspect(_) => SessionEvent::Inspect(record),
            Request::RepairPeek(_) => SessionEvent::RepairPeek(record),
            Request::RepairTake(_) => SessionEvent::RepairTake(record),
            Request::RepairActionsPeek(_) => SessionEvent::RepairActionsPeek(record),
            Request::RepairActionsTake(_) => SessionEvent::RepairActionsTake(record),
            Request::RepairProve(_) => SessionEvent::RepairProve(record),
            Request::RepairBaseline(_) => SessionEvent::RepairBaseline(record),
            Request::RepairObserve(_) => SessionEvent::RepairObserve(record),
            Request::WaitRevision(_) => SessionEvent::WaitRevision(record),
            Request::LocateTarget(_) => SessionEvent::LocateTarget(record),
            Request::ReadPageText(_) => SessionEvent::ReadPageText(record),
            Request::MeasureLayout(_) => SessionEvent::MeasureLayout(record),
            Request::CaptureEvidence(_) => SessionEvent::CaptureEvidence(record),
            Request::AuditCapture(_) => SessionEvent::AuditCapture(record),
            Request::ShowAdvice(_) => SessionEvent::ShowAdvice(record),
            Request::RepairWait(_) => SessionEvent::RepairWait(record),
            Request::RepairApply(_) => SessionEvent::RepairApply(record),
            Request::GroundCapture(_) => SessionEvent::GroundCapture(record),
            Request::GroundMap(_) => SessionEvent::GroundMap(record),
            Request::Exec(_) => SessionEvent::Exec(record),
            Request::Finish(_) => SessionEvent::Finish(record),
            Request::Abort(_) => SessionEvent::Abort(record),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_keep_the_log_shape() {
        let started = SessionEvent::Started {
            url: "http://127.0.0.1:1/".into(),
        };
        assert_eq!(
            serde_json::to_value(&started).unwrap(),
            json!({ "kind": "started", "url": "http://127.0.0.1:1/" })
        );
        let expired = SessionEvent::Expired {
            reason: ExpiryReason::IdleTimeout,
        };
        assert_eq!(
            serde_json::to_value(&expired).unwrap(),
            json!({ "kind": "expired", "reason": "idle timeout" })
        );
        assert_eq!(
            serde_json::to_value(SessionEvent::StartAbandoned).unwrap(),
            json!({ "kind": "start_abandoned" })
        );
        let observed = SessionEvent::turn(TurnRecord {
            turn: 3,
            request: Request::Observe(Default::default()),
            outcome: TurnOutcome::passed(Some(2)),
        });
        assert_eq!(
            serde_json::to_value(&observed).unwrap(),
            json!({ "kind": "observe", "turn": 3, "request": { "op": "observe", "full": false, "form": "text" },
                    "ok": true, "observation": 2 })
        );
        let refused = SessionEvent::turn(TurnRecord {
            turn: 4,
            request: Request::Abort(crate::session::protocol::Abort { reason: None }),
            outcome: TurnOutcome::failed(&SessionError::new(SessionCode::NotRunning, "closed")),
        });
        let v = serde_json::to_value(&refused).unwrap();
        assert_eq!(v["kind"], "abort");
        assert_eq!(v["ok"], false);
        assert_eq!(v["message"], "closed");
        assert_eq!(
            v["code"],
            serde_json::to_value(SessionCode::NotRunning).unwrap()
        );
    }
}
