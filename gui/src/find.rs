//! Finding a program's elements: by role and name, by label, by text.
//!
//! Why exactly one: a step acts on one element, so zero or several matches are coded failures
//! that list the candidates, never a guess at the first. Names compare after collapsing
//! whitespace. A role query's name also matches the names of the element's labels (its
//! `labelled-by` relation): GTK 4.8 names a gnome-calculator digit button `7 7` (its label
//! twice) while its label says `7`, and a form field often has no name of its own at all.

use crate::app::App;
use crate::element::Element;
use crate::error::GuiError;
use crate::tree::{self, Limits, Node};
use atspi::Role;

/// What to look for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    /// Elements of one of these roles, with this name (or any name when `None`).
    Role {
        /// The roles the word stands for.
        roles: Vec<Role>,
        /// The role word as written (for messages).
        word: String,
        /// The name, or one of its labels' names.
        name: Option<String>,
    },
    /// Elements labelled (`labelled-by`) by an element with this text.
    Label(String),
    /// Elements whose name, or text when they have no name, is this.
    Text(String),
}

/// The Web role words that map to AT-SPI roles (the rest are AT-SPI role names).
const WEB_ROLES: &[(&str, &[Role])] = &[
    ("button", &[Role::Button, Role::ToggleButton]),
    // AT-SPI's own name for `Role::Button` (the `atspi` crate spells it "button").
    ("push button", &[Role::Button]),
    ("textbox", &[Role::Entry, Role::Text, Role::PasswordText]),
    ("checkbox", &[Role::CheckBox]),
    ("radio", &[Role::RadioButton]),
    ("link", &[Role::Link]),
    ("combobox", &[Role::ComboBox]),
    ("slider", &[Role::Slider]),
    ("menuitem", &[Role::MenuItem]),
    ("dialog", &[Role::Dialog, Role::Alert]),
    ("label", &[Role::Label]),
];

impl Query {
    /// A role query: `word` is an AT-SPI role name (`push button`) or a Web role word
    /// (`button`, `textbox`, `checkbox` …).
    pub fn role(word: &str, name: Option<&str>) -> Result<Query, GuiError> {
        let roles = roles_of(word).ok_or_else(|| GuiError::UnknownRole {
            word: word.to_owned(),
        })?;
        Ok(Query::Role {
            roles,
            word: word.to_owned(),
            name: name.map(normalise),
        })
    }

    /// How messages name the target.
    pub fn describe(&self) -> String {
        match self {
            Query::Role { word, name, .. } => match name {
                Some(name) => format!("role({word:?}, {name:?})"),
                None => format!("role({word:?})"),
            },
            Query::Label(label) => format!("label({label:?})"),
            Query::Text(text) => format!("text({text:?})"),
        }
    }
}

/// The roles a word names.
fn roles_of(word: &str) -> Option<Vec<Role>> {
    let word = word.trim().to_lowercase();
    if let Some((_, roles)) = WEB_ROLES.iter().find(|(w, _)| *w == word) {
        return Some(roles.to_vec());
    }
    (0u32..=200)
        .filter_map(|n| Role::try_from(n).ok())
        .find(|role| role.name() == word)
        .map(|role| vec![role])
}

/// Whitespace collapsed to single spaces, trimmed.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every element of the program at `bus_name` that `query` matches, in tree order.
pub async fn all(app: App<'_>, query: &Query) -> Result<Vec<Element>, GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let (tree, cached) = read_tree(app).await?;
    // All at once: the program answers the label and text reads back to back instead of one
    // round trip after another.
    let checks = tree
        .nodes
        .iter()
        .map(|node| matches(a11y, bus_name, node, query, cached));
    let verdicts = crate::calls::in_order(checks).await;
    let mut found = Vec::new();
    for (node, verdict) in tree.nodes.iter().zip(verdicts) {
        if verdict? {
            found.push(element(bus_name, node));
        }
    }
    if found.len() > 1 {
        found = visible_first(a11y, found).await?;
    }
    Ok(found)
}

/// Several matches: the hidden ones are left out when some are not, as a Web role query leaves
/// out hidden elements — the `showing` ones first, else the `visible` ones (GTK4 marks its
/// children visible but never showing). mousepad (GTK3) holds a `Save` button in its hidden
/// toolbar (visible, not showing) beside its file chooser's (showing).
async fn visible_first(
    a11y: &zbus::Connection,
    found: Vec<Element>,
) -> Result<Vec<Element>, GuiError> {
    let reads = found.iter().map(|element| element.read_states(a11y));
    let states = crate::calls::in_order(reads).await;
    // One gone meanwhile is neither.
    let with = |state: atspi::State| -> Vec<Element> {
        found
            .iter()
            .zip(&states)
            .filter(|(_, states)| states.as_ref().is_ok_and(|s| s.contains(state)))
            .map(|(element, _)| element.clone())
            .collect()
    };
    let showing = with(atspi::State::Showing);
    if !showing.is_empty() {
        return Ok(showing);
    }
    let visible = with(atspi::State::Visible);
    Ok(if visible.is_empty() { found } else { visible })
}

