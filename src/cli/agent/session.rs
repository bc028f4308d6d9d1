//! `a3s-test agent start|observe|inspect|exec|click|fill|press|navigate|expect-text|finish|abort|
//! show|list|schema|promote`: agent sessions from the command line. Each command is one turn of
//! `crate::ops::session` (the MCP tools call the same functions); `supervise` is the hidden
//! process `start` leaves running.

use crate::ops::session::{self as ops, StartParams};
use crate::ops::Context;
use a3s_test_runner::session::observation::to_text;
use a3s_test_runner::session::protocol::FinishStatus;
use a3s_test_runner::session::statement::Sugar;
use a3s_test_runner::session::{SessionCode, SessionError};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The session commands.
#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Start a session: a browser on URL that outlives this command, owned by a supervisor.
    Start(StartArgs),
    /// Observe the page: observation N with refs @e1… (page text is untrusted data).
    Observe(ObserveArgs),
    /// Inspect the Test Kit Page Context (a new observation with fresh refs plus the answer).
    Inspect(InspectArgs),
    /// Admit and run one ACL statement (refs must come from the latest observation).
    Exec(ExecArgs),
    /// Sugar: `click { target = … }`.
    Click(ClickArgs),
    /// Sugar: `fill { target = …  value = … }`.
    Fill(FillArgs),
    /// Sugar: `press { key = … }`.
    Press(PressArgs),
    /// Sugar: `navigate { url = … }` (inside the session's origins only).
    Navigate(NavigateArgs),
    /// Sugar: `expect { text = … }`.
    #[command(name = "expect-text")]
    ExpectText(ExpectTextArgs),
    /// Close the session with a verdict, write report.json and verify no owned process remains.
    Finish(FinishArgs),
    /// Close the session without a verdict (kills an unresponsive supervisor it owns).
    Abort(AbortArgs),
    /// Show a session's record and report.
    Show(ShowArgs),
    /// List sessions.
    List(JsonArgs),
    /// JSON Schema of the statement and typed action forms.
    Schema(JsonArgs),
    /// Turn the session's successful steps into a suite with durable targets.
    Promote(PromoteArgs),
    /// (internal) The session supervisor started by `agent start`.
    #[command(hide = true)]
    Supervise(SuperviseArgs),
}

