//! One bounded HTTP/1.1 exchange on `hyper`, for the places that ask a server a single
//! question: Chrome's `/json/version` (the DevTools WebSocket URL of an attached browser), the
//! runner's dev-server readiness probe, and a `request` step's API call ([`send`]).
//!
//! Why not hand-written: both used to write a request line and scan bytes for `\r\n\r\n`, each
//! with its own idea of `Content-Length` and of when a connection ends. hyper parses the answer
//! (chunked bodies, keep-alive servers such as Chrome's that never close), and this module adds
//! the bounds the callers need: one deadline over connect, request and body, and a body limit.

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;

/// An answered request.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The whole body (at most the caller's limit).
    pub body: Vec<u8>,
}

/// Why a `GET` got no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum GetError {
    /// Only `http://host[:port]/…` is fetched.
    #[error("only http://host[:port][/path] URLs are fetched")]
    Url,
    /// The method or a header is not valid HTTP.
    #[error("the request is not valid HTTP: {0}")]
    Request(String),
    /// The deadline passed before the whole answer arrived.
    #[error("no answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The TCP connection failed.
    #[error("failed to connect: {0}")]
    Connect(#[source] std::io::Error),
    /// The server broke HTTP or closed the connection before answering.
    #[error("HTTP failed: {0}")]
    Http(#[from] hyper::Error),
    /// The body is larger than the caller's limit.
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    /// Reading the body failed.
    #[error("failed to read the body: {0}")]
    Body(String),
}

/// `GET url`, reading a body of at most `max_body` bytes, all within `deadline`.
pub async fn get(
    url: &url::Url,
    deadline: Duration,
    max_body: usize,
) -> Result<Response, GetError> {
    bounded(
        deadline,
        exchange(url, &Outgoing::default(), Some(max_body)),
    )
    .await
}

/// What [`send`] sends besides the URL.
#[derive(Default)]
pub struct Outgoing {
    /// The method (`GET` when empty).
    pub method: String,
    /// Header names and values (`Host` is set from the URL).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl std::fmt::Debug for Outgoing {
    /// Header values and the body may be secrets: only names and sizes are shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("Outgoing")
            .field("method", &self.method)
            .field("headers", &names)
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

/// `outgoing.method url` with its headers and body, reading an answer of at most `max_body`
/// bytes, all within `deadline`.
pub async fn send(
    url: &url::Url,
    outgoing: &Outgoing,
    deadline: Duration,
    max_body: usize,
) -> Result<Response, GetError> {
    bounded(deadline, exchange(url, outgoing, Some(max_body))).await
}

/// True when something answers HTTP (any status) at `url` within `deadline`; the body is not
/// read, so a large page answers as quickly as a small one.
pub async fn answers(url: &url::Url, deadline: Duration) -> bool {
    bounded(deadline, exchange(url, &Outgoing::default(), None))
        .await
        .is_ok()
}

async fn bounded<T>(
    deadline: Duration,
    work: impl std::future::Future<Output = Result<T, GetError>>,
) -> Result<T, GetError> {
    tokio::time::timeout(deadline, work)
        .await
        .map_err(|_| GetError::Timeout(deadline))?
}

/// The socket address and the `Host` header of an `http://` URL.
async fn target(url: &url::Url) -> Result<(Vec<SocketAddr>, String), GetError> {
    if url.scheme() != "http" {
        return Err(GetError::Url);
    }
    let port = url.port_or_known_default().ok_or(GetError::Url)?;
    let addrs = match url.host().ok_or(GetError::Url)? {
        url::Host::Ipv4(ip) => vec![SocketAddr::from((ip, port))],
        url::Host::Ipv6(ip) => vec![SocketAddr::from((ip, port))],
        url::Host::Domain(name) => tokio::net::lookup_host((name, port))
            .await
            .map_err(GetError::Connect)?
            .collect(),
    };
    let host = url.host_str().ok_or(GetError::Url)?;
    let authority = match url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.to_owned(),
    };
    Ok((addrs, authority))
}

async fn exchange(
    url: &url::Url,
    outgoing: &Outgoing,
    max_body: Option<usize>,
) -> Result<Response, GetError> {
    let (addrs, authority) = target(url).await?;
    let stream = TcpStream::connect(&addrs[..])
        .await
        .map_err(GetError::Connect)?;
    let _ = stream.set_nodelay(true);
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    let path = &url[url::Position::BeforePath..url::Position::AfterQuery];
    let method = if outgoing.method.is_empty() {
        "GET"
    } else {
        outgoing.method.as_str()
    };
    let mut request = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header(hyper::header::HOST, authority);
    for (name, value) in &outgoing.headers {
        request = request.header(name.as_str(), value.as_str());
    }
    let request = request
        .body(Full::new(Bytes::from(outgoing.body.clone())))
        .map_err(|e| GetError::Request(e.to_string()))?;
    let answer = async {
        let response = sender.send_request(request).await?;
        let status = response.status().as_u16();
        let Some(limit) = max_body else {
            return Ok(Response {
                status,
                body: Vec::new(),
            });
        };
        let body = Limited::new(response.into_body(), limit)
            .collect()
            .await
            .map_err(|e| {
                if e.is::<http_body_util::LengthLimitError>() {
                    GetError::TooLarge(limit)
                } else {
                    GetError::Body(e.to_string())
                }
            })?
            .to_bytes()
            .to_vec();
        Ok(Response { status, body })
    };
    // The connection is driven alongside the exchange and dropped with it: a keep-alive server
    // never ends it on its own. A server that closes once it answered (`Connection: close`) ends
    // it first: what it delivered is then read to the end.
    tokio::pin!(conn);
    tokio::pin!(answer);
    tokio::select! {
        answer = &mut answer => answer,
        ended = &mut conn => match ended {
            Err(e) => Err(GetError::Http(e)),
            Ok(()) => answer.await,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A server that answers one request with `reply` and keeps the connection open.
    async fn one_shot(reply: &'static [u8]) -> url::Url {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = [0u8; 1024];
            let _ = s.read(&mut buf).await;
            s.write_all(reply).await.unwrap();
            let _ = s.read(&mut buf).await;
        });
        url::Url::parse(&format!("http://127.0.0.1:{port}/json/version")).unwrap()
    }

    #[tokio::test]
    async fn reads_a_chunked_body_from_a_server_that_keeps_the_connection() {
        let url =
            one_shot(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
                .await;
        let r = get(&url, Duration::from_secs(10), 1024).await.unwrap();
        assert_eq!((r.status, r.body.as_slice()), (200, &b"{}"[..]));
    }

    #[tokio::test]
    async fn bodies_are_bounded() {
        let url = one_shot(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789").await;
        let err = get(&url, Duration::from_secs(10), 4).await.unwrap_err();
        assert!(matches!(err, GetError::TooLarge(4)), "{err}");
    }

    #[tokio::test]
    async fn any_status_answers_and_other_schemes_are_refused() {
        let url = one_shot(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n").await;
        assert!(answers(&url, Duration::from_secs(10)).await);
        let https = url::Url::parse("https://127.0.0.1/").unwrap();
        assert!(matches!(
            get(&https, Duration::from_secs(1), 1).await,
            Err(GetError::Url)
        ));
    }
}
