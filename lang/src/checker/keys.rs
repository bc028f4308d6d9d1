//! `press` key chords and `wheel` modifiers.
//!
//! A chord is `Modifier+…+Key`: modifiers are `Alt`, `Control`, `Meta`, `Shift` (exact case, each
//! at most once); the key is one printable character or a named key from [`NAMED_KEYS`]. `+` itself
//! is written `+` or `Control++`. Common aliases (`Ctrl`, `Cmd`, `Option`, `Esc`, `Return`, …) are
//! rejected with a hint naming the canonical spelling, so every chord has one form in the canonical
//! printer and in the ledger. A `modifiers` list (`wheel`, `click`, `double_click`,
//! `context_click`, `hover`) names each modifier once, lowercase (`"control"`) or as in a chord
//! (`"Control"`, the spelling Playwright users write); aliases get the same hints as in a chord.

use super::context::{Annotate, Ctx};
use super::values::{list, string, unreadable};
use crate::ast::{Attribute, ValueKind};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::{KeyChord, Modifier};

/// Named keys `press` accepts besides single characters. Public so each surface can prove it
/// sends every key admission lets through (`gui/src/driver.rs` tests it for the desktop).
pub const NAMED_KEYS: &[&str] = &[
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "Insert",
    "Space",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
    "Alt",
    "Control",
    "Meta",
    "Shift",
    "CapsLock",
    "ContextMenu",
];

/// Modifier names in a chord.
const MODIFIERS: &[&str] = &["Alt", "Control", "Meta", "Shift"];
/// Modifier names in a `modifiers` list, as the hints spell them.
pub(super) const LIST_MODIFIERS: &[&str] = &["alt", "control", "meta", "shift"];

/// Why a chord was rejected: the message and the hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct KeyProblem {
    /// What is wrong.
    pub(super) message: String,
    /// How to fix it.
    pub(super) hint: String,
}

fn problem(message: String, hint: String) -> KeyProblem {
    KeyProblem { message, hint }
}

fn modifier(name: &str) -> Option<Modifier> {
    Some(match name {
        "Alt" => Modifier::Alt,
        "Control" => Modifier::Control,
        "Meta" => Modifier::Meta,
        "Shift" => Modifier::Shift,
        _ => return None,
    })
}

/// The canonical spelling of a known alias or miscased name.
fn alias(name: &str, canon: &[&'static str]) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let aliased = match lower.as_str() {
        "ctrl" | "ctl" => "Control",
        "cmd" | "command" | "super" | "win" | "windows" | "os" => "Meta",
        "option" | "opt" => "Alt",
        "esc" => "Escape",
        "return" => "Enter",
        "del" => "Delete",
        "ins" => "Insert",
        "up" => "ArrowUp",
        "down" => "ArrowDown",
        "left" => "ArrowLeft",
        "right" => "ArrowRight",
        "pgup" => "PageUp",
        "pgdn" | "pgdown" => "PageDown",
        "spacebar" | " " => "Space",
        _ => return canon.iter().find(|c| c.eq_ignore_ascii_case(name)).copied(),
    };
    canon.contains(&aliased).then_some(aliased)
}

