//! Agent-session operations shared by `a3s-test agent …` and the MCP tools: start, inspect
//! (observe is `super::observe`), exec (and its typed actions), finish, abort, show, list,
//! schema and promote.
//!
//! Each operation's parameters are ONE struct that is at once the CLI subcommand's arguments
//! (`clap::Args`), the MCP tool's arguments (`Deserialize`) and the source of the tool's input
//! schema (`JsonSchema`), so a flag, a field and its bounds cannot drift apart. Each returns a
//! typed result (`Serialize`) or a coded [`SessionError`]; the engine and the gates live in
//! `a3s_test_runner::session`.

use super::bounded::{Bounded, Text, UNBOUNDED};
use super::observe::ViewOptions;
use super::verbs::Action;
use super::{parse_enum, Context};
use a3s_test_fsroot::{Dir, EntryKind};
use a3s_test_ledger::SessionId;
use a3s_test_runner::session::cleanup;
use a3s_test_runner::session::client::{self, TURN_TIMEOUT};
use a3s_test_runner::session::file::{
    open_session_dir, parse_session_id, session_dir, sessions_dir, Budgets, Policy, SessionFile,
    SessionState, MAX_SUMMARY_CHARS,
};
use a3s_test_runner::session::page_context::inspect::{
    parse_region, Detail, InspectRequest, Scope, MAX_CURSOR_BYTES,
};
use a3s_test_runner::session::protocol::{self, Call, FinishStatus};
use a3s_test_runner::session::spawn::{self, StartRequest, EXIT_TIMEOUT};
use a3s_test_runner::session::view::{Form, Observation, ViewRequest};
use a3s_test_runner::session::{policy, promote, SessionCode, SessionError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Largest `report.json` `show` reads back.
const MAX_REPORT_BYTES: u64 = 16 * 1024 * 1024;

/// `start`: a browser on `url` — or, with `tui`, a program on a terminal — owned by a supervisor
/// that outlives the call.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct StartParams {
    /// The start URL (its origin is the first allowed origin); none for a terminal session.
    #[arg(required_unless_present_any = ["tui", "gui"])]
    #[serde(default)]
    pub url: Option<String>,
    /// A terminal session: the program after `--` (`agent start --tui -- bc -q`), else the
    /// project's `tui { command = [..] }` block, on its own pseudoterminal.
    #[arg(long, conflicts_with_all = ["url", "allow_origins", "allow_domains"])]
    #[serde(default)]
    pub tui: bool,
    /// A desktop session: the program after `--` (`agent start --gui -- gnome-calculator`),
    /// else the project's `gui { command = [..] }` block, on a desktop the session owns (an X
    /// server, private buses), observed as its windows' controls with `@eN` refs.
    #[arg(long, conflicts_with_all = ["url", "tui", "allow_origins", "allow_domains", "trace"])]
    #[serde(default)]
    pub gui: bool,
    /// The terminal or desktop program and its arguments (an argument vector, no shell).
    #[arg(last = true, value_name = "PROGRAM")]
    #[serde(default)]
    pub program: Vec<String>,
    /// Terminal columns (default: the project's `tui.columns`, else 80).
    #[arg(long, value_name = "N", requires = "tui")]
    pub columns: Option<Bounded<u32, 1, 1000>>,
    /// Terminal rows (default: the project's `tui.rows`, else 24).
    #[arg(long, value_name = "N", requires = "tui")]
    pub rows: Option<Bounded<u32, 1, 500>>,
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// Another exact origin the session may navigate to, act and observe on (repeatable).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    #[serde(default)]
    pub allow_origins: Vec<String>,
    /// A host the page may fetch from (network only; not navigable; repeatable).
    #[arg(long = "allow-domain", value_name = "DOMAIN")]
    #[serde(default)]
    pub allow_domains: Vec<String>,
    /// The goal, in the person's words.
    #[arg(long)]
    pub goal: Option<String>,
    /// A success criterion (repeatable).
    #[arg(long)]
    #[serde(default)]
    pub success: Vec<String>,
    /// Close the session after this long without a turn (default 300000).
    #[arg(long, value_name = "MS")]
    pub idle_timeout_ms: Option<Bounded<u64, 1, UNBOUNDED>>,
    /// Most statements the session may dispatch (default 200).
    #[arg(long, value_name = "N")]
    pub max_actions: Option<u32>,
    /// The session's whole lifetime: turns are refused and the supervisor closes after this
    /// long (default 1800000, 30 min).
    #[arg(long, value_name = "MS")]
    pub deadline_ms: Option<Bounded<u64, 1, UNBOUNDED>>,
    /// Most bytes of evidence under the session's artifacts/ (default 67108864, 64 MiB).
    #[arg(long, value_name = "BYTES")]
    pub max_evidence_bytes: Option<u64>,
    /// Capture the page after every statement (screenshot, outline, console, requests) for the
    /// trace `finish --trace` writes; a browser session's only.
    #[arg(long, conflicts_with = "tui")]
    #[serde(default)]
    pub trace: bool,
}

