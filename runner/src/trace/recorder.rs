//! Building one scenario attempt's trace while it runs: a capture before the first step and
//! after each step (through the driver contract), the screenshot budget, and at the end the
//! one write — or none, when the mode keeps no trace of a pass — plus the last-green record and
//! the comparison with it.

use super::body_budget::BodyBudget;
use super::diff;
use super::last_green;
use super::record::{Trace, TraceFailure, TraceShot, TraceSource, TraceStep, TRACE_SCHEMA};
use super::{
    TraceMode, TraceSummary, CAPTURE_BOUND, MAX_OUTLINE_LINES, MAX_SOURCE_LINES, SCREENSHOT_BUDGET,
    SCREENSHOT_WIDTH,
};
use crate::plan::PlannedScenario;
use crate::result::{ScenarioStatus, StepResult, StepStatus};
use crate::session::view::{outline, text, Numbering};
use crate::step::DRIVER_GRACE;
use a3s_test_driver::trace::{StepCapture, TraceMark, TraceWant};
use a3s_test_driver::{EvidenceKind, StepDetail, SurfaceContext, VarSource};
use a3s_test_fsroot::Dir;
use a3s_test_lang::ir::{Action, ActionKind, Step, TextValue};
use tokio::time::Instant;

/// Longest outline line kept, in characters.
const OUTLINE_LINE_CHARS: usize = 300;

/// The trace file's name in the scenario folder.
pub const TRACE_FILE: &str = "trace.json";

/// What an attempt's [`Recorder::finish`] leaves: its trace, and whether its pass was kept as
/// the last green run (a refusal must reach the result, or the next failure's missing
/// comparison goes unexplained).
#[derive(Debug)]
pub struct Finished {
    /// The trace's summary, when the mode keeps this attempt's trace.
    pub summary: Option<TraceSummary>,
    /// Why the last-green record of this pass was not written (the store refused it or the
    /// disk failed), when it was not.
    pub last_green_not_written: Option<String>,
}

/// One attempt's trace in the making (screenshots held in memory, within the budget, until
/// the attempt ends and the mode decides whether they are written).
#[derive(Debug)]
pub struct Recorder {
    mode: TraceMode,
    trace: Trace,
    shots: Vec<(String, Vec<u8>)>,
    numbering: Numbering,
    dropped: usize,
    over_budget: usize,
    /// Values of the `env("NAME")` texts the steps so far typed, in each form the page may show
    /// them back in ([`encodings`]), longest first, with the words that replace them: the page
    /// shows them back (a field's value in the outline, a URL, a body), and they must reach
    /// nothing but the page.
    secrets: Vec<(String, String)>,
    /// The scenario's last green trace, read once at the start: what a failure is compared with,
    /// and the outlines an unchanged page reuses.
    green: Option<Trace>,
    /// Lines [`Recorder::add_source_line`] was given (more than it keeps past the cap).
    source_lines: usize,
    /// The body text the steps kept so far, within the scenario's bound.
    bodies: BodyBudget,
}

impl Recorder {
    /// A recorder for attempt `attempt` of `planned`, when `mode` records it.
    pub fn new(planned: &PlannedScenario, attempt: u32, mode: TraceMode) -> Option<Recorder> {
        if !mode.records(attempt) {
            return None;
        }
        Some(Recorder {
            mode,
            trace: Trace {
                schema: TRACE_SCHEMA.to_string(),
                scenario: planned.id.to_string(),
                file: planned.suite.source.display(),
                attempt,
                status: ScenarioStatus::Passed,
                source: source_of(&planned.suite.source.text, planned.scenario.span),
                steps: Vec::new(),
                screenshot_bytes: 0,
                cuts: Vec::new(),
                traced: false,
            },
            shots: Vec::new(),
            numbering: Numbering::default(),
            dropped: 0,
            over_budget: 0,
            secrets: Vec::new(),
            green: None,
            source_lines: 0,
            bodies: BodyBudget::default(),
        })
    }

