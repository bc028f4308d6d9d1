//! The step trace in the HTML report: the real binary runs the trace suite to a failure with
//! `--html`, and the report is opened from `file://` in real Chromium through the project's own
//! driver, whose trace recording (CDP `Network` events) lists every request the page made: only
//! the report file itself, nothing from a network. The timeline is operated by keyboard (arrow
//! keys, Home, End move the selection, the panel and the highlighted ACL line follow), the
//! screenshots decode, the page differs badge names the step, and axe-core finds no violation.
//! Also: each step's image (from Chromium's screencast) shows the page after that step, decoded
//! by Chromium itself.

use crate::harness::{repo, run_served, workdir, FixtureServer};
use a3s_test_driver::trace::{TraceMark, TraceWant};
use a3s_test_driver::{ContextOptions, StepEnv, SurfaceContext, SurfaceDriver};
use a3s_test_lang::ir::{Action, KeyChord, Step, Target};
use a3s_test_web::{LaunchOptions, WebContext, WebDriver};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

const SUITE: &str = include_str!("../fixtures/suites/trace.acl");

/// One browser action or check of the test.
const STEP_BOUND: Duration = Duration::from_secs(20);

fn step(action: Action) -> Step {
    Step {
        label: Some("trace-report".into()),
        path: "suite.trace_report.scenario.check.step".into(),
        span: Default::default(),
        action,
        group: None,
        hook: None,
    }
}

async fn act(ctx: &mut WebContext, dir: &a3s_test_fsroot::Dir, action: Action) {
    let what = format!("{action:?}");
    let env = StepEnv {
        base_url: None,
        action_timeout: Duration::from_secs(5),
        expect_timeout: Duration::from_secs(5),
        deadline: Instant::now() + STEP_BOUND,
        deadline_name: "scenario",
        artifact_dir: dir,
        working_dir: dir.path(),
        vars: &a3s_test_driver::ProcessVars::RUN,
        snapshots: None,
    };
    if let Err(f) = ctx.execute(&step(action), &env).await {
        panic!("{what} failed: {} {}", f.code, f.message);
    }
}

async fn eval(ctx: &WebContext, expression: &str) -> Value {
    ctx.evaluate_json(expression, Instant::now() + STEP_BOUND)
        .await
        .unwrap_or_else(|f| panic!("{expression}: {} {}", f.code, f.message))
}

fn key(name: &str) -> Action {
    Action::Press {
        key: KeyChord {
            modifiers: vec![],
            key: name.into(),
        },
        target: None,
    }
}

/// Which tab is focused and selected, which panel shows, which source line is highlighted.
const STATE: &str = "(() => {
  const list = document.querySelector('#s-1 [role=tablist]');
  const selected = [...list.querySelectorAll('[role=tab]')].filter(t => t.getAttribute('aria-selected') === 'true').map(t => t.id);
  const shown = [...document.querySelectorAll('#s-1 [role=tabpanel]')].filter(p => !p.hidden).map(p => p.id);
  const lines = [...document.querySelectorAll('#s-1 .src-line.current')].map(l => l.dataset.line);
  return { focused: document.activeElement.id, selected, shown, lines };
})()";

fn state(tab: usize, line: u32) -> Value {
    json!({
        "focused": format!("s-1-t{tab}"),
        "selected": [format!("s-1-t{tab}")],
        "shown": [format!("s-1-p{tab}")],
        "lines": [line.to_string()],
    })
}

