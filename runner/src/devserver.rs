//! The project's dev server (`.a3s-test/project.acl` → `dev_server { … }`): start, wait, stop.
//!
//! The command is an argument vector run without a shell, in a new process group this run
//! owns (led by a small watchdog, see below), with stdin closed and its output appended to
//! `dev-server.log` in the run's artifact root. Readiness is an HTTP answer (any status) from
//! `url`, polled until the startup deadline; each probe is one hyper request bounded by
//! [`PROBE_BOUND`] (`a3s_test_driver::http`). An `https` URL is probed with the machine's trust
//! store, or accepting any certificate when the block says `ignore_https_errors = true`
//! (`a3s_test_driver::tls::CertificateCheck`); a certificate the probe refuses fails at once
//! ([`DevServerError::Untrusted`]) instead of waiting out the deadline for an answer that can
//! never be accepted. A server that exits before answering fails at once with its exit status.
//! Stopping sends SIGTERM to the whole group, waits a bounded time for the leader, then
//! SIGKILLs the group (stragglers included) and reaps the leader. If this process dies first
//! (even by SIGKILL), the leader gets SIGTERM and a watchdog in the group stops the rest (`a3s_test_driver::child`).
//!
//! `a3s-test` as the program name means *this* binary (`std::env::current_exe`), so a project can
//! use `a3s-test serve …` without the binary being on `PATH`.

use a3s_test_driver::child::{self, ExitWatch, Group, GroupWatchdog, OnOwnerDeath};
use a3s_test_driver::http::{self, GetError};
use a3s_test_driver::process;
use a3s_test_driver::tls::CertificateCheck;
use a3s_test_fsroot::{Access, Dir, SHARED};
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use tokio::time::Instant;

/// How long a stopping server gets between SIGTERM and SIGKILL.
pub const STOP_GRACE: Duration = Duration::from_secs(5);
/// The deadline of one readiness probe (connect, request and response head).
const PROBE_BOUND: Duration = Duration::from_millis(500);

/// Why the dev server could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DevServerError {
    /// The argument vector is empty.
    #[error("failed to start the dev server: `command` is empty")]
    EmptyCommand,
    /// The URL is not `http(s)://host[:port]/…`.
    #[error(
        "failed to use dev server url `{0}`: the readiness probe asks \
         http(s)://host[:port][/path] only"
    )]
    BadUrl(String),
    /// An `https` URL answered with a certificate the probe does not accept: waiting longer
    /// would not change that, so the run stops at once and says how to accept it.
    #[error(
        "the dev server at {url} answered, but its certificate is not trusted: {reason}; for a \
         self-signed development certificate set `ignore_https_errors = true` in `dev_server` \
         (and on the scenarios whose pages load it)"
    )]
    Untrusted {
        /// The URL polled.
        url: String,
        /// Why the handshake was refused (unknown issuer, name mismatch, …).
        reason: String,
    },
    /// Spawning failed.
    #[error("failed to start the dev server `{program}`: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// It exited before answering.
    #[error(
        "the dev server exited before answering at {url} ({status}){}; see {log}",
        taken_port.map(|p| format!(": port {p} is taken by another process")).unwrap_or_default()
    )]
    Exited {
        /// The URL polled.
        url: String,
        /// Its exit status.
        status: String,
        /// The port of `url` when something else accepts connections on it: most likely why
        /// the server died.
        taken_port: Option<u16>,
        /// The log file.
        log: String,
    },
    /// Something already answers at the URL and reuse is off: starting the server would die on
    /// the taken port, or worse, the run would test whatever answers there.
    #[error(
        "{url} already answers before the dev server was started, and reuse is off ({why}): stop \
         whatever listens on port {port}, or set `reuse_existing = true` in `dev_server`"
    )]
    AlreadyAnswering {
        /// The URL.
        url: String,
        /// Its port.
        port: u16,
        /// Why reuse is off: `CI` is set, or the project said `reuse_existing = false`.
        why: &'static str,
    },
    /// No answer before the deadline.
    #[error("the dev server did not answer at {url} within {timeout_ms} ms; see {log}")]
    NotReady {
        /// The URL polled.
        url: String,
        /// The deadline.
        timeout_ms: u64,
        /// The log file.
        log: String,
    },
    /// Cancelled while waiting.
    #[error("cancelled while waiting for the dev server")]
    Cancelled,
}

