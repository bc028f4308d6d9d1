//! A scenario's step trace in the report: a timeline of steps (a vertical tab list: arrow keys,
//! Home and End move through it, the report's own script switches the panel), and per step the
//! screenshot after it (an inline SVG, so the point a pointer step pressed — and a drag's path to
//! where it released — is marked without any inline style), what the step changed in the outline, the outline after it, its console
//! messages, page errors and requests (each request's recorded bodies in a collapsed
//! `<details>`, which opens by keyboard without the script), and what changed there since the last green run; beside
//! it the scenario's ACL source with the selected step's line highlighted. Each of these parts
//! is rendered once and `trace_fit.rs` decides, on the rendered sizes, which of them fit the
//! report's per-scenario budget; the section is then assembled from the parts kept and the
//! placeholders of the others.
//!
//! Without the script the first panel (the failed step's, when one failed) is shown and the
//! others stay hidden; every panel is still in the document for assistive technology that
//! reads it as a whole.

use super::scenario::duration;
use super::trace_fit::{self, Cuts, Kept, Part};
use super::trace_view::{TraceView, TRACE_REPORT_BUDGET};
use crate::result::StepStatus;
use crate::trace::diff::{multiset_minus, without_ref, StepChange, TraceDiff};
use crate::trace::record::{Trace, TraceStep};
use a3s_test_driver::trace::{CandidateReason, TargetCandidates};
use a3s_test_driver::trace_body::{BodyOmitted, TraceBody};
use maud::{html, Markup};

/// The trace section of scenario `anchor` (its element id prefix), at most
/// [`TRACE_REPORT_BUDGET`] bytes as written into the page: each step's parts are rendered, then
/// [`trace_fit`] decides on their rendered sizes which of them fit.
pub(super) fn section(anchor: &str, view: &TraceView, diff: Option<&TraceDiff>) -> Markup {
    let budget = TRACE_REPORT_BUDGET as usize;
    let Some(trace) = view.trace.as_ref().filter(|t| !t.steps.is_empty()) else {
        let whole = frame(
            anchor,
            view,
            diff,
            None,
            html! {
                @if view.trace.is_some() { p class="note" { "No step ran." } }
            },
        );
        return within(whole, anchor, budget);
    };
    let parts = StepParts::render(anchor, trace, view, diff);
    let first = trace_fit::first_steps(trace, diff);
    let assemble = |kept: &Kept, note: Option<String>| {
        frame(
            anchor,
            view,
            diff,
            note,
            timeline(anchor, trace, diff, &parts, kept),
        )
    };
    let none = Kept::default();
    let smallest = assemble(
        &none,
        trace_fit::cut_note(&Cuts::worst_case(trace.steps.len())),
    );
    let Some(left) = budget.checked_sub(smallest.0.len()) else {
        return too_large(anchor, trace.steps.len());
    };
    let growth = |part: Part| parts.growth(part, trace);
    let order = trace_fit::part_order(&first, trace.steps.len(), &parts.has_since);
    let kept = trace_fit::choose(left, order, growth);
    let cuts = kept.cuts(trace.steps.len(), &parts.has_image, &parts.has_since);
    within(assemble(&kept, trace_fit::cut_note(&cuts)), anchor, budget)
}

/// `whole`, or the short note that replaces it should it still be over `budget` (it cannot be,
/// by [`trace_fit::choose`]'s accounting; the check keeps the bound a fact, not a promise).
fn within(whole: Markup, anchor: &str, budget: usize) -> Markup {
    if whole.0.len() <= budget {
        whole
    } else {
        too_large(anchor, 0)
    }
}

/// The section when even its timeline, step facts and notes are over the budget.
fn too_large(anchor: &str, steps: usize) -> Markup {
    let heading = format!("{anchor}-trace-h");
    html! {
        section class="trace" aria-labelledby=(heading) {
            h4 id=(heading) { "Trace" }
            p class="note cut" {
                "This trace is too large for the report even without its screenshots, outlines, \
                 logs and source"
                @if steps > 0 { " (" (steps) " steps)" }
                ": trace.json in the scenario's folder has it all."
            }
        }
    }
}

