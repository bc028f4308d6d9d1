//! The runner's side of verifying a repair: the work A3S Test does itself, so that an agent's
//! "done" is never the verdict. [`checks`] runs the project's trusted checks (or reads the results
//! an orchestrator reported) for step 7 of a verification.

pub mod checks;
