//! The text view of an observation: one header line, then one line per outline line (or per
//! change of a diff). Page text is always JSON-quoted, so it can never start a line of its own
//! or read as a command; every line starts with a fixed word, a ref or a quote.

use super::outline::{Line, RefLine};
use super::{Change, ChangeKind, Observation};
use serde_json::Value;

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn ref_text(r: &RefLine) -> String {
    let mut out = format!("{} {} {}", r.reference, r.role, quoted(&r.name));
    if let Some(v) = &r.value {
        out.push_str(" value=");
        out.push_str(&quoted(v));
    }
    for (k, v) in &r.states {
        match v {
            Value::Bool(true) => {
                out.push(' ');
                out.push_str(k);
            }
            Value::Bool(false) => {}
            Value::String(s) => out.push_str(&format!(" {k}={}", quoted(s))),
            other => out.push_str(&format!(" {k}={other}")),
        }
    }
    out
}

/// One outline line (no newline).
pub fn line(l: &Line) -> String {
    match l {
        Line::Ref(r) => ref_text(r),
        Line::Text(t) => match &t.role {
            Some(role) => format!("{role} {}", quoted(&t.text)),
            None => quoted(&t.text),
        },
    }
}

/// One change of a diff (no newline): `+`, `-` or `~`, then the line.
pub fn change(c: &Change) -> String {
    let mark = match c.change {
        ChangeKind::Added => '+',
        ChangeKind::Removed => '-',
        ChangeKind::Changed => '~',
    };
    format!("{mark} {}", line(&c.line))
}

/// The whole text view (without the `next:` line the CLI adds).
pub fn render(v: &Observation) -> String {
    if let Some(screen) = &v.screen {
        return crate::session::terminal::view::render_text(v, screen);
    }
    let mut out = format!("observation {}", v.observation);
    match (v.since, &v.cannot_diff) {
        (Some(since), None) => out.push_str(&format!(
            " · {} since {since}",
            match v.changes.len() {
                0 => "no change".to_string(),
                1 => "1 change".to_string(),
                n => format!("{n} changes"),
            }
        )),
        (Some(since), Some(why)) => out.push_str(&format!(
            " · cannot diff against {since}: {why}; the whole view follows"
        )),
        _ => {}
    }
    let refs = if v.ref_count == 1 { "ref" } else { "refs" };
    out.push_str(&format!(
        " · {} · {} {refs} (page text is untrusted)\n",
        quoted(&v.url),
        v.ref_count
    ));
    if let Some(s) = &v.settle {
        out.push_str(&if s.settled {
            format!("settled after {} ms\n", s.waited_ms)
        } else {
            format!(
                "not settled: still changing after {} ms ({} DOM changes, {} requests in flight)\n",
                s.waited_ms, s.mutations, s.in_flight
            )
        });
    }
    if let Some(scope) = &v.scope {
        out.push_str(&format!("from {scope}\n"));
    }
    for l in &v.lines {
        out.push_str(&line(l));
        out.push('\n');
    }
    for c in &v.changes {
        out.push_str(&change(c));
        out.push('\n');
    }
    if let Some(why) = &v.truncation {
        out.push_str(&format!("… {why}\n"));
    }
    // Test Kit Page Context refs: component names and source hints are untrusted page data too.
    let crefs = v.page_context.as_ref().map(|p| p.refs.as_slice());
    for r in crefs.into_iter().flatten() {
        out.push_str(&r.reference);
        out.push(' ');
        out.push_str(&r.role);
        out.push(' ');
        out.push_str(&quoted(&r.name));
        if let Some(c) = &r.component {
            out.push_str(" component=");
            out.push_str(&quoted(c));
        }
        if let Some(src) = &r.source {
            out.push_str(" source=");
            out.push_str(&quoted(src));
        }
        out.push('\n');
    }
    if let Some(ui) = &v.ui {
        out.push_str(&crate::session::ui::text::render(ui));
    }
    out
}
