//! `a3s-test run --list`: the planned scenarios (after `--filter`, `--tag`, `--shard` and
//! `--last-failed`), printed instead of run.
//!
//! Nothing is started: no dev server, no browser, no run folder, no last-run record. Human output
//! is one line per scenario on stdout (`suite/scenario  file:line:col  [tags]`, and
//! `(dependency)` for one only a dependant's `depends_on` brought in; easy to pipe into
//! `wc -l` or `grep`) and a count on stderr; `--json` prints one document on stdout instead.

use a3s_test_runner::plan::Plan;
use serde::Serialize;
use std::io::Write;

/// Version of the `--list --json` document.
pub const LIST_FORMAT_VERSION: u32 = 1;

/// One planned scenario as listed.
#[derive(Debug, Serialize)]
struct Listed<'a> {
    id: String,
    suite: &'a str,
    scenario: &'a str,
    name: &'a str,
    file: String,
    location: String,
    tags: &'a [String],
    /// True when no selection flag chose it: a chosen scenario depends on it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    dependency_only: bool,
}

/// The `--list --json` document.
#[derive(Debug, Serialize)]
struct Listing<'a> {
    format_version: u32,
    scenarios: Vec<Listed<'a>>,
    admitted: usize,
    skipped: usize,
}

fn listing(plan: &Plan) -> Listing<'_> {
    Listing {
        format_version: LIST_FORMAT_VERSION,
        scenarios: plan
            .scenarios
            .iter()
            .map(|p| Listed {
                id: p.id.to_string(),
                suite: &p.id.suite,
                scenario: &p.id.scenario,
                name: &p.scenario.name,
                file: p.suite.source.display(),
                location: p.suite.source.location(p.scenario.span.start),
                tags: &p.scenario.tags,
                dependency_only: p.dependency_only,
            })
            .collect(),
        admitted: plan.admitted,
        skipped: plan.skipped(),
    }
}

/// Print the plan: lines (or JSON) to `out`, the human count to `err`.
pub fn print(
    plan: &Plan,
    json: bool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> std::io::Result<()> {
    let listing = listing(plan);
    if json {
        serde_json::to_writer_pretty(&mut *out, &listing)?;
        writeln!(out)?;
        return out.flush();
    }
    let width = listing
        .scenarios
        .iter()
        .map(|s| s.id.chars().count())
        .max()
        .unwrap_or(0);
    for s in &listing.scenarios {
        let tags = if s.tags.is_empty() {
            String::new()
        } else {
            format!("  [{}]", s.tags.join(", "))
        };
        let pulled = if s.dependency_only {
            "  (dependency)"
        } else {
            ""
        };
        writeln!(out, "{:<width$}  {}{tags}{pulled}", s.id, s.location)?;
    }
    out.flush()?;
    let n = listing.scenarios.len();
    let skipped = if listing.skipped > 0 {
        format!(" ({} skipped)", listing.skipped)
    } else {
        String::new()
    };
    writeln!(
        err,
        "{n} scenario{}{skipped} planned; nothing was run (--list)",
        if n == 1 { "" } else { "s" }
    )
}
