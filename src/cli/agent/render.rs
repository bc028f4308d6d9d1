//! Output of the agent commands: JSON on stdout with `--json`, short human text otherwise, and
//! coded errors (JSON on stdout with `--json`, `error[code]: message` on stderr otherwise).

use super::{EXIT_INVALID_INPUT, EXIT_OK, EXIT_REFUSED};
use a3s_test_ledger::LedgerError;
use serde_json::Value;
use std::io::Write;
use std::process::ExitCode;

/// Print `value` as one JSON document, or `human(value)` as text; exit 0.
pub fn ok(json: bool, value: &Value, human: impl FnOnce(&Value) -> String) -> ExitCode {
    let text = if json {
        let mut s = serde_json::to_string_pretty(value).expect("JSON values serialize");
        s.push('\n');
        s
    } else {
        human(value)
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    ExitCode::from(EXIT_OK)
}

/// Print `err` and exit 2 for input errors, 1 for refusals.
pub fn error(json: bool, err: &LedgerError) -> ExitCode {
    if json {
        let value = serde_json::json!({ "error": err });
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    } else {
        eprintln!("error[{}]: {}", err.code, err.message);
    }
    ExitCode::from(if crate::ops::repair::is_input_error(err) {
        EXIT_INVALID_INPUT
    } else {
        EXIT_REFUSED
    })
}

/// Print a session error (the session's supervisor, browser or bridge) and exit 2 for input
/// errors, 1 otherwise.
pub fn session_error(json: bool, err: &a3s_test_runner::session::SessionError) -> ExitCode {
    if json {
        let value = serde_json::json!({ "error": err });
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    } else {
        eprintln!("error[{}]: {}", err.code, err.message);
    }
    let input = err.code == a3s_test_runner::session::SessionCode::InvalidInput;
    ExitCode::from(if input {
        EXIT_INVALID_INPUT
    } else {
        EXIT_REFUSED
    })
}

/// `value[key]` as text ("" when absent).
pub fn s<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}
