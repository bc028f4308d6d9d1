//! Shared test harness: one tokio runtime and one real Chromium per test binary, a loopback HTTP
//! server for the pages in `tests/pages/`, and helpers that run
//! steps written as ACL statements.
#![allow(dead_code)]

use a3s_test_driver::{
    ConditionSample, ContextOptions, FailureCode, MapVars, StepDetail, StepEnv, StepFailure,
    StepOutput, SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{Action, ExpectCondition, Step, WaitCondition};
use a3s_test_web::{LaunchOptions, WebContext, WebDriver};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

/// Every test body runs on this runtime (the shared browser's tasks live here).
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    })
}

static BASE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// Run a test body with an overall deadline (the page server is started first).
pub fn block_on<F: Future<Output = ()>>(limit: Duration, f: F) {
    runtime().block_on(async move {
        BASE.get_or_init(|| async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            tokio::spawn(serve_requests(listener, respond_to));
            format!("http://{addr}")
        })
        .await;
        tokio::time::timeout(limit, f)
            .await
            .expect("the test exceeded its deadline");
    });
}

/// Run `body` against a fresh page at `tests/pages/<name>`, with an overall deadline, and close
/// the page cleanly after it: the frame of most web tests, written once.
pub fn on_page(limit: Duration, name: &str, body: impl AsyncFnOnce(&mut Page)) {
    block_on(limit, async {
        let mut page = Page::at(name).await;
        body(&mut page).await;
        page.close().await;
    });
}

/// The base URL of the loopback page server.
pub fn base_url() -> &'static str {
    BASE.get().expect("the server starts in block_on")
}

/// The driver shared by the tests of one binary.
pub async fn driver() -> &'static WebDriver {
    static DRIVER: tokio::sync::OnceCell<WebDriver> = tokio::sync::OnceCell::const_new();
    DRIVER
        .get_or_init(|| async {
            WebDriver::launch(LaunchOptions::default())
                .await
                .expect("launch chromium")
        })
        .await
}

/// One HTTP response: status line text, content type, extra header lines (each ending in
/// `\r\n`) and body.
pub type Reply = (&'static str, &'static str, String, Vec<u8>);

/// One request the loopback server read: its method, path (query included), headers (names in
/// lower case) and body.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The value of header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Most bytes of one request the server reads (head and body).
const MAX_REQUEST: usize = 1 << 20;

/// Read one request from `stream` (bounded in size and time), `None` when it does not come.
async fn read_request(stream: &mut tokio::net::TcpStream) -> Option<Request> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let mut read = async |buf: &mut Vec<u8>| -> Option<()> {
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 && buf.len() + n <= MAX_REQUEST => {
                buf.extend_from_slice(&chunk[..n]);
                Some(())
            }
            _ => None,
        }
    };
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        read(&mut buf).await?;
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split_whitespace();
    let method = first.next().unwrap_or("GET").to_string();
    let path = first.next().unwrap_or("/").to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + 4 + length {
        read(&mut buf).await?;
    }
    let body = buf[head_end + 4..head_end + 4 + length].to_vec();
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

/// Serve HTTP/1.1 on `listener` (one request per connection) until it fails, answering each
/// request's path (query included) with `responder`.
pub async fn serve_with<F, R>(listener: tokio::net::TcpListener, responder: F)
where
    F: Fn(String) -> R + Clone + Send + Sync + 'static,
    R: Future<Output = Reply> + Send,
{
    serve_requests(listener, move |request: Request| responder(request.path)).await
}

/// [`serve_with`] for a responder that reads the whole request.
pub async fn serve_requests<F, R>(listener: tokio::net::TcpListener, responder: F)
where
    F: Fn(Request) -> R + Clone + Send + 'static,
    R: Future<Output = Reply> + Send,
{
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            return;
        };
        let responder = responder.clone();
        tokio::spawn(async move {
            let Some(request) = read_request(&mut stream).await else {
                return;
            };
            let (status, ctype, extra, body) = responder(request).await;
            let response = format!(
                "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes()).await;
            let _ = stream.write_all(&body).await;
        });
    }
}

