//! The desktop surface's benchmarks (figures in `docs/benchmarks.md`, run by
//! `bench/gui-vs-pyatspi.sh`; never a timed test):
//! 1. observe: the whole tree of `mousepad` (GTK3, ~320 nodes) read as a find reads it, p50;
//! 2. click → change seen: a real click on gnome-calculator's `1`, until its display shows it,
//!    p50 (the app's own reaction included);
//! 3. ten calculator scenarios (Qt5's example: start, 7 × 6 = 42 by clicks, stop) here and the
//!    same steps in Python `pyatspi` (`bench/gui_pyatspi.py`) on the same desktop, one of ours
//!    then one of theirs, wall times.

use a3s_test_gui::find::{self, Query};
use a3s_test_gui::host::Host;
use a3s_test_gui::locate;
use a3s_test_gui::tree::{self, Limits};
use a3s_test_gui::wait::{self, Condition, TextMatch};
use a3s_test_gui::{Clicks, Desktop, DesktopOptions, Element, GuiError, Program, ProgramSpec};
use a3s_test_lang::ir::{Target, TextMatch as NameText};
use std::time::{Duration, Instant};

const QT_CALCULATOR: &str =
    "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator";
const WITHIN: Duration = Duration::from_secs(10);
const SCENARIOS: usize = 10;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), GuiError> {
    // The scenarios find through a host, as a suite's steps do (its kept reads included).
    let host = Host::owning(Desktop::start(&DesktopOptions::default()).await?);
    let desktop = host
        .desktop()
        .expect("the host owns the desktop it was given");
    observe(desktop).await?;
    click(desktop).await?;
    scenarios(&host, desktop).await?;
    Ok(())
}

/// The median of some durations, in ms.
fn p50(mut samples: Vec<Duration>) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
}

async fn observe(desktop: &Desktop) -> Result<(), GuiError> {
    let program = desktop
        .start_program(&ProgramSpec::new("mousepad", Vec::<String>::new()))
        .await?;
    let a11y = desktop.a11y();
    let mut samples = Vec::new();
    let mut nodes = 0;
    for _ in 0..31 {
        let started = Instant::now();
        let read = match tree::read_bulk(
            a11y,
            program.bus_name(),
            program.toolkit(a11y).await,
            Limits::default(),
        )
        .await?
        {
            Some(read) => read,
            None => tree::read(a11y, program.bus_name(), Limits::default()).await?,
        };
        samples.push(started.elapsed());
        nodes = read.nodes.len();
    }
    println!(
        "observe mousepad: {nodes} nodes, p50 {:.1} ms over {} reads",
        p50(samples.clone()),
        samples.len()
    );
    program.stop();
    Ok(())
}

async fn click(desktop: &Desktop) -> Result<(), GuiError> {
    let program = desktop
        .start_program(&ProgramSpec::new("gnome-calculator", Vec::<String>::new()))
        .await?;
    let a11y = desktop.a11y();
    let input = desktop.input()?;
    let one = find::one(program.app(a11y).await, &Query::role("button", Some("1"))?).await?;
    let display = editable_display(desktop, &program).await?;
    let mut samples = Vec::new();
    let mut shown = String::new();
    for _ in 0..21 {
        shown.push('1');
        let clicked = Instant::now();
        let acted = input.click(&program, &one, Clicks::Single).await?;
        let condition = Condition::Text(TextMatch::Exact(shown.clone()));
        wait::until(a11y, &display, &condition, WITHIN).await?;
        samples.push(clicked.elapsed().saturating_sub(acted.took));
    }
    println!(
        "click → change seen (gnome-calculator): p50 {:.1} ms over {} clicks",
        p50(samples.clone()),
        samples.len()
    );
    program.stop();
    Ok(())
}

/// gnome-calculator's one editable text box.
async fn editable_display(desktop: &Desktop, program: &Program) -> Result<Element, GuiError> {
    let boxes = find::all(
        program.app(desktop.a11y()).await,
        &Query::role("textbox", None)?,
    )
    .await?;
    for candidate in boxes {
        let states = candidate.read_states(desktop.a11y()).await?;
        if states.contains(atspi::State::Editable) && !states.contains(atspi::State::ReadOnly) {
            return Ok(candidate);
        }
    }
    Err(GuiError::TargetNotFound {
        target: "the editable display".into(),
        candidates: "none".into(),
    })
}

/// The pyatspi side (`bench/gui_pyatspi.py`), started once and asked for one scenario at a
/// time, so both sides' scenarios alternate and meet the same load (the machine's load drifts
/// over a minute more than the two sides differ).
struct Pyatspi {
    child: std::process::Child,
    answers: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
    /// Its wall time so far: its start (Python, the import of pyatspi) and its scenarios.
    wall: Duration,
}

