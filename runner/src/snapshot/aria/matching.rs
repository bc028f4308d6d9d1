//! Matching a written outline against the page's (`docs/acl.md` §9.2), and the diff a failure
//! shows.
//!
//! Partial matching: only what is written must be there, in order. The written nodes are looked
//! for in document order anywhere in the tree, each after the previous one's subtree; a node
//! matches when its role is the same, its name (if written) matches, each written attribute has
//! that value (`[checked]` = checked, `[checked=false]` = not), its `: text` (if written)
//! matches the node's text, and its written children match among its children the same way.

use super::outline::{head, lines, AxNode};
use a3s_test_lang::ir::{AriaTemplate, AriaText};

/// Whether `templates` match in `nodes`.
pub fn matches(templates: &[AriaTemplate], nodes: &[AxNode]) -> bool {
    let mut flat = Vec::new();
    flatten(nodes, &mut flat);
    let mut pos = 0;
    for t in templates {
        loop {
            let Some(&(n, size)) = flat.get(pos) else {
                return false;
            };
            if node_matches(t, n) {
                pos += size;
                break;
            }
            pos += 1;
        }
    }
    true
}

/// Pre-order nodes with the size of each one's subtree (itself included).
fn flatten<'a>(nodes: &'a [AxNode], out: &mut Vec<(&'a AxNode, usize)>) {
    for n in nodes {
        let at = out.len();
        out.push((n, 1));
        flatten(&n.children, out);
        out[at].1 = out.len() - at;
    }
}

fn node_matches(t: &AriaTemplate, n: &AxNode) -> bool {
    line_matches(t, n) && matches(&t.children, &n.children)
}

/// The node's own line matches the written one (children not looked at).
fn line_matches(t: &AriaTemplate, n: &AxNode) -> bool {
    if t.role != n.role {
        return false;
    }
    if let Some(name) = &t.name {
        if !name.matches(&n.name) {
            return false;
        }
    }
    let attrs_hold = t.attrs.iter().all(|(key, want)| {
        let have = n.attr(key);
        match want.as_deref() {
            None | Some("true") => have == Some("true"),
            Some("false") => have.is_none() || have == Some("false"),
            Some(v) => have == Some(v),
        }
    });
    attrs_hold && t.text.as_ref().is_none_or(|text| text_matches(text, n))
}

fn text_matches(text: &AriaText, n: &AxNode) -> bool {
    text.matches(&n.text())
}

