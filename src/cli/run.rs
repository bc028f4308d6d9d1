//! `a3s-test run`: admit every suite, plan, run the scenarios in real Chromium, report, exit.
//!
//! This file is the shell around `a3s-test-runner`: it parses arguments, prints admission
//! diagnostics (and stops with exit 2 before any browser opens), reads the project configuration,
//! wires the reporters to the event stream, installs the Ctrl+C handler and turns the result into
//! the exit code. The flow itself lives in the runner (`run::run`).
//!
//! Output: the live terminal reporter writes to stdout — or to stderr when `--json` puts the
//! result document on stdout. `--junit FILE` writes JUnit XML, `--html DIR` an HTML report.
//! `--reporter github` (the default when `GITHUB_ACTIONS=true`) adds GitHub Actions annotations to
//! the live stream after the summary. Paths in the terminal output are relative to the working
//! directory.
//!
//! Selection: `--filter`/`--tag`/`--shard` make the plan, `--last-failed` then keeps only what did
//! not pass cleanly in the previous run (`<output-dir>/last-run.json`, rewritten after every run),
//! and `--list` prints that plan instead of running it ([`super::run_list`]). `--retries N` runs a
//! failed scenario again up to N times; one that passes on a retry is flaky, which fails the run
//! only with `--fail-on-flaky`.

use super::output::{render_file, FormatArg, Stream};
use super::report_outputs::ReportOutputs;
use super::web_launcher::WebLauncher;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::snapshot::UpdateSnapshots;
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::{AdmittedDocument, ProjectConfig};
use a3s_test_runner::admit::{admit_files, AdmittedFile, RejectedFile, Rejection};
use a3s_test_runner::cancel::CancelToken;
use a3s_test_runner::event::EventSender;
use a3s_test_runner::evidence::{output_location, under_state_dir, ArtifactRoot};
use a3s_test_runner::executor::ExecutorConfig;
use a3s_test_runner::exit::Exit;
use a3s_test_runner::filter::Glob;
use a3s_test_runner::include::Libraries;
use a3s_test_runner::jobs::JobsCap;
use a3s_test_runner::last_run::LastRun;
use a3s_test_runner::plan::{plan, Plan, PlanOptions, Shard};
use a3s_test_runner::reporter::set::Reporters;
use a3s_test_runner::result::ShardRecord;
use a3s_test_runner::run::{run as run_plan, RunConfig};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Where the project configuration is looked for when `--project` is not given.
pub const DEFAULT_PROJECT: &str = ".a3s-test/project.acl";
/// Where run folders go when `--output-dir` is not given.
pub const DEFAULT_OUTPUT_DIR: &str = ".a3s-test";
/// Bound on starting the browser (shared by all scenarios, so it is not part of one scenario's
/// deadline).
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);
/// Bound on each cleanup action: failure capture, context close, browser shutdown.
pub const CLEANUP_BOUND: Duration = Duration::from_secs(5);

