//! The `test.driver.gui.*` failure codes and the one error type of the desktop surface.
//!
//! The family lives here, in the crate that owns the desktop, as `test.driver.tui.*` lives with
//! the terminal engine; each code carries its [`FailureClass`] so the later GUI `SurfaceDriver`
//! maps an error to its result without reading a message. `docs/codes.md` lists every code
//! (checked by the workspace's `tests/codes.rs`).

use a3s_test_driver::FailureClass;

a3s_test_lang::define_codes! {
    /// A stable failure code of the desktop surface.
    pub enum GuiCode: fn class -> FailureClass {
        /// A program the desktop needs (Xvfb, the accessibility bus launcher or registry,
        /// `dbus-daemon`) is not installed; the message names the Debian package.
        DesktopMissing => "test.driver.gui.desktop_missing", FailureClass::Infrastructure;
        /// A desktop process (the X server, a bus, the registry) failed to start, exited, or was
        /// not ready before its deadline.
        DesktopFailed => "test.driver.gui.desktop_failed", FailureClass::Infrastructure;
        /// The program to start does not exist (or is not on `PATH`).
        ProgramNotFound => "test.driver.gui.program_not_found", FailureClass::Specification;
        /// The working directory given for the program is not a folder.
        WorkingDirectory => "test.driver.gui.working_directory", FailureClass::Specification;
        /// The program could not be started for another reason (permissions, resources).
        SpawnFailed => "test.driver.gui.spawn_failed", FailureClass::Infrastructure;
        /// The program exited before it appeared on the accessibility bus.
        ExitedEarly => "test.driver.gui.exited_early", FailureClass::Product;
        /// The program kept running but did not appear on the accessibility bus in time.
        NotAccessible => "test.driver.gui.not_accessible", FailureClass::Product;
        /// A call on the accessibility bus failed unexpectedly.
        Bus => "test.driver.gui.bus", FailureClass::Infrastructure;
        /// A role word that is neither an AT-SPI role name nor a Web role word that maps to one.
        UnknownRole => "test.driver.gui.unknown_role", FailureClass::Specification;
        /// No element of the program matched the target.
        TargetNotFound => "test.driver.gui.target_not_found", FailureClass::Product;
        /// Several elements matched the target.
        TargetAmbiguous => "test.driver.gui.target_ambiguous", FailureClass::Product;
        /// The element has no visible area on the screen to act on.
        TargetNotVisible => "test.driver.gui.target_not_visible", FailureClass::Product;
        /// Another element or window is on top at the element's action point: nothing was sent.
        TargetCovered => "test.driver.gui.target_covered", FailureClass::Product;
        /// The element's window is not on the X server (closed) before the step acted.
        WindowGone => "test.driver.gui.window_gone", FailureClass::Product;
        /// A `select` names an option the combo box or list does not have; the message lists
        /// the ones it has.
        OptionNotFound => "test.driver.gui.option_not_found", FailureClass::Product;
        /// A `select` target is neither a combo box nor a list (or table) of options, or is a
        /// combo box asked for several options.
        NotSelectable => "test.driver.gui.not_selectable", FailureClass::Specification;
        /// A `select` clicked its option, but the combo box or list did not show it chosen
        /// before the action timeout.
        SelectionUnchanged => "test.driver.gui.selection_unchanged", FailureClass::Product;
        /// A `click { via = "action" }` on an element that has no click, press, activate or
        /// toggle action, or a `via = "action:NAME"` on one without that action; the message
        /// lists the actions it has.
        ActionMissing => "test.driver.gui.action_missing", FailureClass::Product;
        /// A key name or chord that is not a named key, one character, or modifiers joined by `+`.
        BadKey => "test.driver.gui.bad_key", FailureClass::Specification;
        /// The text holds a character that no key of the X server's keyboard map types.
        KeyUnmapped => "test.driver.gui.key_unmapped", FailureClass::Specification;
        /// The awaited value did not hold before the deadline, or an input's element did not
        /// become ready for it in its step's time — enabled and stable for a pointer; enabled,
        /// showing, focusable and focused for keys; for a bare Enter in a one-line field, the
        /// window's default button enabled (nothing was sent).
        WaitTimeout => "test.driver.gui.wait_timeout", FailureClass::Product;
        /// A key step's target does not have the keyboard focus and its toolkit refuses to give
        /// it without input (GTK4 4.8 refuses `GrabFocus`), so no key was sent. Not a timeout
        /// and not the program's defect: the step asks for what the toolkit cannot do — click a
        /// text field first, or press the key without a target.
        NotFocusable => "test.driver.gui.not_focusable", FailureClass::Specification;
        /// A request to the X server (input, windows, screenshots) failed unexpectedly, or the
        /// server did not answer it within 5 s (stopped, wedged, grabbed); that desktop's X
        /// connection then fails every later request at once.
        X11 => "test.driver.gui.x11", FailureClass::Infrastructure;
        /// A target a desktop cannot resolve (a browser locator, a regular expression the
        /// `regex` crate refuses).
        BadTarget => "test.driver.gui.bad_target", FailureClass::Specification;
    }
}

