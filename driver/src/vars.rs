//! The values of `env("NAME")` texts, read when the step that uses them runs.
//!
//! Why here and why so late: a secret (a password, a token) must reach the page without ever being
//! written down — not in the suite, the admitted IR, a session file, a report or a message. `lang`
//! admits only the name (it reads no environment); the step reads the value through
//! [`StepEnv::vars`](crate::StepEnv::vars) at the moment it types or compares it, keeps it in a
//! [`Text`] for that step only, and says `env("NAME")` wherever it would otherwise quote it. The
//! source is a trait so the runner hands in its process environment ([`ProcessVars::RUN`]), an
//! agent session its supervisor's ([`ProcessVars::SESSION`]), and tests a map ([`MapVars`]).
//!
//! A variable that is not set (or not UTF-8) fails the step with `test.spec.env_unset`, a
//! specification failure: the message names the variable and how to set it, never a value.

use crate::failure::FailureCode;
use crate::StepFailure;
use a3s_test_lang::ir::{EnvVar, TextValue};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::OsString;

/// Where `env("NAME")` values come from.
pub trait VarSource: Send + Sync + std::fmt::Debug {
    /// The variable's value, `None` when it is not set.
    fn var(&self, name: &EnvVar) -> Option<OsString>;

    /// Whose environment this is, for the message of a variable that is not set ("the
    /// environment of `a3s-test run`").
    fn whose(&self) -> &str;
}

/// The environment of this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessVars {
    whose: &'static str,
}

impl ProcessVars {
    /// A run's variables: the environment `a3s-test run` was started with.
    pub const RUN: ProcessVars = ProcessVars {
        whose: "the environment of `a3s-test run`",
    };

    /// An agent session's variables: its supervisor's environment, inherited from
    /// `a3s-test agent start` (a later command's environment does not reach it).
    pub const SESSION: ProcessVars = ProcessVars {
        whose: "the agent session's environment (inherited from `a3s-test agent start`)",
    };
}

impl VarSource for ProcessVars {
    fn var(&self, name: &EnvVar) -> Option<OsString> {
        std::env::var_os(name.as_str())
    }

    fn whose(&self) -> &str {
        self.whose
    }
}

/// Variables from a map: tests, and callers that must not see the process environment.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct MapVars(pub BTreeMap<String, String>);

impl MapVars {
    /// A map holding these variables.
    pub fn new<K: Into<String>, V: Into<String>>(vars: impl IntoIterator<Item = (K, V)>) -> Self {
        MapVars(
            vars.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }
}

/// Names only: the values may be secrets.
impl std::fmt::Debug for MapVars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl VarSource for MapVars {
    fn var(&self, name: &EnvVar) -> Option<OsString> {
        self.0.get(name.as_str()).map(OsString::from)
    }

    fn whose(&self) -> &str {
        "the step's variables"
    }
}

/// A text ready to type or compare: a literal, or a variable's value that must not be shown.
pub struct Text<'a> {
    text: Cow<'a, str>,
    from: Option<&'a EnvVar>,
}

impl Text<'_> {
    /// The text itself, to send to the page. Never format it into a message or a detail when
    /// [`Text::is_concealed`]: use [`Text::shown`].
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True when the text came from `env("NAME")` and may be a secret.
    pub fn is_concealed(&self) -> bool {
        self.from.is_some()
    }

    /// The text as a message may show it: quoted when literal, `env("NAME")` when concealed.
    pub fn shown(&self) -> String {
        match self.from {
            Some(var) => TextValue::Env(var.clone()).to_string(),
            None => format!("{:?}", self.text),
        }
    }
}

/// Never the value of a variable.
impl std::fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.from {
            Some(var) => write!(f, "Text(env({:?}), not shown)", var.as_str()),
            None => write!(f, "Text({:?})", self.text),
        }
    }
}

/// The text `value` stands for now: a literal as written, a variable read from `vars` — or
/// `test.spec.env_unset` naming the variable when it is not set or not UTF-8.
pub fn resolve<'a>(value: &'a TextValue, vars: &dyn VarSource) -> Result<Text<'a>, StepFailure> {
    let var = match value {
        TextValue::Literal(text) => {
            return Ok(Text {
                text: Cow::Borrowed(text),
                from: None,
            })
        }
        TextValue::Env(var) => var,
    };
    let problem = match vars.var(var).map(OsString::into_string) {
        Some(Ok(text)) => {
            return Ok(Text {
                text: Cow::Owned(text),
                from: Some(var),
            })
        }
        Some(Err(_)) => "is set, but not to UTF-8 text",
        None => "is not set",
    };
    Err(StepFailure::new(
        FailureCode::EnvUnset,
        format!(
            "env(\"{var}\"): the variable {var} {problem} in {}; set it before the step runs, \
             e.g. `export {var}=…` (in CI, from a secret)",
            vars.whose()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> TextValue {
        TextValue::Env(EnvVar::new(name).unwrap())
    }

    #[test]
    fn a_literal_is_itself_and_a_variable_is_read_when_resolved() {
        let vars = MapVars::new([("PW", "hunter2")]);
        let literal = TextValue::literal("Ada");
        let text = resolve(&literal, &vars).unwrap();
        assert_eq!((text.as_str(), text.is_concealed()), ("Ada", false));
        assert_eq!(text.shown(), "\"Ada\"");
        let pw = env("PW");
        let text = resolve(&pw, &vars).unwrap();
        assert_eq!((text.as_str(), text.is_concealed()), ("hunter2", true));
        assert_eq!(text.shown(), "env(\"PW\")");
        // Neither the text's nor the source's Debug shows a value.
        for shown in [format!("{text:?}"), format!("{vars:?}")] {
            assert!(!shown.contains("hunter2"), "{shown}");
        }
    }

    #[test]
    fn an_unset_variable_fails_naming_it_and_how_to_set_it() {
        let vars = MapVars::new([("OTHER", "secret-value")]);
        let failure = resolve(&env("PW"), &vars).unwrap_err();
        assert_eq!(failure.code, FailureCode::EnvUnset);
        assert_eq!(
            failure.code.class(),
            crate::failure::FailureClass::Specification
        );
        assert!(failure.message.contains("the variable PW is not set"));
        assert!(failure.message.contains("export PW=…"));
        assert!(!failure.message.contains("secret-value"));
    }

    #[cfg(unix)]
    #[test]
    fn a_value_that_is_not_utf8_is_refused_without_showing_it() {
        use std::os::unix::ffi::OsStringExt;

        #[derive(Debug)]
        struct Latin1;
        impl VarSource for Latin1 {
            fn var(&self, _: &EnvVar) -> Option<OsString> {
                Some(OsString::from_vec(b"caf\xe9".to_vec()))
            }
            fn whose(&self) -> &str {
                "a test"
            }
        }
        let failure = resolve(&env("PW"), &Latin1).unwrap_err();
        assert_eq!(failure.code, FailureCode::EnvUnset);
        assert!(
            failure.message.contains("not to UTF-8 text"),
            "{}",
            failure.message
        );
    }
}
