//! Agent-session operations shared by `a3s-test agent …` and the MCP tools: start, observe,
//! exec (and its typed sugar), finish, abort, show, list, schema and promote. Each returns JSON
//! or a coded [`SessionError`]; the engine and the gates live in `a3s_test_runner::session`.

use super::Context;
use a3s_test_runner::session::cleanup;
use a3s_test_runner::session::client::{self, TURN_TIMEOUT};
use a3s_test_runner::session::file::{
    check_session_id, session_dir, sessions_root, Budgets, SessionFile, SessionState,
};
use a3s_test_runner::session::protocol::{FinishStatus, Request};
use a3s_test_runner::session::spawn::{self, StartRequest, EXIT_TIMEOUT};
use a3s_test_runner::session::statement::Sugar;
use a3s_test_runner::session::{policy, promote, SessionCode, SessionError};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// What `start` needs.
#[derive(Debug, Clone, Default)]
pub struct StartParams {
    /// Session id.
    pub session: String,
    /// Start URL.
    pub url: String,
    /// `--allow-origin`.
    pub allow_origins: Vec<String>,
    /// `--allow-domain`.
    pub allow_domains: Vec<String>,
    /// `--goal`.
    pub goal: Option<String>,
    /// `--success`.
    pub success: Vec<String>,
    /// `--idle-timeout-ms` (default 5 min).
    pub idle_ms: Option<u64>,
    /// `--max-actions` (default 200).
    pub max_actions: Option<u32>,
    /// `--deadline-ms`: the session's whole lifetime (default 30 min).
    pub deadline_ms: Option<u64>,
    /// `--max-evidence-bytes` under `artifacts/` (default 64 MiB).
    pub max_evidence_bytes: Option<u64>,
}

fn exe() -> Result<PathBuf, SessionError> {
    std::env::current_exe().map_err(|e| {
        SessionError::new(
            SessionCode::Supervisor,
            format!("cannot find the a3s-test binary: {e}"),
        )
    })
}

/// Start a session: a supervisor with a browser on `url`. `interrupted` is polled while the
/// browser comes up; once it is true the half-made session is torn down
/// (`test.session.interrupted`).
pub fn start(
    ctx: &Context,
    p: StartParams,
    interrupted: &dyn Fn() -> bool,
) -> Result<Value, SessionError> {
    check_session_id(&p.session)?;
    let policy = policy::build(&p.url, &p.allow_origins, &p.allow_domains)
        .map_err(|e| SessionError::new(SessionCode::InvalidInput, e.message))?;
    let mut budgets = Budgets::default();
    if let Some(ms) = p.idle_ms {
        budgets.idle_ms = ms.max(1);
    }
    if let Some(n) = p.max_actions {
        budgets.max_actions = n;
    }
    if let Some(ms) = p.deadline_ms {
        budgets.session_ms = ms.max(1);
    }
    if let Some(n) = p.max_evidence_bytes {
        budgets.evidence_bytes = n;
    }
    let file = spawn::start(
        &exe()?,
        &ctx.root,
        StartRequest {
            id: p.session.clone(),
            url: p.url,
            policy,
            goal: p.goal,
            success: p.success,
            budgets,
        },
        interrupted,
    )?;
    Ok(json!({
        "session": file.id,
        "state": file.state,
        "url": file.start_url,
        "origins": file.policy.origins,
        "domains": file.policy.domains,
        "folder": session_dir(&ctx.root, &file.id),
        "supervisor_pid": file.ownership.supervisor_pid,
        "browser_pid": file.ownership.browser_pid,
        "next": format!("a3s-test agent observe --session {}", file.id),
    }))
}

fn load(ctx: &Context, session: &str) -> Result<(PathBuf, SessionFile), SessionError> {
    check_session_id(session)?;
    let dir = session_dir(&ctx.root, session);
    let file = SessionFile::load(&dir)?;
    Ok((dir, file))
}

/// One turn of a running session's supervisor (refused when the session is closed).
pub(crate) fn turn(ctx: &Context, session: &str, request: Request) -> Result<Value, SessionError> {
    let (_, file) = load(ctx, session)?;
    if file.state == SessionState::CleanupFailed {
        return Err(SessionError::new(
            SessionCode::Cleanup,
            format!(
                "session {session} is in cleanup (a process it owned may survive); run abort or \
                 finish to retry the cleanup"
            ),
        ));
    }
    if file.state.is_closed() {
        return Err(SessionError::new(
            SessionCode::NotRunning,
            format!("session {session} is {:?}; start a new one", file.state).to_lowercase(),
        ));
    }
    let response = client::call(&file.socket, &request, TURN_TIMEOUT)?;
    if response.ok {
        Ok(response.body)
    } else {
        let e: SessionError = serde_json::from_value(response.body.clone()).unwrap_or_else(|_| {
            SessionError::new(SessionCode::Supervisor, response.body.to_string())
        });
        let next = response.body.get("next").cloned();
        Err(match next {
            Some(n) => {
                let mut detail = e.detail.clone().unwrap_or_else(|| json!({}));
                detail["next"] = n;
                e.with_detail(detail)
            }
            None => e,
        })
    }
}

