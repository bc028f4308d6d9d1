//! A chat completions server on loopback, written for the tests: it records what it receives
//! and answers as told (a whole response, nothing, or a body without end).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// One request the model server received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method_and_path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the model server does with a request.
#[derive(Clone)]
pub enum Reply {
    /// Write these bytes (a whole HTTP response) and close.
    Raw(String),
    /// Answer nothing, holding the connection open.
    Stall,
    /// A `200 application/json` chunked body that never ends; the channel gets the bytes written
    /// once a write fails (the reader went away).
    Endless(mpsc::UnboundedSender<usize>),
}

/// A chat completions server on loopback.
pub struct ModelServer {
    pub addr: SocketAddr,
    pub received: Arc<Mutex<Vec<Received>>>,
}

pub async fn model_server(reply: Reply) -> ModelServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let received = Arc::new(Mutex::new(Vec::new()));
    let log = received.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let log = log.clone();
            let reply = reply.clone();
            tokio::spawn(async move { answer(stream, reply, log).await });
        }
    });
    ModelServer { addr, received }
}

async fn answer(mut stream: TcpStream, reply: Reply, log: Arc<Mutex<Vec<Received>>>) {
    let read = tokio::time::timeout(Duration::from_secs(10), read_request(&mut stream)).await;
    let Ok(Some(request)) = read else {
        return;
    };
    log.lock().unwrap().push(request);
    match reply {
        Reply::Raw(text) => {
            let _ = stream.write_all(text.as_bytes()).await;
            let _ = stream.shutdown().await;
        }
        Reply::Stall => {
            std::future::pending::<()>().await;
        }
        Reply::Endless(done) => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            let mut written = 0usize;
            if stream.write_all(head.as_bytes()).await.is_err() {
                let _ = done.send(written);
                return;
            }
            let chunk = format!("4000\r\n{}\r\n", " ".repeat(0x4000));
            loop {
                if stream.write_all(chunk.as_bytes()).await.is_err() {
                    let _ = done.send(written);
                    return;
                }
                written += 0x4000;
            }
        }
    }
}

/// Headers up to the blank line, then `Content-Length` bytes of body.
async fn read_request(stream: &mut TcpStream) -> Option<Received> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut byte).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&byte[..n]);
    };
    let head = String::from_utf8(buf[..head_end].to_vec()).ok()?;
    let mut lines = head.split("\r\n");
    let method_and_path = lines.next()?.rsplit_once(' ').map(|(l, _)| l.to_string())?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut byte).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&byte[..n]);
    }
    Some(Received {
        method_and_path,
        headers,
        body,
    })
}

/// A `200` chat completion whose first choice says `content`.
pub fn completion(content: &str, prompt_tokens: u64, completion_tokens: u64) -> Reply {
    let body = serde_json::json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-test",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": "stop"
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens
        }
    })
    .to_string();
    Reply::Raw(format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ))
}
