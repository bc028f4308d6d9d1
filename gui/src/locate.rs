//! An admitted ACL target (`role`, `label`, `text`, `automation_id`) resolved to a program's
//! elements — what a suite's steps act on and read.
//!
//! Why its own matcher beside `crate::find`: a suite's name is a `TextMatch` (whole name,
//! `exact = true`, `/regex/`), and `automation_id` reads a property `find` does not. On a
//! desktop a name without `exact` matches the *whole* accessible name (or one of its labels'),
//! case-insensitively after collapsing whitespace — desktop names are short labels, and a
//! substring (`"1"` in `"10ˣ"`) would make most digit buttons ambiguous. `exact = true` adds
//! case. Zero or several matches are coded failures listing candidates, never a guess.
//!
//! [`one_in`] first tries the tree the last find kept (`crate::kept`: valid until the program's
//! events say it changed, its answer confirmed by one call), and reads afresh when that names
//! none or several; [`all`] always reads afresh, and keeps what it read for the next find.

use crate::ancestry::Ancestry;
use crate::app::App;
use crate::element::Element;
use crate::error::GuiError;
use crate::find::{element, list, Query};
use crate::kept::Kept;
use crate::tree::{self, Limits, Node};
use a3s_test_lang::ir::{Target, TextMatch};
use atspi::proxy::accessible::AccessibleProxy;
use std::sync::Arc;

/// How a name is compared.
#[derive(Debug, Clone)]
pub enum NameMatch {
    /// Whole, case-insensitive, whitespace collapsed.
    Whole(String),
    /// Whole and case-sensitive, whitespace collapsed.
    Exact(String),
    /// A regular expression (the `i`, `m`, `s` flags honoured).
    Regex(regex::Regex),
}

impl NameMatch {
    /// The matcher of a suite's text; a pattern the `regex` crate refuses is `bad_target`.
    pub fn of(text: &TextMatch) -> Result<NameMatch, GuiError> {
        Ok(match text {
            TextMatch::Contains { value } => NameMatch::Whole(collapse(value).to_lowercase()),
            TextMatch::Exact { value } => NameMatch::Exact(collapse(value)),
            TextMatch::Regex { pattern, flags } => {
                let inline: String = flags.chars().filter(|f| "ims".contains(*f)).collect();
                let source = if inline.is_empty() {
                    pattern.clone()
                } else {
                    format!("(?{inline}){pattern}")
                };
                NameMatch::Regex(regex::Regex::new(&source).map_err(|e| GuiError::BadTarget {
                    target: format!("/{pattern}/{flags}"),
                    why: e.to_string(),
                })?)
            }
        })
    }

    /// Whether `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            NameMatch::Whole(want) => collapse(name).to_lowercase() == *want,
            NameMatch::Exact(want) => collapse(name) == *want,
            NameMatch::Regex(re) => re.is_match(name),
        }
    }
}

/// Whitespace collapsed to single spaces, trimmed.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every element of the program at `bus_name` that `target` names, in tree order.
pub async fn all(app: App<'_>, target: &Target) -> Result<Vec<Element>, GuiError> {
    Ok(all_in(app, target).await?.0)
}

/// [`all`], and the tree read they were found in: read now, and kept for the next find
/// (`crate::kept`).
async fn all_in(
    app: App<'_>,
    target: &Target,
) -> Result<(Vec<Element>, Arc<tree::Tree>), GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let mut laps = crate::timing::Laps::start("find, read");
    // Without kept reads (a bare `Program::app`) or a subscription (the bus refused it) nothing
    // is kept: every find reads.
    let kept = match app.kept {
        Some(trees) => trees.of(a11y, bus_name).await.ok(),
        None => None,
    };
    let at = kept.as_ref().map(|k| k.generation());
    let tree = Arc::new(read_scope(app).await?);
    laps.lap("tree");
    let kept = kept.as_deref().zip(at);
    // Only a whole read is kept: one cut at its node or time bound lacks elements, and a later
    // find answered from it would miss them without reading again.
    if let Some((kept, at)) = kept.filter(|_| tree.complete) {
        kept.keep_scope(tree.clone(), at);
    }
    let found = found_in(a11y, bus_name, &tree, target, kept).await?;
    laps.lap("match");
    laps.print();
    Ok((found, tree))
}

/// The one element `target` names in the program's kept read, confirmed by one call (its
/// states) after which no event said the read changed; `None` when no read is current, it names
/// none or several, or the confirmation fails — the caller then reads afresh.
async fn from_kept(app: App<'_>, target: &Target) -> Option<(Element, Ancestry)> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let mut laps = crate::timing::Laps::start("find, kept");
    let kept = app.kept?.of(a11y, bus_name).await.ok()?;
    let (tree, at) = kept.scope()?;
    let mut found = found_in(a11y, bus_name, &tree, target, Some((&kept, at)))
        .await
        .ok()?;
    laps.lap("match");
    if found.len() != 1 {
        return None;
    }
    let element = found.remove(0);
    let states = element.read_states(a11y).await.ok()?;
    if states.contains(atspi::State::Defunct) || !kept.unchanged_since(at).await {
        return None;
    }
    laps.lap("confirm");
    laps.print();

    Some((element, Ancestry::of(&tree)))
}

