//! Human actions from the Review Overlay (`{"protocol":"a3s.test.repair/1","actions":[…]}`):
//! reply, accept, dismiss and reopen, exactly as the Test Kit queues them.
//!
//! Each action becomes one ledger request, checked against the same transition table as every
//! other write: by the `human` actor when the Test Kit marked it as sent from a trusted gesture in
//! the Review Overlay (`sentBy: "human"`), else by `page_script`, which the ledger refuses (page
//! code cannot decide a review). A document of actions is not a transaction: each item
//! is applied or refused on its own and reported in order. The request id makes a resent action
//! a no-op, so a page may retry a document whose answer it never saw. Refusals are final (see
//! [`ActionAnswer`]); only ledger-level failures ask the page to send an action again.

use crate::error::{ErrorCode, LedgerError};
use crate::event::Action;
use crate::id::{FindingId, RequestId};
use crate::ledger::{Applied, Ledger, Request};
use crate::record::SentBy;
use crate::status::{transition, Actor, Op, RepairStatus};
use crate::validate::MAX_TEXT_CHARS;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The most actions in one document.
pub const MAX_ACTIONS: usize = 100;

/// What the reviewer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HumanActionKind {
    /// Answer the agent (or give new guidance): the finding is queued again.
    Reply,
    /// Accept a verified repair.
    Accept,
    /// Decline: dismiss a repair awaiting review, or cancel one not yet repaired.
    Dismiss,
    /// Reopen a finished finding.
    Reopen,
}

impl HumanActionKind {
    /// Every kind, in the order the Review Overlay shows its buttons.
    pub const ALL: [HumanActionKind; 4] = [
        HumanActionKind::Accept,
        HumanActionKind::Reply,
        HumanActionKind::Dismiss,
        HumanActionKind::Reopen,
    ];

    /// The ledger operation this action asks for (see [`HumanAction::request`]).
    pub fn op(self) -> Op {
        match self {
            HumanActionKind::Reply => Op::Answer,
            HumanActionKind::Accept => Op::Accept,
            HumanActionKind::Dismiss => Op::Reject,
            HumanActionKind::Reopen => Op::Reopen,
        }
    }

    /// The actions a reviewer can take on a finding in `status`: those with a `human` edge from
    /// it in the transition table. The overlay must offer exactly these, or a reviewer presses a
    /// button the ledger refuses; `docs/schema/human-actions-1.json` writes the table down, and
    /// the ledger's and the Test Kit's tests both check it.
    pub fn accepted_in(status: RepairStatus) -> Vec<HumanActionKind> {
        Self::ALL
            .into_iter()
            .filter(|k| transition(k.op(), Actor::Human, status).is_some())
            .collect()
    }
}

/// One queued human action, in the Test Kit's `RepairAction` shape.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HumanAction {
    /// The page's id of the action.
    pub id: RequestId,
    /// The finding it acts on.
    pub repair_id: FindingId,
    /// What to do.
    pub kind: HumanActionKind,
    /// The reviewer's words (required for `reply`, and for a `dismiss` of a verified repair).
    #[serde(default)]
    pub message: Option<String>,
    /// Makes the action idempotent.
    pub request_id: RequestId,
    /// When the reviewer acted (the page's clock; informational).
    #[serde(default)]
    pub created_at: Option<String>,
    /// Who queued it: a person's trusted gesture in the Review Overlay, or page code. Only the
    /// first is a reviewer's decision; an action that does not say is page code's.
    #[serde(default)]
    pub sent_by: Option<SentBy>,
}

impl HumanAction {
    /// The ledger request this action asks for.
    pub fn request(&self) -> Request {
        let message = self.message.clone();
        let action = match self.kind {
            HumanActionKind::Reply => Action::Answer {
                message: message.unwrap_or_default(),
            },
            HumanActionKind::Accept => Action::Accept { message },
            HumanActionKind::Dismiss => Action::Reject { message },
            HumanActionKind::Reopen => Action::Reopen { message },
        };
        Request {
            finding_id: self.repair_id.clone(),
            actor: SentBy::actor(self.sent_by, Actor::PageScript),
            request_id: Some(self.request_id.clone()),
            attempt_id: None,
            action,
        }
    }
}

fn invalid(index: usize, msg: impl std::fmt::Display) -> LedgerError {
    LedgerError::new(
        ErrorCode::InvalidDocument,
        format!("actions[{index}]: {msg}"),
    )
}

