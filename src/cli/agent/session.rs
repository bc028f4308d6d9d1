//! `a3s-test agent start|observe|inspect|exec|click|fill|press|navigate|expect-text|finish|abort|
//! show|list|schema|promote`: agent sessions from the command line. Each command's arguments are
//! the operation's parameters struct in `crate::ops::session` (the MCP tools deserialize the
//! same structs) plus `--json`; `supervise` is the hidden process `start` leaves running.

use super::render::{next_line, print, Cli};
use crate::ops::session::{
    self as ops, AbortParams, ActParams, Action, Closed, ExecParams, Executed, FinishParams,
    InspectParams, ObserveParams, PromoteParams, SessionParams, StartParams,
};
use crate::ops::Context;
use a3s_test_runner::session::observation::to_text;
use a3s_test_runner::session::SessionError;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The session commands.
#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Start a session: a browser on URL that outlives this command, owned by a supervisor.
    Start(Cli<StartParams>),
    /// Observe the page: observation N with refs @e1… (page text is untrusted data).
    Observe(Cli<ObserveParams>),
    /// Inspect the Test Kit Page Context (a new observation with fresh refs plus the answer).
    Inspect(Cli<InspectParams>),
    /// Admit and run one ACL statement (refs must come from the latest observation).
    Exec(Cli<ExecParams>),
    /// Sugar: `click { target = … }`.
    Click(Cli<TargetArgs>),
    /// Sugar: `fill { target = …  value = … }`.
    Fill(Cli<FillArgs>),
    /// Sugar: `press { key = … }`.
    Press(Cli<SugarArgs>),
    /// Sugar: `navigate { url = … }` (inside the session's origins only).
    Navigate(Cli<SugarArgs>),
    /// Sugar: `expect { text = … }`.
    #[command(name = "expect-text")]
    ExpectText(Cli<SugarArgs>),
    /// Close the session with a verdict, write report.json and verify no owned process remains.
    Finish(Cli<FinishParams>),
    /// Close the session without a verdict (kills an unresponsive supervisor it owns).
    Abort(Cli<AbortParams>),
    /// Show a session's record and report.
    Show(Cli<SessionParams>),
    /// List sessions.
    List(Cli<NoArgs>),
    /// JSON Schema of the statement and typed action forms.
    Schema(Cli<NoArgs>),
    /// Turn the session's successful steps into a suite with durable targets.
    Promote(Cli<PromoteParams>),
    /// (internal) The session supervisor started by `agent start`.
    #[command(hide = true)]
    Supervise(SuperviseArgs),
}

/// No arguments besides `--json`.
#[derive(Debug, Args)]
pub struct NoArgs {}

/// `click`: the CLI spelling of `{"action": "click"}`.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// A ref (`@e3`) or an ACL target.
    target: String,
    /// The session id.
    #[arg(long)]
    session: String,
    /// The observation the ref comes from.
    #[arg(long)]
    observation: Option<u64>,
}

/// `fill`: the CLI spelling of `{"action": "fill"}`.
#[derive(Debug, Args)]
pub struct FillArgs {
    #[command(flatten)]
    on: TargetArgs,
    /// The text.
    text: String,
}

/// `press KEY`, `navigate URL`, `expect-text TEXT`: one positional value.
#[derive(Debug, Args)]
pub struct SugarArgs {
    /// The key or chord (`Enter`, `Control+a`), the URL (relative to the current page), or the
    /// text the page must show.
    value: String,
    /// The session id.
    #[arg(long)]
    session: String,
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
    /// Show the browser window.
    #[arg(long)]
    headed: bool,
}

fn exec_human(v: &Executed) -> String {
    let mut out = format!("passed: {} (turn {})\n", v.step, v.turn);
    for r in &v.resolved {
        out.push_str(&format!("{} → {}\n", r.reference, r.target));
    }
    out + &next_line(v.next.as_deref())
}

fn closed_human(v: &Closed) -> String {
    let status = v
        .report
        .get("status")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("closed");
    format!("session closed: {status}; no owned process remains\n") + &next_line(v.next.as_deref())
}

