//! One bounded HTTP/1.1 exchange on `hyper`, for the places that ask a server a single
//! question: Chrome's `/json/version` (the DevTools WebSocket URL of an attached browser), the
//! runner's dev-server readiness probe, and a `request` step's API call ([`send`]).
//!
//! Why not hand-written: both used to write a request line and scan bytes for `\r\n\r\n`, each
//! with its own idea of `Content-Length` and of when a connection ends. hyper parses the answer
//! (chunked bodies, keep-alive servers such as Chrome's that never close), and this module adds
//! the bounds the callers need: one deadline over connect, TLS handshake, request and body, and a
//! body limit.
//!
//! `https://` URLs are sent over tokio-rustls with the one configuration of [`crate::tls`] (the
//! machine's trust store, the URL's host verified: a name by name, an IP literal as an IP
//! address) unless the caller's [`CertificateCheck`] is `Ignored` (a block that said
//! `ignore_https_errors = true`); `http://` goes over the plain connection.

use crate::tls::CertificateCheck;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
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
    /// Only `http://` and `https://host[:port]/…` are fetched.
    #[error("only http:// and https://host[:port][/path] URLs are fetched")]
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
    /// The server's certificate was refused (unknown issuer, name mismatch, expired …), or this
    /// machine trusts no root: no later attempt at the same server can succeed as things are.
    /// The text says which and never holds a header value.
    #[error("TLS failed: {0}")]
    Certificate(String),
    /// The TLS handshake of an `https://` URL failed otherwise (the connection closed or reset
    /// during it, a plain HTTP server at an `https://` URL): a server still starting does this.
    #[error("TLS failed: {0}")]
    Tls(String),
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
    /// Whether an `https://` server's certificate is checked (by default it is).
    pub certificates: CertificateCheck,
}

