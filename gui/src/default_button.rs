//! Enter in a single-line field presses its window's default button, so `press Enter` waits for
//! that button to take input, as a click on it waits (`crate::actionable`).
//!
//! Why: a toolkit hands Enter in a one-line entry to the window's default button and drops it
//! while that button is disabled — no error, no event, the key is simply gone. Programs enable
//! the button some time after the field changes: GTK3's file chooser re-reads its name entry on
//! a timer once the typing stops (its `selection-changed`, 0.1–0.7 s after the last key here)
//! and only then enables Save, so an Enter sent right after `fill` met a disabled Save and the
//! dialog stayed open (observed in the program: the key reached the entry and its `activate`
//! ran, and `GtkEntry` does not activate an insensitive default). Nothing in the field's own
//! text says so; the button's `enabled`/`sensitive` state does.
//!
//! What Enter reaches: the step's target (else the program's focused element, a
//! `Collection.GetMatches` looked for again for up to 200 ms while nothing has the focus) when
//! it is a single-line, editable field, and then a showing `is-default` button of that field's
//! window (one more `GetMatches`). When the field is of another kind, its window has no default
//! button, or the toolkit has no `Collection` (GTK 4.8, Qt5), the key goes at once as before.
//! A window or program gone meanwhile is `window_gone`, never "no default button".

use crate::actionable;
use crate::element::Element;
use crate::error::GuiError;
use crate::input::gone_if;
use crate::program::ROOT_PATH;
use crate::wait::Wake;
use atspi::proxy::collection::CollectionProxy;
use atspi::{Interface, MatchType, ObjectMatchRule, SortOrder, State};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The keysym a default button answers to (Return; admission spells it `Enter` or `Return`).
const RETURN: u32 = 0xff0d;

/// Whether `chord` is a bare Enter, the key a single-line field passes to its default button.
pub(crate) fn is_enter(chord: &crate::keys::Chord) -> bool {
    chord.key.keysym == RETURN && chord.modifiers.is_empty()
}

/// When Enter goes to a single-line field whose window has a default button: wait until that
/// button is enabled (at the latest `until`) and return it; `None` when Enter reaches no default
/// button. The field is the step's `target` when it names one, else the program's focused
/// element. A button still disabled at `until` is `NotActionable` naming it, and the caller
/// sends nothing.
pub(crate) async fn wait_enabled(
    a11y: &zbus::Connection,
    bus_name: &str,
    target: Option<&Element>,
    until: Instant,
) -> Result<Option<Element>, GuiError> {
    // The target first: GTK3 drops the entry's `focused` state for a moment after typing (its
    // accessibility focus tracking announces the entry again tens of ms later), and a focus
    // read then finds nothing.
    let field = match target {
        Some(target) => target.clone(),
        None => match focused_field(a11y, bus_name, until).await? {
            Some(field) => field,
            None => return Ok(None),
        },
    };
    let states = field
        .read_states(a11y)
        .await
        .map_err(|e| gone_if(e, &field))?;
    if !(states.contains(State::SingleLine) && states.contains(State::Editable)) {
        return Ok(None);
    }
    let window = field.window(a11y).await.map_err(|e| gone_if(e, &field))?;
    let default = [State::IsDefault, State::Showing];
    let Some(button) = first_match(a11y, bus_name, &window.path, &default)
        .await
        .map_err(|e| gone_if(e, &field))?
        .path()
    else {
        return Ok(None);
    };
    let button = Element::at(a11y, bus_name, &button).await?;
    match actionable::wait(a11y, &button, actionable::Need::Pointer, until).await {
        Ok(_) => Ok(Some(button)),
        Err(GuiError::NotActionable {
            condition,
            waited_ms,
            ..
        }) => Err(GuiError::NotActionable {
            target: describe(&button, &field),
            condition,
            waited_ms,
        }),
        Err(e) => Err(gone_if(e, &button)),
    }
}

/// How long a step without a target looks again for the program's focused element when it
/// finds none (within the step's bound).
const FOCUS_RETURNS: Duration = Duration::from_millis(200);

/// The program's focused element, looked for again (woken by the program's events) for up to
/// [`FOCUS_RETURNS`] while there is none: GTK3 drops an entry's `focused` state for tens of ms
/// after typing, so one look right after `fill` finds nothing. `None` when nothing has the
/// focus, or the toolkit has no `Collection`.
async fn focused_field(
    a11y: &zbus::Connection,
    bus_name: &str,
    until: Instant,
) -> Result<Option<Element>, GuiError> {
    let program_gone = |e: GuiError| match crate::modal::is_gone(&e) {
        true => GuiError::WindowGone {
            target: "the program's focused element".into(),
        },
        false => e,
    };
    let mut wake: Option<Wake> = None;
    loop {
        let found = first_match(a11y, bus_name, ROOT_PATH, &[State::Focused])
            .await
            .map_err(program_gone)?;
        match found {
            Found::At(path) => return Element::at(a11y, bus_name, &path).await.map(Some),
            Found::NoCollection => return Ok(None),
            Found::Nothing => {}
        }
        match wake.as_mut() {
            Some(wake) => {
                if !wake.next().await {
                    return Ok(None);
                }
            }
            None => {
                let left = FOCUS_RETURNS.min(until.saturating_duration_since(Instant::now()));
                if left.is_zero() {
                    return Ok(None);
                }
                // Look again at once after subscribing: the focus may have come back between.
                wake = Some(Wake::subscribe(a11y, bus_name, left).await?);
            }
        }
    }
}