impl Pyatspi {
    fn start(desktop: &Desktop) -> Result<Pyatspi, GuiError> {
        use std::io::BufRead as _;
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/gui_pyatspi.py");
        let mut python = std::process::Command::new("/usr/bin/python3");
        python
            .arg(script)
            .arg(QT_CALCULATOR)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        for name in Desktop::env_removed() {
            python.env_remove(name);
        }
        python.envs(desktop.env());
        let started = Instant::now();
        let mut child = python.spawn().map_err(|e| GuiError::SpawnFailed {
            program: "/usr/bin/python3".into(),
            source: e,
        })?;
        let stdout = child.stdout.take().expect("piped");
        let mut pyatspi = Pyatspi {
            child,
            answers: std::io::BufReader::new(stdout).lines(),
            wall: Duration::ZERO,
        };
        pyatspi.answer()?;
        pyatspi.wall = started.elapsed();
        Ok(pyatspi)
    }

    /// Its next line (blocking: our side is idle meanwhile).
    fn answer(&mut self) -> Result<String, GuiError> {
        let line = tokio::task::block_in_place(|| self.answers.next());
        line.and_then(Result::ok)
            .ok_or_else(|| GuiError::SpawnFailed {
                program: "/usr/bin/python3".into(),
                source: std::io::Error::other("the pyatspi side ended early"),
            })
    }

    /// Run one scenario there; its wall time counts.
    fn scenario(&mut self) -> Result<(), GuiError> {
        use std::io::Write as _;
        let started = Instant::now();
        let stdin = self.child.stdin.as_mut().expect("piped");
        let _ = writeln!(stdin, "go").and_then(|()| stdin.flush());
        self.answer()?;
        self.wall += started.elapsed();
        Ok(())
    }

    /// Close its input; it prints its summary and exits (its exit counts).
    fn finish(mut self) -> Result<(Duration, Vec<String>), GuiError> {
        let started = Instant::now();
        drop(self.child.stdin.take());
        let summary: Vec<String> = std::iter::from_fn(|| self.answer().ok()).collect();
        let _ = self.child.wait();
        Ok((self.wall + started.elapsed(), summary))
    }
}

async fn scenarios(host: &Host, desktop: &Desktop) -> Result<(), GuiError> {
    let a11y = desktop.a11y();
    let input = desktop.input()?;
    let mut pyatspi = Pyatspi::start(desktop)?;
    let mut ours = Duration::ZERO;
    // Where the scenarios' time went: start, find, click, wait, stop (summed over all).
    let mut phases = [Duration::ZERO; 5];
    // Each scenario's wall time: one slow start under load shows here, not only in the sum.
    let mut each = Vec::new();
    for _ in 0..SCENARIOS {
        let scenario = Instant::now();
        let mut lap = Instant::now();
        let mut split = |phase: usize| {
            phases[phase] += lap.elapsed();
            lap = Instant::now();
        };
        let program = desktop
            .start_program(&ProgramSpec::new(QT_CALCULATOR, Vec::<String>::new()))
            .await?;
        split(0);
        let app = host.app(&program).await;
        let display = find::one(app, &Query::role("textbox", None)?).await?;
        split(1);
        for (button, after) in [("7", "7"), ("×", "7"), ("6", "6"), ("=", "42")] {
            // As a suite's `click { target = role("button", "7") }` finds and clicks it.
            let target = Target::Role {
                role: "button".into(),
                name: Some(NameText::contains(button)),
            };
            let (element, ancestry) = locate::one_in(app, &target).await?;
            split(1);
            let until = Instant::now() + WITHIN;
            input
                .click_in(&program, &element, &ancestry, Clicks::Single, until, &[])
                .await?;
            split(2);
            let condition = Condition::Text(TextMatch::Exact(after.into()));
            wait::until(a11y, &display, &condition, WITHIN).await?;
            split(3);
        }
        program.stop();
        split(4);
        ours += scenario.elapsed();
        each.push(format!("{:.0}", scenario.elapsed().as_secs_f64() * 1000.0));
        pyatspi.scenario()?;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "a3s-test-gui: {SCENARIOS} scenarios in {:.0} ms (start {:.0}, find {:.0}, click {:.0}, \
         change seen {:.0}, stop {:.0})",
        ms(ours),
        ms(phases[0]),
        ms(phases[1]),
        ms(phases[2]),
        ms(phases[3]),
        ms(phases[4])
    );
    println!("a3s-test-gui: each scenario, ms: {}", each.join(" "));
    let (theirs, summary) = pyatspi.finish()?;
    for line in summary {
        println!("{line}");
    }
    println!(
        "ratio a3s-test-gui / pyatspi: {:.2} (pyatspi process wall {:.0} ms)",
        ours.as_secs_f64() / theirs.as_secs_f64(),
        ms(theirs)
    );
    Ok(())
}
