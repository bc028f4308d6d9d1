//! Agent sessions: the same executor as `run`, driven one statement at a time.
//!
//! A session is a browser that outlives a CLI turn, owned by a small [`supervisor`] process
//! (own session and process group) that serves turns over a Unix socket. Each turn is either an
//! observation — refs `@eN` bound to observation N and its document ([`observation`]) — or one
//! ACL statement admitted by `a3s_test_lang::admit_statement` and passed through the [`gates`]
//! (schema → capability → target type → ref binding → policy → budgets) before
//! the shared step runner (`crate::step`) dispatches it ([`engine`]). The session is generic
//! over the driver contract (`a3s_test_driver::AgentDriver`); the supervisor is handed a launcher
//! that picks the concrete driver. Every event it logs is a typed [`event::SessionEvent`].
//! A ref is dispatched through a durable
//! target proven to name the *same* backend node, which is also what [`promote`] writes into a
//! suite. Records live in `.a3s-test/agent-sessions/<id>/` ([`file`]). On a page with the Test
//! Kit bridge, observations also carry `@cN` refs bound to the same Page Context revision; they
//! survive actions only through a delta re-validated in Rust ([`page_context`]).
//!
//! What an observation shows, and how it fits a model's context window (outline, budget,
//! diffs, settling), is [`view`].
//!
//! A session may drive a terminal program instead of a browser (`agent start --tui`): the same
//! supervisor, protocol, files and step runner, with the screen as the observation and input
//! bound to it ([`terminal`]), generic over `a3s_test_driver::TerminalAgentDriver`.
//!
//! A session may drive a desktop program too (`agent start --gui`): the page's outline, refs,
//! diffs and gates over the program's windows ([`desktop`]), generic over
//! `a3s_test_driver::DesktopAgentDriver`.
//!
//! Page text is untrusted data everywhere: it is quoted in views, flagged `untrusted: true`, and
//! never part of a suggested command ([`next`]).

pub mod answer;
pub mod cleanup;
pub mod client;
pub mod code;
pub mod design_audit;
pub mod desktop;
pub mod engine;
pub mod error_detail;
pub mod event;
pub mod file;
pub mod gates;
pub mod ground;
pub mod ground_proof;
pub mod next;
pub mod observation;
pub mod page_context;
pub mod policy;
pub mod private_input;
pub mod promote;
pub mod protocol;
pub mod ready;
pub mod repair_page;
pub mod reply;
mod run_line;
mod sorted;
pub mod spawn;
pub mod statement;
pub mod supervisor;
pub mod terminal;
pub mod trace;
mod turn;
pub mod ui;
pub mod view;

pub use code::{SessionCode, SessionError};
