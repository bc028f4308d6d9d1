//! Accessibility actions: `click { via = "action" }` performs the element's own AT-SPI action
//! (`DoAction`) instead of real pointer input — only where the step says so.
//!
//! Why at all, when input is real everywhere else (`crate::input` says why): some controls
//! cannot be reached by a pointer — off the screen, in a window larger than the desktop,
//! behind a scrolled viewport the suite does not want to drive — and an assistive technology
//! reaches them through their action. Which action: the one the step names (`via =
//! "action:activate"`, for an element with several), else the first of [`DEFAULT_ACTIONS`] the
//! element has, by the action's own (not localized) name; an element without it is
//! `action_missing` naming the actions it has, and nothing is performed. The step's detail
//! records the path (`accessibility_action`) and the action's name, so a report never passes
//! an action off as a click.

use crate::element::Element;
use crate::error::GuiError;
use crate::program::Program;
use atspi::proxy::action::ActionProxy;
use std::time::{Duration, Instant};

/// The actions that mean "click", in the order they are preferred: a button's `click`, a combo
/// box's `press`, a row's `activate`, a toggle's `toggle`.
pub const DEFAULT_ACTIONS: &[&str] = &["click", "press", "activate", "toggle"];

/// An action performed.
#[derive(Debug, Clone)]
pub struct Performed {
    /// Its name (`click`, `press` …).
    pub name: String,
    /// How long the call took until the program answered.
    pub took: Duration,
}

/// [`DEFAULT_ACTIONS`] in words: "click, press, activate or toggle".
fn wanted() -> String {
    match DEFAULT_ACTIONS.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The index of the action to perform among the element's action `names`: the one `named`
/// (`via = "action:NAME"`), else the first of [`DEFAULT_ACTIONS`] it has.
pub fn pick(names: &[String], named: Option<&str>) -> Option<usize> {
    let at = |wanted: &str| names.iter().position(|n| n.eq_ignore_ascii_case(wanted));
    match named {
        Some(name) => at(name),
        None => DEFAULT_ACTIONS.iter().find_map(|wanted| at(wanted)),
    }
}

/// Perform `element`'s action `named`, or its click-like one (see the module doc); the program
/// must still run.
pub async fn perform(
    a11y: &zbus::Connection,
    program: &Program,
    element: &Element,
    named: Option<&str>,
) -> Result<Performed, GuiError> {
    let started = Instant::now();
    if program.exit().is_some() {
        return Err(GuiError::WindowGone {
            target: element.describe(),
        });
    }
    let gone_if = |e: GuiError| {
        if crate::modal::is_gone(&e) {
            GuiError::WindowGone {
                target: element.describe(),
            }
        } else {
            e
        }
    };
    let proxy = ActionProxy::builder(a11y)
        .destination(element.bus_name.clone())
        .and_then(|b| b.path(element.path.clone()))
        .map_err(|e| GuiError::bus("Action", e))?
        .cache_properties(zbus::proxy::CacheProperties::No)
        .build()
        .await
        .map_err(|e| GuiError::bus("Action", e))?;
    let names = names(&proxy).await.map_err(gone_if)?;
    let missing = |names: &[String]| GuiError::ActionMissing {
        target: element.describe(),
        wanted: match named {
            Some(name) => format!("`{name}`"),
            None => wanted(),
        },
        actions: if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        },
    };
    let index = pick(&names, named).ok_or_else(|| missing(&names))?;
    let done = proxy
        .do_action(index as i32)
        .await
        .map_err(|e| gone_if(GuiError::bus("DoAction", e)))?;
    if !done {
        return Err(GuiError::ActionMissing {
            target: element.describe(),
            wanted: format!("working `{}`", names[index]),
            actions: names.join(", "),
        });
    }
    Ok(Performed {
        name: names[index].clone(),
        took: started.elapsed(),
    })
}

/// The element's action names; none when it has no `Action` interface.
async fn names(proxy: &ActionProxy<'_>) -> Result<Vec<String>, GuiError> {
    let count = match proxy.n_actions().await {
        Ok(count) => count,
        Err(e) => {
            let error = GuiError::bus("NActions", e);
            // The program refused the property (no `Action` interface): no actions. A gone
            // object or program is the caller's `window_gone`, a late answer a timeout.
            return match crate::modal::call_failure(&error) {
                crate::modal::CallFailure::Refused => Ok(Vec::new()),
                _ => Err(error),
            };
        }
    };
    let mut names = Vec::new();
    for index in 0..count.clamp(0, 64) {
        names.push(
            proxy
                .get_name(index)
                .await
                .map_err(|e| GuiError::bus("GetName", e))?,
        );
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_preferred_click_like_action_is_picked_by_name() {
        assert_eq!(pick(&names(&["click"]), None), Some(0));
        // A GTK3 table cell: `activate` after two others.
        assert_eq!(
            pick(&names(&["expand or contract", "edit", "activate"]), None),
            Some(2)
        );
        // `click` wins over `press` wherever it is.
        assert_eq!(pick(&names(&["press", "click"]), None), Some(1));
        assert_eq!(pick(&names(&["Toggle"]), None), Some(0));
    }

    #[test]
    fn a_named_action_is_picked_by_its_name_and_only_it() {
        let cell = names(&["expand or contract", "edit", "activate"]);
        assert_eq!(pick(&cell, Some("edit")), Some(1));
        assert_eq!(pick(&cell, Some("Activate")), Some(2));
        assert_eq!(pick(&names(&["click"]), Some("toggle")), None);
    }

    #[test]
    fn the_wanted_actions_read_as_a_list() {
        assert_eq!(wanted(), "click, press, activate or toggle");
    }

    #[test]
    fn an_element_without_a_click_like_action_has_none_picked() {
        assert_eq!(pick(&names(&[]), None), None);
        assert_eq!(pick(&names(&["edit", "expand or contract"]), None), None);
    }
}
