//! `a3s-test dev`: the parameters and the typed events of the local review → repair loop. The
//! command (`cli/dev.rs`) prints each event as one human line, or as one JSON line with
//! `--json`, so scripts and tests read the same facts a person sees.
//!
//! Why events rather than one result: the command runs until it is stopped; what matters is
//! each moment (ready, a finding arrived, a status went back to the page, stopped).

use a3s_test_ledger::SessionId;
use a3s_test_ledger::{Actor, FindingId, RepairStatus};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The protocol name written into `channel.json` (the Vite plugin checks it).
pub const CHANNEL_PROTOCOL: &str = "a3s.test.dev-channel/1";
/// The environment variable that hands the channel file to the dev server it starts.
pub const CHANNEL_ENV: &str = "A3S_TEST_DEV_CHANNEL";

/// `a3s-test dev`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct DevParams {
    /// The project configuration with the `dev_server` block.
    #[arg(long, default_value = ".a3s-test/project.acl", value_name = "FILE")]
    pub project: PathBuf,
    /// The agent session (and ledger) the findings go to.
    #[arg(long, default_value = "dev")]
    pub session: SessionId,
    /// Show the browser window even without a detected display.
    #[arg(long)]
    pub headed: bool,
    /// Print one JSON event per line instead of human lines.
    #[arg(long)]
    #[serde(default)]
    pub json: bool,
}

/// How the dev server came to be: started (and so stopped) by this command, or found already
/// answering (and so left alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerOrigin {
    /// Started by `a3s-test dev`; stopped when it stops.
    Started,
    /// Already serving the configured URL; never stopped by `a3s-test dev`.
    Attached,
}

/// Where a finding came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingSource {
    /// Drained from the page's queue after the page announced it.
    Page,
    /// Posted by the dev server's plugin over the channel.
    Channel,
}

/// One moment of `a3s-test dev`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DevEvent {
    /// Everything runs: the app, the browser on it, the channel; what an agent runs next.
    Ready {
        /// The app's URL.
        url: String,
        /// The session id.
        session: String,
        /// Started or attached.
        server: ServerOrigin,
        /// The dev server's live processes (empty when attached).
        server_pids: Vec<u32>,
        /// The session's supervisor.
        supervisor_pid: Option<u32>,
        /// The session's browser.
        browser_pid: Option<u32>,
        /// The channel's URL (`http://127.0.0.1:<port>/repairs`).
        channel: String,
        /// The channel file handed to the dev server.
        channel_file: PathBuf,
        /// The browser shows a window.
        headed: bool,
        /// Commands for a coding agent.
        next: Vec<String>,
    },
    /// A finding entered the ledger.
    Finding {
        /// Its id.
        finding_id: FindingId,
        /// How it arrived.
        source: FindingSource,
        /// Its status in the ledger now.
        status: Option<RepairStatus>,
        /// Its before baseline was recorded.
        baseline: bool,
        /// Who sent it, as the ledger recorded it (`page_script`: page code queued it, no
        /// person's gesture in the Review Overlay did).
        sent_by: Option<Actor>,
    },
    /// A reviewer's action queued in the page was drained: the ledger's answer.
    Action {
        /// The finding it acts on (as the page sent it; untrusted, clipped).
        finding_id: String,
        /// The action's request id (as the page sent it; untrusted, clipped).
        request_id: String,
        /// `applied`, `duplicate`, `refused` or `retry` (still queued in the page).
        outcome: String,
        /// The finding's status after it, when applied or a duplicate.
        status: Option<RepairStatus>,
        /// Why it was refused or must be retried.
        code: Option<String>,
    },
    /// A finding from the page the ledger refused (it stays in the page queue).
    Refused {
        /// The id as the page sent it (clipped, untrusted).
        finding_id: String,
        /// The ledger's code.
        code: String,
    },
    /// Ledger status changes were mirrored in the page (the overlay shows them).
    Statuses {
        /// Events sent.
        sent: usize,
        /// Events the page applied.
        applied: u64,
        /// The changes sent, in ledger order: a reader (or a test) can wait for one status.
        changes: Vec<StatusChange>,
    },
    /// Something failed but the loop goes on (a drain, a baseline, a push).
    Warning {
        /// What, in one sentence.
        message: String,
    },
    /// Stopping, in order: the session, then the dev server when this command started it.
    Stopping {
        /// Why (`signal`, `session_closed`, `failed`).
        reason: String,
    },
    /// Everything this command started is gone.
    Stopped {
        /// The dev server was left running because this command did not start it.
        server_left_running: bool,
    },
}

/// One ledger status change pushed into the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusChange {
    /// The finding.
    pub finding_id: FindingId,
    /// Its status after the change.
    pub status: RepairStatus,
}

/// The contents of `channel.json`: how the dev server's plugin reaches this command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelFile {
    /// [`CHANNEL_PROTOCOL`].
    pub protocol: String,
    /// `http://127.0.0.1:<port>/repairs`.
    pub url: String,
    /// 64 hex characters, sent as `Authorization: Bearer <token>`.
    pub token: String,
    /// The pid of `a3s-test dev` (a plugin may check it is alive).
    pub pid: u32,
}

/// The commands an agent runs next for `session` (validated id only).
pub fn next_commands(session: &str) -> Vec<String> {
    vec![
        format!("a3s-test agent repair-inbox --session {session}"),
        "a3s-test mcp".to_string(),
    ]
}
