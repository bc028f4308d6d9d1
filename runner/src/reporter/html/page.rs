//! The report page: document head, run header, summary and filters (pure: result in, HTML out).
//!
//! Rendering goes through `maud`, which escapes every interpolated string, in text and in
//! attributes; only the report's own CSS and script are inserted unescaped. The page's
//! Content-Security-Policy allows nothing but that CSS and script (by hash) and `data:` images, so
//! even a string that slipped through could neither run script nor load anything from a network.

use super::attachments::Attachments;
use super::scenario::{duration, folder_link, scenario, status_word};
use super::{CSS, SCRIPT};
use crate::reporter::junit::class_name;
use crate::result::{FailureRecord, RunOutcome, RunResult, ScenarioStatus};
use base64::Engine;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::path::Path;

/// Every scenario status, in the order the summary and the filter buttons show them.
const STATUSES: [ScenarioStatus; 6] = [
    ScenarioStatus::Passed,
    ScenarioStatus::Flaky,
    ScenarioStatus::Failed,
    ScenarioStatus::TimedOut,
    ScenarioStatus::Cancelled,
    ScenarioStatus::Skipped,
];

/// The whole report for `result`; artifact links are relative to `report_dir` (absolute).
pub fn render(result: &RunResult, attachments: &Attachments, report_dir: &Path) -> String {
    let (outcome, outcome_class) = outcome_word(result.outcome);
    let total = result.scenarios.len();
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta http-equiv="Content-Security-Policy" content=(policy());
                title { "A3S Test report: " (outcome) ", " (plural(total, "scenario")) }
                style { (PreEscaped(CSS)) }
            }
            body {
                header {
                    h1 { "A3S Test report" }
                    p class="meta" {
                        span { span class={ "badge " (outcome_class) } { (outcome) } }
                        span { "exit code " (result.exit_code) }
                        span { "run " code { (result.run_id) } }
                        span { "started " (result.started_at) }
                        span { "took " (duration(result.duration_ms)) }
                    }
                }
                main {
                    (summary(result))
                    (filters(result))
                    section aria-labelledby="scenarios-h" {
                        h2 id="scenarios-h" { "Scenarios" }
                        p id="shown" aria-live="polite" { "Showing " (total) " of " (total) " scenarios" }
                        p id="none" class="note" hidden { "No scenario matches the filters." }
                        @for (i, s) in result.scenarios.iter().enumerate() {
                            (scenario(i, s, &attachments.of(i), report_dir))
                        }
                    }
                }
                footer {
                    p {
                        "Written by a3s-test from a run result of format " (result.format_version)
                        ". Artifacts: " (folder_link(report_dir, &result.artifact_root))
                    }
                }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    let mut text = page.into_string();
    text.push('\n');
    text
}

/// A page holding one trace alone (see [`super::trace_page`]).
pub fn trace_page(title: &str, view: &super::trace_view::TraceView) -> String {
    let section = raise_headings(&super::trace::section("t", view, None).into_string());
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta http-equiv="Content-Security-Policy" content=(policy());
                title { "A3S Test trace: " (title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                header {
                    h1 { "A3S Test trace" }
                    p class="meta" { span { (title) } }
                }
                main {
                    (PreEscaped(section))
                }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    let mut text = page.into_string();
    text.push('\n');
    text
}

/// A trace section's headings two levels up: in the report it sits under its scenario's `h3`,
/// alone on a page under the page's `h1` — headings that skip levels confuse a screen reader's
/// outline (axe-core's `heading-order`). Only tags are matched: maud escapes every `<` of text.
fn raise_headings(section: &str) -> String {
    [("h4", "h2"), ("h5", "h3"), ("h6", "h4")].iter().fold(
        section.to_string(),
        |text, (from, to)| {
            text.replace(&format!("<{from}"), &format!("<{to}"))
                .replace(&format!("</{from}>"), &format!("</{to}>"))
        },
    )
}

/// `default-src 'none'` plus the hashes of the report's own style and script.
fn policy() -> String {
    let hash = |text: &str| {
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes()))
    };
    format!(
        "default-src 'none'; img-src data:; style-src 'sha256-{}'; script-src 'sha256-{}'; base-uri 'none'; form-action 'none'",
        hash(CSS),
        hash(SCRIPT)
    )
}

