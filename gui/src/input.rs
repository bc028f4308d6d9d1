//! Real input: pointer clicks and keys sent through the X server's XTest extension, as a person's
//! would arrive — never an accessibility action in their place (a step that asks for one goes
//! through `crate::action`, not here).
//!
//! Why real input: a toolkit's `DoAction` skips what a person goes through (the hit test, the
//! focus, the key map) and GTK applies it ~250 ms later, while a real click lands in a few ms.
//! A click goes to an element's visible centre only once it is enabled and stable
//! (`crate::actionable`, waited for) and after `crate::hit` proved that the point lands on that
//! element; keys go to the element's window after `SetInputFocus` (there is no
//! window manager to give it focus). Each action waits for the server to have handled its
//! events (one round trip) and says which path ran.

use crate::actionable::{self, Need};
use crate::ancestry::Ancestry;
use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::hit::{self, Hit};
use crate::keys::{Chord, Key, Keymap, Modifier};
use crate::modal;
use crate::program::Program;
use crate::timing::Laps;
use crate::window::{self, Placement};
use crate::x11::{TopWindow, X11};
use std::time::{Duration, Instant};
use x11rb::protocol::xproto::{
    ConnectionExt as _, InputFocus, Window, BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT,
    KEY_PRESS_EVENT, KEY_RELEASE_EVENT, MOTION_NOTIFY_EVENT,
};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::CURRENT_TIME;

/// A bus error saying the element or its program is gone, as `window_gone`.
pub(crate) fn gone_if(error: GuiError, element: &Element) -> GuiError {
    if modal::is_gone(&error) {
        GuiError::WindowGone {
            target: element.describe(),
        }
    } else {
        error
    }
}

/// Which path an action took, for the step's detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputPath {
    /// Real pointer or key events through XTest.
    XTest,
}

impl std::fmt::Display for InputPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputPath::XTest => f.write_str("real input (XTest)"),
        }
    }
}

/// How many clicks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clicks {
    /// One click.
    Single,
    /// Two clicks in a row (a double click).
    Double,
}

/// What an action did.
#[derive(Debug, Clone)]
pub struct Acted {
    /// The path it took.
    pub path: InputPath,
    /// The X window it went to.
    pub window: Window,
    /// For a pointer action: the hit test that allowed it.
    pub hit: Option<Hit>,
    /// How long it took, hit test included, until the server had handled the events.
    pub took: Duration,
}

/// Real input on one desktop: the X connection and its keyboard map.
#[derive(Debug)]
pub struct Input {
    x: X11,
    a11y: zbus::Connection,
    keymap: Keymap,
}

impl Input {
    /// Input on the desktop at `display`, whose accessibility bus is `a11y`.
    pub fn open(display: &str, a11y: &zbus::Connection) -> Result<Input, GuiError> {
        let x = X11::open(display)?;
        let keymap = Keymap::read(x.conn())?;
        Ok(Input {
            x,
            a11y: a11y.clone(),
            keymap,
        })
    }

    /// The X connection (screenshots and windows share it).
    pub fn x11(&self) -> &X11 {
        &self.x
    }

    /// The accessibility bus the hit tests ask.
    pub(crate) fn a11y(&self) -> &zbus::Connection {
        &self.a11y
    }

    /// Where `element` of `program` is on the screen.
    pub async fn locate(
        &self,
        program: &Program,
        element: &Element,
    ) -> Result<Placement, GuiError> {
        window::locate(&self.x, &self.a11y, element, program.pgid()).await
    }

    /// Click `element` at its visible centre once it is enabled and stable (waited for up to
    /// [`actionable::DEFAULT_WITHIN`]), after the hit test; covered or invisible: a coded
    /// failure and nothing sent. Its ancestry is asked on the bus ([`Input::click_in`] takes it
    /// from the tree read that found it).
    pub async fn click(
        &self,
        program: &Program,
        element: &Element,
        clicks: Clicks,
    ) -> Result<Acted, GuiError> {
        let until = Instant::now() + actionable::DEFAULT_WITHIN;
        self.click_in(program, element, &Ancestry::default(), clicks, until, &[])
            .await
    }

