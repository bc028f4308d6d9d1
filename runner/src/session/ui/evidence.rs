//! UI understanding as repair evidence: the after-capture of a verification (and a finding's
//! baseline) asks for the page's UI record with the default budget, checks it like an agent's
//! (`super::read`), and keeps it as numbered `@uN` facts — a file pinned by its digest, and the
//! printed lines the verification record cites, so a reviewer reads "the toast covers Save"
//! beside the verdict. The facts decide nothing: no step's verdict reads them.

use super::facts::{UiRefs, UiView};
use super::{names_of, read, UiBudget};
use a3s_test_ledger::verification::{MAX_UI_FACTS, MAX_UI_FACT_CHARS};
use serde::Serialize;
use serde_json::Value;

/// The evidence file's name.
pub const UI_FILE: &str = "ui.json";

/// The evidence file's body: the facts numbered within the capture, marked untrusted.
#[derive(Debug, Serialize)]
struct UiFile<'a> {
    untrusted: bool,
    ui: &'a UiView,
}

/// What a capture keeps of the UI record in `snapshot` (a Page Context answer to
/// [`UiBudget::bridge_request`]): the file body and the cited lines. `None` when the answer has no
/// record or its record broke a rule (then nothing of it is kept); a record with no facts is
/// kept (the file says so) and cites nothing.
pub fn cite(snapshot: &Value) -> Option<(Vec<u8>, Vec<String>)> {
    snapshot.get("ui")?;
    let names = names_of(snapshot, |_| None);
    let (facts, mut view) = read(snapshot, &UiBudget::default(), &names).ok()?;
    view.refs = UiRefs::default().bind(0, facts);
    let body = serde_json::to_vec(&UiFile {
        untrusted: true,
        ui: &view,
    })
    .ok()?;
    let lines = view
        .refs
        .iter()
        .take(MAX_UI_FACTS)
        .map(|r| {
            let line = format!("{} {}", r.reference, super::text::fact(&r.fact));
            line.chars().take(MAX_UI_FACT_CHARS).collect()
        })
        .collect();
    Some((body, lines))
}

/// `snapshot` without its UI record, for the Page Context file (which stays the semantic record).
pub fn without_ui(snapshot: &Value) -> Value {
    let mut out = snapshot.clone();
    if let Some(map) = out.as_object_mut() {
        map.remove("ui");
    }
    out
}