/// The section around `body`: heading, notes (the budget's last), the comparison's summary.
fn frame(
    anchor: &str,
    view: &TraceView,
    diff: Option<&TraceDiff>,
    budget_note: Option<String>,
    body: Markup,
) -> Markup {
    let heading = format!("{anchor}-trace-h");
    html! {
        section class="trace" aria-labelledby=(heading) {
            h4 id=(heading) { "Trace" }
            @for note in &view.notes {
                p class="note cut" { (note) }
            }
            @if let Some(note) = budget_note {
                p class="note cut" { (note) }
            }
            @if let Some(diff) = diff {
                (diff_summary(diff, view.trace.as_ref()))
            }
            (body)
        }
    }
}

fn diff_summary(diff: &TraceDiff, trace: Option<&Trace>) -> Markup {
    let kind = |index: usize| {
        trace
            .and_then(|t| t.steps.iter().find(|s| s.index == index))
            .map(|s| s.kind.clone())
            .unwrap_or_default()
    };
    html! {
        @match &diff.first_difference {
            Some(at) => p class="diff-first" {
                strong { "Since the last green run: " }
                "the page first differs after step " (at.index + 1) " ("
                code { (kind(at.index)) } ", line " (at.line) ")."
            },
            None => p class="diff-first" {
                strong { "Since the last green run: " }
                "the page is the same after every step compared."
            },
        }
    }
}

/// The step selected first: the first failed step, else the first.
pub(super) fn first_selected(trace: &Trace) -> usize {
    trace
        .steps
        .iter()
        .position(|s| s.status == StepStatus::Failed)
        .unwrap_or(0)
}

/// Every step's parts rendered once: what is always shown (its facts) and what the budget may
/// leave out (screenshot, changes since the last green run, outline and logs), with the
/// placeholders that say so.
struct StepParts {
    head: Vec<Markup>,
    image: Vec<Option<Markup>>,
    since: Vec<Option<Markup>>,
    text: Vec<Markup>,
    source: Markup,
    has_image: Vec<bool>,
    has_since: Vec<bool>,
}

impl StepParts {
    fn render(
        anchor: &str,
        trace: &Trace,
        view: &TraceView,
        diff: Option<&TraceDiff>,
    ) -> StepParts {
        let steps = &trace.steps;
        let change =
            |step: &TraceStep| diff.and_then(|d| d.steps.iter().find(|c| c.at.index == step.index));
        let image: Vec<Option<Markup>> = steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let uri = view.images.get(i).cloned().flatten()?;
                step.screenshot
                    .as_ref()
                    .map(|shot| figure(step, shot, &uri))
            })
            .collect();
        let since: Vec<Option<Markup>> = steps.iter().map(|s| change(s).map(since_green)).collect();
        StepParts {
            head: steps.iter().map(|s| panel_head(trace, s)).collect(),
            text: steps
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let before: &[String] = if i == 0 { &[] } else { &steps[i - 1].outline };
                    panel_text(s, before)
                })
                .collect(),
            source: source_block(anchor, trace),
            has_image: image.iter().map(Option::is_some).collect(),
            has_since: since.iter().map(Option::is_some).collect(),
            image,
            since,
        }
    }

    /// Bytes `part` adds to the page over the placeholder shown when it is left out.
    fn growth(&self, part: Part, trace: &Trace) -> usize {
        let len = |m: &Option<Markup>| m.as_ref().map_or(0, |m| m.0.len());
        match part {
            Part::Image(i) => len(&self.image[i]).saturating_sub(IMAGE_CUT.len()),
            Part::SinceGreen(i) => len(&self.since[i]).saturating_sub(SINCE_CUT.len()),
            Part::Text(i) => self.text[i].0.len().saturating_sub(TEXT_CUT.len()),
            Part::Source => self
                .source
                .0
                .len()
                .saturating_sub(source_cut(trace).0.len()),
        }
    }
}

/// The placeholder of a step's screenshot left out by the budget (as rendered).
const IMAGE_CUT: &str = "<p class=\"note cut\">The screenshot after this step is left out of the \
     report (see the note above; it is in the trace folder).</p>";
/// The placeholder of a step's outline and logs left out by the budget (as rendered).
const TEXT_CUT: &str =
    "<p class=\"note cut\">The outline and logs of this step are left out of the \
     report (see the note above).</p>";