    /// [`Input::click`] with the element's ancestry from the tree read that found it, the
    /// actionability wait ending at `until` (a step's action timeout) and `held` modifier keys
    /// pressed around the button (Control+click adds a row to a list's selection; none for a
    /// plain click). The keys are looked up before anything is sent and released after the
    /// button, as a person's hand would.
    pub async fn click_in(
        &self,
        program: &Program,
        element: &Element,
        ancestry: &Ancestry,
        clicks: Clicks,
        until: Instant,
        held: &[Modifier],
    ) -> Result<Acted, GuiError> {
        let held = held
            .iter()
            .map(|m| self.modifier(*m))
            .collect::<Result<Vec<u8>, GuiError>>()?;
        let started = Instant::now();
        let mut laps = Laps::start("click");
        let (placement, hit) = self
            .aim(program, element, ancestry, until, &mut laps)
            .await?;
        let x16 = |v: i32| v.clamp(0, i32::from(i16::MAX)) as i16;
        let (x, y) = (x16(hit.x), x16(hit.y));
        let root = self.x.root();
        self.fake(MOTION_NOTIFY_EVENT, 0, root, x, y)?;
        let times = match clicks {
            Clicks::Single => 1,
            Clicks::Double => 2,
        };
        for keycode in &held {
            self.fake(KEY_PRESS_EVENT, *keycode, root, 0, 0)?;
        }
        for _ in 0..times {
            self.fake(BUTTON_PRESS_EVENT, 1, root, x, y)?;
            self.fake(BUTTON_RELEASE_EVENT, 1, root, x, y)?;
        }
        for keycode in held.iter().rev() {
            self.fake(KEY_RELEASE_EVENT, *keycode, root, 0, 0)?;
        }
        self.x.sync()?;
        laps.lap("send");
        laps.print();
        Ok(Acted {
            path: InputPath::XTest,
            window: placement.window.id,
            hit: Some(hit),
            took: started.elapsed(),
        })
    }

    /// Click screen point `(x, y)`, which must lie in `window` with that window on top there
    /// (else `target_covered` naming what is, and nothing sent): a session's click at a point
    /// of a window screenshot, where no element is the target.
    pub fn click_at(&self, window: &TopWindow, x: i32, y: i32) -> Result<Acted, GuiError> {
        let started = Instant::now();
        let top = self
            .x
            .top_windows()?
            .into_iter()
            .rev()
            .find(|w| w.contains(x, y));
        match top {
            Some(top) if top.id == window.id => {}
            Some(top) => {
                return Err(GuiError::TargetCovered {
                    target: format!("the point ({x}, {y}) of {}", window.describe()),
                    x,
                    y,
                    by: top.describe(),
                })
            }
            None => {
                return Err(GuiError::WindowGone {
                    target: window.describe(),
                })
            }
        }
        let x16 = |v: i32| v.clamp(0, i32::from(i16::MAX)) as i16;
        let (px, py) = (x16(x), x16(y));
        let root = self.x.root();
        self.fake(MOTION_NOTIFY_EVENT, 0, root, px, py)?;
        self.fake(BUTTON_PRESS_EVENT, 1, root, px, py)?;
        self.fake(BUTTON_RELEASE_EVENT, 1, root, px, py)?;
        self.x.sync()?;
        Ok(Acted {
            path: InputPath::XTest,
            window: window.id,
            hit: None,
            took: started.elapsed(),
        })
    }

    /// Type `text` into `element`'s window (its focused element gets it), one key per
    /// character, Shift where the character is on the shifted level. A character no key types
    /// is refused before anything is sent.
    pub async fn type_text(
        &self,
        program: &Program,
        element: &Element,
        text: &str,
    ) -> Result<Acted, GuiError> {
        let started = Instant::now();
        let chords: Vec<Chord> = text
            .chars()
            .map(|c| Chord {
                modifiers: Vec::new(),
                key: Key::of_char(c),
            })
            .collect();
        let window = self.focus(program, element).await?;
        self.send(&chords)?;
        Ok(Acted {
            path: InputPath::XTest,
            window,
            hit: None,
            took: started.elapsed(),
        })
    }

    /// Press a named key or chord (`Return`, `ctrl+a`) in `element`'s window.
    pub async fn press(
        &self,
        program: &Program,
        element: &Element,
        chord: &Chord,
    ) -> Result<Acted, GuiError> {
        let started = Instant::now();
        let window = self.focus(program, element).await?;
        self.send(std::slice::from_ref(chord))?;
        Ok(Acted {
            path: InputPath::XTest,
            window,
            hit: None,
            took: started.elapsed(),
        })
    }

    /// Where a pointer action on `element` goes: once no modal dialog keeps input from its
    /// window, it is enabled and stable (waited for until `until`) and the hit test proved
    /// that its visible centre lands on it. Clicks and the wheel share it.
    pub(crate) async fn aim(
        &self,
        program: &Program,
        element: &Element,
        ancestry: &Ancestry,
        until: Instant,
        laps: &mut Laps,
    ) -> Result<(Placement, Hit), GuiError> {
        let (placement, reported) = self
            .placed_ready(program, element, ancestry, Need::Pointer, until, laps)
            .await?;
        let reported = match reported {
            Some(reported) => reported,
            None => element.extents(&self.a11y).await?,
        };
        let hit = hit::centre(
            self.x.size(),
            &self.a11y,
            element,
            &placement,
            ancestry,
            reported,
        )
        .await?;
        laps.lap("hit");
        Ok((placement, hit))
    }