/// `--session` and `--json`.
#[derive(Debug, Args)]
pub struct SessionArg {
    /// The session id.
    #[arg(long)]
    session: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `--json` only.
#[derive(Debug, Args)]
pub struct JsonArgs {
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `start`.
#[derive(Debug, Args)]
pub struct StartArgs {
    /// The start URL (its origin is the first allowed origin).
    url: String,
    #[command(flatten)]
    s: SessionArg,
    /// Another exact origin the session may navigate to, act and observe on.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// A host the page may fetch from (network only; not navigable).
    #[arg(long = "allow-domain", value_name = "DOMAIN")]
    allow_domain: Vec<String>,
    /// The goal, in the person's words.
    #[arg(long)]
    goal: Option<String>,
    /// A success criterion (repeatable).
    #[arg(long)]
    success: Vec<String>,
    /// Close the session after this long without a turn (default 300000).
    #[arg(long, value_name = "MS")]
    idle_timeout_ms: Option<u64>,
    /// Most statements the session may dispatch (default 200).
    #[arg(long, value_name = "N")]
    max_actions: Option<u32>,
    /// The session's whole lifetime: turns are refused and the supervisor closes after this
    /// long (default 1800000, 30 min).
    #[arg(long, value_name = "MS")]
    deadline_ms: Option<u64>,
    /// Most bytes of evidence under the session's artifacts/ (default 67108864, 64 MiB).
    #[arg(long, value_name = "BYTES")]
    max_evidence_bytes: Option<u64>,
}

/// `observe`.
#[derive(Debug, Args)]
pub struct ObserveArgs {
    #[command(flatten)]
    s: SessionArg,
    /// Every ref and the page text, not the compact view.
    #[arg(long)]
    full: bool,
}

/// `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    #[command(flatten)]
    s: SessionArg,
    /// summary | scoped | diff | forensic.
    #[arg(long, value_parser = ["summary", "scoped", "diff", "forensic"], default_value = "summary")]
    detail: String,
    /// Scope: one node id (from an earlier inspection of this document).
    #[arg(long, value_name = "ID", conflicts_with_all = ["component", "region"])]
    node: Option<String>,
    /// Scope: one component id.
    #[arg(long, value_name = "ID", conflicts_with = "region")]
    component: Option<String>,
    /// Scope: a viewport rectangle `x,y,w,h` in CSS px.
    #[arg(long, value_name = "X,Y,W,H", allow_hyphen_values = true)]
    region: Option<String>,
    /// Diff baseline revision (with `--detail diff`).
    #[arg(long, value_name = "N")]
    since_revision: Option<u64>,
    /// Wait up to T ms for a change after the baseline.
    #[arg(long, value_name = "T")]
    wait_timeout_ms: Option<u64>,
    /// Continue a truncated answer.
    #[arg(long, value_name = "C")]
    cursor: Option<String>,
}

fn inspect_request(
    a: &InspectArgs,
) -> Result<a3s_test_runner::session::page_context::inspect::InspectRequest, SessionError> {
    use a3s_test_runner::session::page_context::inspect::{
        parse_region, Detail, InspectRequest, Scope,
    };
    let detail = match a.detail.as_str() {
        "scoped" => Detail::Scoped,
        "diff" => Detail::Diff,
        "forensic" => Detail::Forensic,
        _ => Detail::Summary,
    };
    let scope = if let Some(id) = &a.node {
        Scope::Node { id: id.clone() }
    } else if let Some(id) = &a.component {
        Scope::Component { id: id.clone() }
    } else if let Some(r) = &a.region {
        parse_region(r).map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?
    } else {
        Scope::Page
    };
    let request = InspectRequest {
        detail,
        scope,
        since_revision: a.since_revision,
        wait_timeout_ms: a.wait_timeout_ms,
        cursor: a.cursor.clone(),
    };
    request
        .validate()
        .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
    Ok(request)
}

/// `exec`.
#[derive(Debug, Args)]
pub struct ExecArgs {
    /// One ACL step block.
    statement: String,
    #[command(flatten)]
    s: SessionArg,
    /// The observation the statement's refs come from (must be the latest).
    #[arg(long)]
    observation: Option<u64>,
}

/// `click`.
#[derive(Debug, Args)]
pub struct ClickArgs {
    /// A ref (`@e3`) or an ACL target.
    target: String,
    #[command(flatten)]
    s: SessionArg,
    /// The observation the ref comes from.
    #[arg(long)]
    observation: Option<u64>,
}

/// `fill`.
#[derive(Debug, Args)]
pub struct FillArgs {
    /// A ref (`@e2`) or an ACL target.
    target: String,
    /// The text.
    text: String,
    #[command(flatten)]
    s: SessionArg,
    /// The observation the ref comes from.
    #[arg(long)]
    observation: Option<u64>,
}

/// `press`.
#[derive(Debug, Args)]
pub struct PressArgs {
    /// A key or chord (`Enter`, `Control+a`).
    key: String,
    #[command(flatten)]
    s: SessionArg,
}

/// `navigate`.
#[derive(Debug, Args)]
pub struct NavigateArgs {
    /// The URL (relative to the current page).
    url: String,
    #[command(flatten)]
    s: SessionArg,
}

/// `expect-text`.
#[derive(Debug, Args)]
pub struct ExpectTextArgs {
    /// Text the page must show.
    text: String,
    #[command(flatten)]
    s: SessionArg,
}

/// A session verdict.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum StatusArg {
    /// The goal was reached.
    Passed,
    /// The goal was not reached.
    Failed,
}

/// `finish`.
#[derive(Debug, Args)]
pub struct FinishArgs {
    #[command(flatten)]
    s: SessionArg,
    /// The verdict.
    #[arg(long, value_enum)]
    status: StatusArg,
    /// What happened.
    #[arg(long, default_value = "")]
    summary: String,
}