/// The button as a failure names it: which button, and why Enter depends on it.
fn describe(button: &Element, field: &Element) -> String {
    format!(
        "{} (the default button Enter in {} presses)",
        button.describe(),
        field.describe()
    )
}

/// What a `Collection.GetMatches` for one object found.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Found {
    /// The path of the first object that matched.
    At(String),
    /// No object matched.
    Nothing,
    /// The toolkit does not implement `Collection` (GTK 4.8, Qt5): nothing can be looked for.
    NoCollection,
}

impl Found {
    /// The path, when one matched.
    fn path(self) -> Option<String> {
        match self {
            Found::At(path) => Some(path),
            Found::Nothing | Found::NoCollection => None,
        }
    }
}

/// The bus's error names a call to an interface the object does not implement answers with:
/// only these mean "no `Collection`". A gone object or program (`crate::modal::is_gone`) and a
/// call that timed out are errors of their own, never "nothing to wait for" — a gone window
/// would otherwise skip the wait and the key go out.
const NO_COLLECTION: &[&str] = &[
    "org.freedesktop.DBus.Error.UnknownMethod",
    "org.freedesktop.DBus.Error.UnknownInterface",
    "org.freedesktop.DBus.Error.NotSupported",
];

/// Whether a failed `GetMatches` says the toolkit has no `Collection`.
fn no_collection(error: &zbus::Error) -> bool {
    let name = match error {
        zbus::Error::MethodError(name, ..) => name.as_str().to_owned(),
        zbus::Error::FDO(fdo) => zbus::DBusError::name(fdo.as_ref()).as_str().to_owned(),
        _ => return false,
    };
    NO_COLLECTION.contains(&name.as_str())
}

/// The first object at or below `path` holding every state of `states`; a gone object is a
/// `Bus` error that `crate::modal::is_gone` recognises.
async fn first_match(
    a11y: &zbus::Connection,
    bus_name: &str,
    path: &str,
    states: &[State],
) -> Result<Found, GuiError> {
    let collection = CollectionProxy::builder(a11y)
        .destination(bus_name.to_owned())
        .and_then(|b| b.path(path.to_owned()))
        .map_err(|e| GuiError::bus("Collection", e))?
        .cache_properties(zbus::proxy::CacheProperties::No)
        .build()
        .await
        .map_err(|e| GuiError::bus("Collection", e))?;
    // Every criterion left out is "none of nothing": at-spi2-atk matches nothing under a
    // criterion whose match type is `Invalid`, the builder's default.
    let rule = ObjectMatchRule::builder()
        .states(states.iter().copied(), MatchType::All)
        .attributes(HashMap::new(), MatchType::NA)
        .roles(&[], MatchType::NA)
        .interfaces(Vec::<Interface>::new(), MatchType::NA)
        .build();
    match collection
        .get_matches(rule, SortOrder::Canonical, 1, true)
        .await
    {
        Ok(found) => Ok(found
            .into_iter()
            .find(|object| !object.is_null())
            .map_or(Found::Nothing, |object| {
                Found::At(object.path_as_str().to_owned())
            })),
        Err(e) if no_collection(&e) => Ok(Found::NoCollection),
        Err(e) => Err(GuiError::bus("GetMatches", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Chord;

    #[test]
    fn only_a_missing_interface_means_no_collection() {
        let fdo = |e: zbus::fdo::Error| zbus::Error::FDO(Box::new(e));
        assert!(no_collection(&fdo(zbus::fdo::Error::UnknownMethod(
            "m".into()
        ))));
        assert!(no_collection(&fdo(zbus::fdo::Error::UnknownInterface(
            "i".into()
        ))));
        assert!(no_collection(&fdo(zbus::fdo::Error::NotSupported(
            "n".into()
        ))));
        for gone_or_late in [
            zbus::fdo::Error::UnknownObject("gone".into()),
            zbus::fdo::Error::ServiceUnknown("gone".into()),
            zbus::fdo::Error::NoReply("gone".into()),
            zbus::fdo::Error::TimedOut("late".into()),
        ] {
            assert!(!no_collection(&fdo(gone_or_late)));
        }
    }

    #[test]
    fn only_a_bare_enter_goes_to_the_default_button() {
        for key in ["Enter", "Return", "enter"] {
            assert!(is_enter(&Chord::parse(key).unwrap()), "{key}");
        }
        for key in ["ctrl+Enter", "shift+Return", "Tab", "space", "a"] {
            assert!(!is_enter(&Chord::parse(key).unwrap()), "{key}");
        }
    }
}