/// Arguments of `a3s-test run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Suite files or folders (searched recursively for `*.acl`).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Run only scenarios whose id (`suite/scenario`, or the bare scenario id) matches this glob;
    /// repeatable (any match selects).
    #[arg(long, value_name = "GLOB")]
    pub filter: Vec<Glob>,
    /// Run only scenarios carrying this tag; repeatable (any tag selects).
    #[arg(long, value_name = "TAG")]
    pub tag: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub selection: super::run_selection::SelectionArgs,
    /// Run shard `i` of `n` (1-based): shards of equal expected time by the recorded durations
    /// (--durations, else the output folder's history), a stable hash of each scenario id for
    /// scenarios without one.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// The durations --shard balances by: a `durations.json` or a run's --json result (e.g.
    /// the merged result of the last CI run) [default: <output-dir>/durations.json].
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub durations: Option<PathBuf>,
    /// Scenarios run at once [default: number of CPU cores; at most 8 per core and one per
    /// 128 MiB of available memory].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportOutputs,
    /// The live reporter [default: github when GITHUB_ACTIONS=true, terminal otherwise].
    #[arg(long, value_enum, value_name = "NAME")]
    pub reporter: Option<ReporterArg>,
    /// Chromium executable (beats `A3S_TEST_BROWSER` and the project's `browser.executable`).
    #[arg(long, value_name = "PATH")]
    pub browser: Option<PathBuf>,
    /// Attach to a running browser's DevTools endpoint (`ws://…`, or `http://host:port`) instead
    /// of launching one; its contexts are closed after the run, the browser is left running.
    #[arg(long, value_name = "URL")]
    pub browser_endpoint: Option<String>,
    /// Show the browser window.
    #[arg(long)]
    pub headed: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub grid: super::grid::GridArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub tui: super::surfaces::TuiArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub gui: super::gui_launcher::GuiArgs,
    /// Project configuration [default: .a3s-test/project.acl when it exists].
    #[arg(long, value_name = "FILE")]
    pub project: Option<PathBuf>,
    /// Folder for run artifacts (`<dir>/runs/<run-id>/`).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_OUTPUT_DIR)]
    pub output_dir: PathBuf,
    /// Resolve relative `navigate` URLs against this instead of each suite's `base_url`.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Run a scenario that failed on the product or timed out again, in a fresh browser context,
    /// up to N more times; one that passes on a retry is reported as flaky.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=MAX_RETRIES))]
    pub retries: u32,
    /// A flaky scenario (passed only on a retry) fails the run (exit 1).
    #[arg(long)]
    pub fail_on_flaky: bool,
    /// Write snapshot baselines (`--update-snapshots[=MODE]`): `all` (the flag alone) writes missing ones and rewrites those
    /// that differ (screenshots in `<suite>.snapshots/`, `aria_snapshot` outlines in the suite
    /// file); `missing` writes only missing ones; `none` writes nothing. Without the flag a
    /// missing baseline is written (and still fails) except in CI, where nothing is.
    #[arg(
        long,
        value_name = "MODE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all"
    )]
    pub update_snapshots: Option<UpdateSnapshotsArg>,
    /// How long an `expect` waits for its condition when its step, scenario and suite do not
    /// say [default: the project's `expect_timeout_ms`, else 5000]; always capped by the
    /// scenario deadline.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub expect_timeout_ms: Option<u64>,
    /// Print the planned scenarios (after every selection flag) and run nothing.
    #[arg(long)]
    pub list: bool,
    /// Run only the scenarios that did not pass cleanly in the previous run with this output
    /// folder (failed, timed out, cancelled or flaky); every scenario when there is no record.
    #[arg(long)]
    pub last_failed: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub trace: super::run_trace::TraceArgs,
}

/// Most retries `--retries` accepts (a scenario runs at most this + 1 times).
pub const MAX_RETRIES: i64 = 100;
/// The `--reporter` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReporterArg {
    /// Lines per scenario and a summary (a progress line on a terminal).
    Terminal,
    /// The terminal output plus one GitHub Actions `::error` annotation per failed step.
    Github,
}

