//! `select` on a desktop: choose options of a combo box or a list with real input, then prove
//! the control shows them chosen.
//!
//! Why real input here too: a person opens the combo box and clicks the option in its popup,
//! and that is what a suite must prove works (the popup opens where the option can be clicked,
//! nothing covers it). So: the combo box is clicked after the hit test, the option is awaited
//! (woken by the program's events, bounded) until it shows in a popup window — GTK3's and Qt's
//! list, GTK4's popover, each an override-redirect window that `crate::window` accepts as the
//! option's — and clicked after its own hit test (or, when it lies partly outside a popup
//! clamped to the screen, reached with the arrow keys and Return). A list (or table, or tree)
//! shows its options already: the row is clicked, and each further option of a multi-option
//! `select` is Control+clicked, as a person adds rows to a selection. Then the choice is read
//! back — the combo box's name is the chosen option (GTK3, Qt) or one of its own labels reads it
//! (GTK4's drop-down, named after its class, shows the choice in its button), a list's rows are
//! `selected` and no other row is — else `selection_unchanged`. An option the control does not have is
//! `option_not_found` listing the ones it has, before anything is sent whenever the toolkit
//! lists them before the popup opens (GTK3 and Qt do; GTK4 builds its popover on first open).
//! An option with no name of its own (GTK4's list items) is known by its labels' text.

use crate::ancestry::Ancestry;
use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::find::element;
use crate::input::{Acted, Clicks, Input};
use crate::keys::{Chord, Modifier};
use crate::locate::collapse;
use crate::program::Program;
use crate::tree::{self, Limits, Node};
use crate::wait::{self, Condition, Wake};
use crate::window::Placement;
use crate::x11::TopWindow;
use atspi::{Role, State};
use std::collections::HashMap;
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

/// One option of a control, with the text it shows.
#[derive(Debug)]
struct Shown<'n> {
    /// Its node.
    node: &'n Node,
    /// Its name, or its labels' text when it has no name (collapsed).
    text: String,
}

/// For each of `nodes` (a subtree read breadth first), the index of its nearest ancestor
/// among them that is an option.
fn option_above(nodes: &[Node]) -> Vec<Option<usize>> {
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.path.as_str(), i))
        .collect();
    let mut above: Vec<Option<usize>> = Vec::with_capacity(nodes.len());
    for node in nodes {
        // Breadth first: a parent comes before its children, so its answer is known.
        let parent = node.parent.as_deref().and_then(|p| index.get(p).copied());
        above.push(parent.and_then(|p| {
            if is_option(nodes[p].role) {
                Some(p)
            } else {
                above[p]
            }
        }));
    }
    above
}

/// The options among `nodes` (the control's subtree), in tree order, with what each shows; ones
/// that show nothing are left out.
fn options(nodes: &[Node]) -> Vec<Shown<'_>> {
    let above = option_above(nodes);
    nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| is_option(n.role))
        .filter_map(|(i, n)| {
            let mut text = collapse(&n.name);
            if text.is_empty() {
                text = labels(nodes, &above, Some(i)).join(" ");
            }
            (!text.is_empty()).then_some(Shown { node: n, text })
        })
        .collect()
}

