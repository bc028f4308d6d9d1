//! End-to-end tests of agent sessions: the real binary, a real supervisor and real Chromium
//! against pages served by a loopback server the test starts. Every test checks that no process
//! of the session's supervisor or browser group survives `finish`/`abort`.

mod cli;
#[path = "../common.rs"]
mod common;
mod confinement;
mod ground;
mod ground_budget;
mod gui;
mod gui_apps;
mod gui_visual;
mod large_page;
mod lifecycle;
mod mcp;
#[path = "../mcp_pipe.rs"]
mod mcp_pipe;
#[path = "../owned.rs"]
mod owned;
mod private;
mod project_context;
mod repair_prove;
mod repeated;
#[path = "../reviewer/mod.rs"]
mod reviewer;
mod safety;
mod secrets;
mod support;
mod testkit;
mod trace;
mod tui;
mod turn;
mod ui_refs;
mod verbs;
mod view;
