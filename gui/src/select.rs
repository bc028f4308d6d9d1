//! `select` on a desktop: choose one option of a combo box or a list with real input, then
//! prove the control shows it chosen.
//!
//! Why real input here too: a person opens the combo box and clicks the option in its popup,
//! and that is what a suite must prove works (the popup opens where the option can be clicked,
//! nothing covers it). So: the combo box is clicked after the hit test, the option is awaited
//! (woken by the program's events, bounded) until it shows, and clicked after its own hit test —
//! in the popup window, which `crate::window` accepts as the option's (or, when it lies partly
//! outside a popup clamped to the screen, reached with the arrow keys and Return). A list (or
//! table, or tree)
//! shows its options already: the row is clicked. Then the choice is read back — the combo box's
//! name is the chosen option (GTK3, Qt), a list's row is `selected` — else
//! `selection_unchanged`. An option the control does not have is `option_not_found` listing the
//! ones it has, before anything is sent whenever the toolkit lists them before the popup opens
//! (GTK3 does).

use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::find::element;
use crate::input::{Acted, Clicks, Input};
use crate::keys::Chord;
use crate::locate::collapse;
use crate::program::Program;
use crate::tree::{self, Limits, Node};
use crate::wait::{self, Condition, TextMatch};
use crate::x11::TopWindow;
use atspi::{Role, State};
use std::time::{Duration, Instant};

/// Most options a failure message names.
const MOST_NAMED: usize = 20;

/// What kind of control a `select` acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Control {
    /// A combo box: its options show in a popup once it is clicked.
    Combo,
    /// A list, list box, table or tree: its options show already.
    List,
}

impl Control {
    /// The kind of `role`, `None` when `select` cannot act on it.
    fn of(role: Role) -> Option<Control> {
        match role {
            Role::ComboBox => Some(Control::Combo),
            Role::List | Role::ListBox | Role::Table | Role::TreeTable | Role::Tree => {
                Some(Control::List)
            }
            _ => None,
        }
    }
}

/// Whether a node of the control's subtree is one of its options (not a column header, a
/// scroll bar or the popup's menu itself).
fn is_option(role: Role) -> bool {
    matches!(
        role,
        Role::MenuItem
            | Role::CheckMenuItem
            | Role::RadioMenuItem
            | Role::ListItem
            | Role::TableCell
            | Role::TreeItem
            | Role::TableRow
    )
}

/// The options among `nodes` (the control's subtree), in tree order, unnamed ones left out.
fn options(nodes: &[Node]) -> Vec<&Node> {
    nodes
        .iter()
        .filter(|n| is_option(n.role) && !collapse(&n.name).is_empty())
        .collect()
}

/// The options' names for a message: the first [`MOST_NAMED`], quoted, then how many more.
fn named(options: &[&Node]) -> String {
    if options.is_empty() {
        return "none".into();
    }
    let mut names: Vec<String> = options
        .iter()
        .take(MOST_NAMED)
        .map(|n| format!("{:?}", collapse(&n.name)))
        .collect();
    if options.len() > MOST_NAMED {
        names.push(format!("… and {} more", options.len() - MOST_NAMED));
    }
    names.join(", ")
}

/// What a `select` did.
#[derive(Debug, Clone)]
pub struct Selected {
    /// The option clicked.
    pub option: Element,
    /// The click on the option (its hit test included), or the last key that chose it.
    pub acted: Acted,
    /// The keys pressed instead of a click (arrows, then Return) when the option lay partly
    /// outside its popup.
    pub keys: Option<usize>,
    /// How long it took, from the first click until the choice was read back.
    pub took: Duration,
}

/// Choose `option` (its shown text, compared after collapsing whitespace) in `control` of
/// `program`, each wait bounded by `within`.
pub async fn select(
    input: &Input,
    program: &Program,
    control: &Element,
    option: &str,
    within: Duration,
) -> Result<Selected, GuiError> {
    let started = Instant::now();
    let a11y = input.a11y();
    let kind = Control::of(control.role).ok_or_else(|| GuiError::NotSelectable {
        target: control.describe(),
    })?;
    let want = collapse(option);
    let listed = read_options(a11y, control).await?;
    let found = pick(control, &listed, &want);
    let chosen = match (kind, found) {
        (Control::List, found) => found?,
        // Listed before the popup opens (GTK3): a missing option fails before any input.
        (Control::Combo, Err(missing)) if !options(&listed).is_empty() => return Err(missing),
        (Control::Combo, found) => {
            input.click(program, control, Clicks::Single).await?;
            let item = match found {
                Ok(item) => item,
                // Listed only once open: read again.
                Err(_) => pick(control, &read_options(a11y, control).await?, &want)?,
            };
            wait::until(a11y, &item, &Condition::State(State::Showing, true), within).await?;
            item
        }
    };
    let (acted, keys) = match kind {
        Control::Combo => match by_keys_when_outside(input, program, control, &chosen).await? {
            Some((acted, keys)) => (acted, Some(keys)),
            None => (input.click(program, &chosen, Clicks::Single).await?, None),
        },
        Control::List => (input.click(program, &chosen, Clicks::Single).await?, None),
    };
    let chosen_now = match kind {
        Control::Combo => Condition::Name(TextMatch::Exact(want.clone())),
        Control::List => Condition::State(State::Selected, true),
    };
    let shown_on = match kind {
        Control::Combo => control,
        Control::List => &chosen,
    };
    match wait::until(a11y, shown_on, &chosen_now, within).await {
        Ok(_) => Ok(Selected {
            option: chosen,
            acted,
            keys,
            took: started.elapsed(),
        }),
        Err(GuiError::WaitTimeout {
            last, waited_ms, ..
        }) => Err(GuiError::SelectionUnchanged {
            target: control.describe(),
            option: want,
            shown: last,
            waited_ms,
        }),
        Err(other) => Err(other),
    }
}

