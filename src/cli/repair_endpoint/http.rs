//! A deliberately small HTTP/1.1 reader and writer: one request per connection, every read
//! bounded in size and by the connection's deadline, strict parsing (CRLF lines, token header
//! names, no folded headers), `Connection: close` on every response. A bare LF in the head is
//! refused as soon as it arrives (waiting for a CRLF blank line that never comes used to end in
//! a 408 at the deadline). Reading the whole head marks the connection as served, so its slot
//! can no longer be given to a newcomer (`slots.rs`).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The largest request head (request line + headers).
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The most header lines.
pub const MAX_HEADERS: usize = 64;
/// Bytes read from the socket at a time (a buffer size, not a limit: the limits are the head and
/// body bounds).
const CHUNK: usize = 8192;

/// Why a request could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed first.
    Timeout,
    /// The head is larger than `MAX_HEAD_BYTES` or has too many headers.
    HeadTooLarge,
    /// Not a valid HTTP/1.x request.
    Malformed(&'static str),
    /// The peer closed or the socket failed.
    Closed,
}

/// A parsed request head.
#[derive(Debug)]
pub struct Head {
    /// The method, as sent (case-sensitive per RFC 9110).
    pub method: String,
    /// The request target (a path, with its query when one was sent).
    pub target: String,
    /// Header names (lowercased) and values (trimmed), in order.
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// Every value of header `name` (lowercase).
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The only value of header `name`; `Err` if it appears more than once.
    pub fn single<'a>(&'a self, name: &'a str) -> Result<Option<&'a str>, ReadError> {
        let mut it = self.all(name);
        let first = it.next();
        if it.next().is_some() {
            return Err(ReadError::Malformed(
                "a header that must be single is repeated",
            ));
        }
        Ok(first)
    }
}

/// A connection with a deadline and the bytes read past the head.
pub struct Conn {
    /// The socket.
    pub stream: TcpStream,
    deadline: Instant,
    buf: Vec<u8>,
}

impl Conn {
    /// Wrap `stream`; every read must finish within `timeout` from now.
    pub fn new(stream: TcpStream, timeout: Duration) -> Self {
        let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
        Conn {
            stream,
            deadline: Instant::now() + timeout,
            buf: Vec::new(),
        }
    }

