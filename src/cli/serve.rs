//! `a3s-test serve <dir>`: a small static file server on the loopback interface.
//!
//! Why built in: the dogfood suites and the end-to-end tests need the fixture pages over HTTP,
//! and a project's `dev_server` can name `a3s-test serve …` without adding Python or Node to the
//! machine. It binds 127.0.0.1 only, serves GET and HEAD, never lists folders (a folder serves its
//! `index.html`), refuses `..` and anything whose real path (symlinks resolved) leaves the root,
//! and answers with `Cache-Control: no-store`. HTTP is hyper's (HTTP/1.1, keep-alive): a request
//! head must be at most [`MAX_HEAD`] bytes (else `431`) and arrive within [`IDLE`], which also
//! closes idle keep-alive connections; each answer must be written within [`WRITE_DEADLINE`]
//! (`write_deadline.rs`), so a client that stops reading loses its connection instead of holding
//! it; at most [`MAX_CONNECTIONS`] are served at once, more get `503`. The first line on stdout is `serving <dir> at http://127.0.0.1:<port>/` (with
//! `--port 0` the OS picks the port), so a caller can wait for that line instead of guessing. It
//! stops on SIGTERM or Ctrl+C.

use super::exit::Exit;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io::Write;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use write_deadline::WriteDeadline;

mod write_deadline;

/// Most connections served at once; more get `503`.
pub const MAX_CONNECTIONS: usize = 128;
/// The deadline for a request head, counted from when the connection starts waiting for it (so
/// a connection idle this long is closed too).
const IDLE: Duration = Duration::from_secs(10);
/// How long writing one answer may take, from its first byte: generous for any fixture over
/// loopback, short enough that a client that stopped reading does not keep its connection.
const WRITE_DEADLINE: Duration = Duration::from_secs(30);
/// Largest request head accepted.
const MAX_HEAD: usize = 16 * 1024;

/// Arguments of `a3s-test serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The folder to serve.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// TCP port on 127.0.0.1 (0 = any free port).
    #[arg(long, default_value_t = 4173)]
    pub port: u16,
}

/// Run `serve` until killed.
pub fn run(args: ServeArgs) -> ExitCode {
    let root = match args.dir.canonicalize() {
        Ok(root) if root.is_dir() => root,
        _ => {
            eprintln!(
                "a3s-test serve: failed to open folder `{}`",
                args.dir.display()
            );
            return ExitCode::from(Exit::InvalidInput);
        }
    };
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, args.port))
        .and_then(|l| l.set_nonblocking(true).map(|_| l))
    {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "a3s-test serve: failed to listen on 127.0.0.1:{}: {e}",
                args.port
            );
            return ExitCode::from(Exit::InvalidInput);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("a3s-test serve: failed to start: {e}");
            return ExitCode::from(Exit::InvalidInput);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
    println!("serving {} at http://127.0.0.1:{port}/", args.dir.display());
    let _ = std::io::stdout().flush();
    runtime.block_on(async {
        match tokio::net::TcpListener::from_std(listener) {
            Ok(listener) => {
                serve(listener, root, WRITE_DEADLINE).await;
                ExitCode::from(Exit::Success)
            }
            Err(e) => {
                eprintln!("a3s-test serve: failed to listen: {e}");
                ExitCode::from(Exit::InvalidInput)
            }
        }
    })
}

/// Accept and serve connections on `listener` forever; each answer must be written within
/// `write_limit`.
async fn serve(listener: tokio::net::TcpListener, root: PathBuf, write_limit: Duration) {
    let root = Arc::new(root);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let slot = slots.clone().try_acquire_owned().ok();
        let root = root.clone();
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(IDLE)
                .max_buf_size(MAX_HEAD)
                .keep_alive(slot.is_some());
            let io = TokioIo::new(WriteDeadline::new(stream, write_limit));
            let _ = match slot {
                Some(_slot) => {
                    let service = hyper::service::service_fn(move |req| answer(root.clone(), req));
                    http.serve_connection(io, service).await
                }
                None => {
                    let busy = hyper::service::service_fn(|_| async {
                        Ok::<_, std::convert::Infallible>(plain(
                            StatusCode::SERVICE_UNAVAILABLE,
                            "busy\n",
                        ))
                    });
                    http.serve_connection(io, busy).await
                }
            };
        });
    }
}

/// A `text/plain` answer.
fn plain(status: StatusCode, body: &'static str) -> Response<Full<Bytes>> {
    respond(status, "text/plain", Bytes::from_static(body.as_bytes()))
}