/// `/api/echo`: what the server received, as JSON (the page shows it); anything else by path.
async fn respond_to(request: Request) -> Reply {
    let route = request.path.split('?').next().unwrap_or("");
    if route == "/api/echo" {
        let echo = serde_json::json!({
            "method": request.method,
            "path": request.path,
            "x-test": request.header("x-test"),
            "body": String::from_utf8_lossy(&request.body),
        });
        return (
            "200 OK",
            "application/json",
            String::new(),
            echo.to_string().into_bytes(),
        );
    }
    match route {
        // A sign-in through the UI: the form's GET sets the session cookie.
        "/login" => (
            "200 OK",
            "text/html; charset=utf-8",
            format!("Set-Cookie: session={SESSION}; Path=/; HttpOnly\r\n"),
            b"<!doctype html><title>home</title><p>Signed in</p>".to_vec(),
        ),
        "/api/me" => {
            let signed_in = request
                .header("cookie")
                .is_some_and(|c| c.split("; ").any(|p| p == format!("session={SESSION}")));
            if signed_in {
                let me = br#"{"user":{"name":"Ada","roles":["admin"]}}"#;
                ("200 OK", "application/json", String::new(), me.to_vec())
            } else {
                let out = br#"{"error":"signed out"}"#;
                (
                    "401 Unauthorized",
                    "application/json",
                    String::new(),
                    out.to_vec(),
                )
            }
        }
        _ => respond(&request.path).await,
    }
}

/// The session cookie `/login` sets and `/api/me` asks for.
pub const SESSION: &str = "s3ss10n-ada-7b1";

async fn respond(path: &str) -> Reply {
    let (route, query) = path.split_once('?').unwrap_or((path, ""));
    if let Some(name) = route.strip_prefix("/pages/") {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/pages")
            .join(name);
        if !name.contains("..") {
            if let Ok(body) = std::fs::read(file) {
                return ("200 OK", "text/html; charset=utf-8", String::new(), body);
            }
        }
    }
    match route {
        "/api/users" => (
            "200 OK",
            "application/json",
            String::new(),
            br#"["real-server"]"#.to_vec(),
        ),
        "/download/report.txt" => (
            "200 OK",
            "text/plain",
            "Content-Disposition: attachment; filename=\"report.txt\"\r\n".to_string(),
            b"quarterly report\n".to_vec(),
        ),
        "/slow" => {
            let ms: u64 = query
                .strip_prefix("ms=")
                .and_then(|v| v.parse().ok())
                .unwrap_or(500);
            // Server-side latency being simulated, not test synchronisation.
            tokio::time::sleep(Duration::from_millis(ms)).await;
            ("200 OK", "text/plain", String::new(), b"slow".to_vec())
        }
        _ => (
            "404 Not Found",
            "text/plain",
            String::new(),
            b"not found".to_vec(),
        ),
    }
}

/// A page URL on the loopback server.
pub fn page(name: &str) -> String {
    format!("{}/pages/{name}", base_url())
}

/// The step a statement of ACL text admits to, through the same front end as agent statements
/// (`a3s_test_lang::admit_statement`, docs/acl.md §12), so each test reads as the step it runs.
pub fn acl(source: &str) -> Step {
    a3s_test_lang::admit_statement(source)
        .unwrap_or_else(|diagnostics| panic!("{source:?} is not admitted: {diagnostics:?}"))
}

/// A scenario environment with its own artifact folder.
pub struct Env {
    pub artifacts: tempfile::TempDir,
    /// The artifact folder, opened as the runner hands it over.
    pub artifact_root: a3s_test_fsroot::Dir,
    pub work: tempfile::TempDir,
    pub deadline: Instant,
    pub action_timeout: Duration,
    /// The variables `env("NAME")` texts read (none unless a test sets some).
    pub vars: MapVars,
}

impl Env {
    pub fn new() -> Env {
        let artifacts = tempfile::tempdir().unwrap();
        Env {
            artifact_root: a3s_test_fsroot::Dir::open_anchor(artifacts.path()).unwrap(),
            artifacts,
            work: tempfile::tempdir().unwrap(),
            deadline: Instant::now() + Duration::from_secs(30),
            action_timeout: Duration::from_millis(1500),
            vars: MapVars::default(),
        }
    }

