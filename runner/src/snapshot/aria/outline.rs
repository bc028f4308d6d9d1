//! The actual accessibility tree as an outline: the driver's tree (the `accessibility` evidence
//! shape: `{ nodes: [ { role, name, level, checked, …, children } ] }`) turned into [`AxNode`]s
//! and written one line per node, `- role "name" [attr]`, children indented two spaces:
//!
//! ```text
//! - heading "Cart" [level=1]
//! - list "Items":
//!   - listitem:
//!     - text: 3 apples
//! - checkbox "Gift wrap" [checked]
//! ```
//!
//! The same role, name and state vocabulary as the `accessibility` evidence and the agent's
//! observation (both read Chrome's accessibility tree through `web/src/ax.rs`), written as
//! Playwright writes its ARIA snapshots so one reads both the same way. Containers with no
//! meaning of their own (`generic`, `none`, the document root) are left out and their children
//! lifted; a text node that only repeats its parent's name is left out.

use serde_json::Value;

/// Roles whose nodes are left out (their children take their place).
const LIFTED: &[&str] = &[
    "RootWebArea",
    "WebArea",
    "generic",
    "none",
    "presentation",
    "InlineTextBox",
    "LineBreak",
    "GenericContainer",
    "Ignored",
];

/// Roles left out with everything under them: a list item's bullet or number is presentation.
const DROPPED: &[&str] = &["ListMarker"];

/// Roles whose `level` is written (Chrome also gives list items one, which says nothing new).
const LEVELLED: &[&str] = &["heading", "treeitem", "row"];

/// Chrome's role of a text node; written `text`.
const STATIC_TEXT: &str = "StaticText";

/// One node of the outline.
#[derive(Debug, Clone, PartialEq)]
pub struct AxNode {
    /// The role (`heading`, `button`, `text` for a text node).
    pub role: String,
    /// The accessible name (a text node's text), whitespace-normalised.
    pub name: String,
    /// States and properties, in the order written: `("level", "1")`, `("checked", "true")`.
    pub attrs: Vec<(String, String)>,
    /// Its children.
    pub children: Vec<AxNode>,
}

impl AxNode {
    /// The node's text: its name, else its descendants' text joined by spaces.
    pub fn text(&self) -> String {
        if !self.name.is_empty() {
            return self.name.clone();
        }
        let parts: Vec<String> = self
            .children
            .iter()
            .map(AxNode::text)
            .filter(|t| !t.is_empty())
            .collect();
        parts.join(" ")
    }

    /// The value of attribute `key`, if present.
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The states written as attributes, in this order.
const STATES: &[&str] = &[
    "level", "checked", "disabled", "expanded", "selected", "pressed", "required", "invalid",
];

/// The outline's top-level nodes from the driver's tree.
pub fn nodes(tree: &Value) -> Vec<AxNode> {
    let list = tree.get("nodes").and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .flat_map(|n| node(n, "", 0))
        .collect()
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn node(n: &Value, parent_name: &str, depth: usize) -> Vec<AxNode> {
    let role = n.get("role").and_then(Value::as_str).unwrap_or("");
    if DROPPED.contains(&role) {
        return Vec::new();
    }
    let name = normalise(n.get("name").and_then(Value::as_str).unwrap_or(""));
    let own_name = if LIFTED.contains(&role) {
        parent_name
    } else {
        &name
    };
    let children: Vec<AxNode> = if depth < 256 {
        n.get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .flat_map(|c| node(c, own_name, depth + 1))
            .collect()
    } else {
        Vec::new()
    };
    if LIFTED.contains(&role) || role.is_empty() {
        return children;
    }
    if role == STATIC_TEXT {
        if name.is_empty() || name == parent_name {
            return Vec::new();
        }
        return vec![AxNode {
            role: "text".into(),
            name,
            attrs: Vec::new(),
            children: Vec::new(),
        }];
    }
    let attrs = STATES
        .iter()
        .filter(|key| **key != "level" || LEVELLED.contains(&role))
        .filter_map(|key| {
            let value = match n.get(*key)? {
                Value::Bool(true) => "true".to_string(),
                Value::String(s) if s == "true" => "true".to_string(),
                Value::String(s) if s == "mixed" => "mixed".to_string(),
                Value::Number(v) => v.to_string(),
                _ => return None,
            };
            Some((key.to_string(), value))
        })
        .collect();
    vec![AxNode {
        role: role.to_string(),
        name,
        attrs,
        children,
    }]
}

/// A name as the outline quotes it.
pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// One node's own line, without the leading `- ` and the `:` of a node with children.
pub fn head(n: &AxNode) -> String {
    if n.role == "text" {
        // Quoted when it would read as a pattern or hold a quote (never `"""` in a block).
        if n.name.contains('"') || n.name.starts_with('/') {
            return format!("text: {}", quote(&n.name));
        }
        return format!("text: {}", n.name);
    }
    let mut out = n.role.clone();
    if !n.name.is_empty() {
        out.push(' ');
        out.push_str(&quote(&n.name));
    }
    for (k, v) in &n.attrs {
        if v == "true" {
            out.push_str(&format!(" [{k}]"));
        } else {
            out.push_str(&format!(" [{k}={v}]"));
        }
    }
    out
}

/// The whole outline, one line per node.
pub fn render(nodes: &[AxNode]) -> String {
    let mut out = Vec::new();
    lines(nodes, 0, &mut out);
    out.join("\n")
}

/// The outline's lines, each with the node it stands for (pre-order).
pub fn lines(nodes: &[AxNode], depth: usize, out: &mut Vec<String>) {
    for n in nodes {
        let colon = if n.children.is_empty() { "" } else { ":" };
        out.push(format!("{}- {}{colon}", "  ".repeat(depth), head(n)));
        lines(&n.children, depth + 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_tree_is_written_as_an_outline_with_containers_lifted() {
        let tree = json!({ "nodes": [ { "role": "RootWebArea", "name": "Shop", "children": [
            { "role": "heading", "name": "Cart", "level": 1, "children": [
                { "role": "StaticText", "name": "Cart" } ] },
            { "role": "generic", "children": [
                { "role": "list", "name": "", "children": [
                    { "role": "listitem", "children": [
                        { "role": "StaticText", "name": "3   apples" } ] } ] } ] },
            { "role": "checkbox", "name": "Gift wrap", "checked": "true", "disabled": false },
            { "role": "checkbox", "name": "Note", "checked": "mixed" }
        ] } ] });
        assert_eq!(
            render(&nodes(&tree)),
            "- heading \"Cart\" [level=1]\n- list:\n  - listitem:\n    - text: 3 apples\n\
             - checkbox \"Gift wrap\" [checked]\n- checkbox \"Note\" [checked=mixed]"
        );
    }
}