/// The elements of `tree` that `target` names, in tree order; labels read through `kept` (the
/// program's kept reads at a generation) when given.
async fn found_in(
    a11y: &zbus::Connection,
    bus_name: &str,
    tree: &tree::Tree,
    target: &Target,
    kept: Option<(&Kept, u64)>,
) -> Result<Vec<Element>, GuiError> {
    if let Target::Label { label } = target {
        let found = labelled(a11y, bus_name, tree, &NameMatch::of(label)?).await?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    let checks = tree
        .nodes
        .iter()
        .map(|node| matches(a11y, bus_name, node, target, kept));
    let verdicts = crate::calls::in_order(checks).await;
    let mut found = Vec::new();
    for (node, verdict) in tree.nodes.iter().zip(verdicts) {
        match verdict {
            Ok(true) => found.push(element(bus_name, node)),
            Ok(false) => {}
            // Gone since the tree was read (a dialog closing): not a match any more.
            Err(e) if crate::modal::is_gone(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(found)
}

/// The elements the labels named `label` are labels for (their `label-for` relation), in tree
/// order. Why first: asking each labelling element is a few calls, where asking every node for
/// its `labelled-by` relation is one call a node — hundreds in a GTK3 file chooser, enough to
/// keep the program busy past a call's bound. A toolkit that sets only `labelled-by` finds
/// nothing here, and the caller asks every node.
async fn labelled(
    a11y: &zbus::Connection,
    bus_name: &str,
    tree: &tree::Tree,
    label: &NameMatch,
) -> Result<Vec<Element>, GuiError> {
    let labels: Vec<Element> = tree
        .nodes
        .iter()
        .filter(|n| !n.name.is_empty() && label.matches(&n.name))
        .map(|n| element(bus_name, n))
        .collect();
    let mut paths = Vec::new();
    for read in crate::calls::in_order(labels.iter().map(|l| l.labelled_paths(a11y))).await {
        match read {
            Ok(more) => paths.extend(more),
            // Gone since the tree was read (a dialog closing): it labels nothing now.
            Err(e) if crate::modal::is_gone(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(tree
        .nodes
        .iter()
        .filter(|n| paths.contains(&n.path))
        .map(|n| element(bus_name, n))
        .collect())
}

/// The one element `target` names; none or several are coded failures.
pub async fn one(app: App<'_>, target: &Target) -> Result<Element, GuiError> {
    Ok(one_in(app, target).await?.0)
}

/// [`one`], and the ancestry of the tree read it was found in: a click on it then needs no
/// call a level to find its window and prove its hit test (`crate::ancestry`).
pub async fn one_in(app: App<'_>, target: &Target) -> Result<(Element, Ancestry), GuiError> {
    if let Some(found) = from_kept(app, target).await {
        return Ok(found);
    }
    let (mut found, tree) = all_in(app, target).await?;
    match found.len() {
        1 => Ok((found.remove(0), Ancestry::of(&tree))),
        0 => Err(GuiError::TargetNotFound {
            target: target.to_string(),
            candidates: near(app, target).await?,
        }),
        count => Err(GuiError::TargetAmbiguous {
            target: target.to_string(),
            count,
            candidates: list(&found),
        }),
    }
}

/// The program's tree: in bulk where it has a cache, else walked.
pub async fn read_tree(app: App<'_>) -> Result<tree::Tree, GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    match tree::read_bulk(a11y, bus_name, app.toolkit, Limits::default()).await? {
        Some(tree) => Ok(tree),
        None => tree::read(a11y, bus_name, Limits::default()).await,
    }
}

/// Where a step's targets are: the subtree of the program's showing modal dialog while one is
/// up (the windows under it take no input, and a GTK3 file chooser's whole program takes longer
/// than a read's bound to walk on a loaded machine), else the program's whole tree.
pub async fn read_scope(app: App<'_>) -> Result<tree::Tree, GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let mut laps = crate::timing::Laps::start("scope");
    let modal = crate::modal::showing_modal(app).await?;
    laps.lap("modal");
    let tree = match modal {
        Some(dialog) => tree::read_below(a11y, bus_name, &dialog.path, 1, Limits::default()).await,
        None => read_tree(app).await,
    };
    laps.lap("tree");
    laps.print();
    tree
}

/// Whether one node is named by `target`.
async fn matches(
    a11y: &zbus::Connection,
    bus_name: &str,
    node: &Node,
    target: &Target,
    kept: Option<(&Kept, u64)>,
) -> Result<bool, GuiError> {
    let el = element(bus_name, node);
    match target {
        Target::Role { role, name } => {
            let Query::Role { roles, .. } = Query::role(role, None)? else {
                return Ok(false);
            };
            if !roles.contains(&node.role) {
                return Ok(false);
            }
            let Some(name) = name else { return Ok(true) };
            let name = NameMatch::of(name)?;
            if name.matches(&node.name) {
                return Ok(true);
            }
            Ok(label_names(a11y, &el, kept)
                .await?
                .iter()
                .any(|l| name.matches(l)))
        }
        Target::Label { label } => {
            let label = NameMatch::of(label)?;
            Ok(label_names(a11y, &el, kept)
                .await?
                .iter()
                .any(|l| label.matches(l)))
        }
        Target::Text { text } => {
            let text = NameMatch::of(text)?;
            if !node.name.is_empty() {
                return Ok(text.matches(&node.name));
            }
            Ok(text.matches(&el.read_text(a11y).await?))
        }
        Target::AutomationId { automation_id } => {
            Ok(accessible_id(a11y, &el).await?.as_deref() == Some(automation_id.as_str()))
        }
        other => Err(GuiError::BadTarget {
            target: other.to_string(),
            why: "a desktop finds elements by role, label, text or automation_id".into(),
        }),
    }
}

/// The names of the element's labels: kept from an earlier find at the same generation, else
/// read now (and kept, the labels watched for a change of their text first).
async fn label_names(
    a11y: &zbus::Connection,
    el: &Element,
    kept: Option<(&Kept, u64)>,
) -> Result<Vec<String>, GuiError> {
    let Some((kept, at)) = kept else {
        return el.label_names(a11y).await;
    };
    if let Some(names) = kept.label_names(&el.path, at) {
        return Ok(names);
    }
    let labels = el.labelled_by(a11y).await?;
    kept.watch_labels(labels.iter().map(|(_, path)| path.as_str()));
    let names = crate::element::label_texts(a11y, &labels).await?;
    kept.keep_label_names(&el.path, names.clone(), at);
    Ok(names)
}

/// The element's AT-SPI accessible id, `None` where the toolkit sets none (or is too old to
/// have the property).
async fn accessible_id(
    a11y: &zbus::Connection,
    element: &Element,
) -> Result<Option<String>, GuiError> {
    let proxy: AccessibleProxy<'_> = element.accessible(a11y).await?;
    match proxy.accessible_id().await {
        Ok(id) if !id.is_empty() => Ok(Some(id)),
        Ok(_) => Ok(None),
        Err(zbus::Error::FDO(_)) | Err(zbus::Error::MethodError(..)) => Ok(None),
        Err(e) => Err(GuiError::bus("AccessibleId", e)),
    }
}

/// What a failed target came close to: the same role, or a name holding the text.
async fn near(app: App<'_>, target: &Target) -> Result<String, GuiError> {
    let (a11y, bus_name) = (app.a11y, app.bus_name);
    let tree = read_scope(app).await?;
    if let Target::AutomationId { .. } = target {
        return ids_near(a11y, bus_name, &tree).await;
    }
    let roles = match target {
        Target::Role { role, .. } => match Query::role(role, None)? {
            Query::Role { roles, .. } => roles,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let word = match target {
        Target::Label { label: t } | Target::Text { text: t } => collapse(t.text()).to_lowercase(),
        _ => String::new(),
    };
    let close: Vec<Element> = tree
        .nodes
        .iter()
        .filter(|n| {
            roles.contains(&n.role) || (!word.is_empty() && n.name.to_lowercase().contains(&word))
        })
        .map(|n| element(bus_name, n))
        .collect();
    Ok(if close.is_empty() {
        "none".to_owned()
    } else {
        list(&close)
    })
}

/// The accessible ids the program's elements do have — or, when none has one, that its
/// toolkit sets none (GTK3 and Qt5 leave the property empty), so another target must be used.
async fn ids_near(
    a11y: &zbus::Connection,
    bus_name: &str,
    tree: &tree::Tree,
) -> Result<String, GuiError> {
    const MOST: usize = 20;
    let reads = tree.nodes.iter().map(|node| async move {
        let el = element(bus_name, node);
        accessible_id(a11y, &el)
            .await
            .map(|id| id.map(|id| (id, el)))
    });
    let mut ids = Vec::new();
    for read in crate::calls::in_order(reads).await {
        if let Some((id, el)) = read? {
            ids.push(format!("{id:?} ({})", el.describe()));
        }
    }
    Ok(match ids.len() {
        0 => "none: no element of this program has an accessible id (its toolkit sets none); \
              find it by role(…), label(…) or text(…)"
            .to_owned(),
        n if n > MOST => format!("{} and {} more", ids[..MOST].join(", "), n - MOST),
        _ => ids.join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_name_matches_whole_without_case_and_exact_keeps_case() {
        let whole = NameMatch::of(&TextMatch::contains("Seven")).unwrap();
        assert!(whole.matches(" seven "));
        assert!(!whole.matches("seventy"));
        let exact = NameMatch::of(&TextMatch::exact("Seven")).unwrap();
        assert!(exact.matches("Seven"));
        assert!(!exact.matches("seven"));
        let re = NameMatch::of(&TextMatch::Regex {
            pattern: "^sev".into(),
            flags: "i".into(),
        })
        .unwrap();
        assert!(re.matches("Seven"));
        let bad = NameMatch::of(&TextMatch::Regex {
            pattern: "(".into(),
            flags: String::new(),
        })
        .unwrap_err();
        assert_eq!(bad.code(), crate::GuiCode::BadTarget);
    }
}
