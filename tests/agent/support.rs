//! Test support: a loopback HTTP server with in-memory pages that records every request, running
//! the binary with a deadline, and checking a session's process groups.
#![allow(dead_code)]

use serde_json::Value;
use std::collections::HashMap;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Deadline of one CLI turn.
pub const TURN: Duration = Duration::from_secs(90);

/// A loopback server: `pages` by path; every request path is recorded.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub origin: String,
    hits: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Serve `pages` (path → HTML) on a free port; a page written `redirect:URL` answers
    /// `302 Found` to `URL`.
    pub fn start(pages: &[(&str, &str)]) -> Server {
        let (listener, origin) = crate::common::loopback();
        let pages: HashMap<String, String> = pages
            .iter()
            .map(|(k, v)| (k.to_string(), v.replace("{ORIGIN}", &origin)))
            .collect();
        let hits = Arc::new(Mutex::new(Vec::new()));
        let h = hits.clone();
        crate::common::serve_each(listener, move |stream| serve(stream, &pages, &h));
        Server { origin, hits }
    }

    /// The page at `/`: where a session starts.
    pub fn url(&self) -> String {
        format!("{}/", self.origin)
    }

    /// Paths requested so far.
    pub fn hits(&self) -> Vec<String> {
        self.hits.lock().unwrap().clone()
    }

    /// How many requests hit `path`.
    pub fn count(&self, path: &str) -> usize {
        self.hits().iter().filter(|p| p.as_str() == path).count()
    }
}

fn serve(stream: TcpStream, pages: &HashMap<String, String>, hits: &Mutex<Vec<String>>) {
    let Some(request) = crate::common::read_request(&stream) else {
        return;
    };
    let path = request.target;
    hits.lock().unwrap().push(path.clone());
    if let Some(to) = pages.get(&path).and_then(|b| b.strip_prefix("redirect:")) {
        let location = format!("Location: {to}\r\n");
        crate::common::respond(&stream, "302 Found", "text/plain", &location, b"");
        return;
    }
    let (status, body) = match pages.get(&path) {
        Some(b) => ("200 OK", b.clone()),
        None if path == "/favicon.ico" => ("404 Not Found", String::new()),
        None => ("200 OK", "pong".to_string()),
    };
    // Module scripts need a JavaScript MIME type (the Test Kit demo app is one).
    let kind = if path.ends_with(".js") {
        "text/javascript"
    } else if path.ends_with(".css") {
        "text/css"
    } else {
        "text/html"
    };
    crate::common::respond(
        &stream,
        status,
        &format!("{kind}; charset=utf-8"),
        "Access-Control-Allow-Origin: *\r\n",
        body.as_bytes(),
    );
}

/// One finished run of the binary.
#[derive(Debug)]
pub struct Out {
    /// Exit code.
    pub code: i32,
    /// Stdout.
    pub stdout: String,
    /// Stderr.
    pub stderr: String,
}

impl Out {
    /// Stdout as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", self.stdout, self.stderr))
    }
}

/// Run `a3s-test args…` in `dir` with a deadline.
pub fn a3s(dir: &Path, args: &[&str]) -> Out {
    let out = crate::common::output_within(
        Command::new(env!("CARGO_BIN_EXE_a3s-test"))
            .args(args)
            .current_dir(dir),
        None,
        TURN,
    );
    Out::from(out)
}