/// What to do when an input's element never became actionable.
pub const NOT_ACTIONABLE_HINT: &str =
    "make a step before wait for what enables it, or give the step more time";

/// What to do when a toolkit cannot give a key step's target the focus without input.
pub const NOT_FOCUSED_HINT: &str =
    "click it first (a click focuses a text field), or press the key without a target";

/// How a program ended, as the evidence reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramExit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it (its number).
    Signal(i32),
}

impl ProgramExit {
    /// Read an [`std::process::ExitStatus`]: a code, else the signal that ended it.
    pub fn from_status(status: std::process::ExitStatus) -> ProgramExit {
        use std::os::unix::process::ExitStatusExt;
        match status.code() {
            Some(code) => ProgramExit::Code(code),
            None => ProgramExit::Signal(status.signal().unwrap_or(0)),
        }
    }
}

impl std::fmt::Display for ProgramExit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProgramExit::Code(code) => write!(f, "exit code {code}"),
            ProgramExit::Signal(signal) => write!(f, "signal {signal}"),
        }
    }
}

/// Everything that can go wrong on the desktop; [`GuiError::code`] is its stable code.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// See [`GuiCode::DesktopMissing`].
    #[error("`{program}` is not installed; hint: install the Debian package `{package}`")]
    DesktopMissing {
        /// The missing program, as looked for.
        program: String,
        /// The Debian package that provides it.
        package: &'static str,
    },
    /// See [`GuiCode::DesktopFailed`].
    #[error("the desktop's {part} {problem}")]
    DesktopFailed {
        /// Which part ("X server", "session bus", "accessibility bus", "registry").
        part: &'static str,
        /// What happened, in words (with the last line it logged, when there is one).
        problem: String,
    },
    /// See [`GuiCode::ProgramNotFound`].
    #[error("failed to start `{program}`: no such program; hint: give a path or a name on PATH")]
    ProgramNotFound {
        /// The program as given.
        program: String,
    },
    /// See [`GuiCode::WorkingDirectory`].
    #[error("failed to start the program: working directory `{path}` is not a folder")]
    WorkingDirectory {
        /// The folder as given.
        path: String,
    },
    /// See [`GuiCode::SpawnFailed`].
    #[error("failed to start `{program}`: {source}")]
    SpawnFailed {
        /// The program as given.
        program: String,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
    /// See [`GuiCode::ExitedEarly`].
    #[error(
        "`{program}` ended ({exit}) before it appeared on the accessibility bus{}; \
         hint: check its arguments and run it by hand on a desktop to see why",
        said.as_deref().map(|line| format!(", saying {line:?}")).unwrap_or_default()
    )]
    ExitedEarly {
        /// The program as given.
        program: String,
        /// How it ended.
        exit: ProgramExit,
        /// The last line it wrote (its standard error, else its output), when it wrote one.
        said: Option<String>,
    },
    /// See [`GuiCode::NotAccessible`].
    #[error(
        "`{program}` did not appear on the accessibility bus within {waited_ms} ms; \
         hint: is it a GTK or Qt program with accessibility enabled?"
    )]
    NotAccessible {
        /// The program as given.
        program: String,
        /// How long the wait lasted.
        waited_ms: u128,
    },
    /// See [`GuiCode::Bus`].
    #[error("the accessibility bus call `{call}` failed: {source}; hint: is the program still running and answering?")]
    Bus {
        /// The call, e.g. `GetChildren`.
        call: &'static str,
        /// The D-Bus error (boxed: it is large, and errors travel by value).
        #[source]
        source: Box<zbus::Error>,
    },
    /// See [`GuiCode::UnknownRole`].
    #[error("`{word}` is not a role; hint: an AT-SPI role name (\"push button\", \"text\") or button, textbox, checkbox, radio, link, combobox, slider, menuitem, dialog, label")]
    UnknownRole {
        /// The word as given.
        word: String,
    },
    /// See [`GuiCode::TargetNotFound`].
    #[error("no element matches {target}; hint: candidates of that kind: {candidates}")]
    TargetNotFound {
        /// The target, as written.
        target: String,
        /// Elements that came close (same role, or named alike), or "none".
        candidates: String,
    },
    /// See [`GuiCode::TargetAmbiguous`].
    #[error("{count} elements match {target}: {candidates}; hint: name the one you mean")]
    TargetAmbiguous {
        /// The target, as written.
        target: String,
        /// How many matched.
        count: usize,
        /// The matches (role, name, path), the first few.
        candidates: String,
    },
    /// See [`GuiCode::TargetNotVisible`].
    #[error(
        "{target} has no visible area ({why}); hint: scroll it into view or wait until it shows"
    )]
    TargetNotVisible {
        /// The element.
        target: String,
        /// Why, in words (empty extents, off the screen).
        why: String,
    },
    /// See [`GuiCode::TargetCovered`].
    #[error("{target} is covered at ({x}, {y}) by {by}; nothing was sent; hint: close what is on top first")]
    TargetCovered {
        /// The element.
        target: String,
        /// The action point, in screen pixels.
        x: i32,
        /// The action point, in screen pixels.
        y: i32,
        /// What is on top there (an element of the program, or another window).
        by: String,
    },
    /// See [`GuiCode::WindowGone`].
    #[error("the window of {target} is not on the screen; hint: did a step before close it?")]
    WindowGone {
        /// The element.
        target: String,
    },
    /// See [`GuiCode::OptionNotFound`].
    #[error("{target} has no option {option:?}; its options: {options}; hint: write one of them as it is shown")]
    OptionNotFound {
        /// The combo box or list.
        target: String,
        /// The option asked for.
        option: String,
        /// The options it has (the first few), or "none".
        options: String,
    },
    /// See [`GuiCode::NotSelectable`].
    #[error("{target} {why}; hint: `select` chooses one option of a combo box, or one or several of a list, list box, table or tree (role(\"combo box\") …); click other elements")]
    NotSelectable {
        /// The element.
        target: String,
        /// Why it cannot take this `select` ("is not a combo box or a list").
        why: String,
    },
    /// See [`GuiCode::SelectionUnchanged`].
    #[error("{target} did not show {option:?} chosen within {waited_ms} ms after its click (it shows {shown:?}); hint: is the option enabled, and does the program accept it?")]
    SelectionUnchanged {
        /// The combo box or list.
        target: String,
        /// The option clicked.
        option: String,
        /// What it showed last (the combo box's name, or the option's states).
        shown: String,
        /// How long the check waited.
        waited_ms: u128,
    },
    /// See [`GuiCode::ActionMissing`].
    #[error("{target} has no {wanted} action; its actions: {actions}; hint: name one of its actions (`via = \"action:NAME\"`), click it with real input (leave out `via`), or target an element that has one")]
    ActionMissing {
        /// The element.
        target: String,
        /// The actions looked for, in words.
        wanted: String,
        /// The actions it has, or "none".
        actions: String,
    },
    /// See [`GuiCode::BadKey`].
    #[error("`{key}` is not a key: {why}; hint: a named key (Return, Escape, Tab, F1 …), one character, or a chord like ctrl+a")]
    BadKey {
        /// The key as given.
        key: String,
        /// What is wrong with it.
        why: String,
    },
    /// See [`GuiCode::KeyUnmapped`].
    #[error("no key of the X keyboard map types {character:?}; hint: type it with a chord the program understands")]
    KeyUnmapped {
        /// The character.
        character: char,
    },
    /// See [`GuiCode::WaitTimeout`].
    #[error("{what} did not hold within {waited_ms} ms; the last value seen was {last:?}; hint: is the expected value right?")]
    WaitTimeout {
        /// The awaited condition, in words.
        what: String,
        /// The last value read.
        last: String,
        /// How long the wait lasted.
        waited_ms: u128,
    },
    /// See [`GuiCode::WaitTimeout`]: an input's element did not become actionable.
    #[error("{target} was not {condition} within {waited_ms} ms, so nothing was sent; hint: {NOT_ACTIONABLE_HINT}")]
    NotActionable {
        /// The element, described.
        target: String,
        /// The condition that did not hold.
        condition: crate::actionable::Actionability,
        /// How long the wait lasted.
        waited_ms: u128,
    },
    /// See [`GuiCode::NotFocusable`]: a key step's target cannot be given the keyboard focus
    /// without input (GTK4 4.8 refuses `GrabFocus`), so no key would reach it.
    #[error("{target} did not take the keyboard focus ({why}), so nothing was sent; hint: {NOT_FOCUSED_HINT}")]
    NotFocused {
        /// The element, described.
        target: String,
        /// Why not, in words.
        why: String,
    },
    /// See [`GuiCode::BadTarget`].
    #[error("{target} cannot name a desktop element: {why}; hint: write role(\"push button\", \"7\"), label(…), text(…) or automation_id(…)")]
    BadTarget {
        /// The target, as written.
        target: String,
        /// What is wrong with it.
        why: String,
    },
    /// See [`GuiCode::X11`].
    #[error("the X server request `{request}` failed: {message}; hint: is the desktop's X server still running and answering?")]
    X11 {
        /// The request, e.g. `GetImage`.
        request: &'static str,
        /// The X error, in words.
        message: String,
    },
}

