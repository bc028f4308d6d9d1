//! `a3s-test contract check CONTRACT --url URL`: reconcile an admitted contract against the
//! rendered page in Chromium — each expectation met, missing or different, with what was seen.
//! Exit 0 when every expectation is met, 1 when one is not, 2 when the input is not a contract
//! or the URL is not one, as `run`.

use super::{refuse, Exit};
use a3s_test_driver::api::{AgentContext, ContextOptions, StepEnv, SurfaceContext, SurfaceDriver};
use a3s_test_lang::ir::{AdmittedDocument, Contract};
use a3s_test_provider::contract::{ContractCode, ContractError};
use a3s_test_runner::contract::read::reconcile;
use a3s_test_runner::contract::ContractReport;
use a3s_test_web::{LaunchOptions, WebDriver};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `contract check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The contract (`contract "id" { … }`).
    contract: PathBuf,
    /// The app's address; each route's path is joined to it.
    #[arg(long)]
    url: String,
    /// `list` (a line per expectation) or `json` (the typed report on standard output).
    #[arg(long, default_value = "list", value_parser = ["list", "json"])]
    reporter: String,
    /// Also write the JSON report here (atomically).
    #[arg(long, value_name = "FILE")]
    json_out: Option<PathBuf>,
    /// Chromium executable (beats `A3S_TEST_BROWSER`).
    #[arg(long)]
    browser: Option<PathBuf>,
    /// The whole check's deadline, browser start included, in milliseconds.
    #[arg(long, default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    timeout_ms: u64,
}

/// Run `contract check`.
pub fn run(args: CheckArgs) -> ExitCode {
    let contract = match admitted(&args.contract) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let base = match url::Url::parse(&args.url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => u,
        _ => {
            let e = ContractError::new(
                ContractCode::Url,
                format!("`{}` is not an absolute http(s) URL", args.url),
            );
            return refuse(&e, Exit::InvalidInput);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: no async runtime: {e}");
            return Exit::Failed.into();
        }
    };
    let executable = args.browser.clone().or_else(|| {
        std::env::var_os(a3s_test_web::BROWSER_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    });
    let budget = Duration::from_millis(args.timeout_ms);
    let outcome = runtime.block_on(async {
        let deadline = tokio::time::Instant::now() + budget;
        tokio::time::timeout(budget, check(&contract, &base, executable, deadline)).await
    });
    let report = match outcome {
        Ok(Ok(r)) => r,
        Ok(Err(message)) => {
            eprintln!("error: {message}");
            return Exit::Failed.into();
        }
        Err(_) => {
            eprintln!(
                "error: the check did not finish within {} ms",
                args.timeout_ms
            );
            return Exit::TimedOut.into();
        }
    };
    let json = serde_json::to_string_pretty(&report).unwrap_or_default();
    if let Some(path) = &args.json_out {
        if let Err(e) = a3s_test_driver::atomic::write_atomic(
            path,
            json.as_bytes(),
            ".contract-report-",
            a3s_test_driver::atomic::Permissions::Mode(0o644),
        ) {
            let e = ContractError::new(ContractCode::Output, format!("{}: {e}", path.display()));
            return refuse(&e, Exit::Failed);
        }
    }
    if args.reporter == "json" {
        println!("{json}");
    } else {
        print!("{}", report.render());
    }
    if report.passed() {
        Exit::Success.into()
    } else {
        Exit::Failed.into()
    }
}

/// The admitted contract in `path`, or the exit after printing why not.
fn admitted(path: &PathBuf) -> Result<Contract, ExitCode> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            let e = ContractError::new(
                ContractCode::NotAContract,
                format!("{}: {e}", path.display()),
            );
            return Err(refuse(&e, Exit::InvalidInput));
        }
    };
    let admission = a3s_test_lang::admit_bytes(&bytes);
    match admission.document {
        Some(AdmittedDocument::Contract(c)) => Ok(c),
        other => {
            let text = String::from_utf8_lossy(&bytes);
            let name = path.display().to_string();
            eprint!(
                "{}",
                a3s_test_lang::render::render(
                    a3s_test_lang::render::Format::Human,
                    a3s_test_lang::render::Colour::Never,
                    &name,
                    &text,
                    &admission.diagnostics
                )
            );
            let why = if other.is_some() {
                "holds another root than `contract`"
            } else {
                "is not admitted"
            };
            let e = ContractError::new(ContractCode::NotAContract, format!("{name} {why}"));
            Err(refuse(&e, Exit::InvalidInput))
        }
    }
}

/// Launch Chromium, reconcile in a fresh context, close everything.
async fn check(
    contract: &Contract,
    base: &url::Url,
    executable: Option<PathBuf>,
    deadline: tokio::time::Instant,
) -> Result<ContractReport, String> {
    let driver = WebDriver::launch(LaunchOptions {
        executable,
        launch_timeout: deadline.saturating_duration_since(tokio::time::Instant::now()),
        reap_at_exit: true,
        ..LaunchOptions::default()
    })
    .await
    .map_err(|e| format!("{}: {}", e.code, e.message))?;
    let result = async {
        let mut ctx = driver
            .new_context(ContextOptions::default())
            .await
            .map_err(|e| format!("{}: {}", e.code, e.message))?;
        let scratch = tempfile::tempdir().map_err(|e| format!("no scratch folder: {e}"))?;
        let dir = a3s_test_fsroot::Dir::open_anchor(scratch.path())
            .map_err(|e| format!("no scratch folder: {e}"))?;
        let working = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let env = StepEnv {
            base_url: None,
            action_timeout: Duration::from_secs(10),
            expect_timeout: Duration::from_secs(5),
            deadline,
            deadline_name: "check",
            artifact_dir: &dir,
            working_dir: &working,
            snapshots: None,
            vars: &a3s_test_driver::vars::ProcessVars::RUN,
        };
        let report = reconcile(&mut ctx, contract, base, &env)
            .await
            .map_err(|f| format!("{}: {}", f.code, f.message));
        let _ = ctx.close().await;
        report
    }
    .await;
    let _ = driver.shutdown().await;
    result
}

/// Keeps the trait in scope for `close` (a `SurfaceContext` method) and documents that the
/// context must also answer the agent surface's read-only questions.
fn _bounds<C: AgentContext + SurfaceContext>() {}
