//! `a3s-test dev`: the review → repair loop on a developer's machine. It starts the project's
//! `dev_server` (or attaches to one already answering its URL, which it then never stops), opens
//! the channel the dev server's plugin posts findings to, opens an agent session on the app, and
//! then, until stopped:
//! - drains the page's repair queue into the session's ledger each time the page announces a
//!   change (the session's `repair_wait`, answered through `subscribeRepairs`), with each new
//!   finding's before baseline;
//! - records the baseline of findings the plugin posted over the channel;
//! - mirrors the ledger's status changes into the page (`applyRepairEvent`), so the overlay shows
//!   what the agent and A3S Test did.
//!
//! Ctrl+C, SIGTERM and SIGHUP stop what it started, in order: the session (its browser), then
//! the dev server (its whole group), and nothing else. A second signal kills its process tree at
//! once. Every moment is one [`DevEvent`] line (`--json` for machine-readable lines).

mod channel;
mod render;
mod watch;

use super::exit::Exit;
use crate::ops::dev::{
    next_commands, DevEvent, DevParams, FindingSource, ServerOrigin, StatusChange, CHANNEL_ENV,
};
use crate::ops::repair_drain::{self, DrainParams};
use crate::ops::session::{abort, turn, AbortParams};
use crate::ops::Context;
use a3s_test_driver::tls::CertificateCheck;
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::{ContextSettings, StatePath};
use a3s_test_ledger::{Event, FindingId, Ledger, SessionId};
use a3s_test_runner::cancel::CancelToken;
use a3s_test_runner::devserver::{self, DevServer};
use a3s_test_runner::session::file::{Budgets, SessionFile};
use a3s_test_runner::session::page_context::repair_watch::PageRepairEvent;
use a3s_test_runner::session::protocol::RepairApply;
use a3s_test_runner::session::spawn::{self, StartRequest};
use a3s_test_runner::session::{policy, SessionError};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc::{channel as wake_channel, Sender};
use std::sync::Mutex;
use std::time::Duration;

/// The owned dev server's log, beside `channel.json`.
const DEV_SERVER_LOG: &str = "dev-server.log";
/// A dev session lives as long as the command: its lifetime bound is only a backstop.
const DEV_SESSION_MS: u64 = 7 * 24 * 60 * 60 * 1000;
/// The session's idle bound, a backstop only: the page watcher's waits are turns, so it never
/// idles while this command runs, and its supervisor dies with this command however it ends.
const DEV_IDLE_MS: u64 = 2 * 60 * 1000;

/// What wakes the main loop.
pub enum Wake {
    /// The page announced a change of its repair queue.
    Changed,
    /// A wait ended without a change: time to mirror statuses.
    Tick,
    /// The plugin posted findings over the channel.
    Intake,
    /// A stop signal arrived.
    Stop,
    /// The session ended on its own (browser gone, supervisor gone).
    SessionEnded(String),
    /// Something to tell the user while the loop goes on.
    Warning(String),
}

/// Prints events as human lines or JSON lines.
struct Out {
    json: bool,
}

impl Out {
    fn emit(&self, event: &DevEvent) {
        use std::io::Write;
        let line = if self.json {
            serde_json::to_string(event).expect("events serialize")
        } else {
            render::line(event)
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    }
}

/// A configuration or infrastructure failure (no project, a dev server that never answered, a
/// browser that did not start): exit 2, like `run`.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(Exit::InvalidInput)
}