/// A readable diff of the written outline against the page's: lines both have (`  `), written
/// lines the page does not have (`- `), and the page's lines where written ones are missing
/// (`+ `). Page lines away from any missing written line are left out: partial matching
/// allows them.
pub fn diff(outline: &str, templates: &[AriaTemplate], nodes: &[AxNode]) -> String {
    const MAX_PAGE_LINES: usize = 2_000;
    const MAX_PER_HUNK: usize = 12;
    let mut written: Vec<(&AriaTemplate, String)> = Vec::new();
    collect_written(templates, outline, &mut written);
    let mut page: Vec<(&AxNode, String)> = Vec::new();
    collect_page(nodes, 0, &mut page);
    page.truncate(MAX_PAGE_LINES);
    let (n, m) = (written.len(), page.len());
    // Longest common subsequence of lines, equal when the page's line matches the written one.
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if line_matches(written[i].0, page[j].0) {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && line_matches(written[i].0, page[j].0) {
            ops.push((' ', &written[i].1));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            ops.push(('+', &page[j].1));
            j += 1;
        } else {
            ops.push(('-', &written[i].1));
            i += 1;
        }
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < ops.len() {
        if ops[k].0 == ' ' {
            out.push(format!("  {}", ops[k].1));
            k += 1;
            continue;
        }
        let end = (k..ops.len())
            .find(|&e| ops[e].0 == ' ')
            .unwrap_or(ops.len());
        let hunk = &ops[k..end];
        if hunk.iter().any(|o| o.0 == '-') {
            let added: Vec<&str> = hunk.iter().filter(|o| o.0 == '+').map(|o| o.1).collect();
            for o in hunk.iter().filter(|o| o.0 == '-') {
                out.push(format!("- {}", o.1));
            }
            for line in added.iter().take(MAX_PER_HUNK) {
                out.push(format!("+ {line}"));
            }
            if added.len() > MAX_PER_HUNK {
                out.push(format!("+ … {} more lines", added.len() - MAX_PER_HUNK));
            }
        }
        k = end;
    }
    if page.is_empty() {
        out.push("+ (the page's accessibility tree is empty)".into());
    }
    out.join("\n")
}

fn collect_written<'a>(
    templates: &'a [AriaTemplate],
    outline: &str,
    out: &mut Vec<(&'a AriaTemplate, String)>,
) {
    for t in templates {
        let text = outline
            .lines()
            .nth(t.line - 1)
            .unwrap_or("")
            .trim_end()
            .to_string();
        out.push((t, text));
        collect_written(&t.children, outline, out);
    }
}

fn collect_page<'a>(nodes: &'a [AxNode], depth: usize, out: &mut Vec<(&'a AxNode, String)>) {
    for n in nodes {
        let colon = if n.children.is_empty() { "" } else { ":" };
        out.push((n, format!("{}- {}{colon}", "  ".repeat(depth), head(n))));
        collect_page(&n.children, depth + 1, out);
    }
}

/// The page's whole outline (what `--update-snapshots` writes).
pub fn page_outline(nodes: &[AxNode]) -> String {
    let mut out = Vec::new();
    lines(nodes, 0, &mut out);
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::ir::parse_aria;

    fn leaf(role: &str, name: &str, attrs: &[(&str, &str)]) -> AxNode {
        AxNode {
            role: role.into(),
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            children: Vec::new(),
        }
    }

    fn page() -> Vec<AxNode> {
        let mut list = leaf("list", "", &[]);
        list.children = vec![
            {
                let mut li = leaf("listitem", "", &[]);
                li.children = vec![leaf("text", "3 apples", &[])];
                li
            },
            leaf("listitem", "Pears", &[]),
        ];
        vec![
            leaf("heading", "Cart", &[("level", "1")]),
            leaf("banner", "", &[]),
            list,
            leaf("checkbox", "Gift wrap", &[("checked", "true")]),
            leaf("button", "Pay", &[]),
        ]
    }

    fn holds(outline: &str) -> bool {
        matches(&parse_aria(outline).unwrap(), &page())
    }

    #[test]
    fn what_is_written_must_be_there_in_order_and_nothing_else_is_asked() {
        assert!(holds("- heading \"Cart\" [level=1]\n- button \"Pay\""));
        assert!(holds(
            "- list:\n  - listitem: /\\d+ apples/\n- checkbox [checked]"
        ));
        assert!(holds("- listitem \"Pears\""));
        assert!(holds("- checkbox \"Gift wrap\" [checked=true]\n- button"));
        assert!(
            !holds("- button \"Pay\"\n- heading \"Cart\""),
            "order counts"
        );
        assert!(!holds("- heading \"Cart\" [level=2]"));
        assert!(!holds("- checkbox [checked=false]"));
        assert!(!holds("- list:\n  - listitem \"Plums\""));
        assert!(!holds("- heading \"Basket\""));
    }

    #[test]
    fn the_diff_shows_the_missing_lines_against_what_the_page_has_there() {
        let outline =
            "- heading \"Cart\" [level=1]\n- list:\n  - listitem \"Plums\"\n- button \"Pay\"";
        let t = parse_aria(outline).unwrap();
        assert!(!matches(&t, &page()));
        let d = diff(outline, &t, &page());
        assert_eq!(
            d,
            "  - heading \"Cart\" [level=1]\n  - list:\n-   - listitem \"Plums\"\n\
             +   - listitem:\n+     - text: 3 apples\n+   - listitem \"Pears\"\n\
             + - checkbox \"Gift wrap\" [checked]\n  - button \"Pay\""
        );
    }
}