/// The one element `query` matches; none or several are coded failures listing candidates.
pub async fn one(app: App<'_>, query: &Query) -> Result<Element, GuiError> {
    let mut found = all(app, query).await?;
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(GuiError::TargetNotFound {
            target: query.describe(),
            candidates: candidates(app, query).await?,
        }),
        count => Err(GuiError::TargetAmbiguous {
            target: query.describe(),
            count,
            candidates: list(&found),
        }),
    }
}

/// The program's tree: in bulk where it has a cache, else walked; and whether it came from the
/// cache (whose names may be stale).
async fn read_tree(app: App<'_>) -> Result<(tree::Tree, bool), GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    match tree::read_bulk(a11y, bus_name, app.toolkit, Limits::default()).await? {
        Some(tree) => Ok((tree, true)),
        None => Ok((tree::read(a11y, bus_name, Limits::default()).await?, false)),
    }
}

/// Whether one node matches.
async fn matches(
    a11y: &zbus::Connection,
    bus_name: &str,
    node: &Node,
    query: &Query,
    cached: bool,
) -> Result<bool, GuiError> {
    match query {
        Query::Role { roles, name, .. } => {
            if !roles.contains(&node.role) {
                return Ok(false);
            }
            let Some(name) = name else { return Ok(true) };
            if normalise(&node.name) == *name {
                return Ok(true);
            }
            // A bulk read's name may be stale (a cache keeps the name an object had when it
            // was exported): read it now. A walk's is fresh.
            if cached {
                let live = element(bus_name, node).read_name(a11y).await?;
                if normalise(&live) == *name {
                    return Ok(true);
                }
            }
            let labels = element(bus_name, node).label_names(a11y).await?;
            Ok(labels.iter().any(|label| normalise(label) == *name))
        }
        Query::Label(label) => {
            let labels = element(bus_name, node).label_names(a11y).await?;
            Ok(labels.iter().any(|l| normalise(l) == normalise(label)))
        }
        Query::Text(text) => {
            if normalise(&node.name) == normalise(text) {
                return Ok(true);
            }
            // The name read now (a bulk read's may be stale, see above), else the shown text.
            let live = if cached {
                element(bus_name, node).read_name(a11y).await?
            } else {
                node.name.clone()
            };
            if !live.is_empty() {
                return Ok(normalise(&live) == normalise(text));
            }
            let shown = element(bus_name, node).read_text(a11y).await?;
            Ok(normalise(&shown) == normalise(text))
        }
    }
}

/// The elements a failed query came close to: same role, or a name holding the text.
async fn candidates(app: App<'_>, query: &Query) -> Result<String, GuiError> {
    let bus_name = app.bus_name;
    let (tree, _) = read_tree(app).await?;
    let near: Vec<Element> = tree
        .nodes
        .iter()
        .filter(|node| match query {
            Query::Role { roles, .. } => roles.contains(&node.role),
            Query::Label(text) | Query::Text(text) => node
                .name
                .to_lowercase()
                .contains(&normalise(text).to_lowercase()),
        })
        .map(|node| element(bus_name, node))
        .collect();
    Ok(if near.is_empty() {
        "none".to_owned()
    } else {
        list(&near)
    })
}

/// The first few elements, described (what a failure lists as near misses).
pub(crate) fn list(elements: &[Element]) -> String {
    const SHOWN: usize = 12;
    let mut shown: Vec<String> = elements.iter().take(SHOWN).map(Element::describe).collect();
    if elements.len() > SHOWN {
        shown.push(format!("… {} more", elements.len() - SHOWN));
    }
    shown.join(", ")
}

/// A tree node as an element handle.
pub(crate) fn element(bus_name: &str, node: &Node) -> Element {
    Element {
        bus_name: bus_name.to_owned(),
        path: node.path.clone(),
        role: node.role,
        name: node.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_words_and_atspi_names_map_to_roles_and_others_are_refused() {
        assert_eq!(
            roles_of("button"),
            Some(vec![Role::Button, Role::ToggleButton])
        );
        assert_eq!(roles_of("push button"), Some(vec![Role::Button]));
        assert_eq!(roles_of("Check Box"), Some(vec![Role::CheckBox]));
        assert_eq!(roles_of("no such role"), None);
        let error = Query::role("buton", None).unwrap_err();
        assert_eq!(error.code(), crate::GuiCode::UnknownRole);
    }

    #[test]
    fn names_compare_with_whitespace_collapsed() {
        assert_eq!(normalise("  7 \n 7 "), "7 7");
        let query = Query::role("button", Some(" 7 ")).unwrap();
        assert_eq!(query.describe(), "role(\"button\", \"7\")");
    }
}
