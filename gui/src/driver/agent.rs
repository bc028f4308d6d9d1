//! The desktop's agent surface: [`GuiContext`] implements
//! `a3s_test_driver::DesktopAgentContext`, so an agent session drives a program on a desktop
//! through the contract alone (the session names no driver type).
//!
//! An observation is one bounded tree read — in bulk where the toolkit keeps a whole cache
//! (GTK4), each node's states then asked; else walked with each node's states asked with it and
//! what is not showing skipped with its subtree — plus, at most 16 calls in flight, the text of
//! the nodes that show text and the label of each control without a name (it is then named by
//! that label, as a suite's `label(…)` finds it). Operable controls become the snapshot's
//! controls (role spelled as a suite writes it, name, value, on/off states), window titles and
//! labels its text. Hidden elements (no `visible` state; when walked, not `showing`) are left
//! out: a ref to something nobody can click would only fail at the hit test. Node ids are
//! a hash of the object path, stable while the object lives, so a control keeps its `@eN` across
//! observations of one binding.

use super::{failure, GuiContext};
use crate::app::App;
use crate::element::Element;
use crate::error::GuiError;
use crate::locate;
use crate::reads::Changes;
use crate::tree::{self, Limits, Node, Shown};
use a3s_test_driver::{
    BrowserProcess, ControlNode, Cut, DesktopAgentContext, DriverError, FailureCode, PageSnapshot,
    PageText, PointClick, PointElement, WindowShot,
};
use a3s_test_lang::ir::Target;
use atspi::{Role, State, StateSet};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;
use tokio::time::Instant;

fn driver_error(e: GuiError) -> DriverError {
    let f = failure(e);
    DriverError::new(f.code, f.message)
}

fn timed_out(what: &str) -> DriverError {
    DriverError::new(
        FailureCode::Timeout,
        format!("the {what} did not finish before the turn's deadline"),
    )
}

/// A stable id for an object path (FNV-1a): the same object keeps it while it lives.
pub fn node_id(path: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in path.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (hash >> 1) as i64
}

/// How a suite names `role` in `role("…", …)`: the crate spells `Role::Button` "button", which
/// a desktop target reads as the Web word (push and toggle buttons); "push button" names it
/// alone.
pub fn role_word(role: Role) -> String {
    match role {
        Role::Button => "push button".to_string(),
        other => other.name().to_string(),
    }
}

/// Roles an agent acts on.
fn operable(role: Role) -> bool {
    matches!(
        role,
        Role::Button
            | Role::ToggleButton
            | Role::CheckBox
            | Role::RadioButton
            | Role::Entry
            | Role::PasswordText
            | Role::ComboBox
            | Role::MenuItem
            | Role::CheckMenuItem
            | Role::RadioMenuItem
            | Role::Slider
            | Role::SpinButton
            | Role::Link
            | Role::PageTab
            | Role::ListItem
            // A menu bar's menus (GTK3's "File", "Edit"): a click opens them.
            | Role::Menu
    )
}

/// Roles whose text is read (besides the name).
fn shows_text(role: Role) -> bool {
    matches!(
        role,
        Role::Text
            | Role::Entry
            | Role::SpinButton
            | Role::Label
            | Role::Paragraph
            | Role::Static
            | Role::Heading
            | Role::Caption
            | Role::StatusBar
    )
}

/// One node as read for an observation.
struct Read {
    node: Node,
    states: StateSet,
    text: String,
    /// The text of its first label (`labelled-by`), read for a control without a name.
    label: Option<String>,
}

/// Whether a node of `role` in `states` is a control an agent acts on.
fn is_control(role: Role, states: StateSet) -> bool {
    operable(role) || (role == Role::Text && states.contains(State::Editable))
}