impl GuiError {
    /// The stable code of this error.
    pub fn code(&self) -> GuiCode {
        match self {
            GuiError::DesktopMissing { .. } => GuiCode::DesktopMissing,
            GuiError::DesktopFailed { .. } => GuiCode::DesktopFailed,
            GuiError::ProgramNotFound { .. } => GuiCode::ProgramNotFound,
            GuiError::WorkingDirectory { .. } => GuiCode::WorkingDirectory,
            GuiError::SpawnFailed { .. } => GuiCode::SpawnFailed,
            GuiError::ExitedEarly { .. } => GuiCode::ExitedEarly,
            GuiError::NotAccessible { .. } => GuiCode::NotAccessible,
            GuiError::Bus { .. } => GuiCode::Bus,
            GuiError::UnknownRole { .. } => GuiCode::UnknownRole,
            GuiError::TargetNotFound { .. } => GuiCode::TargetNotFound,
            GuiError::TargetAmbiguous { .. } => GuiCode::TargetAmbiguous,
            GuiError::TargetNotVisible { .. } => GuiCode::TargetNotVisible,
            GuiError::TargetCovered { .. } => GuiCode::TargetCovered,
            GuiError::WindowGone { .. } => GuiCode::WindowGone,
            GuiError::OptionNotFound { .. } => GuiCode::OptionNotFound,
            GuiError::NotSelectable { .. } => GuiCode::NotSelectable,
            GuiError::SelectionUnchanged { .. } => GuiCode::SelectionUnchanged,
            GuiError::ActionMissing { .. } => GuiCode::ActionMissing,
            GuiError::BadKey { .. } => GuiCode::BadKey,
            GuiError::KeyUnmapped { .. } => GuiCode::KeyUnmapped,
            GuiError::WaitTimeout { .. } | GuiError::NotActionable { .. } => GuiCode::WaitTimeout,
            GuiError::NotFocused { .. } => GuiCode::NotFocusable,
            GuiError::X11 { .. } => GuiCode::X11,
            GuiError::BadTarget { .. } => GuiCode::BadTarget,
        }
    }