    /// Start the driver's recording. Nothing is read before the first step: a fresh context
    /// shows a blank page, and reading it cost a tenth of a second per scenario.
    /// The scenario's last green trace is read from `last_green` here, once.
    pub fn begin<C: SurfaceContext>(&mut self, ctx: &mut C, last_green: Option<&Dir>) {
        // Under `retain-on-failure` a passing step is not photographed: no frames to draw.
        let frames = (self.mode != TraceMode::RetainOnFailure).then_some(SCREENSHOT_WIDTH);
        self.trace.traced = ctx.trace_start(frames);
        if self.trace.traced {
            self.green = last_green.and_then(|store| last_green::load(store, &self.trace.scenario));
        }
    }

    /// A recorder for an agent session's turns (`agent start --trace`, written by `agent finish
    /// --trace`): every mode's rule of `on` (each step photographed and read), no last-green
    /// record. Its source starts empty; each traced statement adds its line
    /// ([`Recorder::add_source_line`]), so a step's line is its statement's.
    pub fn session(name: &str, file: &str) -> Recorder {
        Recorder {
            mode: TraceMode::On,
            trace: Trace {
                schema: TRACE_SCHEMA.to_string(),
                scenario: name.to_string(),
                file: file.to_string(),
                attempt: 1,
                status: ScenarioStatus::Passed,
                source: TraceSource {
                    first_line: 1,
                    lines: Vec::new(),
                },
                steps: Vec::new(),
                screenshot_bytes: 0,
                cuts: Vec::new(),
                traced: false,
            },
            shots: Vec::new(),
            numbering: Numbering::default(),
            dropped: 0,
            over_budget: 0,
            secrets: Vec::new(),
            green: None,
            source_lines: 0,
            bodies: BodyBudget::default(),
        }
    }

    /// Append one line to the trace's source (at most [`MAX_SOURCE_LINES`]; later statements
    /// are counted in a cut) and return its 1-based line number.
    pub fn add_source_line(&mut self, line: &str) -> usize {
        self.source_lines += 1;
        if self.trace.source.lines.len() < MAX_SOURCE_LINES {
            self.trace.source.lines.push(line.to_string());
        }
        self.source_lines
    }

    /// Whether the surface captures pages for this trace ([`Recorder::begin`] said so).
    pub fn traced(&self) -> bool {
        self.trace.traced
    }

    /// Say, in the trace's `cuts`, why it holds less than the steps did.
    pub fn note_cut(&mut self, why: impl Into<String>) {
        self.trace.cuts.push(why.into());
    }

    /// Steps recorded so far.
    pub fn steps(&self) -> usize {
        self.trace.steps.len()
    }

    /// Where the page's logs stand before a step.
    pub fn mark<C: SurfaceContext>(&self, ctx: &C) -> TraceMark {
        ctx.trace_mark()
    }