/// The nodes an observation shows, with their states, and whether that is all of them: in bulk
/// where the toolkit keeps a whole cache (GTK4), each node's states then asked (at most 16
/// calls in flight); else walked, a node's states asked with its role, name and children, and
/// what is not showing (a closed menu and everything in it) left out ([`tree::read_showing`]).
async fn shown_nodes(app: App<'_>) -> Result<(Vec<Shown>, bool), GuiError> {
    let (a11y, bus) = (app.a11y, app.bus_name);
    let Some(tree) = tree::read_bulk(a11y, bus, app.toolkit, Limits::default()).await? else {
        let tree = tree::read_showing(a11y, bus, Limits::default()).await?;
        return Ok((tree.nodes, tree.complete));
    };
    let reads = tree
        .nodes
        .into_iter()
        .filter(|n| n.depth >= 1)
        .map(|node| async move {
            let element = Element {
                bus_name: bus.to_owned(),
                path: node.path.clone(),
                role: node.role,
                name: node.name.clone(),
            };
            // A node gone between the tree read and this one is left out.
            let states = element.read_states(a11y).await.ok()?;
            Some(Shown { node, states })
        });
    let shown = crate::calls::in_order(reads).await.into_iter().flatten();
    Ok((shown.collect(), tree.complete))
}

/// A control of the snapshot, or `None` when the node is read as text.
fn control(read: &Read) -> Option<ControlNode> {
    if !is_control(read.node.role, read.states) {
        return None;
    }
    let mut states = BTreeMap::new();
    if !read.states.contains(State::Enabled) && !read.states.contains(State::Sensitive) {
        states.insert("disabled".to_string(), Value::Bool(true));
    }
    if read.states.contains(State::Focused) {
        states.insert("focused".to_string(), Value::Bool(true));
    }
    if read.states.contains(State::Checkable)
        || matches!(
            read.node.role,
            Role::CheckBox | Role::RadioButton | Role::ToggleButton
        )
    {
        let checked = read.states.contains(State::Checked) || read.states.contains(State::Pressed);
        states.insert("checked".to_string(), Value::Bool(checked));
    }
    if read.states.contains(State::Selected) {
        states.insert("selected".to_string(), Value::Bool(true));
    }
    // A password field's text is never read into an observation.
    let value = (read.node.role != Role::PasswordText && !read.text.trim().is_empty())
        .then(|| read.text.clone());
    // A control without a name of its own (a file chooser's name entry) is named by its label,
    // as a suite finds it: `label("Name:")`, or `role("text", "Name:")`, which matches labels.
    let own = locate::collapse(&read.node.name);
    let (name, named_by_label) = match (&read.label, own.is_empty()) {
        (Some(label), true) => (label.clone(), true),
        _ => (own, false),
    };
    Some(ControlNode {
        backend_node_id: node_id(&read.node.path),
        role: role_word(read.node.role),
        name,
        value,
        states,
        tag: String::new(),
        attributes: BTreeMap::new(),
        named_by_label,
    })
}

/// A text line of the snapshot for a node that is not a control (`None` when it shows none).
fn text_line(read: &Read, controls_before: usize) -> Option<PageText> {
    if !shows_text(read.node.role) {
        return None;
    }
    let text = if read.text.trim().is_empty() {
        locate::collapse(&read.node.name)
    } else {
        locate::collapse(&read.text)
    };
    (!text.is_empty()).then(|| PageText {
        role: if matches!(read.node.role, Role::Label | Role::Static | Role::Text) {
            "StaticText".to_string()
        } else {
            role_word(read.node.role)
        },
        text,
        controls_before: Some(controls_before),
    })
}

impl GuiContext {
    /// The binding string: the program (pid, bus name) and its first top-level window.
    async fn binding_now(&self) -> Result<String, GuiError> {
        let program = self.program();
        if let Some(exit) = program.exit() {
            return Err(GuiError::WindowGone {
                target: format!("the program (it ended: {exit})"),
            });
        }
        let windows = self.windows().await?;
        let window = windows.first().ok_or_else(|| GuiError::WindowGone {
            target: "the program (it shows none)".to_string(),
        })?;
        Ok(format!(
            "{}:{}:{}",
            program.pid(),
            program.bus_name(),
            window.path
        ))
    }

