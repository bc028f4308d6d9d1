//! One scenario of the report: verdict, failure (code, class, message, step, `file:line:col`),
//! failure screenshots, steps with durations, console messages, page errors and artifact links.

use super::attachments::ScenarioAttachments;
use super::links::relative_href;
use crate::reporter::junit::class_name;
use crate::reporter::tree;
use crate::result::{FailureRecord, ScenarioResult, ScenarioStatus, StepStatus};
use maud::{html, Markup};
use std::path::{Path, PathBuf};

/// A status's display word and CSS class; every variant by name.
pub(super) fn status_word(status: ScenarioStatus) -> (&'static str, &'static str) {
    match status {
        ScenarioStatus::Passed => ("passed", "passed"),
        ScenarioStatus::Failed => ("failed", "failed"),
        ScenarioStatus::TimedOut => ("timed out", "timed_out"),
        ScenarioStatus::Cancelled => ("cancelled", "cancelled"),
        ScenarioStatus::Flaky => ("flaky", "flaky"),
        ScenarioStatus::Skipped => ("skipped", "skipped"),
    }
}

fn step_word(status: StepStatus) -> (&'static str, &'static str) {
    match status {
        StepStatus::Passed => ("passed", "passed"),
        StepStatus::Failed => ("failed", "failed"),
    }
}

/// `412 ms`, `1.25 s`.
pub(super) fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.2} s", ms as f64 / 1000.0)
    }
}

/// What the text filter searches: ids, name, file, tags, failure codes and messages, lowercased.
fn search_text(s: &ScenarioResult) -> String {
    let mut parts: Vec<&str> = vec![&s.id, &s.name, &s.file];
    parts.extend(s.tags.iter().map(String::as_str));
    for f in s.failure.iter().chain(&s.cleanup_failure) {
        parts.push(f.code.as_str());
        parts.push(&f.message);
    }
    parts.join("\n").to_lowercase()
}

/// Every evidence file of the scenario, once, in the order it was written.
fn artifacts(s: &ScenarioResult) -> Vec<(String, PathBuf)> {
    let mut seen: Vec<(String, PathBuf)> = Vec::new();
    let all = s
        .steps
        .iter()
        .flat_map(|step| step.evidence.iter())
        .chain(s.failure.iter().flat_map(|f| f.evidence.iter()))
        .chain(s.cleanup_failure.iter().flat_map(|f| f.evidence.iter()));
    for e in all {
        if !seen.iter().any(|(_, p)| p == &e.path) {
            seen.push((e.kind.clone(), e.path.clone()));
        }
    }
    seen
}

fn link(report_dir: &Path, path: &Path, text: &str) -> Markup {
    match relative_href(report_dir, path) {
        Some(href) => html! { a href=(href) { (text) } },
        None => html! { code { (text) } },
    }
}

