//! `a3s-test agent start|observe|inspect|exec|<verb>|finish|abort|show|list|schema|promote`:
//! agent sessions from the command line. Each command's arguments are the operation's
//! parameters struct in `crate::ops::session` or, for the verbs (click, hover, fill, drag,
//! expect, …), `crate::ops::verbs` (the MCP tools deserialize the same structs) plus `--json`;
//! `supervise` is the hidden process `start` leaves running.

use super::render::{next_line, observation_error_line, observation_human, print, Cli};
use crate::ops::catalog as c;
use crate::ops::observe::{self as observe_op, ObserveParams};
use crate::ops::session::{
    self as ops, AbortParams, Closed, ExecParams, Executed, FinishParams, InspectParams,
    PromoteParams, SessionParams, StartParams,
};
use crate::ops::verbs::{
    self, DragParams, ExpectParams, ExpectTextParams, NavigateParams, PasteParams, PressParams,
    ResizeParams, ScrollParams, SelectParams, TargetParams, TargetVerb, TextParams, TextVerb,
    WaitParams, WheelParams,
};
use crate::ops::Context;
use a3s_test_driver::StepDetail;
use a3s_test_runner::session::reply::{ClosedReport, SessionReport};
use a3s_test_runner::session::view::{Form, Observation};
use a3s_test_runner::session::SessionError;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The session commands.
#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    #[command(name = c::START.command(), about = c::START.about)]
    Start(Cli<StartParams>),
    #[command(name = c::OBSERVE.command(), about = c::OBSERVE.about)]
    Observe(Cli<ObserveParams>),
    #[command(name = c::INSPECT.command(), about = c::INSPECT.about)]
    Inspect(Cli<InspectParams>),
    #[command(name = c::GROUND.command(), about = c::GROUND.about)]
    Ground(Cli<crate::ops::ground::GroundParams>),
    #[command(name = c::AUDIT.command(), about = c::AUDIT.about)]
    Audit(Cli<crate::ops::audit::AuditParams>),
    #[command(name = c::EXEC.command(), about = c::EXEC.about)]
    Exec(Cli<ExecParams>),
    #[command(name = c::CLICK.command(), about = c::CLICK.about)]
    Click(Cli<TargetParams>),
    #[command(name = c::DOUBLE_CLICK.command(), about = c::DOUBLE_CLICK.about)]
    DoubleClick(Cli<TargetParams>),
    #[command(name = c::CONTEXT_CLICK.command(), about = c::CONTEXT_CLICK.about)]
    ContextClick(Cli<TargetParams>),
    #[command(name = c::HOVER.command(), about = c::HOVER.about)]
    Hover(Cli<TargetParams>),
    #[command(name = c::FOCUS.command(), about = c::FOCUS.about)]
    Focus(Cli<TargetParams>),
    #[command(name = c::CHECK.command(), about = c::CHECK.about)]
    Check(Cli<TargetParams>),
    #[command(name = c::UNCHECK.command(), about = c::UNCHECK.about)]
    Uncheck(Cli<TargetParams>),
    #[command(name = c::FILL.command(), about = c::FILL.about)]
    Fill(Cli<TextParams>),
    #[command(name = c::TYPE.command(), about = c::TYPE.about)]
    Type(Cli<TextParams>),
    #[command(name = c::PASTE.command(), about = c::PASTE.about)]
    Paste(Cli<PasteParams>),
    #[command(name = c::RESIZE.command(), about = c::RESIZE.about)]
    Resize(Cli<ResizeParams>),
    #[command(name = c::SELECT.command(), about = c::SELECT.about)]
    Select(Cli<SelectParams>),
    #[command(name = c::PRESS.command(), about = c::PRESS.about)]
    Press(Cli<PressParams>),
    #[command(name = c::NAVIGATE.command(), about = c::NAVIGATE.about)]
    Navigate(Cli<NavigateParams>),
    #[command(name = c::SCROLL.command(), about = c::SCROLL.about)]
    Scroll(Cli<ScrollParams>),
    #[command(name = c::WHEEL.command(), about = c::WHEEL.about)]
    Wheel(Cli<WheelParams>),
    #[command(name = c::DRAG.command(), about = c::DRAG.about)]
    Drag(Cli<DragParams>),
    #[command(name = c::WAIT.command(), about = c::WAIT.about)]
    Wait(Cli<WaitParams>),
    #[command(name = c::EXPECT.command(), about = c::EXPECT.about)]
    Expect(Cli<ExpectParams>),
    #[command(name = c::EXPECT_TEXT.command(), about = c::EXPECT_TEXT.about)]
    ExpectText(Cli<ExpectTextParams>),
    #[command(name = c::FINISH.command(), about = c::FINISH.about)]
    Finish(Cli<FinishParams>),
    #[command(name = c::ABORT.command(), about = c::ABORT.about)]
    Abort(Cli<AbortParams>),
    #[command(name = c::SHOW.command(), about = c::SHOW.about)]
    Show(Cli<SessionParams>),
    #[command(name = c::LIST.command(), about = c::LIST.about)]
    List(Cli<NoArgs>),
    #[command(name = c::SCHEMA.command(), about = c::SCHEMA.about)]
    Schema(Cli<NoArgs>),
    #[command(name = c::PROMOTE.command(), about = c::PROMOTE.about)]
    Promote(Cli<PromoteParams>),
    /// (internal) The session supervisor started by `agent start`.
    #[command(hide = true)]
    Supervise(SuperviseArgs),
}

