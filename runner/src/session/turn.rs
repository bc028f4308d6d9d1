//! The bookkeeping every non-browser session engine does around a turn, written once: number
//! it, record it in `events.jsonl`, save `session.json`, and shape the answer (the next command
//! after an error, `closing` once the session ended). The terminal and desktop engines differ
//! only in what a turn *does*; their turn records must not drift apart.

use super::code::SessionError;
use super::event::{SessionEvent, TurnOutcome, TurnRecord};
use super::file::{append_event, now_ms, SessionFile};
use super::protocol::{Envelope, Replied, Request};
use a3s_test_fsroot::Dir;

/// Start a turn: its number, and the session's last-turn time.
pub(crate) fn begin(file: &mut SessionFile) -> u64 {
    let turn = file.next_turn;
    file.next_turn += 1;
    file.last_turn_at_ms = now_ms();
    turn
}

/// End turn `turn` of `request` with `result`: the event, the saved record (unless the turn
/// closed the session, whose close wrote it) and the answer.
pub(crate) fn end(
    file: &SessionFile,
    dir: &Dir,
    turn: u64,
    request: Request,
    result: Result<Replied, SessionError>,
    closing: bool,
) -> Envelope<Replied> {
    let outcome = match &result {
        Ok(reply) => TurnOutcome::passed(reply.observation()),
        Err(e) => TurnOutcome {
            observation: e
                .detail
                .as_ref()
                .and_then(|d| d.observation.as_ref())
                .map(|seen| seen.observation),
            ..TurnOutcome::failed(e)
        },
    };
    let event = SessionEvent::turn(TurnRecord {
        turn,
        request,
        outcome,
    });
    if !closing {
        if let Err(e) = file.save(dir) {
            return Envelope::error(e, None);
        }
    }
    let _ = append_event(dir, &event);
    let mut answer = match result {
        Ok(reply) => Envelope::reply(reply),
        Err(e) => {
            let next = super::next::after_error(file, e.code);
            Envelope::error(e, next)
        }
    };
    answer.closing = closing || file.state.is_closed();
    answer
}
