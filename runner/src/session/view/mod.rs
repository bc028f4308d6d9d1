//! The agent's observation view: what `observe` answers and how it is shaped for a model's
//! context window.
//!
//! An observation is an outline ([`outline`]) — the page's text in document order with each
//! control's ref where it stands — cut to a byte budget with a marker saying what was cut and
//! how to see it ([`budget`]), or only what changed since an earlier observation ([`diff`]),
//! optionally after waiting for the page to settle (the driver's `settle`). [`text`] renders it
//! as the default text view; `--json` is the same [`Observation`] as compact JSON.
//!
//! Refs keep their number across observations of one document ([`Numbering`]), so a line an
//! agent read earlier still means the same control in a diff; a new document starts again at
//! `@e1`. The gates are unchanged: a ref is valid only in the latest observation.

pub mod budget;
pub mod diff;
pub mod outline;
pub mod text;

use super::code::{SessionCode, SessionError};
use super::observation::RefEntry;
use a3s_test_driver::{AgentContext, PageSnapshot, Settled};
use outline::Line;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;
use tokio::time::Instant;

/// Default `--max-bytes`.
pub const DEFAULT_MAX_BYTES: usize = 4_096;
/// Smallest `--max-bytes` (the header and the marker must fit).
pub const MIN_MAX_BYTES: usize = 256;
/// Largest `--max-bytes`, and what `--full` is bounded by.
pub const MAX_MAX_BYTES: usize = 256 * 1024;
/// Longest `--settle-ms` quiet period.
pub const MAX_SETTLE_MS: u64 = 5_000;
/// The longest a settle waits in all: four quiet periods, at least 2 s, at most 10 s.
pub const SETTLE_CAP_MS: u64 = 10_000;
/// The shortest cap of a settle wait.
pub const SETTLE_MIN_CAP_MS: u64 = 2_000;
/// Observations kept for `--since` (per session, in the supervisor's memory).
pub const HISTORY: usize = 8;

/// How the client will print the view: the budget counts the bytes of that form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// The text view (the CLI's default).
    #[default]
    Text,
    /// Compact JSON (`--json`, MCP).
    Json,
}

/// What an observe turn asks for (the protocol's `Observe` payload).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ViewRequest {
    /// No byte budget (bounded by [`MAX_MAX_BYTES`]) and longer lines.
    #[serde(default)]
    pub full: bool,
    /// Only what changed since this observation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<u64>,
    /// Wait until the page made no DOM change and no request for this many ms first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle_ms: Option<u64>,
    /// The byte budget (default [`DEFAULT_MAX_BYTES`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<usize>,
    /// Start the view at this ref (`@eN`) or line number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The form the budget is counted in.
    #[serde(default)]
    pub form: Form,
    /// Also read the Test Kit's UI understanding within this budget, shown as read-only `@uN`
    /// facts ([`crate::session::ui`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<crate::session::ui::UiBudget>,
}

impl ViewRequest {
    /// Check the bounds (the CLI and MCP schema state them too).
    pub fn validate(&self) -> Result<(), String> {
        if let Some(b) = self.max_bytes {
            if !(MIN_MAX_BYTES..=MAX_MAX_BYTES).contains(&b) {
                return Err(format!(
                    "max_bytes must be {MIN_MAX_BYTES}..={MAX_MAX_BYTES}, not {b}"
                ));
            }
        }
        if let Some(t) = self.settle_ms {
            if !(1..=MAX_SETTLE_MS).contains(&t) {
                return Err(format!("settle_ms must be 1..={MAX_SETTLE_MS}, not {t}"));
            }
        }
        if let Some(s) = &self.scope {
            if budget::Scope::parse(s).is_none() {
                return Err(format!(
                    "scope must be a ref @eN or a line number, not {:?}",
                    s.chars().take(40).collect::<String>()
                ));
            }
        }
        if let Some(ui) = &self.ui {
            ui.validate()?;
        }
        Ok(())
    }

    /// The budget in bytes.
    pub fn budget(&self) -> usize {
        if self.full {
            MAX_MAX_BYTES
        } else {
            self.max_bytes.unwrap_or(DEFAULT_MAX_BYTES)
        }
    }
}