/// No arguments besides `--json`.
#[derive(Debug, Args)]
pub struct NoArgs {}

/// `supervise` (internal).
#[derive(Debug, Args)]
pub struct SuperviseArgs {
    /// The session id (its folder is found under the working directory's `.a3s-test`, never
    /// through a link).
    #[arg(long)]
    session: a3s_test_ledger::SessionId,
    /// The working directory for steps (the project folder).
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
    // An `expect` or `wait` says how long it waited for its condition.
    let waited = match &v.detail {
        Some(
            StepDetail::Observed { waited_ms, .. }
            | StepDetail::Stable { waited_ms, .. }
            | StepDetail::Waited { waited_ms, .. },
        ) => format!(", waited {waited_ms} ms"),
        _ => String::new(),
    };
    let mut out = format!("passed: {} (turn {}{waited})\n", v.step, v.turn);
    for r in &v.resolved {
        out.push_str(&format!("{} → {}\n", r.reference, r.target));
    }
    // With `--observe`: the page after the step, as `observe` prints it (its own `next`).
    match (&v.observation, &v.observation_error) {
        (Some(seen), _) => out + &observation_human(seen),
        (None, Some(e)) => out + &observation_error_line(e) + &next_line(v.next.as_deref()),
        (None, None) => out + &next_line(v.next.as_deref()),
    }
}

/// How the answer of a command prints, which the byte budget of an observation it carries
/// counts.
fn form(json: bool) -> Form {
    if json {
        Form::Json
    } else {
        Form::Text
    }
}

/// An acting command's arguments with their `On` told how the answer prints (`--json` or
/// text), so the observation an action answers with (`--observe`) fits its budget as printed.
macro_rules! acting {
    ($a:expr) => {{
        let mut a = $a;
        a.params.on.form = form(a.json);
        a
    }};
}

fn target(ctx: &Context, a: Cli<TargetParams>, verb: TargetVerb) -> ExitCode {
    let a = acting!(a);
    print(a.json, verbs::on_target(ctx, verb, &a.params), exec_human)
}

fn closed_human(v: &Closed) -> String {
    let status = v.report.status();
    let mut out = format!("session closed: {status}; no owned process remains\n");
    if let ClosedReport::Supervisor(SessionReport {
        trace: Some(trace), ..
    }) = &v.report
    {
        out += &match (&trace.not_written, &trace.html) {
            (Some(why), _) => format!("trace not written: {why}\n"),
            (None, html) => format!(
                "trace: {} ({} steps{}){}\n",
                trace.path.display(),
                trace.steps,
                if trace.captured {
                    ""
                } else {
                    ", no pages: started without --trace"
                },
                html.as_ref()
                    .map(|h| format!("; open {}", h.display()))
                    .unwrap_or_default()
            ),
        };
    }
    out + &next_line(v.next.as_deref())
}