    /// An X request failed: shorthand for [`GuiError::X11`].
    pub(crate) fn x11(request: &'static str, error: impl std::fmt::Display) -> GuiError {
        GuiError::X11 {
            request,
            message: error.to_string(),
        }
    }

    /// An accessibility call failed: shorthand for [`GuiError::Bus`].
    pub(crate) fn bus(call: &'static str, source: zbus::Error) -> GuiError {
        GuiError::Bus {
            call,
            source: Box::new(source),
        }
    }

    /// Whether this is an accessibility call that outlived its bound (the program did not
    /// answer in time). Why it matters: a GTK3 program tearing down a dialog (hundreds of
    /// widgets, an event each) leaves calls unanswered for seconds, so a find or a reading
    /// retries such a call until its own timeout instead of failing the step at once.
    pub fn is_call_timeout(&self) -> bool {
        let GuiError::Bus { source, .. } = self else {
            return false;
        };
        match source.as_ref() {
            zbus::Error::InputOutput(io) => io.kind() == std::io::ErrorKind::TimedOut,
            zbus::Error::FDO(fdo) => matches!(fdo.as_ref(), zbus::fdo::Error::TimedOut(_)),
            _ => false,
        }
    }

    /// A part of the desktop failed: shorthand for [`GuiError::DesktopFailed`].
    pub(crate) fn desktop(part: &'static str, problem: impl Into<String>) -> GuiError {
        GuiError::DesktopFailed {
            part,
            problem: problem.into(),
        }
    }
}