/// The placeholder of a step's changes since the last green run left out by the budget.
const SINCE_CUT: &str = "<p class=\"note cut\">What changed at this step since the last green run \
     is left out of the report (see the note above; the JSON result has it).</p>";

fn source_cut(trace: &Trace) -> Markup {
    html! {
        p class="note cut" { "The ACL source (" (trace.file) ") is left out of the report (see the note above)." }
    }
}

fn timeline(
    anchor: &str,
    trace: &Trace,
    diff: Option<&TraceDiff>,
    parts: &StepParts,
    kept: &Kept,
) -> Markup {
    let selected = first_selected(trace);
    let source_id = format!("{anchor}-src");
    let differs = diff
        .and_then(|d| d.first_difference.as_ref())
        .map(|a| a.index);
    html! {
        @if !trace.traced {
            @if trace.cuts.is_empty() {
                p class="note" { "This surface records no page captures: the steps are listed without pages." }
            } @else {
                // The trace says why in its cuts (an agent session started without --trace).
                p class="note" { "No page was captured: the steps are listed without pages." }
            }
        }
        div class="trace-view" {
            div class="timeline" role="tablist" aria-orientation="vertical"
                aria-label={ "Steps of " (trace.scenario) } data-source=(source_id) {
                @for (i, step) in trace.steps.iter().enumerate() {
                    @let on = i == selected;
                    button type="button" role="tab" id={ (anchor) "-t" (i) }
                        aria-controls={ (anchor) "-p" (i) } aria-selected=(on)
                        tabindex=(if on { "0" } else { "-1" }) data-line=(step.line)
                        class=(if step.status == StepStatus::Failed { "failed-step" } else { "" }) {
                        span class="n" { (i + 1) "." }
                        " " code { (step.kind) }
                        @if let Some(label) = &step.label { " " (label) }
                        @if step.status == StepStatus::Failed { " " span class="badge failed" { "failed" } }
                        @if differs == Some(step.index) { " " span class="badge differs" { "page differs" } }
                    }
                }
            }
            div class="panels" {
                @for i in 0..trace.steps.len() {
                    div role="tabpanel" id={ (anchor) "-p" (i) } aria-labelledby={ (anchor) "-t" (i) }
                        tabindex="0" hidden[i != selected] {
                        (parts.head[i])
                        @if let Some(image) = &parts.image[i] {
                            @if kept.has(Part::Image(i)) { (image) } @else { (maud::PreEscaped(IMAGE_CUT)) }
                        }
                        @if let Some(since) = &parts.since[i] {
                            @if kept.has(Part::SinceGreen(i)) { (since) } @else { (maud::PreEscaped(SINCE_CUT)) }
                        }
                        @if kept.has(Part::Text(i)) { (parts.text[i]) } @else { (maud::PreEscaped(TEXT_CUT)) }
                    }
                }
            }
        }
        @if kept.has(Part::Source) {
            (parts.source)
        } @else {
            (source_cut(trace))
        }
    }
}

/// The scenario's ACL source, the first selected step's line highlighted (the script moves it).
fn source_block(anchor: &str, trace: &Trace) -> Markup {
    let selected_line = trace.steps[first_selected(trace)].line;
    html! {
        details class="source-block" open {
            summary { "ACL source (" (trace.file) ")" }
            pre class="source" id={ (anchor) "-src" } tabindex="0" aria-label={ "ACL source of " (trace.scenario) } {
                @for (k, line) in trace.source.lines.iter().enumerate() {
                    @let n = trace.source.first_line + k;
                    span class=(if n == selected_line { "src-line current" } else { "src-line" }) data-line=(n) {
                        span class="ln" aria-hidden="true" { (n) }
                        (line) "\n"
                    }
                }
            }
        }
    }
}
/// A step's facts: what it was, where, its result, the resolver's candidates for a failed one.
fn panel_head(trace: &Trace, step: &TraceStep) -> Markup {
    html! {
        h5 { "Step " (step.index + 1) ": " code { (step.kind) } @if let Some(l) = &step.label { " " (l) } }
        dl class="facts" {
            dt { "At" }
            dd { code { (trace.file) ":" (step.line) } }
            dt { "Result" }
            dd {
                @if step.status == StepStatus::Failed { "failed" } @else { "passed" }
                " in " (duration(step.duration_ms))
            }
            @if let Some(l) = &step.locator {
                dt { "Found by" }
                dd { code { (l) } }
            }
            @if let Some(r) = &step.resolved {
                dt { "Acted on" }
                dd { (r) }
            }
            @if let Some(f) = &step.failure {
                dt { "Failure" }
                dd class="message" { code { (f.code) } " " (f.message) }
            }
        }
        @for c in &step.candidates {
            (candidates(c))
        }
        @for m in &step.missing {
            p class="note" { (m) }
        }
    }
}

