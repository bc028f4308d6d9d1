//! Keys: named keys and chords as typed values, and the X server's keyboard map that turns a
//! key or a character into a keycode (with Shift when the character is on the shifted level).
//!
//! Why the map is read from the server and never assumed: the keycode of `7` depends on the
//! server's layout. Keypad keys are skipped: their keysyms type nothing while NumLock is off,
//! so `7` is always the main row's key.

use crate::error::GuiError;
use x11rb::protocol::xproto::{ConnectionExt as _, Keycode};

/// A modifier held during a chord.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modifier {
    /// Control (`ctrl`, `control`).
    Control,
    /// Shift.
    Shift,
    /// Alt (`alt`).
    Alt,
    /// Super (`super`, `meta`).
    Super,
}

impl Modifier {
    /// The left modifier key's keysym.
    pub(crate) fn keysym(self) -> u32 {
        match self {
            Modifier::Control => 0xffe3,
            Modifier::Shift => 0xffe1,
            Modifier::Alt => 0xffe9,
            Modifier::Super => 0xffeb,
        }
    }
}

/// The named keys (their keysyms).
const NAMED: &[(&str, u32)] = &[
    ("return", 0xff0d),
    ("enter", 0xff0d),
    ("escape", 0xff1b),
    ("esc", 0xff1b),
    ("tab", 0xff09),
    ("backspace", 0xff08),
    ("delete", 0xffff),
    ("insert", 0xff63),
    ("home", 0xff50),
    ("end", 0xff57),
    ("pageup", 0xff55),
    ("page_up", 0xff55),
    ("pagedown", 0xff56),
    ("page_down", 0xff56),
    ("left", 0xff51),
    ("up", 0xff52),
    ("right", 0xff53),
    ("down", 0xff54),
    ("space", 0x20),
    ("capslock", 0xffe5),
    ("contextmenu", 0xff67),
    ("menu", 0xff67),
    // A modifier pressed alone (`press "Shift"`): the left key.
    ("alt", 0xffe9),
    ("control", 0xffe3),
    ("meta", 0xffeb),
    ("shift", 0xffe1),
];

/// One key: a keysym, as named or as a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The X keysym.
    pub keysym: u32,
    /// The character it types, when it is one (for messages).
    pub character: Option<char>,
}

impl Key {
    /// The key that types `character`.
    pub fn of_char(character: char) -> Key {
        let code = character as u32;
        let keysym = match character {
            '\n' | '\r' => 0xff0d,
            '\t' => 0xff09,
            // Latin-1 keysyms are the code points; the rest are offset Unicode keysyms.
            _ if (0x20..=0x7e).contains(&code) || (0xa0..=0xff).contains(&code) => code,
            _ => 0x0100_0000 + code,
        };
        Key {
            keysym,
            character: Some(character),
        }
    }
}

/// Modifiers held while one key is pressed: `ctrl+a`, `Return`, `ctrl+shift+z`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chord {
    /// Pressed in this order, released in reverse.
    pub modifiers: Vec<Modifier>,
    /// The key.
    pub key: Key,
}

impl Chord {
    /// Parse a named key, one character, or modifiers and a key joined by `+` (case-insensitive
    /// names; `F1`–`F12`; `+` itself as the last part, `ctrl++`).
    pub fn parse(text: &str) -> Result<Chord, GuiError> {
        let bad = |why: &str| GuiError::BadKey {
            key: text.to_owned(),
            why: why.to_owned(),
        };
        let (head, last) = match text.strip_suffix("++") {
            Some(head) => (head, "+"),
            None => match text.rsplit_once('+') {
                Some((head, last)) if !last.is_empty() => (head, last),
                Some(_) => return Err(bad("it ends with `+`")),
                None => ("", text),
            },
        };
        let mut modifiers = Vec::new();
        for part in head
            .split('+')
            .filter(|p| !head.is_empty() || !p.is_empty())
        {
            let modifier = match part.to_lowercase().as_str() {
                "ctrl" | "control" => Modifier::Control,
                "shift" => Modifier::Shift,
                "alt" => Modifier::Alt,
                "super" | "meta" => Modifier::Super,
                _ => {
                    return Err(bad(&format!(
                        "`{part}` is not a modifier (ctrl, shift, alt, super)"
                    )))
                }
            };
            modifiers.push(modifier);
        }
        let key = named(last)
            .or_else(|| {
                let mut chars = last.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(Key::of_char(c)),
                    _ => None,
                }
            })
            .ok_or_else(|| {
                bad(&format!(
                    "`{last}` is neither a named key nor one character"
                ))
            })?;
        Ok(Chord { modifiers, key })
    }
}