/// Observe the page: observation id and refs.
pub fn observe(ctx: &Context, session: &str, full: bool) -> Result<Value, SessionError> {
    turn(ctx, session, Request::Observe { full })
}

/// Inspect the Test Kit Page Context (a new observation with the bridge's answer).
pub fn inspect(
    ctx: &Context,
    session: &str,
    request: a3s_test_runner::session::page_context::inspect::InspectRequest,
) -> Result<Value, SessionError> {
    turn(ctx, session, Request::Inspect { request })
}

/// Admit and run one statement.
pub fn exec(
    ctx: &Context,
    session: &str,
    observation: Option<u64>,
    statement: &str,
) -> Result<Value, SessionError> {
    turn(
        ctx,
        session,
        Request::Exec {
            observation,
            statement: statement.to_string(),
        },
    )
}

/// Run a typed sugar action.
pub fn act(
    ctx: &Context,
    session: &str,
    observation: Option<u64>,
    sugar: &Sugar,
) -> Result<Value, SessionError> {
    exec(ctx, session, observation, &sugar.statement())
}

/// After the supervisor answered a close: stop whatever of the recorded groups is left and
/// settle the state (`done`, or cleanup when something survived).
fn with_cleanup(
    ctx: &Context,
    session: &str,
    done: SessionState,
    mut value: Value,
) -> Result<Value, SessionError> {
    let (dir, mut file) = load(ctx, session)?;
    let survivors = cleanup::stop_recorded(&file, EXIT_TIMEOUT);
    cleanup::settle(&dir, &mut file, done, &survivors)?;
    value["cleanup_verified"] = json!(survivors.is_empty());
    value["survivors"] = json!(survivors);
    if !survivors.is_empty() {
        return Err(cleanup::failed(session, &survivors).with_detail(value));
    }
    Ok(value)
}

/// Without a supervisor (gone, or the session in cleanup): stop the recorded groups directly.
fn forced(
    ctx: &Context,
    session: &str,
    done: SessionState,
    reason: &str,
    cause: Option<SessionError>,
) -> Result<Value, SessionError> {
    let (dir, _) = load(ctx, session)?;
    let (file, survivors) = cleanup::force_close(&dir, done, reason)?;
    let report = json!({ "session": file.id, "state": file.state, "forced": true, "cause": cause });
    if survivors.is_empty() {
        Ok(json!({ "cleanup_verified": true, "survivors": survivors, "report": report }))
    } else {
        Err(cleanup::failed(session, &survivors).with_detail(report))
    }
}

/// Close with a verdict; verifies no owned process remains. A session in cleanup retries it.
pub fn finish(
    ctx: &Context,
    session: &str,
    status: FinishStatus,
    summary: &str,
) -> Result<Value, SessionError> {
    let (_, file) = load(ctx, session)?;
    if file.state == SessionState::CleanupFailed {
        return forced(ctx, session, SessionState::Finished, "finished", None);
    }
    let value = turn(
        ctx,
        session,
        Request::Finish {
            status,
            summary: summary.to_string(),
        },
    );
    match value {
        Ok(value) => with_cleanup(ctx, session, SessionState::Finished, value),
        // The supervisor stopped before it answered: what it recorded is stopped here.
        Err(e) if e.code == SessionCode::Cleanup => {
            forced(ctx, session, SessionState::Finished, "finished", Some(e))
        }
        Err(e) => Err(e),
    }
}

/// Close without a verdict; a supervisor that does not answer (or is gone) is stopped with the
/// browser through the recorded groups (identity checked). A session in cleanup retries it.
pub fn abort(ctx: &Context, session: &str, reason: Option<&str>) -> Result<Value, SessionError> {
    let (_, file) = load(ctx, session)?;
    let reason_text = reason.unwrap_or("aborted");
    if file.state == SessionState::CleanupFailed {
        return forced(ctx, session, SessionState::Aborted, reason_text, None);
    }
    let request = Request::Abort {
        reason: reason.map(str::to_string),
    };
    match turn(ctx, session, request) {
        Ok(value) => with_cleanup(ctx, session, SessionState::Aborted, value),
        Err(e)
            if matches!(
                e.code,
                SessionCode::NotRunning | SessionCode::Supervisor | SessionCode::Cleanup
            ) =>
        {
            forced(ctx, session, SessionState::Aborted, reason_text, Some(e))
        }
        Err(e) => Err(e),
    }
}

