//! The keyboard focus for a key step's target: before `press`, `type` or `fill` sends a key to
//! an element, the element is ready for keys and has the focus — proven by its `focused` state,
//! not assumed.
//!
//! Why: keys have no hit test. A key goes wherever the toolkit's focus is, so one sent to a
//! field that is disabled, hidden or not yet focused lands in another control or nowhere, and
//! the step would pass on input nobody received. So the element must first be enabled,
//! showing and focusable (`crate::actionable`, event-woken, the step's bound); then its window
//! gets the X input focus (there is no window manager to give it). When the element does not
//! report `focused` within a short event-woken wait (the toolkit handles the focus-in after the
//! X sync, and GTK3 drops an entry's `focused` for a moment after typing), it is given the
//! focus — by a real click for a text a step types into (what a person does, after the click's
//! own actionability wait and hit test), or by the toolkit's `GrabFocus` for a key pressed at a
//! control (a click there would activate it) — and the wait goes on until the element reports
//! `focused`. Anything unmet is a coded failure naming the condition, and no key is sent. A
//! top-level window as the target takes keys as a step without a target does: its X window
//! gets the focus, and its focused control the keys.

use crate::actionable::{self, Need};
use crate::ancestry::Ancestry;
use crate::element::Element;
use crate::error::GuiError;
use crate::input::{gone_if, Acted, Clicks, Input};
use crate::program::{Program, ROOT_PATH};
use crate::timing::Laps;
use crate::wait::{self, Condition};
use atspi::State;
use std::time::{Duration, Instant};
use x11rb::protocol::xproto::{ConnectionExt as _, InputFocus};
use x11rb::CURRENT_TIME;

/// How a key step gives its target the focus when it does not have it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focusing {
    /// A real click at its visible centre: a text field a step types into.
    Click,
    /// The toolkit's `GrabFocus`: a control a key is pressed at, which a click would activate.
    Request,
}

/// How the target came to have the focus, for the step's detail.
#[derive(Debug, Clone)]
pub enum Focused {
    /// It had it already.
    Had,
    /// A real click gave it (the click's hit test is its evidence).
    Click(Acted),
    /// The toolkit's `GrabFocus` gave it.
    Request,
    /// The target is a top-level window: its X window has the focus.
    Window,
}

impl Focused {
    /// The word the step's detail records (`focus`).
    pub fn word(&self) -> &'static str {
        match self {
            Focused::Had => "had",
            Focused::Click(_) => "click",
            Focused::Request => "grab_focus",
            Focused::Window => "window",
        }
    }
}

/// How long a key step waits for the focus to arrive by itself before it gives it.
const FOCUS_ARRIVES: Duration = Duration::from_millis(150);

/// Whether `element` has the focus, or gets it by itself within [`FOCUS_ARRIVES`] (and before
/// `until`), woken by its events.
///
/// Why wait before giving it: the toolkit handles the X focus-in after the sync, and GTK3 drops
/// an entry's `focused` state for tens of ms after typing into it, so a field that has the
/// focus can read "not focused" once. Giving it then does harm: `GrabFocus` on a GTK3
/// `GtkEntry` selects all its text (a following BackSpace deletes everything) and a click moves
/// the caret to the middle.
async fn focus_arrives(
    a11y: &zbus::Connection,
    element: &Element,
    until: Instant,
) -> Result<bool, GuiError> {
    let within = FOCUS_ARRIVES.min(until.saturating_duration_since(Instant::now()));
    match wait::until(
        a11y,
        element,
        &Condition::State(State::Focused, true),
        within,
    )
    .await
    {
        Ok(_) => Ok(true),
        Err(GuiError::WaitTimeout { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

impl Input {
    /// Make `element` (found with `ancestry`) ready for keys and give it the keyboard focus
    /// (see the module doc), waiting until `until` at the latest; the way it got it.
    pub async fn focus_for_keys(
        &self,
        program: &Program,
        element: &Element,
        ancestry: &Ancestry,
        focusing: Focusing,
        until: Instant,
    ) -> Result<Focused, GuiError> {
        let mut laps = Laps::start("keys");
        let a11y = self.a11y();
        let set_focus = |window| {
            self.x11()
                .conn()
                .set_input_focus(InputFocus::PARENT, window, CURRENT_TIME)
                .map_err(|e| GuiError::x11("SetInputFocus", e))
        };
        let parent = element
            .parent_path(a11y)
            .await
            .map_err(|e| gone_if(e, element))?;
        if parent.as_deref() == Some(ROOT_PATH) {
            let placement = self.placed(program, element, ancestry, &mut laps).await?;
            set_focus(placement.window.id)?;
            return Ok(Focused::Window);
        }
        // Unknown (the program does not answer): it marks `showing` as AT-SPI says.
        let marks_showing = program
            .toolkit(a11y)
            .await
            .is_none_or(crate::toolkit::Toolkit::marks_showing);
        let need = Need::Keys { marks_showing };
        let (placement, _) = self
            .placed_ready(program, element, ancestry, need, until, &mut laps)
            .await?;
        set_focus(placement.window.id)?;
        self.x11().sync()?;
        let focused = if focus_arrives(a11y, element, until)
            .await
            .map_err(|e| gone_if(e, element))?
        {
            Focused::Had
        } else {
            match focusing {
                Focusing::Click => Focused::Click(
                    self.click_in(program, element, ancestry, Clicks::Single, until, &[])
                        .await?,
                ),
                Focusing::Request
                    if element
                        .grab_focus(a11y)
                        .await
                        .map_err(|e| gone_if(e, element))? =>
                {
                    Focused::Request
                }
                Focusing::Request => {
                    return Err(GuiError::NotFocused {
                        target: element.describe(),
                        why: "the toolkit refused `GrabFocus`; its elements take the focus \
                              only from input"
                            .into(),
                    })
                }
            }
        };
        actionable::wait(a11y, element, Need::Focus, until)
            .await
            .map_err(|e| gone_if(e, element))?;
        laps.lap("focused");
        laps.print();
        Ok(focused)
    }
}
