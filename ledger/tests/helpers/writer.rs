//! Test helper, not a product binary: one ledger writer process for `tests/processes.rs`.
//!
//! It intakes `A3S_LEDGER_COUNT` findings named `A3S_LEDGER_PREFIX<i>` into the ledger file at
//! `A3S_LEDGER_PATH`, printing `ack <id>` after each acknowledged append. With
//! `A3S_LEDGER_CHILD=contend` it also claims finding `c<i % 50>` after each append and prints
//! `claimed <id> <attempt>` or `refused <id>`, so two such processes race for the same claims.
//! The test kills it mid-stream or reads its lines; a separate binary (rather than the test binary
//! re-run with a filter) keeps the helper out of the test count.

#[path = "../common/findings.rs"]
mod findings;

use a3s_test_ledger::*;
use findings::{doc, finding};
use std::io::Write;
use std::sync::Arc;

/// A required `A3S_LEDGER_*` variable.
fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"))
}

fn main() {
    let mode = var("A3S_LEDGER_CHILD");
    let prefix = var("A3S_LEDGER_PREFIX");
    let count: usize = var("A3S_LEDGER_COUNT").parse().expect("a count");
    let path = std::path::PathBuf::from(var("A3S_LEDGER_PATH"));
    let (dir, name) = (
        path.parent().expect("a folder"),
        path.file_name().expect("a file"),
    );
    let location = a3s_test_fsroot::ConfinedPath::new(dir, name);
    let ledger = Ledger::at_path(location, Arc::new(SystemClock));
    let out = std::io::stdout();
    let mut out = out.lock();
    for i in 0..count {
        let id = format!("{prefix}{i}");
        let findings = parse_document(doc(&[finding(&id, "")]).as_bytes()).unwrap();
        ledger.intake(findings, Actor::Human).unwrap();
        writeln!(out, "ack {id}").unwrap();
        out.flush().unwrap();
        if mode == "contend" {
            let target = format!("c{}", i % 50);
            let r = ledger.apply(Request {
                finding_id: FindingId::parse(&target).unwrap(),
                actor: Actor::Agent,
                request_id: Some(RequestId::parse(&format!("{prefix}-claim-{i}")).unwrap()),
                attempt_id: None,
                action: Action::Claim {
                    lease_ms: None,
                    pinned: None,
                },
            });
            match r {
                Ok(a) => writeln!(out, "claimed {target} {}", a.attempt_id.unwrap()).unwrap(),
                Err(e) => {
                    assert_eq!(e.code, ErrorCode::InvalidTransition, "{e}");
                    writeln!(out, "refused {target}").unwrap();
                }
            }
            out.flush().unwrap();
        }
    }
}