    /// Record `step` (its result `record`, at ACL line `line`) and the page after it; the
    /// `env("NAME")` values it typed (read from `vars`) are replaced wherever the trace would
    /// show them.
    pub async fn step<C: SurfaceContext>(
        &mut self,
        ctx: &mut C,
        mark: TraceMark,
        (step, line): (&Step, usize),
        record: &StepResult,
        vars: &dyn VarSource,
    ) {
        self.note_secrets(step, vars);
        let mut traced = step_of(line, record);
        traced.locator = locator_of(&step.action);
        if !self.trace.traced {
            self.scrub(&mut traced);
            self.trace.steps.push(traced);
            return;
        }
        let budget_left = SCREENSHOT_BUDGET.saturating_sub(self.trace.screenshot_bytes);
        // A screenshot is most of a capture's cost: `retain-on-failure`, which pays it on every
        // passing run, takes one only after a step that failed (the outline, logs and requests
        // of every step are still recorded, and they are what the last-green comparison reads).
        let failed = record.status == StepStatus::Failed;
        let wanted = self.mode != TraceMode::RetainOnFailure || failed;
        let want = (wanted && budget_left > 0).then_some(SCREENSHOT_WIDTH);
        if wanted && want.is_none() {
            self.over_budget += 1;
        }
        // The outline is the rest of the cost: under `retain-on-failure` a passing step that
        // does not act on the page (an `expect`, a `wait`, a route …) carries the outline
        // before it instead.
        let read_only = !acts_on_page(step.action.kind());
        let page = !(self.mode == TraceMode::RetainOnFailure && read_only && !failed);
        // An `env("NAME")` value typed so far could be in the page: no fingerprint then.
        let fingerprint = page && self.secrets.is_empty();
        let want = TraceWant {
            screenshot_width: want,
            page,
            fingerprint,
            known_page: self.green_step(record).and_then(|g| g.page),
            read_only,
            // Bodies cost a browser command per answer: `retain-on-failure` reads them only
            // for the step that failed, so a passing run sends nothing more.
            bodies: wanted,
        };
        let started = std::time::Instant::now();
        let captured = capture(ctx, mark, want).await;
        a3s_test_driver::trace::timing(|| {
            format!(
                "{} step {} ({}): capture {:.1} ms",
                self.trace.scenario,
                record.index + 1,
                record.kind,
                started.elapsed().as_secs_f64() * 1000.0
            )
        });
        if failed && on_target(record) {
            traced.candidates = candidates(ctx, &step.action).await;
        }
        traced.page = captured.fingerprint;
        let reused = captured
            .same_as_known
            .then(|| self.green_step(record).map(|g| g.outline.clone()))
            .flatten();
        if let Some(outline) = reused {
            traced.outline = outline;
            traced.outline_from_last_green = true;
        } else if page {
            traced.outline = self.outline_of(&captured);
        } else {
            traced.outline = self
                .trace
                .steps
                .last()
                .map(|s| s.outline.clone())
                .unwrap_or_default();
            traced.outline_carried = true;
        }
        if let Some(image) = captured.screenshot {
            let size = image.bytes.len() as u64;
            if size <= budget_left {
                let file = format!(
                    "trace/step-{:03}.{}",
                    record.index + 1,
                    image.format.extension()
                );
                let scaled = |(x, y): (f64, f64)| (x * image.scale, y * image.scale);
                let (point, release) = record.detail.as_ref().map_or((None, None), points_of);
                let (point, release) = (point.map(scaled), release.map(scaled));
                traced.screenshot = Some(TraceShot {
                    file: file.clone(),
                    format: image.format,
                    width: image.width,
                    height: image.height,
                    bytes: size,
                    point,
                    release,
                });
                self.trace.screenshot_bytes += size;
                self.shots.push((file, image.bytes));
            } else {
                self.over_budget += 1;
            }
        }
        traced.console = captured.console;
        traced.page_errors = captured.page_errors;
        traced.network = captured.network;
        self.bodies.fit(&mut traced.network);
        traced.missing = captured.missing;
        self.scrub(&mut traced);
        self.dropped += captured.dropped;
        self.trace.steps.push(traced);
    }

    /// The last green run's record of the step at `record`'s place, when it is the same step
    /// and its page was read.
    fn green_step(&self, record: &StepResult) -> Option<&TraceStep> {
        self.green
            .as_ref()
            .and_then(|g| g.steps.get(record.index))
            .filter(|g| g.path == record.path && g.kind == record.kind && !g.outline_carried)
    }

    /// Record a step after which the page cannot be read (the run is cancelled, the browser
    /// is gone): the step, and why there is no page.
    pub fn step_without_page(&mut self, (step, line): (&Step, usize), record: &StepResult) {
        let mut traced = step_of(line, record);
        traced.locator = locator_of(&step.action);
        if self.trace.traced {
            traced
                .missing
                .push("no page capture: the run was cancelled or the browser is gone".into());
        }
        self.scrub(&mut traced);
        self.trace.steps.push(traced);
    }