/// One changed line of a diff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// Added, removed or changed.
    pub change: ChangeKind,
    /// The line: as it is now (added, changed) or as it was (removed; its ref is gone).
    #[serde(flatten)]
    pub line: Line,
}

/// What happened to a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// New since the baseline.
    Added,
    /// Gone since the baseline.
    Removed,
    /// The same control with another name, value or state.
    Changed,
}

/// An observation as `observe` answers it (also `inspect`, with `inspection`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// The observation id (refs are bound to it).
    pub observation: u64,
    /// The page URL (untrusted).
    pub url: String,
    /// Everything page-derived is untrusted data.
    pub untrusted: bool,
    /// Refs of this observation (all of them, shown or not).
    pub ref_count: usize,
    /// The baseline of a diff.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<u64>,
    /// Why no diff was possible (the full view follows in `lines`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cannot_diff: Option<String>,
    /// Where a scoped view starts (the `--scope` asked for, when found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The outline (absent in a diff).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
    /// The changes of a diff.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    /// True when something was left out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// What was left out and how to see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncation: Option<String>,
    /// What the settle wait found (`--settle-ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle: Option<Settled>,
    /// Test Kit Page Context refs (`@cN`), on pages with the bridge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_context: Option<crate::session::page_context::refs::PageContextView>,
    /// Read-only `@uN` UI facts (`--ui`), bound to this observation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<crate::session::ui::facts::UiView>,
    /// The bridge's answer (`inspect` only; untrusted): the page's own JSON, passed through
    /// untouched because its shape is the Test Kit's Page Context protocol, not ours (the diff
    /// validator checks a delta before it is answered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inspection: Option<Value>,
    /// Requests the network policy blocked since the last answer (untrusted URLs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_requests: Vec<String>,
    /// A terminal session's screen (`agent start --tui`): its rows with numbers, the cursor and
    /// the modes, or the rows changed since `since` ([`crate::session::terminal::view`]). A
    /// terminal observation has no outline and no refs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<crate::session::terminal::view::ScreenView>,
    /// The command to run next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// Wait for the page to settle before an observation: quiet for `quiet_ms` (at most
/// [`MAX_SETTLE_MS`]), within four quiet periods (between [`SETTLE_MIN_CAP_MS`] and
/// [`SETTLE_CAP_MS`]) and the turn's `deadline`.
pub async fn settle<C: AgentContext>(
    ctx: &C,
    quiet_ms: u64,
    deadline: Instant,
) -> Result<Settled, SessionError> {
    let quiet = Duration::from_millis(quiet_ms.clamp(1, MAX_SETTLE_MS));
    let cap = Duration::from_millis((quiet_ms * 4).clamp(SETTLE_MIN_CAP_MS, SETTLE_CAP_MS));
    ctx.settle(quiet, cap, deadline).await.map_err(|f| {
        SessionError::new(
            SessionCode::StepFailed,
            format!(
                "waiting for the page to settle failed: {}: {}",
                f.code, f.message
            ),
        )
    })
}

/// Ref numbers of the current document: a control keeps its `@eN` while its node lives, and a
/// number is never given to another node of the same document.
#[derive(Debug, Default)]
pub struct Numbering {
    loader: String,
    next: u64,
    by_node: HashMap<i64, u64>,
}

/// Nodes remembered per document before the memory is dropped (numbers still only grow).
const NUMBERED_NODES: usize = 50_000;

impl Numbering {
    /// True when `@e{n}` was issued in the current document (by any observation of it), so a
    /// refusal can tell a ref that went stale from one that never existed.
    pub fn issued(&self, n: u64) -> bool {
        n >= 1 && n < self.next
    }

    /// The ref table of `snapshot`, numbered stably within its document.
    pub fn refs(&mut self, snapshot: &PageSnapshot) -> Vec<RefEntry> {
        if self.loader != snapshot.loader_id {
            self.loader = snapshot.loader_id.clone();
            self.next = 1;
            self.by_node.clear();
        }
        if self.by_node.len() > NUMBERED_NODES {
            self.by_node.clear();
        }
        let mut used = HashSet::new();
        snapshot
            .controls
            .iter()
            .map(|c| {
                let known = self
                    .by_node
                    .get(&c.backend_node_id)
                    .copied()
                    .filter(|n| used.insert(*n));
                let n = known.unwrap_or_else(|| {
                    let n = self.next;
                    self.next += 1;
                    used.insert(n);
                    self.by_node.insert(c.backend_node_id, n);
                    n
                });
                RefEntry::of(n, c)
            })
            .collect()
    }
}

