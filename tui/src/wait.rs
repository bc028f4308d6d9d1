//! Waiting for the screen or the program: woken by the reader's change notification (the
//! revision bump on a `tokio::sync::watch`) and by the program's exit, never by a timer loop;
//! the deadline is the only timer.
//!
//! A condition is tested against the visible screen's text after every change. A wait ends with the
//! screen that satisfied it, or with a coded error carrying the screen that did not: the
//! program ended (and its output was read to the end) — `exited_early`; the output budget was
//! exceeded — `output_budget`; the deadline passed — `wait_timeout`.

use crate::error::{ProgramExit, TuiError};
use crate::screen::Screen;
use crate::terminal::{Output, Terminal};
use std::time::Instant;

/// What a wait waits for.
#[derive(Debug, Clone)]
pub enum Condition {
    /// The visible screen contains this text (rows joined by newlines).
    Text(String),
    /// The visible screen does not contain this text.
    NotText(String),
    /// The regular expression matches the visible screen's text.
    Regex(regex::Regex),
    /// The program has ended and its output has been read to the end (a background process
    /// it left holding the terminal keeps the output open, and the wait then times out).
    Exited,
}

impl Condition {
    /// The condition in words, for messages.
    pub fn describe(&self) -> String {
        match self {
            Condition::Text(text) => format!("the screen to contain {text:?}"),
            Condition::NotText(text) => format!("the screen not to contain {text:?}"),
            Condition::Regex(regex) => format!("the screen to match /{}/", regex.as_str()),
            Condition::Exited => "the program to exit".to_string(),
        }
    }

    /// Whether it holds for a screen whose text is `text`.
    fn holds(&self, text: &str, ended: bool) -> bool {
        match self {
            Condition::Text(needle) => text.contains(needle.as_str()),
            Condition::NotText(needle) => !text.contains(needle.as_str()),
            Condition::Regex(regex) => regex.is_match(text),
            Condition::Exited => ended,
        }
    }
}

impl Terminal {
    /// Wait until `condition` holds or `deadline` passes; returns the screen that satisfied it.
    /// Runs on a tokio runtime with time enabled (the deadline is its one timer).
    pub async fn wait_for(
        &self,
        condition: &Condition,
        deadline: Instant,
    ) -> Result<Screen, TuiError> {
        let awaited = condition.describe();
        self.watch(
            |exit| {
                // Only the text is tested; the full screen (every cell's style) is copied once,
                // for the answer.
                let (text, output) = {
                    let state = self.shared.lock();
                    (state.text(), state.output)
                };
                if output == Output::OverBudget {
                    return Some(Err(TuiError::OutputBudget {
                        budget: self.max_output_bytes(),
                    }));
                }
                if let Output::Failed(e) = output {
                    return Some(Err(TuiError::Io {
                        action: "read",
                        source: e.into(),
                    }));
                }
                let ended = exit.is_some() && output == Output::Ended;
                if condition.holds(&text, ended) {
                    return Some(Ok(self.screen()));
                }
                match (ended, exit) {
                    (true, Some(exit)) => Some(Err(exited_early(exit, condition, self.screen()))),
                    _ => None,
                }
            },
            &awaited,
            deadline,
        )
        .await
    }

    /// Wait until `holds` is true of the whole screen — what a text [`Condition`] cannot see:
    /// the cursor, the modes a program turned on (a line editor turns bracketed paste on once it
    /// has the terminal in raw mode, the sign that it reads keys itself) — woken by each change
    /// and by the exit; returns the screen that satisfied it. `awaited` names it for the
    /// timeout's message.
    pub async fn wait_until(
        &self,
        holds: impl Fn(&Screen) -> bool,
        awaited: &str,
        deadline: Instant,
    ) -> Result<Screen, TuiError> {
        self.watch(
            |_| {
                let screen = self.screen();
                holds(&screen).then_some(Ok(screen))
            },
            awaited,
            deadline,
        )
        .await
    }

    /// The one wait loop: `look` is asked at once and after every change of the screen and the
    /// program's exit, with the exit status read before it (so an exit after that read still
    /// wakes the loop); it ends the wait with `Some` or waits on with `None`. At `deadline` the
    /// wait fails with `wait_timeout` naming `awaited`, with the screen then.
    async fn watch(
        &self,
        mut look: impl FnMut(Option<ProgramExit>) -> Option<Result<Screen, TuiError>>,
        awaited: &str,
        deadline: Instant,
    ) -> Result<Screen, TuiError> {
        let started = Instant::now();
        let mut changes = self.shared.changed.subscribe();
        let until = tokio::time::Instant::from_std(deadline);
        loop {
            changes.borrow_and_update();
            let exit = self.exit_status();
            if let Some(end) = look(exit) {
                return end;
            }
            tokio::select! {
                _ = changes.changed() => {}
                _ = self.exit.exited(), if exit.is_none() => {}
                _ = tokio::time::sleep_until(until) => {
                    return Err(TuiError::WaitTimeout {
                        awaited: awaited.to_string(),
                        waited_ms: started.elapsed().as_millis(),
                        screen: Box::new(self.screen()),
                    });
                }
            }
        }
    }

    /// Wait until the program has ended (output read to the end); returns how it ended.
    pub async fn wait_exit(&self, deadline: Instant) -> Result<ProgramExit, TuiError> {
        self.wait_for(&Condition::Exited, deadline).await?;
        Ok(self
            .exit_status()
            .expect("an ended program has an exit status"))
    }
}

fn exited_early(exit: ProgramExit, condition: &Condition, screen: Screen) -> TuiError {
    TuiError::ExitedEarly {
        exit,
        awaited: condition.describe(),
        screen: Box::new(screen),
    }
}