    /// The attempt ended with `status`: write the trace into `dir` when the mode keeps it,
    /// refresh the last-green record of a pass (`in_run`: the ids of the run's scenarios, whose
    /// records the store's bound never removes), compare a failure with it. No summary when the
    /// mode keeps no trace of this attempt; a write that failed is named in the summary, a
    /// last-green record the store did not take in [`Finished::last_green_not_written`].
    /// Blocking file work (writes, `fsync`): the executor runs it on a blocking thread beside
    /// the context's close, off the scenario's path and the async workers.
    pub fn finish(
        mut self,
        dir: &Dir,
        status: ScenarioStatus,
        last_green: Option<&Dir>,
        in_run: &std::collections::HashSet<String>,
    ) -> Finished {
        self.trace.status = status;
        if self.over_budget > 0 {
            self.trace.cuts.push(format!(
                "{} screenshot(s) left out: the scenario's {} KB screenshot budget was spent",
                self.over_budget,
                SCREENSHOT_BUDGET / 1000
            ));
        }
        if self.source_lines > MAX_SOURCE_LINES {
            self.trace.cuts.push(format!(
                "{} statement line(s) left out of the source past its cap of {MAX_SOURCE_LINES}",
                self.source_lines - MAX_SOURCE_LINES
            ));
        }
        if let Some(cut) = self.bodies.cut() {
            self.trace.cuts.push(cut);
        }
        if self.dropped > 0 {
            self.trace.cuts.push(format!(
                "{} console, error or network entries left out past the per-step cap of {}",
                self.dropped,
                a3s_test_driver::trace::MAX_STEP_ENTRIES
            ));
        }
        let passed = status == ScenarioStatus::Passed;
        let mut last_green_not_written = None;
        let comparison = match (last_green, passed, self.trace.traced) {
            (Some(store), true, true) => {
                // A failure to keep the record only loses a later comparison, not the run: the
                // result says so.
                let started = std::time::Instant::now();
                let stored = last_green::store(store, &self.trace, self.green.as_ref(), in_run);
                a3s_test_driver::trace::timing(|| {
                    format!(
                        "{}: last-green record {} in {:.1} ms",
                        self.trace.scenario,
                        match &stored {
                            Ok(true) => "written",
                            Ok(false) => "unchanged, not written",
                            Err(_) => "not written (error)",
                        },
                        started.elapsed().as_secs_f64() * 1000.0
                    )
                });
                last_green_not_written = stored.err().map(|e| e.to_string());
                None
            }
            (Some(_), false, true) => self
                .green
                .as_ref()
                .map(|green| diff::compare(green, &self.trace)),
            _ => None,
        };
        if !self.mode.keeps(passed) {
            return Finished {
                summary: None,
                last_green_not_written,
            };
        }
        let started = std::time::Instant::now();
        let not_written = self.write(dir).err();
        a3s_test_driver::trace::timing(|| {
            format!(
                "{}: trace and {} image(s) written in {:.1} ms",
                self.trace.scenario,
                self.shots.len(),
                started.elapsed().as_secs_f64() * 1000.0
            )
        });
        Finished {
            summary: Some(TraceSummary {
                path: dir.path().join(TRACE_FILE),
                steps: self.trace.steps.len(),
                screenshot_bytes: self.trace.screenshot_bytes,
                since_last_green: comparison,
                not_written,
            }),
            last_green_not_written,
        }
    }

    /// The screenshots, then `trace.json` (atomically: a reader never sees half of it).
    fn write(&self, dir: &Dir) -> Result<(), String> {
        for (file, bytes) in &self.shots {
            a3s_test_driver::save_evidence(dir, file, EvidenceKind::Screenshot, bytes)
                .map_err(|f| f.message)?;
        }
        let json = serde_json::to_vec(&self.trace).map_err(|e| e.to_string())?;
        dir.write_atomic(TRACE_FILE, &json, a3s_test_fsroot::SHARED)
            .map_err(|e| format!("failed to write `{TRACE_FILE}`: {e}"))
    }

