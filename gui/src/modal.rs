//! Two checks before any input reaches a window: is the element's program (and so its window)
//! still there, and does another window of the same program hold the input modally?
//!
//! Why: a modal dialog that appears mid-scenario (a save dialog, an error) takes every click and
//! key meant for the window under it, and the toolkit drops them silently — keys have no hit
//! test to notice. A window of the program other than the element's, in state `modal` and
//! showing, makes the step `target_covered` naming the dialog, with nothing sent. Qt 5 marks no
//! window `modal` over AT-SPI: when none is, and the program's toolkit is not one that marks
//! them (GTK does, `Toolkit::marks_modal`), the X server's `_NET_WM_STATE_MODAL` is asked
//! (`crate::x11_modal`), for input and for where finds look alike. And a window
//! that closed, or a program that exited, before the step acts is `window_gone`, however the bus
//! phrases it (an unknown object, a name with no owner).

use crate::app::App;
use crate::element::Element;
use crate::error::GuiError;
use crate::program::ROOT_PATH;
use crate::toolkit::Toolkit;
use crate::window::Placement;
use crate::x11::X11;
use crate::x11_modal;
use atspi::State;

/// The bus's error names that say the object or its program is no longer there.
const GONE: &[&str] = &[
    "org.freedesktop.DBus.Error.ServiceUnknown",
    "org.freedesktop.DBus.Error.NameHasNoOwner",
    "org.freedesktop.DBus.Error.UnknownObject",
    "org.freedesktop.DBus.Error.UnknownMethod",
    "org.freedesktop.DBus.Error.NoReply",
];

/// Whether a failed call says its object (or its whole program) is gone.
pub(crate) fn is_gone(error: &GuiError) -> bool {
    let GuiError::Bus { source, .. } = error else {
        return false;
    };
    let name = match source.as_ref() {
        zbus::Error::MethodError(name, ..) => name.as_str().to_owned(),
        zbus::Error::FDO(fdo) => zbus::DBusError::name(fdo.as_ref()).as_str().to_owned(),
        _ => return false,
    };
    GONE.contains(&name.as_str())
}

/// What a failed accessibility call says about its object: the one reading every "the
/// toolkit refused" decision shares, so a gone program or a late answer is never taken for a
/// refusal (which callers treat as "not supported here" and go on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CallFailure {
    /// The object or its whole program is no longer there ([`is_gone`]).
    Gone,
    /// The program did not answer within the call's bound ([`GuiError::is_call_timeout`]).
    Timeout,
    /// The program answered with an error of its own: it refused the call (no such
    /// interface or property, not supported).
    Refused,
    /// Anything else: not a bus call, or the connection itself failed.
    Other,
}

/// Classify a failed call (see [`CallFailure`]).
pub(crate) fn call_failure(error: &GuiError) -> CallFailure {
    if is_gone(error) {
        return CallFailure::Gone;
    }
    if error.is_call_timeout() {
        return CallFailure::Timeout;
    }
    match error {
        GuiError::Bus { source, .. }
            if matches!(
                source.as_ref(),
                zbus::Error::MethodError(..) | zbus::Error::FDO(_)
            ) =>
        {
            CallFailure::Refused
        }
        _ => CallFailure::Other,
    }
}

/// A showing modal window of the program other than `frame` (the element's own window), if any.
pub(crate) async fn modal_over(
    a11y: &zbus::Connection,
    frame: &Element,
) -> Result<Option<Element>, GuiError> {
    let root = Element {
        path: ROOT_PATH.to_owned(),
        ..frame.clone()
    };
    let windows = root
        .accessible(a11y)
        .await?
        .get_children()
        .await
        .map_err(|e| GuiError::bus("GetChildren", e))?;
    let others: Vec<Element> = windows
        .iter()
        .filter(|w| w.path_as_str() != frame.path && w.name_as_str() == Some(&frame.bus_name))
        .map(|w| Element {
            path: w.path_as_str().to_owned(),
            ..frame.clone()
        })
        .collect();
    // Every other window's states asked together: one round trip's wait, not one a window.
    let states = futures_util::future::join_all(others.iter().map(|o| o.read_states(a11y))).await;
    for (other, states) in others.iter().zip(states) {
        // A window closing meanwhile is not in the way.
        let Ok(states) = states else {
            continue;
        };
        if states.contains(State::Modal) && states.contains(State::Showing) {
            return Ok(Some(Element::at(a11y, &frame.bus_name, &other.path).await?));
        }
    }
    Ok(None)
}