impl ReporterArg {
    /// `--reporter` when given; otherwise github inside GitHub Actions (`GITHUB_ACTIONS=true`).
    pub fn choose(explicit: Option<ReporterArg>, github_actions: Option<&std::ffi::OsStr>) -> Self {
        match explicit {
            Some(chosen) => chosen,
            None if github_actions.is_some_and(|v| v == "true") => ReporterArg::Github,
            None => ReporterArg::Terminal,
        }
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(Exit::InvalidInput)
}

/// Run `run`: admit, select, read the project, prepare the outputs, execute — each a named step
/// below that either hands its product to the next or ends the command with its exit code.
pub fn run(args: RunArgs) -> ExitCode {
    match run_steps(args) {
        Ok(code) | Err(code) => code,
    }
}

fn run_steps(args: RunArgs) -> Result<ExitCode, ExitCode> {
    // First of all, so a Ctrl+C at any moment of the run (even while suites are admitted) ends
    // it with 130 instead of killing it by the signal.
    let cancel = CancelToken::new();
    if let Err(e) = a3s_test_runner::signals::install(cancel.clone()) {
        eprintln!("warning: failed to install the Ctrl+C handler: {e}");
    }
    become_subreaper();
    let project = load_project(args.project.as_deref())?;
    let project_dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let libraries = included(&project_dir, project.as_ref())?;
    let admitted = admit(&args.paths, &libraries)?;
    let refine = args.selection.refine(&admitted)?;
    let output = output_location(&project_dir, &args.output_dir);
    let state = project.as_ref().and_then(|p| p.storage_state.clone());
    let selection = select(&args, &admitted, &output, refine, state)?;
    if args.list {
        return Ok(list(&selection.plan, args.report.json));
    }
    let config = run_config(
        &args,
        project.as_ref(),
        &output,
        &project_dir,
        selection.shard,
    )?;
    let grid = grid_settings(
        &args,
        config.executor.jobs,
        project.as_ref().and_then(|p| p.grid.as_deref()),
    )?;
    let reporters = reporters(&args, &project_dir)?;
    let (plan, project_ref) = (&selection.plan, project.as_ref());
    let programs = (&args.tui, &args.gui);
    let (web, grid) = match grid {
        Some(grid) => {
            let (web, sessions) = grid.launcher().map_err(fail)?;
            let surfaces =
                super::surfaces::launchers(plan, web, programs, project_ref, &project_dir);
            (WebEngine::Grid(surfaces.map_err(fail)?), Some(sessions))
        }
        None => {
            let web = launcher(&args, project_ref);
            let surfaces =
                super::surfaces::launchers(plan, web, programs, project_ref, &project_dir);
            (WebEngine::Local(surfaces.map_err(fail)?), None)
        }
    };
    if cancel.is_cancelled() {
        eprintln!("a3s-test: interrupted before the run began; nothing was started");
        return Err(ExitCode::from(Exit::Interrupted));
    }
    let run = Execution {
        plan: selection.plan,
        config,
        reporters,
        output_dir: output,
        cancel,
        grid,
    };
    Ok(match web {
        WebEngine::Local(launcher) => execute(run, launcher),
        WebEngine::Grid(launcher) => execute(run, launcher),
    })
}

/// Where web scenarios run: a browser of this machine (launched or attached), or a Grid.
enum WebEngine {
    Local(super::surfaces::RunLauncher),
    Grid(
        a3s_test_runner::surfaces::Surfaces<
            super::grid::GridLauncher,
            super::surfaces::TuiLauncher,
            super::gui_launcher::GuiLauncher,
        >,
    ),
}

/// `--grid`, `A3S_TEST_GRID` or the project's `grid` block (the last two only when no local browser
/// was asked for); exit 2 for an unusable one.
fn grid_settings(
    args: &RunArgs,
    jobs: usize,
    project: Option<&a3s_test_lang::ir::GridConfig>,
) -> Result<Option<super::grid::GridSettings>, ExitCode> {
    let env = std::env::var(super::grid::GRID_ENV).ok();
    let local = args.browser.is_some() || args.browser_endpoint.is_some();
    super::grid::settings(&args.grid, env, local, jobs, project).map_err(fail)
}

/// What step 5 runs, besides the launcher.
struct Execution {
    plan: Plan,
    config: RunConfig,
    reporters: Reporters,
    output_dir: ConfinedPath,
    cancel: CancelToken,
    /// The run's Grid sessions, released after the run whatever its end.
    grid: Option<super::grid::Sessions>,
}

/// Orphaned browser helpers must stay in our subtree so the final sweep can find them.
fn become_subreaper() {
    if let Err(e) = a3s_test_runner::process_tree::become_subreaper() {
        eprintln!("warning: failed to become a child subreaper ({e}); leftover processes may go unnoticed");
    }
}

/// Step 1: discover and admit every suite before anything opens; print warnings, and stop with
/// exit 2 (every rejected file's diagnostics printed) unless all were admitted.
fn admit(paths: &[PathBuf], libraries: &Libraries) -> Result<Vec<AdmittedFile>, ExitCode> {
    let files = a3s_test_runner::discover::discover(paths).map_err(fail)?;
    let admission = admit_files(&files, libraries);
    let colour = Stream::Stderr.colour();
    for file in &admission.admitted {
        if !file.warnings.is_empty() {
            Stream::Stderr.write(&render_file(
                FormatArg::Human,
                colour,
                &file.source.display(),
                &file.source.text,
                &file.warnings,
            ));
        }
    }
    if admission.is_clean() {
        return Ok(admission.admitted);
    }
    print_rejected(&admission.rejected);
    let n = admission.rejected.len();
    eprintln!(
        "error: {n} file{} not admitted; nothing was run",
        if n == 1 { " was" } else { "s were" }
    );
    Err(ExitCode::from(Exit::InvalidInput))
}

/// The libraries the project file's `include` names, admitted before any suite (a suite's
/// `use` may call their groups); every problem printed, then exit 2.
pub(super) fn included(
    project_dir: &Path,
    project: Option<&ProjectConfig>,
) -> Result<Libraries, ExitCode> {
    let patterns = project.map(|p| p.include.as_slice()).unwrap_or_default();
    if patterns.is_empty() {
        return Ok(Libraries::new());
    }
    a3s_test_runner::include::include(project_dir, patterns).map_err(|rejected| {
        print_rejected(&rejected);
        eprintln!("error: the project's `include` did not admit; nothing was run");
        ExitCode::from(Exit::InvalidInput)
    })
}

/// Every rejected file's diagnostics or reason, on stderr.
fn print_rejected(rejected: &[RejectedFile]) {
    let colour = Stream::Stderr.colour();
    for rejected in rejected {
        let name = rejected.source.display();
        match &rejected.rejection {
            Rejection::Diagnostics(diagnostics) => Stream::Stderr.write(&render_file(
                FormatArg::Human,
                colour,
                &name,
                &rejected.source.text,
                diagnostics,
            )),
            Rejection::Unreadable(e) => eprintln!("error: failed to read `{name}`: {e}"),
            Rejection::NotASuite => {
                eprintln!("error: `{name}` is a project configuration, not a suite; pass it with --project")
            }
            Rejection::DuplicateGroup { name: group, first } => eprintln!(
                "error: `{name}` defines the group \"{group}\" that `{first}` already defines; rename one of them"
            ),
            Rejection::NotALibrary => eprintln!(
                "error: `{name}` is included by the project file but is not a `library \"id\" {{ … }}`"
            ),
        }
    }
}

/// What step 2 selected: the plan to run, and (for `--shard`) what the whole run selected.
struct Selection {
    plan: Plan,
    shard: Option<ShardRecord>,
}

/// Step 2: plan with `--filter`/`--tag`/`--shard`, then `--last-failed`; a shard records what
/// the whole run selected, so `merge-reports` can check its shards belong together.
fn select(
    args: &RunArgs,
    admitted: &[AdmittedFile],
    output: &ConfinedPath,
    refine: super::run_selection::Refinement,
    storage_state: Option<a3s_test_lang::ir::StatePath>,
) -> Result<Selection, ExitCode> {
    let durations = match args.shard {
        Some(_) => shard_durations(args.durations.as_deref(), output)?,
        None => None,
    };
    let options = PlanOptions {
        filters: args.filter.clone(),
        tags: args.tag.clone(),
        shard: args.shard,
        exclude_tags: refine.exclude_tags,
        grep: refine.grep,
        grep_invert: refine.grep_invert,
        storage_state,
        durations,
    };
    let mut plan = plan(admitted, &options).map_err(refuse_plan)?;
    if args.last_failed {
        keep_last_failed(&mut plan, output);
        let state = options.storage_state.as_ref();
        a3s_test_runner::plan::dependencies::pull_in(&mut plan.scenarios, admitted, state);
    }
    let shard = match args.shard {
        Some(shard) => {
            let durations = options.durations.clone();
            let unsharded = PlanOptions {
                shard: None,
                ..options
            };
            let ids = plan_ids(admitted, &unsharded).map_err(refuse_plan)?;
            if let Some(durations) = &durations {
                note_balance(shard, &ids, durations);
            }
            Some(ShardRecord::new(
                shard.index,
                shard.count,
                ids.iter().map(String::as_str),
            ))
        }
        None => None,
    };
    Ok(Selection { plan, shard })
}

/// The durations `--shard` balances by: `--durations FILE` (unreadable: exit 2), else the output
/// folder's history (unreadable: a warning, and the hash alone); `None` when there are none.
fn shard_durations(
    file: Option<&Path>,
    output: &ConfinedPath,
) -> Result<Option<std::sync::Arc<a3s_test_runner::plan::balance::DurationMap>>, ExitCode> {
    use a3s_test_runner::durations;
    let map = match file {
        Some(file) => Some(durations::read_file(file).map_err(fail)?),
        None => durations::read_history(output).unwrap_or_else(|e| {
            eprintln!("warning: {e}; --shard falls back to the hash of each scenario id");
            None
        }),
    };
    Ok(map.filter(|m| !m.is_empty()).map(std::sync::Arc::new))
}

/// What a duration-balanced shard expects: how many selected scenarios have a recorded
/// duration, and each shard's expected time (stderr, so `--list --json` stays clean).
fn note_balance(
    shard: Shard,
    ids: &[String],
    durations: &a3s_test_runner::plan::balance::DurationMap,
) {
    use a3s_test_runner::plan::balance;
    let shards = balance::partition(ids, shard.count, durations);
    let loads = balance::expected_loads(ids, &shards, shard.count, durations);
    let known = ids.iter().filter(|id| durations.contains_key(*id)).count();
    let seconds: Vec<String> = loads
        .iter()
        .map(|ms| format!("{:.1}s", *ms as f64 / 1000.0))
        .collect();
    eprintln!(
        "note: --shard {shard} balanced by recorded durations ({known} of {} scenarios known);          expected time per shard: {}",
        ids.len(),
        seconds.join(", ")
    );
}

/// A plan that cannot be made: its code when it has one, exit 2.
fn refuse_plan(e: a3s_test_runner::plan::PlanError) -> ExitCode {
    match e.code() {
        Some(code) => {
            eprintln!("error[{code}]: {e}");
            ExitCode::from(Exit::InvalidInput)
        }
        None => fail(e),
    }
}

/// `--list`: print the plan instead of running it.
fn list(plan: &Plan, json: bool) -> ExitCode {
    let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
    match super::run_list::print(plan, json, &mut out, &mut err) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format_args!("failed to print the plan: {e}")),
    }
}