    /// Where `element` is once it meets `need` (waited for until `until`) and input can reach
    /// its window (see [`Input::placed`]); its extents as reported when the wait read them (a
    /// pointer's need). Pointer and key steps share it.
    pub(crate) async fn placed_ready(
        &self,
        program: &Program,
        element: &Element,
        ancestry: &Ancestry,
        need: Need,
        until: Instant,
        laps: &mut Laps,
    ) -> Result<(Placement, Option<Rect>), GuiError> {
        // Placed first: a modal dialog over the element fails the step at once rather than
        // after a wait for an element it keeps from input.
        let placement = self.placed(program, element, ancestry, laps).await?;
        let (reported, waited) = actionable::wait(&self.a11y, element, need, until)
            .await
            .map_err(|e| gone_if(e, element))?;
        laps.lap("actionable");
        if !waited {
            return Ok((placement, reported));
        }
        // Time passed: the windows may have moved or a dialog come up.
        let placement = self.placed(program, element, ancestry, laps).await?;
        Ok((placement, reported))
    }

    /// Where `element` is, once it is proven that input can reach its window: the program
    /// runs (else `window_gone`) and no other window of it is modal (else `target_covered`
    /// naming that dialog). Nothing is sent either way. The window is placed and the modal
    /// windows are looked for at the same time.
    pub(crate) async fn placed(
        &self,
        program: &Program,
        element: &Element,
        ancestry: &Ancestry,
        laps: &mut Laps,
    ) -> Result<Placement, GuiError> {
        if program.exit().is_some() {
            return Err(GuiError::WindowGone {
                target: element.describe(),
            });
        }
        let placement =
            window::locate_in(&self.x, &self.a11y, element, program.pgid(), ancestry).await?;
        laps.lap("locate");
        let toolkit = program.toolkit(&self.a11y).await;
        let modal =
            modal::modal_cover(&self.x, &self.a11y, &placement, program.pgid(), toolkit).await?;
        laps.lap("modal");
        if let Some(by) = modal {
            let reported = element.extents(&self.a11y).await?;
            let (x, y) = placement.to_screen(reported).centre();
            return Err(GuiError::TargetCovered {
                target: element.describe(),
                x,
                y,
                by,
            });
        }
        Ok(placement)
    }

    /// Give `element`'s window the keyboard focus.
    async fn focus(&self, program: &Program, element: &Element) -> Result<Window, GuiError> {
        let mut laps = Laps::start("focus");
        let placement = self
            .placed(program, element, &Ancestry::default(), &mut laps)
            .await?;
        laps.print();
        let window = placement.window.id;
        self.x
            .conn()
            .set_input_focus(InputFocus::PARENT, window, CURRENT_TIME)
            .map_err(|e| GuiError::x11("SetInputFocus", e))?;
        Ok(window)
    }

    /// Press and release each chord; every key is looked up before the first is sent.
    fn send(&self, chords: &[Chord]) -> Result<(), GuiError> {
        let mut plan = Vec::new();
        for chord in chords {
            let placed =
                self.keymap
                    .place(chord.key.keysym)
                    .ok_or_else(|| match chord.key.character {
                        Some(character) => GuiError::KeyUnmapped { character },
                        None => GuiError::BadKey {
                            key: format!("{:#x}", chord.key.keysym),
                            why: "no key of the X keyboard map has it".into(),
                        },
                    })?;
            let mut held = Vec::new();
            for modifier in &chord.modifiers {
                held.push(self.modifier(*modifier)?);
            }
            if placed.shifted && !chord.modifiers.contains(&Modifier::Shift) {
                held.push(self.modifier(Modifier::Shift)?);
            }
            plan.push((held, placed.keycode));
        }
        let root = self.x.root();
        for (held, keycode) in plan {
            for modifier in &held {
                self.fake(KEY_PRESS_EVENT, *modifier, root, 0, 0)?;
            }
            self.fake(KEY_PRESS_EVENT, keycode, root, 0, 0)?;
            self.fake(KEY_RELEASE_EVENT, keycode, root, 0, 0)?;
            for modifier in held.iter().rev() {
                self.fake(KEY_RELEASE_EVENT, *modifier, root, 0, 0)?;
            }
        }
        self.x.sync()
    }

    /// The keycode of a modifier key.
    fn modifier(&self, modifier: Modifier) -> Result<u8, GuiError> {
        self.keymap
            .place(modifier.keysym())
            .map(|placed| placed.keycode)
            .ok_or_else(|| GuiError::BadKey {
                key: format!("{modifier:?}"),
                why: "the X keyboard map has no such modifier key".into(),
            })
    }

    /// One XTest event.
    pub(crate) fn fake(
        &self,
        kind: u8,
        detail: u8,
        root: Window,
        x: i16,
        y: i16,
    ) -> Result<(), GuiError> {
        self.x
            .conn()
            .xtest_fake_input(kind, detail, 0, root, x, y, 0)
            .map_err(|e| GuiError::x11("XTestFakeInput", e))?;
        Ok(())
    }
}
