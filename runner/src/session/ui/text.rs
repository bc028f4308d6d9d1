//! The text lines of an observation's `@uN` facts: a header, one line per fact, one line per
//! note. Like the rest of the view, page text is always JSON-quoted and every line starts with a
//! fixed word or a ref, so nothing the page wrote can pass for a line of its own.

use super::facts::{NodeName, UiFact, UiView};
use super::record::{AnimationKind, AnimationState};

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A node as a line names it: its `@cN`, else its role and quoted name.
fn node(n: &NodeName) -> String {
    match &n.reference {
        Some(r) => r.clone(),
        None if n.name.is_empty() => n.role.clone(),
        None => format!("{} {}", n.role, quoted(&n.name)),
    }
}

/// One fact (no ref, no newline).
pub fn fact(f: &UiFact) -> String {
    match f {
        UiFact::Overlap {
            above,
            nodes,
            area_px,
        } => match above {
            Some(top) => {
                let under = if *top == nodes[0] {
                    &nodes[1]
                } else {
                    &nodes[0]
                };
                format!("overlap {} over {} ({area_px} px²)", node(top), node(under))
            }
            None => format!(
                "overlap {} and {} ({area_px} px²)",
                node(&nodes[0]),
                node(&nodes[1])
            ),
        },
        UiFact::Clip {
            node: n,
            by,
            visible_percent,
        } => format!(
            "clip {} {visible_percent}% visible, cut by {}",
            node(n),
            node(by)
        ),
        UiFact::Motion {
            node: n,
            animation,
            name,
            state,
        } => {
            let kind = match animation {
                AnimationKind::Animation => "animation",
                AnimationKind::Transition => "transition",
                AnimationKind::Script => "script animation",
            };
            let state = match state {
                AnimationState::Running => "running",
                AnimationState::Paused => "paused",
            };
            format!("motion {} {kind} {} {state}", node(n), quoted(name))
        }
        UiFact::Cluster {
            signature,
            count,
            nodes,
        } => {
            let listed: Vec<String> = nodes.iter().map(node).collect();
            let more = if *count > nodes.len() { " …" } else { "" };
            format!(
                "cluster {} ×{count}: {}{more}",
                quoted(signature),
                listed.join(", ")
            )
        }
        UiFact::Layout {
            container,
            mode,
            children,
        } => format!(
            "layout {} {} holds {children}",
            quoted(mode),
            node(container)
        ),
        UiFact::Scroll { container, holds } => {
            format!("scroll {} holds {holds}", node(container))
        }
        UiFact::Change {
            node: n,
            field,
            from,
            to,
        } => format!(
            "change {} {} {} → {}",
            node(n),
            quoted(field),
            quoted(from),
            quoted(to)
        ),
    }
}

/// The UI lines of an observation, each ending in a newline.
pub fn render(ui: &UiView) -> String {
    let facts = if ui.refs.len() == 1 { "fact" } else { "facts" };
    let mut out = format!(
        "ui revision {} · {} {facts} from {} nodes (read-only @uN; never a target)\n",
        ui.revision,
        ui.refs.len(),
        ui.nodes
    );
    for r in &ui.refs {
        out.push_str(&r.reference);
        out.push(' ');
        out.push_str(&fact(&r.fact));
        out.push('\n');
    }
    for note in &ui.notes {
        out.push_str("… ");
        out.push_str(note);
        out.push('\n');
    }
    out
}