/// Run `a3s-test dev` until it is stopped.
pub fn run(p: DevParams) -> ExitCode {
    let session_id = p.session.clone();
    let project = match super::run::load_project(Some(&p.project)) {
        Ok(Some(project)) => project,
        Ok(None) => return fail(format_args!("no project at {}", p.project.display())),
        Err(code) => return code,
    };
    let Some(server) = project.dev_server else {
        return fail(format_args!(
            "{} has no dev_server block; a3s-test dev needs one",
            p.project.display()
        ));
    };
    let ctx = Context::new(None);
    let out = Out { json: p.json };
    let (tx, rx) = wake_channel::<Wake>();
    let cancel = CancelToken::new();
    if let Err(e) = install_signals(tx.clone(), cancel.clone()) {
        eprintln!("warning: failed to install the Ctrl+C handler: {e}");
    }
    let ledger = Ledger::open(&ctx.root, &session_id, ctx.clock.clone());
    let channel_folder = ConfinedPath::new(&ctx.root, Path::new(".a3s-test/dev").join(&p.session));
    let intake_tx = Mutex::new(tx.clone());
    let on_intake = Box::new(move || {
        if let Ok(tx) = intake_tx.lock() {
            let _ = tx.send(Wake::Intake);
        }
    });
    let channel = match channel::Channel::open(
        ledger,
        &channel_folder,
        ConfinedPath::new(&ctx.root, super::run::DEFAULT_OUTPUT_DIR),
        on_intake,
    ) {
        Ok(c) => c,
        // A link on the way to `.a3s-test/dev/<session>/`: the session's own refusal code.
        Err(channel::ChannelError::File(e)) if e.is_refusal() => {
            let e = SessionError::fs(&e);
            eprintln!(
                "error[{}]: failed to open the dev channel: {}",
                e.code, e.message
            );
            return ExitCode::from(Exit::InvalidInput);
        }
        Err(e) => return fail(format_args!("failed to open the dev channel: {e}")),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail(format_args!("failed to start a runtime: {e}")),
    };
    // The dev server: attached when something already answers (unless reuse is off: in CI, or
    // `reuse_existing = false`), else started (and owned).
    let certificates = CertificateCheck::ignoring_if(server.ignore_https_errors);
    let answering = match devserver::parse_server_url(&server.url) {
        Some(u) => match runtime.block_on(devserver::answered(&u, certificates)) {
            Ok(answering) => answering,
            // A certificate the probe refuses: a server started beside it would be refused too.
            Err(e) => return fail(e),
        },
        None => false,
    };
    if answering && !server.reuses(crate::cli::in_ci()) {
        return fail(format_args!(
            "{} already answers and reuse is off (`CI` is set or `reuse_existing = false`): stop \
             whatever listens there, or set `reuse_existing = true` in `dev_server`",
            server.url
        ));
    }
    let mut owned: Option<DevServer> = None;
    if !answering {
        let log = (&channel.dir, DEV_SERVER_LOG);
        let started = runtime.block_on(DevServer::start_with_env(
            &server.command,
            &[(CHANNEL_ENV, channel.file.as_os_str())],
            &server.url,
            certificates,
            Duration::from_millis(server.startup_timeout_ms),
            log,
            cancel.cancelled(),
        ));
        match started {
            Ok(s) => owned = Some(s),
            Err(_) if cancel.is_cancelled() => return stopped_early(&out),
            Err(e) => return fail(e),
        }
    }
    let headed = p.headed || has_display();
    settle_stale(&ctx, &p.session);
    let prepared = (project.context.clone(), project.storage_state.clone());
    let file = match start_session(&ctx, &p.session, &server.url, headed, prepared, &cancel) {
        Ok(file) => file,
        Err(_) if cancel.is_cancelled() => {
            stop_server(&runtime, owned.as_mut());
            return stopped_early(&out);
        }
        Err(e) => {
            eprintln!("error: {}: {}", e.code, e.message);
            stop_server(&runtime, owned.as_mut());
            return ExitCode::from(Exit::InvalidInput);
        }
    };
    out.emit(&DevEvent::Ready {
        url: server.url.clone(),
        session: p.session.to_string(),
        server: if owned.is_some() {
            ServerOrigin::Started
        } else {
            ServerOrigin::Attached
        },
        server_pids: owned.as_ref().map(DevServer::members).unwrap_or_default(),
        supervisor_pid: Some(file.ownership.supervisor_pid).filter(|p| *p > 0),
        browser_pid: Some(file.ownership.browser_pid).filter(|p| *p > 0),
        channel: channel.url.clone(),
        channel_file: channel.file.clone(),
        headed,
        next: next_commands(&p.session),
    });
    {
        let (root, session, tx) = (ctx.root.clone(), p.session.to_string(), tx.clone());
        let spawned = std::thread::Builder::new()
            .name("a3s-test-dev-watch".into())
            .spawn(move || watch::run(root, session, tx));
        if let Err(e) = spawned {
            eprintln!("error: failed to start the page watcher: {e}");
        }
    }
    drop(tx);
    let mut state = Loop::new(&ctx, &p.session);
    let reason = loop {
        let Ok(wake) = rx.recv() else {
            break "failed".to_string();
        };
        match wake {
            Wake::Stop => break "signal".to_string(),
            Wake::SessionEnded(message) => {
                out.emit(&DevEvent::Warning { message });
                break "session_closed".to_string();
            }
            Wake::Warning(message) => out.emit(&DevEvent::Warning { message }),
            Wake::Changed => {
                state.drain(&out);
                state.push_statuses(&out);
            }
            Wake::Intake => {
                state.baselines(&out);
                state.push_statuses(&out);
            }
            Wake::Tick => state.push_statuses(&out),
        }
    };
    out.emit(&DevEvent::Stopping {
        reason: reason.clone(),
    });
    let aborted = abort(
        &ctx,
        &AbortParams {
            session: p.session.clone(),
            reason: Some("a3s-test dev stopped".into()),
        },
    );
    if let Err(e) = &aborted {
        if reason != "session_closed" {
            eprintln!("warning: {}: {}", e.code, e.message);
        }
    }
    let left_running = owned.is_none();
    stop_server(&runtime, owned.as_mut());
    drop(channel);
    out.emit(&DevEvent::Stopped {
        server_left_running: left_running,
    });
    runtime.shutdown_timeout(Duration::from_secs(2));
    if reason == "signal" {
        ExitCode::from(Exit::Success)
    } else {
        ExitCode::from(Exit::InvalidInput)
    }
}

