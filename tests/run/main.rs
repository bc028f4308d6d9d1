//! End-to-end tests of `a3s-test run`: the real binary, real Chromium, real pages over loopback.
//!
//! Every test starts its own in-process HTTP server over `tests/fixtures/web` (plus a few test-only
//! routes: `/hang` never answers, and every request is announced on a channel so a test can wait
//! for "the browser asked for this page" instead of sleeping). Every child runs in its own process
//! group with a deadline; after each reliability test no process the run started is left.

mod annotations;
mod aria;
#[path = "../common.rs"]
mod common;
mod confinement;
mod context;
mod contract_step;
mod deadlines;
mod devserver;
mod drag;
mod endpoint;
mod github;
mod grid;
mod grid_server;
mod gui;
mod gui_apps;
mod gui_qt_modal;
mod gui_ready;
mod gui_select;
mod gui_visual;
mod harness;
mod html_report;
mod indexed_db;
mod insecure;
mod login_app;
mod merge;
mod negative;
mod network;
mod organisation;
mod reliability;
mod retries;
mod secrets;
mod selection;
mod shards;
mod sign_in;
mod suites;
mod tls;
mod trace;
mod trace_bodies;
mod trace_cuts;
mod trace_modes;
mod trace_report;
mod tui;
mod visual;
mod web_first;