/// Parse a chord such as `Enter`, `Control+a`, `Shift+ArrowDown` or `Control++`.
pub(super) fn parse_chord(text: &str) -> Result<KeyChord, KeyProblem> {
    if text.is_empty() {
        return Err(problem(
            "`key` is empty".into(),
            "give a key such as \"Enter\" or a chord such as \"Control+a\"".into(),
        ));
    }
    let (modifier_part, key) = if text == "+" {
        (None, "+")
    } else if let Some(rest) = text.strip_suffix("++") {
        (Some(rest), "+")
    } else {
        match text.rsplit_once('+') {
            Some((mods, key)) => (Some(mods), key),
            None => (None, text),
        }
    };
    if key.is_empty() {
        return Err(problem(
            format!("the chord \"{text}\" has no key after its modifiers"),
            format!("write a key after the last `+`, e.g. \"{text}a\""),
        ));
    }
    let mut modifiers = Vec::new();
    if let Some(modifier_part) = modifier_part {
        for name in modifier_part.split('+') {
            let Some(m) = modifier(name) else {
                let hint = match (
                    corrected(text),
                    alias(name, MODIFIERS)
                        .or_else(|| did_you_mean(name, MODIFIERS.iter().copied())),
                ) {
                    (Some(whole), _) => format!("did you mean \"{whole}\"?"),
                    (None, Some(canon)) => format!("did you mean `{canon}`?"),
                    (None, None) => "modifiers are Alt, Control, Meta and Shift".to_string(),
                };
                let message = if name.is_empty() {
                    format!("the chord \"{text}\" has an empty modifier")
                } else {
                    format!("`{name}` is not a modifier")
                };
                return Err(problem(message, hint));
            };
            if modifiers.contains(&m) {
                return Err(problem(
                    format!("`{name}` appears twice in \"{text}\""),
                    format!("hold `{name}` once"),
                ));
            }
            modifiers.push(m);
        }
    }
    key_problem(key)?;
    Ok(KeyChord {
        modifiers,
        key: key.to_string(),
    })
}

