//! Real loopback HTTP servers for the transport tests: each accepts connections, records what it
//! received, and answers as its test says — a valid envelope, a redirect, a slow answer, 50 MB.

#![allow(dead_code)]

pub mod tls;

use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_provider::grounding::{GroundingRequest, GroundingTrigger, Screenshot};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server read it.
#[derive(Debug, Clone)]
pub struct Received {
    /// The request line and headers, as text.
    pub head: String,
    /// The body.
    pub body: Vec<u8>,
}

impl Received {
    /// The value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// What a server does with one request: write an answer to the stream.
pub type Answer = Arc<dyn Fn(Received, TcpStream) -> futures_like::Boxed + Send + Sync>;

/// A boxed future without a futures dependency.
pub mod futures_like {
    /// The future an [`super::Answer`] returns.
    pub type Boxed = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;
}

/// A running server: its address, what it received and how many connections it accepted.
pub struct Server {
    pub addr: SocketAddr,
    pub received: Arc<Mutex<Vec<Received>>>,
    pub connections: Arc<Mutex<usize>>,
}

impl Server {
    /// `http://127.0.0.1:PORT/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    pub fn connections(&self) -> usize {
        *self.connections.lock().unwrap()
    }
}

/// A listening socket nobody accepts on: what must receive nothing (a redirect's target, an
/// environment proxy, a non-loopback plaintext endpoint). A client's `connect` returns only once
/// the kernel has queued the connection here, so [`Untouched::touched`] read after the client
/// returned sees every connection it made — no pause needed, none can be missed.
pub struct Untouched {
    listener: std::net::TcpListener,
    pub addr: SocketAddr,
}

impl Untouched {
    /// Listen on `bind` (`127.0.0.1:0`, or another interface's address).
    pub fn bind(bind: &str) -> Untouched {
        let listener = std::net::TcpListener::bind(bind).unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        Untouched { listener, addr }
    }

    /// `http://ADDR/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// True when some connection reached the socket.
    pub fn touched(&self) -> bool {
        match self.listener.accept() {
            Ok(_) => true,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => false,
            Err(e) => panic!("accept: {e}"),
        }
    }
}

/// A server on `bind` answering every request with `answer`.
pub async fn serve_on(bind: &str, answer: Answer) -> Server {
    let listener = TcpListener::bind(bind).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let received = Arc::new(Mutex::new(Vec::new()));
    let connections = Arc::new(Mutex::new(0));
    let (r, c) = (received.clone(), connections.clone());
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            *c.lock().unwrap() += 1;
            let (r, answer) = (r.clone(), answer.clone());
            tokio::spawn(async move {
                let Some(request) = read_request(&mut stream).await else {
                    return;
                };
                r.lock().unwrap().push(request.clone());
                answer(request, stream).await;
            });
        }
    });
    Server {
        addr,
        received,
        connections,
    }
}

/// A loopback server answering every request with `answer`.
pub async fn serve(answer: Answer) -> Server {
    serve_on("127.0.0.1:0", answer).await
}

/// Read one request: head up to the blank line, then `Content-Length` bytes.
pub async fn read_request(stream: &mut (impl tokio::io::AsyncRead + Unpin)) -> Option<Received> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        // Not HTTP (a TLS ClientHello starts with 0x16): close, as a plaintext server would.
        if !buf[0].is_ascii_uppercase() {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut received = Received {
        head,
        body: Vec::new(),
    };
    let length: usize = received
        .header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    received.body = body;
    Some(received)
}

/// An answer that writes `status`, `headers` and `body` once.
pub fn reply(status: &'static str, headers: Vec<(&'static str, String)>, body: Vec<u8>) -> Answer {
    let bytes = response(status, &headers, &body);
    Arc::new(move |_, mut stream| {
        let bytes = bytes.clone();
        Box::pin(async move { write_and_linger(&mut stream, &bytes).await })
    })
}

/// The bytes of an HTTP/1.1 answer: `status`, a `Content-Length`, `headers`, then `body`.
pub fn response(status: &str, headers: &[(&str, String)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\n", body.len());
    for (n, v) in headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// The bytes of a JSON 200 answer (for servers that answer with fixed bytes, like HTTPS's).
pub fn json_response(body: &serde_json::Value) -> Vec<u8> {
    response(
        "200 OK",
        &[("Content-Type", "application/json".into())],
        body.to_string().as_bytes(),
    )
}

/// Write `bytes`, then keep the connection open a moment, as a keep-alive server would.
pub async fn write_and_linger(
    stream: &mut (impl tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin),
    bytes: &[u8],
) {
    let _ = stream.write_all(bytes).await;
    let _ = stream.flush().await;
    let mut sink = [0u8; 16];
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read(&mut sink)).await;
}

/// A JSON 200 answer.
pub fn json(body: serde_json::Value) -> Answer {
    reply(
        "200 OK",
        vec![("Content-Type", "application/json".into())],
        body.to_string().into_bytes(),
    )
}

/// An answer computed from the request (echo servers).
pub fn json_from(make: impl Fn(&Received) -> serde_json::Value + Send + Sync + 'static) -> Answer {
    Arc::new(move |request, stream| {
        let body = make(&request).to_string().into_bytes();
        let inner = reply(
            "200 OK",
            vec![("Content-Type", "application/json".into())],
            body,
        );
        inner(request, stream)
    })
}

/// The grounding protocol string.
pub const PROTOCOL: &str = "a3s.test.visual-grounding/1";

/// A PNG's digest used by the requests here.
pub const SHA: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/// A provider block for `endpoint`.
pub fn config(endpoint: &str) -> ProviderConfig {
    ProviderConfig {
        name: "ocr".into(),
        kind: ProviderKind::VisualGrounding,
        endpoint: endpoint.into(),
        model: "tesseract-5".into(),
        authorization_env: None,
        timeout_ms: 5_000,
        max_cost_microusd: 1_000,
        max_input_units: None,
        max_output_units: None,
    }
}

/// A grounding request about a 1280×720 screenshot.
pub fn request() -> GroundingRequest {
    GroundingRequest {
        query: "Checkout".into(),
        observation_id: "o3".into(),
        screenshot: Screenshot {
            sha256: SHA.into(),
            width: 1280,
            height: 720,
            png_base64: "iVBORw0KGgo=".into(),
        },
        trigger: GroundingTrigger::Canvas,
        deadline_ms: 5_000,
        max_cost_microusd: 1_000,
    }
}

/// A valid success envelope answering [`request`].
pub fn success() -> serde_json::Value {
    serde_json::json!({
        "status": "success",
        "protocol": PROTOCOL,
        "response": {
            "provider": "ocr",
            "model": "tesseract-5",
            "observation_id": "o3",
            "screenshot_sha256": SHA,
            "boxes": [{ "x": 10.0, "y": 20.0, "width": 100.0, "height": 30.0, "confidence": 0.93, "text": "Checkout" }],
            "usage": { "input_units": 1, "output_units": 1 },
            "cost_microusd": 0
        }
    })
}