fn respond(status: StatusCode, content_type: &str, body: Bytes) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(content_type) {
        headers.insert(CONTENT_TYPE, value);
    }
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Answer one request (hyper leaves the body out of `HEAD` answers).
async fn answer(
    root: Arc<PathBuf>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, std::convert::Infallible> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n");
        response
            .headers_mut()
            .insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
        return Ok(response);
    }
    let target = req.uri().path().to_owned();
    let file = tokio::task::spawn_blocking(move || {
        let file = resolve(&root, &target)?;
        let body = std::fs::read(&file).ok()?;
        Some((content_type(&file), body))
    })
    .await
    .ok()
    .flatten();
    Ok(match file {
        Some((kind, body)) => respond(StatusCode::OK, kind, Bytes::from(body)),
        None => plain(StatusCode::NOT_FOUND, "not found\n"),
    })
}

/// The file a request target names, if it is inside `root` (after resolving symlinks).
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let mut file = root.to_path_buf();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p if p.contains('\0') || p.contains('\\') => return None,
            p => file.push(p),
        }
    }
    let mut real = file.canonicalize().ok()?;
    if real.is_dir() {
        real = real.join("index.html").canonicalize().ok()?;
    }
    (real.starts_with(root) && real.is_file()).then_some(real)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "txt" | "acl" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "csv" => "text/csv; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution_stays_inside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("index.html"), "i").unwrap();
        std::fs::write(root.join("sub/a b.txt"), "a").unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), root.join("link.txt"))
            .unwrap();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/sub/a%20b.txt?x=1"),
            Some(root.join("sub/a b.txt"))
        );
        for bad in [
            "/../etc/passwd",
            "/sub/../../x",
            "/%2e%2e/x",
            "/link.txt",
            "/missing",
            "/sub",
        ] {
            assert_eq!(resolve(&root, bad), None, "{bad}");
        }
    }

    /// A server over a folder holding `index.html`.
    async fn started() -> (tempfile::TempDir, std::net::SocketAddr) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<h1>i</h1>").unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(serve(
            listener,
            dir.path().canonicalize().unwrap(),
            WRITE_DEADLINE,
        ));
        (dir, addr)
    }

    /// Send `request` as raw bytes and read the answer until the server closes.
    async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(request).await.unwrap();
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer).await;
        String::from_utf8_lossy(&answer).into_owned()
    }

    #[tokio::test]
    async fn serves_files_with_no_store_and_refuses_the_rest() {
        let (_dir, addr) = started().await;
        let get = |path: &str| {
            let url = url::Url::parse(&format!("http://{addr}{path}")).unwrap();
            async move {
                a3s_test_driver::http::get(&url, Duration::from_secs(10), 1024)
                    .await
                    .unwrap()
            }
        };
        let index = get("/").await;
        assert_eq!(
            (index.status, index.body.as_slice()),
            (200, &b"<h1>i</h1>"[..])
        );
        assert_eq!(get("/missing").await.status, 404);
        assert_eq!(get("/%2e%2e/etc/passwd").await.status, 404);

        let head = raw(
            addr,
            b"HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await;
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        let lower = head.to_ascii_lowercase();
        assert!(
            lower.contains("content-type: text/html; charset=utf-8"),
            "{head}"
        );
        assert!(lower.contains("cache-control: no-store"), "{head}");
        assert!(head.ends_with("\r\n\r\n"), "HEAD has no body: {head}");

        let post = raw(
            addr,
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        )
        .await;
        assert!(
            post.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"),
            "{post}"
        );

        let huge = format!(
            "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n\r\n",
            "a".repeat(2 * MAX_HEAD)
        );
        let refused = raw(addr, huge.as_bytes()).await;
        assert!(refused.starts_with("HTTP/1.1 431 "), "{refused}");
    }

    /// A client that asks for a large file and never reads: the server gives up on it once the
    /// write deadline passes (the client then gets only what was already buffered, never the whole
    /// file), and serves other clients all along.
    #[tokio::test]
    async fn a_client_that_stops_reading_loses_its_connection() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        const LIMIT: Duration = Duration::from_millis(300);
        const SIZE: usize = 64 * 1024 * 1024;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<h1>i</h1>").unwrap();
        std::fs::write(dir.path().join("big.bin"), vec![b'x'; SIZE]).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(serve(listener, dir.path().canonicalize().unwrap(), LIMIT));

        let mut stalled = tokio::net::TcpStream::connect(addr).await.unwrap();
        stalled
            .write_all(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        // The experiment: this client reads nothing for several deadlines.
        tokio::time::sleep(LIMIT * 4).await;

        let url = url::Url::parse(&format!("http://{addr}/")).unwrap();
        let other = a3s_test_driver::http::get(&url, Duration::from_secs(10), 1024)
            .await
            .unwrap();
        assert_eq!(other.status, 200, "other clients are still served");

        let mut received = 0usize;
        let mut chunk = vec![0u8; 1 << 20];
        let drained = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                match stalled.read(&mut chunk).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => received += n,
                }
            }
        })
        .await;
        assert!(drained.is_ok(), "the server closed the stalled connection");
        assert!(
            received < SIZE,
            "the server stopped writing: {received} of {SIZE} bytes arrived"
        );
    }
}