/// The canonical name close to `name`: an alias, a near spelling, or the same letters in
/// another order (`Shfit`: a swap is two edits, more than a five-letter name's one).
fn close(name: &str, canon: &[&'static str]) -> Option<&'static str> {
    let letters = |s: &str| {
        let mut l: Vec<char> = s.to_lowercase().chars().collect();
        l.sort_unstable();
        l
    };
    alias(name, canon)
        .or_else(|| did_you_mean(name, canon.iter().copied()))
        .or_else(|| canon.iter().find(|c| letters(c) == letters(name)).copied())
}

/// The whole chord with every misspelt or aliased part replaced by its close canonical name
/// (`Ctrl+Shfit+S` → `Control+Shift+S`), when every part has one — so one hint fixes them all.
fn corrected(text: &str) -> Option<String> {
    let (mods, key) = text.rsplit_once('+')?;
    let mut parts = Vec::new();
    for name in mods.split('+') {
        let canon = match modifier(name) {
            Some(_) => name,
            None => close(name, MODIFIERS)?,
        };
        parts.push(canon.to_string());
    }
    let key = if key_problem(key).is_ok() {
        key
    } else {
        close(key, NAMED_KEYS)?
    };
    parts.push(key.to_string());
    Some(parts.join("+"))
}

fn key_problem(key: &str) -> Result<(), KeyProblem> {
    let mut chars = key.chars();
    let single = chars.next().filter(|_| chars.next().is_none());
    match single {
        Some(c) if !c.is_whitespace() && !c.is_control() => return Ok(()),
        Some(_) => {
            let hint = match key {
                " " => "write \"Space\"".to_string(),
                "\n" | "\r" => "write \"Enter\"".to_string(),
                "\t" => "write \"Tab\"".to_string(),
                _ => "write a named key such as \"Space\" or \"Enter\"".to_string(),
            };
            return Err(problem(
                "a whitespace or control character is not a key".into(),
                hint,
            ));
        }
        None => {}
    }
    if NAMED_KEYS.contains(&key) {
        return Ok(());
    }
    let hint = match alias(key, NAMED_KEYS)
        .or_else(|| did_you_mean(key, NAMED_KEYS.iter().copied()))
    {
        Some(canon) => format!("did you mean `{canon}`?"),
        None => "use one character or a named key: Enter, Tab, Escape, Backspace, ArrowDown, F5, …"
            .to_string(),
    };
    Err(problem(format!("`{key}` is not a key"), hint))
}

/// `press { key = "…" }`.
pub(super) fn key_chord(ctx: &mut Ctx, attr: &Attribute) -> Option<KeyChord> {
    let text = string(ctx, attr)?;
    match parse_chord(text) {
        Ok(chord) => Some(chord),
        Err(KeyProblem { message, hint }) => {
            ctx.error_in(Code::InvalidKey, "key", attr.value.span, message)
                .hint(hint);
            None
        }
    }
}

/// `modifiers = [...]` of `wheel` and the pointer steps: unique modifier names.
pub(super) fn modifier_list(ctx: &mut Ctx, attr: &Attribute) -> Option<Vec<Modifier>> {
    let items = list(ctx, attr)?;
    let mut out = Some(Vec::with_capacity(items.len()));
    for item in items {
        let name = match &item.kind {
            ValueKind::String(s) => s.as_str(),
            _ if unreadable(item) => {
                out = None;
                continue;
            }
            other => {
                ctx.error_in(
                    Code::Type,
                    "modifiers",
                    item.span,
                    format!(
                        "`modifiers` items must be strings, found {}",
                        other.describe()
                    ),
                )
                .hint("write modifiers as strings: [\"shift\"]");
                out = None;
                continue;
            }
        };
        let parsed = match name {
            "alt" | "Alt" => Some(Modifier::Alt),
            "control" | "Control" => Some(Modifier::Control),
            "meta" | "Meta" => Some(Modifier::Meta),
            "shift" | "Shift" => Some(Modifier::Shift),
            _ => None,
        };
        let Some(m) = parsed else {
            let lower = alias(name, MODIFIERS).map(str::to_ascii_lowercase);
            let hint = match lower
                .as_deref()
                .or_else(|| did_you_mean(name, LIST_MODIFIERS.iter().copied()))
            {
                Some(canon) => format!("did you mean \"{canon}\"?"),
                None => "modifiers are \"alt\", \"control\", \"meta\" and \"shift\"".to_string(),
            };
            ctx.error_in(
                Code::InvalidValue,
                "modifiers",
                item.span,
                format!("\"{name}\" is not a modifier"),
            )
            .hint(hint);
            out = None;
            continue;
        };
        if let Some(list) = &mut out {
            if list.contains(&m) {
                ctx.error_in(
                    Code::InvalidValue,
                    "modifiers",
                    item.span,
                    format!("\"{}\" appears twice in `modifiers`", m.keyword()),
                )
                .hint(format!("list \"{name}\" once"));
                out = None;
                continue;
            }
            list.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chord(text: &str) -> (Vec<Modifier>, String) {
        let c = parse_chord(text).unwrap_or_else(|p| panic!("{text:?}: {p:?}"));
        (c.modifiers, c.key)
    }

    #[test]
    fn keys_and_chords_parse() {
        assert_eq!(chord("Enter"), (vec![], "Enter".to_string()));
        assert_eq!(chord("a"), (vec![], "a".to_string()));
        assert_eq!(chord("é"), (vec![], "é".to_string()));
        assert_eq!(
            chord("Control+a"),
            (vec![Modifier::Control], "a".to_string())
        );
        assert_eq!(chord("Meta+z"), (vec![Modifier::Meta], "z".to_string()));
        assert_eq!(
            chord("Shift+ArrowDown"),
            (vec![Modifier::Shift], "ArrowDown".to_string())
        );
        assert_eq!(
            chord("Control+Shift+F5"),
            (vec![Modifier::Control, Modifier::Shift], "F5".to_string())
        );
        assert_eq!(chord("+"), (vec![], "+".to_string()));
        assert_eq!(
            chord("Control++"),
            (vec![Modifier::Control], "+".to_string())
        );
        assert_eq!(chord("Shift"), (vec![], "Shift".to_string()));
    }

    #[test]
    fn bad_chords_say_why() {
        for (text, hint_part) in [
            ("Ctrl+a", "\"Control+a\""),
            ("Ctrl+Shfit+S", "did you mean \"Control+Shift+S\"?"),
            ("Ctrl+Hyper+a", "`Control`"),
            ("Cmd+z", "\"Meta+z\""),
            ("control+a", "\"Control+a\""),
            ("Esc", "`Escape`"),
            ("enter", "`Enter`"),
            ("Entr", "`Enter`"),
            ("Control+Control+a", "once"),
            ("Control+", "after the last"),
            ("", "Enter"),
            (" ", "Space"),
            ("Hyper+a", "Alt, Control"),
            ("F13", "did you mean"),
            ("xyz", "named key"),
            ("+a", "Alt, Control"),
        ] {
            let p = parse_chord(text).expect_err(text);
            assert!(p.hint.contains(hint_part), "{text:?}: {p:?}");
        }
    }
}
