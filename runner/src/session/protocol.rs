//! The supervisor's wire protocol: one JSON request line, one JSON response line, per
//! connection, over the session's Unix socket.

use super::code::SessionError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a session ended, as the agent reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishStatus {
    /// The goal was reached.
    Passed,
    /// The goal was not reached.
    Failed,
}

/// One turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Observe the page: the outline within a byte budget, or a diff, optionally after the
    /// page settled.
    Observe {
        /// What view to answer with.
        #[serde(flatten)]
        view: super::view::ViewRequest,
    },
    /// Inspect the Test Kit Page Context: the bridge's answer plus a new observation.
    Inspect {
        /// What to read.
        request: super::page_context::inspect::InspectRequest,
    },
    /// Admit and run one statement.
    Exec {
        /// The observation the statement's refs come from (must be the latest).
        observation: Option<u64>,
        /// One ACL step block.
        statement: String,
        /// Answer with the observation that follows the step, taken in the same turn through
        /// the code path `Observe` uses (an agent turn in one call). Absent: the answer is the
        /// step's alone, as before this field existed, and the line a client without it sends
        /// is read the same.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        then_observe: Option<super::view::ViewRequest>,
    },
    /// Read the page's repair queue without removing anything (`peekRepairBatch`).
    RepairPeek {
        /// At most this many findings (1..=100).
        max: u32,
    },
    /// Remove exactly these findings from the page's repair queue (`takeRepairBatch`), after
    /// the caller appended them to the ledger.
    RepairTake {
        /// The finding ids (at most 100).
        ids: Vec<String>,
    },
    /// Read the reviewer's queued actions without removing them (`peekRepairActions`).
    RepairActionsPeek {
        /// At most this many actions (1..=100).
        max: u32,
    },
    /// Hand the page the ledger's per-item answers to the actions a drain peeked
    /// (`takeRepairActions({answers})`): those with a final answer leave the page's queue, the
    /// others stay for the next drain or POST.
    RepairActionsTake {
        /// The answers, in the repair endpoint's `actions` answer shape (at most 100).
        answers: Vec<serde_json::Value>,
    },
    /// Write a repair candidate under `dir` and run it with the suite executor in a fresh
    /// context of the session's browser, under the session's origin and network policy; answers
    /// the candidate record (path, digest, proof).
    RepairProve {
        /// The admitted candidate suite (ACL source).
        candidate: String,
        /// Its verification folder, relative to the session folder, below `artifacts/repairs/`.
        dir: String,
    },
    /// Record a finding's before baseline (console and page errors since the document loaded,
    /// screenshot, bounded Page Context) into `dir`; answers `{"baseline": Baseline}` (a
    /// wrapper, because any answer may also carry `blocked_requests`). `agent repair-drain` asks
    /// for it for every finding it appended from the page.
    RepairBaseline {
        /// The finding the baseline belongs to.
        finding: String,
        /// Session-relative folder, `artifacts/repairs/<finding>/baseline`.
        dir: String,
    },
    /// Wait (at most `timeout_ms`, ≤ 60 s) until the page's repair queue changed after `since`
    /// (`subscribeRepairs`); answers `{"mark": RepairMark}`. Without `since` it answers at once
    /// with the current mark. `a3s-test dev` drains after each change instead of polling.
    RepairWait {
        /// The mark of the last answer (`None`: answer at once).
        since: Option<super::page_context::repair_watch::RepairMark>,
        /// The longest wait in ms.
        timeout_ms: u64,
    },
    /// Mirror ledger status changes in the page (`applyRepairEvent`, one call per event);
    /// answers `{"applied": n}`. Events the page does not know (other pages' findings) are
    /// skipped.
    RepairApply {
        /// `RepairEvent`s as the Test Kit takes them (at most 100).
        events: Vec<serde_json::Value>,
    },
    /// Steps 1–5 of a repair verification in this page; answers
    /// `{"verification": PageVerification}`.
    RepairObserve(super::repair_page::ObserveRequest),
    /// Close the session with a verdict.
    Finish {
        /// Passed or failed.
        status: FinishStatus,
        /// What happened, in the agent's words (stored as untrusted text).
        summary: String,
    },
    /// Close the session without a verdict.
    Abort {
        /// Why.
        reason: Option<String>,
    },
}

/// The answer to one turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// True when the turn succeeded.
    pub ok: bool,
    /// The result (ok) or the error (not ok).
    pub body: Value,
    /// True when the supervisor exits after this answer.
    pub closing: bool,
}

impl Response {
    /// A successful answer.
    pub fn ok(body: Value) -> Self {
        Response {
            ok: true,
            body,
            closing: false,
        }
    }

    /// A refusal or failure.
    pub fn error(e: &SessionError) -> Self {
        Response {
            ok: false,
            body: serde_json::to_value(e).expect("errors serialize"),
            closing: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::view::{Form, ViewRequest};

    #[test]
    fn an_exec_without_a_view_request_reads_and_prints_as_before() {
        let old = r#"{"op":"exec","observation":3,"statement":"click { target = ref(\"@e1\") }"}"#;
        let request: Request = serde_json::from_str(old).unwrap();
        assert_eq!(
            request,
            Request::Exec {
                observation: Some(3),
                statement: "click { target = ref(\"@e1\") }".into(),
                then_observe: None,
            }
        );
        assert_eq!(serde_json::to_string(&request).unwrap(), old);
        let with = Request::Exec {
            observation: None,
            statement: "press { key = \"Enter\" }".into(),
            then_observe: Some(ViewRequest {
                since: Some(2),
                form: Form::Json,
                ..ViewRequest::default()
            }),
        };
        let line = serde_json::to_string(&with).unwrap();
        assert!(
            line.contains(r#""then_observe":{"full":false,"since":2,"form":"json"}"#),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), with);
    }
}
