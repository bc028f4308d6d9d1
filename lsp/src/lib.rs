//! `a3s-test-lsp`: the ACL language server behind `a3s-test lsp`.
//!
//! Three layers, each in its own module:
//! - [`core`]: the documents and every feature (diagnostics, quick fixes, formatting, hover,
//!   completion, symbols, folding, semantic tokens, names) as pure functions over `lang` — the
//!   same admission, diagnostics and printer as `a3s-test check` and `fmt`, no second parser;
//! - [`protocol`]: the one module that knows `lsp-types` — capabilities, parameters in, answers
//!   out;
//! - [`server`]: the ordered main loop over an `lsp-server` connection (initialize, requests in
//!   order, cancellation, debounced diagnostics, shutdown/exit).

pub mod core;
pub mod protocol;
pub mod server;

pub use server::{serve, serve_stdio, Exit, ServeError};