/// A stop signal before the command was ready: what it had started is already stopped (the
/// dev server by the caller, a half-started session by its start guard). Stopping is how this
/// command ends, in any phase: exit 0, as after ready.
fn stopped_early(out: &Out) -> ExitCode {
    out.emit(&DevEvent::Stopping {
        reason: "signal".into(),
    });
    out.emit(&DevEvent::Stopped {
        server_left_running: false,
    });
    ExitCode::from(Exit::Success)
}

/// A record of `session` left open by an `a3s-test dev` that was killed (`kill -9`: its
/// supervisor died with it, by the parent-death signal, before it could close the record) is
/// closed first, so running the command again reopens the session instead of being refused with
/// `test.session.exists`. The supervisor is proven gone by pid *and* start time; a live one (a
/// second `a3s-test dev`, an `agent start` with this id) is left alone for the start to refuse.
fn settle_stale(ctx: &Context, session: &SessionId) {
    let Ok(dir) = a3s_test_runner::session::file::open_session_dir(&ctx.root, session) else {
        return;
    };
    let Ok(file) = SessionFile::load(&dir) else {
        return;
    };
    let o = &file.ownership;
    let alive = a3s_test_driver::process::is_alive(o.supervisor_pid, o.supervisor_start);
    if file.state.is_closed() || alive {
        return;
    }
    let settled = abort(
        ctx,
        &AbortParams {
            session: session.clone(),
            reason: Some("its a3s-test dev was killed".into()),
        },
    );
    if let Err(e) = settled {
        eprintln!("warning: {}: {}", e.code, e.message);
    }
}

/// Stop signals cancel `cancel` (what is starting stops) and wake the main loop; a second one
/// kills this process's tree at once.
fn install_signals(tx: Sender<Wake>, cancel: CancelToken) -> std::io::Result<()> {
    let tx = Mutex::new(tx);
    a3s_test_driver::process::on_stop_signals(move |received| {
        if received == 1 {
            cancel.cancel();
            if let Ok(tx) = tx.lock() {
                let _ = tx.send(Wake::Stop);
            }
        } else {
            let killed = a3s_test_runner::process_tree::kill_descendants();
            eprintln!(
                "a3s-test dev: interrupted twice; killed {} owned process(es)",
                killed.len()
            );
            std::process::exit(Exit::Interrupted.code().into());
        }
    })
}

/// A display the browser can open a window on.
fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

