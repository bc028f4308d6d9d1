//! A JSON-RPC client for `a3s-test mcp` over a real stdio pipe, shared by the agent and repair
//! end-to-end tests (included with `#[path]`). The server runs in its own process group and is
//! killed and reaped when the client is dropped; every read has a deadline.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// One running `a3s-test mcp`.
pub struct McpPipe {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    deadline: Duration,
}

impl McpPipe {
    /// Start `a3s-test mcp <args>` in `dir`; each answer must come within `deadline`.
    pub fn start(dir: &Path, args: &[&std::ffi::OsStr], deadline: Duration) -> McpPipe {
        let mut child = Command::new(env!("CARGO_BIN_EXE_a3s-test"))
            .arg("mcp")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        McpPipe {
            child,
            stdin,
            lines,
            deadline,
        }
    }

    /// Write one line as is (malformed input included).
    pub fn send_raw(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Write one line of `len` bytes of `a` (in 1 MiB writes) and its newline: an over-long
    /// message the server must skip without holding it.
    pub fn send_long_line(&mut self, len: usize) {
        let chunk = vec![b'a'; 1024 * 1024];
        let mut left = len;
        while left > 0 {
            let n = left.min(chunk.len());
            self.stdin.write_all(&chunk[..n]).unwrap();
            left -= n;
        }
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The server's peak resident memory so far, in KiB (`VmHWM` from `/proc`).
    pub fn peak_rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/<pid>/status")
    }

    /// The next message from the server.
    pub fn recv(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(self.deadline)
            .expect("the MCP server answered before the deadline");
        serde_json::from_str(&line).unwrap()
    }

    /// Send request `id` and return its response (checked to carry the same id).
    pub fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send_raw(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        let r = self.recv();
        assert_eq!(r["id"], id, "{r}");
        r
    }

    /// Call tool `name` with `arguments` as request `id`; returns the whole response.
    pub fn call(&mut self, id: u64, name: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        )
    }
}

impl Drop for McpPipe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