/// `inspect`: the Test Kit Page Context. The CLI names the scope with `--node`, `--component`
/// or `--region`; MCP passes it as one `scope` object.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct InspectParams {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// summary | scoped | diff | forensic.
    #[arg(long, default_value = "summary", value_parser = parse_enum::<Detail>)]
    #[schemars(schema_with = "detail_schema")]
    pub detail: Detail,
    /// {kind:page} | {kind:node,id} | {kind:component,id} | {kind:region,x,y,width,height}
    /// (viewport CSS px).
    #[arg(skip)]
    #[serde(default)]
    #[schemars(schema_with = "scope_schema")]
    pub scope: Option<Scope>,
    /// Scope: one node id (from an earlier inspection of this document).
    #[arg(long, value_name = "ID", conflicts_with_all = ["component", "region"])]
    #[serde(skip)]
    #[schemars(skip)]
    pub node: Option<String>,
    /// Scope: one component id.
    #[arg(long, value_name = "ID", conflicts_with = "region")]
    #[serde(skip)]
    #[schemars(skip)]
    pub component: Option<String>,
    /// Scope: a viewport rectangle `x,y,w,h` in CSS px.
    #[arg(long, value_name = "X,Y,W,H", allow_hyphen_values = true)]
    #[serde(skip)]
    #[schemars(skip)]
    pub region: Option<String>,
    /// Diff baseline revision (with detail diff).
    #[arg(long, value_name = "N")]
    pub since_revision: Option<Bounded<u64, 1, UNBOUNDED>>,
    /// Wait up to this many ms for a change after the baseline.
    #[arg(long, value_name = "T")]
    pub wait_timeout_ms: Option<Bounded<u64, 0, 30000>>,
    /// Continue a truncated answer.
    #[arg(long, value_name = "C")]
    pub cursor: Option<Text<0, { MAX_CURSOR_BYTES }>>,
    /// UI understanding (`@uN` facts) in the observation that follows.
    #[command(flatten)]
    #[serde(flatten)]
    pub ui: super::ui::UiOptions,
}

fn detail_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "enum": ["summary", "scoped", "diff", "forensic"] })
}

fn scope_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "object" })
}

impl InspectParams {
    /// The checked request: the scope from `scope` or from the CLI's scope flags.
    pub fn request(&self) -> Result<InspectRequest, SessionError> {
        let invalid = |m: String| SessionError::new(SessionCode::InvalidInput, m);
        let scope = if let Some(scope) = &self.scope {
            scope.clone()
        } else if let Some(id) = &self.node {
            Scope::Node { id: id.clone() }
        } else if let Some(id) = &self.component {
            Scope::Component { id: id.clone() }
        } else if let Some(r) = &self.region {
            parse_region(r).map_err(invalid)?
        } else {
            Scope::Page
        };
        let request = InspectRequest {
            detail: self.detail,
            scope,
            since_revision: self.since_revision.map(Into::into),
            wait_timeout_ms: self.wait_timeout_ms.map(Into::into),
            cursor: self.cursor.clone().map(Into::into),
            ui: self.ui.budget().map_err(invalid)?,
        };
        request.validate().map_err(invalid)?;
        Ok(request)
    }
}

