//! Terminal key names: the one parser of what a terminal `press { key }` (and an agent's
//! `press`) names, so admission and the terminal engine agree on what `Control+c` or `Up` means.
//!
//! Why here, in the pure front end, and not in `a3s-test-tui`: a bad key name is a suite mistake
//! and must be refused at admission with a span (`test.spec.invalid_key`), and `lang` cannot
//! depend on the engine. The parser is pure, so it moved here; the engine keeps only the encoder
//! (`a3s_test_tui::keys`: the bytes a key sends in the terminal's current modes) and re-exports
//! these types, so there is one grammar and no copy of it.

use std::fmt;
use std::str::FromStr;

/// A key without modifiers that has a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NamedKey {
    /// Return (CR).
    Enter,
    /// Horizontal tab.
    Tab,
    /// Backspace (DEL, as xterm sends it).
    Backspace,
    /// Escape.
    Escape,
    /// Cursor up.
    Up,
    /// Cursor down.
    Down,
    /// Cursor left.
    Left,
    /// Cursor right.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Forward delete.
    Delete,
    /// Insert.
    Insert,
    /// Space (also reachable as the character ` `; named because a blank is hard to read).
    Space,
    /// A function key, F1–F12.
    F(u8),
}

/// A key to press: what `press { key = "…" }` names in a terminal scenario. Serialized as its
/// canonical name (`"Enter"`, `"Control+c"`), which parses back to the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Key {
    /// One character, sent as its UTF-8 bytes.
    Char(char),
    /// A named key.
    Named(NamedKey),
    /// `Control+<letter>`: the letter's control code (Control+c is ETX, 0x03).
    Control(char),
    /// `Alt+<char>`: ESC followed by the character (xterm's meta-sends-escape).
    Alt(char),
}

/// A key name the parser does not accept (`test.spec.invalid_key` at admission,
/// `test.driver.tui.bad_key` in the engine).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` is not a key: {reason}; use one character, a named key (Enter, Tab, Backspace, Escape, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Insert, Space, F1–F12), Control+<letter> or Alt+<char>")]
pub struct KeyError {
    /// The name as given.
    pub name: String,
    /// Why it was refused.
    pub reason: KeyErrorReason,
}

/// Why a key name was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeyErrorReason {
    /// The name is empty.
    #[error("the name is empty")]
    Empty,
    /// A word that names no key.
    #[error("no key has this name")]
    UnknownName,
    /// `Control+` followed by something other than one ASCII letter.
    #[error("Control+ takes one letter")]
    ControlNeedsLetter,
    /// `Alt+` followed by something other than one character.
    #[error("Alt+ takes one character")]
    AltNeedsChar,
    /// A modifier this terminal does not encode (Shift+, Meta+, …) or two modifiers.
    #[error("only one Control+ or Alt+ modifier is supported")]
    UnsupportedModifier,
}

const NAMED: [(&str, NamedKey); 15] = [
    ("Enter", NamedKey::Enter),
    ("Tab", NamedKey::Tab),
    ("Backspace", NamedKey::Backspace),
    ("Escape", NamedKey::Escape),
    ("Up", NamedKey::Up),
    ("Down", NamedKey::Down),
    ("Left", NamedKey::Left),
    ("Right", NamedKey::Right),
    ("Home", NamedKey::Home),
    ("End", NamedKey::End),
    ("PageUp", NamedKey::PageUp),
    ("PageDown", NamedKey::PageDown),
    ("Delete", NamedKey::Delete),
    ("Insert", NamedKey::Insert),
    ("Space", NamedKey::Space),
];

fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

fn named(word: &str) -> Option<NamedKey> {
    if let Some((_, key)) = NAMED.iter().find(|(name, _)| *name == word) {
        return Some(*key);
    }
    let n: u8 = word.strip_prefix('F')?.parse().ok()?;
    // "F01" parses as 1 too: only the canonical spelling names a key.
    ((1..=12).contains(&n) && word == format!("F{n}")).then_some(NamedKey::F(n))
}

impl FromStr for Key {
    type Err = KeyError;

    fn from_str(name: &str) -> Result<Key, KeyError> {
        let refuse = |reason| KeyError {
            name: name.to_string(),
            reason,
        };
        if name.is_empty() {
            return Err(refuse(KeyErrorReason::Empty));
        }
        // One character is always that character, `+` included.
        if let Some(c) = single_char(name) {
            return Ok(Key::Char(c));
        }
        if let Some(key) = named(name) {
            return Ok(Key::Named(key));
        }
        if let Some(rest) = name.strip_prefix("Control+") {
            return match single_char(rest) {
                Some(c) if c.is_ascii_alphabetic() => Ok(Key::Control(c.to_ascii_lowercase())),
                _ => Err(refuse(KeyErrorReason::ControlNeedsLetter)),
            };
        }
        if let Some(rest) = name.strip_prefix("Alt+") {
            return match single_char(rest) {
                Some(c) => Ok(Key::Alt(c)),
                None => Err(refuse(KeyErrorReason::AltNeedsChar)),
            };
        }
        if name.contains('+') {
            return Err(refuse(KeyErrorReason::UnsupportedModifier));
        }
        Err(refuse(KeyErrorReason::UnknownName))
    }
}

impl fmt::Display for Key {
    /// The canonical name, which parses back to the same key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Char(c) => write!(f, "{c}"),
            Key::Named(NamedKey::F(n)) => write!(f, "F{n}"),
            Key::Named(key) => {
                let name = NAMED
                    .iter()
                    .find(|(_, k)| k == key)
                    .map(|(name, _)| *name)
                    .unwrap_or("?");
                f.write_str(name)
            }
            Key::Control(c) => write!(f, "Control+{c}"),
            Key::Alt(c) => write!(f, "Alt+{c}"),
        }
    }
}

impl From<Key> for String {
    fn from(key: Key) -> String {
        key.to_string()
    }
}

impl TryFrom<String> for Key {
    type Error = KeyError;

    fn try_from(name: String) -> Result<Key, KeyError> {
        name.parse()
    }
}