/// What keeps input from `placement`'s window modally, as a refusal names it: another window of
/// the program in AT-SPI state `modal` ([`modal_over`]), else — for a toolkit that marks none
/// (Qt 5) — one the X server holds modal (`crate::x11_modal`), matched to its accessible window
/// or not: input to the window under it would be dropped either way. `toolkit` is the
/// program's, when it named it: one that marks modal windows itself is not asked of X.
pub(crate) async fn modal_cover(
    x: &X11,
    a11y: &zbus::Connection,
    placement: &Placement,
    pgid: u32,
    toolkit: Option<&Toolkit>,
) -> Result<Option<String>, GuiError> {
    if let Some(dialog) = modal_over(a11y, &placement.frame).await? {
        return Ok(Some(format!("the modal {}", dialog.describe())));
    }
    if toolkit.is_some_and(Toolkit::marks_modal) {
        return Ok(None);
    }
    let frame = &placement.frame;
    let except = Some((placement.window.id, frame.path.as_str()));
    let found =
        x11_modal::modal_window(x, a11y, &frame.bus_name, &placement.windows, pgid, except).await?;
    Ok(found.map(|m| m.describe(&frame.bus_name)))
}

/// The program's showing modal top-level window (a save dialog), if one is up: where its
/// targets are while it is, since the windows under it take no input. Two round trips for the
/// top levels and one state read each, whatever the size of the tree; when none is `modal` and
/// `app` reaches the X server, the X server's modal window of the program, when an accessible
/// window matches it (one unmatched narrows nothing: input outside it is refused anyway).
pub(crate) async fn showing_modal(app: App<'_>) -> Result<Option<crate::tree::Node>, GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let windows: Vec<crate::tree::Node> = crate::tree::top_levels(a11y, bus_name)
        .await?
        .into_iter()
        .filter(|n| n.depth == 1)
        .collect();
    let reads = windows.iter().map(|w| {
        let window = crate::find::element(bus_name, w);
        async move { window.read_states(a11y).await }
    });
    let states = futures_util::future::join_all(reads).await;
    let marked = windows.into_iter().zip(states).find_map(|(w, s)| {
        // A window closing meanwhile is not in the way.
        let s = s.ok()?;
        (s.contains(State::Modal) && s.contains(State::Showing)).then_some(w)
    });
    let (Some((x, pgid)), None) = (app.x11, &marked) else {
        return Ok(marked);
    };
    if app.toolkit.is_some_and(Toolkit::marks_modal) {
        return Ok(None);
    }
    let listing = x.top_windows()?;
    let found = x11_modal::modal_window(x, a11y, bus_name, &listing, pgid, None).await?;
    Ok(found.and_then(|m| m.accessible))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zbus::fdo::Error as Fdo;

    fn fdo(error: Fdo) -> GuiError {
        GuiError::bus("GrabFocus", zbus::Error::FDO(Box::new(error)))
    }

    fn io(kind: std::io::ErrorKind) -> GuiError {
        let error = std::sync::Arc::new(std::io::Error::from(kind));
        GuiError::bus("GrabFocus", zbus::Error::InputOutput(error))
    }

    #[test]
    fn only_an_answered_error_that_is_neither_gone_nor_late_is_a_refusal() {
        let cases = [
            (fdo(Fdo::NotSupported("no".into())), CallFailure::Refused),
            (fdo(Fdo::UnknownObject("gone".into())), CallFailure::Gone),
            (fdo(Fdo::ServiceUnknown("gone".into())), CallFailure::Gone),
            (fdo(Fdo::TimedOut("late".into())), CallFailure::Timeout),
            (io(std::io::ErrorKind::TimedOut), CallFailure::Timeout),
            (io(std::io::ErrorKind::BrokenPipe), CallFailure::Other),
            (
                GuiError::WindowGone {
                    target: "button".into(),
                },
                CallFailure::Other,
            ),
        ];
        for (error, want) in cases {
            assert_eq!(call_failure(&error), want, "{error}");
        }
    }
}