/// The session a statement runs in, the observation its refs come from, and whether the answer
/// carries the observation that follows: shared by `exec`, `test_act` and every verb.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct On {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// The observation the refs come from (must be the latest).
    #[arg(long)]
    pub observation: Option<Bounded<u64, 1, UNBOUNDED>>,
    /// Answer with the observation that follows the action, in the same turn (its refs are
    /// the ones the next action uses). Off unless given on the command line; on by default
    /// over MCP (`observe: false` answers with the action's result alone).
    #[arg(long)]
    #[serde(default = "observe_by_default")]
    pub observe: bool,
    /// The view of that observation (the options of `observe`; `since` answers a diff).
    #[command(flatten)]
    #[serde(flatten)]
    pub view: ViewOptions,
    /// How the answer is printed, which the view's byte budget counts: JSON over MCP, the
    /// CLI's choice there (set from `--json`).
    #[arg(skip)]
    #[serde(skip_deserializing, default = "json_form")]
    #[schemars(skip)]
    pub form: Form,
}

/// Over MCP an action answers with the next observation unless told not to (as Playwright MCP
/// answers an action with the page that follows): one call per agent turn.
fn observe_by_default() -> bool {
    true
}

/// Tool results are JSON.
fn json_form() -> Form {
    Form::Json
}

impl On {
    /// The view the action's answer carries, when asked (checked before the statement runs):
    /// view options without `--observe` are refused rather than ignored.
    pub fn then_observe(&self) -> Result<Option<ViewRequest>, SessionError> {
        if !self.observe {
            if self.view.is_default() {
                return Ok(None);
            }
            return Err(SessionError::new(
                SessionCode::InvalidInput,
                "the view options (--full, --since, --settle-ms, --max-bytes, --scope) shape the \
                 observation an action answers with: add --observe (over MCP, leave observe \
                 true)",
            ));
        }
        self.view.request(self.form).map(Some)
    }
}

/// `exec`: one ACL step block.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct ExecParams {
    /// Exactly one ACL step block, e.g. `click { target = ref("@e3") }`.
    pub statement: Text<0, 65536>,
    #[command(flatten)]
    #[serde(flatten)]
    pub on: On,
}

/// `test_act`: one typed action, in the session turn given beside it.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct ActParams {
    /// The action: `{"action": VERB, …}` with that verb's arguments.
    pub action: Action,
    #[serde(flatten)]
    pub on: On,
}

/// `finish`: close with a verdict.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct FinishParams {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// The verdict: passed | failed.
    #[arg(long, value_parser = parse_enum::<FinishStatus>)]
    #[schemars(schema_with = "status_schema")]
    pub status: FinishStatus,
    /// What happened.
    #[arg(long, default_value = "")]
    #[serde(default)]
    pub summary: Text<0, { MAX_SUMMARY_CHARS }>,
    /// Write the session's trace into its folder: `trace.json` (schema `a3s.test.trace/1`, one
    /// step per statement dispatched) and `trace.html`; pages are in it when the session was
    /// started with `trace`. A browser session's only.
    #[arg(long)]
    #[serde(default)]
    pub trace: bool,
}

fn status_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "enum": ["passed", "failed"] })
}

/// `abort`: close without a verdict.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct AbortParams {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// Why.
    #[arg(long)]
    pub reason: Option<String>,
}

/// `show` (and the operations that only name a session).
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct SessionParams {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
}

/// `promote`: the session's successful steps as a suite.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
pub struct PromoteParams {
    /// The session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// Where to write the suite.
    #[arg(long)]
    pub output: PathBuf,
}

/// What `start` reports.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Started {
    /// The session id.
    pub session: SessionId,
    /// Its state (running).
    pub state: SessionState,
    /// The start URL.
    pub url: String,
    /// The allowed origins.
    pub origins: Vec<String>,
    /// The allowed network domains.
    pub domains: Vec<String>,
    /// The session folder.
    pub folder: PathBuf,
    /// The supervisor's pid.
    pub supervisor_pid: u32,
    /// The browser's pid.
    pub browser_pid: u32,
    /// The command to run next.
    pub next: String,
}

pub use a3s_test_runner::session::reply::{
    Closed, ClosedReport, Closing, Executed, ForcedReport, SessionReport,
};

/// What `show` reports.
#[derive(Debug, Serialize)]
pub struct Shown {
    /// The session record.
    pub session: SessionFile,
    /// Its report, once closed.
    pub report: Option<SessionReport>,
    /// The session folder.
    pub folder: PathBuf,
    /// Page-derived fields are untrusted data.
    pub untrusted: bool,
}