/// The outcome's word and CSS class; every variant by name.
fn outcome_word(outcome: RunOutcome) -> (&'static str, &'static str) {
    match outcome {
        RunOutcome::Passed => ("passed", "passed"),
        RunOutcome::Failed => ("failed", "failed"),
        RunOutcome::Error => ("error", "error"),
        RunOutcome::TimedOut => ("timed out", "timed_out"),
        RunOutcome::Cancelled => ("cancelled", "cancelled"),
    }
}

/// `1 scenario`, `3 scenarios`.
pub(super) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn count_of(result: &RunResult, status: ScenarioStatus) -> usize {
    result
        .scenarios
        .iter()
        .filter(|s| s.status == status)
        .count()
}

fn summary(result: &RunResult) -> Markup {
    let c = result.counts;
    let classes = [
        ("product", c.product),
        ("specification", c.specification),
        ("infrastructure", c.infrastructure),
        ("cleanup", c.cleanup),
    ];
    let failed: Vec<(usize, &crate::result::ScenarioResult, &FailureRecord)> = result
        .scenarios
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.failure.as_ref().map(|f| (i, s, f)))
        .collect();
    html! {
        section aria-labelledby="summary-h" {
            h2 id="summary-h" { "Summary" }
            @if let Some(merge) = &result.merge {
                @if !merge.missing_shards.is_empty() {
                    p class="warning" {
                        strong { "Incomplete: " }
                        "no result was merged for shard "
                        (merge.missing_shards.iter().map(|i| format!("{i}/{}", merge.total)).collect::<Vec<_>>().join(", "))
                        "; the scenarios of those shards are not in this report ("
                        code { (crate::merge::MergeCode::MissingShard.as_str()) } ")."
                    }
                }
                p class="meta" {
                    "Merged from " (plural(merge.shards.len(), "shard")) " of " (merge.total) ": "
                    @for (i, shard) in merge.shards.iter().enumerate() {
                        @if i > 0 { ", " }
                        (shard.index) "/" (merge.total) " (run " code { (shard.run_id) } ", exit code " (shard.exit_code) ")"
                    }
                }
            }
            @if let Some(shard) = &result.shard {
                p class="meta" { "Shard " (shard.index) " of " (shard.total) " (" (plural(shard.selected, "scenario")) " selected across all shards)" }
            }
            h3 { "By status" }
            ul class="counts" {
                @for status in STATUSES {
                    li { strong { (count_of(result, status)) } (status_word(status).0) }
                }
                li { strong { (result.skipped) } "not selected" }
            }
            h3 { "Failures by class" }
            ul class="counts" {
                @for (name, n) in classes {
                    li { strong { (n) } (name) }
                }
            }
            @if !failed.is_empty() {
                h3 { "Failed scenarios" }
                ol class="failures" {
                    @for (i, s, f) in &failed {
                        li {
                            a href={ "#s-" (i + 1) } { (s.id) }
                            " — " code { (f.code) } " (" (class_name(f.failure_class)) ")"
                            @if let Some(at) = &f.location { " at " code { (at) } }
                            ": " (f.message)
                        }
                    }
                }
            }
            @if !result.cleanup_failures.is_empty() {
                h3 { "Run cleanup failures" }
                ul class="failures" {
                    @for f in &result.cleanup_failures {
                        li { code { (f.code) } ": " (f.message) }
                    }
                }
            }
        }
    }
}

fn filters(result: &RunResult) -> Markup {
    let tags: BTreeSet<&str> = result
        .scenarios
        .iter()
        .flat_map(|s| s.tags.iter().map(String::as_str))
        .collect();
    html! {
        section aria-labelledby="filters-h" {
            h2 id="filters-h" { "Filters" }
            div class="filters" {
                div role="group" aria-labelledby="status-legend" {
                    span class="legend" id="status-legend" { "Status" }
                    button type="button" data-status-filter="all" aria-pressed="true" {
                        "All (" (result.scenarios.len()) ")"
                    }
                    @for status in STATUSES {
                        " "
                        button type="button" data-status-filter=(status.as_str()) aria-pressed="false" {
                            (status_word(status).0) " (" (count_of(result, status)) ")"
                        }
                    }
                }
                div {
                    label for="tag-filter" { "Tag" }
                    select id="tag-filter" {
                        option value="" { "All tags" }
                        @for tag in &tags {
                            option value=(tag) { (tag) }
                        }
                    }
                }
                div {
                    label for="text-filter" { "Text" }
                    input type="search" id="text-filter" placeholder="id, name, code or message";
                }
            }
        }
    }
}