/// Step 4: the reporters the output flags ask for, files opened before any browser starts.
fn reporters(args: &RunArgs, cwd: &Path) -> Result<Reporters, ExitCode> {
    let github = ReporterArg::choose(args.reporter, std::env::var_os("GITHUB_ACTIONS").as_deref())
        == ReporterArg::Github;
    let options = args.report.options(github, true, cwd);
    Reporters::from_options(&options).map_err(fail)
}

/// Step 3: the run's id, its artifact folder (`test.run.unsafe_path` for a link on the way,
/// before any browser) and the executor's settings.
fn run_config(
    args: &RunArgs,
    project: Option<&ProjectConfig>,
    output: &ConfinedPath,
    cwd: &Path,
    shard: Option<ShardRecord>,
) -> Result<RunConfig, ExitCode> {
    let started_at = time::OffsetDateTime::now_utc();
    let run_id = a3s_test_runner::run_id::new_run_id(started_at);
    let artifacts = ArtifactRoot::create(output, &run_id).map_err(|e| {
        eprintln!("error[{}]: {e}", e.code());
        ExitCode::from(Exit::InvalidInput)
    })?;
    let expect_timeout = Duration::from_millis(
        args.expect_timeout_ms
            .or_else(|| project.and_then(|p| p.expect_timeout_ms))
            .unwrap_or(a3s_test_lang::ir::DEFAULT_EXPECT_TIMEOUT_MS),
    );
    let jobs = args.jobs.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let trace = args.trace.config(project, output, cwd)?;
    // More jobs than the machine holds only turn load into failures: run at the cap, say so.
    let (jobs, capped) = JobsCap::of_this_machine().apply(jobs);
    if let Some(line) = capped {
        eprintln!("warning: {line}");
    }
    Ok(RunConfig {
        run_id,
        started_at,
        executor: ExecutorConfig {
            jobs,
            artifacts,
            working_dir: cwd.to_path_buf(),
            base_url: args.base_url.clone(),
            launch_timeout: LAUNCH_TIMEOUT,
            cleanup_bound: CLEANUP_BOUND,
            retries: args.retries,
            expect_timeout,
            context: project.map(|p| p.context.clone()).unwrap_or_default(),
            update_snapshots: update_snapshots(args.update_snapshots, crate::cli::in_ci()),
            trace,
        },
        dev_server: project.and_then(|p| p.dev_server.clone()),
        in_ci: crate::cli::in_ci(),
        sweep_processes: true,
        fail_on_flaky: args.fail_on_flaky,
        shard,
    })
}

