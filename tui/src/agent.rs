//! The terminal's agent surface: [`TuiContext`] implements
//! `a3s_test_driver::TerminalAgentContext`, so an agent session drives a program on a terminal
//! through the contract alone (the session names no driver type).
//!
//! Two waits make its gate exact. [`Terminal::drained`]: output the program wrote before the
//! call is on the screen when it returns — bytes still in the kernel's flip buffer (moved by a
//! zero-timeout poll), unread on the master (`FIONREAD`) or read but not yet processed (the
//! reader's busy flag) are waited for, woken by the reader's pass
//! notification, never by a timer loop — so a screen read for a gate sees every change already
//! on its way. [`Terminal::settle`]: after input, until the program reacted (the revision moved)
//! and then went quiet for a period, so the observation that follows an action shows the answer.

use crate::driver::TuiContext;
use crate::terminal::{Output, Terminal};
use a3s_test_driver::{
    BrowserProcess, ScreenCursor, ScreenModes, ScreenSettled, TerminalAgentContext, TerminalScreen,
};
use rustix::event::{PollFd, PollFlags, Timespec};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::time::Instant;

impl Terminal {
    /// Wait (until `deadline` at most) until every byte the program wrote before this call has
    /// been processed by the emulator, or the output stream stopped.
    pub async fn drained(&self, deadline: Instant) {
        let mut passes = self.shared.passes.subscribe();
        loop {
            passes.borrow_and_update();
            // Output another process wrote to the terminal sits in the kernel's flip buffer
            // until a worker moves it to the master's read queue; a poll of the master runs that
            // move first (the line discipline flushes pending buffers when it finds nothing to
            // read), so `FIONREAD` then counts every byte written before this call.
            let mut fds = [PollFd::new(&*self.master, PollFlags::IN)];
            let _ = rustix::event::poll(&mut fds, Some(&Timespec::default()));
            let unread = rustix::io::ioctl_fionread(&*self.master).unwrap_or(0);
            let busy = self.shared.busy.load(Ordering::SeqCst);
            let open = self.shared.lock().output == Output::Open;
            if !open || (unread == 0 && !busy) {
                return;
            }
            tokio::select! {
                changed = passes.changed() => if changed.is_err() { return },
                _ = tokio::time::sleep_until(deadline) => return,
            }
        }
    }

    /// Wait until the screen's revision passed `after` (when given; the program's output ending
    /// counts too), then until it has made no change for `quiet` (counted from its last change,
    /// so a screen already quiet that long is settled at once); at most until `cap` from now and
    /// never past `deadline`.
    pub async fn settle(
        &self,
        after: Option<u64>,
        quiet: Duration,
        cap: Duration,
        deadline: Instant,
    ) -> ScreenSettled {
        let started = Instant::now();
        let until = deadline.min(started + cap);
        let done = |settled: bool| ScreenSettled {
            settled,
            waited_ms: started.elapsed().as_millis() as u64,
        };
        let mut changes = self.shared.changed.subscribe();
        if let Some(after) = after {
            loop {
                changes.borrow_and_update();
                let (revision, open) = {
                    let state = self.shared.lock();
                    (state.revision(), state.output == Output::Open)
                };
                if revision > after || !open {
                    break;
                }
                tokio::select! {
                    _ = changes.changed() => {}
                    // No reaction at all (a program that does not echo): the screen has been
                    // quiet since before the input, longer than any quiet period.
                    _ = tokio::time::sleep_until(until) => return done(true),
                }
            }
        }
        // Quiet counts from the last change, not from this call: a screen that has not changed
        // for the period is settled at once.
        loop {
            changes.borrow_and_update();
            let quiet_for = self.shared.lock().quiet_for();
            let Some(left) = quiet.checked_sub(quiet_for).filter(|l| !l.is_zero()) else {
                return done(true);
            };
            tokio::select! {
                changed = changes.changed() => if changed.is_err() { return done(true) },
                _ = tokio::time::sleep(left) => {}
                _ = tokio::time::sleep_until(until) => return done(false),
            }
        }
    }

    /// The screen as the agent surface's plain data.
    pub fn agent_screen(&self) -> TerminalScreen {
        let screen = self.screen();
        TerminalScreen {
            revision: screen.revision,
            columns: u32::from(screen.size.columns()),
            rows: (0..screen.rows.len()).map(|r| screen.row_text(r)).collect(),
            cursor: ScreenCursor {
                row: u32::from(screen.cursor.row) + 1,
                column: u32::from(screen.cursor.column) + 1,
                visible: screen.cursor.visible,
            },
            modes: ScreenModes {
                bracketed_paste: screen.modes.bracketed_paste,
                application_cursor: screen.modes.application_cursor,
                alternate_screen: screen.modes.alternate_screen,
            },
            exit: self.exit_status().map(|e| e.to_string()),
        }
    }
}

impl TerminalAgentContext for TuiContext {
    async fn screen(&self, deadline: Instant) -> TerminalScreen {
        self.terminal().drained(deadline).await;
        self.terminal().agent_screen()
    }

    async fn settle(
        &self,
        after: Option<u64>,
        quiet: Duration,
        cap: Duration,
        deadline: Instant,
    ) -> ScreenSettled {
        self.terminal().settle(after, quiet, cap, deadline).await
    }

    fn program_process(&self) -> BrowserProcess {
        let pid = self.terminal().pid();
        BrowserProcess { pid, pgid: pid }
    }
}