/// The session record (and the report, once closed).
pub fn show(ctx: &Context, session: &str) -> Result<Value, SessionError> {
    let (dir, file) = load(ctx, session)?;
    let report = std::fs::read(dir.join("report.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    Ok(json!({ "session": file, "report": report, "folder": dir, "untrusted": true }))
}

/// Every session under the root, newest first.
pub fn list(ctx: &Context) -> Result<Value, SessionError> {
    let root = sessions_root(&ctx.root);
    let mut rows = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&root) {
        for entry in entries.flatten() {
            if let Ok(file) = SessionFile::load(&entry.path()) {
                rows.push(json!({
                    "session": file.id,
                    "state": file.state,
                    "url": file.start_url,
                    "actions": file.actions,
                    "started_at_ms": file.started_at_ms,
                }));
            }
        }
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r["started_at_ms"].as_u64().unwrap_or(0)));
    Ok(json!({ "sessions": rows }))
}

/// Write the session's successful steps as a suite at `output`.
pub fn promote(ctx: &Context, session: &str, output: &Path) -> Result<Value, SessionError> {
    let (_, file) = load(ctx, session)?;
    let source = promote::suite_source(&file)?;
    if let Some(parent) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| {
            SessionError::new(
                SessionCode::Io,
                format!("failed to create {}: {e}", parent.display()),
            )
        })?;
    }
    std::fs::write(output, &source).map_err(|e| {
        SessionError::new(
            SessionCode::Io,
            format!("failed to write {}: {e}", output.display()),
        )
    })?;
    Ok(json!({
        "session": file.id,
        "output": output,
        "steps": file.steps.len() + 1,
        "next": format!("a3s-test run {}", output.display()),
    }))
}

/// JSON Schema of the statement and typed-action forms.
pub fn schema() -> Value {
    let step_kinds: Vec<&str> = a3s_test_driver::web::WEB_STEPS
        .iter()
        .map(|k| k.name())
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "a3s-test agent statement and action forms",
        "statement": {
            "description": "Exactly one ACL step block (docs/acl.md §5, §12); the label is optional. \
                Targets: role(), label(), placeholder(), text(), testid(), css(), ref(\"@eN\") from \
                the latest observation.",
            "type": "string",
            "examples": ["click { target = ref(\"@e3\") }", "fill { target = label(\"Email\")\n value = \"a@b.c\" }"],
            "x-step-kinds": step_kinds,
        },
        "action": action_schema(),
    })
}

/// The typed action (`test_act`, and the CLI sugar verbs).
pub fn action_schema() -> Value {
    let target = json!({ "type": "string", "description": "a ref @eN of the latest observation, or an ACL target such as role(\"button\", \"Save\")" });
    json!({
        "oneOf": [
            { "type": "object", "required": ["action", "target"], "additionalProperties": false,
              "properties": { "action": { "const": "click" }, "target": target } },
            { "type": "object", "required": ["action", "target", "text"], "additionalProperties": false,
              "properties": { "action": { "const": "fill" }, "target": target, "text": { "type": "string" } } },
            { "type": "object", "required": ["action", "key"], "additionalProperties": false,
              "properties": { "action": { "const": "press" }, "key": { "type": "string" } } },
            { "type": "object", "required": ["action", "url"], "additionalProperties": false,
              "properties": { "action": { "const": "navigate" }, "url": { "type": "string" } } },
            { "type": "object", "required": ["action", "text"], "additionalProperties": false,
              "properties": { "action": { "const": "expect_text" }, "text": { "type": "string" } } },
        ]
    })
}

/// Parse a typed action (`{"action": "click", "target": "@e3"}`).
pub fn parse_action(v: &Value) -> Result<Sugar, SessionError> {
    let s = |k: &str| -> Result<String, SessionError> {
        v.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| {
                SessionError::new(
                    SessionCode::Schema,
                    format!("the action needs a string `{k}`"),
                )
            })
    };
    match v.get("action").and_then(Value::as_str) {
        Some("click") => Ok(Sugar::Click(s("target")?)),
        Some("fill") => Ok(Sugar::Fill(s("target")?, s("text")?)),
        Some("press") => Ok(Sugar::Press(s("key")?)),
        Some("navigate") => Ok(Sugar::Navigate(s("url")?)),
        Some("expect_text") => Ok(Sugar::ExpectText(s("text")?)),
        other => Err(SessionError::new(
            SessionCode::Schema,
            format!("unknown action {other:?}: use click, fill, press, navigate or expect_text"),
        )),
    }
}
