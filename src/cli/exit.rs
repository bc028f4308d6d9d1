//! The binary's exit codes: the one [`Exit`] type of `a3s-test-runner`, re-exported so every
//! command (`run`, `check`, `fmt`, `merge-reports`, `serve`, `repair-endpoint`, `agent`) returns
//! the same numbers. The table is in `docs/codes.md`.

pub use a3s_test_runner::exit::Exit;
