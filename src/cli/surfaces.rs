//! The drivers `run` injects: the surfaces the plan uses, and nothing else. A plan with a web
//! scenario gets the Web driver (Chromium starts lazily, only if a scenario can run); a plan
//! with a terminal scenario gets the terminal driver with the program from the `--tui-*` flags
//! (the public A3S Test 1.0 CLI's) or the project's `tui { … }` block — flags win; a plan with a
//! desktop scenario gets the desktop driver the same way (`--gui-*`, `gui { … }`,
//! `super::gui_launcher`).
//!
//! Why here: the runner is generic over the drivers (`a3s_test_runner::surfaces::Surfaces`), so
//! the binary is the one place that names concrete driver types.

use super::gui_launcher::{GuiArgs, GuiLauncher};
use super::web_launcher::WebLauncher;
use a3s_test_driver::{Capabilities, DriverError, FailureCode};
use a3s_test_lang::ir::{ProjectConfig, Surface};
use a3s_test_runner::executor::DriverLauncher;
use a3s_test_runner::plan::Plan;
use a3s_test_runner::surfaces::Surfaces;
use a3s_test_tui::{ProgramSpec, TerminalOptions, TerminalSize, TuiDriver};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What `run` hands the runner: a web and a terminal launcher, each present when needed.
pub type RunLauncher = Surfaces<WebLauncher, TuiLauncher, GuiLauncher>;

/// The terminal program flags of `run` (the public A3S Test 1.0 CLI's names and defaults).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TuiArgs {
    /// The program terminal scenarios start (beats the project's `tui.command`).
    #[arg(long, value_name = "PATH")]
    pub tui_executable: Option<PathBuf>,
    /// One argument of that program; repeatable, in order.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub tui_arg: Vec<String>,
    /// The program's working directory (absolute) [default: the project's `tui.cwd`, else the
    /// current folder].
    #[arg(long, value_name = "DIR")]
    pub tui_working_directory: Option<PathBuf>,
    /// Terminal columns [default: the project's `tui.columns`, else 80].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub tui_columns: Option<u16>,
    /// Terminal rows [default: the project's `tui.rows`, else 24].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=500))]
    pub tui_rows: Option<u16>,
    /// Rows kept above the screen once they scroll off [default: 1000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub tui_scrollback_rows: Option<u32>,
    /// Most output bytes a program may write before it is stopped [default: 16 MiB].
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub tui_max_output_bytes: Option<u64>,
}

/// Starts the terminal driver; the program was resolved when the run was set up, or why it
/// could not be (then every terminal scenario fails with that, coded, before anything runs).
#[derive(Debug, Clone)]
pub struct TuiLauncher {
    program: Result<(ProgramSpec, TerminalOptions), String>,
}

impl TuiLauncher {
    /// The launcher of a terminal agent session's supervisor: the program `agent start --tui`
    /// recorded, on a terminal of its size (the rest of the terminal's bounds are the defaults).
    pub fn session(program: &a3s_test_runner::session::file::TerminalProgram) -> TuiLauncher {
        let launcher = || -> Result<(ProgramSpec, TerminalOptions), String> {
            let (first, rest) = program
                .command
                .split_first()
                .ok_or("the session records no program")?;
            let mut spec = ProgramSpec::new(first, rest);
            spec.cwd = Some(program.cwd.clone());
            spec.env = program
                .env
                .iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect();
            let size = TerminalSize::new(u32::from(program.columns), u32::from(program.rows))
                .map_err(|e| e.to_string())?;
            Ok((
                spec,
                TerminalOptions {
                    size,
                    ..TerminalOptions::default()
                },
            ))
        };
        TuiLauncher {
            program: launcher(),
        }
    }
}

impl DriverLauncher for TuiLauncher {
    type Driver = TuiDriver;

    fn capabilities(&self) -> Capabilities {
        a3s_test_tui::driver::capabilities()
    }

    async fn launch(self, _timeout: Duration) -> Result<TuiDriver, DriverError> {
        let (program, options) = self
            .program
            .map_err(|why| DriverError::new(FailureCode::TuiProgramNotFound, why))?;
        Ok(TuiDriver::new(program, options))
    }
}

/// The launchers `plan` needs: `web` (a local or attached browser, or a Grid) only when a scenario drives the web, the terminal driver
/// only when one drives a terminal, the desktop driver only when one drives a desktop. Refuses
/// (exit 2) a relative `--tui-working-directory` or `--gui-working-directory`.
pub fn launchers<W: DriverLauncher>(
    plan: &Plan,
    web: W,
    (args, gui_args): (&TuiArgs, &GuiArgs),
    project: Option<&ProjectConfig>,
    project_dir: &Path,
) -> Result<Surfaces<W, TuiLauncher, GuiLauncher>, String> {
    let uses = |surface: Surface| plan.scenarios.iter().any(|p| p.scenario.surface == surface);
    if let Some(dir) = &args.tui_working_directory {
        if !dir.is_absolute() {
            return Err(format!(
                "--tui-working-directory must be an absolute path, got {}",
                dir.display()
            ));
        }
    }
    let tui = uses(Surface::Tui).then(|| TuiLauncher {
        program: program(args, project, project_dir),
    });
    let gui = match uses(Surface::Gui) {
        true => Some(GuiLauncher::new(gui_args, project, project_dir)?),
        false => None,
    };
    Ok(Surfaces {
        web: uses(Surface::Web).then_some(web),
        tui,
        gui,
    })
}

/// The program and terminal of terminal scenarios: flags first, then the project's block.
fn program(
    args: &TuiArgs,
    project: Option<&ProjectConfig>,
    project_dir: &Path,
) -> Result<(ProgramSpec, TerminalOptions), String> {
    let block = project.and_then(|p| p.tui.as_deref());
    let mut spec =
        match (&args.tui_executable, block) {
            (Some(executable), _) => ProgramSpec::new(executable.clone(), args.tui_arg.clone()),
            (None, Some(block)) => {
                let (first, rest) = block
                    .command
                    .split_first()
                    .ok_or("the project's `tui.command` is empty")?;
                let mut args_all: Vec<String> = rest.to_vec();
                args_all.extend(args.tui_arg.iter().cloned());
                let mut spec = ProgramSpec::new(first.clone(), args_all);
                spec.env = block
                    .env
                    .iter()
                    .map(|(k, v)| (k.into(), v.into()))
                    .collect();
                spec
            }
            (None, None) => return Err(
                "no program for terminal scenarios: pass --tui-executable PATH (and --tui-arg) \
                 or add `tui { command = [..] }` to the project file"
                    .to_string(),
            ),
        };
    spec.cwd = match (
        &args.tui_working_directory,
        block.and_then(|b| b.cwd.as_ref()),
    ) {
        (Some(dir), _) => Some(dir.clone()),
        (None, Some(cwd)) => Some(project_dir.join(cwd)),
        (None, None) => Some(project_dir.to_path_buf()),
    };
    let columns = args
        .tui_columns
        .or(block.and_then(|b| b.columns))
        .unwrap_or(80);
    let rows = args.tui_rows.or(block.and_then(|b| b.rows)).unwrap_or(24);
    let mut options = TerminalOptions {
        size: TerminalSize::new(u32::from(columns), u32::from(rows)).map_err(|e| e.to_string())?,
        ..TerminalOptions::default()
    };
    if let Some(rows) = args.tui_scrollback_rows {
        options.scrollback_rows = rows as usize;
    }
    if let Some(bytes) = args.tui_max_output_bytes {
        options.max_output_bytes = bytes;
    }
    Ok((spec, options))
}