    /// The program's first top-level window (the binding's), else `window_gone`.
    async fn bound_window(&self) -> Result<Element, GuiError> {
        if let Some(exit) = self.program().exit() {
            return Err(GuiError::WindowGone {
                target: format!("the program (it ended: {exit})"),
            });
        }
        self.windows()
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| GuiError::WindowGone {
                target: "the program (it shows none)".to_string(),
            })
    }

    /// Click `(x, y)` of the first window's image (its on-screen part, as
    /// [`crate::screenshot::window`] reads it), reading the control there first.
    async fn click_at_point(&self, x: u32, y: u32) -> Result<PointClick, GuiError> {
        let window = self.bound_window().await?;
        let placement = self.input.locate(self.program(), &window).await?;
        let top = &placement.window;
        let (left, upper) = (top.x.max(0), top.y.max(0));
        let (sw, sh) = self.input.x11().size();
        let right = (top.x + top.width).min(i32::from(sw));
        let bottom = (top.y + top.height).min(i32::from(sh));
        let (sx, sy) = (
            left.saturating_add(i32::try_from(x).unwrap_or(i32::MAX)),
            upper.saturating_add(i32::try_from(y).unwrap_or(i32::MAX)),
        );
        if sx >= right || sy >= bottom {
            return Err(GuiError::TargetNotVisible {
                target: format!("the point ({x}, {y})"),
                why: format!(
                    "the window's image is {}×{}",
                    (right - left).max(0),
                    (bottom - upper).max(0)
                ),
            });
        }
        let element = self.control_at(&placement, sx, sy).await?;
        self.input.click_at(top, sx, sy)?;
        Ok(PointClick {
            screen_x: sx,
            screen_y: sy,
            element,
        })
    }

    /// The control at screen point `(x, y)`: the deepest element there, or its nearest
    /// ancestor an agent acts on (a button's label is its button); the deepest itself when no
    /// ancestor is one and it has a name; else none.
    async fn control_at(
        &self,
        placement: &crate::window::Placement,
        x: i32,
        y: i32,
    ) -> Result<Option<PointElement>, GuiError> {
        let a11y = self.a11y();
        let deepest = crate::hit::element_at(a11y, placement, x, y).await?;
        let point = |e: &Element| PointElement {
            role: role_word(e.role),
            name: locate::collapse(&e.name),
            node: node_id(&e.path),
        };
        let mut at = deepest.clone();
        // Bounded like every walk up the parents.
        for _ in 0..64 {
            if operable(at.role) {
                return Ok(Some(point(&at)));
            }
            match at.parent_path(a11y).await? {
                Some(parent) if parent != placement.frame.path => {
                    at = Element::at(a11y, &at.bus_name, &parent).await?;
                }
                _ => break,
            }
        }
        Ok((!locate::collapse(&deepest.name).is_empty()).then(|| point(&deepest)))
    }

    async fn snapshot(&self) -> Result<PageSnapshot, GuiError> {
        let program = self.program();
        let bus = program.bus_name().to_owned();
        let a11y = self.a11y();
        // The binding (the program's windows) is read beside the tree, not before it.
        let app = self.app().await;
        let (binding, shown) = futures_util::join!(self.binding_now(), shown_nodes(app));
        let (binding, (shown, complete)) = (binding?, shown?);
        let reads = shown
            .into_iter()
            .filter(|s| s.node.depth >= 1)
            .map(|shown| {
                let element = Element {
                    bus_name: bus.clone(),
                    path: shown.node.path.clone(),
                    role: shown.node.role,
                    name: shown.node.name.clone(),
                };
                async move {
                    let seen = shown.node.depth == 1 || shown.states.contains(State::Visible);
                    let unnamed_control = seen
                        && is_control(shown.node.role, shown.states)
                        && shown.node.name.trim().is_empty();
                    // Asked together; a node gone meanwhile reads as empty.
                    let (text, labels) = futures_util::join!(
                        async {
                            match seen && shows_text(shown.node.role) {
                                true => element.read_text(a11y).await.unwrap_or_default(),
                                false => String::new(),
                            }
                        },
                        async {
                            match unnamed_control {
                                true => element.label_names(a11y).await.unwrap_or_default(),
                                false => Vec::new(),
                            }
                        },
                    );
                    let label = labels
                        .iter()
                        .map(|l| locate::collapse(l))
                        .find(|l| !l.is_empty());
                    Read {
                        node: shown.node,
                        states: shown.states,
                        text,
                        label,
                    }
                }
            });
        let read: Vec<Read> = crate::calls::in_order(reads).await;
        let mut controls = Vec::new();
        let mut texts = Vec::new();
        let mut title = String::new();
        for r in &read {
            if r.node.depth == 1 {
                // Windows and dialogs: their titles head the view.
                let name = locate::collapse(&r.node.name);
                if title.is_empty() {
                    title = name.clone();
                }
                texts.push(PageText {
                    role: role_word(r.node.role),
                    text: name,
                    controls_before: Some(controls.len()),
                });
            } else if r.states.contains(State::Visible) {
                match control(r) {
                    Some(c) => controls.push(c),
                    None => texts.extend(text_line(r, controls.len())),
                }
            }
        }
        Ok(PageSnapshot {
            url: format!("desktop: {} — window {title:?}", program.name()),
            loader_id: binding,
            controls,
            texts,
            truncated: !complete,
            cut: if complete { Vec::new() } else { vec![Cut::Cap] },
        })
    }
}

