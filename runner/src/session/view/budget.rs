//! The byte budget of a view (`--max-bytes`, default 4,096): lines are taken in order while
//! they fit, and what is left out is said — how many lines and refs, and the `--scope` that
//! shows the rest — never dropped silently.

use super::outline::Line;
use super::{text, Change, Form, ViewRequest};
use a3s_test_driver::{Cut, PageSnapshot, MAX_CONTROLS};
use serde::Serialize;

/// Bytes kept back for the header, the marker and the `next` hint, besides the URL: the JSON
/// form spells its field names out.
fn reserve(form: Form, url: &str) -> usize {
    url.len()
        + match form {
            Form::Text => 300,
            Form::Json => 420,
        }
}

/// Where a scoped view starts: a ref or a 1-based line number of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The line of this ref (`@eN`).
    Ref(String),
    /// This line of the outline (1-based).
    Line(usize),
}

impl Scope {
    /// `@eN` or a line number; anything else is not a scope.
    pub fn parse(s: &str) -> Option<Scope> {
        let s = s.trim();
        if let Some(n) = s.strip_prefix("@e") {
            return (!n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| Scope::Ref(s.to_string()));
        }
        s.parse::<usize>().ok().filter(|n| *n >= 1).map(Scope::Line)
    }

    /// The index in `lines` this scope starts at.
    pub fn find(&self, lines: &[Line]) -> Option<usize> {
        match self {
            Scope::Ref(r) => lines.iter().position(|l| l.reference() == Some(r.as_str())),
            Scope::Line(n) => (*n <= lines.len()).then(|| n - 1),
        }
    }
}

/// An item a budget is counted over: an outline line or a change.
pub trait Item: Serialize {
    /// Its text-view line.
    fn text(&self) -> String;
    /// Its ref, if it is a control.
    fn reference(&self) -> Option<&str>;
}

impl Item for Line {
    fn text(&self) -> String {
        text::line(self)
    }
    fn reference(&self) -> Option<&str> {
        Line::reference(self)
    }
}

impl Item for Change {
    fn text(&self) -> String {
        text::change(self)
    }
    fn reference(&self) -> Option<&str> {
        self.line.reference()
    }
}

/// What fitting a list into a budget kept and left out.
#[derive(Debug)]
pub struct Fit<T> {
    /// The items kept (clipped).
    pub items: Vec<T>,
    /// Items left out after the last kept one.
    pub cut: usize,
    /// Refs among them.
    pub cut_refs: usize,
    /// How to resume: the first left-out ref, else its line number.
    pub resume: Option<String>,
    /// The budget in bytes.
    pub budget: usize,
}

/// Keep `items` (clipped by `clip`) in order while they fit the request's budget, with room
/// left for the header of a page at `url`. `offset` is the index of `items[0]` in the whole
/// outline (for line numbers).
pub fn fit<T: Item>(
    items: &[T],
    offset: usize,
    request: &ViewRequest,
    url: &str,
    clip: impl Fn(&T) -> T,
) -> Fit<T> {
    let budget = request.budget();
    let mut left = budget.saturating_sub(reserve(request.form, url));
    let mut kept = Vec::new();
    for item in items {
        let item = clip(item);
        let size = match request.form {
            Form::Text => item.text().len() + 1,
            Form::Json => serde_json::to_string(&item).map_or(usize::MAX, |s| s.len() + 1),
        };
        if size > left {
            break;
        }
        left -= size;
        kept.push(item);
    }
    let rest = &items[kept.len()..];
    let resume = rest.first().map(|first| {
        first
            .reference()
            .map(str::to_string)
            .unwrap_or_else(|| (offset + kept.len() + 1).to_string())
    });
    Fit {
        cut: rest.len(),
        cut_refs: rest.iter().filter(|i| i.reference().is_some()).count(),
        resume,
        budget,
        items: kept,
    }
}

impl<T> Fit<T> {
    /// The marker sentence when something was cut: what, and how to see it (`how` is the
    /// command that resumes; a scope is appended for outlines).
    pub fn note(&self, what: &str, how: &str) -> Option<String> {
        if self.cut == 0 {
            return None;
        }
        let resume = match (&self.resume, how.ends_with("--scope")) {
            (Some(r), true) => format!("{how} {r}"),
            _ => how.to_string(),
        };
        Some(format!(
            "cut {} {what} ({} refs) past the {}-byte budget; see them with {resume}, \
             --max-bytes or --full (Test Kit pages: inspect)",
            self.cut, self.cut_refs, self.budget,
        ))
    }
}

/// What the cut marker says of a snapshot that holds less than the page has, one note per true
/// reason (`Cut`): the ref cap, or controls that could not be read within the command bound. A
/// snapshot marked truncated without a reason is said to be at the cap.
pub(super) fn cut_notes(snapshot: &PageSnapshot) -> Vec<String> {
    let cap = || {
        format!(
            "the page has more controls or text than one observation holds (at most \
             {MAX_CONTROLS} refs); act through semantic targets such as role(\"button\", \"Save\") \
             for the rest"
        )
    };
    let mut notes: Vec<String> = snapshot
        .cut
        .iter()
        .map(|cut| match cut {
            Cut::Cap => cap(),
            Cut::TimeBound { unread } => format!(
                "{unread} controls found on the page could not be read within the command bound \
                 and are not listed; observe again, or act through semantic targets"
            ),
        })
        .collect();
    if notes.is_empty() && snapshot.truncated {
        notes.push(cap());
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(cut: Vec<Cut>) -> PageSnapshot {
        PageSnapshot {
            url: "u".into(),
            loader_id: "L".into(),
            controls: Vec::new(),
            texts: Vec::new(),
            truncated: !cut.is_empty(),
            cut,
        }
    }

    #[test]
    fn the_cut_marker_names_the_true_reason() {
        let cap = cut_notes(&snapshot(vec![Cut::Cap]));
        assert_eq!(cap.len(), 1);
        assert!(cap[0].contains("at most 500 refs"), "{cap:?}");
        // Controls that missed the command bound are not blamed on the cap.
        let late = cut_notes(&snapshot(vec![Cut::TimeBound { unread: 173 }]));
        assert_eq!(late.len(), 1);
        assert!(late[0].starts_with("173 controls"), "{late:?}");
        assert!(late[0].contains("command bound"), "{late:?}");
        assert!(!late[0].contains("at most"), "{late:?}");
        let both = cut_notes(&snapshot(vec![Cut::Cap, Cut::TimeBound { unread: 2 }]));
        assert_eq!(both.len(), 2);
        assert!(cut_notes(&snapshot(Vec::new())).is_empty());
    }
}