fn view_human(v: &Observation) -> String {
    observation_human(v)
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
        C::Observe(a) => {
            let form = if a.json { Form::Json } else { Form::Text };
            print(
                a.json,
                observe_op::observe(ctx, &a.params, form),
                view_human,
            )
        }
        C::Inspect(a) => print(a.json, ops::inspect(ctx, &a.params), view_human),
        C::Ground(a) => print(
            a.json,
            crate::ops::ground::ground(ctx, &a.params),
            super::ground::human,
        ),
        C::Audit(a) => print(
            a.json,
            crate::ops::audit::audit(ctx, &a.params),
            super::audit::human,
        ),
        C::Exec(a) => {
            let a = acting!(a);
            print(a.json, ops::exec(ctx, &a.params), exec_human)
        }
        C::Click(a) => target(ctx, a, TargetVerb::Click),
        C::DoubleClick(a) => target(ctx, a, TargetVerb::DoubleClick),
        C::ContextClick(a) => target(ctx, a, TargetVerb::ContextClick),
        C::Hover(a) => target(ctx, a, TargetVerb::Hover),
        C::Focus(a) => target(ctx, a, TargetVerb::Focus),
        C::Check(a) => target(ctx, a, TargetVerb::Check),
        C::Uncheck(a) => target(ctx, a, TargetVerb::Uncheck),
        C::Fill(a) => {
            let a = acting!(a);
            print(
                a.json,
                verbs::text(ctx, TextVerb::Fill, &a.params),
                exec_human,
            )
        }
        C::Type(a) => {
            let a = acting!(a);
            print(
                a.json,
                verbs::text(ctx, TextVerb::Type, &a.params),
                exec_human,
            )
        }
        C::Paste(a) => {
            let a = acting!(a);
            print(a.json, verbs::paste(ctx, &a.params), exec_human)
        }
        C::Resize(a) => {
            let a = acting!(a);
            print(a.json, verbs::resize(ctx, &a.params), exec_human)
        }
        C::Select(a) => {
            let a = acting!(a);
            print(a.json, verbs::select(ctx, &a.params), exec_human)
        }
        C::Press(a) => {
            let a = acting!(a);
            print(a.json, verbs::press(ctx, &a.params), exec_human)
        }
        C::Navigate(a) => {
            let a = acting!(a);
            print(a.json, verbs::navigate(ctx, &a.params), exec_human)
        }
        C::Scroll(a) => {
            let a = acting!(a);
            print(a.json, verbs::scroll(ctx, &a.params), exec_human)
        }
        C::Wheel(a) => {
            let a = acting!(a);
            print(a.json, verbs::wheel(ctx, &a.params), exec_human)
        }
        C::Drag(a) => {
            let a = acting!(a);
            print(a.json, verbs::drag(ctx, &a.params), exec_human)
        }
        C::Wait(a) => {
            let a = acting!(a);
            print(a.json, verbs::wait(ctx, &a.params), exec_human)
        }
        C::Expect(a) => {
            let a = acting!(a);
            print(a.json, verbs::expect(ctx, &a.params), exec_human)
        }
        C::ExpectText(a) => {
            let a = acting!(a);
            print(a.json, verbs::expect_text(ctx, &a.params), exec_human)
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
            let env = if v.env.is_empty() {
                String::new()
            } else {
                format!(
                    "values typed into private fields were not kept: set {} where it runs\n",
                    v.env.join(", ")
                )
            };
            let trace = v
                .trace
                .as_ref()
                .map(|t| format!("evidence: the session's trace, {}\n", t.display()))
                .unwrap_or_default();
            format!(
                "wrote {} ({} steps)\n{env}{trace}{}",
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
            let code = runtime.block_on(supervise(a));
            runtime.shutdown_timeout(std::time::Duration::from_secs(2));
            ExitCode::from(code)
        }
    }
}

/// The supervisor of the session `a` names, with the driver its record asks for: the desktop
/// driver for a desktop session, the terminal driver on the recorded program for a terminal
/// session, else the browser. The one place the
/// session's concrete driver is chosen.
async fn supervise(a: SuperviseArgs) -> crate::cli::exit::Exit {
    use a3s_test_runner::session::{file, supervisor};
    let record = file::open_session_dir(&a.workdir, &a.session)
        .and_then(|dir| file::SessionFile::load(&dir))
        .ok();
    let desktop = record.as_ref().and_then(|f| f.desktop.clone());
    let terminal = record.and_then(|f| f.terminal);
    if let Some(program) = desktop {
        let launcher = crate::cli::gui_launcher::GuiLauncher::session(&program);
        return supervisor::serve_desktop(launcher, a.session, a.workdir, a.token).await;
    }
    match terminal {
        Some(program) => {
            let launcher = crate::cli::surfaces::TuiLauncher::session(&program);
            supervisor::serve_terminal(launcher, a.session, a.workdir, a.token).await
        }
        None => {
            let launcher = crate::cli::web_launcher::SessionLauncher { headed: a.headed };
            supervisor::serve(launcher, a.session, a.workdir, a.token).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::session::{ClosedReport, ForcedReport};
    use a3s_test_runner::session::file::SessionState;

    #[test]
    fn a_forced_close_says_the_state_it_recorded() {
        let closed = Closed {
            report: ClosedReport::Forced(ForcedReport {
                cause: None,
                forced: true,
                session: "s".parse().unwrap(),
                state: SessionState::Aborted,
            }),
            next: None,
            cleanup_verified: true,
            survivors: Vec::new(),
            blocked_requests: Vec::new(),
        };
        assert!(
            closed_human(&closed).starts_with("session closed: aborted;"),
            "{}",
            closed_human(&closed)
        );
    }
}