/// A folder link, shown as its path relative to the report.
pub(super) fn folder_link(report_dir: &Path, dir: &Path) -> Markup {
    let text = relative_href(report_dir, dir).unwrap_or_else(|| dir.display().to_string());
    link(report_dir, dir, &text)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn failure_block(f: &FailureRecord, title: &str, cleanup: bool) -> Markup {
    html! {
        div class={ "failure" @if cleanup { " cleanup" } } {
            h4 { (title) }
            dl class="facts" {
                dt { "Code" }
                dd { code { (f.code) } " (" (class_name(f.failure_class)) ")" }
                dt { "Message" }
                dd class="message" { (f.message) }
                @if let Some(w) = &f.waited {
                    dt { "Waited" }
                    dd { (w.waited_ms) " ms" }
                    dt { "Last seen" }
                    dd class="message" { (w.last_seen) }
                }
                @if let Some(path) = &f.step_path {
                    dt { "Step" }
                    dd { code { (path) } }
                }
                @if let Some(at) = &f.location {
                    dt { "At" }
                    dd { code { (at) } }
                }
            }
        }
    }
}

/// A `details` block of what the page logged at the failure (console messages, page errors):
/// open when asked and there is something to see, `empty` said when there is nothing.
fn log_block<T>(
    open: bool,
    title: &str,
    empty: &str,
    items: &[T],
    item: impl Fn(&T) -> Markup,
) -> Markup {
    html! {
        details open[open && !items.is_empty()] {
            summary { (title) " (" (items.len()) ")" }
            @if items.is_empty() {
                p class="note" { (empty) }
            } @else {
                ul class="log" {
                    @for i in items {
                        li { (item(i)) }
                    }
                }
            }
        }
    }
}

/// The `<article>` of scenario `index` of the run.
/// A failed visual comparison: expected and actual under one slider (drag to wipe from one to
/// the other), then the three images side by side.
fn visual_block(v: &super::attachments::VisualComparison, report_dir: &Path) -> Markup {
    let shown = [
        ("Expected (baseline)", &v.expected),
        ("Actual", &v.actual),
        ("Difference", &v.diff),
    ];
    html! {
        section class="visual" aria-label="Visual comparison" {
            h4 { "Visual comparison" }
            @if let (Some(expected), Some(actual)) = (&v.expected, &v.actual) {
                div class="compare" {
                    img class="compare-expected" src=(expected.data_uri) alt="Expected (baseline)";
                    img class="compare-actual" src=(actual.data_uri) alt="Actual";
                }
                label class="compare-label" {
                    "Expected ◀ "
                    input type="range" class="compare-slider" min="0" max="100" value="50"
                        aria-label="Expected on the left, actual on the right";
                    " ▶ Actual"
                }
            }
            div class="side-by-side" {
                @for (caption, image) in shown {
                    @if let Some(image) = image {
                        figure {
                            img src=(image.data_uri) alt=(caption);
                            figcaption { (caption) " (" (link(report_dir, &image.path, &file_name(&image.path))) ")" }
                        }
                    }
                }
            }
        }
    }
}

pub(super) fn scenario(
    index: usize,
    s: &ScenarioResult,
    attachments: &ScenarioAttachments,
    report_dir: &Path,
) -> Markup {
    let anchor = format!("s-{}", index + 1);
    let (word, class) = status_word(s.status);
    let open = s.status != ScenarioStatus::Passed;
    let tags = serde_json::to_string(&s.tags).unwrap_or_else(|_| "[]".into());
    let files = artifacts(s);
    html! {
        article class="scenario" id=(anchor) data-status=(s.status.as_str()) data-tags=(tags)
            data-search=(search_text(s)) aria-labelledby={ (anchor) "-h" } {
            h3 id={ (anchor) "-h" } {
                span class={ "badge " (class) } { (word) }
                span { (s.name) }
                span class="id" { code { (s.id) } }
            }
            p class="meta" {
                span { "file " code { (s.file) } }
                span { "took " (duration(s.duration_ms)) }
                @if !s.tags.is_empty() {
                    span { "tags " (s.tags.join(", ")) }
                }
            }
            @if let Some(skip) = &s.skip {
                p class="meta" { "Not run — " (skip.line()) }
            }
            @if s.dependency_only {
                p class="meta" { "Run as a dependency of a selected scenario" }
            }
            @if let Some(f) = &s.failure {
                (failure_block(f, "Failure", false))
            }
            @for image in &attachments.screenshots {
                figure {
                    img src=(image.data_uri) alt={ "Screenshot of the page when " (s.id) " failed" };
                    figcaption {
                        "The page at the failure (" (link(report_dir, &image.path, &file_name(&image.path))) ")"
                    }
                }
            }
            @if let Some(visual) = &attachments.visual {
                (visual_block(visual, report_dir))
            }
            @for (i, f) in s.soft_failures.iter().enumerate() {
                (failure_block(f, &format!("Soft expect {} failed", i + 1), true))
            }
            @if let Some(f) = s.hook_failure.as_ref().filter(|h| s.failure.as_ref().map(|v| &v.step_path) != Some(&h.step_path)) {
                (failure_block(f, "after_each failed (the verdict above stands)", true))
            }
            @if let Some(f) = &s.cleanup_failure {
                (failure_block(f, "Cleanup failure (the verdict above stands)", true))
            }
            @if let Some(why) = &s.last_green_not_written {
                p class="note" {
                    "The last-green record was not written: " (why) " (a later failure is compared \
                     with an older record, or with none)."
                }
            }
            @if s.steps.is_empty() {
                p class="note" { "No step ran." }
            } @else {
                details open[open] {
                    summary { "Steps (" (s.steps.len()) ")" }
                    table {
                        thead {
                            tr {
                                th scope="col" class="num" { "#" }
                                th scope="col" { "Step" }
                                th scope="col" { "Kind" }
                                th scope="col" { "At" }
                                th scope="col" { "Status" }
                                th scope="col" class="num" { "Duration" }
                            }
                        }
                        tbody {
                            @for row in tree::rows(s) {
                                @let depth = depth_class(row.depth);
                                @match row.node {
                                    tree::Node::Group { group, failed } => {
                                        @let status = if failed { StepStatus::Failed } else { StepStatus::Passed };
                                        @let (group_status, group_class) = step_word(status);
                                        tr class={ "group-row" (depth.as_deref().map(|d| format!(" {d}")).unwrap_or_default()) } {
                                            td class="num" {}
                                            td class="step-name" { (tree::title(group)) }
                                            td { code { "group" } }
                                            td {}
                                            td { span class={ "badge " (group_class) } { (group_status) } }
                                            td class="num" {}
                                        }
                                    }
                                    tree::Node::Step(step) => {
                                        @let (step_status, step_class) = step_word(step.status);
                                        @let failed = (step.status == StepStatus::Failed).then_some("step-failed");
                                        @let classes = [depth.as_deref(), failed].into_iter().flatten().collect::<Vec<_>>().join(" ");
                                        tr class=[(!classes.is_empty()).then_some(classes)] {
                                            td class="num" { (step.index + 1) }
                                            td class=[depth.is_some().then_some("step-name")] {
                                                (step.label.as_deref().unwrap_or(&step.kind))
                                                @if step.soft { " " span class="note" { "(soft)" } }
                                            }
                                            td { code { (step.kind) } }
                                            td { code { (step.location) } }
                                            td { span class={ "badge " (step_class) } { (step_status) } }
                                            td class="num" { (duration(step.duration_ms)) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(console) = &attachments.console {
                (log_block(open, "Console at the failure", "The page logged nothing.", console, |line| html! {
                    span class="level" { (line.level) }
                    (line.text)
                    @if let Some(source) = &line.source {
                        " " span class="note" { (source) }
                    }
                }))
            }
            @if let Some(errors) = &attachments.page_errors {
                (log_block(open, "Page errors at the failure", "No uncaught page error.", errors, |error| html! {
                    (error.message)
                    @if let Some(source) = &error.source {
                        " " span class="note" { (source) }
                    }
                }))
            }
            @for note in &attachments.notes {
                p class="note" { (note) }
            }
            @if let Some(view) = &attachments.trace {
                (super::trace::section(&anchor, view, s.trace.as_ref().and_then(|t| t.since_last_green.as_ref())))
            }
            @if !files.is_empty() {
                details {
                    summary { "Artifacts (" (files.len()) ")" }
                    ul {
                        @for (kind, path) in &files {
                            li { (kind) ": " (link(report_dir, path, &file_name(path))) }
                        }
                        @if let Some(dir) = &s.artifact_dir {
                            li { "folder: " (folder_link(report_dir, dir)) }
                        }
                    }
                }
            } @else if let Some(dir) = &s.artifact_dir {
                p class="meta" { "Artifact folder: " (folder_link(report_dir, dir)) }
            }
        }
    }
}

/// The class that indents a step-table row `depth` levels (hooks and `use` groups, §2.2): a class
/// because the page's Content-Security-Policy allows no inline style.
fn depth_class(depth: usize) -> Option<String> {
    (depth > 0).then(|| format!("depth-{}", depth.min(9)))
}