    /// Keep `value` out of the trace from now on, shown as `env("NAME")` for `var`: a session
    /// step typed it, as the agent wrote it, into a private field (the session's own records
    /// already hold the statement that way); the page may show it back elsewhere (an echo, a
    /// URL, a console line), and the trace must not.
    pub fn keep_out(&mut self, value: &str, var: &str) {
        self.remember(value, var);
    }

    /// Replace `value` by `env("NAME")` for `var` from now on, in every form the page may show
    /// it back in ([`encodings`]: an outline quotes it JSON-escaped, a form posts it
    /// URL-encoded).
    fn remember(&mut self, value: &str, var: &str) {
        let name = format!("env(\"{var}\")");
        for form in encodings(value) {
            if !self.secrets.iter().any(|(s, _)| *s == form) {
                self.secrets.push((form, name.clone()));
            }
        }
        // Longest first: a form that contains another is replaced whole.
        self.secrets.sort_by_key(|s| std::cmp::Reverse(s.0.len()));
    }

    /// Remember the value of each `env("NAME")` text `step` typed.
    fn note_secrets(&mut self, step: &Step, vars: &dyn VarSource) {
        let value = match &step.action {
            Action::Fill { value, .. }
            | Action::Type { value, .. }
            | Action::InsertText { value } => value,
            _ => return,
        };
        let TextValue::Env(name) = value else { return };
        if let Some(secret) = vars.var(name).and_then(|v| v.into_string().ok()) {
            self.remember(&secret, &name.to_string());
        }
    }

    /// Replace every remembered secret in what the page showed during `step`.
    fn scrub(&self, step: &mut TraceStep) {
        if self.secrets.is_empty() {
            return;
        }
        let clean = |text: &mut String| {
            for (secret, name) in &self.secrets {
                if text.contains(secret.as_str()) {
                    *text = text.replace(secret.as_str(), name);
                }
            }
        };
        step.console.iter_mut().for_each(|c| clean(&mut c.text));
        step.page_errors
            .iter_mut()
            .for_each(|e| clean(&mut e.message));
        step.network.iter_mut().for_each(|r| clean(&mut r.url));
        step.network
            .iter_mut()
            .flat_map(|r| [&mut r.request_body, &mut r.response_body])
            .flatten()
            .filter_map(|b| b.text.as_mut())
            .for_each(clean);
        step.missing.iter_mut().for_each(clean);
        // What the page showed also reaches the step's own facts: the element it resolved to,
        // a failure message quoting the page, the candidates' descriptions.
        step.resolved.iter_mut().for_each(clean);
        // An agent's ref is replaced by a locator built from the page's text.
        step.locator.iter_mut().for_each(clean);
        if let Some(failure) = &mut step.failure {
            clean(&mut failure.message);
        }
        for target in &mut step.candidates {
            for candidate in &mut target.candidates {
                clean(&mut candidate.element);
                candidate
                    .reasons
                    .iter_mut()
                    .for_each(|r| clean(&mut r.detail));
            }
        }
    }

    /// Outline lines of a capture as an agent observation shows them (refs numbered stably
    /// within the document), at most [`MAX_OUTLINE_LINES`].
    fn outline_of(&mut self, captured: &StepCapture) -> Vec<String> {
        let Some(snapshot) = &captured.snapshot else {
            return Vec::new();
        };
        let refs = self.numbering.refs(snapshot);
        let lines = outline::build(snapshot, &refs);
        // Secrets are replaced in the whole line, before it is clipped: a clipped secret
        // would no longer be found.
        let mut out: Vec<String> = lines
            .iter()
            .take(MAX_OUTLINE_LINES)
            .map(|l| {
                let mut line = text::line(l);
                for (secret, name) in &self.secrets {
                    if line.contains(secret.as_str()) {
                        line = line.replace(secret.as_str(), name);
                    }
                }
                outline::clip(&line, OUTLINE_LINE_CHARS)
            })
            .collect();
        if lines.len() > MAX_OUTLINE_LINES {
            out.push(format!(
                "… {} more lines",
                lines.len().saturating_sub(MAX_OUTLINE_LINES)
            ));
        }
        out
    }
}