    fn fill(&mut self, max_total: usize) -> Result<usize, ReadError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ReadError::Timeout);
        }
        self.stream
            .set_read_timeout(Some(left))
            .map_err(|_| ReadError::Closed)?;
        let room = max_total.saturating_sub(self.buf.len()).clamp(1, CHUNK);
        let mut chunk = [0u8; CHUNK];
        match self.stream.read(&mut chunk[..room]) {
            Ok(0) => Err(ReadError::Closed),
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(n)
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Err(ReadError::Timeout)
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(0),
            Err(_) => Err(ReadError::Closed),
        }
    }

    /// Read and parse the request head.
    pub fn read_head(&mut self) -> Result<Head, ReadError> {
        let mut checked = 0;
        let end = loop {
            let end = find(&self.buf, b"\r\n\r\n");
            let scan = end.map_or(self.buf.len(), |i| i + 4);
            if bare_lf(&self.buf, checked, scan) {
                return Err(ReadError::Malformed("line ends in the head must be CRLF"));
            }
            checked = scan;
            if let Some(i) = end {
                break i;
            }
            if self.buf.len() > MAX_HEAD_BYTES {
                return Err(ReadError::HeadTooLarge);
            }
            self.fill(MAX_HEAD_BYTES + 4)?;
        };
        super::slots::head_read();
        if end > MAX_HEAD_BYTES {
            return Err(ReadError::HeadTooLarge);
        }
        let head = std::str::from_utf8(&self.buf[..end])
            .map_err(|_| ReadError::Malformed("the request head is not UTF-8"))?;
        let parsed = parse_head(head)?;
        self.buf.drain(..end + 4);
        Ok(parsed)
    }

    /// Read exactly `len` body bytes (the caller has bounded `len`).
    pub fn read_body(&mut self, len: usize) -> Result<Vec<u8>, ReadError> {
        while self.buf.len() < len {
            self.fill(len)?;
        }
        self.buf.truncate(len);
        super::slots::body_read();
        Ok(std::mem::take(&mut self.buf))
    }

    /// Send an interim `100 Continue`.
    pub fn send_continue(&mut self) {
        let _ = self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }

    /// Send the response and close: stop writing, then drain what the client is still sending
    /// for a short, bounded time so the response is not lost to a reset.
    pub fn respond(mut self, status: u16, extra: &[(&str, &str)], body: &[u8]) {
        let mut head = format!(
            "HTTP/1.1 {status} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n",
            reason(status),
            body.len()
        );
        for (k, v) in extra {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let sent = self
            .stream
            .write_all(head.as_bytes())
            .and_then(|_| self.stream.write_all(body))
            .and_then(|_| self.stream.flush());
        if sent.is_err() {
            return;
        }
        let _ = self.stream.shutdown(Shutdown::Write);
        let linger = Instant::now() + Duration::from_millis(250);
        let mut sink = [0u8; CHUNK];
        let mut drained = 0usize;
        while drained < 2 * 1024 * 1024 {
            let left = linger.saturating_duration_since(Instant::now());
            if left.is_zero() || self.stream.set_read_timeout(Some(left)).is_err() {
                break;
            }
            match self.stream.read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    }
}

/// True when `buf[from..to]` holds a `\n` not preceded by `\r`.
fn bare_lf(buf: &[u8], from: usize, to: usize) -> bool {
    (from..to).any(|i| buf[i] == b'\n' && (i == 0 || buf[i - 1] != b'\r'))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn parse_head(head: &str) -> Result<Head, ReadError> {
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or("");
    let mut parts = request_line.split(' ');
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) => (m, t, v),
        _ => {
            return Err(ReadError::Malformed(
                "the request line is not METHOD TARGET VERSION",
            ))
        }
    };
    if !is_token(method) {
        return Err(ReadError::Malformed("the method is not a token"));
    }
    if !target.starts_with('/') || target.bytes().any(|b| b.is_ascii_control()) {
        return Err(ReadError::Malformed("the request target must be a path"));
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(ReadError::Malformed(
            "only HTTP/1.1 and HTTP/1.0 are served",
        ));
    }
    let mut headers = Vec::new();
    for line in lines {
        if headers.len() >= MAX_HEADERS {
            return Err(ReadError::HeadTooLarge);
        }
        if line.starts_with([' ', '\t']) {
            return Err(ReadError::Malformed("folded header lines are not accepted"));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or(ReadError::Malformed("a header line has no colon"))?;
        if !is_token(name) {
            return Err(ReadError::Malformed("a header name is not a token"));
        }
        let value = value.trim_matches([' ', '\t']);
        if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
            return Err(ReadError::Malformed(
                "a header value has control characters",
            ));
        }
        headers.push((name.to_ascii_lowercase(), value.to_owned()));
    }
    Ok(Head {
        method: method.to_owned(),
        target: target.to_owned(),
        headers,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        507 => "Insufficient Storage",
        _ => "Error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_strict_head() {
        let h =
            parse_head("POST /__a3s/repairs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json")
                .unwrap();
        assert_eq!(h.method, "POST");
        assert_eq!(h.single("content-type").unwrap(), Some("application/json"));
    }

    #[test]
    fn bare_line_feeds_are_found() {
        let all = |b: &[u8]| bare_lf(b, 0, b.len());
        assert!(all(b"POST / HTTP/1.1\nHost: x\n\n"));
        assert!(all(b"\n"));
        assert!(!all(b"POST / HTTP/1.1\r\nHost: x\r\n\r\n"));
        // Only the new bytes are scanned: a CR at the end of the previous read still counts.
        assert!(!bare_lf(b"a\r\n", 2, 3));
    }

    #[test]
    fn refuses_sloppy_heads() {
        for bad in [
            "POST /x",
            "POST http://evil/x HTTP/1.1",
            "POST /x HTTP/2",
            "PO ST /x HTTP/1.1",
            "POST /x HTTP/1.1\r\n folded: yes",
            "POST /x HTTP/1.1\r\nno colon",
            "POST /x HTTP/1.1\r\nbad name: x",
        ] {
            assert!(parse_head(bad).is_err(), "{bad:?}");
        }
    }
}