impl std::fmt::Debug for Outgoing {
    /// Header values and the body may be secrets: only names and sizes are shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("Outgoing")
            .field("method", &self.method)
            .field("headers", &names)
            .field("body_bytes", &self.body.len())
            .field("certificates", &self.certificates)
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

/// `Ok` when something answers HTTP (any status) at `url` within `deadline`, its certificate
/// checked as `certificates` says; the body is not read, so a large page answers as quickly as a
/// small one. The error says why nothing usable answered: a readiness probe tells a server that
/// is not up yet from one whose certificate is refused.
pub async fn probe(
    url: &url::Url,
    certificates: CertificateCheck,
    deadline: Duration,
) -> Result<(), GetError> {
    let outgoing = Outgoing {
        certificates,
        ..Outgoing::default()
    };
    bounded(deadline, exchange(url, &outgoing, None))
        .await
        .map(drop)
}

async fn bounded<T>(
    deadline: Duration,
    work: impl std::future::Future<Output = Result<T, GetError>>,
) -> Result<T, GetError> {
    tokio::time::timeout(deadline, work)
        .await
        .map_err(|_| GetError::Timeout(deadline))?
}

/// The socket address and the `Host` header of an `http://` or `https://` URL.
async fn target(url: &url::Url) -> Result<(Vec<SocketAddr>, String), GetError> {
    if !matches!(url.scheme(), "http" | "https") {
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
    let trust: TrustSource = match outgoing.certificates {
        CertificateCheck::Verified => crate::tls::client_config,
        CertificateCheck::Ignored => || CertificateCheck::Ignored.config(),
    };
    exchange_trusting(url, outgoing, max_body, trust).await
}

/// The configuration an `https://` exchange uses: the one `outgoing.certificates` asks for in
/// the product; the unit tests below hand one trusting their test root instead.
type TrustSource = fn() -> Result<std::sync::Arc<rustls::ClientConfig>, crate::tls::NoRoots>;

async fn exchange_trusting(
    url: &url::Url,
    outgoing: &Outgoing,
    max_body: Option<usize>,
    trust: TrustSource,
) -> Result<Response, GetError> {
    let (addrs, authority) = target(url).await?;
    let stream = TcpStream::connect(&addrs[..])
        .await
        .map_err(GetError::Connect)?;
    let _ = stream.set_nodelay(true);
    if url.scheme() == "https" {
        let stream = secure(url, stream, trust).await?;
        return over(stream, url, authority, outgoing, max_body).await;
    }
    over(stream, url, authority, outgoing, max_body).await
}

/// The TLS session of an `https://` URL over `stream`, its host verified.
async fn secure(
    url: &url::Url,
    stream: TcpStream,
    trust: TrustSource,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, GetError> {
    let config = trust().map_err(|e| GetError::Certificate(e.to_string()))?;
    let (name, shown) = match url.host().ok_or(GetError::Url)? {
        url::Host::Ipv4(ip) => (ServerName::IpAddress(ip.into()), ip.to_string()),
        url::Host::Ipv6(ip) => (ServerName::IpAddress(ip.into()), ip.to_string()),
        url::Host::Domain(name) => (
            ServerName::try_from(name.to_owned()).map_err(|_| GetError::Url)?,
            name.to_owned(),
        ),
    };
    tokio_rustls::TlsConnector::from(config)
        .connect(name, stream)
        .await
        .map_err(|e| {
            let reason = crate::tls::describe(&e, &shown);
            if crate::tls::is_certificate_refusal(&e) {
                GetError::Certificate(reason)
            } else {
                GetError::Tls(reason)
            }
        })
}

/// The exchange itself, over a plain or TLS stream.
async fn over(
    stream: impl AsyncRead + AsyncWrite + Unpin + Send + 'static,
    url: &url::Url,
    authority: String,
    outgoing: &Outgoing,
    max_body: Option<usize>,
) -> Result<Response, GetError> {
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
        assert!(
            probe(&url, CertificateCheck::Verified, Duration::from_secs(10))
                .await
                .is_ok()
        );
        let ftp = url::Url::parse("ftp://127.0.0.1/").unwrap();
        assert!(matches!(
            get(&ftp, Duration::from_secs(1), 1).await,
            Err(GetError::Url)
        ));
    }

    /// The committed test certificates (`provider/tests/fixtures/tls/make.sh` says what each is).
    fn fixture(name: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../provider/tests/fixtures/tls")
            .join(name)
    }

    /// A client configuration trusting the test root alone.
    fn test_root() -> Result<std::sync::Arc<rustls::ClientConfig>, crate::tls::NoRoots> {
        use rustls::pki_types::{pem::PemObject, CertificateDer};
        static CONFIG: std::sync::LazyLock<std::sync::Arc<rustls::ClientConfig>> =
            std::sync::LazyLock::new(|| {
                let mut roots = rustls::RootCertStore::empty();
                for cert in CertificateDer::pem_file_iter(fixture("root.pem")).unwrap() {
                    roots.add(cert.unwrap()).unwrap();
                }
                crate::tls::trusting(roots)
            });
        Ok(CONFIG.clone())
    }

    /// A loopback HTTPS server presenting `certificate` that answers every request with `reply`.
    async fn tls_server(certificate: &str, reply: &'static [u8]) -> u16 {
        use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
        let chain: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(fixture(certificate))
                .unwrap()
                .map(Result::unwrap)
                .collect();
        let key = PrivateKeyDer::from_pem_file(fixture("server.key")).unwrap();
        #[allow(deprecated)]
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let mut buf = [0u8; 1024];
                    let _ = tls.read(&mut buf).await;
                    let _ = tls.write_all(reply).await;
                    let _ = tls.read(&mut buf).await;
                });
            }
        });
        port
    }

    async fn get_trusting_test_root(url: &str, deadline: Duration) -> Result<Response, GetError> {
        let url = url::Url::parse(url).unwrap();
        bounded(
            deadline,
            exchange_trusting(&url, &Outgoing::default(), Some(1024), test_root),
        )
        .await
    }

    const OK: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";

    #[tokio::test]
    async fn https_is_answered_by_name_and_by_ip_address() {
        let port = tls_server("localhost.pem", OK).await;
        for host in ["localhost", "127.0.0.1"] {
            let r = get_trusting_test_root(
                &format!("https://{host}:{port}/v1"),
                Duration::from_secs(10),
            )
            .await
            .unwrap_or_else(|e| panic!("{host}: {e}"));
            assert_eq!((r.status, r.body.as_slice()), (200, &b"{}"[..]), "{host}");
        }
    }

    #[tokio::test]
    async fn an_untrusted_certificate_is_a_tls_failure_that_says_why() {
        for (certificate, host, reason) in [
            ("other-name.pem", "localhost", "name mismatch"),
            ("stranger.pem", "127.0.0.1", "unknown issuer"),
        ] {
            let port = tls_server(certificate, OK).await;
            let url = format!("https://{host}:{port}/");
            let err = get_trusting_test_root(&url, Duration::from_secs(10))
                .await
                .unwrap_err();
            assert!(
                matches!(&err, GetError::Certificate(m) if m.contains(reason) && m.contains(host)),
                "{certificate}: {err}"
            );
        }
    }

    #[tokio::test]
    async fn a_server_that_never_answers_the_handshake_times_out() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (held_tx, held) = tokio::sync::oneshot::channel();
        tokio::spawn(async move {
            // Accept and hold the connection without a byte of TLS.
            let (tcp, _) = listener.accept().await.unwrap();
            let _ = held_tx.send(());
            let mut buf = [0u8; 1024];
            let mut tcp = tcp;
            while tcp.read(&mut buf).await.is_ok_and(|n| n > 0) {}
        });
        let url = format!("https://127.0.0.1:{port}/");
        let err = get_trusting_test_root(&url, Duration::from_millis(300))
            .await
            .unwrap_err();
        assert!(matches!(err, GetError::Timeout(_)), "{err}");
        held.await.expect("the server accepted the connection");
    }

    #[tokio::test]
    async fn ignoring_certificate_errors_accepts_an_untrusted_certificate_for_that_exchange_only() {
        let port = tls_server("stranger.pem", OK).await;
        let url = url::Url::parse(&format!("https://localhost:{port}/")).unwrap();
        let ignoring = Outgoing {
            certificates: CertificateCheck::Ignored,
            ..Outgoing::default()
        };
        let r = send(&url, &ignoring, Duration::from_secs(10), 1024)
            .await
            .unwrap();
        assert_eq!((r.status, r.body.as_slice()), (200, &b"{}"[..]));
        let probed = probe(&url, CertificateCheck::Ignored, Duration::from_secs(10)).await;
        assert!(probed.is_ok(), "{probed:?}");
        // The default still verifies (against the test root here): the same server is refused.
        let err = get_trusting_test_root(url.as_str(), Duration::from_secs(10))
            .await
            .unwrap_err();
        assert!(matches!(err, GetError::Certificate(_)), "{err}");
    }

    #[test]
    fn a_tls_failure_never_holds_a_header_value() {
        let outgoing = Outgoing {
            method: "GET".into(),
            headers: vec![("Authorization".into(), "Bearer s3cret".into())],
            ..Outgoing::default()
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let err = runtime.block_on(async {
            let port = tls_server("stranger.pem", OK).await;
            let url = url::Url::parse(&format!("https://127.0.0.1:{port}/")).unwrap();
            bounded(
                Duration::from_secs(10),
                exchange_trusting(&url, &outgoing, Some(1024), test_root),
            )
            .await
            .unwrap_err()
        });
        assert!(!format!("{err} {err:?}").contains("s3cret"), "{err}");
    }
}