/// A named key (`Return`, `F5` …), case-insensitive.
fn named(name: &str) -> Option<Key> {
    let lower = name.to_lowercase();
    let keysym = NAMED
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|(_, keysym)| *keysym)
        .or_else(|| {
            let n: u32 = lower.strip_prefix('f')?.parse().ok()?;
            (1..=12).contains(&n).then(|| 0xffbe + n - 1)
        })?;
    Some(Key {
        keysym,
        character: None,
    })
}

/// The X server's keyboard map: keysyms by keycode (group 1, unshifted and shifted levels).
#[derive(Debug, Clone)]
pub struct Keymap {
    min_keycode: Keycode,
    per_keycode: usize,
    keysyms: Vec<u32>,
}

/// Where a keysym is on the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// The key to press.
    pub keycode: Keycode,
    /// Whether Shift must be held (the keysym is on the shifted level).
    pub shifted: bool,
}

impl Keymap {
    /// Read the map from the server.
    pub fn read(conn: &impl x11rb::connection::Connection) -> Result<Keymap, GuiError> {
        let setup = conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let reply = conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(|e| GuiError::x11("GetKeyboardMapping", e))?
            .reply()
            .map_err(|e| GuiError::x11("GetKeyboardMapping", e))?;
        Ok(Keymap {
            min_keycode: min,
            per_keycode: usize::from(reply.keysyms_per_keycode),
            keysyms: reply.keysyms,
        })
    }

    /// The key for `keysym`: an unshifted level first, then a shifted one; keypad keys never.
    pub fn place(&self, keysym: u32) -> Option<Placed> {
        if self.per_keycode == 0 {
            return None;
        }
        let rows: Vec<(Keycode, &[u32])> = self
            .keysyms
            .chunks(self.per_keycode)
            .enumerate()
            .map(|(i, row)| (self.min_keycode + i as u8, row))
            // Keypad keys (KP_*, 0xff80–0xffbd) type nothing with NumLock off.
            .filter(|(_, row)| !(0xff80..=0xffbd).contains(&row[0]))
            .collect();
        for (level, shifted) in [(0, false), (1, true)] {
            if let Some((keycode, _)) = rows.iter().find(|(_, row)| row.get(level) == Some(&keysym))
            {
                return Some(Placed {
                    keycode: *keycode,
                    shifted,
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_named_keys_and_characters_parse() {
        let chord = Chord::parse("ctrl+a").unwrap();
        assert_eq!(chord.modifiers, vec![Modifier::Control]);
        assert_eq!(chord.key.keysym, u32::from(b'a'));
        assert_eq!(Chord::parse("Return").unwrap().key.keysym, 0xff0d);
        assert_eq!(Chord::parse("F5").unwrap().key.keysym, 0xffc2);
        let plus = Chord::parse("ctrl++").unwrap();
        assert_eq!(plus.key.keysym, u32::from(b'+'));
        let many = Chord::parse("Control+Shift+z").unwrap();
        assert_eq!(many.modifiers, vec![Modifier::Control, Modifier::Shift]);
        assert_eq!(Key::of_char('€').keysym, 0x0100_20ac);
    }

    #[test]
    fn unknown_names_and_modifiers_are_bad_keys() {
        for text in ["Retrun", "hyper+a", "ctrl+", "F13", ""] {
            let error = Chord::parse(text).unwrap_err();
            assert_eq!(error.code(), crate::GuiCode::BadKey, "{text}: {error}");
        }
    }

    #[test]
    fn the_main_row_is_preferred_and_shift_is_taken_from_the_level() {
        // keycode 10: `1 !`; keycode 11: KP_End / KP_1 (keypad, skipped); keycode 12: `8 *`.
        let map = Keymap {
            min_keycode: 10,
            per_keycode: 2,
            keysyms: vec![0x31, 0x21, 0xff9c, 0xffb1, 0x38, 0x2a],
        };
        let placed = |k| map.place(k);
        assert_eq!(
            placed(0x31),
            Some(Placed {
                keycode: 10,
                shifted: false
            })
        );
        assert_eq!(
            placed(0x2a),
            Some(Placed {
                keycode: 12,
                shifted: true
            })
        );
        assert_eq!(placed(0xffb1), None, "keypad keys are never used");
        assert_eq!(placed(0x41), None);
    }
}
