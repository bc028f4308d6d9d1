//! `a3s-test`: the command-line shell over the engine crates.
//!
//! The binary is thin on purpose (as cargo-nextest's is): argument parsing and output selection
//! live here; admission lives in `a3s-test-lang`, execution in the runner, repair state in the
//! ledger. See `cli/` for one file per command.

mod cli;
mod mcp;
mod ops;

/// mimalloc rather than the system allocator: most commands are short-lived processes that
/// allocate a lot once (a 1 MB suite becomes ~17 MB of tokens, tree and IR). glibc's malloc hands
/// out fresh pages one fault at a time and returns freed ones to the kernel; mimalloc maps and
/// reuses larger segments, so `check` of one such file takes ~290 page faults instead of ~4,500
/// and about a third less time (docs/benchmarks.md, "Admission").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    a3s_test_driver::tls::install_process_default();
    cli::main()
}