fn stop_server(runtime: &tokio::runtime::Runtime, server: Option<&mut DevServer>) {
    if let Some(server) = server {
        runtime.block_on(server.stop());
    }
}

/// Open the agent session on `url` (interrupted by a stop signal), its context prepared with the
/// project's context options and storage state.
fn start_session(
    ctx: &Context,
    session: &SessionId,
    url: &str,
    headed: bool,
    (context, storage_state): (ContextSettings, Option<StatePath>),
    cancel: &CancelToken,
) -> Result<SessionFile, SessionError> {
    let exe = std::env::current_exe().map_err(|e| {
        SessionError::new(
            a3s_test_runner::session::SessionCode::Supervisor,
            format!("failed to find this binary: {e}"),
        )
    })?;
    let policy = policy::build(url, &[], &[])?;
    let budgets = Budgets {
        session_ms: DEV_SESSION_MS,
        idle_ms: DEV_IDLE_MS,
        max_actions: 10_000,
        ..Budgets::default()
    };
    let interrupted = || cancel.is_cancelled();
    spawn::start(
        &exe,
        &ctx.root,
        StartRequest {
            id: session.clone(),
            url: url.to_string(),
            policy,
            goal: None,
            success: Vec::new(),
            budgets,
            headed,
            reopen: true,
            // The session lives as long as this command: `kill -9` of it takes the supervisor
            // and the browser along (the dev server goes by its own watchdog).
            tied: true,
            terminal: None,
            desktop: None,
            context,
            storage_state,
            trace: false,
        },
        &interrupted,
    )
}

/// What the main loop keeps between wakes.
struct Loop<'a> {
    ctx: &'a Context,
    session: SessionId,
    ledger: Ledger,
    /// Ledger events up to this sequence were mirrored into the page.
    pushed: u64,
    /// Findings whose baseline was already asked for.
    based: HashSet<FindingId>,
}

impl<'a> Loop<'a> {
    fn new(ctx: &'a Context, session: &SessionId) -> Self {
        let ledger = Ledger::open(&ctx.root, session, ctx.clock.clone());
        Loop {
            ctx,
            session: session.clone(),
            ledger,
            pushed: 0,
            based: HashSet::new(),
        }
    }

    /// Drain the page queue (with baselines) and report each finding.
    fn drain(&mut self, out: &Out) {
        let params = DrainParams {
            session: self.session.clone(),
        };
        match repair_drain::drain(self.ctx, &params) {
            Ok(report) => {
                let state = self.ledger.read().ok();
                let status =
                    |id: &FindingId| state.as_ref().and_then(|s| s.finding(id).map(|f| f.status));
                let sent_by = |id: &FindingId| state.as_ref().and_then(|s| sender(s, id));
                for id in &report.accepted {
                    self.based.insert(id.clone());
                    let baseline = report
                        .baselines
                        .iter()
                        .any(|b| b.finding_id == *id && b.recorded);
                    out.emit(&DevEvent::Finding {
                        finding_id: id.clone(),
                        source: FindingSource::Page,
                        status: status(id),
                        baseline,
                        sent_by: sent_by(id),
                    });
                }
                // A finding the plugin posted over the channel whose baseline this drain took
                // (the drain records one for every finding that entered while the session runs):
                // reported here, once, as the channel's.
                let late = report
                    .baselines
                    .iter()
                    .filter(|b| !report.accepted.contains(&b.finding_id));
                for note in late {
                    if self.based.insert(note.finding_id.clone()) {
                        self.channel_finding(note, out);
                    }
                }
                for held in &report.held {
                    self.based.insert(held.finding_id.clone());
                    out.emit(&DevEvent::Finding {
                        finding_id: held.finding_id.clone(),
                        source: FindingSource::Page,
                        status: status(&held.finding_id),
                        baseline: false,
                        sent_by: sent_by(&held.finding_id),
                    });
                }
                for refused in &report.refused {
                    out.emit(&DevEvent::Refused {
                        finding_id: refused.finding_id.clone(),
                        code: refused.error.code.as_str().to_string(),
                    });
                }
                for a in &report.actions {
                    let text = |k: &str| {
                        let v = a.get(k).and_then(Value::as_str).unwrap_or("");
                        v.chars().take(80).collect::<String>()
                    };
                    out.emit(&DevEvent::Action {
                        finding_id: text("findingId"),
                        request_id: text("requestId"),
                        outcome: text("outcome"),
                        status: a
                            .pointer("/result/to")
                            .and_then(|v| serde_json::from_value(v.clone()).ok()),
                        code: a
                            .pointer("/error/code")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                    });
                }
                for note in report.baselines.iter().filter(|b| !b.recorded) {
                    out.emit(&DevEvent::Warning {
                        message: format!(
                            "no before baseline for {}: {}",
                            note.finding_id.as_str(),
                            note.error.as_deref().unwrap_or("unknown")
                        ),
                    });
                }
            }
            Err(e) => out.emit(&DevEvent::Warning {
                message: format!("drain failed: {e}"),
            }),
        }
    }