#[test]
fn the_report_shows_the_trace_offline_and_its_timeline_works_by_keyboard() {
    let server = FixtureServer::start();
    let work = workdir(&[("trace.acl", &SUITE.replace("KEY", "report"))]);
    let green = run_served(&server, work.path(), &["trace.acl"]);
    assert_eq!(green.code, 0, "{}\n{}", green.stdout, green.stderr);
    let red = run_served(
        &server,
        work.path(),
        &["trace.acl", "--html", "out/report", "--trace", "on"],
    );
    assert_eq!(red.code, 1, "{}\n{}", red.stdout, red.stderr);
    let index = work.path().join("out/report/index.html");
    let size = std::fs::metadata(&index).unwrap().len();
    assert!(size < 2_000_000, "the report is {size} bytes");
    let url = url::Url::from_file_path(index.canonicalize().unwrap())
        .unwrap()
        .to_string();
    let axe = repo().join("tests/fixtures/axe/node_modules/axe-core/axe.min.js");
    let axe = std::fs::read_to_string(&axe)
        .unwrap_or_else(|e| panic!("{} is missing ({e}): run scripts/setup.sh", axe.display()));

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(120), async {
            let driver = WebDriver::launch(LaunchOptions::default())
                .await
                .expect("launch chromium");
            let options = ContextOptions {
                viewport: Some((1280, 1000)),
                ..ContextOptions::default()
            };
            let mut ctx = driver.new_context(options).await.expect("open a context");
            let artifacts = tempfile::tempdir().unwrap();
            let dir = a3s_test_fsroot::Dir::open_anchor(artifacts.path()).unwrap();
            // Every request the page makes from here on is recorded from CDP `Network` events.
            assert!(ctx.trace_start(None));
            let mark = TraceMark::default();
            act(&mut ctx, &dir, Action::Navigate { url: url.clone() }).await;

            // The failed step is selected; its screenshot decodes; the page-differs badge names
            // the click, and the changes since the last green run are listed in its panel.
            assert_eq!(eval(&ctx, STATE).await["selected"], json!(["s-1-t2"]));
            let decoded = eval(&ctx, "Promise.all([...document.querySelectorAll('#s-1 svg.shot image')].map(i => new Promise(r => { const img = new Image(); img.onload = () => r(img.naturalWidth); img.onerror = () => r(0); img.src = i.getAttribute('href'); })))").await;
            assert_eq!(decoded, json!([640, 640, 640]), "three screenshots decode");
            assert_eq!(eval(&ctx, "document.querySelectorAll('#s-1 svg.shot circle.point').length").await, 1);
            let badge = eval(&ctx, "document.querySelector('#s-1 .badge.differs').closest('[role=tab]').id").await;
            assert_eq!(badge, "s-1-t1");
            let since = eval(&ctx, "document.querySelector('#s-1-p1 .since-green').innerText").await;
            let since = since.as_str().unwrap();
            for needle in ["+ new \"Out of stock\"", "− gone \"Added to cart\"", "sold-out.json", "→ 404", "cart exploded"] {
                assert!(since.contains(needle), "missing {needle:?} in:\n{since}");
            }

            // Keyboard: a click focuses the failed step's tab, then the arrows, Home and End
            // move the selection; the panel and the ACL line follow.
            act(&mut ctx, &dir, Action::Click {
                target: Target::Css { selector: "#s-1-t2".into() },
                pointer: Default::default(),
                via: Default::default(),
                action: None,
            })
            .await;
            assert_eq!(eval(&ctx, STATE).await, state(2, 7));
            act(&mut ctx, &dir, key("ArrowUp")).await;
            assert_eq!(eval(&ctx, STATE).await, state(1, 6));
            act(&mut ctx, &dir, key("Home")).await;
            assert_eq!(eval(&ctx, STATE).await, state(0, 5));
            act(&mut ctx, &dir, key("ArrowUp")).await;
            assert_eq!(eval(&ctx, STATE).await, state(2, 7), "the arrows wrap");
            act(&mut ctx, &dir, key("ArrowDown")).await;
            assert_eq!(eval(&ctx, STATE).await, state(0, 5));
            act(&mut ctx, &dir, key("End")).await;
            assert_eq!(eval(&ctx, STATE).await, state(2, 7));
            act(&mut ctx, &dir, key("Tab")).await;
            assert_eq!(
                eval(&ctx, "document.activeElement.id").await,
                "s-1-p2",
                "Tab leaves the timeline for the selected panel"
            );

            // axe-core finds no violation in a report with a trace.
            let run_axe = format!(
                "{axe}\n;axe.run(document, {{ resultTypes: ['violations'] }}).then(r => r.violations.map(v => ({{ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')) }})))"
            );
            assert_eq!(eval(&ctx, &run_axe).await, json!([]), "axe-core violations");

            // Nothing but the report file itself was requested.
            let captured = ctx
                .trace_capture(mark, TraceWant { screenshot_width: None, page: false, fingerprint: false, known_page: None, read_only: false, bodies: false }, Instant::now() + STEP_BOUND)
                .await;
            assert!(!captured.network.is_empty(), "the report's own load is seen");
            for request in &captured.network {
                assert!(
                    request.url.starts_with("file://") || request.url.starts_with("data:"),
                    "the report requested {}",
                    request.url
                );
            }
            assert_eq!(captured.page_errors, vec![], "page errors");
            ctx.close().await.expect("close the context");
            drop(artifacts);
            driver.shutdown().await.expect("shut the browser down");
        })
        .await
        .expect("the browser checks finished in time");
    });
}

