//! One DOM-side element query: resolve the nodes the page function is handed, call it on the
//! document with them, keep its result (an object such as `{ elements: [...], kinds: "..." }`)
//! as a remote object in an object group, read its top-level properties, list the remote objects
//! of its element array in document order, let the caller ask its follow-up questions about
//! them, and release the group.
//!
//! Why one place: the operable-element query (`operable.rs`) and the bounded observation of a
//! very large page (`large_page.rs`) both need exactly this sequence, and the part that is
//! easy to get wrong — releasing the group whatever happened in between, so a long session does
//! not pin thousands of elements — is then written once.

use super::cdp::{Session, COMMAND_BOUND};
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::future::Future;
use tokio::time::Instant;

/// The top-level properties of a query's result object (empty when the page function threw or
/// returned no object).
pub(crate) struct QueryResult {
    properties: Vec<Value>,
}

impl QueryResult {
    /// The remote-object descriptor of property `name` (`Null` when absent).
    fn descriptor(&self, name: &str) -> &Value {
        self.properties
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| &p["value"])
            .unwrap_or(&Value::Null)
    }

    /// A string property (empty when absent).
    pub fn string(&self, name: &str) -> &str {
        self.descriptor(name)["value"].as_str().unwrap_or("")
    }

    /// A number property (`None` when absent).
    pub fn number(&self, name: &str) -> Option<f64> {
        self.descriptor(name)["value"].as_f64()
    }

    /// A boolean property (false when absent).
    pub fn flag(&self, name: &str) -> bool {
        self.descriptor(name)["value"] == Value::Bool(true)
    }

    /// A string property, as characters (a query's one-letter-per-element kinds).
    pub fn letters(&self, name: &str) -> Vec<char> {
        self.string(name).chars().collect()
    }

    /// The remote object id of an object property (the element array).
    pub fn object(&self, name: &str) -> Option<String> {
        self.descriptor(name)["objectId"]
            .as_str()
            .map(str::to_owned)
    }
}

/// Call `function` (a JavaScript function declaration) with `this` = the top document and the
/// arguments `values` followed by the DOM nodes `nodes` names (backend node ids, asked of the
/// document's remote object id; a node that no longer exists is left out), give its result to
/// `read`, then release `group` (also when a call or `read` failed). A failure is returned
/// after the release.
pub(crate) async fn with_query<T, N, NFut, F, Fut>(
    session: &Session,
    function: &str,
    values: &[Value],
    nodes: N,
    group: &'static str,
    deadline: Instant,
    read: F,
) -> Result<T, StepFailure>
where
    N: FnOnce(String) -> NFut,
    NFut: Future<Output = Vec<i64>>,
    F: FnOnce(QueryResult) -> Fut,
    Fut: Future<Output = Result<T, StepFailure>>,
{
    let result = async {
        let document = session
            .call(
                "Runtime.evaluate",
                json!({ "expression": "document", "objectGroup": group }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
        let Some(document) = document.pointer("/result/objectId").and_then(Value::as_str) else {
            return read(QueryResult {
                properties: Vec::new(),
            })
            .await;
        };
        let nodes = nodes(document.to_owned()).await;
        // One small request per node, pipelined: the session answers them in order.
        let resolves = nodes.iter().map(|id| {
            session.call(
                "DOM.resolveNode",
                json!({ "backendNodeId": id, "objectGroup": group }),
                COMMAND_BOUND,
                deadline,
            )
        });
        let mut arguments: Vec<Value> = values.iter().map(|v| json!({ "value": v })).collect();
        arguments.extend(
            futures_util::future::join_all(resolves)
                .await
                .into_iter()
                .filter_map(|r| r.ok()?.pointer("/object/objectId").cloned())
                .map(|id| json!({ "objectId": id })),
        );
        let found = session
            .call(
                "Runtime.callFunctionOn",
                json!({
                    "functionDeclaration": function,
                    "objectId": document,
                    "arguments": arguments,
                    "objectGroup": group,
                    "returnByValue": false,
                }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
        let properties = match found.pointer("/result/objectId").and_then(Value::as_str) {
            Some(object) => own_properties(session, object, deadline).await?,
            None => Vec::new(),
        };
        read(QueryResult { properties }).await
    }
    .await;
    let _ = session
        .call(
            "Runtime.releaseObjectGroup",
            json!({ "objectGroup": group }),
            COMMAND_BOUND,
            deadline,
        )
        .await;
    result
}

/// The remote object ids of the array `list`, in index order, each with its index.
pub(crate) async fn elements(
    session: &Session,
    list: &str,
    deadline: Instant,
) -> Result<Vec<(usize, String)>, StepFailure> {
    let mut out: Vec<(usize, String)> = own_properties(session, list, deadline)
        .await?
        .iter()
        .filter_map(|p| {
            let index = p["name"].as_str()?.parse().ok()?;
            Some((index, p.pointer("/value/objectId")?.as_str()?.to_owned()))
        })
        .collect();
    out.sort_unstable_by_key(|(i, _)| *i);
    Ok(out)
}

/// `Runtime.getProperties` (own properties) of a remote object.
async fn own_properties(
    session: &Session,
    object: &str,
    deadline: Instant,
) -> Result<Vec<Value>, StepFailure> {
    let reply = session
        .call(
            "Runtime.getProperties",
            json!({ "objectId": object, "ownProperties": true }),
            COMMAND_BOUND,
            deadline,
        )
        .await?;
    Ok(reply["result"].as_array().cloned().unwrap_or_default())
}
