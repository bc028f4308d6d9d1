//! `a3s-test-runner`: runs admitted ACL suites against a [`SurfaceDriver`].
//!
//! The flow of `a3s-test run` lives here, one small module per stage:
//! [`discover`] (`*.acl` files) → [`admit`] (the admission gate, in parallel) → [`plan`] (`--filter`,
//! `--tag`, `--shard`) → [`executor`] (one driver per run, a fresh context per scenario, `--jobs`
//! scenarios at once, one deadline per scenario, no implicit retries) → [`event`]s → [`reporter`]s
//! (terminal, JSON, JUnit, HTML, GitHub annotations) and a [`result::RunResult`] → an [`exit`]
//! code. [`merge`] joins the results of `--shard i/n` runs into one (`merge-reports`).
//!
//! The executor never prints: it emits typed [`event::RunEvent`]s and each reporter renders them
//! (cargo-nextest's split). Around the executor sit the owned-process helpers: [`devserver`] (the
//! project's dev server in a process group this run owns), [`process_tree`] (find and reap every
//! process the run started, by PID, never by name) and [`signals`] (Ctrl+C once: bounded cleanup;
//! twice: kill the owned tree).
//!
//! [`SurfaceDriver`]: a3s_test_driver::SurfaceDriver

pub mod admit;
pub mod cancel;
pub mod candidates;
pub mod colour;
pub mod contract;
pub mod devserver;
pub mod discover;
pub mod durations;
pub mod event;
pub mod evidence;
pub mod executor;
pub mod exit;
pub mod expect;
pub mod filter;
pub mod include;
pub mod jobs;
pub mod last_run;
pub mod merge;
pub mod plan;
pub mod pool;
pub mod process_tree;
pub mod read;
pub mod repair;
pub mod reporter;
pub mod result;
pub mod run;
pub mod run_id;
pub mod session;
pub mod signals;
pub mod skip;
pub mod snapshot;
pub mod step;
pub mod surfaces;
pub mod trace;
pub mod verdict;
