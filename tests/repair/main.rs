//! End-to-end tests of the repair loop through the `a3s-test` binary: the `agent repair-*`
//! commands, the MCP server and the HTTP repair endpoint, each against a real ledger in a
//! temporary project root, and the Test Kit in real Chromium feeding them (`testkit`).

mod baseline_observe;
mod cli;
#[path = "../common.rs"]
mod common;
mod confinement;
mod design_audit;
mod endpoint;
mod endpoint_baseline;
mod layout_verify;
mod mcp;
#[path = "../mcp_pipe.rs"]
mod mcp_pipe;
mod overlay_gate;
mod page_actions;
mod page_server;
mod promote;
#[path = "../reviewer/mod.rs"]
mod reviewer;
mod run_candidates;
mod support;
mod testkit;
mod verify;
mod verify_app;
