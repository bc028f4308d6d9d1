//! The loopback channel of `a3s-test dev`: the dev server's plugin POSTs the page's
//! `a3s.test.repair/1` documents here with the session's token, and they go through the repair
//! endpoint's own request path (`cli/repair_endpoint`), so both answer a document the same way.
//!
//! The token and the port reach the dev server in `channel.json` (mode 0600, written atomically,
//! removed when `a3s-test dev` stops); only its path is put in the server's environment. Its
//! folder, `.a3s-test/dev/<session>/`, is opened without following links from the project
//! folder down (`a3s_test_fsroot`), so the token is never written through a link.

use crate::cli::repair_endpoint::handler::{Access, Config, RequestLog};
use crate::ops::dev::{ChannelFile, CHANNEL_PROTOCOL};
use a3s_test_fsroot::{ConfinedPath, Dir, PRIVATE};
use a3s_test_ledger::Ledger;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long the plugin may take to send one request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Why the channel could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ChannelError {
    /// Its folder or file: refused (a link on the way) or not writable.
    #[error("{0}")]
    File(#[from] a3s_test_fsroot::FsError),
    /// The listener or its thread.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The channel file's name in its folder.
pub const CHANNEL_FILE: &str = "channel.json";

/// A running channel; dropping it removes `channel.json` (the listener thread ends with the
/// process).
pub struct Channel {
    /// The URL the plugin posts to.
    pub url: String,
    /// The channel file (absolute).
    pub file: PathBuf,
    /// Its folder, open and verified (the dev server's log goes here too).
    pub dir: Dir,
}

/// A 64-hex-character secret from the OS random source.
fn token() -> String {
    use a3s_test_runner::session::file::random_token;
    format!("{}{}", random_token(), random_token())
}

impl Channel {
    /// Listen on a free loopback port, serve it on a thread of its own and write `channel.json`
    /// in `folder` (created when missing; no link followed on the way). `output` is the run
    /// output folder candidates are read from; `on_intake` runs after each document that
    /// appended a finding.
    pub fn open(
        ledger: Ledger,
        folder: &ConfinedPath,
        output: ConfinedPath,
        on_intake: Box<dyn Fn() + Send + Sync>,
    ) -> Result<Channel, ChannelError> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let url = format!("http://127.0.0.1:{port}/repairs");
        let token = token();
        let contents = ChannelFile {
            protocol: CHANNEL_PROTOCOL.to_string(),
            url: url.clone(),
            token: token.clone(),
            pid: std::process::id(),
        };
        let dir = folder.create_dir_all()?;
        let mut bytes = serde_json::to_vec_pretty(&contents).map_err(std::io::Error::other)?;
        bytes.push(b'\n');
        dir.write_atomic(CHANNEL_FILE, &bytes, PRIVATE)?;
        let channel = Channel {
            url,
            file: std::path::absolute(dir.path())?.join(CHANNEL_FILE),
            dir,
        };
        let config = Arc::new(Config {
            ledger,
            access: Access::Bearer(token),
            timeout: REQUEST_TIMEOUT,
            on_intake: Some(on_intake),
            log: RequestLog::Quiet,
            output,
        });
        std::thread::Builder::new()
            .name("a3s-test-dev-channel".into())
            .spawn(move || crate::cli::repair_endpoint::serve(listener, config))?;
        Ok(channel)
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        let _ = self.dir.remove_file(CHANNEL_FILE);
    }
}
