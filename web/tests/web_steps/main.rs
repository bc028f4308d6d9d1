//! Every web step against real Chromium, each written as the ACL statement an author or agent
//! would send (docs/acl.md §5, §12): actions and their actionability waits, `wait` conditions and
//! their deadline, `expect` conditions with their pass and failure codes, stability sampling,
//! evidence files, tabs, dialogs, uploads, downloads, routes, HAR and traces, context options and
//! the page clock. Each file holds one family of steps; they share one browser (`common`).

#[path = "../common/mod.rs"]
#[macro_use]
mod common;

mod api_requests;
mod clock;
mod context_options;
mod evidence;
mod expect;
mod har_replay;
mod keyboard;
mod network;
mod network_waits;
mod pages;
mod pointer;
mod routes;
mod waits;

use std::time::Duration;

/// Overall bound of one test body (a hang fails the test instead of blocking the run).
const LIMIT: Duration = Duration::from_secs(90);

/// `expect` that the page's event log (`.entry` lines) reads exactly `entries`.
fn log_is(entries: &[&str]) -> String {
    format!("expect {{\n    target = css(\".entry\")\n    rendered_texts = {entries:?}\n}}")
}

/// `wait` until the event log shows the line `entry`.
fn log_shows(entry: &str) -> String {
    format!("wait {{ visible = text({entry:?}, true) }}")
}

/// `expect` that the control `target` holds `value`.
fn value_is(target: &str, value: &str) -> String {
    format!("expect {{\n    target = {target}\n    value = {value:?}\n}}")
}