/// One kept observation: what `--since` diffs against.
#[derive(Debug)]
struct Kept {
    id: u64,
    loader: String,
    lines: Vec<Line>,
}

/// The view state a supervisor keeps between turns (memory only).
#[derive(Debug, Default)]
pub struct ViewState {
    /// Ref numbers of the current document.
    pub numbering: Numbering,
    /// The session's `@uN` numbering and the facts bound to the latest observation.
    pub ui: crate::session::ui::facts::UiRefs,
    history: VecDeque<Kept>,
}

impl ViewState {
    /// The view of observation `id` of `snapshot` (whose ref table is `refs`) as `request`
    /// asks, remembered for later diffs.
    pub fn view(
        &mut self,
        id: u64,
        snapshot: &PageSnapshot,
        refs: &[RefEntry],
        request: &ViewRequest,
    ) -> Observation {
        let lines = outline::build(snapshot, refs);
        let mut view = Observation {
            observation: id,
            url: snapshot.url.clone(),
            untrusted: true,
            ref_count: refs.len(),
            since: request.since,
            cannot_diff: None,
            scope: None,
            lines: Vec::new(),
            changes: Vec::new(),
            truncated: false,
            truncation: None,
            settle: None,
            page_context: None,
            ui: None,
            inspection: None,
            blocked_requests: Vec::new(),
            screen: None,
            next: None,
        };
        let mut notes = Vec::new();
        let diffed = request
            .since
            .map(|since| self.diff_against(since, snapshot, &lines));
        match diffed {
            Some(Ok(changes)) => {
                let fit = budget::fit(&changes, 0, request, &snapshot.url, |c| Change {
                    change: c.change,
                    line: c.line.clipped(request.full),
                });
                if let Some(note) = fit.note("changes", "observe without --since") {
                    notes.push(note);
                }
                view.changes = fit.items;
            }
            other => {
                if let Some(Err(why)) = other {
                    view.cannot_diff = Some(why);
                }
                let start = match request.scope.as_deref().and_then(budget::Scope::parse) {
                    Some(scope) => match scope.find(&lines) {
                        Some(i) => {
                            view.scope = request.scope.clone();
                            i
                        }
                        None => {
                            view.scope = Some(format!(
                                "the top ({} is not in this observation)",
                                request.scope.as_deref().unwrap_or("")
                            ));
                            0
                        }
                    },
                    None => 0,
                };
                let fit = budget::fit(&lines[start..], start, request, &snapshot.url, |l| {
                    l.clipped(request.full)
                });
                if let Some(note) = fit.note("lines", "observe --scope") {
                    notes.push(note);
                }
                view.lines = fit.items;
            }
        }
        notes.extend(budget::cut_notes(snapshot));
        if !notes.is_empty() {
            view.truncated = true;
            view.truncation = Some(notes.join("; "));
        }
        self.remember(id, snapshot.loader_id.clone(), lines);
        view
    }

    fn diff_against(
        &self,
        since: u64,
        snapshot: &PageSnapshot,
        lines: &[Line],
    ) -> Result<Vec<Change>, String> {
        let Some(kept) = self.history.iter().find(|k| k.id == since) else {
            let oldest = self.history.front().map(|k| k.id);
            return Err(match oldest {
                Some(o) if since < o => format!(
                    "observation {since} is too old (the last {HISTORY} are kept, from {o} on)"
                ),
                _ => format!("observation {since} is unknown"),
            });
        };
        if kept.loader != snapshot.loader_id {
            return Err(format!(
                "the page loaded a new document since observation {since}"
            ));
        }
        diff::diff(&kept.lines, lines)
            .ok_or_else(|| format!("the page is too large to diff against observation {since}"))
    }

    fn remember(&mut self, id: u64, loader: String, lines: Vec<Line>) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(Kept { id, loader, lines });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_driver::{ControlNode, PageText};
    use std::collections::BTreeMap;