impl DesktopAgentContext for GuiContext {
    async fn observe(&self, deadline: Instant) -> Result<PageSnapshot, DriverError> {
        tokio::time::timeout_at(deadline, self.snapshot())
            .await
            .map_err(|_| timed_out("observation"))?
            .map_err(driver_error)
    }

    async fn binding(&self, deadline: Instant) -> Result<String, DriverError> {
        tokio::time::timeout_at(deadline, self.binding_now())
            .await
            .map_err(|_| timed_out("binding check"))?
            .map_err(driver_error)
    }

    async fn names_alone(
        &self,
        target: &Target,
        node: i64,
        deadline: Instant,
    ) -> Result<bool, DriverError> {
        let app = self.app().await;
        let found = tokio::time::timeout_at(deadline, locate::all(app, target))
            .await
            .map_err(|_| timed_out("ref proof"))?
            .map_err(driver_error)?;
        Ok(matches!(found.as_slice(), [one] if node_id(&one.path) == node))
    }

    async fn settle(&self, quiet: Duration, cap: Duration, deadline: Instant) -> bool {
        let until = deadline.min(Instant::now() + cap);
        let bus = self.program().bus_name().to_owned();
        let Ok(mut changes) = Changes::watch(self.a11y(), &bus).await else {
            return false;
        };
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            if !changes.next(quiet.min(left)).await {
                return Instant::now() < until;
            }
        }
    }

    async fn window_shot(&self, deadline: Instant) -> Result<WindowShot, DriverError> {
        let shot = async {
            let window = self.bound_window().await?;
            let placement = self.input.locate(self.program(), &window).await?;
            let shot = crate::screenshot::window(self.input.x11(), placement.window.id)?;
            Ok::<_, GuiError>((shot, placement.window.x.max(0), placement.window.y.max(0)))
        };
        let shot = tokio::time::timeout_at(deadline, shot)
            .await
            .map_err(|_| timed_out("window screenshot"))?
            .map_err(driver_error)?;
        let (shot, left, top) = shot;
        Ok(WindowShot {
            png: shot.png,
            width: shot.width,
            height: shot.height,
            left,
            top,
        })
    }

    async fn click_point(
        &self,
        x: u32,
        y: u32,
        deadline: Instant,
    ) -> Result<PointClick, DriverError> {
        tokio::time::timeout_at(deadline, self.click_at_point(x, y))
            .await
            .map_err(|_| timed_out("click at a point"))?
            .map_err(driver_error)
    }

    fn program_process(&self) -> BrowserProcess {
        let program = self.program();
        BrowserProcess {
            pid: program.pid(),
            pgid: program.pgid(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_stable_and_roles_read_as_suites_write_them() {
        let a = node_id("/org/a11y/atspi/accessible/12");
        assert_eq!(a, node_id("/org/a11y/atspi/accessible/12"));
        assert_ne!(a, node_id("/org/a11y/atspi/accessible/13"));
        assert!(a >= 0);
        assert_eq!(role_word(Role::Button), "push button");
        assert_eq!(role_word(Role::CheckBox), "check box");
    }
}