/// `abort`.
#[derive(Debug, Args)]
pub struct AbortArgs {
    #[command(flatten)]
    s: SessionArg,
    /// Why.
    #[arg(long)]
    reason: Option<String>,
}

/// `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    s: SessionArg,
}

/// `promote`.
#[derive(Debug, Args)]
pub struct PromoteArgs {
    #[command(flatten)]
    s: SessionArg,
    /// Where to write the suite.
    #[arg(long)]
    output: PathBuf,
}

/// `supervise` (internal).
#[derive(Debug, Args)]
pub struct SuperviseArgs {
    /// The session folder.
    #[arg(long)]
    session_dir: PathBuf,
    /// The working directory for steps.
    #[arg(long)]
    workdir: PathBuf,
    /// The ownership token.
    #[arg(long)]
    token: String,
}

fn print(
    json: bool,
    result: Result<Value, SessionError>,
    human: impl FnOnce(&Value) -> String,
) -> ExitCode {
    match result {
        Ok(v) => {
            let text = if json {
                format!(
                    "{}\n",
                    serde_json::to_string_pretty(&v).expect("serializes")
                )
            } else {
                human(&v)
            };
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
            ExitCode::SUCCESS
        }
        Err(e) => {
            if json {
                let v = serde_json::json!({ "error": e });
                println!("{}", serde_json::to_string_pretty(&v).expect("serializes"));
            } else {
                eprintln!("error[{}]: {}", e.code, e.message);
                if let Some(next) = e
                    .detail
                    .as_ref()
                    .and_then(|d| d.get("next"))
                    .and_then(Value::as_str)
                {
                    eprintln!("next: {next}");
                }
            }
            ExitCode::from(exit_code(e.code))
        }
    }
}

/// 1 = refused by a gate or failed in the browser; 2 = invalid input or infrastructure.
fn exit_code(code: SessionCode) -> u8 {
    match code {
        SessionCode::InvalidInput
        | SessionCode::Supervisor
        | SessionCode::Io
        | SessionCode::UnknownSession
        | SessionCode::AlreadyExists
        | SessionCode::Cleanup => super::EXIT_INVALID_INPUT,
        SessionCode::Interrupted => crate::cli::exit::Exit::Interrupted.code(),
        _ => super::EXIT_REFUSED,
    }
}

fn next_line(v: &Value) -> String {
    v.get("next")
        .and_then(Value::as_str)
        .map(|n| format!("next: {n}\n"))
        .unwrap_or_default()
}

fn exec_human(v: &Value) -> String {
    let mut out = format!(
        "passed: {} (turn {})\n",
        v["step"].as_str().unwrap_or(""),
        v["turn"]
    );
    for r in v["resolved"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "{} → {}\n",
            r["ref"].as_str().unwrap_or(""),
            r["target"].as_str().unwrap_or("")
        ));
    }
    out + &next_line(v)
}

fn closed_human(v: &Value) -> String {
    let status = v
        .pointer("/report/status")
        .and_then(Value::as_str)
        .unwrap_or("closed");
    let mut out = format!("session closed: {status}; no owned process remains\n");
    out.push_str(&next_line(v));
    out
}

