//! Helpers shared by the end-to-end tests: run the real binary with a deadline, fixture paths.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// Deadline for one run of the binary; admission of a few small files takes milliseconds.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// How often [`wait_until`] looks again.
const POLL: Duration = Duration::from_millis(10);

/// Wait until `ready()` holds, for at most `within`; true when it did. For conditions nothing
/// announces (another process's entry in `/proc`, a file appearing), which a test can only watch:
/// the wait ends as soon as the condition holds, never after a guessed pause.
pub fn wait_until(within: Duration, ready: impl FnMut() -> bool) -> bool {
    wait_until_every(POLL, within, ready)
}

/// [`wait_until`] looking again every `poll`: a test that must catch a short-lived moment (a
/// process that has just appeared) looks more often.
pub fn wait_until_every(poll: Duration, within: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + within;
    loop {
        if ready() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(poll);
    }
}

/// The result of one run.
#[derive(Debug)]
pub struct Run {
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Run `a3s-test` with `args` in `dir`, with `NO_COLOR` cleared and a deadline; the child is
/// killed (it is our own direct child) and the test fails if the deadline passes.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    run_with_env(dir, args, &[])
}

/// Like [`run_in`] with extra environment variables.
pub fn run_with_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    run_program(env!("CARGO_BIN_EXE_a3s-test"), dir, args, env)
}

/// Run `program` with `args` in `dir` (the same deadline and pipes as [`run_in`]).
pub fn run_program(program: &str, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(program);
    command.args(args).current_dir(dir).env_remove("NO_COLOR");
    for (k, v) in env {
        command.env(k, v);
    }
    let out = output_within(&mut command, None, DEADLINE);
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout utf-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr utf-8"),
    }
}

/// Run `command` to its end with `input` on stdin (or none), both outputs piped, in a process
/// group of its own (so a Ctrl+C in the terminal running the tests is ours to handle, and an
/// overrun can be ended with everything it started). Every end-to-end suite runs the binary
/// through here, so the deadline and the pipe handling are written once. Past `deadline` the group
/// (our own child's) is killed and the test fails.
pub fn output_within(
    command: &mut Command,
    input: Option<&[u8]>,
    deadline: Duration,
) -> std::process::Output {
    command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let mut child = command.spawn().expect("spawn the program under test");
    if let Some(bytes) = input {
        let mut stdin = child.stdin.take().expect("stdin");
        std::io::Write::write_all(&mut stdin, bytes).expect("write stdin");
    }
    wait_output(child, deadline)
}

/// Spawn `command` with stdin closed, in a process group of its own, so that it and everything it
/// starts can be signalled or killed as one group by the test that owns it.
pub fn spawn_grouped(command: &mut Command) -> Child {
    command.stdin(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    command.spawn().expect("spawn the program under test")
}

/// Wait for `child` (spawned in a process group of its own) up to `deadline`, reading whichever
/// of its output pipes the caller has not taken; past the deadline its group is killed and the
/// test fails. For tests that signal or watch a child before it ends.
pub fn wait_output(mut child: Child, deadline: Duration) -> std::process::Output {
    // Read both pipes on threads so a large output cannot block the child while we wait.
    let out = read_to_end(child.stdout.take());
    let err = read_to_end(child.stderr.take());
    let status = match child.wait_timeout(deadline).expect("wait for the child") {
        Some(status) => status,
        None => {
            // SAFETY: signals the process group of a child this test spawned.
            #[cfg(unix)]
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL)
            };
            let _ = child.kill();
            let _ = child.wait();
            panic!("pid {} did not finish within {deadline:?}", child.id());
        }
    };
    std::process::Output {
        status,
        stdout: out.join().expect("stdout thread"),
        stderr: err.join().expect("stderr thread"),
    }
}

/// Read `stream` to its end on a thread of its own.
fn read_to_end(
    stream: Option<impl std::io::Read + Send + 'static>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut stream) = stream {
            let _ = stream.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// A listener on a free loopback port and its origin (`http://127.0.0.1:PORT`): the start of every
/// test server here.
pub fn loopback() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let origin = format!("http://{}", listener.local_addr().expect("local address"));
    (listener, origin)
}