/// The screenshot after a step (data URI `uri`), the point a pointer step pressed ringed (and a
/// drag's path to where it released).
fn figure(step: &TraceStep, shot: &crate::trace::record::TraceShot, uri: &str) -> Markup {
    html! {
        figure {
            svg viewBox={ "0 0 " (shot.width) " " (shot.height) } role="img"
                aria-label={ "The page after step " (step.index + 1) } class="shot" {
                image href=(uri) x="0" y="0" width=(shot.width) height=(shot.height) {}
                @if let (Some((x1, y1)), Some((x2, y2))) = (shot.point, shot.release) {
                    line class="drag" x1=(format!("{x1:.1}")) y1=(format!("{y1:.1}"))
                        x2=(format!("{x2:.1}")) y2=(format!("{y2:.1}")) {}
                    circle class="release" cx=(format!("{x2:.1}")) cy=(format!("{y2:.1}")) r="6" {}
                }
                @if let Some((x, y)) = shot.point {
                    circle class="point" cx=(format!("{x:.1}")) cy=(format!("{y:.1}")) r="9" {}
                }
            }
            figcaption {
                "The page after the step"
                @match (shot.point, shot.release) {
                    (Some(_), Some(_)) => "; the ring marks where the drag pressed, the line its path, the dot where it released",
                    (Some(_), None) => "; the ring marks where it pressed",
                    _ => "",
                }
            }
        }
    }
}

/// What a step changed in the outline, the outline after it, its console, errors and requests.
fn panel_text(step: &TraceStep, before: &[String]) -> Markup {
    let stripped = |l: &[String]| l.iter().map(|x| without_ref(x)).collect::<Vec<_>>();
    let (was, now) = (stripped(before), stripped(&step.outline));
    let added = multiset_minus(&now, &was);
    let removed = multiset_minus(&was, &now);
    html! {
        @if !added.is_empty() || !removed.is_empty() {
            h6 { "What the step changed on the page" }
            ul class="changes" {
                @for l in &removed { li class="removed" { span class="mark" { "− removed " } code { (l) } } }
                @for l in &added { li class="added" { span class="mark" { "+ added " } code { (l) } } }
            }
        }
        @if step.outline_from_last_green {
            p class="note" { "The page's fingerprint after this step equals the last green run's: the outline shown is that run's (not read again)." }
        }
        @if step.outline_carried {
            p class="note" { "The page was not read after this step (it only checks the page); the outline is the one before it." }
        }
        details {
            summary { "Outline after the step (" (step.outline.len()) " lines)" }
            pre class="outline" tabindex="0" { @for l in &step.outline { (l) "\n" } }
        }
        @if !step.console.is_empty() {
            h6 { "Console (" (step.console.len()) ")" }
            ul class="log" {
                @for c in &step.console { li { span class="level" { (c.level) } (c.text) } }
            }
        }
        @if !step.page_errors.is_empty() {
            h6 { "Page errors (" (step.page_errors.len()) ")" }
            ul class="log" {
                @for e in &step.page_errors { li { (e.message) } }
            }
        }
        @if !step.network.is_empty() {
            h6 { "Network (" (step.network.len()) ")" }
            table class="network" {
                thead { tr {
                    th scope="col" { "Method" } th scope="col" { "URL" } th scope="col" { "Status" }
                    th scope="col" class="num" { "Time" } th scope="col" class="num" { "Bytes" }
                } }
                tbody {
                    @for r in &step.network {
                        tr {
                            td { (r.method) }
                            td {
                                code { (r.url) }
                                @if r.request_body.is_some() || r.response_body.is_some() {
                                    details class="bodies" {
                                        summary { "Bodies" }
                                        @if let Some(b) = &r.request_body { (body("Sent", b)) }
                                        @if let Some(b) = &r.response_body { (body("Answer", b)) }
                                    }
                                }
                            }
                            td {
                                @match (&r.failed, r.status) {
                                    (Some(why), _) => { "failed: " (why) },
                                    (None, Some(s)) => { (s) },
                                    (None, None) => { "pending" },
                                }
                            }
                            td class="num" { @if let Some(ms) = r.duration_ms { (ms) " ms" } }
                            td class="num" { @if let Some(b) = r.received_bytes { (b) } }
                        }
                    }
                }
            }
        }
    }
}