/// `--update-snapshots [MODE]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UpdateSnapshotsArg {
    /// Write missing baselines and rewrite those that differ.
    All,
    /// Write only missing baselines.
    Missing,
    /// Write nothing.
    None,
}

/// What the run writes: the flag as given; without it, missing baselines outside CI (as
/// Playwright does) and nothing in CI.
fn update_snapshots(arg: Option<UpdateSnapshotsArg>, in_ci: bool) -> UpdateSnapshots {
    match arg {
        Some(UpdateSnapshotsArg::All) => UpdateSnapshots::All,
        Some(UpdateSnapshotsArg::Missing) => UpdateSnapshots::Missing,
        Some(UpdateSnapshotsArg::None) => UpdateSnapshots::None,
        None if in_ci => UpdateSnapshots::None,
        None => UpdateSnapshots::MissingFails,
    }
}

/// The browser: `--browser`, else `A3S_TEST_BROWSER`, else the project's `browser.executable`.
fn launcher(args: &RunArgs, project: Option<&ProjectConfig>) -> WebLauncher {
    let browser = project.and_then(|p| p.browser.as_ref());
    let executable = args
        .browser
        .clone()
        .or_else(|| {
            std::env::var_os(a3s_test_web::BROWSER_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .or_else(|| {
            browser
                .and_then(|b| b.executable.clone())
                .map(PathBuf::from)
        });
    WebLauncher {
        executable,
        headed: args.headed || browser.is_some_and(|b| b.headed),
        endpoint: args.browser_endpoint.clone(),
    }
}

/// Step 5: execute the plan, feeding every event to the reporters as it comes (and the progress
/// line on a timer); record the run for `--last-failed`; the result's exit code.
fn execute<L: a3s_test_runner::executor::DriverLauncher>(run: Execution, launcher: L) -> ExitCode {
    let Execution {
        plan,
        config,
        mut reporters,
        output_dir,
        cancel,
        grid,
    } = run;
    let sharded = config.shard.is_some();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail(format_args!("failed to start the async runtime: {e}")),
    };
    let code = runtime.block_on(async move {
        let (events, mut rx) = EventSender::channel();
        let start = events.start();
        let runner =
            tokio::spawn(async move { run_plan(&plan, launcher, config, events, cancel).await });
        let mut ticker = tokio::time::interval(Duration::from_millis(100));
        loop {
            tokio::select! {
                event = rx.recv() => {
                    let Some(event) = event else { break };
                    for failure in reporters.report(&event) {
                        eprintln!("error: {failure}");
                    }
                }
                _ = ticker.tick() => reporters.tick(start.elapsed()),
            }
        }
        let code = match runner.await {
            Ok(result) => {
                // The result file first: `last-run.json` names the run whose result it is.
                if let Err(e) = a3s_test_runner::candidates::write_result(&output_dir, &result) {
                    eprintln!("warning: {e}; the Review Overlay cannot offer this run's failures");
                }
                if let Err(e) = LastRun::of(&result).write(&output_dir) {
                    eprintln!("warning: {e}; the next --last-failed cannot use this run");
                }
                // A shard's run leaves the history alone: every shard of a matrix run one after
                // another in this folder must read the same durations to agree on the partition.
                if !sharded {
                    if let Err(e) = a3s_test_runner::durations::record(&output_dir, &result) {
                        eprintln!("warning: {e}; the next --shard cannot balance by this run");
                    }
                }
                result.exit_code
            }
            Err(e) => {
                eprintln!("error: the run failed internally: {e}");
                Exit::InvalidInput
            }
        };
        match grid {
            Some(sessions) => release_grid(&sessions, code).await,
            None => code,
        }
    });
    // Don't wait for stray blocking tasks (a wedged CDP read) at exit: everything owned is reaped.
    runtime.shutdown_timeout(Duration::from_millis(100));
    ExitCode::from(code)
}

/// After any run on a Grid: every session it still holds deleted (those its drivers did not
/// delete, and those answered after a Ctrl+C gave up waiting). A session left behind is a
/// cleanup failure: exit 2 unless the run was interrupted.
async fn release_grid(sessions: &super::grid::Sessions, code: Exit) -> Exit {
    let failures = sessions.release_all(CLEANUP_BOUND).await;
    for failure in &failures {
        eprintln!("error[{}]: {}", FailureCode::CleanupFailed, failure.0);
    }
    match code {
        Exit::Interrupted => code,
        _ if failures.is_empty() => code,
        _ => Exit::InvalidInput,
    }
}

/// `--last-failed`: keep the scenarios the previous run's record names; without a usable record,
/// say so and keep them all (as Playwright does).
fn keep_last_failed(plan: &mut Plan, output_dir: &ConfinedPath) {
    match LastRun::read(output_dir) {
        Ok(Some(record)) => {
            let ids = record.ids();
            plan.scenarios.retain(|s| ids.contains(&s.id.to_string()));
            eprintln!(
                "note: --last-failed: {} scenario{} did not pass in run {}; {} of them selected",
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                record.run_id,
                plan.scenarios.len()
            );
        }
        Ok(None) => eprintln!(
            "note: --last-failed: no record of a previous run at `{}`; running every selected scenario",
            LastRun::path(output_dir).display()
        ),
        Err(e) => eprintln!("warning: --last-failed: {e}; running every selected scenario"),
    }
}

/// The ids a plan with `options` selects, in plan order.
fn plan_ids(
    files: &[AdmittedFile],
    options: &PlanOptions,
) -> Result<Vec<String>, a3s_test_runner::plan::PlanError> {
    Ok(plan(files, options)?
        .scenarios
        .iter()
        .filter(|p| !p.dependency_only)
        .map(|p| p.id.to_string())
        .collect())
}

/// Read and admit the project configuration: `--project`, or the default path when it exists.
pub(super) fn load_project(explicit: Option<&Path>) -> Result<Option<ProjectConfig>, ExitCode> {
    let path = explicit.unwrap_or(Path::new(DEFAULT_PROJECT)).to_path_buf();
    let bytes = match read_project_file(&path) {
        Ok(bytes) => bytes,
        Err(e) if explicit.is_none() && e.is_not_found() => return Ok(None),
        Err(ProjectReadError::Confined(e)) if e.is_refusal() => {
            eprintln!("error[{}]: {e}", FailureCode::UnsafePath);
            return Err(ExitCode::from(Exit::InvalidInput));
        }
        Err(e) => {
            return Err(fail(format_args!(
                "failed to read project `{}`: {e}",
                path.display()
            )))
        }
    };
    let admission = a3s_test_lang::admit_bytes(&bytes);
    let text = String::from_utf8_lossy(&bytes);
    let name = path.display().to_string();
    if !admission.diagnostics.is_empty() {
        Stream::Stderr.write(&render_file(
            FormatArg::Human,
            Stream::Stderr.colour(),
            &name,
            &text,
            &admission.diagnostics,
        ));
    }
    match admission.document {
        Some(AdmittedDocument::Project(project)) => Ok(Some(project)),
        Some(
            AdmittedDocument::Suite(_)
            | AdmittedDocument::Library(_)
            | AdmittedDocument::Contract(_),
        ) => Err(fail(format_args!(
            "`{name}` is a suite or library, not a project configuration"
        ))),
        None => Err(ExitCode::from(Exit::InvalidInput)),
    }
}

/// Why the project file could not be read.
#[derive(Debug, thiserror::Error)]
enum ProjectReadError {
    /// A file in the project's `.a3s-test`, refused or unreadable.
    #[error("{0}")]
    Confined(#[from] a3s_test_fsroot::FsError),
    /// A file named elsewhere.
    #[error("{0}")]
    Plain(#[from] std::io::Error),
}

impl ProjectReadError {
    fn is_not_found(&self) -> bool {
        match self {
            ProjectReadError::Confined(e) => e.is_not_found(),
            ProjectReadError::Plain(e) => e.kind() == std::io::ErrorKind::NotFound,
        }
    }
}

/// The project file's bytes: one in the project's `.a3s-test` (the default) is read without
/// following a link from the working folder down; one named elsewhere is read as given.
fn read_project_file(path: &Path) -> Result<Vec<u8>, ProjectReadError> {
    let project = std::env::current_dir()?;
    match under_state_dir(&project, path) {
        Some(confined) => Ok(confined.read(a3s_test_lang::MAX_FILE_BYTES as u64)?),
        None => Ok(std::fs::read(path)?),
    }
}

#[cfg(test)]
mod tests {
    use super::ReporterArg;
    use std::ffi::OsStr;

    #[test]
    fn snapshots_are_written_as_the_flag_says_and_without_it_never_in_ci() {
        use super::{update_snapshots, UpdateSnapshots, UpdateSnapshotsArg as A};
        for ci in [false, true] {
            assert_eq!(update_snapshots(Some(A::All), ci), UpdateSnapshots::All);
            assert_eq!(
                update_snapshots(Some(A::Missing), ci),
                UpdateSnapshots::Missing
            );
            assert_eq!(update_snapshots(Some(A::None), ci), UpdateSnapshots::None);
        }
        assert_eq!(update_snapshots(None, false), UpdateSnapshots::MissingFails);
        assert_eq!(update_snapshots(None, true), UpdateSnapshots::None);
    }

    #[test]
    fn github_is_the_default_inside_github_actions_unless_another_reporter_is_chosen() {
        let cases = [
            (None, None, ReporterArg::Terminal),
            (None, Some("true"), ReporterArg::Github),
            (None, Some("false"), ReporterArg::Terminal),
            (None, Some(""), ReporterArg::Terminal),
            (
                Some(ReporterArg::Terminal),
                Some("true"),
                ReporterArg::Terminal,
            ),
            (Some(ReporterArg::Github), None, ReporterArg::Github),
        ];
        for (explicit, env, expected) in cases {
            assert_eq!(
                ReporterArg::choose(explicit, env.map(OsStr::new)),
                expected,
                "{explicit:?} {env:?}"
            );
        }
    }
}
