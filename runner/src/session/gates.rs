//! The admission gates every statement passes before dispatch, in the order `docs/agent.md`
//! fixes: schema → capability → target type → ref binding → policy → budgets. Each refuses with
//! its own `test.session.*` code; any refusal means nothing was sent to the browser.
//!
//! The gates are pure over the session record and the admitted step, so each is unit-tested
//! here and end to end in `tests/agent_session.rs`.

use super::code::{SessionCode, SessionError};
use super::file::{folder_bytes, now_ms, ObservationRecord, SessionFile};
use super::policy;
use super::statement::refs_in;
use a3s_test_driver::Capabilities;
use a3s_test_lang::code::Code;
use a3s_test_lang::ir::{Action, Step, TabOperation};

/// Gate 1 (schema): exactly one admitted step. `@uN` targets are refused by the front end; that
/// diagnostic is reported as gate 3's `test.session.ref_kind`, since the statement is well formed
/// (`super::ui::gate` words it for the session's `@uN` refs).
pub fn schema(source: &str) -> Result<Step, SessionError> {
    a3s_test_lang::admit_statement(source).map_err(refused_statement)
}

/// Gate 1's refusal of a statement `lang` did not admit (on any surface): `test.session.schema`
/// with the first diagnostic and its hint in the message and every diagnostic in the detail.
pub fn refused_statement(diagnostics: Vec<a3s_test_lang::Diagnostic>) -> SessionError {
    let code = if diagnostics
        .iter()
        .any(|d| d.code == Code::TargetObservationOnly)
    {
        SessionCode::RefKind
    } else {
        SessionCode::Schema
    };
    // The hint ("did you mean …") belongs on the line a person or an agent reads first.
    let first = diagnostics
        .first()
        .map(|d| match d.hint.trim() {
            "" => format!("{}: {}", d.code.as_str(), d.message),
            hint => format!("{}: {}; {hint}", d.code.as_str(), d.message),
        })
        .unwrap_or_else(|| "the statement was not admitted".into());
    SessionError::new(code, format!("the statement was not admitted: {first}"))
        .with(|d| d.diagnostics = diagnostics)
}

/// Gate 2 (capability): the driver executes this step kind and the session allows it.
pub fn capability(step: &Step, capabilities: &Capabilities) -> Result<(), SessionError> {
    let kind = step.action.kind();
    if !capabilities.supports(step) {
        return Err(SessionError::new(
            SessionCode::Capability,
            format!(
                "the {} driver cannot execute `{kind}`",
                capabilities.surface.name()
            ),
        ));
    }
    // Sessions keep one tab and the top document, so a ref always names a node of the page the
    // observation saw.
    if matches!(step.action, Action::Tab { .. } | Action::Frame { .. }) {
        return Err(SessionError::new(
            SessionCode::Capability,
            format!("`{kind}` is not available in agent sessions (one tab, top document)"),
        ));
    }
    Ok(())
}

/// Gate 3 (target type) for a page without Test Kit: only `@eN` refs can be bound (`@uN` never
/// reaches this point).
pub fn target_type(step: &Step) -> Result<Vec<String>, SessionError> {
    target_type_in(step, None)
}

/// Gate 3 (target type): `@eN` refs always; `@cN` refs only when the session read a compatible
/// Test Kit Page Context.
pub fn target_type_in(
    step: &Step,
    session: Option<&SessionFile>,
) -> Result<Vec<String>, SessionError> {
    if crate::session::statement::has_visual_point(step) {
        return Err(SessionError::new(
            SessionCode::TargetType,
            "visual_point(…) is a desktop session's `click` target (a point of its latest \
             `screenshot` @vN); here act on an @eN ref or a semantic target",
        ));
    }
    let refs = refs_in(step);
    let page_context = session.is_some_and(|s| s.page_context.is_some());
    if let Some(r) = refs
        .iter()
        .find(|r| !(r.starts_with("@e") || (page_context && r.starts_with("@c"))))
    {
        return Err(SessionError::new(
            SessionCode::TargetType,
            format!(
                "{r} is a Test Kit ref; this session observes the accessibility tree only (@eN)"
            ),
        ));
    }
    Ok(refs)
}

