//! Where a program's objects hang: each path's parent, role and name, taken from the tree read
//! that found a step's element, asked on the bus only for a path that read does not hold.
//!
//! Why: a click needs the element's window (its top-level ancestor) and the proof that the
//! deepest element at the point is inside the element; asking the program for each parent
//! costs one call a level, twice a click, and a busy program (GTK4 redrawing after the last
//! click) answers each late — the walk up took 0.3–1.3 s of a loaded machine's clicks on
//! gnome-calculator. The find that named the element has just read the whole tree (in bulk or a
//! level at a time), which holds every parent. A path it does not hold — an object made since,
//! like a popup that now covers the point — is asked on the bus, so what changed after the read
//! is still seen; an empty [`Ancestry`] asks for everything, as the walk did.

use crate::element::Element;
use crate::error::GuiError;
use crate::program::ROOT_PATH;
use crate::tree::Tree;
use atspi::Role;
use std::collections::HashMap;

/// The parents (and roles and names) of a program's objects as one tree read saw them.
#[derive(Debug, Clone, Default)]
pub struct Ancestry {
    known: HashMap<String, Known>,
}

/// One object as the read saw it.
#[derive(Debug, Clone)]
struct Known {
    parent: Option<String>,
    role: Role,
    name: String,
}

/// Most levels any walk up goes: a toolkit bug (a cycle) cannot hang it.
const MOST_LEVELS: usize = 64;

impl Ancestry {
    /// The ancestry `tree` holds.
    pub fn of(tree: &Tree) -> Ancestry {
        Ancestry {
            known: tree
                .nodes
                .iter()
                .map(|n| {
                    let known = Known {
                        parent: n.parent.clone(),
                        role: n.role,
                        name: n.name.clone(),
                    };
                    (n.path.clone(), known)
                })
                .collect(),
        }
    }

    /// How many objects it holds.
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Whether it holds none (every question then goes to the bus).
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The parent of the object at `path` of `of`'s program: from the read, else asked.
    async fn parent(
        &self,
        a11y: &zbus::Connection,
        of: &Element,
        path: &str,
    ) -> Result<Option<String>, GuiError> {
        if let Some(known) = self.known.get(path) {
            return Ok(known.parent.clone());
        }
        let here = Element {
            path: path.to_owned(),
            ..of.clone()
        };
        here.parent_path(a11y).await
    }

    /// The element at `path` of `of`'s program, with the role and name the read saw (read now
    /// when it did not hold it).
    pub async fn element(
        &self,
        a11y: &zbus::Connection,
        of: &Element,
        path: &str,
    ) -> Result<Element, GuiError> {
        match self.known.get(path) {
            Some(known) => Ok(Element {
                bus_name: of.bus_name.clone(),
                path: path.to_owned(),
                role: known.role,
                name: known.name.clone(),
            }),
            None => Element::at(a11y, &of.bus_name, path).await,
        }
    }

    /// `element`'s top-level ancestor: its window (a frame, window or dialog), the application
    /// root's child; itself when it is one.
    pub async fn window(
        &self,
        a11y: &zbus::Connection,
        element: &Element,
    ) -> Result<Element, GuiError> {
        let mut at = element.path.clone();
        for _ in 0..MOST_LEVELS {
            match self.parent(a11y, element, &at).await? {
                Some(parent) if parent != ROOT_PATH => at = parent,
                _ => break,
            }
        }
        if at == element.path {
            return Ok(element.clone());
        }
        self.element(a11y, element, &at).await
    }

    /// Whether `ancestor` is `inner` or one of its ancestors (by path).
    pub async fn is_within(
        &self,
        a11y: &zbus::Connection,
        inner: &Element,
        ancestor: &str,
    ) -> Result<bool, GuiError> {
        Ok(self.up_to(a11y, inner, ancestor).await?.is_some())
    }

    /// The paths from `inner` up to `ancestor`, both included and `inner` first; `None` when
    /// `ancestor` is not `inner` or above it.
    pub async fn up_to(
        &self,
        a11y: &zbus::Connection,
        inner: &Element,
        ancestor: &str,
    ) -> Result<Option<Vec<String>>, GuiError> {
        let mut chain = vec![inner.path.clone()];
        for _ in 0..MOST_LEVELS {
            let at = &chain[chain.len() - 1];
            if at == ancestor {
                return Ok(Some(chain));
            }
            match self.parent(a11y, inner, at).await? {
                Some(parent) => chain.push(parent),
                None => return Ok(None),
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Node;

    fn node(path: &str, parent: Option<&str>, depth: usize) -> Node {
        Node {
            path: path.into(),
            role: Role::Filler,
            name: path.trim_start_matches('/').into(),
            depth,
            parent: parent.map(Into::into),
        }
    }

    /// root → /w (window) → /box → /button → /label, and /other beside /box.
    fn ancestry() -> Ancestry {
        Ancestry::of(&Tree {
            nodes: vec![
                node(ROOT_PATH, None, 0),
                node("/w", Some(ROOT_PATH), 1),
                node("/box", Some("/w"), 2),
                node("/other", Some("/w"), 2),
                node("/button", Some("/box"), 3),
                node("/label", Some("/button"), 4),
            ],
            complete: true,
        })
    }

    #[test]
    fn the_read_places_each_object_under_its_parent() {
        let known = ancestry();
        let parent = |p: &str| known.known.get(p).and_then(|k| k.parent.clone());
        assert_eq!(parent("/label").as_deref(), Some("/button"));
        assert_eq!(parent("/w").as_deref(), Some(ROOT_PATH));
        assert_eq!(parent(ROOT_PATH), None);
        assert!(Ancestry::default().is_empty());
        assert_eq!(known.len(), 6);
    }
}
