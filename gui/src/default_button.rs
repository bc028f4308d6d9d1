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
//! What Enter reaches: the step's target (else the program's focused element, one
//! `Collection.GetMatches`) when it is a single-line, editable field, and then a showing
//! `is-default` button of that field's window (one more `GetMatches`). When the field is of
//! another kind, its window has no default button, or the toolkit has no `Collection` (GTK 4.8,
//! Qt5), the key goes at once as before.

use crate::actionable;
use crate::element::Element;
use crate::error::GuiError;
use crate::program::ROOT_PATH;
use atspi::proxy::collection::CollectionProxy;
use atspi::{Interface, MatchType, ObjectMatchRule, SortOrder, State};
use std::collections::HashMap;
use std::time::Instant;

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
        None => match first_match(a11y, bus_name, ROOT_PATH, &[State::Focused]).await? {
            Some(path) => Element::at(a11y, bus_name, &path).await?,
            None => return Ok(None),
        },
    };
    let states = field.read_states(a11y).await?;
    if !(states.contains(State::SingleLine) && states.contains(State::Editable)) {
        return Ok(None);
    }
    let window = field.window(a11y).await?;
    let default = [State::IsDefault, State::Showing];
    let Some(button) = first_match(a11y, bus_name, &window.path, &default).await? else {
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
        Err(e) => Err(e),
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

/// The path of the first object at or below `path` holding every state of `states`; `None`
/// when none does or the toolkit does not implement `Collection`.
async fn first_match(
    a11y: &zbus::Connection,
    bus_name: &str,
    path: &str,
    states: &[State],
) -> Result<Option<String>, GuiError> {
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
            .map(|object| object.path_as_str().to_owned())),
        // No `Collection` (GTK 4.8 and Qt5 do not implement it): nothing to wait for.
        Err(zbus::Error::FDO(_)) | Err(zbus::Error::MethodError(..)) => Ok(None),
        Err(e) => Err(GuiError::bus("GetMatches", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Chord;

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
