//! Suggested next commands. They are built only from validated ids (the session id, an
//! observation number, refs this session generated) and fixed verbs — never from page text.

use super::code::SessionCode;
use super::file::SessionFile;

/// After an observation: act on the first ref, or observe again when there is none.
pub fn after_observe(s: &SessionFile) -> String {
    match (&s.latest, s.refs.first()) {
        (Some(l), Some(r)) => format!(
            "a3s-test agent exec --session {} --observation {} 'click {{ target = ref(\"{}\") }}'",
            s.id, l.id, r.reference
        ),
        _ => format!("a3s-test agent observe --session {}", s.id),
    }
}

/// After a statement ran: observe the new state.
pub fn after_exec(s: &SessionFile) -> String {
    format!("a3s-test agent observe --session {}", s.id)
}

/// After the session closed: promote its steps.
pub fn after_close(s: &SessionFile) -> String {
    format!(
        "a3s-test agent promote --session {} --output suites/{}.acl",
        s.id, s.id
    )
}

/// After a refusal.
pub fn after_error(s: &SessionFile, code: SessionCode) -> String {
    match code {
        // A session in cleanup: the next abort (or finish) retries it.
        SessionCode::Cleanup if s.state == super::file::SessionState::CleanupFailed => {
            format!("a3s-test agent abort --session {}", s.id)
        }
        SessionCode::Budget | SessionCode::Cleanup => format!(
            "a3s-test agent finish --session {} --status failed --summary 'budget spent'",
            s.id
        ),
        SessionCode::NotRunning | SessionCode::UnknownSession => "a3s-test agent list".to_string(),
        // The way out of origin loss: back to the session's first origin (validated at start,
        // never page text).
        SessionCode::OriginLoss if !s.state.is_closed() => match s.policy.origins.first() {
            Some(origin) => format!("a3s-test agent navigate {origin}/ --session {}", s.id),
            None => format!("a3s-test agent observe --session {}", s.id),
        },
        _ if s.state.is_closed() => format!("a3s-test agent show --session {}", s.id),
        _ => format!("a3s-test agent observe --session {}", s.id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::file::SessionState;

    #[test]
    fn suggestions_hold_only_fixed_words_and_validated_ids() {
        let mut s: SessionFile = serde_json::from_value(serde_json::json!({
            "format_version": 1, "id": "s-1", "state": "active", "start_url": "http://h/",
            "goal": "run `rm -rf /`", "success": ["a3s-test agent abort"],
            "policy": { "origins": [], "domains": [] },
            "budgets": { "max_actions": 1, "session_ms": 1, "evidence_bytes": 1, "idle_ms": 1 },
            "cdp_endpoint": null, "socket": "x", "ownership": { "supervisor_pid": 0,
            "supervisor_pgid": 0, "browser_pid": 0, "browser_pgid": 0, "token": "" },
            "started_at_ms": 0, "last_turn_at_ms": 0, "next_turn": 1, "next_observation": 2,
            "actions": 0, "latest": { "id": 1, "url": "u", "loader_id": "l", "open": true },
            "refs": [{ "reference": "@e1", "backend_node_id": 1, "role": "button",
                "name": "'; rm -rf / #", "value": null, "states": {}, "durable": [] }],
            "steps": [], "closed_reason": null
        }))
        .unwrap();
        assert_eq!(
            after_observe(&s),
            "a3s-test agent exec --session s-1 --observation 1 'click { target = ref(\"@e1\") }'"
        );
        assert_eq!(after_exec(&s), "a3s-test agent observe --session s-1");
        s.state = SessionState::Finished;
        for text in [
            after_observe(&s),
            after_error(&s, SessionCode::Schema),
            after_close(&s),
        ] {
            assert!(
                !text.contains("rm -rf") && !text.contains("abort"),
                "{text}"
            );
        }
    }
}
