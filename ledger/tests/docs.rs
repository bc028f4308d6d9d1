//! `docs/repair.md` is checked against the crate: every error code, every status and every
//! transition-table operation is documented.

use a3s_test_ledger::status::TRANSITIONS;
use a3s_test_ledger::{ErrorCode, RepairStatus};

fn doc() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/repair.md"))
        .expect("docs/repair.md")
}

#[test]
fn every_error_code_is_documented() {
    let d = doc();
    for code in ErrorCode::ALL {
        assert!(
            d.contains(&format!("`{code}`")),
            "{code} is not in docs/repair.md"
        );
    }
}

#[test]
fn every_status_and_operation_is_documented() {
    let d = doc();
    for s in RepairStatus::ALL {
        assert!(d.contains(s.as_str()), "{s} is not in docs/repair.md");
    }
    for t in TRANSITIONS {
        let row = d.lines().any(|l| {
            l.starts_with('|')
                && l.split('|').nth(1).is_some_and(|cell| {
                    cell.split([' ', '/', '(', ')', '`'])
                        .any(|w| w == t.op.as_str())
                })
        });
        assert!(row, "operation {} has no row in docs/repair.md", t.op);
    }
}