/// Hand every connection `listener` accepts to `handle`, each on a thread of its own, from a
/// thread of its own (the test servers live as long as the test process).
pub fn serve_each(
    listener: std::net::TcpListener,
    handle: impl Fn(std::net::TcpStream) + Send + Sync + 'static,
) {
    let handle = std::sync::Arc::new(handle);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let handle = handle.clone();
            std::thread::spawn(move || handle(stream));
        }
    });
}

/// A temporary folder holding `files` (relative path, text), parent folders created.
pub fn workdir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for (name, text) in files {
        write(dir.path(), name, text);
    }
    dir
}

/// Write `text` to `root/rel`, creating its parent folders.
pub fn write(root: &Path, rel: &str, text: impl AsRef<[u8]>) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a parent folder")).expect("create folders");
    std::fs::write(path, text).expect("write a file");
}

/// `lang/tests/fixtures/<sub>`.
pub fn fixtures(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("lang/tests/fixtures")
        .join(sub)
}

/// Every `*.acl` file directly in `dir`, sorted.
pub fn acl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "acl"))
        .collect();
    files.sort();
    files
}

/// One HTTP/1.1 request as a loopback test server read it.
#[derive(Debug, Default)]
pub struct HttpRequest {
    /// `GET`, `POST` …
    pub method: String,
    /// The request target (path and query).
    pub target: String,
    /// Header names and values, as sent (values trimmed).
    pub headers: Vec<(String, String)>,
    /// The body (`Content-Length` bytes, at most 4 MiB).
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Read one request from `stream` (10 s read timeout): the request line, the headers up to the
/// blank line, and the body its `Content-Length` announces. `None` for a request cut short,
/// which the test servers leave unanswered. Every loopback page server reads through here.
pub fn read_request(stream: &std::net::TcpStream) -> Option<HttpRequest> {
    use std::io::{BufRead, Read};
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = std::io::BufReader::new(stream);
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let mut parts = first.split_whitespace();
    let mut request = HttpRequest {
        method: parts.next().unwrap_or("").to_string(),
        target: parts.next().unwrap_or("/").to_string(),
        ..HttpRequest::default()
    };
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => {
                if let Some((k, v)) = line.split_once(':') {
                    request.headers.push((k.to_string(), v.trim().to_string()));
                }
            }
        }
    }
    let length: usize = request
        .header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    request.body = vec![0; length.min(4 << 20)];
    reader.read_exact(&mut request.body).ok()?;
    Some(request)
}

/// Answer on `stream` and close: `status` (`200 OK`), `content_type` as the `Content-Type`, the
/// `extra` header lines (each ending in `\r\n`) and `body`.
pub fn respond(
    stream: &std::net::TcpStream,
    status: &str,
    content_type: &str,
    extra: &str,
    body: &[u8],
) {
    use std::io::Write;
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut stream = stream;
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

/// The bytes of an HTTP/1.1 POST of `body` to `path` on `host`, with `headers` and the body's
/// `content-length`: what the tests send to the servers under test by hand, so that a request
/// can also be made wrong on purpose.
pub fn post_request(host: &str, path: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nhost: {host}\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    request
}

/// The string `key` of every item of the JSON array `items`, in order (a missing array, item or
/// non-string value fails the test).
pub fn each_str<'a>(items: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    items
        .as_array()
        .expect("an array")
        .iter()
        .map(|item| item[key].as_str().expect("a string"))
        .collect()
}

/// A workspace binary this test package does not depend on (a reference provider), beside
/// `a3s-test`: `cargo test --workspace` and `./scripts/setup.sh` build it there; a targeted run
/// builds it once with a bounded `cargo build -p PACKAGE` of the same profile's folder.
#[allow(dead_code)]
pub fn workspace_binary(package: &str) -> std::path::PathBuf {
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_a3s-test"))
        .parent()
        .expect("the target folder")
        .join(package);
    if !binary.exists() {
        let built = output_within(
            Command::new(env!("CARGO"))
                .args(["build", "--quiet", "-p", package])
                .current_dir(env!("CARGO_MANIFEST_DIR")),
            None,
            Duration::from_secs(900),
        );
        assert!(
            built.status.success(),
            "building {package}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
    }
    binary
}
