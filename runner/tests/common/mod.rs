//! Helpers shared by the reporter snapshot tests.

use a3s_test_runner::result::EvidenceRecord;
use std::path::Path;

/// The four failure evidence files of a failed web scenario, as the executor records them
/// (kind = file stem), under `dir`.
pub fn failure_evidence(dir: &Path) -> Vec<EvidenceRecord> {
    [
        "screenshot.png",
        "accessibility.json",
        "console.json",
        "page_errors.json",
    ]
    .iter()
    .map(|f| EvidenceRecord {
        kind: f.split('.').next().unwrap().to_string(),
        path: dir.join(f),
    })
    .collect()
}
