//! The `test.driver.tui.*` failure codes and the one error type of the terminal engine.
//!
//! The family lives here, in the crate that owns the terminal, as `test.driver.web.*` lives with
//! the Web driver; each code carries its [`FailureClass`] so a later terminal `SurfaceDriver` maps
//! an error to its result without guessing from a string. `docs/codes.md` lists every code
//! (checked by the workspace's `tests/codes.rs`).

use crate::screen::Screen;
use a3s_test_driver::FailureClass;

a3s_test_lang::define_codes! {
    /// A stable failure code of the terminal engine.
    pub enum TuiCode: fn class -> FailureClass {
        /// The program to start does not exist (or is not on `PATH`).
        ProgramNotFound => "test.driver.tui.program_not_found", FailureClass::Specification;
        /// The working directory given for the program is not a folder.
        WorkingDirectory => "test.driver.tui.working_directory", FailureClass::Specification;
        /// The pseudoterminal could not be opened or the program could not be started.
        SpawnFailed => "test.driver.tui.spawn_failed", FailureClass::Infrastructure;
        /// The program exited (and its output ended) before the awaited condition held.
        ExitedEarly => "test.driver.tui.exited_early", FailureClass::Product;
        /// The program wrote more than the output budget; its process group was stopped.
        OutputBudget => "test.driver.tui.output_budget", FailureClass::Product;
        /// The awaited condition did not hold before its deadline.
        WaitTimeout => "test.driver.tui.wait_timeout", FailureClass::Product;
        /// A key name that is not one character, a named key, `Control+<letter>` or `Alt+<char>`.
        BadKey => "test.driver.tui.bad_key", FailureClass::Specification;
        /// A terminal size of zero or over the bounds (1000 columns, 500 rows).
        BadSize => "test.driver.tui.bad_size", FailureClass::Specification;
        /// Input was sent to a program that has exited.
        NotRunning => "test.driver.tui.not_running", FailureClass::Product;
        /// The program did not take its input before the input deadline (it stopped reading).
        InputBlocked => "test.driver.tui.input_blocked", FailureClass::Product;
        /// Reading or writing the pseudoterminal failed unexpectedly.
        Io => "test.driver.tui.io", FailureClass::Infrastructure;
    }
}

/// How a program ended: what the `exit_code` of a terminal expectation and the evidence report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProgramExit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it (its number).
    Signal(i32),
}

impl std::fmt::Display for ProgramExit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProgramExit::Code(code) => write!(f, "exit code {code}"),
            ProgramExit::Signal(signal) => write!(f, "signal {signal}"),
        }
    }
}

/// Everything that can go wrong in the terminal engine; [`TuiError::code`] is its stable code.
///
/// Errors of a wait carry the screen as it was when the wait gave up, so the evidence of a
/// failure is the screen that failed, not a later one.
#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// See [`TuiCode::ProgramNotFound`].
    #[error("failed to start `{program}`: no such program")]
    ProgramNotFound {
        /// The program as given.
        program: String,
    },
    /// See [`TuiCode::WorkingDirectory`].
    #[error("failed to start the program: working directory `{path}` is not a folder")]
    WorkingDirectory {
        /// The folder as given.
        path: String,
    },
    /// See [`TuiCode::SpawnFailed`].
    #[error("failed to start the program on a pseudoterminal: {0}")]
    SpawnFailed(#[source] std::io::Error),
    /// See [`TuiCode::ExitedEarly`].
    #[error("the program ended ({exit}) before {awaited}")]
    ExitedEarly {
        /// How it ended.
        exit: ProgramExit,
        /// What was awaited, in words.
        awaited: String,
        /// The last screen.
        screen: Box<Screen>,
    },
    /// See [`TuiCode::OutputBudget`].
    #[error("the program wrote more than {budget} bytes of output; it was stopped")]
    OutputBudget {
        /// The budget in bytes.
        budget: u64,
    },
    /// See [`TuiCode::WaitTimeout`].
    #[error("timed out after {waited_ms} ms waiting for {awaited}")]
    WaitTimeout {
        /// What was awaited, in words.
        awaited: String,
        /// How long the wait lasted.
        waited_ms: u128,
        /// The screen when the deadline passed.
        screen: Box<Screen>,
    },
    /// See [`TuiCode::BadKey`].
    #[error(transparent)]
    BadKey(#[from] crate::keys::KeyError),
    /// See [`TuiCode::BadSize`].
    #[error(transparent)]
    BadSize(#[from] crate::size::SizeError),
    /// See [`TuiCode::NotRunning`].
    #[error("the program has ended ({exit}); it takes no more input")]
    NotRunning {
        /// How it ended.
        exit: ProgramExit,
    },
    /// See [`TuiCode::InputBlocked`].
    #[error("the program did not read its input within {waited_ms} ms")]
    InputBlocked {
        /// How long the write waited.
        waited_ms: u128,
    },
    /// See [`TuiCode::Io`].
    #[error("failed to {action} the pseudoterminal: {source}")]
    Io {
        /// What was being done ("read", "write", "resize").
        action: &'static str,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
}

impl TuiError {
    /// The stable code of this error.
    pub fn code(&self) -> TuiCode {
        match self {
            TuiError::ProgramNotFound { .. } => TuiCode::ProgramNotFound,
            TuiError::WorkingDirectory { .. } => TuiCode::WorkingDirectory,
            TuiError::SpawnFailed(_) => TuiCode::SpawnFailed,
            TuiError::ExitedEarly { .. } => TuiCode::ExitedEarly,
            TuiError::OutputBudget { .. } => TuiCode::OutputBudget,
            TuiError::WaitTimeout { .. } => TuiCode::WaitTimeout,
            TuiError::BadKey(_) => TuiCode::BadKey,
            TuiError::BadSize(_) => TuiCode::BadSize,
            TuiError::NotRunning { .. } => TuiCode::NotRunning,
            TuiError::InputBlocked { .. } => TuiCode::InputBlocked,
            TuiError::Io { .. } => TuiCode::Io,
        }
    }
}