    /// Record the before baseline of findings the plugin posted over the channel (the drain's
    /// rule, `repair_drain::late_baselines`), each asked for once.
    fn baselines(&mut self, out: &Out) {
        let based = &self.based;
        let notes =
            match repair_drain::late_baselines(self.ctx, &self.session, &self.ledger, |id| {
                based.contains(id)
            }) {
                Ok(notes) => notes,
                Err(e) => {
                    out.emit(&DevEvent::Warning {
                        message: format!("no before baseline: {e}"),
                    });
                    return;
                }
            };
        for note in &notes {
            self.based.insert(note.finding_id.clone());
            if let Some(error) = &note.error {
                out.emit(&DevEvent::Warning {
                    message: format!(
                        "no before baseline for {}: {error}",
                        note.finding_id.as_str()
                    ),
                });
            }
            self.channel_finding(note, out);
        }
    }

    /// Report a finding the plugin posted over the channel, with its baseline note.
    fn channel_finding(&self, note: &repair_drain::BaselineNote, out: &Out) {
        let state = self.ledger.read().ok();
        let status = state
            .as_ref()
            .and_then(|s| s.finding(&note.finding_id).map(|f| f.status));
        out.emit(&DevEvent::Finding {
            finding_id: note.finding_id.clone(),
            source: FindingSource::Channel,
            status,
            baseline: note.recorded,
            sent_by: state.as_ref().and_then(|s| sender(s, &note.finding_id)),
        });
    }

    /// Mirror ledger status changes since the last push into the page.
    fn push_statuses(&mut self, out: &Out) {
        let Ok(state) = self.ledger.read() else {
            return;
        };
        let changed: Vec<&Event> = state
            .events
            .iter()
            .filter(|e| e.seq > self.pushed && e.from != Some(e.to))
            .collect();
        let events: Vec<PageRepairEvent> =
            changed.iter().map(|e| PageRepairEvent::from(*e)).collect();
        let Some(last) = state.events.last().map(|e| e.seq) else {
            return;
        };
        if events.is_empty() {
            self.pushed = last;
            return;
        }
        let mut applied = 0;
        for chunk in events.chunks(a3s_test_runner::session::page_context::repair_watch::MAX_EVENTS)
        {
            let request = RepairApply {
                events: chunk.to_vec(),
            };
            match turn(self.ctx, &self.session, request) {
                Ok(n) => applied += u64::from(n),
                Err(e) => {
                    out.emit(&DevEvent::Warning {
                        message: format!("status push failed: {}", e.message),
                    });
                    return;
                }
            }
        }
        self.pushed = last;
        // Events of findings this page never had are skipped by the page; only say what it showed.
        if applied > 0 {
            out.emit(&DevEvent::Statuses {
                sent: events.len(),
                applied,
                changes: changed
                    .iter()
                    .map(|e| StatusChange {
                        finding_id: e.finding_id.clone(),
                        status: e.to,
                    })
                    .collect(),
            });
        }
    }
}

/// Who sent finding `id` (its intake event's actor).
fn sender(state: &a3s_test_ledger::LedgerState, id: &FindingId) -> Option<a3s_test_ledger::Actor> {
    let f = state.finding(id)?;
    state.events.get(f.intake).map(|e| e.actor)
}
