//! A loopback app server for the cross-language tests: it serves one review page and the built
//! Test Kit (`testkit/dist/`), and stands in for a dev server's `repairEndpoint` proxy. It records
//! every POST body; by default it answers 503, so the page keeps its queue for the session to
//! drain (the seeds' "an endpoint failure does not delete the browser queue"), and after
//! [`AppServer::forward_to`] it forwards each POST to a real `repair-endpoint` process, as a dev
//! server's proxy does, and hands its answer back to the page.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The path the page's Test Kit posts to.
pub const ENDPOINT_PATH: &str = "/__a3s-test/repairs";

/// A running app server.
pub struct AppServer {
    /// `http://127.0.0.1:PORT`.
    pub origin: String,
    posts: Arc<Posts>,
}

/// The recorded bodies, a signal for each new one, and where to forward them.
#[derive(Default)]
struct Posts {
    bodies: Mutex<Vec<String>>,
    arrived: Condvar,
    forward: Mutex<Option<SocketAddr>>,
}

/// The built Test Kit's files by URL path (`/kit/<file>`), or a panic saying how to build it.
pub fn kit_files() -> HashMap<String, Vec<u8>> {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testkit/dist");
    let entries = std::fs::read_dir(&dist).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): build the Test Kit first with ./scripts/setup.sh \
             (or `cd testkit && npm ci && npm run build`)",
            dist.display()
        )
    });
    entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "js"))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (format!("/kit/{name}"), std::fs::read(e.path()).unwrap())
        })
        .collect()
}

impl AppServer {
    /// Serve `page` at `/` and the Test Kit under `/kit/`.
    pub fn start(page: &str) -> AppServer {
        let (listener, origin) = crate::common::loopback();
        let mut files = kit_files();
        files.insert("/".into(), page.as_bytes().to_vec());
        let posts = Arc::new(Posts::default());
        let p = posts.clone();
        crate::common::serve_each(listener, move |stream| serve(stream, &files, &p));
        AppServer { origin, posts }
    }

    /// From now on, forward every POST to the repair endpoint at `addr` (headers `Origin`,
    /// `Sec-Fetch-Site` and the body as the browser sent them) and answer with its reply.
    pub fn forward_to(&self, addr: SocketAddr) {
        *self.posts.forward.lock().unwrap() = Some(addr);
    }

    /// Every body posted to [`ENDPOINT_PATH`] so far, parsed.
    pub fn posts(&self) -> Vec<serde_json::Value> {
        self.posts
            .bodies
            .lock()
            .unwrap()
            .iter()
            .map(|b| serde_json::from_str(b).expect("the Test Kit posts JSON"))
            .collect()
    }

    /// Wait (bounded) until `n` bodies were posted; returns them.
    pub fn wait_for_posts(&self, n: usize, within: Duration) -> Vec<serde_json::Value> {
        let until = Instant::now() + within;
        let mut bodies = self.posts.bodies.lock().unwrap();
        while bodies.len() < n {
            let left = until.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "only {} of {n} POSTs arrived within {within:?}",
                bodies.len()
            );
            bodies = self.posts.arrived.wait_timeout(bodies, left).unwrap().0;
        }
        drop(bodies);
        self.posts()
    }
}

fn serve(stream: TcpStream, files: &HashMap<String, Vec<u8>>, posts: &Posts) {
    let Some(request) = crate::common::read_request(&stream) else {
        return;
    };
    let path = request.target.as_str();
    // The overlay's read of the latest run's candidates, proxied as a dev server does.
    if request.method == "GET" && path.starts_with(&format!("{ENDPOINT_PATH}/candidates?")) {
        let target = *posts.forward.lock().unwrap();
        let (status, reply) = match target {
            Some(addr) => {
                let forwarded: String = ["sec-fetch-site"]
                    .iter()
                    .filter_map(|h| request.header(h).map(|v| format!("{h}: {v}\r\n")))
                    .collect();
                exchange(
                    addr,
                    &format!("GET {path} HTTP/1.1\r\nhost: {addr}\r\n{forwarded}\r\n").into_bytes(),
                )
            }
            None => (503, b"{}".to_vec()),
        };
        crate::common::respond(
            &stream,
            &format!("{status} Answer"),
            "application/json",
            "",
            &reply,
        );
        return;
    }
    let (status, kind, body) = if request.method == "POST" && path == ENDPOINT_PATH {
        let body = request.body.clone();
        posts
            .bodies
            .lock()
            .unwrap()
            .push(String::from_utf8_lossy(&body).into_owned());
        posts.arrived.notify_all();
        let target = *posts.forward.lock().unwrap();
        match target {
            Some(addr) => {
                let forwarded: String = ["origin", "sec-fetch-site", "content-type"]
                    .iter()
                    .filter_map(|h| request.header(h).map(|v| format!("{h}: {v}\r\n")))
                    .collect();
                let (status, reply) = forward(addr, &forwarded, &body);
                let status = format!("{status} Answer");
                crate::common::respond(&stream, &status, "application/json", "", &reply);
                return;
            }
            None => (
                "503 Service Unavailable",
                "application/json",
                b"{\"error\":\"the stand-in endpoint keeps nothing\"}".to_vec(),
            ),
        }
    } else {
        match files.get(path) {
            Some(b) if path.ends_with(".js") => ("200 OK", "text/javascript", b.clone()),
            Some(b) => ("200 OK", "text/html", b.clone()),
            None => ("404 Not Found", "text/plain", Vec::new()),
        }
    };
    let content_type = format!("{kind}; charset=utf-8");
    crate::common::respond(&stream, status, &content_type, "", &body);
}

/// One POST to the repair endpoint at `addr`; its status and body (bounded by a read deadline).
fn forward(addr: SocketAddr, headers: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut request = format!(
        "POST / HTTP/1.1\r\nhost: {addr}\r\n{headers}content-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    exchange(addr, &request)
}

/// One request to the repair endpoint at `addr`; its status and body (bounded by a read deadline).
fn exchange(addr: SocketAddr, request: &[u8]) -> (u16, Vec<u8>) {
    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_secs(10)) else {
        return (502, b"{}".to_vec());
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(20)));
    if s.write_all(request).is_err() {
        return (502, b"{}".to_vec());
    }
    let mut resp = Vec::new();
    let _ = s.read_to_end(&mut resp);
    let Some(split) = resp.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (502, b"{}".to_vec());
    };
    let status = String::from_utf8_lossy(&resp[..split])
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(502);
    (status, resp[split + 4..].to_vec())
}
