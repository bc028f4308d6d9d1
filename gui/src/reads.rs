//! One reading of a desktop `expect`/`wait` condition, the program's change events that wake
//! the next one, and the tree as text for evidence.
//!
//! Why the runner decides and this only reads: `runner/src/expect.rs` owns the retry loop and
//! what a reading that never held means, for every surface. A desktop reading is one pass over
//! the program's tree (bulk where it has a cache); [`Changes`] subscribes to the program's
//! AT-SPI object events *before* the reading, so a change between the two is never missed.

use crate::app::App;
use crate::element::Element;
use crate::error::GuiError;
use crate::locate::{self, collapse};
use a3s_test_lang::ir::{ElementState, Target};
use atspi::{Role, State};
use futures_util::StreamExt as _;
use std::time::Duration;

/// The program's object events from now on.
///
/// The subscription is drained by a task of its own into a wake-up, never left to fill while a
/// find or a reading runs: zbus's subscription queues are bounded and a full one stops the
/// connection's reader, so every other call on the shared accessibility connection times out
/// behind it — a GTK3 file chooser sends hundreds of events while it builds and while its tree
/// is read, which made finds in mousepad's save dialog fail as bus timeouts.
pub struct Changes {
    event: std::sync::Arc<tokio::sync::Notify>,
    drain: tokio::task::JoinHandle<()>,
}

impl Drop for Changes {
    fn drop(&mut self) {
        self.drain.abort();
    }
}

impl Changes {
    /// Subscribe to the object events of the program at `bus_name`.
    pub async fn watch(a11y: &zbus::Connection, bus_name: &str) -> Result<Changes, GuiError> {
        let mut events = crate::wait::object_events(a11y, bus_name).await?;
        let event = std::sync::Arc::new(tokio::sync::Notify::new());
        let drain = tokio::spawn({
            let event = event.clone();
            async move {
                while events.next().await.is_some() {
                    // A permit is kept when nobody waits: the next `next` returns at once.
                    event.notify_one();
                }
            }
        });
        Ok(Changes { event, drain })
    }

    /// Until an event came since the last call (true) or `within` passed (false).
    pub async fn next(&mut self, within: Duration) -> bool {
        tokio::time::timeout(within, self.event.notified())
            .await
            .is_ok()
    }
}

/// Every text the program shows: each element's name, and the text of those that have a text
/// (labels, entries), in tree order.
pub async fn shown_texts(app: App<'_>) -> Result<Vec<String>, GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let tree = locate::read_scope(app).await?;
    let reads = tree.nodes.iter().map(|node| async move {
        let element = Element {
            bus_name: bus_name.to_owned(),
            path: node.path.clone(),
            role: node.role,
            name: node.name.clone(),
        };
        let text = if has_text(node.role) {
            element.read_text(a11y).await.unwrap_or_default()
        } else {
            String::new()
        };
        (node.name.clone(), text)
    });
    let mut out = Vec::new();
    for (name, text) in crate::calls::in_order(reads).await {
        for t in [name, text] {
            let t = collapse(&t);
            if !t.is_empty() && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    Ok(out)
}

/// Roles whose text is worth reading besides the name.
fn has_text(role: Role) -> bool {
    matches!(
        role,
        Role::Text
            | Role::Entry
            | Role::Label
            | Role::Paragraph
            | Role::Static
            | Role::Heading
            | Role::Caption
            | Role::StatusBar
    )
}

/// The elements `target` names that show on the screen.
pub async fn showing(app: App<'_>, target: &Target) -> Result<Vec<Element>, GuiError> {
    let a11y = app.a11y;
    let mut out = Vec::new();
    for element in locate::all(app, target).await? {
        match element.read_states(a11y).await {
            Ok(states) if states.contains(State::Showing) => out.push(element),
            Ok(_) => {}
            // Gone since it was found (a dialog closing): it does not show.
            Err(e) if crate::modal::is_gone(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// The AT-SPI state an ACL element state reads, and whether it must be present.
pub fn state_of(state: ElementState) -> Option<(State, bool)> {
    Some(match state {
        ElementState::Enabled => (State::Enabled, true),
        ElementState::Disabled => (State::Enabled, false),
        ElementState::Checked => (State::Checked, true),
        ElementState::Unchecked => (State::Checked, false),
        ElementState::Selected => (State::Selected, true),
        ElementState::Unselected => (State::Selected, false),
        ElementState::Focused => (State::Focused, true),
        ElementState::Unfocused => (State::Focused, false),
        _ => return None,
    })
}

/// The tree as text for evidence and `snapshot`: one line a node, indented by depth, breadth
/// first as read (`push button "7"`), and whether the read saw all of it.
pub async fn tree_text(app: App<'_>) -> Result<String, GuiError> {
    let tree = locate::read_tree(app).await?;
    let mut out = String::new();
    for node in &tree.nodes {
        out.push_str(&"  ".repeat(node.depth));
        out.push_str(&format!("{} {:?}\n", node.role.name(), node.name));
    }
    if !tree.complete {
        out.push_str("… (the read stopped at its node or time budget)\n");
    }
    Ok(out)
}
