//! The feed's shape and how it is cut from a run result for one page.

use super::locator::{locator_of, CandidateLocator};
use crate::result::{FailureRecord, RunResult, ScenarioResult, ScenarioStatus};
use a3s_test_driver::{FailureClass, FailureCode};
use serde::{Deserialize, Serialize};
use url::Url;

/// The protocol string of the feed.
pub const CANDIDATES_PROTOCOL: &str = "a3s.test.run-candidates/1";
/// Most candidates in one answer (the rest are counted in `omitted`).
pub const MAX_CANDIDATES: usize = 50;
/// Longest message, in characters (longer ones are cut and end in `…`).
pub const MAX_CANDIDATE_TEXT: usize = 2000;
/// Longest name, target, step location or URL, in characters.
const MAX_SHORT_TEXT: usize = 500;

/// How the scenario ended in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CandidateStatus {
    /// It failed.
    Failed,
    /// It ran out of time.
    TimedOut,
    /// It failed, then passed on a retry: the candidate is the failed attempt's failure.
    Flaky,
}

/// One failed or flaky scenario on the page asked about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunCandidate {
    /// `suite/scenario`: one candidate per scenario.
    pub id: String,
    /// The scenario's display name.
    pub name: String,
    /// How it ended.
    pub status: CandidateStatus,
    /// The failure's code (always a product failure: the page did not do what the suite says).
    pub code: FailureCode,
    /// The failure's sentence (page text in it is untrusted data).
    pub message: String,
    /// The failed step's element in ACL syntax (`role("button", "Pay")`), when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The same element as a simple locator the page can look for (absent for a combined
    /// target: the overlay then marks nothing rather than guess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<CandidateLocator>,
    /// The failed step's `file:line:col`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The page's full address when it failed.
    pub page_url: String,
}

/// What the endpoint answers for `GET …/candidates?page=URL`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunCandidates {
    /// [`CANDIDATES_PROTOCOL`].
    pub protocol: String,
    /// The run the candidates come from; absent when there was no run (or no result of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// When that run started (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// The page asked about, as origin and path (what candidates are matched on).
    pub page: String,
    /// At most [`MAX_CANDIDATES`], in plan order.
    pub candidates: Vec<RunCandidate>,
    /// How many more matched than were sent.
    pub omitted: usize,
}

/// `origin + path` of a URL: what "the same page" means here (query and fragment are state).
pub fn page_key(url: &Url) -> String {
    format!("{}{}", url.origin().ascii_serialization(), url.path())
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// The failure a scenario is offered with: its verdict's, or for a flaky one the last failed
/// attempt's.
fn failure_of(s: &ScenarioResult) -> Option<(CandidateStatus, &FailureRecord)> {
    match s.status {
        ScenarioStatus::Failed => Some((CandidateStatus::Failed, s.failure.as_ref()?)),
        ScenarioStatus::TimedOut => Some((CandidateStatus::TimedOut, s.failure.as_ref()?)),
        ScenarioStatus::Flaky => {
            let attempt = s
                .earlier_attempts
                .iter()
                .rev()
                .find(|a| a.failure.is_some())?;
            Some((CandidateStatus::Flaky, attempt.failure.as_ref()?))
        }
        _ => None,
    }
}

fn candidate(s: &ScenarioResult, page: &str) -> Option<RunCandidate> {
    let (status, failure) = failure_of(s)?;
    // Only the product's failures are about the page; a wrong suite or a lost browser is not.
    if failure.failure_class != FailureClass::Product {
        return None;
    }
    let url = failure.page_url.as_deref()?;
    if page_key(&Url::parse(url).ok()?) != page {
        return None;
    }
    Some(RunCandidate {
        id: clip(&s.id, MAX_SHORT_TEXT),
        name: clip(&s.name, MAX_SHORT_TEXT),
        status,
        code: failure.code,
        message: clip(&failure.message, MAX_CANDIDATE_TEXT),
        target: failure
            .target
            .as_ref()
            .map(|t| clip(&t.to_string(), MAX_SHORT_TEXT)),
        // A locator cut short would look for something else: too long (or empty), and there is
        // none.
        locator: failure
            .target
            .as_ref()
            .and_then(locator_of)
            .filter(|l| l.fits(MAX_SHORT_TEXT)),
        location: failure.location.as_deref().map(|l| clip(l, MAX_SHORT_TEXT)),
        page_url: clip(url, MAX_SHORT_TEXT),
    })
}

/// The candidates of `result` (the latest run, if any) on `page`.
pub fn candidates_for(result: Option<&RunResult>, page: &Url) -> RunCandidates {
    let key = page_key(page);
    let all: Vec<RunCandidate> = result
        .map(|r| {
            r.scenarios
                .iter()
                .filter_map(|s| candidate(s, &key))
                .collect()
        })
        .unwrap_or_default();
    let omitted = all.len().saturating_sub(MAX_CANDIDATES);
    RunCandidates {
        protocol: CANDIDATES_PROTOCOL.to_string(),
        run_id: result.map(|r| r.run_id.clone()),
        started_at: result.map(|r| r.started_at.clone()),
        page: clip(&key, MAX_SHORT_TEXT),
        candidates: all.into_iter().take(MAX_CANDIDATES).collect(),
        omitted,
    }
}
