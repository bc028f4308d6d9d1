//! Output of the agent commands: a typed result as JSON on stdout with `--json`, short human
//! text otherwise, and coded errors (JSON on stdout with `--json`, `error[code]: message` on
//! stderr otherwise). One printer for every agent command.

use super::{EXIT_INVALID_INPUT, EXIT_OK, EXIT_REFUSED};
use a3s_test_ledger::LedgerError;
use a3s_test_runner::session::view::{text, Observation};
use a3s_test_runner::session::{SessionCode, SessionError};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

/// An operation's parameters plus `--json`: the CLI face of one `crate::ops` parameters struct.
#[derive(Debug, Args)]
pub struct Cli<P: Args> {
    /// The operation's parameters.
    #[command(flatten)]
    pub params: P,
    /// Print the result as one line of compact JSON.
    #[arg(long)]
    pub json: bool,
}

/// A coded error an agent command can end with.
pub trait Failure: Serialize {
    /// The stable code (`test.session.…`).
    fn code(&self) -> String;
    /// The message.
    fn message(&self) -> &str;
    /// The process exit code.
    fn exit(&self) -> ExitCode;
    /// A command to run next, when the error names one.
    fn next(&self) -> Option<&str> {
        None
    }
    /// What the error carries besides itself, as human text for stdout (a failed step's
    /// observation of the page after it).
    fn carried(&self) -> Option<String> {
        None
    }
}

impl Failure for LedgerError {
    fn code(&self) -> String {
        self.code.to_string()
    }
    fn message(&self) -> &str {
        &self.message
    }
    /// 2 for input errors, 1 for refusals.
    fn exit(&self) -> ExitCode {
        ExitCode::from(if crate::ops::repair::is_input_error(self) {
            EXIT_INVALID_INPUT
        } else {
            EXIT_REFUSED
        })
    }
}

impl Failure for SessionError {
    fn code(&self) -> String {
        self.code.to_string()
    }
    fn message(&self) -> &str {
        &self.message
    }
    /// 1 = ran and failed in the browser; 2 = refused before dispatch (nothing happened);
    /// 130 = interrupted (`SessionError::exit`).
    fn exit(&self) -> ExitCode {
        ExitCode::from(SessionError::exit(self))
    }
    fn next(&self) -> Option<&str> {
        SessionError::next(self)
    }
    /// The page after a failed step, when the action asked for it (`--observe`), printed as
    /// `observe` prints it.
    fn carried(&self) -> Option<String> {
        let detail = self.detail.as_ref()?;
        if let Some(seen) = &detail.observation {
            return Some(observation_human(seen));
        }
        Some(observation_error_line(detail.observation_error.as_deref()?))
    }
}

/// The ledger or session error a repair error wraps: what it prints as.
pub enum Wrapped<'a> {
    /// A ledger refusal.
    Ledger(&'a LedgerError),
    /// A session refusal or failure.
    Session(&'a SessionError),
}

/// A repair error that is a ledger or a session error underneath (`repair-drain`,
/// `repair-verify`): its code and message are the wrapped error's, written once in the blanket
/// [`Failure`] impl below; only its exit code is its own.
pub trait Wraps: Serialize {
    /// The error underneath.
    fn wrapped(&self) -> Wrapped<'_>;
    /// The process exit code.
    fn exit(&self) -> ExitCode;
}

impl<W: Wraps> Failure for W {
    fn code(&self) -> String {
        match self.wrapped() {
            Wrapped::Ledger(e) => e.code(),
            Wrapped::Session(e) => Failure::code(e),
        }
    }
    fn message(&self) -> &str {
        match self.wrapped() {
            Wrapped::Ledger(e) => Failure::message(e),
            Wrapped::Session(e) => Failure::message(e),
        }
    }
    fn exit(&self) -> ExitCode {
        Wraps::exit(self)
    }
}

/// A drain error exits 2 for input errors, 1 otherwise (a session error counts as input only
/// when coded so).
impl Wraps for crate::ops::repair_drain::DrainError {
    fn wrapped(&self) -> Wrapped<'_> {
        match self {
            Self::Ledger(e) => Wrapped::Ledger(e),
            Self::Session(e) => Wrapped::Session(e),
        }
    }
    fn exit(&self) -> ExitCode {
        match self {
            Self::Ledger(e) => e.exit(),
            Self::Session(e) if e.code == SessionCode::InvalidInput => {
                ExitCode::from(EXIT_INVALID_INPUT)
            }
            Self::Session(_) => ExitCode::from(EXIT_REFUSED),
        }
    }
}

/// A refused verification always exits 2 (refused: nothing was decided), so that 1 means only
/// "verification failed".
impl Wraps for crate::ops::repair_verify::VerifyError {
    fn wrapped(&self) -> Wrapped<'_> {
        match self {
            Self::Ledger(e) => Wrapped::Ledger(e),
            Self::Session(e) => Wrapped::Session(e),
        }
    }
    fn exit(&self) -> ExitCode {
        ExitCode::from(EXIT_INVALID_INPUT)
    }
}

/// A refused promotion prints as its ledger error and always exits 2: nothing was written.
impl Failure for crate::ops::repair_promote::Refused {
    fn code(&self) -> String {
        self.0.code()
    }
    fn message(&self) -> &str {
        Failure::message(&self.0)
    }
    fn exit(&self) -> ExitCode {
        ExitCode::from(EXIT_INVALID_INPUT)
    }
}

fn write_stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// One line of compact JSON: what an agent reads costs context, and indentation is a third of
/// it.
fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    let mut s = serde_json::to_string(value).expect("results serialize");
    s.push('\n');
    s
}

/// Print a result: the value as one line of compact JSON (`--json`) or `human(value)`; exit 0. An
/// error prints as `{"error": …}` (`--json`) or `error[code]: message` on stderr.
pub fn print<T: Serialize, E: Failure>(
    json: bool,
    result: Result<T, E>,
    human: impl FnOnce(&T) -> String,
) -> ExitCode {
    match result {
        Ok(value) => {
            write_stdout(&if json { compact(&value) } else { human(&value) });
            ExitCode::from(EXIT_OK)
        }
        Err(e) => {
            if json {
                write_stdout(&compact(&serde_json::json!({ "error": &e })));
            } else {
                eprintln!("error[{}]: {}", e.code(), e.message());
                if let Some(next) = e.next() {
                    eprintln!("next: {next}");
                }
                if let Some(text) = e.carried() {
                    write_stdout(&text);
                }
            }
            e.exit()
        }
    }
}

/// `next: <command>` as a closing line ("" when there is none).
pub fn next_line(next: Option<&str>) -> String {
    next.map(|n| format!("next: {n}\n")).unwrap_or_default()
}

/// An observation as `agent observe` prints it: the text view, a Test Kit inspection's answer,
/// then the `next` line.
pub fn observation_human(v: &Observation) -> String {
    let mut out = text::render(v);
    if let Some(i) = &v.inspection {
        out.push_str(&format!(
            "inspection (untrusted page data): {}\n",
            serde_json::to_string(i).unwrap_or_default()
        ));
    }
    out + &next_line(v.next.as_deref())
}

/// The line that says the observation an action asked for could not be taken.
pub fn observation_error_line(e: &SessionError) -> String {
    format!("no observation: error[{}]: {}\n", e.code, e.message)
}