/// One row of `list`.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    /// The session id.
    pub session: SessionId,
    /// Its state.
    pub state: SessionState,
    /// The start URL.
    pub url: String,
    /// Statements dispatched.
    pub actions: u32,
    /// When it started.
    pub started_at_ms: u64,
}

/// What `list` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Sessions {
    /// Every session, newest first.
    pub sessions: Vec<Listed>,
}

/// What `promote` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Promoted {
    /// The session id.
    pub session: SessionId,
    /// The suite written.
    pub output: PathBuf,
    /// Its steps (every successful step, plus the navigation of a browser session).
    pub steps: usize,
    /// Environment variables the suite reads in place of values typed into private fields: set
    /// them where it runs.
    pub env: Vec<String>,
    /// The HTML view of the session's trace (`agent finish --trace`), the evidence of the
    /// session the suite came from, when it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    /// The command to run next.
    pub next: String,
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
) -> Result<Started, SessionError> {
    let invalid = |m: String| SessionError::new(SessionCode::InvalidInput, m);
    if p.gui {
        if p.url.is_some() || p.tui {
            return Err(invalid(
                "a session drives a URL, a terminal program (tui) or a desktop program (gui):                  one of them"
                    .into(),
            ));
        }
        if !p.allow_origins.is_empty() || !p.allow_domains.is_empty() || p.trace {
            return Err(invalid(
                "allow_origins, allow_domains and trace are a browser's; a desktop session has                  none"
                    .into(),
            ));
        }
    } else if !p.tui && !p.program.is_empty() {
        return Err(invalid(
            "a program after `--` needs tui (a terminal program) or gui (a desktop program)".into(),
        ));
    }
    let desktop = match p.gui {
        true => Some(super::desktop::program(ctx, &p)?),
        false => None,
    };
    let (url, policy, terminal) = match (&p.url, p.tui) {
        _ if desktop.is_some() => {
            let program = desktop.as_ref().map(|d| d.display()).unwrap_or_default();
            (program, Policy::default(), None)
        }
        (Some(url), false) => {
            let policy = policy::build(url, &p.allow_origins, &p.allow_domains)
                .map_err(|e| invalid(e.message))?;
            (url.clone(), policy, None)
        }
        (None, true) => {
            if !p.allow_origins.is_empty() || !p.allow_domains.is_empty() {
                return Err(invalid(
                    "allow_origins and allow_domains are a browser's; a terminal session has none"
                        .into(),
                ));
            }
            if p.trace {
                return Err(invalid(
                    "trace is a browser session's; a terminal session records no page".into(),
                ));
            }
            let program = super::terminal::program(ctx, &p)?;
            (program.display(), Policy::default(), Some(program))
        }
        (Some(_), true) => {
            return Err(invalid(
                "a session drives a URL or, with tui, a terminal program: not both".into(),
            ))
        }
        (None, false) => {
            return Err(invalid(
                "give the start URL, or tui (with the program) for a terminal session".into(),
            ))
        }
    };
    // A browser session's context starts the way `run` opens a web scenario's: with the
    // project's context options and signed-in state (a terminal has no browser context).
    let (context, storage_state) = match &terminal {
        None if desktop.is_none() => super::project::read(&ctx.root)?
            .map(|project| (project.context, project.storage_state))
            .unwrap_or_default(),
        _ => Default::default(),
    };
    let mut budgets = Budgets::default();
    if let Some(ms) = p.idle_timeout_ms {
        budgets.idle_ms = ms.into();
    }
    if let Some(n) = p.max_actions {
        budgets.max_actions = n;
    }
    if let Some(ms) = p.deadline_ms {
        budgets.session_ms = ms.into();
    }
    if let Some(n) = p.max_evidence_bytes {
        budgets.evidence_bytes = n;
    }
    let file = spawn::start(
        &exe()?,
        &ctx.root,
        StartRequest {
            id: p.session.clone(),
            url,
            policy,
            goal: p.goal,
            success: p.success,
            budgets,
            headed: false,
            reopen: false,
            tied: false,
            terminal,
            desktop,
            context,
            storage_state,
            trace: p.trace,
        },
        interrupted,
    )?;
    Ok(Started {
        folder: session_dir(&ctx.root, &file.id).path(),
        next: format!("a3s-test agent observe --session {}", file.id),
        state: file.state,
        url: file.start_url,
        origins: file.policy.origins,
        domains: file.policy.domains,
        supervisor_pid: file.ownership.supervisor_pid,
        browser_pid: file.ownership.browser_pid,
        session: file.id,
    })
}