/// One body of a request in the network panel: its text (escaped by the template, in a
/// focusable block so a long one scrolls by keyboard), or why the trace left it out.
fn body(which: &str, b: &TraceBody) -> Markup {
    html! {
        p class="body-head" {
            strong { (which) } " "
            @if !b.mime_type.is_empty() { code { (b.mime_type) } " " }
            @if let Some(n) = b.bytes { "(" (n) " bytes)" }
            @if let Some(why) = b.body_omitted { " — not recorded: " (BodyOmitted::as_str(why)) }
        }
        @if let Some(text) = &b.text {
            pre class="outline body" tabindex="0" { (text) }
        }
    }
}

/// What the resolver saw for one target of a failed step, and why each element was not acted
/// on.
fn candidates(c: &TargetCandidates) -> Markup {
    let what = if c.matches > 0 {
        format!("{} element(s) match", c.matches)
    } else {
        "nothing matches; near misses".to_string()
    };
    html! {
        div class="candidates" {
            h6 { "Candidates for " code { (c.target) } " (" (what) ")" }
            @if c.candidates.is_empty() {
                p class="note" { "The resolver saw no element close to this target." }
            } @else {
                ul class="log" {
                    @for e in &c.candidates {
                        li {
                            code { (e.element) } " — "
                            @if e.reasons.is_empty() {
                                "actionable when the trace read the page"
                            } @else {
                                @for (k, r) in e.reasons.iter().enumerate() {
                                    @if k > 0 { "; " }
                                    span class="level" { (reason_name(r.reason)) } (r.detail)
                                }
                            }
                        }
                    }
                }
                @if c.total > c.candidates.len() {
                    p class="note cut" { (c.total - c.candidates.len()) " more not listed." }
                }
            }
        }
    }
}

/// The short word a candidate's reason is shown under.
fn reason_name(r: CandidateReason) -> &'static str {
    match r {
        CandidateReason::Ambiguous => "ambiguous",
        CandidateReason::Removed => "removed",
        CandidateReason::Hidden => "hidden",
        CandidateReason::Disabled => "disabled",
        CandidateReason::NotEditable => "not editable",
        CandidateReason::OutsideViewport => "outside the viewport",
        CandidateReason::Covered => "covered",
        CandidateReason::NotActionable => "not actionable",
        CandidateReason::HiddenFromAccessibility => "hidden from accessibility",
        CandidateReason::OtherName => "other name",
        CandidateReason::OutsideScope => "outside the scope",
        CandidateReason::OtherIndex => "other index",
        CandidateReason::FilteredOut => "filtered out",
    }
}

fn since_green(change: &StepChange) -> Markup {
    html! {
        div class="since-green" {
            h6 { "Since the last green run" }
            @if change.not_in_last_green {
                p class="note" { "The last green run had no such step here." }
            }
            ul class="changes" {
                @for l in &change.outline_removed { li class="removed" { span class="mark" { "− gone " } code { (l) } } }
                @for l in &change.outline_added { li class="added" { span class="mark" { "+ new " } code { (l) } } }
                @for r in &change.requests_new { li class="added" { span class="mark" { "+ new request " } code { (r.method) " " (r.url) } " → " (r.outcome) } }
                @for r in &change.requests_gone { li class="removed" { span class="mark" { "− request gone " } code { (r.method) " " (r.url) } " (was " (r.outcome) ")" } }
                @for r in &change.requests_changed { li class="changed" { span class="mark" { "~ request " } code { (r.method) " " (r.url) } " " (r.was) " → " (r.now) } }
                @for e in &change.errors_new { li class="added" { span class="mark" { "+ new error " } (e) } }
            }
        }
    }
}
