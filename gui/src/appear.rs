//! Waiting for a target to appear: a query re-run until exactly one element of the program
//! matches it, woken by the program's object events, bounded by a deadline.
//!
//! Why a wait of its own: a step's effect is often a new element or a new window — a save dialog
//! after Ctrl+S, a modal alert, a row — which shows up in the tree some milliseconds after the
//! input that caused it. Finding once would race the program; the wait re-reads when the program
//! reports a change (children added, states changed) and, failing that, after a short pause,
//! like [`crate::wait::until`]. Zero or several matches at the deadline end as `wait_timeout`
//! naming how many matched the last time.

use crate::app::App;
use crate::element::Element;
use crate::error::GuiError;
use crate::find::{self, Query};
use crate::wait::{Waited, Wake};
use std::time::Duration;

/// Wait until exactly one element of the program at `bus_name` matches `query`, within
/// `within`; the element and how the wait went.
pub async fn one(
    app: App<'_>,
    query: &Query,
    within: Duration,
) -> Result<(Element, Waited), GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let mut wake = Wake::subscribe(a11y, bus_name, within).await?;
    loop {
        let mut found = find::all(app, query).await?;
        if found.len() == 1 {
            let element = found.remove(0);
            let waited = wake.waited(element.describe());
            return Ok((element, waited));
        }
        if !wake.next().await {
            // What came close, as a failed find lists it.
            let last = match find::one(app, query).await {
                Err(GuiError::TargetNotFound { candidates, .. }) => {
                    format!("none matched; candidates: {candidates}")
                }
                Err(GuiError::TargetAmbiguous {
                    candidates, count, ..
                }) => {
                    format!("{count} matched: {candidates}")
                }
                _ => format!("{} matched", found.len()),
            };
            return Err(GuiError::WaitTimeout {
                what: format!("exactly one element matching {}", query.describe()),
                last,
                waited_ms: wake.elapsed().as_millis(),
            });
        }
    }
}

/// Wait until no element of the program at `bus_name` matches `query` (a dialog closed, a
/// row removed), within `within`.
pub async fn gone(app: App<'_>, query: &Query, within: Duration) -> Result<Waited, GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let mut wake = Wake::subscribe(a11y, bus_name, within).await?;
    loop {
        let found = find::all(app, query).await?;
        if found.is_empty() {
            return Ok(wake.waited(String::new()));
        }
        if !wake.next().await {
            return Err(GuiError::WaitTimeout {
                what: format!("no element matching {}", query.describe()),
                last: format!("{} matched", found.len()),
                waited_ms: wake.elapsed().as_millis(),
            });
        }
    }
}