fn view_human(v: &serde_json::Value) -> String {
    let mut out = to_text(v);
    if let Some(i) = v.get("inspection") {
        out.push_str(&format!(
            "inspection (untrusted page data): {}\n",
            serde_json::to_string(i).unwrap_or_default()
        ));
    }
    out + &next_line(v.get("next").and_then(serde_json::Value::as_str))
}

fn act(
    ctx: &Context,
    json: bool,
    session: String,
    observation: Option<u64>,
    action: Action,
) -> ExitCode {
    let params = ActParams {
        session,
        action,
        observation,
    };
    print(json, ops::act(ctx, params), exec_human)
}

/// Run a session command.
pub fn run(ctx: &Context, command: SessionCommand) -> ExitCode {
    use SessionCommand as C;
    match command {
        C::Start(a) => {
            // SIGINT, SIGTERM or SIGHUP before the session is handed over tears it down (a
            // second one kills this command; the supervisor then dies with it).
            crate::cli::interrupt::install();
            let started = ops::start(ctx, a.params, &crate::cli::interrupt::interrupted);
            print(a.json, started, |v| {
                format!(
                    "session {} started on {}\n{}",
                    v.session,
                    v.url,
                    next_line(Some(&v.next))
                )
            })
        }
        C::Observe(a) => print(a.json, ops::observe(ctx, &a.params), view_human),
        C::Inspect(a) => print(a.json, ops::inspect(ctx, &a.params), view_human),
        C::Exec(a) => print(a.json, ops::exec(ctx, &a.params), exec_human),
        C::Click(a) => {
            let p = a.params;
            act(
                ctx,
                a.json,
                p.session,
                p.observation,
                Action::Click { target: p.target },
            )
        }
        C::Fill(a) => {
            let p = a.params;
            let action = Action::Fill {
                target: p.on.target,
                text: p.text,
            };
            act(ctx, a.json, p.on.session, p.on.observation, action)
        }
        C::Press(a) => {
            let p = a.params;
            act(ctx, a.json, p.session, None, Action::Press { key: p.value })
        }
        C::Navigate(a) => {
            let p = a.params;
            act(
                ctx,
                a.json,
                p.session,
                None,
                Action::Navigate { url: p.value },
            )
        }
        C::ExpectText(a) => {
            let p = a.params;
            act(
                ctx,
                a.json,
                p.session,
                None,
                Action::ExpectText { text: p.value },
            )
        }
        C::Finish(a) => print(a.json, ops::finish(ctx, &a.params), closed_human),
        C::Abort(a) => print(a.json, ops::abort(ctx, &a.params), closed_human),
        C::Show(a) => print(a.json, ops::show(ctx, &a.params), |v| {
            format!("{}\n", serde_json::to_string_pretty(v).expect("serializes"))
        }),
        C::List(a) => print(a.json, ops::list(ctx), |v| {
            let mut out = String::new();
            for r in &v.sessions {
                let state = serde_json::to_value(r.state).unwrap_or_default();
                out.push_str(&format!(
                    "{}\t{}\t{}\n",
                    r.session,
                    state.as_str().unwrap_or(""),
                    r.url
                ));
            }
            out
        }),
        C::Schema(_) => print::<_, SessionError>(true, Ok(ops::schema()), |_| String::new()),
        C::Promote(a) => print(a.json, ops::promote(ctx, &a.params), |v| {
            format!(
                "wrote {} ({} steps)\n{}",
                v.output.display(),
                v.steps,
                next_line(Some(&v.next))
            )
        }),
        C::Supervise(a) => {
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    eprintln!("a3s-test agent supervise: failed to start a runtime: {e}");
                    return ExitCode::from(crate::cli::exit::Exit::InvalidInput);
                }
            };
            let code = runtime.block_on(a3s_test_runner::session::supervisor::serve(
                crate::cli::web_launcher::SessionLauncher { headed: a.headed },
                a.session_dir,
                a.workdir,
                a.token,
            ));
            runtime.shutdown_timeout(std::time::Duration::from_secs(2));
            ExitCode::from(code as u8)
        }
    }
}
