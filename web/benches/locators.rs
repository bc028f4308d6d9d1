//! Locator benchmark (not a timed test): what resolving a chained locator costs against the plain
//! role lookup it narrows, on a page of 20,000 elements in real Chromium.
//!
//! `cargo bench -p a3s-test-web --bench locators` (release profile). The page is built in the
//! browser: 5,000 list rows, each with a `data-testid`, a name, a role and a "Delete" button
//! (four elements a row). Each locator is read `LOCATOR_BENCH_ROUNDS` times (default 30) as one `visible_count`
//! condition — a full resolution in the page plus one round trip — and the median is reported,
//! with each chained form's ratio to `role("button", "Delete")`. The budget (docs/benchmarks.md):
//! a chained locator within 1.5× the plain role lookup.

#[path = "../tests/common/mod.rs"]
mod common;

use a3s_test_driver::{ConditionSample, SurfaceContext};
use a3s_test_lang::ir::ExpectCondition;
use common::*;
use std::time::{Duration, Instant};

const ROUNDS: u32 = 30;
const ROWS: usize = 5_000;

/// A `visible_count` condition on `locator` (ACL), admitted by lang.
fn count_of(locator: &str, count: u32) -> ExpectCondition {
    let step = acl(&format!(
        "expect {{\n    target = {locator}\n    visible_count = {count}\n}}"
    ));
    match step.action {
        a3s_test_lang::ir::Action::Expect { expectation } => expectation.condition,
        other => panic!("{other:?}"),
    }
}

fn main() {
    let rounds = std::env::var("LOCATOR_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ROUNDS);
    block_on(Duration::from_secs(900), async move {
        let mut page = Page::open().await;
        page.ok(&goto("expect.html")).await;
        let build = format!(
            r#"(() => {{
  const list = document.createElement('ul');
  for (let i = 0; i < {ROWS}; i++) {{
    const li = document.createElement('li');
    li.dataset.testid = 'row-' + i;
    const name = document.createElement('span');
    name.textContent = 'Person ' + i + ' ';
    const role = document.createElement('em');
    role.textContent = i % 2 ? 'admin ' : 'member ';
    const b = document.createElement('button');
    b.textContent = 'Delete';
    li.append(name, role, b);
    list.append(li);
  }}
  document.body.replaceChildren(list);
  return document.getElementsByTagName('*').length;
}})()"#
        );
        let env = page.env.step_env();
        let elements = page.ctx.evaluate_json(&build, env.deadline).await.unwrap();
        let plain = r#"role("button", "Delete")"#;
        let cases: Vec<(&str, u32)> = vec![
            (plain, ROWS as u32),
            (r#"within(testid("row-2500"), role("button", "Delete"))"#, 1),
            (r#"nth(role("button", "Delete"), 2500)"#, 1),
            (
                r#"within(has_text(role("listitem"), "Person 2500 "), role("button"))"#,
                1,
            ),
            (r#"has(role("listitem"), testid("none"))"#, 0),
        ];
        let mut medians = Vec::new();
        for (locator, count) in &cases {
            let condition = count_of(locator, *count);
            let mut times = Vec::new();
            for _ in 0..rounds {
                let started = Instant::now();
                let sample = page.ctx.check(&condition, None, &env).await.unwrap();
                times.push(started.elapsed());
                assert!(
                    matches!(sample, ConditionSample::Holds(_)),
                    "{locator}: {sample:?}"
                );
            }
            times.sort();
            medians.push(times[times.len() / 2]);
        }
        println!("locators: {elements} elements, {rounds} readings each (median)");
        let base = medians[0];
        for ((locator, _), median) in cases.iter().zip(&medians) {
            let ratio = median.as_secs_f64() / base.as_secs_f64();
            println!("  {median:>10.2?}  {ratio:>4.2}×  {locator}");
        }
        page.close().await;
    });
}