    fn button(node: i64, name: &str) -> ControlNode {
        ControlNode {
            backend_node_id: node,
            role: "button".into(),
            name: name.into(),
            value: None,
            states: BTreeMap::new(),
            tag: "button".into(),
            attributes: BTreeMap::new(),
            named_by_label: false,
        }
    }

    fn page(loader: &str, controls: Vec<ControlNode>) -> PageSnapshot {
        let texts = (0..controls.len())
            .map(|i| PageText {
                role: "StaticText".into(),
                text: format!("row {i}"),
                controls_before: Some(i),
            })
            .collect();
        PageSnapshot {
            url: "http://127.0.0.1:1/".into(),
            loader_id: loader.into(),
            controls,
            texts,
            truncated: false,
            cut: Vec::new(),
        }
    }

    #[test]
    fn a_control_keeps_its_ref_in_one_document_and_numbers_are_never_reused() {
        let mut n = Numbering::default();
        let first = n.refs(&page("L", vec![button(10, "a"), button(11, "b")]));
        assert_eq!(first[1].reference, "@e2");
        let second = n.refs(&page("L", vec![button(12, "new"), button(11, "b")]));
        assert_eq!(second[0].reference, "@e3");
        assert_eq!(second[1].reference, "@e2");
        assert!(n.issued(3) && !n.issued(4) && !n.issued(0));
        let again = n.refs(&page("L", vec![button(10, "a")]));
        assert_eq!(again[0].reference, "@e1");
        let other = n.refs(&page("M", vec![button(11, "b")]));
        assert_eq!(other[0].reference, "@e1");
    }

    #[test]
    fn a_diff_says_why_it_cannot_be_made_and_carries_the_whole_view() {
        let mut state = ViewState::default();
        let p = page("L", vec![button(1, "a")]);
        let refs = state.numbering.refs(&p);
        state.view(1, &p, &refs, &ViewRequest::default());
        let since = |n| ViewRequest {
            since: Some(n),
            ..ViewRequest::default()
        };
        let v = state.view(2, &p, &refs, &since(1));
        assert_eq!(v.cannot_diff, None);
        assert!(v.changes.is_empty() && v.lines.is_empty());
        assert!(text::render(&v).starts_with("observation 2 · no change since 1 · "));
        let v = state.view(3, &p, &refs, &since(99));
        assert_eq!(v.cannot_diff.as_deref(), Some("observation 99 is unknown"));
        assert_eq!(v.lines.len(), 2);
        for id in 4..=12 {
            state.view(id, &p, &refs, &ViewRequest::default());
        }
        let v = state.view(13, &p, &refs, &since(2));
        assert!(v.cannot_diff.unwrap().contains("too old"));
        let moved = page("M", vec![button(1, "a")]);
        let v = state.view(14, &moved, &refs, &since(13));
        assert!(v.cannot_diff.unwrap().contains("new document"));
    }

    #[test]
    fn a_cut_view_names_what_was_cut_and_where_to_resume() {
        let mut state = ViewState::default();
        let p = page("L", (0..200).map(|i| button(i, "Pick")).collect());
        let refs = state.numbering.refs(&p);
        let request = ViewRequest {
            max_bytes: Some(1024),
            ..ViewRequest::default()
        };
        let v = state.view(1, &p, &refs, &request);
        let rendered = text::render(&v);
        assert!(rendered.len() <= 1024, "{}", rendered.len());
        assert!(v.truncated);
        let marker = v.truncation.clone().unwrap();
        assert!(marker.contains("past the 1024-byte budget"), "{marker}");
        let resume = marker
            .split("observe --scope ")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .unwrap()
            .to_string();
        let scoped = state.view(
            2,
            &p,
            &refs,
            &ViewRequest {
                scope: Some(resume.clone()),
                ..request.clone()
            },
        );
        assert_eq!(scoped.scope.as_deref(), Some(resume.as_str()));
        assert_eq!(
            budget::Scope::parse(&resume)
                .unwrap()
                .find(&outline::build(&p, &refs)),
            Some(v.lines.len())
        );
        assert!(ViewRequest {
            max_bytes: Some(10),
            ..ViewRequest::default()
        }
        .validate()
        .is_err());
        assert!(ViewRequest {
            scope: Some("css(x)".into()),
            ..ViewRequest::default()
        }
        .validate()
        .is_err());
    }
}