/// Whether a step of `kind` may change what the page shows: it dispatches input, loads,
/// resizes, switches tab, moves the page's clock or applies context options. The others only
/// read the page or configure what is around it (routes, recordings, saved state), so the
/// page after them is the page before them unless the page changed on its own — which the
/// fingerprint and the screencast's frames still catch.
pub(crate) fn acts_on_page(kind: ActionKind) -> bool {
    use ActionKind as K;
    !matches!(
        kind,
        K::Expect
            | K::Wait
            | K::Snapshot
            | K::Screenshot
            | K::Accessibility
            | K::Console
            | K::PageErrors
            | K::Frame
            | K::NetworkRoute
            | K::NetworkUnroute
            | K::Request
            | K::RouteFromHar
            | K::Har
            | K::SaveStorageState
    )
}

/// A step's own facts, before any page capture.
fn step_of(line: usize, record: &StepResult) -> TraceStep {
    TraceStep {
        index: record.index,
        kind: record.kind.clone(),
        label: record.label.clone(),
        path: record.path.clone(),
        line,
        resolved: record.detail.as_ref().and_then(resolved),
        locator: None,
        status: record.status,
        duration_ms: record.duration_ms,
        failure: record.failure.as_ref().map(|f| TraceFailure {
            code: f.code.to_string(),
            message: f.message.clone(),
        }),
        candidates: Vec::new(),
        screenshot: None,
        outline: Vec::new(),
        outline_carried: false,
        outline_from_last_green: false,
        page: None,
        console: Vec::new(),
        page_errors: Vec::new(),
        network: Vec::new(),
        missing: Vec::new(),
    }
}

/// `secret` as a request or response body may carry it: as typed, JSON-escaped, and
/// URL-encoded the ways a form (`+` for a space) and a script's `encodeURIComponent` (`%20`,
/// and `!'()~` left as they are) do.
fn encodings(secret: &str) -> Vec<String> {
    let json = json_escaped(secret);
    let form: String = url::form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    let percent = form.replace('+', "%20");
    let component = [
        ("%21", "!"),
        ("%27", "'"),
        ("%28", "("),
        ("%29", ")"),
        ("%7E", "~"),
    ]
    .iter()
    .fold(percent.clone(), |s, (code, c)| s.replace(code, c));
    let mut forms = vec![secret.to_string(), json, form, percent, component];
    // Echoed back inside JSON once more (an API answering what it was sent).
    forms.push(json_escaped(&forms[1]));
    forms.sort();
    forms.dedup();
    forms.retain(|f| !f.is_empty());
    forms
}

/// `text` as it reads inside a JSON string.
fn json_escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted
        .strip_prefix('"')
        .and_then(|j| j.strip_suffix('"'))
        .unwrap_or(text)
        .to_string()
}

/// One bounded capture; a driver that overruns the bound gets the step listed as missing.
async fn capture<C: SurfaceContext>(ctx: &mut C, mark: TraceMark, want: TraceWant) -> StepCapture {
    let deadline = Instant::now() + CAPTURE_BOUND;
    match tokio::time::timeout(
        CAPTURE_BOUND + DRIVER_GRACE,
        ctx.trace_capture(mark, want, deadline),
    )
    .await
    {
        Ok(captured) => captured,
        Err(_) => StepCapture {
            traced: true,
            missing: vec![format!(
                "the capture did not finish within {} ms",
                CAPTURE_BOUND.as_millis()
            )],
            ..StepCapture::default()
        },
    }
}