/// Gate 4 (ref binding): a statement naming refs must belong to the latest observation, which
/// must still be open; `--observation N`, when given, must be that observation too.
/// `issued(N)` says whether `@eN` was ever given in the current document (the supervisor's
/// stable numbering, `view::Numbering::issued`, is the one record of that), so a typo is told
/// apart from a ref that went stale.
pub fn ref_binding(
    session: &SessionFile,
    observation: Option<u64>,
    refs: &[String],
    issued: impl Fn(u64) -> bool,
) -> Result<(), SessionError> {
    let latest = session.latest.as_ref();
    if let Some(n) = observation {
        match latest {
            Some(l) if l.id == n && l.open => {}
            Some(l) if l.id == n => {
                return Err(SessionError::new(
                    SessionCode::StaleRef,
                    format!("observation {n} ended (an action ran since); observe again"),
                ))
            }
            Some(l) => {
                return Err(SessionError::new(
                    SessionCode::StaleRef,
                    format!(
                        "observation {n} is not the latest (that is {}); observe again",
                        l.id
                    ),
                ))
            }
            None => {
                return Err(SessionError::new(
                    SessionCode::StaleRef,
                    format!("observation {n} does not exist; observe first"),
                ))
            }
        }
    }
    if refs.is_empty() {
        return Ok(());
    }
    // A ref no observation of this document ever had is a different mistake from an old one:
    // observing again will not bring it back.
    let known = |r: &str| {
        r.strip_prefix("@e")
            .and_then(|n| n.parse::<u64>().ok())
            .is_some_and(&issued)
    };
    if let Some(r) = refs.iter().find(|r| !known(r)) {
        // Stable numbering can leave gaps: the range is the latest observation's lowest and
        // highest number.
        let numbers = session
            .refs
            .iter()
            .filter_map(|e| e.reference.strip_prefix("@e")?.parse::<u64>().ok());
        let hint = match (numbers.clone().min(), numbers.max()) {
            (Some(low), Some(high)) if low == high => {
                format!("the latest observation has only @e{low}")
            }
            (Some(low), Some(high)) => format!("the latest observation has @e{low}…@e{high}"),
            _ => "observe first".to_string(),
        };
        return Err(SessionError::new(
            SessionCode::UnknownRef,
            format!("{r} was never issued on this page; {hint}"),
        ));
    }
    let latest = open_observation(session, refs)?;
    for r in refs {
        if !session.refs.iter().any(|e| &e.reference == r) {
            return Err(SessionError::new(
                SessionCode::StaleRef,
                format!(
                    "{r} is stale: it came from an earlier observation, not observation {}; \
                     observe again",
                    latest.id
                ),
            ));
        }
    }
    Ok(())
}

/// The latest observation, when it is still open; otherwise `refs` are stale, and the refusal
/// says whether an action ended it or there never was one.
fn open_observation<'a>(
    session: &'a SessionFile,
    refs: &[String],
) -> Result<&'a ObservationRecord, SessionError> {
    match session.latest.as_ref() {
        Some(l) if l.open => Ok(l),
        latest => {
            let when = match latest {
                Some(l) => format!("observation {} ended (every action ends one)", l.id),
                None => "there is no observation".to_string(),
            };
            Err(SessionError::new(
                SessionCode::StaleRef,
                format!("{} is stale: {when}; observe again", refs.join(", ")),
            ))
        }
    }
}

/// Gate 4 for `@cN` refs: like an `@eN`, each belongs to the latest observation, which must
/// still be open (an action ends it); and it must be one of that observation's surviving Page
/// Context refs (a validated delta since the observation may drop some, never extend them).
pub fn cref_binding(session: &SessionFile, refs: &[String]) -> Result<(), SessionError> {
    if refs.is_empty() {
        return Ok(());
    }
    open_observation(session, refs)?;
    let crefs = session
        .page_context
        .as_ref()
        .map(|p| p.crefs.as_slice())
        .unwrap_or_default();
    for r in refs {
        if !crefs.iter().any(|c| &c.reference == r) {
            return Err(SessionError::new(
                SessionCode::StaleRef,
                format!("{r} is not a live Page Context ref (its node changed, or it never existed); observe again"),
            ));
        }
    }
    Ok(())
}

/// Gate 5 (policy): the page is still inside the origin set, navigations stay inside it, files
/// are not read from the workspace.
pub fn policy(session: &SessionFile, step: &Step, current_url: &str) -> Result<(), SessionError> {
    let base = if current_url.starts_with("http") {
        current_url
    } else {
        session.start_url.as_str()
    };
    if policy::check_origin(&session.policy, current_url).is_err() {
        // Origin loss is recoverable: a navigation back inside the origin set passes (it loads a
        // new document, so every old ref stays invalid); anything else is refused.
        let back = match &step.action {
            Action::Navigate { url } => policy::resolve(url, base)
                .and_then(|target| policy::check_origin(&session.policy, &target))
                .is_ok(),
            _ => false,
        };
        if back {
            return Ok(());
        }
        return Err(SessionError::new(
            SessionCode::OriginLoss,
            format!(
                "the page is at {current_url}, outside this session's origins ({}); navigate \
                 back to an allowed page",
                session.policy.origins.join(", ")
            ),
        ));
    }
    match &step.action {
        Action::Navigate { url } => {
            policy::check_origin(&session.policy, &policy::resolve(url, base)?)
        }
        Action::Tab {
            operation: TabOperation::New { url: Some(url), .. },
        } => policy::check_origin(&session.policy, &policy::resolve(url, base)?),
        Action::Upload { .. } => Err(SessionError::new(
            SessionCode::Policy,
            "agent sessions do not read workspace files (`upload`)",
        )),
        _ => Ok(()),
    }
}

