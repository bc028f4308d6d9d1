//! Suggested next commands. They are built only from validated ids (the session id, an
//! observation number, refs this session generated) and fixed verbs — never from page text.

use super::code::SessionCode;
use super::file::SessionFile;

/// After an observation: nothing when it has refs — which one to act on is the agent's choice,
/// and a suggestion to click the first ref would be a guess — else observe again (the page may
/// still be loading).
pub fn after_observe(s: &SessionFile) -> Option<String> {
    match (&s.latest, s.refs.is_empty()) {
        (Some(_), false) => None,
        _ => Some(format!("a3s-test agent observe --session {}", s.id)),
    }
}

/// After a statement ran: observe the new state.
pub fn after_exec(s: &SessionFile) -> String {
    format!("a3s-test agent observe --session {}", s.id)
}

/// After the session closed: promote its steps — only when it was finished as passed and has
/// steps to promote (an aborted or failed session's path is not a proven one).
pub fn after_close(s: &SessionFile) -> Option<String> {
    let passed = s.closed_reason.as_deref() == Some("passed");
    (passed && !s.steps.is_empty()).then(|| {
        format!(
            "a3s-test agent promote --session {} --output suites/{}.acl",
            s.id, s.id
        )
    })
}

/// After a refusal or a failure: the command that gets the agent further, or nothing when no
/// command would (the statement itself must change).
pub fn after_error(s: &SessionFile, code: SessionCode) -> Option<String> {
    let observe = || Some(format!("a3s-test agent observe --session {}", s.id));
    match code {
        // A session in cleanup: the next abort (or finish) retries it.
        SessionCode::Cleanup if s.state == super::file::SessionState::CleanupFailed => {
            Some(format!("a3s-test agent abort --session {}", s.id))
        }
        SessionCode::Budget | SessionCode::Cleanup => Some(format!(
            "a3s-test agent finish --session {} --status failed --summary 'budget spent'",
            s.id
        )),
        SessionCode::NotRunning | SessionCode::UnknownSession => {
            Some("a3s-test agent list".to_string())
        }
        // The way out of origin loss: back to the session's first origin (validated at start,
        // never page text).
        SessionCode::OriginLoss if !s.state.is_closed() => match s.policy.origins.first() {
            Some(origin) => Some(format!(
                "a3s-test agent navigate {origin}/ --session {}",
                s.id
            )),
            None => observe(),
        },
        _ if s.state.is_closed() => Some(format!("a3s-test agent show --session {}", s.id)),
        // The statement's form is wrong: the forms, not the page, answer that.
        SessionCode::Schema => Some("a3s-test agent schema".to_string()),
        // New refs, or the page after a failed step.
        SessionCode::StaleRef
        | SessionCode::StaleScreen
        | SessionCode::UnknownRef
        | SessionCode::TargetType
        | SessionCode::RefKind
        | SessionCode::StepFailed => observe(),
        // The statement must change; no command helps.
        _ => None,
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
        // Never a blind "click the first ref".
        assert_eq!(after_observe(&s), None);
        assert_eq!(
            after_error(&s, SessionCode::UnknownRef).as_deref(),
            Some("a3s-test agent observe --session s-1")
        );
        assert_eq!(
            after_error(&s, SessionCode::Schema).as_deref(),
            Some("a3s-test agent schema")
        );
        assert_eq!(after_error(&s, SessionCode::Policy), None);
        assert_eq!(after_exec(&s), "a3s-test agent observe --session s-1");
        s.state = SessionState::Finished;
        for text in [
            after_observe(&s).unwrap_or_default(),
            after_error(&s, SessionCode::Schema).unwrap_or_default(),
            after_close(&s).unwrap_or_default(),
        ] {
            assert!(
                !text.contains("rm -rf") && !text.contains("abort"),
                "{text}"
            );
        }
        // Promotion is suggested only for a session finished as passed with steps to promote.
        for reason in ["passed", "aborted", "failed"] {
            s.closed_reason = Some(reason.into());
            assert_eq!(after_close(&s), None, "{reason} without steps");
        }
    }
}
