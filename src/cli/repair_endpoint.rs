//! `a3s-test repair-endpoint`: the HTTP endpoint a dev server proxies the Review Overlay's
//! `repairEndpoint` to. It appends sent findings and the reviewer's actions on them to one
//! session's ledger and nothing else.
//!
//! Strict by construction: loopback only, POST only, `Origin` must be the app's origin,
//! `content-type: application/json`, a `Content-Length` of at most 1 MiB, an
//! `a3s.test.repair/1` document. Anything else gets a 4xx JSON error and appends nothing. The
//! request cannot choose a session, a path, a command or a credential: the session is fixed on
//! the command line, the URL path is ignored, and no header is stored.
//!
//! The HTTP reader is hand-written (see `http.rs`) so every read is bounded and every
//! connection has a deadline; connection slots (`slots.rs`) keep slow clients from exhausting
//! threads, and idle ones from starving real requests.
//!
//! Why not hyper (which `serve` uses): this endpoint's answers are part of its protocol and
//! hyper cannot give them. A head that misses the deadline must get a `408` JSON error with
//! `test.session.repair_endpoint_timeout` (hyper's `header_read_timeout` closes the socket
//! without an answer); an oversized head a `431` and a malformed one a `400`, each with their
//! JSON code (hyper answers those itself, with an empty body); a head with bare LF line ends is
//! refused at once (hyper's parser accepts them); and a connection still waiting for its head
//! gives its slot up to a newcomer (hyper does not say when a connection has read its head).
//! `tests/repair/endpoint.rs` checks each of these.

mod candidates;
pub(crate) mod handler;
mod http;
mod origin;
mod slots;

use super::exit::Exit;
use crate::ops::Context;
use a3s_test_ledger::{Ledger, SessionId};
use clap::Args;
use std::io::Write;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `a3s-test repair-endpoint`.
#[derive(Debug, Args)]
pub struct RepairEndpointArgs {
    /// Address to listen on; must be a loopback address (`127.0.0.1:0` picks a free port).
    #[arg(long, value_name = "ADDR")]
    listen: SocketAddr,
    /// The session whose ledger receives findings.
    #[arg(long)]
    session: SessionId,
    /// The app's origin (`http://localhost:5173`): requests must carry exactly this `Origin`.
    #[arg(long, value_name = "ORIGIN")]
    app_origin: String,
    /// Project root holding `.a3s-test/` (default: $A3S_TEST_ROOT, else the working directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The run output folder `GET …/candidates` reads the latest run from (as `run --output-dir`).
    #[arg(long, value_name = "DIR", default_value = super::run::DEFAULT_OUTPUT_DIR)]
    output_dir: PathBuf,
    /// Deadline for reading one request, in ms (1..=60000).
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    request_timeout_ms: u64,
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(Exit::InvalidInput)
}

/// Run the endpoint until the process is stopped.
pub fn run(args: RepairEndpointArgs) -> ExitCode {
    let session = args.session;
    let origin = match origin::normalize(&args.app_origin) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    if !args.listen.ip().is_loopback() {
        return usage_error("--listen must be a loopback address (127.0.0.1 or [::1])");
    }
    if !(1..=60_000).contains(&args.request_timeout_ms) {
        return usage_error("--request-timeout-ms must be in 1..=60000");
    }
    let ctx = Context::new(args.root);
    let ledger = Ledger::open(&ctx.root, &session, ctx.clock.clone());
    let listener = match TcpListener::bind(args.listen) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: failed to listen on {}: {e}", args.listen);
            return ExitCode::from(Exit::Failed);
        }
    };
    let address = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: failed to read the bound address: {e}");
            return ExitCode::from(Exit::Failed);
        }
    };
    let ready = serde_json::json!({
        "event": "listening",
        "address": address.to_string(),
        "session": session,
        "ledger": ledger.path().display().to_string(),
    });
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{ready}").and_then(|_| out.flush());
    }
    let config = Arc::new(handler::Config {
        ledger,
        access: handler::Access::Origin(origin),
        on_intake: None,
        log: handler::RequestLog::JsonLine,
        output: a3s_test_runner::evidence::output_location(&ctx.root, &args.output_dir),
        timeout: Duration::from_millis(args.request_timeout_ms),
    });
    serve(listener, config);
    ExitCode::from(Exit::Success)
}

/// Serve `listener` with `config` until it fails: one thread per admitted connection, the slots
/// bounding how many. `a3s-test dev` runs its channel through this same loop.
pub(crate) fn serve(listener: TcpListener, config: Arc<handler::Config>) {
    let slots = slots::Slots::default();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let Some(slot) = slots.admit(&stream) else {
            handler::refuse_busy(stream);
            continue;
        };
        let config = config.clone();
        let spawned = std::thread::Builder::new()
            .name("repair-endpoint".into())
            .spawn(move || slot.serve(|| handler::serve(&config, stream)));
        if spawned.is_err() {
            eprintln!("a3s-test repair-endpoint: failed to start a connection thread");
        }
    }
}