/// A running dev server; call [`DevServer::stop`] (dropping it kills the group as a last resort).
#[derive(Debug)]
pub struct DevServer {
    child: Option<ExitWatch>,
    pgid: i32,
    /// Stops the group if this process dies without [`DevServer::stop`].
    watchdog: Option<GroupWatchdog>,
}

/// The port of `url` when something accepts TCP connections on it (bounded by [`PROBE_BOUND`]).
async fn taken_port(url: &url::Url) -> Option<u16> {
    let (host, port) = (url.host_str()?, url.port_or_known_default()?);
    let connect = tokio::net::TcpStream::connect((host, port));
    match tokio::time::timeout(PROBE_BOUND, connect).await {
        Ok(Ok(_)) => Some(port),
        _ => None,
    }
}

/// How a run got its dev server.
#[derive(Debug)]
pub enum DevServerUse {
    /// Started here, owned by the run, stopped at its end.
    Started(DevServer),
    /// Already answering at the URL before launch, and reuse was on: nothing was started.
    Reused,
}

/// Use the project's dev server: when `url` already answers and `reuse` is on, use it as it is;
/// when it answers and reuse is off, refuse ([`DevServerError::AlreadyAnswering`]); otherwise
/// [`DevServer::start`] it. `reuse_off_because` words why reuse is off, for that refusal.
pub async fn prepare(
    settings: &a3s_test_lang::ir::DevServer,
    reuse: bool,
    reuse_off_because: &'static str,
    log: (&Dir, &str),
    cancel: impl std::future::Future<Output = ()>,
) -> Result<DevServerUse, DevServerError> {
    let url = &settings.url;
    let probe_url = parse_server_url(url).ok_or_else(|| DevServerError::BadUrl(url.clone()))?;
    let certificates = CertificateCheck::ignoring_if(settings.ignore_https_errors);
    if answered(&probe_url, certificates).await? {
        if reuse {
            return Ok(DevServerUse::Reused);
        }
        return Err(DevServerError::AlreadyAnswering {
            url: url.clone(),
            port: probe_url.port_or_known_default().unwrap_or(80),
            why: reuse_off_because,
        });
    }
    let timeout = Duration::from_millis(settings.startup_timeout_ms);
    DevServer::start(&settings.command, url, certificates, timeout, log, cancel)
        .await
        .map(DevServerUse::Started)
}

/// The URL the readiness probe asks: `http(s)://host[:port][/path]` only.
pub fn parse_server_url(url: &str) -> Option<url::Url> {
    url::Url::parse(url).ok().filter(|u| {
        matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty())
    })
}

/// One readiness probe: whether `url` answered, or [`DevServerError::Untrusted`] when it
/// answered TLS with a certificate `certificates` refuses (or no root is trusted). A handshake
/// that broke otherwise (closed, reset, plain HTTP) is a server not ready yet: polled again.
/// `dev` asks the same before it attaches to a running server.
pub async fn answered(
    url: &url::Url,
    certificates: CertificateCheck,
) -> Result<bool, DevServerError> {
    match http::probe(url, certificates, PROBE_BOUND).await {
        Ok(()) => Ok(true),
        Err(GetError::Certificate(reason)) => Err(DevServerError::Untrusted {
            url: url.to_string(),
            reason,
        }),
        Err(_) => Ok(false),
    }
}

