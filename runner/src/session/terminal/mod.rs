//! Agent sessions on a terminal: a program on its own pseudoterminal, owned by the supervisor
//! exactly as a browser is (the program's process group, the parent-death signal, the recorded
//! pid and start time a cleanup checks), driven one statement at a time.
//!
//! - [`engine`]: the turns — observe, exec (admitted by `lang` as a terminal step and run
//!   through the one step runner), finish, abort — generic over the terminal agent contract
//!   (`a3s_test_driver::TerminalAgentDriver`); the binary injects the driver.
//! - [`view`]: what `observe` answers — numbered rows, cursor, modes; `--since N` as a row diff;
//!   `--max-bytes` by cutting the rows farthest from the cursor.
//! - [`gate`]: input is sent only against the screen the agent observed
//!   (`test.session.stale_screen`).
//! - [`promote`]: the passing turns as a `surface = "tui"` suite.

pub mod engine;
pub mod gate;
pub mod promote;
pub mod view;

pub use engine::TerminalEngine;