    pub fn step_env(&self) -> StepEnv<'_> {
        StepEnv {
            base_url: Some(base_url()),
            action_timeout: self.action_timeout,
            expect_timeout: Duration::from_millis(1500),
            deadline: self.deadline,
            deadline_name: "scenario",
            artifact_dir: &self.artifact_root,
            working_dir: self.work.path(),
            snapshots: None,
            vars: &self.vars,
        }
    }

    pub fn artifact(&self, rel: &str) -> PathBuf {
        self.artifacts.path().join(rel)
    }

    /// The folder `rel` of the artifact folder, created and opened (a failure capture's).
    pub fn artifact_dir(&self, rel: &str) -> a3s_test_fsroot::Dir {
        self.artifact_root.create_dir_all(rel).unwrap()
    }
}

/// A fresh context on the shared driver.
pub async fn context() -> WebContext {
    driver()
        .await
        .new_context(ContextOptions::default())
        .await
        .expect("open context")
}

/// Run one ACL statement.
pub async fn run(
    ctx: &mut WebContext,
    env: &Env,
    statement: &str,
) -> Result<StepOutput, StepFailure> {
    dispatch(ctx, &acl(statement), &env.step_env()).await
}

/// Run one step as far as the driver owns it: `execute`, except for conditions, which the
/// driver only reads (`check`). An `expect` is one reading here — waiting for it to hold, and
/// stability windows, are the runner's (runner/src/expect.rs, tests/run/web_first.rs); a `wait`
/// on what the page shows reads, watching for changes, until it holds or the deadline passes,
/// so a test can wait for the effect of the step it checks.
pub async fn dispatch(
    ctx: &mut WebContext,
    step: &Step,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    if let Action::Wait {
        condition: WaitCondition::Page(page),
    } = &step.action
    {
        let condition = ExpectCondition::Page(page.clone());
        let started = Instant::now();
        loop {
            let left = env.deadline.saturating_duration_since(Instant::now());
            let watch = left.min(Duration::from_millis(250));
            match ctx.check(&condition, Some(watch), env).await? {
                ConditionSample::Holds(observed) => {
                    return Ok(StepOutput {
                        evidence: Vec::new(),
                        detail: Some(StepDetail::Waited {
                            waited_ms: started.elapsed().as_millis() as u64,
                            observed: Some(observed),
                        }),
                    })
                }
                ConditionSample::Fails { seen, .. } if left.is_zero() => {
                    return Err(StepFailure::new(FailureCode::Timeout, seen))
                }
                ConditionSample::Fails { .. } => {}
            }
        }
    }
    let Action::Expect { expectation } = &step.action else {
        return ctx.execute(step, env).await;
    };
    assert!(
        expectation.stability.is_none(),
        "stability windows are the runner's"
    );
    match ctx.check(&expectation.condition, None, env).await? {
        ConditionSample::Holds(observed) => Ok(StepOutput {
            evidence: Vec::new(),
            detail: Some(StepDetail::Observed {
                observed,
                waited_ms: 0,
            }),
        }),
        ConditionSample::Fails { code, seen } => Err(StepFailure::new(code, seen)),
    }
}

/// Run one ACL statement and check its outcome: `None` means it must pass.
pub async fn outcome(
    ctx: &mut WebContext,
    env: &Env,
    statement: &str,
    want: Option<FailureCode>,
) -> Result<StepOutput, String> {
    step_outcome(ctx, env, &acl(statement), statement, want).await
}

/// Run one admitted step (`what` names it in a panic) and check its outcome: `None` means it
/// must pass. For the few steps admission refuses, which reach the driver only by hand.
pub async fn step_outcome(
    ctx: &mut WebContext,
    env: &Env,
    step: &Step,
    what: &str,
    want: Option<FailureCode>,
) -> Result<StepOutput, String> {
    match (dispatch(ctx, step, &env.step_env()).await, want) {
        (Ok(out), None) => Ok(out),
        (Err(f), Some(code)) => {
            assert_eq!(f.code, code, "{what}: {}", f.message);
            Err(f.message)
        }
        (Ok(out), Some(code)) => panic!("{what} passed ({:?}), expected {code}", out.detail),
        (Err(f), None) => panic!("{what} failed: {} {}", f.code, f.message),
    }
}

