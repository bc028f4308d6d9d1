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
        SessionCode::Budget | SessionCode::Cleanup => format!(
            "a3s-test agent finish --session {} --status failed --summary 'budget spent'",
            s.id
        ),
        SessionCode::NotRunning | SessionCode::UnknownSession => "a3s-test agent list".to_string(),
        _ if s.state.is_closed() => format!("a3s-test agent show --session {}", s.id),
        _ => format!("a3s-test agent observe --session {}", s.id),
    }
}
