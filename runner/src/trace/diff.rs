//! What changed since the last green run: a failing attempt's trace against the scenario's last
//! passing trace, step by step — outline lines added and removed, requests new, gone or with
//! another outcome, console errors and page errors that are new — and the first step whose page
//! differs. The JSON results carry it (`trace.since_last_green`), so an agent reads the same
//! comparison a person sees in the report.
//!
//! Steps are matched by position and path (`steps[3]`); a step whose kind or path differs from
//! the last green one at its place is marked and not compared. Outline lines are compared
//! without their `@eN` refs (numbers are per run), as multisets in page order.

use super::record::{Trace, TraceStep};
use a3s_test_driver::trace::TraceRequest;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The comparison of one failing trace with the last green one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceDiff {
    /// The first step whose page (outline) differs from the last green run's after the same step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<StepAt>,
    /// Every step with a change, in order.
    pub steps: Vec<StepChange>,
}

/// A step by position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepAt {
    /// Its index in the scenario's step list.
    pub index: usize,
    /// Its path (`steps[3]`).
    pub path: String,
    /// Its 1-based ACL line.
    pub line: usize,
}

/// What changed at one step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepChange {
    /// Which step.
    #[serde(flatten)]
    pub at: StepAt,
    /// True when the last green run had no step like it at this place (not compared).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_in_last_green: bool,
    /// Outline lines after the step now and not then (refs left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outline_added: Vec<String>,
    /// Outline lines then and not now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outline_removed: Vec<String>,
    /// Requests made now and not then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests_new: Vec<RequestOutcome>,
    /// Requests made then and not now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests_gone: Vec<RequestOutcome>,
    /// Requests made both times that ended differently.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests_changed: Vec<RequestChange>,
    /// Console errors and page errors now that the last green run did not have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors_new: Vec<String>,
}

/// A request and how it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestOutcome {
    /// `GET`, `POST`, …
    pub method: String,
    /// The URL.
    pub url: String,
    /// `200`, `failed: net::ERR_…`, or `no response`.
    pub outcome: String,
}

/// A request that ended differently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestChange {
    /// `GET`, `POST`, …
    pub method: String,
    /// The URL.
    pub url: String,
    /// How it ended in the last green run.
    pub was: String,
    /// How it ended now.
    pub now: String,
}

/// Compare `now` (a failing attempt) with `green` (the last pass).
pub fn compare(green: &Trace, now: &Trace) -> TraceDiff {
    let mut steps = Vec::new();
    let mut first_difference = None;
    for step in &now.steps {
        let at = StepAt {
            index: step.index,
            path: step.path.clone(),
            line: step.line,
        };
        let then = green
            .steps
            .get(step.index)
            .filter(|g| g.path == step.path && g.kind == step.kind);
        let Some(then) = then else {
            steps.push(StepChange {
                not_in_last_green: true,
                ..StepChange::at(at)
            });
            continue;
        };
        let change = step_change(at, then, step);
        if first_difference.is_none()
            && (!change.outline_added.is_empty() || !change.outline_removed.is_empty())
        {
            first_difference = Some(change.at.clone());
        }
        if !change.is_empty() {
            steps.push(change);
        }
    }
    TraceDiff {
        first_difference,
        steps,
    }
}

impl StepChange {
    fn at(at: StepAt) -> StepChange {
        StepChange {
            at,
            not_in_last_green: false,
            outline_added: Vec::new(),
            outline_removed: Vec::new(),
            requests_new: Vec::new(),
            requests_gone: Vec::new(),
            requests_changed: Vec::new(),
            errors_new: Vec::new(),
        }
    }

    /// True when nothing changed at this step.
    pub fn is_empty(&self) -> bool {
        !self.not_in_last_green
            && self.outline_added.is_empty()
            && self.outline_removed.is_empty()
            && self.requests_new.is_empty()
            && self.requests_gone.is_empty()
            && self.requests_changed.is_empty()
            && self.errors_new.is_empty()
    }
}

fn step_change(at: StepAt, then: &TraceStep, now: &TraceStep) -> StepChange {
    let strip =
        |lines: &[String]| -> Vec<String> { lines.iter().map(|l| without_ref(l)).collect() };
    let (then_lines, now_lines) = (strip(&then.outline), strip(&now.outline));
    let mut change = StepChange::at(at);
    change.outline_added = multiset_minus(&now_lines, &then_lines);
    change.outline_removed = multiset_minus(&then_lines, &now_lines);
    requests(&then.network, &now.network, &mut change);
    let then_errors = errors(then);
    change.errors_new = errors(now)
        .into_iter()
        .filter(|e| !then_errors.contains(e))
        .collect();
    change
}

/// An outline line without its leading `@eN` ref.
pub(crate) fn without_ref(line: &str) -> String {
    match line.strip_prefix("@e") {
        Some(rest) => {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            match rest[digits..].strip_prefix(' ') {
                Some(tail) if digits > 0 => tail.to_string(),
                _ => line.to_string(),
            }
        }
        None => line.to_string(),
    }
}

/// The items of `a` not matched one for one in `b`, in `a`'s order.
pub(crate) fn multiset_minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for l in b {
        *left.entry(l).or_default() += 1;
    }
    a.iter()
        .filter(|l| match left.get_mut(l.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

fn outcome(r: &TraceRequest) -> String {
    match (&r.failed, r.status) {
        (Some(why), _) => format!("failed: {why}"),
        (None, Some(status)) => status.to_string(),
        (None, None) => "no response".to_string(),
    }
}

/// Requests matched by method and URL (the fragment left out), in order of their first use.
fn requests(then: &[TraceRequest], now: &[TraceRequest], change: &mut StepChange) {
    let key = |r: &TraceRequest| {
        let url = r.url.split('#').next().unwrap_or("").to_string();
        (r.method.clone(), url)
    };
    let group = |list: &[TraceRequest]| {
        let mut order: Vec<(String, String)> = Vec::new();
        let mut by: HashMap<(String, String), Vec<String>> = HashMap::new();
        for r in list {
            let k = key(r);
            if !by.contains_key(&k) {
                order.push(k.clone());
            }
            by.entry(k).or_default().push(outcome(r));
        }
        (order, by)
    };
    let (then_order, then_by) = group(then);
    let (now_order, now_by) = group(now);
    for k in &now_order {
        let outcomes = &now_by[k];
        match then_by.get(k) {
            None => change.requests_new.push(RequestOutcome {
                method: k.0.clone(),
                url: k.1.clone(),
                outcome: outcomes[0].clone(),
            }),
            Some(was) => {
                if let Some((w, n)) = was.iter().zip(outcomes).find(|(w, n)| w != n) {
                    change.requests_changed.push(RequestChange {
                        method: k.0.clone(),
                        url: k.1.clone(),
                        was: w.clone(),
                        now: n.clone(),
                    });
                }
            }
        }
    }
    for k in then_order.iter().filter(|k| !now_by.contains_key(*k)) {
        change.requests_gone.push(RequestOutcome {
            method: k.0.clone(),
            url: k.1.clone(),
            outcome: then_by[k][0].clone(),
        });
    }
}

/// A step's console errors and page errors, as one list of texts.
fn errors(step: &TraceStep) -> Vec<String> {
    step.console
        .iter()
        .filter(|c| c.level == "error" || c.level == "assert")
        .map(|c| format!("console.{}: {}", c.level, c.text))
        .chain(
            step.page_errors
                .iter()
                .map(|e| format!("page error: {}", e.message)),
        )
        .collect()
}

#[cfg(test)]
mod tests;