/// The folder (open, reached without following links) and `session.json` of `session` (its id
/// checked first, by the one id parser).
pub(crate) fn load(ctx: &Context, session: &str) -> Result<(Dir, SessionFile), SessionError> {
    let dir = open_session_dir(&ctx.root, &parse_session_id(session)?)?;
    let file = SessionFile::load(&dir)?;
    Ok((dir, file))
}

/// One turn of a running session's supervisor (refused when the session is closed): the
/// request's typed reply, the one place a supervisor's answer becomes a result (an answer that
/// does not fit the request's reply is a supervisor fault, `test.session.supervisor`, never a
/// half-read value).
pub(crate) fn turn<R: Call>(
    ctx: &Context,
    session: &str,
    request: R,
) -> Result<R::Reply, SessionError> {
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
    client::call(&file.socket, request, TURN_TIMEOUT)
}

/// Inspect the Test Kit Page Context (a new observation view with the bridge's answer under
/// `inspection`).
pub fn inspect(ctx: &Context, p: &InspectParams) -> Result<Observation, SessionError> {
    let request = p.request()?;
    turn(ctx, &p.session, protocol::Inspect { request })
}

/// Admit and run one statement.
pub fn exec(ctx: &Context, p: &ExecParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.statement.to_string())
}

/// Admit and run `statement` in the turn `on` names: `exec`'s, and every verb's with the
/// statement it built (which its own bounded values may make longer than a caller's
/// statement may be).
pub fn run(ctx: &Context, on: &On, statement: String) -> Result<Executed, SessionError> {
    let request = protocol::Exec {
        observation: on.observation.map(Into::into),
        statement,
        then_observe: on.then_observe()?,
    };
    turn(ctx, &on.session, request).map(Into::into)
}

/// Run a typed action: its verb's statement, with exec's gates.
pub fn act(ctx: &Context, p: &ActParams) -> Result<Executed, SessionError> {
    run(ctx, &p.on, p.action.statement()?)
}

/// After the supervisor answered a close: stop whatever of the recorded groups is left and
/// settle the state (`done`, or cleanup when something survived).
fn with_cleanup(
    ctx: &Context,
    session: &str,
    done: SessionState,
    closing: Closing,
) -> Result<Closed, SessionError> {
    let mut closed = Closed {
        report: ClosedReport::Supervisor(closing.report),
        next: closing.next,
        cleanup_verified: false,
        survivors: Vec::new(),
        blocked_requests: closing.blocked_requests,
    };
    let (dir, mut file) = load(ctx, session)?;
    let survivors = cleanup::stop_recorded(&file, EXIT_TIMEOUT);
    cleanup::settle(&dir, &mut file, done, &survivors)?;
    closed.cleanup_verified = survivors.is_empty();
    closed.survivors = survivors;
    if !closed.survivors.is_empty() {
        return Err(
            cleanup::failed(session, &closed.survivors).with(|d| d.closed = Some(Box::new(closed)))
        );
    }
    Ok(closed)
}

/// Without a supervisor (gone, or the session in cleanup): stop the recorded groups directly.
fn forced(
    ctx: &Context,
    session: &str,
    done: SessionState,
    reason: &str,
    cause: Option<SessionError>,
) -> Result<Closed, SessionError> {
    let (dir, _) = load(ctx, session)?;
    let (file, survivors) = cleanup::force_close(&dir, done, reason)?;
    let closed = Closed {
        report: ClosedReport::Forced(ForcedReport {
            cause,
            forced: true,
            session: file.id,
            state: file.state,
        }),
        next: None,
        cleanup_verified: survivors.is_empty(),
        survivors,
        blocked_requests: Vec::new(),
    };
    if closed.cleanup_verified {
        Ok(closed)
    } else {
        let failed = cleanup::failed(session, &closed.survivors);
        Err(failed.with(|d| d.closed = Some(Box::new(closed))))
    }
}

