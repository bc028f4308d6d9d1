//! Key definitions for `press` and `type`: the `key`, `code`, Windows key code and text CDP's
//! `Input.dispatchKeyEvent` needs so pages see the same `KeyboardEvent` a person's keyboard makes.

use a3s_test_lang::ir::Modifier;

/// One key as CDP wants it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyDef {
    /// `KeyboardEvent.key`.
    pub key: String,
    /// `KeyboardEvent.code`.
    pub code: String,
    /// Windows virtual key code.
    pub key_code: i64,
    /// Text the key inserts (none for control keys).
    pub text: Option<String>,
    /// 1 for left-hand modifier keys.
    pub location: i64,
}

const NAMED: &[(&str, &str, i64, Option<&str>)] = &[
    ("Enter", "Enter", 13, Some("\r")),
    ("Tab", "Tab", 9, None),
    ("Escape", "Escape", 27, None),
    ("Backspace", "Backspace", 8, None),
    ("Delete", "Delete", 46, None),
    ("Insert", "Insert", 45, None),
    ("ArrowLeft", "ArrowLeft", 37, None),
    ("ArrowUp", "ArrowUp", 38, None),
    ("ArrowRight", "ArrowRight", 39, None),
    ("ArrowDown", "ArrowDown", 40, None),
    ("Home", "Home", 36, None),
    ("End", "End", 35, None),
    ("PageUp", "PageUp", 33, None),
    ("PageDown", "PageDown", 34, None),
    ("CapsLock", "CapsLock", 20, None),
    ("ContextMenu", "ContextMenu", 93, None),
    ("Shift", "ShiftLeft", 16, None),
    ("Control", "ControlLeft", 17, None),
    ("Alt", "AltLeft", 18, None),
    ("Meta", "MetaLeft", 91, None),
];

const ALIASES: &[(&str, &str)] = &[
    ("esc", "Escape"),
    ("return", "Enter"),
    ("del", "Delete"),
    ("space", " "),
    ("spacebar", " "),
    ("up", "ArrowUp"),
    ("down", "ArrowDown"),
    ("left", "ArrowLeft"),
    ("right", "ArrowRight"),
    ("ctrl", "Control"),
    ("cmd", "Meta"),
    ("command", "Meta"),
    ("option", "Alt"),
];

const PUNCTUATION: &[(char, &str, i64, bool)] = &[
    ('-', "Minus", 189, false),
    ('_', "Minus", 189, true),
    ('=', "Equal", 187, false),
    ('+', "Equal", 187, true),
    ('[', "BracketLeft", 219, false),
    ('{', "BracketLeft", 219, true),
    (']', "BracketRight", 221, false),
    ('}', "BracketRight", 221, true),
    ('\\', "Backslash", 220, false),
    ('|', "Backslash", 220, true),
    (';', "Semicolon", 186, false),
    (':', "Semicolon", 186, true),
    ('\'', "Quote", 222, false),
    ('"', "Quote", 222, true),
    (',', "Comma", 188, false),
    ('<', "Comma", 188, true),
    ('.', "Period", 190, false),
    ('>', "Period", 190, true),
    ('/', "Slash", 191, false),
    ('?', "Slash", 191, true),
    ('`', "Backquote", 192, false),
    ('~', "Backquote", 192, true),
    ('!', "Digit1", 49, true),
    ('@', "Digit2", 50, true),
    ('#', "Digit3", 51, true),
    ('$', "Digit4", 52, true),
    ('%', "Digit5", 53, true),
    ('^', "Digit6", 54, true),
    ('&', "Digit7", 55, true),
    ('*', "Digit8", 56, true),
    ('(', "Digit9", 57, true),
    (')', "Digit0", 48, true),
];

/// The definition of one character typed as a key.
pub(crate) fn char_key(c: char) -> KeyDef {
    let def = |key: String, code: &str, key_code: i64, text: Option<String>| KeyDef {
        key,
        code: code.to_string(),
        key_code,
        text,
        location: 0,
    };
    match c {
        '\n' | '\r' => def("Enter".into(), "Enter", 13, Some("\r".into())),
        '\t' => def("Tab".into(), "Tab", 9, None),
        ' ' => def(" ".into(), "Space", 32, Some(" ".into())),
        'a'..='z' | 'A'..='Z' => {
            let upper = c.to_ascii_uppercase();
            def(
                c.to_string(),
                &format!("Key{upper}"),
                upper as i64,
                Some(c.to_string()),
            )
        }
        '0'..='9' => def(
            c.to_string(),
            &format!("Digit{c}"),
            c as i64,
            Some(c.to_string()),
        ),
        _ => match PUNCTUATION.iter().find(|(p, ..)| *p == c) {
            Some((_, code, key_code, _)) => {
                def(c.to_string(), code, *key_code, Some(c.to_string()))
            }
            None => def(c.to_string(), "", 0, Some(c.to_string())),
        },
    }
}

/// The definition of a key written in a `press` chord (`Enter`, `a`, `F5`, `ArrowDown`, …).
pub(crate) fn named_key(name: &str) -> Option<KeyDef> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.clone().next()) {
        return Some(char_key(c));
    }
    let lower = name.to_ascii_lowercase();
    let canonical = ALIASES
        .iter()
        .find(|(a, _)| *a == lower)
        .map(|(_, n)| *n)
        .unwrap_or(name);
    if canonical == " " {
        return Some(char_key(' '));
    }
    if let Some((key, code, key_code, text)) = NAMED
        .iter()
        .find(|(k, ..)| k.eq_ignore_ascii_case(canonical))
    {
        let location = if matches!(*key_code, 16..=18 | 91) {
            1
        } else {
            0
        };
        return Some(KeyDef {
            key: key.to_string(),
            code: code.to_string(),
            key_code: *key_code,
            text: text.map(str::to_string),
            location,
        });
    }
    let upper = canonical.to_ascii_uppercase();
    if let Some(n) = upper.strip_prefix('F').and_then(|n| n.parse::<i64>().ok()) {
        if (1..=24).contains(&n) {
            return Some(KeyDef {
                key: format!("F{n}"),
                code: format!("F{n}"),
                key_code: 111 + n,
                text: None,
                location: 0,
            });
        }
    }
    None
}

/// CDP modifier bit of one modifier.
pub(crate) fn modifier_bit(m: Modifier) -> i64 {
    match m {
        Modifier::Alt => 1,
        Modifier::Control => 2,
        Modifier::Meta => 4,
        Modifier::Shift => 8,
    }
}

/// The key that holds a modifier down.
pub(crate) fn modifier_key(m: Modifier) -> KeyDef {
    let name = match m {
        Modifier::Alt => "Alt",
        Modifier::Control => "Control",
        Modifier::Meta => "Meta",
        Modifier::Shift => "Shift",
    };
    named_key(name).expect("modifier keys are defined")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_resolve_like_a_keyboard() {
        let enter = named_key("Enter").unwrap();
        assert_eq!(
            (enter.code.as_str(), enter.key_code, enter.text.as_deref()),
            ("Enter", 13, Some("\r"))
        );
        assert_eq!(named_key("a").unwrap().code, "KeyA");
        assert_eq!(named_key("F5").unwrap().key_code, 116);
        assert_eq!(named_key("esc").unwrap().key, "Escape");
        assert_eq!(named_key("arrowdown").unwrap().key, "ArrowDown");
        assert_eq!(char_key('?').code, "Slash");
        assert_eq!(char_key('é').text.as_deref(), Some("é"));
        assert!(named_key("NoSuchKey").is_none());
        assert_eq!(modifier_key(Modifier::Control).location, 1);
    }
}