/// Parse and bound the `actions` array of a document.
pub(crate) fn parse_actions(raw: &RawValue) -> Result<Vec<HumanAction>, LedgerError> {
    let items: Vec<&RawValue> = serde_json::from_str(raw.get())
        .map_err(|_| LedgerError::new(ErrorCode::InvalidDocument, "`actions` must be an array"))?;
    if items.is_empty() || items.len() > MAX_ACTIONS {
        return Err(LedgerError::new(
            ErrorCode::InvalidDocument,
            format!(
                "`actions` has {} items; send 1..={MAX_ACTIONS}",
                items.len()
            ),
        ));
    }
    let mut out: Vec<HumanAction> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let action: HumanAction = serde_json::from_str(item.get()).map_err(|e| invalid(i, e))?;
        if let Some(m) = &action.message {
            if m.chars().count() > MAX_TEXT_CHARS || m.contains('\0') {
                return Err(invalid(
                    i,
                    format!("message must be at most {MAX_TEXT_CHARS} characters without NUL"),
                ));
            }
        }
        if action.kind == HumanActionKind::Reply
            && action
                .message
                .as_deref()
                .is_none_or(|m| m.trim().is_empty())
        {
            return Err(invalid(i, "a reply needs a message"));
        }
        if action.created_at.as_ref().is_some_and(|c| c.len() > 64) {
            return Err(invalid(i, "createdAt is longer than 64 bytes"));
        }
        if out.iter().any(|o| o.request_id == action.request_id) {
            return Err(invalid(
                i,
                format!("request id {} appears twice", action.request_id),
            ));
        }
        out.push(action);
    }
    Ok(out)
}

/// What became of one action. `applied`, `duplicate` and `refused` are final: the same action
/// sent again gets the same answer, so the page drops it from its queue. `retry` means the
/// ledger could not judge it (busy, I/O, full, unreadable): the page keeps it and sends it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionAnswer {
    /// Appended as a human event now.
    Applied,
    /// The request id was applied before; the stored result is returned and nothing appended.
    Duplicate,
    /// The state machine or validation refused it (coded `error`); nothing appended.
    Refused,
    /// Not judged because of a ledger-level failure; sending it again can succeed.
    Retry,
}

impl ActionAnswer {
    /// Whether the page may forget the action.
    pub fn is_final(self) -> bool {
        self != ActionAnswer::Retry
    }

    /// The answer a ledger error gives an action.
    pub fn of_error(code: ErrorCode) -> ActionAnswer {
        match code {
            ErrorCode::LedgerBusy
            | ErrorCode::Io
            | ErrorCode::UnsafePath
            | ErrorCode::LedgerFull
            | ErrorCode::LedgerCorrupt
            | ErrorCode::LedgerFormat => ActionAnswer::Retry,
            _ => ActionAnswer::Refused,
        }
    }
}

/// The answer to one action, in the order sent.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionOutcome {
    /// The page's id of the action.
    pub id: RequestId,
    /// The finding.
    pub finding_id: FindingId,
    /// The request id.
    pub request_id: RequestId,
    /// What became of it.
    pub outcome: ActionAnswer,
    /// The ledger's result when applied or a duplicate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Applied>,
    /// Why it was refused or must be retried (nothing was appended for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<LedgerError>,
}

impl ActionOutcome {
    /// A failure worth retrying (the ledger was busy, full, unreadable or the disk failed), not
    /// a verdict on the action.
    pub fn is_transient(&self) -> bool {
        !self.outcome.is_final()
    }
}

/// The endpoint's answer to an `actions` document (`a3s.test.repair/1`): every action's outcome
/// in order. `error` repeats the first `retry` item's error when there is one (the answer is then
/// not 2xx).
#[derive(Clone, Debug, Serialize)]
pub struct ActionsResponse {
    /// Always `a3s.test.repair/1`.
    pub protocol: &'static str,
    /// One outcome per action.
    pub actions: Vec<ActionOutcome>,
    /// The first transient failure, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<LedgerError>,
}

impl ActionsResponse {
    /// The answer for these outcomes.
    pub fn new(actions: Vec<ActionOutcome>) -> ActionsResponse {
        let error = actions
            .iter()
            .find(|o| o.is_transient())
            .and_then(|o| o.error.clone());
        ActionsResponse {
            protocol: crate::record::REPAIR_PROTOCOL,
            actions,
            error,
        }
    }
}

impl Ledger {
    /// Apply human actions in order, each on its own; one refusal does not undo the others.
    pub fn apply_human_actions(&self, actions: &[HumanAction]) -> Vec<ActionOutcome> {
        actions
            .iter()
            .map(|a| {
                let (outcome, result, error) = match self.apply(a.request()) {
                    Ok(applied) if applied.replayed => {
                        (ActionAnswer::Duplicate, Some(applied), None)
                    }
                    Ok(applied) => (ActionAnswer::Applied, Some(applied), None),
                    Err(e) => (ActionAnswer::of_error(e.code), None, Some(e)),
                };
                ActionOutcome {
                    id: a.id.clone(),
                    finding_id: a.repair_id.clone(),
                    request_id: a.request_id.clone(),
                    outcome,
                    result,
                    error,
                }
            })
            .collect()
    }
}