/// Run a session command.
pub fn run(ctx: &Context, command: SessionCommand) -> ExitCode {
    match command {
        SessionCommand::Start(a) => {
            let params = StartParams {
                session: a.s.session,
                url: a.url,
                allow_origins: a.allow_origin,
                allow_domains: a.allow_domain,
                goal: a.goal,
                success: a.success,
                idle_ms: a.idle_timeout_ms,
                max_actions: a.max_actions,
                deadline_ms: a.deadline_ms,
                max_evidence_bytes: a.max_evidence_bytes,
            };
            // SIGINT, SIGTERM or SIGHUP before the session is handed over tears it down (a
            // second one kills this command; the supervisor then dies with it).
            crate::cli::interrupt::install();
            let started = ops::start(ctx, params, &crate::cli::interrupt::interrupted);
            print(a.s.json, started, |v| {
                format!(
                    "session {} started on {}\n{}",
                    v["session"].as_str().unwrap_or(""),
                    v["url"].as_str().unwrap_or(""),
                    next_line(v)
                )
            })
        }
        SessionCommand::Observe(a) => {
            print(a.s.json, ops::observe(ctx, &a.s.session, a.full), |v| {
                to_text(v) + &next_line(v)
            })
        }
        SessionCommand::Inspect(a) => {
            let result = inspect_request(&a).and_then(|r| ops::inspect(ctx, &a.s.session, r));
            print(a.s.json, result, |v| {
                let mut out = to_text(v);
                if let Some(i) = v.get("inspection") {
                    out.push_str(&format!(
                        "inspection (untrusted page data): {}\n",
                        serde_json::to_string(i).unwrap_or_default()
                    ));
                }
                out + &next_line(v)
            })
        }
        SessionCommand::Exec(a) => print(
            a.s.json,
            ops::exec(ctx, &a.s.session, a.observation, &a.statement),
            exec_human,
        ),
        SessionCommand::Click(a) => print(
            a.s.json,
            ops::act(ctx, &a.s.session, a.observation, &Sugar::Click(a.target)),
            exec_human,
        ),
        SessionCommand::Fill(a) => print(
            a.s.json,
            ops::act(
                ctx,
                &a.s.session,
                a.observation,
                &Sugar::Fill(a.target, a.text),
            ),
            exec_human,
        ),
        SessionCommand::Press(a) => print(
            a.s.json,
            ops::act(ctx, &a.s.session, None, &Sugar::Press(a.key)),
            exec_human,
        ),
        SessionCommand::Navigate(a) => print(
            a.s.json,
            ops::act(ctx, &a.s.session, None, &Sugar::Navigate(a.url)),
            exec_human,
        ),
        SessionCommand::ExpectText(a) => print(
            a.s.json,
            ops::act(ctx, &a.s.session, None, &Sugar::ExpectText(a.text)),
            exec_human,
        ),
        SessionCommand::Finish(a) => {
            let status = match a.status {
                StatusArg::Passed => FinishStatus::Passed,
                StatusArg::Failed => FinishStatus::Failed,
            };
            print(
                a.s.json,
                ops::finish(ctx, &a.s.session, status, &a.summary),
                closed_human,
            )
        }
        SessionCommand::Abort(a) => print(
            a.s.json,
            ops::abort(ctx, &a.s.session, a.reason.as_deref()),
            closed_human,
        ),
        SessionCommand::Show(a) => print(a.s.json, ops::show(ctx, &a.s.session), |v| {
            format!("{}\n", serde_json::to_string_pretty(v).expect("serializes"))
        }),
        SessionCommand::List(a) => print(a.json, ops::list(ctx), |v| {
            let mut out = String::new();
            for r in v["sessions"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "{}\t{}\t{}\n",
                    r["session"].as_str().unwrap_or(""),
                    r["state"].as_str().unwrap_or(""),
                    r["url"].as_str().unwrap_or("")
                ));
            }
            out
        }),
        SessionCommand::Schema(_) => print(true, Ok(ops::schema()), |_| String::new()),
        SessionCommand::Promote(a) => {
            print(a.s.json, ops::promote(ctx, &a.s.session, &a.output), |v| {
                format!(
                    "wrote {} ({} steps)\n{}",
                    v["output"].as_str().unwrap_or(""),
                    v["steps"],
                    next_line(v)
                )
            })
        }
        SessionCommand::Supervise(a) => {
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    eprintln!("a3s-test agent supervise: failed to start a runtime: {e}");
                    return ExitCode::from(2);
                }
            };
            let code = runtime.block_on(a3s_test_runner::session::supervisor::serve(
                a.session_dir,
                a.workdir,
                a.token,
            ));
            runtime.shutdown_timeout(std::time::Duration::from_secs(2));
            ExitCode::from(code as u8)
        }
    }
}