/// Whether `record` failed on its target (the resolver's candidates explain it); a timeout
/// counts — a step waiting for its target to become actionable ends as one.
fn on_target(record: &StepResult) -> bool {
    use a3s_test_driver::FailureCode as C;
    record.failure.as_ref().is_some_and(|f| {
        matches!(
            f.code,
            C::TargetNotFound
                | C::TargetAmbiguous
                | C::TargetNotActionable
                | C::TargetCovered
                | C::Timeout
        )
    })
}

/// The resolver's candidates for the targets of a failed step, within the capture bound.
async fn candidates<C: SurfaceContext>(
    ctx: &mut C,
    action: &Action,
) -> Vec<a3s_test_driver::trace::TargetCandidates> {
    let deadline = Instant::now() + CAPTURE_BOUND;
    tokio::time::timeout(
        CAPTURE_BOUND + DRIVER_GRACE,
        ctx.trace_candidates(action, deadline),
    )
    .await
    .unwrap_or_default()
}

/// The element a step acted on, from its detail.
fn resolved(detail: &StepDetail) -> Option<String> {
    match detail {
        StepDetail::Clicked { element, hit, .. } => Some(format!("{element} (on top: {hit})")),
        StepDetail::Checked { element, .. }
        | StepDetail::Typed { element, .. }
        | StepDetail::Selected { element, .. } => Some(element.clone()),
        StepDetail::Element { element, hit, .. } => Some(match hit {
            Some(hit) => format!("{element} (on top: {hit})"),
            None => element.clone(),
        }),
        StepDetail::Pressed { element, .. } => element.clone(),
        StepDetail::Dragged { source, target, .. } => Some(format!("{source} → {target}")),
        _ => None,
    }
}

/// The locators `action`'s targets are resolved by, as ACL writes them (see
/// [`TraceStep::locator`]).
fn locator_of(action: &Action) -> Option<String> {
    let targets = action.targets();
    (!targets.is_empty()).then(|| {
        targets
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" → ")
    })
}

/// A viewport point in CSS px, when the step has one.
type Point = Option<(f64, f64)>;

/// The viewport point a pointer step pressed and, for a drag, where it released.
fn points_of(detail: &StepDetail) -> (Point, Point) {
    match detail {
        StepDetail::Clicked { x, y, .. } | StepDetail::Wheeled { x, y, .. } => {
            (Some((*x, *y)), None)
        }
        StepDetail::Dragged { from, to, .. } => (*from, *to),
        _ => (None, None),
    }
}

/// The ACL a trace shows: the whole file when it is short, else the scenario's own lines.
fn source_of(text: &str, span: a3s_test_lang::span::Span) -> TraceSource {
    let all: Vec<&str> = text.lines().collect();
    let (first, last) = if all.len() <= MAX_SOURCE_LINES {
        (1, all.len())
    } else {
        let (start, _) = a3s_test_lang::span::line_col(text, span.start);
        let (end, _) = a3s_test_lang::span::line_col(text, span.end);
        (start, end.min(start + MAX_SOURCE_LINES - 1))
    };
    TraceSource {
        first_line: first,
        lines: all
            .get(first.saturating_sub(1)..last)
            .unwrap_or_default()
            .iter()
            .map(|l| l.to_string())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::encodings;

    #[test]
    fn a_secret_is_known_in_every_form_a_body_carries_it() {
        let forms = encodings("p@ss \"word\"!");
        for form in [
            "p@ss \"word\"!",
            "p@ss \\\"word\\\"!",
            "p%40ss+%22word%22%21",
            "p%40ss%20%22word%22%21",
            "p%40ss%20%22word%22!",
            r#"p@ss \\\"word\\\"!"#,
        ] {
            assert!(forms.iter().any(|f| f == form), "{form} in {forms:?}");
        }
        assert_eq!(encodings("plain"), ["plain"], "one form when all agree");
    }
}