/// Close with a verdict; verifies no owned process remains. A session in cleanup retries it.
pub fn finish(ctx: &Context, p: &FinishParams) -> Result<Closed, SessionError> {
    let session = p.session.as_str();
    let (_, file) = load(ctx, session)?;
    if p.trace && (file.terminal.is_some() || file.desktop.is_some()) {
        return Err(SessionError::new(
            SessionCode::InvalidInput,
            format!(
                "session {session} is a terminal or desktop session, which records no trace; \
                 finish it without trace"
            ),
        ));
    }
    if file.state == SessionState::CleanupFailed {
        return forced(ctx, session, SessionState::Finished, "finished", None);
    }
    let request = protocol::Finish {
        status: p.status,
        summary: p.summary.to_string(),
        trace: p.trace,
    };
    match turn(ctx, session, request) {
        Ok(closing) => with_cleanup(ctx, session, SessionState::Finished, closing),
        // The supervisor stopped before it answered: what it recorded is stopped here.
        Err(e) if e.code == SessionCode::Cleanup => {
            forced(ctx, session, SessionState::Finished, "finished", Some(e))
        }
        Err(e) => Err(e),
    }
}

/// Close without a verdict; a supervisor that does not answer (or is gone) is stopped with the
/// browser through the recorded groups (identity checked). A session in cleanup retries it.
pub fn abort(ctx: &Context, p: &AbortParams) -> Result<Closed, SessionError> {
    let session = p.session.as_str();
    let (_, file) = load(ctx, session)?;
    let reason_text = p.reason.as_deref().unwrap_or("aborted");
    if file.state == SessionState::CleanupFailed {
        return forced(ctx, session, SessionState::Aborted, reason_text, None);
    }
    let request = protocol::Abort {
        reason: p.reason.clone(),
    };
    match turn(ctx, session, request) {
        Ok(closing) => with_cleanup(ctx, session, SessionState::Aborted, closing),
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
pub fn show(ctx: &Context, p: &SessionParams) -> Result<Shown, SessionError> {
    let (dir, file) = load(ctx, &p.session)?;
    let report = dir
        .read("report.json", MAX_REPORT_BYTES)
        .ok()
        .and_then(|b| serde_json::from_slice::<SessionReport>(&b).ok());
    Ok(Shown {
        session: file,
        report,
        folder: dir.path().to_path_buf(),
        untrusted: true,
    })
}

/// Every session under the root, newest first. A link in place of `.a3s-test` or
/// `agent-sessions` is `test.session.unsafe_path`; a session folder that is a link is skipped.
pub fn list(ctx: &Context) -> Result<Sessions, SessionError> {
    let root = match sessions_dir(&ctx.root).open_dir() {
        Ok(root) => Some(root),
        Err(e) if e.is_not_found() => None,
        Err(e) => return Err(SessionError::fs(&e)),
    };
    let mut sessions = Vec::new();
    if let Some(root) = root {
        let entries = root.list().map_err(|e| SessionError::fs(&e))?;
        for entry in entries.into_iter().filter(|e| e.kind == EntryKind::Dir) {
            let Ok(dir) = root.open_dir(&entry.name) else {
                continue;
            };
            if let Ok(file) = SessionFile::load(&dir) {
                sessions.push(Listed {
                    session: file.id,
                    state: file.state,
                    url: file.start_url,
                    actions: file.actions,
                    started_at_ms: file.started_at_ms,
                });
            }
        }
    }
    sessions.sort_by_key(|r| std::cmp::Reverse(r.started_at_ms));
    Ok(Sessions { sessions })
}

/// Write the session's successful steps as a suite at `output`.
pub fn promote(ctx: &Context, p: &PromoteParams) -> Result<Promoted, SessionError> {
    let (dir, file) = load(ctx, &p.session)?;
    // The session's trace, when `finish --trace` wrote one (a regular file, reached without a
    // link like everything in the folder).
    let trace = matches!(
        dir.kind_of(a3s_test_runner::session::trace::TRACE_HTML),
        Ok(Some(EntryKind::File))
    )
    .then(|| dir.path().join(a3s_test_runner::session::trace::TRACE_HTML));
    let output: &Path = &p.output;
    // A terminal session's turns become a `surface = "tui"` scenario, run on its program.
    let (source, next, steps) = match (&file.terminal, &file.desktop) {
        (Some(program), _) => {
            let (source, next) = super::terminal::promote(&file, program, output)?;
            (source, next, file.steps.len())
        }
        // A desktop session's turns become a `surface = "gui"` scenario, run on its program.
        (None, Some(program)) => {
            let (source, next) = super::desktop::promote(&file, program, output)?;
            (source, next, file.steps.len())
        }
        (None, None) => (
            promote::suite_source(&file)?,
            format!("a3s-test run {}", output.display()),
            file.steps.len() + 1,
        ),
    };
    let env = promote::private_vars(&file);
    let io = |what: &str, path: &Path, e: std::io::Error| {
        SessionError::new(
            SessionCode::Io,
            format!("failed to {what} {}: {e}", path.display()),
        )
    };
    if let Some(parent) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| io("create", parent, e))?;
    }
    std::fs::write(output, &source).map_err(|e| io("write", output, e))?;
    Ok(Promoted {
        session: file.id,
        output: output.to_path_buf(),
        steps,
        env,
        trace,
        next,
    })
}