/// Most arrow keys a `select` presses in a popup.
const MOST_KEYS: usize = 200;

/// When `item` lies partly outside its popup, choose it with the keyboard (arrow keys from the
/// highlighted option, then Return) and say what was pressed; `None` when it lies inside (or
/// in no popup) and is to be clicked. Why: GTK3 opens a combo box's list with the active option
/// over the combo box, and a list that would run off the screen is clamped to it and scrolls,
/// with arrows over its ends — an option above the active one can lie partly outside the popup,
/// its reported centre on an arrow, where a click scrolls instead of choosing (the
/// accessibility tree knows nothing of the arrows, and GTK3 reports a scrolling list's items
/// inconsistently). A person then moves through the list with the keys; so does this.
async fn by_keys_when_outside(
    input: &Input,
    program: &Program,
    control: &Element,
    item: &Element,
) -> Result<Option<(Acted, usize)>, GuiError> {
    let a11y = input.a11y();
    let placement = input.locate(program, item).await?;
    if placement.root.path == placement.frame.path {
        // Not in a popup: the click's own hit test judges it.
        return Ok(None);
    }
    let shown = placement.to_screen(item.extents(a11y).await?);
    if inside(&placement.window, &shown) {
        return Ok(None);
    }
    let listed = read_options(a11y, control).await?;
    let all: Vec<Element> = options(&listed)
        .into_iter()
        .map(|n| element(&control.bus_name, n))
        .collect();
    let target = all
        .iter()
        .position(|o| o.path == item.path)
        .ok_or_else(|| GuiError::TargetNotVisible {
            target: item.describe(),
            why: "it left its list while the popup opened".into(),
        })?;
    let states = crate::calls::in_order(all.iter().map(|o| o.read_states(a11y))).await;
    let mut highlighted = None;
    for (index, read) in states.into_iter().enumerate() {
        if read?.contains(State::Selected) {
            highlighted = Some(index);
            break;
        }
    }
    let (key, times) = keys_to(highlighted, target);
    if times > MOST_KEYS {
        return Err(GuiError::TargetNotVisible {
            target: item.describe(),
            why: format!("it lies outside its popup, {times} keys away"),
        });
    }
    let step = Chord::parse(key)?;
    for _ in 0..times {
        input.press(program, item, &step).await?;
    }
    let acted = input.press(program, item, &Chord::parse("Return")?).await?;
    Ok(Some((acted, times + 1)))
}

/// The arrow key and how many presses move a list's highlight from `from` (none: the first
/// Down highlights the first option) to `to`.
fn keys_to(from: Option<usize>, to: usize) -> (&'static str, usize) {
    match from {
        None => ("Down", to + 1),
        Some(from) if to < from => ("Up", from - to),
        Some(from) => ("Down", to - from),
    }
}

/// Whether `shown` lies wholly inside `popup`.
fn inside(popup: &TopWindow, shown: &Rect) -> bool {
    shown.y >= popup.y
        && shown.x >= popup.x
        && shown.y + shown.height <= popup.y + popup.height
        && shown.x + shown.width <= popup.x + popup.width
}

/// The subtree of `control` (its options among it), bounded like every tree read.
async fn read_options(a11y: &zbus::Connection, control: &Element) -> Result<Vec<Node>, GuiError> {
    let limits = Limits {
        max_nodes: 2000,
        within: Duration::from_secs(5),
    };
    Ok(
        tree::read_below(a11y, &control.bus_name, &control.path, 0, limits)
            .await?
            .nodes,
    )
}

