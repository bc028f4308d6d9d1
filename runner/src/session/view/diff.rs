//! `observe --since N`: the lines that changed between two outlines of one document.
//!
//! Why by identity, not by position: a control is the same control while its backend node
//! lives, whatever was inserted above it, so it is matched by node and reported `changed` when
//! its name, value or states differ; texts are matched by content. The order comes from a
//! longest common subsequence of those identities, so an insertion is one `added` line and not
//! a cascade of changes.

use super::outline::Line;
use super::{Change, ChangeKind};

/// Most cells of the comparison table (old × new lines); past it there is no diff.
const MAX_CELLS: usize = 4_000_000;

#[derive(PartialEq, Eq)]
enum Key<'a> {
    Node(i64),
    Text(Option<&'a str>, &'a str),
}

fn key(l: &Line) -> Key<'_> {
    match l {
        Line::Ref(r) => Key::Node(r.node),
        Line::Text(t) => Key::Text(t.role.as_deref(), &t.text),
    }
}

/// The changes from `old` to `new`, in the new outline's order (removed lines where they
/// were); `None` when the outlines are too large to compare.
pub fn diff(old: &[Line], new: &[Line]) -> Option<Vec<Change>> {
    let (n, m) = (old.len(), new.len());
    if n.saturating_mul(m) > MAX_CELLS {
        return None;
    }
    let old_keys: Vec<Key> = old.iter().map(key).collect();
    let new_keys: Vec<Key> = new.iter().map(key).collect();
    // lcs[i][j]: the longest common subsequence of old[i..] and new[j..].
    let width = m + 1;
    let mut lcs = vec![0u32; (n + 1) * width];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * width + j] = if old_keys[i] == new_keys[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && old_keys[i] == new_keys[j] {
            if old[i] != new[j] {
                out.push(Change {
                    change: ChangeKind::Changed,
                    line: new[j].clone(),
                });
            }
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i * width + j + 1] >= lcs[(i + 1) * width + j]) {
            out.push(Change {
                change: ChangeKind::Added,
                line: new[j].clone(),
            });
            j += 1;
        } else {
            out.push(Change {
                change: ChangeKind::Removed,
                line: old[i].clone(),
            });
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::view::outline::{RefLine, TextLine};
    use std::collections::BTreeMap;

    fn text(t: &str) -> Line {
        Line::Text(TextLine {
            text: t.into(),
            role: None,
        })
    }

    fn button(node: i64, name: &str, pressed: bool) -> Line {
        Line::Ref(RefLine {
            reference: format!("@e{node}"),
            role: "button".into(),
            name: name.into(),
            value: None,
            states: BTreeMap::from([("pressed".to_string(), pressed.into())]),
            node,
        })
    }

    #[test]
    fn an_insertion_is_one_added_line_and_a_state_change_one_changed_line() {
        let old = vec![
            text("Menu"),
            button(1, "Open", false),
            text("a"),
            text("gone"),
        ];
        let new = vec![
            text("Menu"),
            button(1, "Open", true),
            text("a"),
            text("Item 1"),
            button(2, "Close", false),
        ];
        let changes = diff(&old, &new).unwrap();
        let kinds: Vec<(ChangeKind, String)> = changes
            .iter()
            .map(|c| (c.change, super::super::text::line(&c.line)))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (
                    ChangeKind::Changed,
                    "@e1 button \"Open\" pressed".to_string()
                ),
                (ChangeKind::Added, "\"Item 1\"".to_string()),
                (ChangeKind::Added, "@e2 button \"Close\"".to_string()),
                (ChangeKind::Removed, "\"gone\"".to_string()),
            ]
        );
        assert!(diff(&new, &new).unwrap().is_empty());
    }
}
