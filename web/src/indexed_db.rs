//! An origin's IndexedDB databases read from, and written into, a tab's top document for the
//! storage state (`save_storage_state { indexed_db = true }`; the file types are
//! [`a3s_test_driver::storage_state::indexed_db`]).
//!
//! Why page script and not the `IndexedDB.*` CDP domain: that domain reads records as remote
//! object previews (truncated, with no way back to a `Date`, a typed array or a `Blob`) and has
//! no way to create a database, a store or an index. Page script sees the structured-clone values
//! themselves and can open a database at its saved version. `indexed_db.js` does both halves in
//! one expression each, awaited within the step's deadline (and [`INDEXED_DB_BOUND`]); a value it
//! cannot encode is refused with its database, store and kind — never its contents — and
//! nothing is written.

use super::script;
use super::tab::Tab;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::storage_state::indexed_db::MAX_VALUE_DEPTH;
use a3s_test_driver::storage_state::{Database, MAX_STORAGE_STATE_BYTES};
use a3s_test_driver::StepFailure;
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// How long one read or restore of an origin's databases may take (the step's or scenario's
/// deadline cuts it shorter): far above the 10 s of a plain command, since 10,000 small records
/// take about 4 s each way on a busy machine (`docs/benchmarks.md`) and a state may hold 16 MiB.
const INDEXED_DB_BOUND: Duration = Duration::from_secs(120);

/// The page half: `save(maxDepth, maxBytes)` and `load(databases)`.
const INDEXED_DB_JS: &str = include_str!("indexed_db.js");

/// What `save` answers.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Saved {
    /// Every database of the document's origin.
    Databases(Vec<Database>),
    /// A value of a kind the state file cannot hold.
    Refused {
        database: String,
        store: String,
        what: String,
    },
    /// The databases would not fit in a state file.
    TooLarge { database: String, store: String },
    /// IndexedDB itself failed (a database that would not open, an aborted transaction).
    Failed {
        database: String,
        store: String,
        message: String,
    },
}

/// What `load` answers.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Loaded {
    /// How many databases were written.
    Restored(usize),
    /// Where writing stopped, and why.
    Failed {
        database: String,
        store: String,
        message: String,
    },
}

/// `database` or `database/store`, quoted, for a message.
fn place(database: &str, store: &str) -> String {
    if store.is_empty() {
        format!("{database:?}")
    } else {
        format!("{database:?}/{store:?}")
    }
}

/// The value of an awaited `Runtime.evaluate` by value, read as `T`; a throw or a reply of
/// another shape is `code` with `what` said.
async fn evaluate<T: for<'de> Deserialize<'de>>(
    tab: &Tab,
    expression: String,
    code: FailureCode,
    what: &str,
    deadline: Instant,
) -> Result<T, StepFailure> {
    tab.fail_if_dialog()?;
    let params = json!({ "expression": expression, "returnByValue": true, "awaitPromise": true });
    let call = tab
        .session
        .call("Runtime.evaluate", params, INDEXED_DB_BOUND, deadline);
    let reply = script::race_dialog(tab, call).await?;
    let value = reply
        .pointer("/result/value")
        .cloned()
        .unwrap_or(Value::Null);
    if reply.get("exceptionDetails").is_some() {
        return Err(StepFailure::new(
            code,
            format!("{what}: the page script threw"),
        ));
    }
    // serde's message may quote a value: only the fact is said.
    serde_json::from_value(value)
        .map_err(|_| StepFailure::new(code, format!("{what}: the page answered another shape")))
}

/// Every IndexedDB database of the origin `tab`'s top document shows, encoded.
pub(crate) async fn read(
    tab: &Tab,
    origin: &str,
    deadline: Instant,
) -> Result<Vec<Database>, StepFailure> {
    let expression =
        format!("({INDEXED_DB_JS}).save({MAX_VALUE_DEPTH}, {MAX_STORAGE_STATE_BYTES})");
    let what = format!("reading the IndexedDB of {origin}");
    let saved = evaluate(
        tab,
        expression,
        FailureCode::StorageStateWrite,
        &what,
        deadline,
    )
    .await?;
    match saved {
        Saved::Databases(databases) => Ok(databases),
        Saved::Refused {
            database,
            store,
            what,
        } => Err(StepFailure::new(
            FailureCode::StorageStateUnencodable,
            format!(
                "IndexedDB store {} of {origin} holds {what}, which a storage state cannot hold; \
                 nothing was saved",
                place(&database, &store)
            ),
        )),
        Saved::TooLarge { database, store } => Err(StepFailure::new(
            FailureCode::StorageStateUnencodable,
            format!(
                "the IndexedDB of {origin} is larger than a storage state may be ({} MiB; \
                 passed at {}); nothing was saved",
                MAX_STORAGE_STATE_BYTES / (1024 * 1024),
                place(&database, &store)
            ),
        )),
        Saved::Failed {
            database,
            store,
            message,
        } => Err(StepFailure::new(
            FailureCode::StorageStateWrite,
            format!(
                "could not read IndexedDB {} of {origin}: {message}",
                place(&database, &store)
            ),
        )),
    }
}

/// Create `databases` (at their versions, with their stores and indexes) and put their records,
/// in `tab`, whose top document shows `origin`.
pub(crate) async fn restore(
    tab: &Tab,
    origin: &str,
    databases: &[Database],
    deadline: Instant,
) -> Result<(), StepFailure> {
    let invalid = |m: String| StepFailure::new(FailureCode::StorageStateInvalid, m);
    let payload = serde_json::to_string(databases).map_err(|e| {
        invalid(format!(
            "the IndexedDB of {origin} could not be encoded: {e}"
        ))
    })?;
    let expression = format!("({INDEXED_DB_JS}).load({payload})");
    let what = format!("restoring the IndexedDB of {origin}");
    let loaded = evaluate(
        tab,
        expression,
        FailureCode::StorageStateInvalid,
        &what,
        deadline,
    )
    .await?;
    match loaded {
        Loaded::Restored(n) if n == databases.len() => Ok(()),
        Loaded::Restored(n) => Err(invalid(format!(
            "{what}: {n} of {} databases were written",
            databases.len()
        ))),
        Loaded::Failed {
            database,
            store,
            message,
        } => Err(invalid(format!(
            "could not restore IndexedDB {} of {origin}: {message}",
            place(&database, &store)
        ))),
    }
}
