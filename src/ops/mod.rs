//! Operations shared by the command line and the MCP server: each takes plain parameters,
//! validates them, calls an engine crate and returns JSON. The CLI renders the JSON (or prints
//! it with `--json`); the MCP server returns it as a tool result. One implementation, two
//! front ends.

pub mod repair;
pub mod repair_drain;
pub mod session;

use a3s_test_ledger::{Clock, RandomRequestIds, SystemClock};
use std::path::PathBuf;
use std::sync::Arc;

/// The environment variable that overrides the project root (where `.a3s-test/` lives).
pub const ROOT_ENV: &str = "A3S_TEST_ROOT";

/// What every operation needs: the project root, a clock and a source of request ids for
/// generated commands.
pub struct Context {
    /// The project root holding `.a3s-test/`.
    pub root: PathBuf,
    /// The clock leases are measured with.
    pub clock: Arc<dyn Clock>,
    /// Fresh request ids for generated next-action commands.
    pub ids: RandomRequestIds,
}

impl Context {
    /// A context for `root` (else `$A3S_TEST_ROOT`, else the working directory) on the system
    /// clock.
    pub fn new(root: Option<PathBuf>) -> Self {
        let root = root
            .or_else(|| std::env::var_os(ROOT_ENV).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("."));
        Context {
            root,
            clock: Arc::new(SystemClock),
            ids: RandomRequestIds::default(),
        }
    }
}
