//! Promotion: a session's successful statements become a suite. Each statement keeps its source
//! text, with every `ref("@eN")` replaced by the durable target it was dispatched through (the
//! one proven to name the same node), a label added where it had none, and the whole printed by
//! the language's canonical printer — then admitted again, so a promoted file is always valid.

use super::code::{SessionCode, SessionError};
use super::file::SessionFile;
use super::statement::{acl_string, replace_refs_in_source, with_label};
use std::collections::BTreeMap;

/// The environment variables a promoted suite of `file` reads for values the agent typed into
/// private fields, sorted, each once.
pub fn private_vars(file: &SessionFile) -> Vec<String> {
    let mut vars: Vec<String> = file
        .steps
        .iter()
        .filter_map(|s| s.private.clone())
        .collect();
    vars.sort();
    vars.dedup();
    vars
}

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
        if let Some(var) = &record.private {
            body.push_str(&format!(
                "# {var}: turn {} typed a value into a private field; it was not kept. Set {var} \
                 in the environment that runs this suite.\n",
                record.turn
            ));
        }
        let durable: BTreeMap<_, _> = record.resolved.iter().cloned().collect();
        let label = format!("turn-{}", record.turn);
        let labelled = match &record.navigated {
            // Written absolute: the session resolved it against the page it was on. The label
            // the agent chose is kept; an unlabelled navigate gets the turn label.
            Some(url) => {
                let chosen = a3s_test_lang::admit_statement(&record.statement)
                    .ok()
                    .and_then(|step| step.label);
                format!(
                    "navigate {} {{ url = {} }}",
                    acl_string(chosen.as_deref().unwrap_or(&label)),
                    acl_string(url)
                )
            }
            None => with_label(&replace_refs_in_source(&record.statement, &durable), &label),
        };
        // The step's own label, or the turn label it was given; a label used twice is refused.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::file::{
        Budgets, Ownership, Policy, SessionState, StepRecord, FORMAT_VERSION,
    };
    use a3s_test_lang::ir::Target;

    fn file(steps: Vec<StepRecord>) -> SessionFile {
        SessionFile {
            format_version: FORMAT_VERSION,
            id: "signup".parse().unwrap(),
            state: SessionState::Finished,
            start_url: "http://127.0.0.1:4173/form".into(),
            goal: None,
            success: vec![],
            policy: Policy::default(),
            budgets: Budgets::default(),
            cdp_endpoint: None,
            socket: "s".into(),
            ownership: Ownership::default(),
            started_at_ms: 0,
            last_turn_at_ms: 0,
            next_turn: 9,
            next_observation: 4,
            actions: 2,
            latest: None,
            refs: vec![],
            steps,
            closed_reason: None,
            page_context: None,
            terminal: None,
            desktop: None,
            screen_revision: None,
            context: Default::default(),
            storage_state: None,
            trace: false,
        }
    }

    #[test]
    fn refs_become_durable_targets_and_steps_get_labels() {
        let steps = vec![
            StepRecord {
                turn: 2,
                statement: "fill {\n target = ref(\"@e1\")\n value = \"ref(\\\"@e1\\\")\"\n}"
                    .into(),
                resolved: vec![(
                    "@e1".into(),
                    Target::Role {
                        role: "textbox".into(),
                        name: Some(a3s_test_lang::ir::TextMatch::contains("Email")),
                    },
                )],
                navigated: None,
                private: None,
            },
            StepRecord {
                turn: 4,
                statement: "click \"send\" { target = ref(\"@e3\") }".into(),
                resolved: vec![(
                    "@e3".into(),
                    Target::Css {
                        selector: "button[id=\"go\"]".into(),
                    },
                )],
                navigated: None,
                private: None,
            },
            StepRecord {
                turn: 5,
                statement: "navigate { url = \"next\" }".into(),
                resolved: vec![],
                navigated: Some("http://127.0.0.1:4173/next".into()),
                private: None,
            },
            StepRecord {
                turn: 6,
                statement: "navigate \"back-home\" { url = \"/\" }".into(),
                resolved: vec![],
                navigated: Some("http://127.0.0.1:4173/".into()),
                private: None,
            },
        ];
        let suite = suite_source(&file(steps)).unwrap();
        assert!(a3s_test_lang::admit(&suite).is_admitted(), "{suite}");
        for expected in [
            "fill \"turn-2\"",
            "target = role(\"textbox\", \"Email\")",
            // A string that merely looks like a ref is data and stays as written.
            "value = \"ref(\\\"@e1\\\")\"",
            "click \"send\"",
            "navigate \"start\"",
            "url = \"http://127.0.0.1:4173/next\"",
            // A rebuilt navigate keeps the label the agent chose; an unlabelled one gets its
            // turn's.
            "navigate \"turn-5\"",
            "navigate \"back-home\"",
        ] {
            assert!(suite.contains(expected), "{expected} in {suite}");
        }
        assert!(!suite.contains("turn-6"), "{suite}");
    }

    #[test]
    fn a_private_value_is_promoted_as_env_with_a_note() {
        let steps = vec![StepRecord {
            turn: 3,
            statement: "fill { target = label(\"Card number\") value = env(\"CARD_NUMBER\") }"
                .into(),
            resolved: vec![],
            navigated: None,
            private: Some("CARD_NUMBER".into()),
        }];
        let f = file(steps);
        let suite = suite_source(&f).unwrap();
        assert!(a3s_test_lang::admit(&suite).is_admitted(), "{suite}");
        assert!(suite.contains("value = env(\"CARD_NUMBER\")"), "{suite}");
        assert!(
            suite.contains("# CARD_NUMBER: turn 3 typed a value into a private field"),
            "{suite}"
        );
        assert_eq!(private_vars(&f), vec!["CARD_NUMBER".to_string()]);
    }

    #[test]
    fn nothing_to_promote_is_refused() {
        assert_eq!(
            suite_source(&file(vec![])).unwrap_err().code,
            SessionCode::Promotion
        );
    }
}