/// The colour at the middle of a JPEG, decoded by Chromium (red, green, blue).
async fn middle_colour(ctx: &WebContext, jpeg: &[u8]) -> [u8; 3] {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(jpeg);
    let script = format!(
        "new Promise((ok, fail) => {{ const img = new Image(); img.onload = () => {{ \
         const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight; \
         const g = c.getContext('2d'); g.drawImage(img, 0, 0); \
         ok([...g.getImageData(img.naturalWidth >> 1, (img.naturalHeight * 3) >> 2, 1, 1).data].slice(0, 3)); }}; \
         img.onerror = () => fail('not an image'); img.src = 'data:image/jpeg;base64,{data}'; }})"
    );
    let rgb: Vec<u8> = serde_json::from_value(eval(ctx, &script).await).unwrap();
    [rgb[0], rgb[1], rgb[2]]
}

/// The colour a page of `trace-colours.html` shows, by its name (JPEG shifts it a little).
fn colour_name([r, g, b]: [u8; 3]) -> &'static str {
    let high = |c: u8| c > 150;
    let low = |c: u8| c < 90;
    match (r, g, b) {
        _ if high(r) && low(g) && low(b) => "red",
        _ if low(r) && high(g) && low(b) => "green",
        _ if low(r) && low(g) && high(b) => "blue",
        _ if high(r) && high(g) && low(b) => "yellow",
        _ => "other",
    }
}

/// Each step's image is the page after that step: a click's colour, an `expect` that changed
/// nothing (its image may be the step before's), and an `expect` during which the page changed
/// on its own (its image shows the change it waited for, not the page when it began). Images
/// come from Chromium's screencast; this fails if a frame from before a step is taken for it.
#[test]
fn each_step_image_shows_the_page_after_that_step() {
    let server = FixtureServer::start();
    let suite = r#"suite "colours" {
    scenario "walk" {
        surface = "web"
        timeout_ms = 20000
        navigate "open" { url = "/trace-colours.html" }
        click "to-green" { target = role("button", "Next") }
        expect "green" { text = "green" }
        click "to-blue" { target = role("button", "Next") }
        expect "yellow" { text = "yellow" timeout_ms = 5000 }
        expect "still-yellow" { text = "yellow" }
    }
}
"#;
    let work = workdir(&[("colours.acl", suite)]);
    for round in 0..2 {
        // The second round has the first's last-green record: outlines reused, images not.
        let done = run_served(
            &server,
            work.path(),
            &["colours.acl", "--json", "--trace", "on"],
        );
        assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
        let result = done.json();
        let path = work
            .path()
            .join(result["scenarios"][0]["trace"]["path"].as_str().unwrap());
        let trace: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let folder = path.parent().unwrap().to_path_buf();
        let shots: Vec<Vec<u8>> = trace["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let file = s["screenshot"]["file"]
                    .as_str()
                    .unwrap_or_else(|| panic!("no screenshot: {s}"));
                std::fs::read(folder.join(file)).unwrap()
            })
            .collect();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let names = runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(60), async {
                let driver = WebDriver::launch(LaunchOptions::default())
                    .await
                    .expect("launch chromium");
                let ctx = driver
                    .new_context(ContextOptions::default())
                    .await
                    .expect("open a context");
                let mut names = Vec::new();
                for jpeg in &shots {
                    names.push(colour_name(middle_colour(&ctx, jpeg).await));
                }
                ctx.close().await.expect("close the context");
                driver.shutdown().await.expect("shut the browser down");
                names
            })
            .await
            .expect("the images were decoded in time")
        });
        assert_eq!(
            names,
            ["red", "green", "green", "blue", "yellow", "yellow"],
            "round {round}"
        );
    }
}
