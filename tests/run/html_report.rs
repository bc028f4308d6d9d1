//! `--html`: the real binary runs a suite with a failing scenario against a real page that logs to
//! the console and throws; the report it writes is then opened from `file://` in real Chromium
//! through the project's own driver, read, clicked and typed into, checked by axe-core, and
//! photographed.
//!
//! axe-core comes from `tests/fixtures/axe/node_modules` (`scripts/setup.sh` runs `npm ci` there);
//! the screenshot is kept at `$CARGO_TARGET_TMPDIR/html-report.png` for a person to look at.

use crate::harness::{repo, run_once};
use a3s_test_driver::{ContextOptions, StepEnv, SurfaceContext, SurfaceDriver};
use a3s_test_lang::ir::{Action, EvidencePath, KeyChord, Step, Target};
use a3s_test_web::{LaunchOptions, WebContext, WebDriver};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::time::Instant;

const SUITE: &str = include_str!("../fixtures/suites/report.acl");

/// One browser action or check of the test.
const STEP_BOUND: Duration = Duration::from_secs(20);

fn step(action: Action) -> Step {
    Step {
        label: Some("report".into()),
        path: "suite.report.scenario.check.step".into(),
        span: Default::default(),
        action,
        group: None,
        hook: None,
    }
}

struct Browser {
    ctx: WebContext,
    artifacts: PathBuf,
    artifact_dir: a3s_test_fsroot::Dir,
}

impl Browser {
    async fn act(&mut self, action: Action) {
        let what = format!("{action:?}");
        let env = StepEnv {
            base_url: None,
            action_timeout: Duration::from_secs(5),
            expect_timeout: Duration::from_secs(5),
            deadline: Instant::now() + STEP_BOUND,
            deadline_name: "scenario",
            artifact_dir: &self.artifact_dir,
            working_dir: &self.artifacts,
            snapshots: None,
            vars: &a3s_test_driver::ProcessVars::RUN,
        };
        if let Err(f) = self.ctx.execute(&step(action), &env).await {
            panic!("{what} failed: {} {}", f.code, f.message);
        }
    }

    async fn eval(&self, expression: &str) -> Value {
        self.ctx
            .evaluate_json(expression, Instant::now() + STEP_BOUND)
            .await
            .unwrap_or_else(|f| panic!("{expression}: {} {}", f.code, f.message))
    }

    /// Ids of the scenario articles the filters leave visible.
    async fn shown(&self) -> Value {
        self.eval("[...document.querySelectorAll('article.scenario')].filter(a => !a.hidden).map(a => a.id)")
            .await
    }

    /// Write the collected console messages or page errors and read them back.
    async fn log(&mut self, console: bool) -> Vec<Value> {
        let (name, action, key) = if console {
            let path = EvidencePath("report-console.json".into());
            (
                "report-console.json",
                Action::Console { path, clear: false },
                "messages",
            )
        } else {
            let path = EvidencePath("report-errors.json".into());
            (
                "report-errors.json",
                Action::PageErrors { path, clear: false },
                "errors",
            )
        };
        self.act(action).await;
        let text = std::fs::read_to_string(self.artifacts.join(name)).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        value[key].as_array().unwrap().clone()
    }
}

fn role(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: Some(a3s_test_lang::ir::TextMatch::exact(name)),
    }
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

fn axe_source() -> String {
    let path = repo().join("tests/fixtures/axe/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): run scripts/setup.sh (npm ci in tests/fixtures/axe)",
            path.display()
        )
    })
}

fn file_path(url: &str) -> PathBuf {
    let url = url::Url::parse(url).unwrap();
    url.to_file_path().unwrap()
}

