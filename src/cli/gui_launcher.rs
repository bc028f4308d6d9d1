//! The desktop driver `run` injects for `surface = "gui"` scenarios: the program from the
//! `--gui-*` flags or the project's `gui { … }` block (flags win, as `--tui-*` do), the screen
//! size (1280×800 by default), and `--gui-display :N` to use an existing X server and
//! accessibility bus instead of an owned desktop per scenario (`docs/gui.md`).
//!
//! Why resolved up front: a missing program is known before anything starts; it is kept as the
//! launch error, so every desktop scenario reports it coded while other surfaces still run.

use a3s_test_driver::{Capabilities, DriverError, FailureCode};
use a3s_test_gui::driver::{GuiDriver, GuiOptions};
use a3s_test_gui::ProgramSpec;
use a3s_test_lang::ir::ProjectConfig;
use a3s_test_runner::executor::DriverLauncher;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The desktop program flags of `run`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GuiArgs {
    /// The program desktop scenarios start (beats the project's `gui.command`).
    #[arg(long, value_name = "PATH")]
    pub gui_executable: Option<PathBuf>,
    /// One argument of that program; repeatable, in order.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub gui_arg: Vec<String>,
    /// The program's working directory (absolute) [default: the project's `gui.cwd`, else the
    /// current folder].
    #[arg(long, value_name = "DIR")]
    pub gui_working_directory: Option<PathBuf>,
    /// Screen width of the owned desktop [default: the project's `gui.width`, else 1280].
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u16).range(64..=7680))]
    pub gui_width: Option<u16>,
    /// Screen height of the owned desktop [default: the project's `gui.height`, else 800].
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u16).range(64..=4320))]
    pub gui_height: Option<u16>,
    /// Attach to the X server `:N` and the accessibility bus its root window names instead of
    /// starting a desktop; they are never stopped.
    #[arg(long, value_name = ":N", value_parser = display_number)]
    pub gui_display: Option<String>,
}

/// `:N` with a decimal N.
fn display_number(text: &str) -> Result<String, String> {
    match text.strip_prefix(':') {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => Ok(text.to_owned()),
        _ => Err(format!("`{text}` is not a display: write `:N`, e.g. `:99`")),
    }
}

/// Starts the desktop driver; the program was resolved when the run was set up, or why it
/// could not be.
#[derive(Debug, Clone)]
pub struct GuiLauncher {
    options: Result<GuiOptions, String>,
}

impl GuiLauncher {
    /// The launcher of `args` over the project's `gui` block; a relative working directory is
    /// refused (exit 2) before anything starts.
    pub fn new(
        args: &GuiArgs,
        project: Option<&ProjectConfig>,
        project_dir: &Path,
    ) -> Result<GuiLauncher, String> {
        if let Some(dir) = &args.gui_working_directory {
            if !dir.is_absolute() {
                return Err(format!(
                    "--gui-working-directory must be an absolute path, got {}",
                    dir.display()
                ));
            }
        }
        Ok(GuiLauncher {
            options: options(args, project, project_dir),
        })
    }
}

impl GuiLauncher {
    /// The launcher of a desktop agent session's supervisor: the program `agent start --gui`
    /// recorded, on an owned desktop of its size.
    pub fn session(program: &a3s_test_runner::session::file::DesktopProgram) -> GuiLauncher {
        let options = match program.command.split_first() {
            Some((first, rest)) => {
                let mut spec = ProgramSpec::new(first.clone(), rest.to_vec());
                spec.env = program
                    .env
                    .iter()
                    .map(|(k, v)| (k.into(), v.into()))
                    .collect();
                spec.cwd = Some(program.cwd.clone());
                Ok(GuiOptions {
                    program: spec,
                    width: program.width,
                    height: program.height,
                    display: None,
                })
            }
            None => Err("the session records no program".to_string()),
        };
        GuiLauncher { options }
    }
}

impl DriverLauncher for GuiLauncher {
    type Driver = GuiDriver;

    fn capabilities(&self) -> Capabilities {
        a3s_test_gui::driver::capabilities()
    }

    async fn launch(self, _timeout: Duration) -> Result<GuiDriver, DriverError> {
        let options = self
            .options
            .map_err(|why| DriverError::new(FailureCode::GuiProgramNotFound, why))?;
        Ok(GuiDriver::new(options))
    }
}

/// The program and screen of desktop scenarios: flags first, then the project's block.
fn options(
    args: &GuiArgs,
    project: Option<&ProjectConfig>,
    project_dir: &Path,
) -> Result<GuiOptions, String> {
    let block = project.and_then(|p| p.gui.as_deref());
    let mut spec = match (&args.gui_executable, block) {
        (Some(executable), _) => ProgramSpec::new(executable.clone(), args.gui_arg.clone()),
        (None, Some(block)) => {
            let (first, rest) = block
                .command
                .split_first()
                .ok_or("the project's `gui.command` is empty")?;
            let mut all: Vec<String> = rest.to_vec();
            all.extend(args.gui_arg.iter().cloned());
            ProgramSpec::new(first.clone(), all)
        }
        (None, None) => {
            return Err(
                "no program for desktop scenarios: pass --gui-executable PATH (and --gui-arg) \
                 or add `gui { command = [..] }` to the project file"
                    .to_string(),
            )
        }
    };
    // The block's variables hold whichever program runs (no flag sets them): as for `agent
    // start --gui -- PROGRAM`, so a promoted session's `next` command runs its program as the
    // session did.
    spec.env = block
        .map(|b| b.env.iter().map(|(k, v)| (k.into(), v.into())).collect())
        .unwrap_or_default();
    spec.cwd = match (
        &args.gui_working_directory,
        block.and_then(|b| b.cwd.as_ref()),
    ) {
        (Some(dir), _) => Some(dir.clone()),
        (None, Some(cwd)) => Some(project_dir.join(cwd)),
        (None, None) => Some(project_dir.to_path_buf()),
    };
    Ok(GuiOptions {
        program: spec,
        width: args
            .gui_width
            .or(block.and_then(|b| b.width))
            .unwrap_or(1280),
        height: args
            .gui_height
            .or(block.and_then(|b| b.height))
            .unwrap_or(800),
        display: args.gui_display.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::ir::AdmittedDocument;

    fn project(source: &str) -> ProjectConfig {
        match a3s_test_lang::admit_bytes(source.as_bytes()).document {
            Some(AdmittedDocument::Project(project)) => project,
            other => panic!("not a project: {other:?}"),
        }
    }

    #[test]
    fn the_blocks_variables_hold_for_a_program_the_flags_name() {
        let block = project(
            "project \"p\" {\n  gui {\n    command = [\"mousepad\"]\n    env = { XDG_DATA_HOME = \"/tmp/d\" }\n    height = 1000\n  }\n}\n",
        );
        let args = GuiArgs {
            gui_executable: Some("/usr/bin/mousepad".into()),
            gui_arg: vec!["--disable-server".into()],
            ..GuiArgs::default()
        };
        let options = options(&args, Some(&block), Path::new("/p")).unwrap();
        assert_eq!(options.program.program, "/usr/bin/mousepad");
        assert_eq!(options.program.args, ["--disable-server"]);
        assert_eq!(
            options.program.env,
            [("XDG_DATA_HOME".into(), "/tmp/d".into())]
        );
        assert_eq!((options.width, options.height), (1280, 1000));
        let none = options_without_block(&args);
        assert!(none.program.env.is_empty());
    }

    fn options_without_block(args: &GuiArgs) -> GuiOptions {
        options(args, None, Path::new("/p")).unwrap()
    }
}
