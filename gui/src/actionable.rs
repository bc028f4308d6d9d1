//! Before input: wait until the element takes it — for a pointer, enabled and stable where it
//! is; for keys, enabled, showing and focusable, and then focused — as Web waits before a
//! click, bounded by the step's time.
//!
//! Why: a program often enables a button a moment after the step before (a form validated, a
//! job finished) or slides a control into place; a click sent before that lands on nothing or
//! beside the control, and a key sent to a field that is disabled or does not have the
//! keyboard focus goes elsewhere — either way the toolkit drops it silently and a passing step
//! would be false evidence. *Enabled* is the AT-SPI state `enabled` or `sensitive` (ATK:
//! `sensitive` without `enabled` still takes a person's input); *stable* is the same extents
//! read twice in a row; *showing* is the state `showing` — or `visible` in a toolkit that marks
//! nothing below its windows `showing` (GTK4); *focusable* and *focused* are those states. The
//! first reads are sent together and need no subscription; only when a condition does not hold
//! does the wait subscribe to the program's object events (`crate::wait::Wake`: state changes
//! wake it, a re-read comes anyway when none does) and read again until it holds or `until`
//! passes — then the failure names the condition not met (`test.driver.gui.wait_timeout`) and
//! nothing is sent.

use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::wait::Wake;
use atspi::{State, StateSet};
use std::time::{Duration, Instant};

/// A condition an element must meet before it takes input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actionability {
    /// It has the `enabled` or `sensitive` state.
    Enabled,
    /// Its extents are the same in two reads in a row.
    Stable,
    /// It is on the screen (`showing`; `visible` where the toolkit marks no element showing).
    Showing,
    /// It can take the keyboard focus.
    Focusable,
    /// It has the keyboard focus.
    Focused,
}

impl std::fmt::Display for Actionability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Actionability::Enabled => "enabled",
            Actionability::Stable => "stable",
            Actionability::Showing => "showing",
            Actionability::Focusable => "focusable",
            Actionability::Focused => "focused",
        })
    }
}

/// What an input needs of its element before it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// A pointer action (a click, the wheel): enabled and stable; the wait answers the extents.
    Pointer,
    /// Keys: enabled, showing and focusable. `marks_showing` is false for a toolkit that never
    /// sets `showing` below its windows (GTK4 4.8), where `visible` stands for it.
    Keys {
        /// Whether the toolkit sets `showing` on the elements it shows.
        marks_showing: bool,
    },
    /// Keys, once the element was given the focus: it has it.
    Focus,
}

/// Wait until `element` meets `need`, at the latest `until`; its extents (as reported) for a
/// pointer action, and whether it had to be waited for (the screen may have changed).
pub(crate) async fn wait(
    a11y: &zbus::Connection,
    element: &Element,
    need: Need,
    until: Instant,
) -> Result<(Option<Rect>, bool), GuiError> {
    let started = Instant::now();
    let mut wake: Option<Wake> = None;
    loop {
        let unmet = match read(a11y, element, need).await? {
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

/// One look: the extents (a pointer's) when every condition holds, else the first that does
/// not.
async fn read(
    a11y: &zbus::Connection,
    element: &Element,
    need: Need,
) -> Result<Result<Option<Rect>, Actionability>, GuiError> {
    if need != Need::Pointer {
        let states = element.read_states(a11y).await?;
        return Ok(unmet(&states, need).map_or(Ok(None), Err));
    }
    let (states, first) =
        futures_util::future::join(element.read_states(a11y), element.extents(a11y)).await;
    if let Some(unmet) = unmet(&states?, need) {
        return Ok(Err(unmet));
    }
    let first = first?;
    let second = element.extents(a11y).await?;
    Ok(if first == second {
        Ok(Some(second))
    } else {
        Err(Actionability::Stable)
    })
}

/// The first state condition of `need` that `states` do not meet (stability is read apart).
fn unmet(states: &StateSet, need: Need) -> Option<Actionability> {
    let enabled = states.contains(State::Enabled) || states.contains(State::Sensitive);
    match need {
        Need::Focus if !states.contains(State::Focused) => Some(Actionability::Focused),
        Need::Focus => None,
        _ if !enabled => Some(Actionability::Enabled),
        Need::Pointer => None,
        Need::Keys { marks_showing } => {
            let showing = states.contains(State::Showing)
                || (!marks_showing && states.contains(State::Visible));
            if !showing {
                Some(Actionability::Showing)
            } else if !states.contains(State::Focusable) {
                Some(Actionability::Focusable)
            } else {
                None
            }
        }
    }
}

/// The time an input waits for its element when its caller gives none (library callers; a
/// step waits as long as its action timeout allows).
pub const DEFAULT_WITHIN: Duration = Duration::from_secs(5);

#[cfg(test)]
mod tests {
    use super::*;

    fn states(list: &[State]) -> StateSet {
        list.iter().copied().collect()
    }

    #[test]
    fn keys_need_an_enabled_showing_focusable_element_in_that_order() {
        let keys = Need::Keys {
            marks_showing: true,
        };
        let ready = [State::Sensitive, State::Showing, State::Focusable];
        assert_eq!(unmet(&states(&ready), keys), None);
        // later.py's "Never": focusable and showing, never sensitive.
        let never = [State::Focusable, State::Showing, State::Visible];
        assert_eq!(unmet(&states(&never), keys), Some(Actionability::Enabled));
        let hidden = [State::Enabled, State::Visible, State::Focusable];
        assert_eq!(unmet(&states(&hidden), keys), Some(Actionability::Showing));
        let label = [State::Enabled, State::Showing];
        assert_eq!(unmet(&states(&label), keys), Some(Actionability::Focusable));
    }

    #[test]
    fn visible_stands_for_showing_only_where_the_toolkit_marks_none_showing() {
        // A GTK4 button: sensitive, visible, focusable, never showing.
        let gtk4 = states(&[State::Sensitive, State::Visible, State::Focusable]);
        let marks = |marks_showing| Need::Keys { marks_showing };
        assert_eq!(unmet(&gtk4, marks(false)), None);
        assert_eq!(unmet(&gtk4, marks(true)), Some(Actionability::Showing));
    }

    #[test]
    fn a_pointer_needs_only_enabled_among_the_states_and_focus_only_focused() {
        let button = states(&[State::Sensitive]);
        assert_eq!(unmet(&button, Need::Pointer), None);
        assert_eq!(unmet(&button, Need::Focus), Some(Actionability::Focused));
        let focused = states(&[State::Focused]);
        assert_eq!(unmet(&focused, Need::Focus), None);
        assert_eq!(
            unmet(&StateSet::empty(), Need::Pointer),
            Some(Actionability::Enabled)
        );
    }
}