/// The text of the labels among `nodes` whose nearest option above is `option` (`None`: the
/// labels inside no option — what a GTK4 drop-down shows as its choice).
fn labels(nodes: &[Node], above: &[Option<usize>], option: Option<usize>) -> Vec<String> {
    nodes
        .iter()
        .zip(above)
        .filter(|(n, a)| n.role == Role::Label && **a == option)
        .map(|(n, _)| collapse(&n.name))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The options' names for a message: the first [`MOST_NAMED`], quoted, then how many more.
fn named(options: &[Shown]) -> String {
    if options.is_empty() {
        return "none".into();
    }
    let mut names: Vec<String> = options
        .iter()
        .take(MOST_NAMED)
        .map(|o| format!("{:?}", o.text))
        .collect();
    if options.len() > MOST_NAMED {
        names.push(format!("… and {} more", options.len() - MOST_NAMED));
    }
    names.join(", ")
}

/// What a `select` did.
#[derive(Debug, Clone)]
pub struct Selected {
    /// The options clicked, in the order the step names them.
    pub options: Vec<Element>,
    /// The option chosen last (the last of `options`): there is always one, since `select`
    /// refuses an empty list, so the step's detail needs no "none" case.
    pub last: Element,
    /// The last click on an option (its hit test included), or the last key that chose it.
    pub acted: Acted,
    /// The keys pressed instead of a click (arrows, then Return) when the option lay partly
    /// outside its popup.
    pub keys: Option<usize>,
    /// How long it took, from the first click until the choice was read back.
    pub took: Duration,
}

/// Choose `values` (each an option's shown text, compared after collapsing whitespace) in
/// `control` of `program`, each wait bounded by `within`: one option of a combo box, one or
/// several of a list (a repeated option is chosen once).
pub async fn select(
    input: &Input,
    program: &Program,
    control: &Element,
    values: &[String],
    within: Duration,
) -> Result<Selected, GuiError> {
    let started = Instant::now();
    let not_selectable = |why: String| GuiError::NotSelectable {
        target: control.describe(),
        why,
    };
    let kind = Control::of(control.role)
        .ok_or_else(|| not_selectable("is not a combo box or a list".into()))?;
    let mut wants: Vec<String> = Vec::with_capacity(values.len());
    for value in values {
        let want = collapse(value);
        if !wants.contains(&want) {
            wants.push(want);
        }
    }
    let (options, last, acted, keys) = match (kind, wants.as_slice()) {
        (_, []) => return Err(not_selectable("is given no option to choose".into())),
        (Control::Combo, [want]) => {
            let (option, acted, keys) = in_combo(input, program, control, want, within).await?;
            (vec![option.clone()], option, acted, keys)
        }
        (Control::Combo, several) => {
            return Err(not_selectable(format!(
                "is a combo box, which shows one option; this `select` names {}",
                several.len()
            )))
        }
        (Control::List, [first, rest @ ..]) => {
            let (options, last, acted) =
                in_list(input, program, control, (first, rest), within).await?;
            (options, last, acted, None)
        }
    };
    Ok(Selected {
        options,
        last,
        acted,
        keys,
        took: started.elapsed(),
    })
}

/// Open `control` (a combo box), choose `want` in its popup and read the choice back.
async fn in_combo(
    input: &Input,
    program: &Program,
    control: &Element,
    want: &str,
    within: Duration,
) -> Result<(Element, Acted, Option<usize>), GuiError> {
    let a11y = input.a11y();
    let listed = read_options(a11y, control).await?;
    // Listed before the popup opens (GTK3, Qt): a missing option fails before any input.
    if !options(&listed).is_empty() {
        pick(control, &listed, want)?;
    }
    // Subscribed before the click: the popup's first events wake the wait below.
    let mut wake = Wake::subscribe(a11y, &control.bus_name, within).await?;
    input.click(program, control, Clicks::Single).await?;
    let (item, placement) = loop {
        let nodes = read_options(a11y, control).await?;
        let missing = match pick(control, &nodes, want) {
            Ok(item) => match in_popup(input, program, &item).await? {
                Some(placement) => break (item, placement),
                None => None,
            },
            // Listed only once open (GTK4): read again until it is — unless the popup is up
            // showing the others, when it is missing rather than still to come.
            Err(missing @ GuiError::OptionNotFound { .. }) => {
                let first = options(&nodes)
                    .first()
                    .map(|o| element(&control.bus_name, o.node));
                if let Some(first) = first {
                    if in_popup(input, program, &first).await?.is_some() {
                        return Err(missing);
                    }
                }
                Some(missing)
            }
            Err(other) => return Err(other),
        };
        if !wake.next().await {
            return Err(missing.unwrap_or_else(|| GuiError::TargetNotVisible {
                target: format!("option {want:?} of {}", control.describe()),
                why: format!(
                    "no popup showed it within {} ms of the click on its combo box",
                    wake.elapsed().as_millis()
                ),
            }));
        }
    };
    drop(wake);
    let (acted, keys) =
        match by_keys_when_outside(input, program, control, &item, &placement).await? {
            Some((acted, keys)) => (acted, Some(keys)),
            None => (input.click(program, &item, Clicks::Single).await?, None),
        };
    shows(a11y, control, want, within).await?;
    Ok((item, acted, keys))
}

/// Where `item` is shown when it lies in a popup window with an area; `None` while its popup is
/// not up yet (a vanished object included: toolkits build a popup's objects as it opens).
async fn in_popup(
    input: &Input,
    program: &Program,
    item: &Element,
) -> Result<Option<Placement>, GuiError> {
    if program.exit().is_some() {
        return Err(GuiError::WindowGone {
            target: item.describe(),
        });
    }
    let placement = match input.locate(program, item).await {
        Ok(placement) => placement,
        Err(e) if matches!(e, GuiError::WindowGone { .. }) || crate::modal::is_gone(&e) => {
            return Ok(None)
        }
        Err(other) => return Err(other),
    };
    if placement.root.path == placement.frame.path {
        return Ok(None);
    }
    let shown = placement.to_screen(item.extents(input.a11y()).await?);
    Ok((shown.width > 0 && shown.height > 0).then_some(placement))
}

/// Wait until `control` (a combo box) shows `want` chosen: its name is the option (GTK3 and
/// Qt name a combo box after its active item) or one of its labels outside its options reads
/// it (GTK4's drop-down is named after its class and shows the choice in its button); else
/// `selection_unchanged` with what it showed.
async fn shows(
    a11y: &zbus::Connection,
    control: &Element,
    want: &str,
    within: Duration,
) -> Result<(), GuiError> {
    let mut wake = Wake::subscribe(a11y, &control.bus_name, within).await?;
    loop {
        let name = collapse(&control.read_name(a11y).await?);
        if name == want {
            return Ok(());
        }
        let nodes = read_options(a11y, control).await?;
        let own = labels(&nodes, &option_above(&nodes), None);
        if own.iter().any(|l| l == want) {
            return Ok(());
        }
        if !wake.next().await {
            let shown = if own.is_empty() {
                name
            } else {
                format!("{name}; its labels: {}", own.join(", "))
            };
            return Err(GuiError::SelectionUnchanged {
                target: control.describe(),
                option: want.to_owned(),
                shown,
                waited_ms: wake.elapsed().as_millis(),
            });
        }
    }
}

/// Click the options `first` and then `rest` of `control` (a list): the first plainly, each
/// further one with Control held (added to the selection); then each must read `selected`, and
/// no other row (see [`alone`]).
/// Every option is found before anything is sent; the options and the last of them. The split
/// keeps "at least one" in the type: the last click is always there.
async fn in_list(
    input: &Input,
    program: &Program,
    control: &Element,
    (first, rest): (&String, &[String]),
    within: Duration,
) -> Result<(Vec<Element>, Element, Acted), GuiError> {
    let a11y = input.a11y();
    let listed = read_options(a11y, control).await?;
    let first_item = pick(control, &listed, first)?;
    let rest_items = rest
        .iter()
        .map(|want| pick(control, &listed, want))
        .collect::<Result<Vec<Element>, GuiError>>()?;
    let until = Instant::now() + within;
    let ancestry = Ancestry::default();
    let click = |item, held| input.click_in(program, item, &ancestry, Clicks::Single, until, held);
    let mut acted = click(&first_item, &[]).await?;
    for item in &rest_items {
        acted = click(item, &[Modifier::Control]).await?;
    }
    let last = rest_items.last().unwrap_or(&first_item).clone();
    let items: Vec<Element> = std::iter::once(first_item).chain(rest_items).collect();
    let wants = std::iter::once(first).chain(rest);
    for (item, want) in items.iter().zip(wants) {
        let left = until.saturating_duration_since(Instant::now());
        let chosen = Condition::State(State::Selected, true);
        match wait::until(a11y, item, &chosen, left).await {
            Ok(_) => {}
            Err(GuiError::WaitTimeout {
                last, waited_ms, ..
            }) => {
                return Err(GuiError::SelectionUnchanged {
                    target: control.describe(),
                    option: want.clone(),
                    shown: format!("{} selected: {last}", item.describe()),
                    waited_ms,
                })
            }
            Err(other) => return Err(other),
        }
    }
    let wants: Vec<&String> = std::iter::once(first).chain(rest).collect();
    alone(a11y, control, &listed, &items, &wants, until).await?;
    Ok((items, last, acted))
}

/// Whether the chosen `items` of `control` (a list whose options are `listed`) are the only
/// rows it shows selected, each other one waited for until `until` to drop its selection;
/// `selection_unchanged` naming one that keeps it. Why: a list that toggles rows on a click
/// (`MultiSelection` in Qt), or one whose earlier selection a Control+click kept, leaves a stale
/// row selected, and a `select` of these rows would pass on a list that holds more. The other
/// cells of a chosen row are not other rows: GTK3 marks every cell of a selected table row
/// `selected`, and in a table (only there) they are told by sharing the chosen cell's top and
/// height.
async fn alone(
    a11y: &zbus::Connection,
    control: &Element,
    listed: &[Node],
    items: &[Element],
    wants: &[&String],
    until: Instant,
) -> Result<(), GuiError> {
    let others: Vec<Element> = options(listed)
        .into_iter()
        .filter(|o| !items.iter().any(|i| i.path == o.node.path))
        .map(|o| Element {
            name: o.text.clone(),
            ..element(&control.bus_name, o.node)
        })
        .collect();
    let states = crate::calls::in_order(others.iter().map(|o| o.read_states(a11y))).await;
    let tabular = matches!(control.role, Role::Table | Role::TreeTable);
    let mut rows: Option<Vec<Rect>> = None;
    for (other, read) in others.iter().zip(states) {
        match read {
            Ok(states) if states.contains(State::Selected) => {}
            Ok(_) => continue,
            // Gone since the options were read (the list changed): not selected.
            Err(e) if crate::modal::is_gone(&e) => continue,
            Err(e) => return Err(e),
        }
        if rows.is_none() {
            let reads = crate::calls::in_order(items.iter().map(|i| i.extents(a11y))).await;
            rows = Some(reads.into_iter().collect::<Result<_, _>>()?);
        }
        // Only a table has cells beside a chosen one: in a list or an icon grid, an item on
        // the same line is another row.
        let chosen_row = tabular && {
            let at = other.extents(a11y).await?;
            rows.as_deref()
                .unwrap_or_default()
                .iter()
                .any(|r| r.y == at.y && r.height == at.height)
        };
        if chosen_row {
            continue;
        }
        let left = until.saturating_duration_since(Instant::now());
        let unchosen = Condition::State(State::Selected, false);
        match wait::until(a11y, other, &unchosen, left).await {
            Ok(_) => {}
            Err(GuiError::WaitTimeout { waited_ms, .. }) => {
                let wanted: Vec<&str> = wants.iter().map(|w| w.as_str()).collect();
                return Err(GuiError::SelectionUnchanged {
                    target: control.describe(),
                    option: format!("only {}", wanted.join(", ")),
                    shown: format!("{} selected as well", other.describe()),
                    waited_ms,
                });
            }
            Err(e) if crate::modal::is_gone(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Most arrow keys a `select` presses in a popup.
const MOST_KEYS: usize = 200;

/// When `item` lies partly outside its popup (`placement`), choose it with the keyboard (arrow
/// keys from the highlighted option, then Return) and say what was pressed; `None` when it
/// lies inside (or in no popup) and is to be clicked. Why: GTK3 opens a combo box's list with
/// the active option over the combo box, and a list that would run off the screen is clamped to
/// it and scrolls, with arrows over its ends — an option above the active one can lie partly
/// outside the popup, its reported centre on an arrow, where a click scrolls instead of
/// choosing (the accessibility tree knows nothing of the arrows, and GTK3 reports a scrolling
/// list's items inconsistently). A person then moves through the list with the keys; so does
/// this.
async fn by_keys_when_outside(
    input: &Input,
    program: &Program,
    control: &Element,
    item: &Element,
    placement: &Placement,
) -> Result<Option<(Acted, usize)>, GuiError> {
    let a11y = input.a11y();
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
        .map(|o| element(&control.bus_name, o.node))
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

/// Whether `shown` lies inside `popup`: wholly from top to bottom, and with its centre inside
/// across (Qt reports a popup list's items wider than the list).
fn inside(popup: &TopWindow, shown: &Rect) -> bool {
    let (x, _) = shown.centre();
    shown.y >= popup.y
        && shown.y + shown.height <= popup.y + popup.height
        && x >= popup.x
        && x < popup.x + popup.width
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
    let matching: Vec<&Shown> = all.iter().filter(|o| o.text == want).collect();
    match matching.as_slice() {
        // Named after what it shows: a GTK4 list item has no name of its own.
        [one] => Ok(Element {
            name: one.text.clone(),
            ..element(&control.bus_name, one.node)
        }),
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
                .map(|o| format!("{} {:?} {}", o.node.role.name(), o.text, o.node.path))
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
        // Qt reports a popup list's items wider than the list: the centre decides across.
        let qt = Rect {
            x: 12,
            y: 37,
            width: 370,
            height: 25,
        };
        let qt_popup = TopWindow {
            x: 11,
            y: 11,
            width: 256,
            height: 77,
            ..popup.clone()
        };
        assert!(inside(&qt_popup, &qt));
        assert!(!inside(&qt_popup, &Rect { x: 200, ..qt }));
        assert_eq!(keys_to(Some(2), 0), ("Up", 2));
        assert_eq!(keys_to(Some(0), 2), ("Down", 2));
        assert_eq!(keys_to(None, 0), ("Down", 1));
        assert_eq!(keys_to(Some(1), 1), ("Down", 0));
    }

    fn child(role: Role, name: &str, path: &str, parent: &str) -> Node {
        Node {
            parent: Some(parent.into()),
            ..node(role, name, path)
        }
    }

    /// GTK4's drop-down once opened (read breadth first): its button shows the choice in a
    /// label, its popover's list items have no name and show theirs in labels below.
    fn gtk4_drop_down() -> Vec<Node> {
        vec![
            node(Role::ComboBox, "GtkDropDown", "/c"),
            child(Role::Button, "GtkToggleButton", "/b", "/c"),
            child(Role::Filler, "GtkPopover", "/p", "/c"),
            child(Role::Filler, "GtkListItemWidget", "/bw", "/b"),
            child(Role::List, "GtkListView", "/l", "/p"),
            child(Role::Label, "Red", "/bl", "/bw"),
            child(Role::ListItem, "", "/i1", "/l"),
            child(Role::ListItem, "", "/i2", "/l"),
            child(Role::Panel, "", "/i1p", "/i1"),
            child(Role::Panel, "", "/i2p", "/i2"),
            child(Role::Label, "Red", "/i1l", "/i1p"),
            child(Role::Image, "GtkImage", "/i1m", "/i1p"),
            child(Role::Label, "Green", "/i2l", "/i2p"),
        ]
    }

    #[test]
    fn an_option_with_no_name_is_known_by_its_labels_and_the_combo_by_its_own() {
        let nodes = gtk4_drop_down();
        let shown: Vec<(String, String)> = options(&nodes)
            .into_iter()
            .map(|o| (o.node.path.clone(), o.text))
            .collect();
        let want = [("/i1", "Red"), ("/i2", "Green")].map(|(p, t)| (p.into(), t.into()));
        assert_eq!(shown, want);
        assert_eq!(pick(&combo(), &nodes, "Green").unwrap().path, "/i2");
        // What the drop-down shows as its choice: the label inside no option.
        assert_eq!(labels(&nodes, &option_above(&nodes), None), ["Red"]);
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
