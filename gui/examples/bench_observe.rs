//! Where an agent session's desktop observation goes (figures in `docs/benchmarks.md`; never a
//! timed test): mousepad (GTK3) on an owned desktop through the driver's own context, and
//! `DesktopAgentContext::observe` timed whole and by its parts — the binding check (the
//! program's top-level windows) and, on a second desktop with the same program, the tree read as a find reads it (the whole tree, walked), and
//! the walk an observation makes (states read with each node, hidden subtrees skipped).
//!
//! `cargo run --release -p a3s-test-gui --example bench_observe [PROGRAM] [N]`

use a3s_test_driver::{ContextOptions, DesktopAgentContext, SurfaceContext, SurfaceDriver};
use a3s_test_gui::driver::{GuiDriver, GuiOptions};
use a3s_test_gui::tree::{self, Limits};
use a3s_test_gui::{Desktop, DesktopOptions, ProgramSpec};
use std::time::{Duration, Instant};

/// The median and the 90th percentile of some durations, in ms.
fn p50_p90(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize].as_secs_f64() * 1000.0;
    (at(0.5), at(0.9))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut argv = std::env::args().skip(1);
    let program = argv.next().unwrap_or_else(|| "mousepad".into());
    let count: usize = argv.next().and_then(|n| n.parse().ok()).unwrap_or(25);
    // Private settings and data folders: mousepad restores an earlier session's documents.
    let home = tempfile::tempdir().expect("a temporary folder");
    let mut spec = ProgramSpec::new(program.clone(), Vec::<String>::new());
    spec.env = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]
        .iter()
        .map(|name| (name.into(), home.path().join(name).into_os_string()))
        .collect();
    let driver = GuiDriver::new(GuiOptions {
        program: spec.clone(),
        width: 1280,
        height: 800,
        display: None,
    });
    let ctx = driver
        .new_context(ContextOptions::default())
        .await
        .expect("the desktop and the program start");
    let deadline = || tokio::time::Instant::now() + Duration::from_secs(20);
    // The parts are timed on a second desktop of their own, with the same program on it.
    let desktop = Desktop::start(&DesktopOptions::default())
        .await
        .expect("a desktop");
    let started = desktop.start_program(&spec).await.expect("the program");
    let (a11y, bus) = (desktop.a11y(), started.bus_name());
    let (mut whole, mut binding, mut walked, mut showing) = (vec![], vec![], vec![], vec![]);
    let (mut controls, mut nodes, mut shown) = (0, 0, 0);
    for _ in 0..count + 3 {
        let started = Instant::now();
        let snapshot = ctx.observe(deadline()).await.expect("an observation");
        whole.push(started.elapsed());
        controls = snapshot.controls.len();
        let started = Instant::now();
        ctx.binding(deadline()).await.expect("the binding");
        binding.push(started.elapsed());
        let started = Instant::now();
        nodes = tree::read(a11y, bus, Limits::default())
            .await
            .expect("a tree")
            .nodes
            .len();
        walked.push(started.elapsed());
        let started = Instant::now();
        shown = tree::read_showing(a11y, bus, Limits::default())
            .await
            .expect("a tree")
            .nodes
            .len();
        showing.push(started.elapsed());
    }
    let report = |what: &str, samples: Vec<Duration>| {
        let (p50, p90) = p50_p90(samples[3..].to_vec());
        println!("{what}: p50 {p50:.1} ms, p90 {p90:.1} ms");
    };
    println!("{program}: {controls} controls observed; {nodes} nodes in the tree, {shown} showing");
    report("observe (DesktopAgentContext::observe)", whole);
    report("  binding check", binding);
    report("  whole tree walked (as a find reads it)", walked);
    report(
        "  showing tree walked with states (as observe reads it)",
        showing,
    );
    started.stop();
    ctx.close().await.expect("the desktop stops");
}