/// The one option of `control` among `nodes` shown as `want`: none is `option_not_found`
/// listing the options, several `target_ambiguous`.
fn pick(control: &Element, nodes: &[Node], want: &str) -> Result<Element, GuiError> {
    let all = options(nodes);
    let matching: Vec<&&Node> = all.iter().filter(|n| collapse(&n.name) == want).collect();
    match matching.as_slice() {
        [one] => Ok(element(&control.bus_name, one)),
        [] => Err(GuiError::OptionNotFound {
            target: control.describe(),
            option: want.to_owned(),
            options: named(&all),
        }),
        several => Err(GuiError::TargetAmbiguous {
            target: format!("option {want:?} of {}", control.describe()),
            count: several.len(),
            candidates: several
                .iter()
                .take(MOST_NAMED)
                .map(|n| format!("{} {:?} {}", n.role.name(), n.name, n.path))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::GuiCode;

    fn node(role: Role, name: &str, path: &str) -> Node {
        Node {
            path: path.into(),
            role,
            name: name.into(),
            depth: 1,
            parent: None,
        }
    }

    fn combo() -> Element {
        Element {
            bus_name: ":1.2".into(),
            path: "/c".into(),
            role: Role::ComboBox,
            name: String::new(),
        }
    }

    /// GTK3's combo box subtree: the combo, its menu, three items.
    fn gtk3_combo() -> Vec<Node> {
        vec![
            node(Role::ComboBox, "", "/c"),
            node(Role::Menu, "", "/m"),
            node(Role::MenuItem, "Red", "/r"),
            node(Role::MenuItem, "Green", "/g"),
            node(Role::MenuItem, "Blue", "/b"),
        ]
    }

    #[test]
    fn the_option_shown_so_is_picked_after_collapsing_whitespace() {
        let picked = pick(&combo(), &gtk3_combo(), &collapse(" Green ")).unwrap();
        assert_eq!((picked.path.as_str(), picked.role), ("/g", Role::MenuItem));
    }

    #[test]
    fn a_missing_option_lists_the_options_the_control_has() {
        let error = pick(&combo(), &gtk3_combo(), "Purple").unwrap_err();
        assert_eq!(error.code(), GuiCode::OptionNotFound);
        let message = error.to_string();
        assert!(
            message.contains(r#"its options: "Red", "Green", "Blue";"#),
            "{message}"
        );
        assert_eq!(message.matches("hint:").count(), 1, "{message}");
    }

    #[test]
    fn a_long_list_of_options_is_named_in_part() {
        let mut nodes = vec![node(Role::Table, "", "/t")];
        nodes.push(node(Role::TableColumnHeader, "Fruit", "/h"));
        for i in 0..30 {
            nodes.push(node(Role::TableCell, &format!("row {i}"), &format!("/{i}")));
        }
        let error = pick(&combo(), &nodes, "row 99").unwrap_err();
        let message = error.to_string();
        assert!(message.contains("\"row 19\", … and 10 more"), "{message}");
        assert!(
            !message.contains("Fruit"),
            "a column header is no option: {message}"
        );
    }

    #[test]
    fn two_options_shown_alike_are_ambiguous() {
        let mut nodes = gtk3_combo();
        nodes.push(node(Role::MenuItem, "Green", "/g2"));
        let error = pick(&combo(), &nodes, "Green").unwrap_err();
        assert_eq!(error.code(), GuiCode::TargetAmbiguous, "{error}");
    }

    /// GTK3's list with "Blue" active, clamped to the top of the screen: "Red" lies partly
    /// above the popup and is chosen with the keys; the others lie inside and are clicked.
    #[test]
    fn an_option_partly_outside_its_popup_is_reached_with_the_arrow_keys() {
        let popup = TopWindow {
            id: 1,
            x: 0,
            y: 0,
            width: 79,
            height: 95,
            pid: None,
            title: String::new(),
            override_redirect: true,
        };
        let at = |y| Rect {
            x: 0,
            y,
            width: 79,
            height: 29,
        };
        assert!(!inside(&popup, &at(-13)));
        assert!(!inside(&popup, &at(80)));
        assert!(inside(&popup, &at(16)));
        assert!(inside(&popup, &at(66)));
        assert_eq!(keys_to(Some(2), 0), ("Up", 2));
        assert_eq!(keys_to(Some(0), 2), ("Down", 2));
        assert_eq!(keys_to(None, 0), ("Down", 1));
        assert_eq!(keys_to(Some(1), 1), ("Down", 0));
    }

    #[test]
    fn only_combo_boxes_and_lists_are_selectable() {
        assert_eq!(Control::of(Role::ComboBox), Some(Control::Combo));
        for role in [
            Role::List,
            Role::ListBox,
            Role::Table,
            Role::TreeTable,
            Role::Tree,
        ] {
            assert_eq!(Control::of(role), Some(Control::List), "{role:?}");
        }
        assert_eq!(Control::of(Role::Button), None);
        assert_eq!(Control::of(Role::Entry), None);
    }
}