#[test]
fn a_failing_run_writes_a_report_that_chromium_opens_reads_and_filters() {
    let (done, work) = run_once(
        &[("report.acl", SUITE)],
        &["report.acl", "--html", "out/report"],
    );
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    assert!(
        done.stdout.contains("Report out/report/index.html"),
        "the run names its report:\n{}",
        done.stdout
    );
    let index = work
        .path()
        .join("out/report/index.html")
        .canonicalize()
        .unwrap();
    let url = url::Url::from_file_path(&index).unwrap().to_string();
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report.png");

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
            let ctx = driver.new_context(options).await.expect("open a context");
            let artifacts = tempfile::tempdir().unwrap();
            let mut b = Browser {
                ctx,
                artifacts: artifacts.path().to_path_buf(),
                artifact_dir: a3s_test_fsroot::Dir::open_anchor(artifacts.path()).unwrap(),
            };
            b.act(Action::Navigate { url: url.clone() }).await;

            // Content: the summary, the failure with code, message and file:line, the screenshot.
            let title = b.eval("document.title").await;
            assert_eq!(title, "A3S Test report: failed, 2 scenarios");
            let failing = b.eval("document.getElementById('s-1').innerText").await;
            let failing = failing.as_str().unwrap();
            for needle in [
                "failed",
                "report/greets",
                "test.assert.text_mismatch (product)",
                "Welcome, Ada",
                "suite.report.scenario.greets.expect.welcome",
                "report.acl:8:9",
                "rendering <b>greeting</b> for guest",
                "<img src=x onerror=alert(1)> failed to load the user",
                "TypeError: user is undefined <script>",
            ] {
                assert!(failing.contains(needle), "missing {needle:?} in:\n{failing}");
            }
            let image = b
                .eval("(() => { const i = document.querySelector('#s-1 figure img'); return i && i.complete ? [i.naturalWidth, i.naturalHeight] : null })()")
                .await;
            assert!(
                image[0].as_u64().is_some_and(|w| w > 100),
                "the failure screenshot is inline and decodes: {image}"
            );
            assert_eq!(
                b.eval("document.images.length").await,
                1,
                "console text made no element"
            );
            let summary = b.eval("document.querySelector('[aria-labelledby=summary-h]').innerText").await;
            assert!(summary.as_str().unwrap().contains("1\npassed"), "{summary}");

            // Every artifact link points at a file (or folder) that exists.
            let links = b
                .eval("[...document.querySelectorAll('a[href]')].map(a => a.href).filter(h => !h.includes('#'))")
                .await;
            let links = links.as_array().unwrap();
            assert!(links.len() >= 5, "{links:?}");
            for link in links {
                let path = file_path(link.as_str().unwrap());
                assert!(path.exists(), "{link} points at nothing");
            }

            // Filters, through real input: a click on a status, typing, a tag choice.
            assert_eq!(b.shown().await, json!(["s-1", "s-2"]));
            b.act(Action::Click { target: role("button", "passed (1)"), pointer: Default::default(), via: Default::default(), action: None }).await;
            assert_eq!(b.shown().await, json!(["s-2"]));
            assert_eq!(
                b.eval("document.getElementById('shown').textContent").await,
                "Showing 1 of 2 scenarios"
            );
            b.act(Action::Click { target: role("button", "All (2)"), pointer: Default::default(), via: Default::default(), action: None }).await;
            b.act(Action::Fill {
                target: Target::Label { label: a3s_test_lang::ir::TextMatch::exact("Text") },
                value: "MISMATCH".into(),
            })
            .await;
            assert_eq!(b.shown().await, json!(["s-1"]));
            b.act(Action::Fill {
                target: Target::Label { label: a3s_test_lang::ir::TextMatch::exact("Text") },
                value: "".into(),
            })
            .await;
            b.act(Action::Select {
                target: Target::Label { label: a3s_test_lang::ir::TextMatch::exact("Tag") },
                values: vec!["forms".into()],
            })
            .await;
            assert_eq!(b.shown().await, json!(["s-2"]));
            // Following a link to a scenario the filters hide shows everything again.
            b.eval("new Promise(r => { addEventListener('hashchange', () => r(0), { once: true }); location.hash = '#s-1'; })")
                .await;
            assert_eq!(b.shown().await, json!(["s-1", "s-2"]));

            // Keyboard, on a fresh page: the first Tab reaches the first failure's link with a
            // visible focus outline, and Enter follows it.
            b.act(Action::Navigate { url: url.clone() }).await;
            b.act(key("Tab")).await;
            assert_eq!(
                b.eval("document.activeElement.getAttribute('href')").await,
                "#s-1"
            );
            assert_eq!(
                b.eval("getComputedStyle(document.activeElement).outlineStyle").await,
                "solid"
            );
            b.act(key("Enter")).await;
            assert_eq!(b.eval("location.hash").await, "#s-1");

            // The inline style and script ran under the page's Content-Security-Policy (the
            // filters above are the script), and the page logged no error and nothing else.
            assert_eq!(
                b.eval("getComputedStyle(document.querySelector('.badge')).borderTopLeftRadius").await,
                "12px"
            );
            assert_eq!(b.log(false).await, Vec::<Value>::new(), "page errors");
            assert_eq!(b.log(true).await, Vec::<Value>::new(), "console messages");

            // axe-core finds no violation.
            let axe = format!(
                "{}\n;axe.run(document, {{ resultTypes: ['violations'] }}).then(r => r.violations.map(v => ({{ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')) }})))",
                axe_source()
            );
            let violations = b.eval(&axe).await;
            assert_eq!(violations, json!([]), "axe-core violations");

            b.act(Action::Navigate { url: url.clone() }).await;
            b.act(Action::Screenshot {
                path: EvidencePath("report.png".into()),
            })
            .await;
            std::fs::copy(b.artifacts.join("report.png"), &shot).unwrap();
            b.ctx.close().await.expect("close the context");
            drop(artifacts);
            driver.shutdown().await.expect("shut the browser down");
        })
        .await
        .expect("the browser checks finished in time");
    });
}
