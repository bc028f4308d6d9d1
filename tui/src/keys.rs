//! The bytes a key sends: the one encoder of terminal keys. The key-name grammar itself is
//! `a3s_test_lang::ir::terminal_key` (pure, so admission refuses a bad name with its span); it is
//! re-exported here so engine callers keep one import.
//!
//! Encodings are xterm's (the `TERM=xterm-256color` programs are told they run on): arrows and
//! Home/End send `ESC O x` in application-cursor mode (vim, less set it) and `ESC [ x` otherwise;
//! Enter sends CR as a real terminal does (the line discipline turns it into a newline).

pub use a3s_test_lang::ir::terminal_key::{Key, KeyError, KeyErrorReason, NamedKey};

/// The terminal modes that change what a key sends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyModes {
    /// DECCKM: arrows and Home/End send `ESC O x`.
    pub application_cursor: bool,
}

/// The encoder, as a trait because [`Key`] is defined in the front end.
pub trait Encode {
    /// The bytes this key sends to the program in `modes`.
    fn encode(self, modes: KeyModes) -> Vec<u8>;
}

impl Encode for Key {
    fn encode(self, modes: KeyModes) -> Vec<u8> {
        let cursor = |letter: char| {
            let lead = if modes.application_cursor { 'O' } else { '[' };
            format!("\x1b{lead}{letter}").into_bytes()
        };
        let tilde = |n: u8| format!("\x1b[{n}~").into_bytes();
        match self {
            Key::Char(c) => c.to_string().into_bytes(),
            Key::Control(c) => vec![(c.to_ascii_lowercase() as u8) & 0x1f],
            Key::Alt(c) => format!("\x1b{c}").into_bytes(),
            Key::Named(key) => match key {
                NamedKey::Enter => b"\r".to_vec(),
                NamedKey::Tab => b"\t".to_vec(),
                NamedKey::Backspace => b"\x7f".to_vec(),
                NamedKey::Escape => b"\x1b".to_vec(),
                NamedKey::Space => b" ".to_vec(),
                NamedKey::Up => cursor('A'),
                NamedKey::Down => cursor('B'),
                NamedKey::Right => cursor('C'),
                NamedKey::Left => cursor('D'),
                NamedKey::Home => cursor('H'),
                NamedKey::End => cursor('F'),
                NamedKey::Insert => tilde(2),
                NamedKey::Delete => tilde(3),
                NamedKey::PageUp => tilde(5),
                NamedKey::PageDown => tilde(6),
                NamedKey::F(n @ 1..=4) => format!("\x1bO{}", (b'P' + n - 1) as char).into_bytes(),
                NamedKey::F(n) => {
                    // xterm skips 16 and 22 in its function-key numbering.
                    const CODES: [u8; 8] = [15, 17, 18, 19, 20, 21, 23, 24];
                    tilde(CODES[usize::from(n.clamp(5, 12) - 5)])
                }
            },
        }
    }
}
