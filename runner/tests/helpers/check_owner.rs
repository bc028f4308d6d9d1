//! Test helper, not a product binary: the owner process of `tests/repair_owner.rs`.
//!
//! It runs one trusted check in the project root given as its first argument (evidence in the
//! session folder given second) and waits for it. The check writes `main.pid` (its main process)
//! and `child.pid` (a background grandchild) and then sleeps; the test kills this process with
//! SIGKILL and checks that both die with their owner. A separate binary keeps the helper out of
//! the test count.

use a3s_test_lang::ir::{CheckTier, VerificationCheck};
use a3s_test_runner::repair::checks::{run_checks, CheckOptions, EvidenceDir};
use std::path::PathBuf;

const SCRIPT: &str = "(sleep 60 & echo $! > child.tmp; mv child.tmp child.pid); \
                      echo $$ > main.tmp; mv main.tmp main.pid; exec sleep 60";

fn main() {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(root), Some(session)) = (args.next(), args.next()) else {
        eprintln!("usage: a3s-test-check-owner ROOT SESSION");
        std::process::exit(2);
    };
    let check = VerificationCheck {
        id: "owned".into(),
        tier: CheckTier::Focused,
        command: vec!["sh".into(), "-c".into(), SCRIPT.into()],
        file_prefixes: Vec::new(),
        timeout_ms: 120_000,
    };
    let session = a3s_test_fsroot::Dir::create_anchor(&session).expect("the session folder");
    let evidence = EvidenceDir::create(&session, "checks").expect("the evidence folder");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let results = runtime.block_on(run_checks(
        &root,
        &[&check],
        &evidence,
        &CheckOptions::default(),
    ));
    // Only reached if nobody killed this process within the check's deadline.
    eprintln!("the check ended before its owner was killed: {results:?}");
    std::process::exit(1);
}
