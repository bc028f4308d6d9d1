//! Before a pointer action: wait until the element takes input — enabled, and stable where it is
//! — as Web waits before a click, bounded by the step's time.
//!
//! Why: a program often enables a button a moment after the step before (a form validated, a
//! job finished) or slides a control into place; a click sent before that lands on nothing or
//! beside the control and the toolkit drops it silently. *Enabled* is the AT-SPI state
//! `enabled` or `sensitive` (ATK: `sensitive` without `enabled` still takes a person's input);
//! *stable* is the same extents read twice in a row. The first reads are sent together and
//! need no subscription; only when a condition does not hold does the wait subscribe to the
//! program's object events (`crate::wait::Wake`: state changes wake it, a re-read comes anyway
//! when none does) and read again until it holds or `until` passes — then the failure names the
//! condition not met (`test.driver.gui.wait_timeout`) and nothing is sent.

use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::wait::Wake;
use atspi::State;
use std::time::{Duration, Instant};

/// A condition an element must meet before it is clicked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actionability {
    /// It has the `enabled` or `sensitive` state.
    Enabled,
    /// Its extents are the same in two reads in a row.
    Stable,
}

impl std::fmt::Display for Actionability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Actionability::Enabled => "enabled",
            Actionability::Stable => "stable",
        })
    }
}

/// Wait until `element` is enabled and stable, at the latest `until`; its extents (as
/// reported) when it is, and whether it had to be waited for (the screen may have changed).
pub(crate) async fn wait(
    a11y: &zbus::Connection,
    element: &Element,
    until: Instant,
) -> Result<(Rect, bool), GuiError> {
    let started = Instant::now();
    let mut wake: Option<Wake> = None;
    loop {
        let unmet = match read(a11y, element).await? {
            Ok(extents) => return Ok((extents, wake.is_some())),
            Err(unmet) => unmet,
        };
        let timed_out = || GuiError::NotActionable {
            target: element.describe(),
            condition: unmet,
            waited_ms: started.elapsed().as_millis(),
        };
        match wake.as_mut() {
            Some(wake) => {
                if !wake.next().await {
                    return Err(timed_out());
                }
            }
            None => {
                let left = until.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(timed_out());
                }
                // Read again at once after subscribing: a change between the read and the
                // subscription would otherwise wait for the next re-read.
                wake = Some(Wake::subscribe(a11y, &element.bus_name, left).await?);
            }
        }
    }
}

/// One look: the extents when both conditions hold, else the first that does not.
async fn read(
    a11y: &zbus::Connection,
    element: &Element,
) -> Result<Result<Rect, Actionability>, GuiError> {
    let (states, first) =
        futures_util::future::join(element.read_states(a11y), element.extents(a11y)).await;
    let states = states?;
    if !(states.contains(State::Enabled) || states.contains(State::Sensitive)) {
        return Ok(Err(Actionability::Enabled));
    }
    let first = first?;
    let second = element.extents(a11y).await?;
    Ok(if first == second {
        Ok(second)
    } else {
        Err(Actionability::Stable)
    })
}

/// The time a pointer action waits for its element when its caller gives none (library
/// callers; a step waits as long as its action timeout allows).
pub const DEFAULT_WITHIN: Duration = Duration::from_secs(5);