/// Gate 6 (budgets): actions, the session deadline and evidence bytes.
pub fn budgets(
    session: &SessionFile,
    artifacts: &a3s_test_fsroot::Dir,
) -> Result<(), SessionError> {
    let b = session.budgets;
    if session.actions >= b.max_actions {
        return Err(SessionError::new(
            SessionCode::Budget,
            format!(
                "the action budget ({}) is spent; finish the session",
                b.max_actions
            ),
        ));
    }
    if now_ms() >= session.deadline_at_ms() {
        return Err(SessionError::new(
            SessionCode::Budget,
            format!(
                "the session deadline ({} ms) passed; finish the session",
                b.session_ms
            ),
        ));
    }
    let used = folder_bytes(artifacts);
    if used >= b.evidence_bytes {
        return Err(SessionError::new(
            SessionCode::Budget,
            format!(
                "the evidence budget ({} bytes) is spent ({used} used)",
                b.evidence_bytes
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::file::{
        Budgets, ObservationRecord, Ownership, SessionState, FORMAT_VERSION,
    };
    use crate::session::observation::RefEntry;
    use a3s_test_lang::ir::ActionKind;

    fn session() -> SessionFile {
        SessionFile {
            format_version: FORMAT_VERSION,
            id: "s".parse().unwrap(),
            state: SessionState::Active,
            start_url: "http://127.0.0.1:4173/".into(),
            goal: None,
            success: vec![],
            policy: policy::build("http://127.0.0.1:4173/", &[], &[]).unwrap(),
            budgets: Budgets::default(),
            cdp_endpoint: None,
            socket: "s.sock".into(),
            ownership: Ownership::default(),
            started_at_ms: now_ms(),
            last_turn_at_ms: now_ms(),
            next_turn: 1,
            next_observation: 3,
            actions: 0,
            latest: Some(ObservationRecord {
                id: 2,
                url: "u".into(),
                loader_id: "L".into(),
                open: true,
            }),
            refs: vec![RefEntry {
                reference: "@e1".into(),
                backend_node_id: 5,
                role: "button".into(),
                name: "Go".into(),
                value: None,
                states: Default::default(),
                durable: vec![],
            }],
            steps: vec![],
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

    fn caps() -> Capabilities {
        Capabilities {
            surface: a3s_test_lang::ir::Surface::Web,
            steps: ActionKind::ALL.iter().copied().collect(),
        }
    }

    #[test]
    fn schema_refuses_non_statements_and_maps_u_refs_to_target_type() {
        assert_eq!(
            schema("suite \"x\" {}").unwrap_err().code,
            SessionCode::Schema
        );
        let typo = schema("clik { target = css(\"a\") }").unwrap_err();
        assert_eq!(typo.code, SessionCode::Schema);
        assert!(typo.message.contains("click"), "{}", typo.message);
        assert_eq!(
            schema("click { target = ref(\"@u1\") }").unwrap_err().code,
            SessionCode::RefKind
        );
        assert!(schema("click { target = ref(\"@e1\") }").is_ok());
    }

    #[test]
    fn capability_and_target_type() {
        let tab = schema("tab { operation = \"list\" }").unwrap();
        assert_eq!(
            capability(&tab, &caps()).unwrap_err().code,
            SessionCode::Capability
        );
        let mut none = caps();
        none.steps.clear();
        let click = schema("click { target = ref(\"@e1\") }").unwrap();
        assert_eq!(
            capability(&click, &none).unwrap_err().code,
            SessionCode::Capability
        );
        let c = schema("click { target = ref(\"@c1\") }").unwrap();
        assert_eq!(target_type(&c).unwrap_err().code, SessionCode::TargetType);
        assert_eq!(target_type(&click).unwrap(), ["@e1"]);
        // A visual point is a desktop session's click target only (its engine takes it before
        // this gate); a page or terminal session refuses it here, before anything is sent.
        let point = schema("hover { target = visual_point(\"@v1\", 3, 4) }").unwrap();
        let refused = target_type(&point).unwrap_err();
        assert_eq!(refused.code, SessionCode::TargetType);
        assert!(
            refused.message.contains("visual_point"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn c_refs_need_a_page_context_and_a_surviving_ref() {
        use crate::session::page_context::refs::{CRefEntry, PageContextState};
        let c = schema("click { target = ref(\"@c1\") }").unwrap();
        let mut s = session();
        assert_eq!(
            target_type_in(&c, Some(&s)).unwrap_err().code,
            SessionCode::TargetType
        );
        s.page_context = Some(PageContextState {
            sdk_version: "0.1.0".into(),
            baseline: 3,
            crefs: vec![CRefEntry {
                reference: "@c1".into(),
                fingerprint: "f".repeat(64),
                role: "button".into(),
                name: "Add".into(),
                component: None,
                source: None,
                durable: vec![],
            }],
        });
        assert_eq!(target_type_in(&c, Some(&s)).unwrap(), ["@c1"]);
        assert!(cref_binding(&s, &["@c1".into()]).is_ok());
        assert_eq!(
            cref_binding(&s, &["@c2".into()]).unwrap_err().code,
            SessionCode::StaleRef
        );
        // An action ended the observation: its @cN refs end with it, surviving or not.
        s.latest.as_mut().unwrap().open = false;
        let ended = cref_binding(&s, &["@c1".into()]).unwrap_err();
        assert_eq!(ended.code, SessionCode::StaleRef);
        assert!(ended.message.contains("ended"), "{}", ended.message);
        assert!(cref_binding(&s, &[]).is_ok());
    }

    #[test]
    fn refs_bind_to_the_latest_open_observation() {
        let s = session();
        let refs = vec!["@e1".to_string()];
        // The document issued @e1 only, or (earlier observations of it) @e1…@e9.
        let upto1 = |n: u64| n == 1;
        let upto9 = |n: u64| (1..=9).contains(&n);
        assert!(ref_binding(&s, Some(2), &refs, upto1).is_ok());
        assert!(ref_binding(&s, None, &refs, upto1).is_ok());
        assert_eq!(
            ref_binding(&s, Some(1), &refs, upto1).unwrap_err().code,
            SessionCode::StaleRef
        );
        // Never issued (a typo) is told apart from issued by an earlier observation.
        let unknown = ref_binding(&s, None, &["@e9".into()], upto1).unwrap_err();
        assert_eq!(unknown.code, SessionCode::UnknownRef);
        assert!(unknown.message.contains("@e9"), "{}", unknown.message);
        let earlier = session();
        let stale = ref_binding(&earlier, None, &["@e9".into()], upto9).unwrap_err();
        assert_eq!(stale.code, SessionCode::StaleRef);
        assert!(
            stale.message.starts_with("@e9 is stale"),
            "{}",
            stale.message
        );
        assert_eq!(
            ref_binding(&s, None, &["@e0".into()], upto1)
                .unwrap_err()
                .code,
            SessionCode::UnknownRef
        );
        let mut ended = session();
        ended.latest.as_mut().unwrap().open = false;
        assert_eq!(
            ref_binding(&ended, None, &refs, upto1).unwrap_err().code,
            SessionCode::StaleRef
        );
        assert!(ref_binding(&ended, None, &[], upto1).is_ok());
    }

    #[test]
    fn policy_gate() {
        let s = session();
        let nav = |u: &str| schema(&format!("navigate {{ url = \"{u}\" }}")).unwrap();
        let here = "http://127.0.0.1:4173/a";
        assert!(policy(&s, &nav("/b"), here).is_ok());
        assert_eq!(
            policy(&s, &nav("http://127.0.0.1:9/"), here)
                .unwrap_err()
                .code,
            SessionCode::Policy
        );
        assert_eq!(
            policy(&s, &nav("/b"), "http://127.0.0.1:9/")
                .unwrap_err()
                .code,
            SessionCode::OriginLoss
        );
        // Origin loss is recoverable by navigating back inside the origin set, and only so.
        let away = "http://127.0.0.1:9/x";
        assert!(policy(&s, &nav("http://127.0.0.1:4173/"), away).is_ok());
        assert!(policy(&s, &nav("/b"), "chrome-error://chromewebdata/").is_ok());
        let click = schema("click { target = ref(\"@e1\") }").unwrap();
        assert_eq!(
            policy(&s, &click, away).unwrap_err().code,
            SessionCode::OriginLoss
        );
    }

    #[test]
    fn budget_gate() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = a3s_test_fsroot::Dir::open_anchor(tmp.path()).unwrap();
        let mut s = session();
        assert!(budgets(&s, &dir).is_ok());
        s.actions = s.budgets.max_actions;
        assert_eq!(budgets(&s, &dir).unwrap_err().code, SessionCode::Budget);
        let mut s = session();
        s.started_at_ms = 0;
        assert_eq!(budgets(&s, &dir).unwrap_err().code, SessionCode::Budget);
        let mut s = session();
        s.budgets.evidence_bytes = 3;
        std::fs::write(tmp.path().join("x.png"), b"1234").unwrap();
        assert_eq!(budgets(&s, &dir).unwrap_err().code, SessionCode::Budget);
    }
}