#[cfg(test)]
mod call_timeout_tests {
    use super::*;

    #[test]
    fn only_a_call_that_outlived_its_bound_is_a_call_timeout() {
        let io = |kind| {
            GuiError::bus(
                "GetRole",
                zbus::Error::InputOutput(std::sync::Arc::new(std::io::Error::from(kind))),
            )
        };
        assert!(io(std::io::ErrorKind::TimedOut).is_call_timeout());
        assert!(!io(std::io::ErrorKind::BrokenPipe).is_call_timeout());
        let fdo = GuiError::bus(
            "GetRole",
            zbus::Error::FDO(Box::new(zbus::fdo::Error::TimedOut("late".into()))),
        );
        assert!(fdo.is_call_timeout());
        let gone = GuiError::bus(
            "GetRole",
            zbus::Error::FDO(Box::new(zbus::fdo::Error::UnknownObject("gone".into()))),
        );
        assert!(!gone.is_call_timeout());
    }
}

#[cfg(test)]
mod code_tests {
    use super::*;

    #[test]
    fn a_target_the_toolkit_will_not_focus_is_the_suites_problem_not_a_timeout() {
        let refused = GuiError::NotFocused {
            target: "push button \"7\"".into(),
            why: "the toolkit refused `GrabFocus`".into(),
        };
        assert_eq!(refused.code(), GuiCode::NotFocusable);
        assert_eq!(refused.code().as_str(), "test.driver.gui.not_focusable");
        assert_eq!(refused.code().class(), FailureClass::Specification);
        assert!(
            refused.to_string().contains("hint: click it first"),
            "{refused}"
        );
    }
}
