//! Finding documents as intake receives them: shared by the tests (through `common`) and by the
//! writer helper binary (`tests/helpers/writer.rs`), which cannot use the test-only helpers.
// Each includer uses only some of these helpers.
#![allow(dead_code)]

/// A finding item with id `id` (and optional extra JSON fields appended).
pub fn finding(id: &str, extra: &str) -> String {
    format!(
        r#"{{"id":"{id}","createdAt":"2026-01-01T00:00:00Z","target":{{"kind":"node","nodeIds":["n-{id}"]}},"instruction":"Make the {id} button blue","successCriteria":["the button is blue"],"intent":"fix","severity":"important","status":"queued","context":{{"untrusted":true,"route":"/","sourceHints":[{{"span":"src/App.tsx:10:4","confidence":0.9}}]}}{extra}}}"#
    )
}

/// A repair document holding `items`.
pub fn doc(items: &[String]) -> String {
    format!(
        r#"{{"protocol":"a3s.test.repair/1","repairs":[{}]}}"#,
        items.join(",")
    )
}

/// A finding item with id `id` that declares a conflict with the finding `with`.
pub fn conflicting(id: &str, with: &str) -> String {
    finding(
        id,
        &format!(r#","relations":[{{"kind":"conflicts_with","findingId":"{with}"}}]"#),
    )
}