/// JSON Schema of the statement and typed-action forms (the action's schema is derived from
/// [`Action`], the type `test_act` deserializes).
pub fn schema() -> Value {
    let step_kinds: Vec<&str> = a3s_test_web::WEB_STEPS
        .iter()
        .filter(|k| !a3s_test_lang::ir::TERMINAL_ONLY_STEPS.contains(k))
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
        "action": super::schema_of::<Action>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_runner::session::reply::CleanupReport;
    use serde::de::DeserializeOwned;

    /// Printed `v` is the same text as `v` printed through a `Value` (sorted keys), which is how
    /// the reports printed before they were typed; and it reads back as the same value.
    fn prints_as_value<T: Serialize + DeserializeOwned>(v: &T) {
        let direct = serde_json::to_string(v).unwrap();
        let via_value = serde_json::to_string(&serde_json::to_value(v).unwrap()).unwrap();
        assert_eq!(direct, via_value);
        let back: T = serde_json::from_str(&direct).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), direct);
    }

    #[test]
    fn an_action_observes_by_default_over_mcp_and_view_options_need_observe() {
        let params = |v: Value| -> ExecParams { serde_json::from_value(v).unwrap() };
        let default = params(json!({ "session": "s", "statement": "press { key = \"Tab\" }" }));
        assert!(default.on.observe);
        assert_eq!(
            default.on.then_observe().unwrap(),
            Some(ViewRequest {
                form: Form::Json,
                ..ViewRequest::default()
            })
        );
        let diff =
            params(json!({ "session": "s", "statement": "x", "since": 3, "max_bytes": 512 }));
        let view = diff.on.then_observe().unwrap().unwrap();
        assert_eq!((view.since, view.max_bytes), (Some(3), Some(512)));
        let off = params(json!({ "session": "s", "statement": "x", "observe": false }));
        assert_eq!(off.on.then_observe().unwrap(), None);
        // A view option without the observation it shapes is refused, not ignored.
        let stray =
            params(json!({ "session": "s", "statement": "x", "observe": false, "since": 2 }));
        assert_eq!(
            stray.on.then_observe().unwrap_err().code,
            SessionCode::InvalidInput
        );
        // A budget below the least is refused by its type, before any turn.
        let small = json!({ "session": "s", "statement": "x", "max_bytes": 10 });
        assert!(serde_json::from_value::<ExecParams>(small).is_err());
    }

    #[test]
    fn typed_reports_print_as_their_values_did() {
        let report = SessionReport {
            actions: 2,
            cleanup: CleanupReport {
                browser_pgid: 7,
                problems: vec!["left".into()],
            },
            closed_at_ms: 9,
            format_version: 1,
            goal: Some("g".into()),
            session: "s".into(),
            start_url: "http://127.0.0.1:1/".into(),
            started_at_ms: 3,
            status: "passed".into(),
            steps_passed: 1,
            success: vec!["ok".into()],
            summary: None,
            summary_untrusted: true,
            trace: None,
        };
        prints_as_value(&report);
        prints_as_value(&ClosedReport::Supervisor(report));
        let cause = SessionError::new(SessionCode::Cleanup, "gone").with_next("finish".into());
        for cause in [None, Some(cause)] {
            prints_as_value(&ClosedReport::Forced(ForcedReport {
                cause,
                forced: true,
                session: "s".parse().unwrap(),
                state: SessionState::Aborted,
            }));
        }
    }
}