impl DevServer {
    /// Start `command` and wait until `url` answers, the child exits, the deadline passes or
    /// `cancel` resolves. Its output is appended to the file `log.1` in the folder `log.0`.
    /// `certificates` says how an `https` URL's certificate is checked.
    pub async fn start(
        command: &[String],
        url: &str,
        certificates: CertificateCheck,
        startup_timeout: Duration,
        log: (&Dir, &str),
        cancel: impl std::future::Future<Output = ()>,
    ) -> Result<DevServer, DevServerError> {
        Self::start_with_env(
            command,
            &[],
            url,
            certificates,
            startup_timeout,
            log,
            cancel,
        )
        .await
    }

    /// [`DevServer::start`] with extra environment variables for the server (`a3s-test dev`
    /// hands its channel file over this way).
    pub async fn start_with_env(
        command: &[String],
        env: &[(&str, &std::ffi::OsStr)],
        url: &str,
        certificates: CertificateCheck,
        startup_timeout: Duration,
        (log_dir, log_name): (&Dir, &str),
        cancel: impl std::future::Future<Output = ()>,
    ) -> Result<DevServer, DevServerError> {
        let (program, args) = command.split_first().ok_or(DevServerError::EmptyCommand)?;
        let probe_url =
            parse_server_url(url).ok_or_else(|| DevServerError::BadUrl(url.to_string()))?;
        let exe = if program == "a3s-test" {
            std::env::current_exe().map_err(|source| DevServerError::Spawn {
                program: program.clone(),
                source,
            })?
        } else {
            program.into()
        };
        let spawn_err = |source| DevServerError::Spawn {
            program: program.clone(),
            source,
        };
        // The log lives under `.a3s-test/`: opened in its verified folder, never through a link.
        let log = log_dir
            .open_file(log_name, Access::Append, SHARED)
            .map_err(|e| spawn_err(e.into()))?;
        let log_file = log_dir.path().join(log_name);
        let log_err = log.try_clone().map_err(spawn_err)?;
        let mut command = Command::new(exe);
        command
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err);
        // A group led by a watchdog that stops it when this process dies, however it dies (even
        // a server that ignores SIGTERM, and its workers); the server joins that group and gets
        // SIGTERM itself on owner death (`a3s_test_driver::child` explains both).
        let watchdog = GroupWatchdog::start().map_err(|source| DevServerError::Spawn {
            program: "sh (the dev server's watchdog)".into(),
            source,
        })?;
        let pgid = watchdog.pgid() as i32;
        let child = match child::spawn(command, Group::Join(pgid as u32), OnOwnerDeath::Terminate) {
            Ok(child) => child,
            Err(e) => {
                // The watchdog's group, which this process just created.
                process::kill_group(pgid as u32);
                return Err(spawn_err(e));
            }
        };
        let exit = ExitWatch::new(child);
        let watchdog = Some(watchdog);
        let mut server = DevServer {
            child: Some(exit),
            pgid,
            watchdog,
        };
        let log = log_file.display().to_string();
        let deadline = Instant::now() + startup_timeout;
        tokio::pin!(cancel);
        loop {
            match answered(&probe_url, certificates).await {
                Ok(true) => return Ok(server),
                Ok(false) => {}
                Err(untrusted) => {
                    server.stop().await;
                    return Err(untrusted);
                }
            }
            if let Some(status) = server.child.as_ref().and_then(ExitWatch::status) {
                server.stop().await;
                return Err(DevServerError::Exited {
                    url: url.to_string(),
                    status: status.to_string(),
                    taken_port: taken_port(&probe_url).await,
                    log,
                });
            }
            if Instant::now() >= deadline {
                server.stop().await;
                return Err(DevServerError::NotReady {
                    url: url.to_string(),
                    timeout_ms: startup_timeout.as_millis() as u64,
                    log,
                });
            }
            // Poll the condition again after a short pause, or stop at once on cancel.
            tokio::select! {
                _ = &mut cancel => {
                    server.stop().await;
                    return Err(DevServerError::Cancelled);
                }
                _ = tokio::time::sleep(Duration::from_millis(50)) => {}
            }
        }
    }

    /// The whole group's live members (the server, its workers and the watchdog), for reports.
    pub fn members(&self) -> Vec<u32> {
        process::live_group_members(self.pgid as u32)
    }

    /// The process group id (= the watchdog's pid).
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// SIGTERM the group, wait up to [`STOP_GRACE`] for the leader, SIGKILL the group, reap.
    /// Returns false when the leader had to be killed.
    pub async fn stop(&mut self) -> bool {
        let Some(child) = self.child.take() else {
            return true;
        };
        process::signal_group(self.pgid as u32, process::Signal::TERM);
        let graceful = tokio::time::timeout(STOP_GRACE, child.exited())
            .await
            .is_ok();
        // Stragglers in the group (a server's own workers) die with it.
        process::kill_group(self.pgid as u32);
        if !graceful {
            let _ = tokio::time::timeout(STOP_GRACE, child.exited()).await;
        }
        // The group kill above ended the watchdog too; collect it.
        if let Some(watchdog) = self.watchdog.take() {
            let _ = tokio::time::timeout(STOP_GRACE, watchdog.exit().exited()).await;
        }
        graceful
    }
}

