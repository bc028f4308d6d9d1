//! The key-name parser: every canonical name parses back to its key, any text either parses
//! or is refused with a reason (never a panic), and the names of the public terminal surface
//! mean what they say.

use a3s_test_tui::keys::{Encode, KeyErrorReason, KeyModes};
use a3s_test_tui::{Key, NamedKey, TuiCode, TuiError};
use proptest::prelude::*;

fn named() -> impl Strategy<Value = NamedKey> {
    prop_oneof![
        Just(NamedKey::Enter),
        Just(NamedKey::Tab),
        Just(NamedKey::Backspace),
        Just(NamedKey::Escape),
        Just(NamedKey::Up),
        Just(NamedKey::Down),
        Just(NamedKey::Left),
        Just(NamedKey::Right),
        Just(NamedKey::Home),
        Just(NamedKey::End),
        Just(NamedKey::PageUp),
        Just(NamedKey::PageDown),
        Just(NamedKey::Delete),
        Just(NamedKey::Insert),
        Just(NamedKey::Space),
        (1u8..=12).prop_map(NamedKey::F),
    ]
}

fn key() -> impl Strategy<Value = Key> {
    prop_oneof![
        any::<char>().prop_map(Key::Char),
        named().prop_map(Key::Named),
        proptest::char::range('a', 'z').prop_map(Key::Control),
        any::<char>().prop_map(Key::Alt),
    ]
}

proptest! {
    #[test]
    fn every_key_name_parses_back_to_its_key(key in key()) {
        prop_assert_eq!(key.to_string().parse::<Key>(), Ok(key));
    }

    #[test]
    fn any_text_parses_or_is_refused_with_a_reason(text in "\\PC{0,12}|(Control|Alt|Shift|F)\\+?.{0,3}") {
        match text.parse::<Key>() {
            Ok(key) => prop_assert!(!key.encode(KeyModes::default()).is_empty()),
            Err(e) => {
                prop_assert_eq!(&e.name, &text);
                prop_assert_eq!(TuiError::from(e).code(), TuiCode::BadKey);
            }
        }
    }
}

#[test]
fn names_of_the_public_surface() {
    let parse = |name: &str| name.parse::<Key>();
    assert_eq!(parse("Enter"), Ok(Key::Named(NamedKey::Enter)));
    assert_eq!(parse("F12"), Ok(Key::Named(NamedKey::F(12))));
    assert_eq!(parse("Control+C"), Ok(Key::Control('c')));
    assert_eq!(parse("Alt+."), Ok(Key::Alt('.')));
    assert_eq!(parse("+"), Ok(Key::Char('+')));
    assert_eq!(parse("é"), Ok(Key::Char('é')));
    let reason = |name: &str| parse(name).unwrap_err().reason;
    assert_eq!(reason(""), KeyErrorReason::Empty);
    assert_eq!(reason("Return"), KeyErrorReason::UnknownName);
    assert_eq!(reason("F13"), KeyErrorReason::UnknownName);
    assert_eq!(reason("F01"), KeyErrorReason::UnknownName);
    assert_eq!(reason("Control+1"), KeyErrorReason::ControlNeedsLetter);
    assert_eq!(reason("Control+ab"), KeyErrorReason::ControlNeedsLetter);
    assert_eq!(reason("Alt+"), KeyErrorReason::AltNeedsChar);
    assert_eq!(reason("Shift+Tab"), KeyErrorReason::UnsupportedModifier);
    assert_eq!(reason("Control+Alt+x"), KeyErrorReason::ControlNeedsLetter);
}
