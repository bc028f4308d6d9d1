//! Promotion: a session's successful statements become a suite. Each statement keeps its source
//! text, with every `ref("@eN")` replaced by the durable target it was dispatched through (the
//! one proven to name the same node), a label added where it had none, and the whole printed by
//! the language's canonical printer — then admitted again, so a promoted file is always valid.

use super::code::{SessionCode, SessionError};
use super::file::SessionFile;
use super::statement::{acl_string, replace_refs_in_source, with_label};
use std::collections::BTreeMap;

/// The promoted suite's source text (canonical layout).
pub fn suite_source(file: &SessionFile) -> Result<String, SessionError> {
    if file.steps.is_empty() {
        return Err(SessionError::new(
            SessionCode::Promotion,
            format!("session {} has no successful statement to promote", file.id),
        ));
    }
    let mut body = String::new();
    body.push_str(&format!(
        "navigate \"start\" {{ url = {} }}\n",
        acl_string(&file.start_url)
    ));
    let mut used = vec!["start".to_string()];
    for record in &file.steps {
        let durable: BTreeMap<_, _> = record.resolved.iter().cloned().collect();
        let text = replace_refs_in_source(&record.statement, &durable);
        let label = format!("turn-{}", record.turn);
        let labelled = with_label(&text, &label);
        // A label the agent chose twice would be rejected; fall back to the turn label.
        let step = a3s_test_lang::admit_statement(&labelled).map_err(|d| {
            SessionError::new(
                SessionCode::Promotion,
                format!(
                    "turn {} no longer admits: {:?}",
                    record.turn,
                    d.first().map(|d| &d.message)
                ),
            )
        })?;
        let chosen = step.label.clone().unwrap_or(label);
        if used.contains(&chosen) {
            return Err(SessionError::new(
                SessionCode::Promotion,
                format!(
                    "step label {chosen:?} is used twice; relabel turn {}",
                    record.turn
                ),
            ));
        }
        used.push(chosen);
        body.push_str(&labelled);
        body.push('\n');
    }
    let source = format!(
        "suite {id} {{\n scenario {id} {{\n surface = \"web\"\n{body}}}\n}}\n",
        id = acl_string(&file.id),
    );
    let formatted = a3s_test_lang::printer::format_source(&source).map_err(|d| {
        SessionError::new(
            SessionCode::Promotion,
            format!(
                "the promoted suite is not admitted: {}",
                d.first()
                    .map(|d| format!("{}: {}", d.code.as_str(), d.message))
                    .unwrap_or_default()
            ),
        )
    })?;
    let admitted = a3s_test_lang::admit(&formatted);
    if !admitted.is_admitted() {
        return Err(SessionError::new(
            SessionCode::Promotion,
            format!(
                "the promoted suite is not admitted: {:?}",
                admitted.diagnostics.first().map(|d| &d.message)
            ),
        ));
    }
    Ok(formatted)
}
