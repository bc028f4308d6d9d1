//! `a3s-test serve <dir>`: a small static file server on the loopback interface.
//!
//! Why built in: the dogfood suites and the end-to-end tests need the fixture pages over HTTP,
//! and a project's `dev_server` can name `a3s-test serve …` without adding Python or Node to the
//! machine. It binds 127.0.0.1 only, serves GET and HEAD, never lists folders (a folder serves its
//! `index.html`), refuses `..` and anything whose real path (symlinks resolved) leaves the root,
//! and answers with `Cache-Control: no-store`. Connections are kept alive (HTTP/1.1) with an idle
//! bound, one thread each, at most [`MAX_CONNECTIONS`] at once. The first line on stdout is
//! `serving <dir> at http://127.0.0.1:<port>/` (with `--port 0` the OS picks the port), so a
//! caller can wait for that line instead of guessing. It stops on SIGTERM or Ctrl+C.

use super::exit::Exit;
use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Most connections served at once; more get `503`.
pub const MAX_CONNECTIONS: usize = 128;
/// A connection idle this long is closed.
const IDLE: Duration = Duration::from_secs(10);
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
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "a3s-test serve: failed to listen on 127.0.0.1:{}: {e}",
                args.port
            );
            return ExitCode::from(Exit::InvalidInput);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
    println!("serving {} at http://127.0.0.1:{port}/", args.dir.display());
    let _ = std::io::stdout().flush();
    let root = Arc::new(root);
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let _ = respond(&mut stream, 503, "text/plain", b"busy\n", false, true);
            continue;
        }
        let (root, open) = (root.clone(), open.clone());
        std::thread::spawn(move || {
            let _ = serve_connection(stream, &root);
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
    ExitCode::from(Exit::Success)
}

fn serve_connection(stream: TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(IDLE))?;
    stream.set_write_timeout(Some(IDLE))?;
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let mut head = Vec::new();
        loop {
            let mut line = Vec::new();
            if reader.read_until(b'\n', &mut line)? == 0 {
                return Ok(());
            }
            let blank = line == b"\r\n" || line == b"\n";
            head.extend_from_slice(&line);
            if head.len() > MAX_HEAD {
                return respond(
                    &mut writer,
                    431,
                    "text/plain",
                    b"request head too large\n",
                    false,
                    true,
                );
            }
            if blank && head.len() > line.len() {
                break;
            }
            if blank {
                head.clear(); // stray blank line between requests
            }
        }
        let head = String::from_utf8_lossy(&head);
        let mut lines = head.lines();
        let request_line = lines.next().unwrap_or_default();
        let mut parts = request_line.split_whitespace();
        let (method, target, version) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or("/"),
            parts.next().unwrap_or(""),
        );
        let wants_close = version == "HTTP/1.0"
            || lines.any(|l| {
                l.to_ascii_lowercase().starts_with("connection:")
                    && l.to_ascii_lowercase().contains("close")
            });
        let head_only = method == "HEAD";
        if method != "GET" && !head_only {
            respond(
                &mut writer,
                405,
                "text/plain",
                b"method not allowed\n",
                false,
                true,
            )?;
            return Ok(());
        }
        match resolve(root, target) {
            Some(file) => match std::fs::read(&file) {
                Ok(body) => respond(
                    &mut writer,
                    200,
                    content_type(&file),
                    &body,
                    head_only,
                    wants_close,
                )?,
                Err(_) => respond(
                    &mut writer,
                    404,
                    "text/plain",
                    b"not found\n",
                    head_only,
                    wants_close,
                )?,
            },
            None => respond(
                &mut writer,
                404,
                "text/plain",
                b"not found\n",
                head_only,
                wants_close,
            )?,
        }
        if wants_close {
            return Ok(());
        }
    }
}

/// The file a request target names, if it is inside `root` (after resolving symlinks).
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let decoded = percent_decode(path)?;
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

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
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

fn respond(
    out: &mut impl Write,
    status: u16,
    content_type: &str,
    body: &[u8],
    head_only: bool,
    close: bool,
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Service Unavailable",
    };
    let connection = if close { "close" } else { "keep-alive" };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: {connection}\r\n\r\n",
        body.len()
    );
    out.write_all(head.as_bytes())?;
    if !head_only {
        out.write_all(body)?;
    }
    out.flush()
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
}