/// The step of `statement` with its action changed by `edit`: for a step admission would refuse
/// (asserted here), so the driver's own refusal of it can still be checked.
pub fn refused_by_admission(
    refused: &str,
    statement: &str,
    edit: impl FnOnce(&mut Action),
) -> Step {
    assert!(
        a3s_test_lang::admit_statement(refused).is_err(),
        "{refused:?} is admitted; write it as ACL"
    );
    let mut step = acl(statement);
    edit(&mut step.action);
    step
}

/// Run one ACL statement that must pass.
pub async fn ok(ctx: &mut WebContext, env: &Env, statement: &str) -> StepOutput {
    outcome(ctx, env, statement, None)
        .await
        .expect("a passing outcome")
}

/// Run one ACL statement that must fail with `code`; returns the message.
pub async fn fails(ctx: &mut WebContext, env: &Env, statement: &str, code: FailureCode) -> String {
    outcome(ctx, env, statement, Some(code))
        .await
        .expect_err("a failing outcome")
}

/// The detail of a passing step, which must match `$pattern`: `$value` of its bindings.
#[allow(unused_macros)]
macro_rules! detail {
    ($output:expr, $pattern:pat => $value:expr) => {
        match $output.detail {
            Some($pattern) => $value,
            other => panic!("unexpected step detail {other:?}"),
        }
    };
}

/// `navigate` to a page of `tests/pages/`.
pub fn goto(name: &str) -> String {
    format!("navigate {{ url = \"/pages/{name}\" }}")
}

/// `expect` that the page text contains `text` (written as an ACL string).
pub fn expect_text(text: &str) -> String {
    format!("expect {{ text = {text:?} }}")
}

/// Run ACL statements in order; each must pass.
pub async fn all_pass(ctx: &mut WebContext, env: &Env, statements: &[&str]) {
    for statement in statements {
        ok(ctx, env, statement).await;
    }
}

/// Run ACL statements in order; each must fail with `code`.
pub async fn all_fail(ctx: &mut WebContext, env: &Env, statements: &[String], code: FailureCode) {
    for statement in statements {
        fails(ctx, env, statement, code).await;
    }
}

/// One fresh context on the shared driver with its own scenario environment: the subject of most
/// tests, so each step reads `page.ok(statement)`.
pub struct Page {
    pub ctx: WebContext,
    pub env: Env,
}

impl Page {
    /// A fresh context and environment.
    pub async fn open() -> Page {
        Page {
            ctx: context().await,
            env: Env::new(),
        }
    }

    /// A fresh context and environment, navigated to a page of `tests/pages/`.
    pub async fn at(name: &str) -> Page {
        let mut page = Page::open().await;
        page.ok(&goto(name)).await;
        page
    }

    /// Run one ACL statement that must pass.
    pub async fn ok(&mut self, statement: &str) -> StepOutput {
        ok(&mut self.ctx, &self.env, statement).await
    }

    /// Run one ACL statement that must fail with `code`; returns the message.
    pub async fn fails(&mut self, statement: &str, code: FailureCode) -> String {
        fails(&mut self.ctx, &self.env, statement, code).await
    }

    /// Run one ACL statement and check its outcome: `None` means it must pass.
    pub async fn outcome(
        &mut self,
        statement: &str,
        want: Option<FailureCode>,
    ) -> Result<StepOutput, String> {
        outcome(&mut self.ctx, &self.env, statement, want).await
    }

    /// Run one hand-built step (see [`refused_by_admission`]) and check its outcome.
    pub async fn step_outcome(
        &mut self,
        step: &Step,
        what: &str,
        want: Option<FailureCode>,
    ) -> Result<StepOutput, String> {
        step_outcome(&mut self.ctx, &self.env, step, what, want).await
    }

    /// Run ACL statements in order; each must pass.
    pub async fn all_pass(&mut self, statements: &[&str]) {
        all_pass(&mut self.ctx, &self.env, statements).await
    }

    /// Run ACL statements in order; each must fail with `code`.
    pub async fn all_fail(&mut self, statements: &[String], code: FailureCode) {
        all_fail(&mut self.ctx, &self.env, statements, code).await
    }

    /// Close the context (it must close cleanly).
    pub async fn close(self) {
        self.ctx.close().await.unwrap();
    }
}