impl From<std::process::Output> for Out {
    fn from(out: std::process::Output) -> Out {
        Out {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// Run and expect exit 0 with JSON on stdout.
pub fn ok(dir: &Path, args: &[&str]) -> Value {
    let out = a3s(dir, args);
    assert_eq!(
        out.code, 0,
        "a3s-test {args:?}: {}\n{}",
        out.stdout, out.stderr
    );
    out.json()
}

/// Run and expect a refusal with `code` (exit 1 or 2, JSON error on stdout).
pub fn refused(dir: &Path, args: &[&str], code: &str) -> Value {
    let out = a3s(dir, args);
    assert_ne!(out.code, 0, "a3s-test {args:?} should fail: {}", out.stdout);
    let v = out.json();
    assert_eq!(v["error"]["code"], code, "{args:?}: {v}");
    v
}

/// A fresh project folder.
pub fn project() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("a3s-agent-")
        .tempdir()
        .unwrap()
}

/// The session record.
pub fn session_json(dir: &Path, id: &str) -> Value {
    let path: PathBuf = dir
        .join(".a3s-test/agent-sessions")
        .join(id)
        .join("session.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The session's owned groups: (supervisor pgid, browser pgid).
pub fn groups(dir: &Path, id: &str) -> (u32, u32) {
    let s = session_json(dir, id);
    let o = &s["ownership"];
    (
        o["supervisor_pgid"].as_u64().unwrap() as u32,
        o["browser_pgid"].as_u64().unwrap() as u32,
    )
}

/// Assert both groups have live members (the session is up).
pub fn assert_alive(groups: (u32, u32)) {
    assert!(
        !a3s_test_web::live_group_members(groups.0).is_empty(),
        "supervisor group"
    );
    assert!(
        !a3s_test_web::live_group_members(groups.1).is_empty(),
        "browser group"
    );
}

/// Assert no process of either group is alive (immediately: finish/abort already verified it).
pub fn assert_gone(groups: (u32, u32)) {
    for g in [groups.0, groups.1] {
        let alive = a3s_test_web::live_group_members(g);
        assert!(
            alive.is_empty(),
            "processes {alive:?} of group {g} survived"
        );
    }
}

/// Wait (bounded) until no process of either group is alive; for expiry, which no command awaits.
pub fn wait_gone(groups: (u32, u32), within: Duration) {
    let alive = || -> Vec<u32> {
        [groups.0, groups.1]
            .iter()
            .flat_map(|g| a3s_test_web::live_group_members(*g))
            .collect()
    };
    // The supervisor is not our child: /proc is the only thing to watch.
    let gone = crate::common::wait_until(within, || alive().is_empty());
    assert!(gone, "processes {:?} survived the idle timeout", alive());
}

/// Start a session and return its groups.
pub fn start(dir: &Path, id: &str, url: &str, extra: &[&str]) -> (u32, u32) {
    let mut args = vec!["agent", "start", url, "--session", id, "--json"];
    args.extend_from_slice(extra);
    let v = ok(dir, &args);
    assert_eq!(v["state"], "active", "{v}");
    let g = groups(dir, id);
    assert_alive(g);
    g
}

/// The control lines (those with a ref) of an observation's JSON outline.
pub fn refs(observation: &Value) -> Vec<Value> {
    observation["lines"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|l| l.get("ref").is_some())
        .cloned()
        .collect()
}

/// The ref whose role and name match, from an observation's JSON.
pub fn ref_of(observation: &Value, role: &str, name: &str) -> String {
    refs(observation)
        .iter()
        .find(|r| r["role"] == role && r["name"] == name)
        .unwrap_or_else(|| panic!("no {role} {name:?} in {observation}"))["ref"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A form with `n` labelled text fields plus a checkbox, a submit button and an output.
pub fn form_page(n: usize) -> String {
    let mut fields = String::new();
    for i in 1..=n {
        fields.push_str(&format!(
            "<label for=\"f{i}\">Field {i}</label><input id=\"f{i}\" name=\"f{i}\">\n"
        ));
    }
    format!(
        r#"<!doctype html><html><head><title>Form</title></head><body>
<h1>Sign up</h1>
<form id="form">
<label for="email">Email</label><input id="email" name="email" placeholder="you@example.com">
{fields}<label><input type="checkbox" id="tos"> Accept terms</label>
<button type="submit">Send</button>
</form>
<p id="out"></p>
<script>
document.getElementById('form').addEventListener('submit', (e) => {{
  e.preventDefault();
  document.getElementById('out').textContent = 'Thanks ' + document.getElementById('email').value;
}});
</script>
</body></html>"#
    )
}

/// `agent <words…> --session <session> --json`: the argv of one turn of a session.
pub fn turn_args<'a>(session: &'a str, words: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["agent"];
    args.extend_from_slice(words);
    args.extend(["--session", session, "--json"]);
    args
}

/// One turn of `session` that must succeed; its JSON answer.
pub fn turn(dir: &Path, session: &str, words: &[&str]) -> Value {
    ok(dir, &turn_args(session, words))
}

/// One turn of `session` that must be refused with `code`; its JSON answer.
pub fn refused_turn(dir: &Path, session: &str, words: &[&str], code: &str) -> Value {
    refused(dir, &turn_args(session, words), code)
}

/// `pages` on a loopback server, a fresh project and a session `id` started on `/` with `extra`
/// arguments: how most session tests begin. The server and the folder are returned so the caller
/// keeps them for the test.
pub fn session_on(
    pages: &[(&str, &str)],
    id: &str,
    extra: &[&str],
) -> (Server, tempfile::TempDir, (u32, u32)) {
    let server = Server::start(pages);
    let dir = project();
    let groups = start(dir.path(), id, &server.url(), extra);
    (server, dir, groups)
}

/// The message of a refusal's JSON answer (`error.message`).
pub fn error_message(refusal: &Value) -> &str {
    refusal["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {refusal}"))
}

/// `html` served at `/` on a loopback server, a fresh project, and the page's URL: for tests that
/// start their sessions themselves. The server and the folder are kept by the caller.
pub fn page_and_project(html: &str) -> (Server, tempfile::TempDir, String) {
    let server = Server::start(&[("/", html)]);
    let url = server.url();
    (server, project(), url)
}

/// `agent start --session <id> --json --<surface> -- <program…>` (`surface` is `gui` or `tui`;
/// no program: the project's own `gui` or `tui` block names it): how the desktop and terminal
/// session tests begin. The session is active and both its groups are alive; the start answer
/// and the groups.
pub fn start_program(dir: &Path, id: &str, surface: &str, program: &[&str]) -> (Value, (u32, u32)) {
    let flag = format!("--{surface}");
    let mut args = vec!["agent", "start", "--session", id, "--json", flag.as_str()];
    if !program.is_empty() {
        args.push("--");
        args.extend_from_slice(program);
    }
    let started = ok(dir, &args);
    assert_eq!(started["state"], "active", "{started}");
    let g = groups(dir, id);
    assert_alive(g);
    (started, g)
}

/// The number of an observation's JSON, as `--observation` takes it.
pub fn observation_number(observation: &Value) -> String {
    observation["observation"]
        .as_u64()
        .unwrap_or_else(|| panic!("no observation number in {observation}"))
        .to_string()
}

/// A browser step sent to a desktop or terminal session: refused at admission
/// (`test.session.schema`), before anything reaches the program.
pub fn browser_step_refused(dir: &Path, id: &str) {
    refused_turn(
        dir,
        id,
        &["exec", "click { target = css(\"a\") }"],
        "test.session.schema",
    );
}

/// `agent finish` of `id` as passed with `summary`: the cleanup is verified and no process of
/// `groups` is left.
pub fn finish_passed(dir: &Path, id: &str, summary: &str, groups: (u32, u32)) {
    let closed = turn(
        dir,
        id,
        &["finish", "--status", "passed", "--summary", summary],
    );
    assert_eq!(closed["cleanup_verified"], true, "{closed}");
    assert_gone(groups);
}

/// `agent promote` of the finished session `id` to `suites/<id>.acl`: `steps` steps in a
/// `surface = "<surface>"` suite, and the `a3s-test run` command the answer prints passes in
/// `run_in`: `dir` itself, or a fresh project the caller prepared (a replay that must not meet
/// what the session left behind), where the suite is copied to the same place and the
/// command's paths in `dir` (the program's working directory) are taken to the same paths. The
/// suite's text, for the caller's own checks.
pub fn promote_and_run(dir: &Path, id: &str, surface: &str, steps: u64, run_in: &Path) -> String {
    let output = format!("suites/{id}.acl");
    let promoted = turn(dir, id, &["promote", "--output", &output]);
    assert_eq!(promoted["steps"], steps, "{promoted}");
    let suite = std::fs::read_to_string(dir.join(&output)).unwrap();
    assert!(
        suite.contains(&format!("surface = \"{surface}\"")),
        "{suite}"
    );
    let next = promoted["next"].as_str().unwrap();
    let mut words: Vec<String> = next.split_whitespace().map(str::to_string).collect();
    assert_eq!(words[..2], ["a3s-test", "run"], "{next}");
    if run_in != dir {
        std::fs::create_dir_all(run_in.join("suites")).unwrap();
        std::fs::write(run_in.join(&output), &suite).unwrap();
        let (from, to) = (dir.display().to_string(), run_in.display().to_string());
        let mut moved = false;
        for word in &mut words {
            if let Some(rest) = word.strip_prefix(from.as_str()) {
                *word = format!("{to}{rest}");
                moved = true;
            }
        }
        assert!(moved, "no path in {} in {next}", dir.display());
    }
    let words: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let run = a3s(run_in, &words);
    assert_eq!(
        run.code, 0,
        "{next}\n{suite}\n{}\n{}",
        run.stdout, run.stderr
    );
    suite
}

/// An MCP tool call that must succeed; its result.
pub fn mcp_ok(mcp: &crate::mcp_pipe::McpClient, name: &str, arguments: Value) -> Value {
    let (v, err) = mcp.result(name, arguments);
    assert!(!err, "{name}: {v}");
    v
}

/// `test_session_start` over MCP with `arguments` (`session` names it): the session is active
/// and both its groups are alive; the groups.
pub fn mcp_start_program(
    mcp: &crate::mcp_pipe::McpClient,
    dir: &Path,
    arguments: Value,
) -> (u32, u32) {
    let id = arguments["session"]
        .as_str()
        .expect("a session id")
        .to_owned();
    let started = mcp_ok(mcp, "test_session_start", arguments);
    assert_eq!(started["state"], "active", "{started}");
    let g = groups(dir, &id);
    assert_alive(g);
    g
}

/// Close session `id` over MCP with `tool` (`test_finish` or `test_abort`) and `arguments`: the
/// cleanup is verified and no process of `groups` is left.
pub fn mcp_close(
    mcp: &crate::mcp_pipe::McpClient,
    tool: &str,
    arguments: Value,
    groups: (u32, u32),
) {
    let closed = mcp_ok(mcp, tool, arguments);
    assert_eq!(closed["cleanup_verified"], true, "{closed}");
    assert_gone(groups);
}

/// The ref of gnome-calculator's button labelled `label` in an observation (GTK 4.8 names it
/// `label label`: its label twice).
pub fn calculator_button(observation: &Value, label: &str) -> String {
    let twice = format!("{label} {label}");
    observation["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no outline in {observation}"))
        .iter()
        .find(|l| l["role"] == "push button" && (l["name"] == label || l["name"] == twice))
        .and_then(|l| l["ref"].as_str())
        .unwrap_or_else(|| panic!("no button {label:?} in {observation}"))
        .to_string()
}

/// gnome-calculator's display in an observation: the value of its editable text.
pub fn calculator_display(observation: &Value) -> String {
    observation["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["role"] == "text")
        .map(|l| l["value"].as_str().unwrap_or("").to_string())
        .unwrap_or_else(|| panic!("no display in {observation}"))
}