impl Drop for DevServer {
    fn drop(&mut self) {
        if self.child.is_some() {
            // Last-resort kill of the group we own; the reaper thread reaps the leader.
            process::kill_group(self.pgid as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn url_parsing() {
        let parsed = |u: &str| parse_server_url(u).map(|u| u.to_string());
        assert_eq!(
            parsed("http://127.0.0.1:4173").as_deref(),
            Some("http://127.0.0.1:4173/")
        );
        assert_eq!(
            parsed("http://localhost:080/x?y").as_deref(),
            Some("http://localhost/x?y")
        );
        assert_eq!(parsed("https://x").as_deref(), Some("https://x/"));
        assert_eq!(parsed("ftp://x"), None);
        assert_eq!(parsed("http:///"), None);
    }

    /// A server still starting — a port proxy that accepts and closes, a plain HTTP answer at
    /// an `https` URL — breaks the handshake without refusing a certificate: polled again, never
    /// the "not trusted" refusal that would stop the run.
    #[tokio::test]
    async fn a_handshake_broken_by_a_server_still_starting_is_not_ready_rather_than_untrusted() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = url::Url::parse(&format!("https://{}/", listener.local_addr().unwrap())).unwrap();
        let closing = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt as _;
            // First a connection closed at once, then one answered in plain HTTP.
            drop(listener.accept().await.unwrap());
            let (mut tcp, _) = listener.accept().await.unwrap();
            let _ = tcp
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                .await;
        });
        // Certificates are not what is tested (and a machine may trust no root): any is taken.
        for attempt in ["closed", "plain HTTP"] {
            assert!(
                matches!(answered(&url, CertificateCheck::Ignored).await, Ok(false)),
                "a handshake broken by a {attempt} answer must be polled again"
            );
        }
        closing.await.unwrap();
    }

    #[tokio::test]
    async fn a_server_that_exits_fails_fast_and_one_that_never_answers_times_out() {
        let dir = tempfile::tempdir().unwrap();
        // A port that accepts connections (the kernel's backlog) but never answers.
        let silent_port = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", silent_port.local_addr().unwrap());
        let fails = |command: &[&str], ready_timeout: Duration, log: &'static str| {
            let command: Vec<String> = command.iter().map(|s| s.to_string()).collect();
            let folder = Dir::open_anchor(dir.path()).unwrap();
            let url = url.clone();
            async move {
                DevServer::start(
                    &command,
                    &url,
                    CertificateCheck::Verified,
                    ready_timeout,
                    (&folder, log),
                    std::future::pending(),
                )
                .await
                .unwrap_err()
            }
        };
        let err = fails(&["false"], Duration::from_secs(20), "a").await;
        assert!(matches!(err, DevServerError::Exited { .. }), "{err}");
        let started = Instant::now();
        let err = fails(&["sleep", "30"], Duration::from_millis(300), "b").await;
        assert!(matches!(err, DevServerError::NotReady { .. }), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
