//! Clients for `a3s-test mcp` over a real stdio pipe, shared by the agent and repair end-to-end
//! tests (included with `#[path]`): [`McpClient`] is the official MCP client (`rmcp`) and is
//! what the tool tests speak; [`McpPipe`] writes raw lines, for what no well-behaved client
//! sends (malformed JSON, batches, over-long lines, requests before `initialize`). The server is
//! killed and reaped when the client is dropped; every answer has a deadline.
#![allow(dead_code)]

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};

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

/// The official MCP client (`rmcp`) connected to a running `a3s-test mcp` child process.
pub struct McpClient {
    runtime: tokio::runtime::Runtime,
    client: Option<RunningService<RoleClient, ()>>,
    deadline: Duration,
}

impl McpClient {
    /// Start `a3s-test mcp <args>` in `dir` and complete the MCP handshake; each answer must
    /// come within `deadline`.
    pub fn start(dir: &Path, args: &[&std::ffi::OsStr], deadline: Duration) -> McpClient {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_a3s-test"));
        command.arg("mcp").args(args).current_dir(dir);
        let client = runtime.block_on(async {
            let (transport, _) = TokioChildProcess::builder(command)
                .stderr(Stdio::inherit())
                .spawn()
                .unwrap();
            tokio::time::timeout(deadline, ().serve(transport))
                .await
                .expect("the MCP server answered initialize before the deadline")
                .expect("the MCP handshake succeeded")
        });
        McpClient {
            runtime,
            client: Some(client),
            deadline,
        }
    }

    fn client(&self) -> &RunningService<RoleClient, ()> {
        self.client.as_ref().expect("a connected client")
    }

    /// What the server said about itself at `initialize`, as JSON.
    pub fn server_info(&self) -> Value {
        serde_json::to_value(self.client().peer_info().expect("initialized")).unwrap()
    }

    /// `tools/list`, each tool as JSON.
    pub fn tools(&self) -> Vec<Value> {
        let listed = self.runtime.block_on(async {
            tokio::time::timeout(self.deadline, self.client().list_all_tools())
                .await
                .expect("the MCP server answered tools/list before the deadline")
                .expect("tools/list succeeded")
        });
        listed
            .iter()
            .map(|t| serde_json::to_value(t).unwrap())
            .collect()
    }

    /// `tools/call`: the tool result as JSON, or the JSON-RPC error object as JSON.
    pub fn call(&self, name: &str, arguments: Value) -> Result<Value, Value> {
        let Value::Object(arguments) = arguments else {
            panic!("tool arguments are an object");
        };
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        let answer = self.runtime.block_on(async {
            tokio::time::timeout(self.deadline, self.client().call_tool(params))
                .await
                .expect("the MCP server answered tools/call before the deadline")
        });
        match answer {
            Ok(result) => Ok(serde_json::to_value(result).unwrap()),
            Err(rmcp::ServiceError::McpError(error)) => Err(serde_json::to_value(error).unwrap()),
            Err(other) => panic!("{name}: {other}"),
        }
    }

    /// `tools/call` that must succeed as a tool result: `(structuredContent, isError)`.
    pub fn result(&self, name: &str, arguments: Value) -> (Value, bool) {
        let result = self
            .call(name, arguments)
            .unwrap_or_else(|e| panic!("{name}: protocol error {e}"));
        let text: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            text, result["structuredContent"],
            "{name}: text and structured differ"
        );
        (
            result["structuredContent"].clone(),
            result["isError"] == true,
        )
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = self.runtime.block_on(client.cancel());
        }
    }
}
