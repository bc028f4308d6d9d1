//! Re-validation of `a3s.test.page-context-diff/1` deltas. A delta decides which `@cN` refs
//! survive a page change, so nothing the page says is trusted until every rule of the protocol
//! has been checked here, each with its own stable code:
//! protocol name, `fromRevision` == the caller's baseline, `toRevision` > `fromRevision` (equal
//! only as an empty no-op) and == the response revision, the status enum, ids unique and sorted
//! by UTF-8 bytes, changed and removed disjoint (removed ⊆ invalidated, no removed id listed as a
//! node), at most [`MAX_DIFF_IDS`] ids, `ui` set on any advance, and `reset_required` carrying
//! every flag and no ids.

use serde_json::Value;
use std::collections::BTreeSet;

/// The diff protocol name.
pub const DIFF_PROTOCOL: &str = "a3s.test.page-context-diff/1";
/// Most ids (nodes + components) a complete delta may list.
pub const MAX_DIFF_IDS: usize = 10_000;

/// The rule codes belong to the driver's `test.driver.web.*` family; they are re-exported here
/// because this module is where each rule is checked.
pub use a3s_test_driver::failure::DiffRule;

/// A delta that broke a rule, with a short explanation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", rule.as_str())]
pub struct DiffError {
    /// The rule.
    pub rule: DiffRule,
    /// What was wrong (never page text).
    pub message: String,
}

fn fail<T>(rule: DiffRule, message: impl Into<String>) -> Result<T, DiffError> {
    Err(DiffError {
        rule,
        message: message.into(),
    })
}

/// A delta that passed every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delta {
    /// Same revision: nothing changed.
    Unchanged {
        /// The revision.
        revision: u64,
    },
    /// Every changed or removed id is listed.
    Complete {
        /// The baseline.
        from: u64,
        /// The new revision.
        to: u64,
        /// Page record invalidated.
        page: bool,
        /// Facts invalidated.
        facts: bool,
        /// Changed or removed node ids.
        node_ids: BTreeSet<String>,
        /// Of those, the removed ones.
        removed: BTreeSet<String>,
        /// Changed or removed component ids.
        component_ids: BTreeSet<String>,
    },
    /// The page could not say what changed: everything is invalid.
    Reset {
        /// The baseline.
        from: u64,
        /// The new revision.
        to: u64,
    },
}

fn revision(v: &Value, field: &str) -> Result<u64, DiffError> {
    match v.get(field).and_then(Value::as_u64) {
        Some(n) if n >= 1 => Ok(n),
        _ => fail(
            DiffRule::Shape,
            format!("`{field}` is not a positive integer"),
        ),
    }
}

fn flag(inv: &Value, field: &str) -> Result<bool, DiffError> {
    match inv.get(field) {
        Some(Value::Bool(b)) => Ok(*b),
        _ => fail(
            DiffRule::Shape,
            format!("`invalidated.{field}` is not a boolean"),
        ),
    }
}

/// A list of ids: strings, unique, strictly increasing by UTF-8 bytes (Rust's `str` order).
fn ids(v: Option<&Value>, field: &str) -> Result<Vec<String>, DiffError> {
    let Some(Value::Array(items)) = v else {
        return fail(DiffRule::Shape, format!("`{field}` is not an array"));
    };
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let Some(s) = item.as_str() else {
            return fail(DiffRule::Shape, format!("`{field}` holds a non-string id"));
        };
        if let Some(prev) = out.last() {
            match prev.as_str().cmp(s) {
                std::cmp::Ordering::Equal => {
                    return fail(DiffRule::Duplicate, format!("`{field}` repeats an id"))
                }
                std::cmp::Ordering::Greater => {
                    return fail(
                        DiffRule::Unsorted,
                        format!("`{field}` is not sorted by UTF-8 bytes"),
                    )
                }
                std::cmp::Ordering::Less => {}
            }
        }
        out.push(s.to_string());
    }
    Ok(out)
}

/// Validate the delta of a snapshot `response` (detail `diff`, or `waitForDiff`) against the
/// caller's `baseline` revision.
pub fn validate(response: &Value, baseline: u64) -> Result<Delta, DiffError> {
    let Some(delta) = response.get("delta").filter(|d| !d.is_null()) else {
        return fail(DiffRule::Missing, "the response carries no delta");
    };
    if !delta.is_object() {
        return fail(DiffRule::Shape, "`delta` is not an object");
    }
    if delta.get("protocol").and_then(Value::as_str) != Some(DIFF_PROTOCOL) {
        return fail(
            DiffRule::Protocol,
            format!("`protocol` is not {DIFF_PROTOCOL}"),
        );
    }
    let from = revision(delta, "fromRevision")?;
    let to = revision(delta, "toRevision")?;
    if from != baseline {
        return fail(
            DiffRule::FromRevision,
            format!("`fromRevision` {from} is not the baseline {baseline}"),
        );
    }
    if to < from {
        return fail(
            DiffRule::Regression,
            format!("`toRevision` {to} is below `fromRevision` {from}"),
        );
    }
    let current = revision(response, "revision")?;
    if to != current {
        return fail(
            DiffRule::ToRevision,
            format!("`toRevision` {to} is not the response revision {current}"),
        );
    }
    let status = match delta.get("status").and_then(Value::as_str) {
        Some(s @ ("complete" | "reset_required")) => s,
        _ => return fail(DiffRule::Status, "`status` is not complete|reset_required"),
    };
    let Some(inv) = delta.get("invalidated").filter(|v| v.is_object()) else {
        return fail(DiffRule::Shape, "`invalidated` is not an object");
    };
    let all = flag(inv, "all")?;
    let page = flag(inv, "page")?;
    let facts = flag(inv, "facts")?;
    let ui = flag(inv, "ui")?;
    let node_ids = ids(inv.get("nodeIds"), "invalidated.nodeIds")?;
    let component_ids = ids(inv.get("componentIds"), "invalidated.componentIds")?;
    if node_ids.len() + component_ids.len() > MAX_DIFF_IDS {
        return fail(
            DiffRule::TooMany,
            format!("more than {MAX_DIFF_IDS} ids in one delta"),
        );
    }
    if status == "reset_required" {
        let every_flag = all && page && facts && ui;
        if !(every_flag && node_ids.is_empty() && component_ids.is_empty()) {
            return fail(
                DiffRule::ResetShape,
                "`reset_required` must set every flag and list no ids",
            );
        }
        if to == from {
            return fail(DiffRule::Regression, "`reset_required` without an advance");
        }
        return Ok(Delta::Reset { from, to });
    }
    if all {
        return fail(DiffRule::ResetShape, "`complete` with `all` set");
    }
    if to == from {
        if page || facts || ui || !node_ids.is_empty() || !component_ids.is_empty() {
            return fail(
                DiffRule::Regression,
                "`toRevision` equals `fromRevision` but the delta is not empty",
            );
        }
        return Ok(Delta::Unchanged { revision: to });
    }
    if !ui {
        return fail(DiffRule::Ui, "the revision advanced but `ui` is not set");
    }
    let removed = ids(response.get("removedNodeIds"), "removedNodeIds")?;
    let node_set: BTreeSet<String> = node_ids.into_iter().collect();
    let removed: BTreeSet<String> = removed.into_iter().collect();
    if removed.iter().any(|id| !node_set.contains(id)) {
        return fail(
            DiffRule::Overlap,
            "a removed id is missing from `invalidated.nodeIds`",
        );
    }
    for node in response
        .get("nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if node
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|id| removed.contains(id))
        {
            return fail(DiffRule::Overlap, "an id is both changed and removed");
        }
    }
    Ok(Delta::Complete {
        from,
        to,
        page,
        facts,
        node_ids: node_set,
        removed,
        component_ids: component_ids.into_iter().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn complete(from: u64, to: u64, nodes: Value, removed: Value) -> Value {
        json!({
            "protocol": "a3s.test.page-context/1",
            "revision": to,
            "nodes": [],
            "removedNodeIds": removed,
            "delta": {
                "protocol": DIFF_PROTOCOL,
                "fromRevision": from,
                "toRevision": to,
                "status": "complete",
                "invalidated": {
                    "all": false, "page": false, "facts": false, "ui": to > from,
                    "nodeIds": nodes, "componentIds": []
                }
            }
        })
    }

    fn reset(from: u64, to: u64) -> Value {
        json!({
            "revision": to,
            "removedNodeIds": [],
            "delta": {
                "protocol": DIFF_PROTOCOL, "fromRevision": from, "toRevision": to,
                "status": "reset_required",
                "invalidated": { "all": true, "page": true, "facts": true, "ui": true,
                                 "nodeIds": [], "componentIds": [] }
            }
        })
    }

    fn with(mut v: Value, path: &[&str], value: Value) -> Value {
        let mut cur = &mut v;
        for key in &path[..path.len() - 1] {
            cur = cur.get_mut(*key).expect("path exists");
        }
        cur[path[path.len() - 1]] = value;
        v
    }

    #[test]
    fn accepts_valid_deltas() {
        let ok = validate(&complete(3, 5, json!(["a", "b"]), json!(["b"])), 3).unwrap();
        match ok {
            Delta::Complete {
                from,
                to,
                node_ids,
                removed,
                ..
            } => {
                assert_eq!((from, to), (3, 5));
                assert_eq!(node_ids.len(), 2);
                assert!(removed.contains("b"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            validate(&complete(4, 4, json!([]), json!([])), 4).unwrap(),
            Delta::Unchanged { revision: 4 }
        );
        assert_eq!(
            validate(&reset(2, 9), 2).unwrap(),
            Delta::Reset { from: 2, to: 9 }
        );
        // UTF-8 byte order: "Z" (0x5a) < "a" (0x61) < "é" (0xc3 0xa9).
        assert!(validate(&complete(1, 2, json!(["Z", "a", "é"]), json!([])), 1).is_ok());
    }

    #[test]
    fn every_rule_has_its_own_code() {
        let base = complete(3, 5, json!(["a", "b"]), json!(["b"]));
        let too_many: Vec<String> = (0..=MAX_DIFF_IDS).map(|i| format!("n{i:06}")).collect();
        let cases: Vec<(&str, Value, u64, DiffRule)> = vec![
            ("no delta", json!({"revision": 5}), 3, DiffRule::Missing),
            (
                "null delta",
                with(base.clone(), &["delta"], Value::Null),
                3,
                DiffRule::Missing,
            ),
            (
                "delta not object",
                with(base.clone(), &["delta"], json!(7)),
                3,
                DiffRule::Shape,
            ),
            (
                "protocol",
                with(
                    base.clone(),
                    &["delta", "protocol"],
                    json!("a3s.test.page-context-diff/2"),
                ),
                3,
                DiffRule::Protocol,
            ),
            (
                "protocol missing",
                with(base.clone(), &["delta", "protocol"], Value::Null),
                3,
                DiffRule::Protocol,
            ),
            (
                "from not integer",
                with(base.clone(), &["delta", "fromRevision"], json!(3.5)),
                3,
                DiffRule::Shape,
            ),
            (
                "from zero",
                with(base.clone(), &["delta", "fromRevision"], json!(0)),
                3,
                DiffRule::Shape,
            ),
            (
                "from negative",
                with(base.clone(), &["delta", "fromRevision"], json!(-3)),
                3,
                DiffRule::Shape,
            ),
            ("from != baseline", base.clone(), 2, DiffRule::FromRevision),
            (
                "regression",
                complete(5, 3, json!([]), json!([])),
                5,
                DiffRule::Regression,
            ),
            (
                "to != revision",
                with(base.clone(), &["revision"], json!(6)),
                3,
                DiffRule::ToRevision,
            ),
            (
                "status",
                with(base.clone(), &["delta", "status"], json!("partial")),
                3,
                DiffRule::Status,
            ),
            (
                "status missing",
                with(base.clone(), &["delta", "status"], Value::Null),
                3,
                DiffRule::Status,
            ),
            (
                "invalidated missing",
                with(base.clone(), &["delta", "invalidated"], Value::Null),
                3,
                DiffRule::Shape,
            ),
            (
                "flag not bool",
                with(base.clone(), &["delta", "invalidated", "page"], json!(1)),
                3,
                DiffRule::Shape,
            ),
            (
                "ids not array",
                with(
                    base.clone(),
                    &["delta", "invalidated", "nodeIds"],
                    json!("a"),
                ),
                3,
                DiffRule::Shape,
            ),
            (
                "id not string",
                with(
                    base.clone(),
                    &["delta", "invalidated", "nodeIds"],
                    json!(["a", 2]),
                ),
                3,
                DiffRule::Shape,
            ),
            (
                "duplicate node id",
                complete(3, 5, json!(["a", "a"]), json!([])),
                3,
                DiffRule::Duplicate,
            ),
            (
                "unsorted node ids",
                complete(3, 5, json!(["b", "a"]), json!([])),
                3,
                DiffRule::Unsorted,
            ),
            (
                "UTF-16 order is not UTF-8 order",
                complete(3, 5, json!(["\u{1f600}", "\u{ff61}"]), json!([])),
                3,
                DiffRule::Unsorted,
            ),
            (
                "duplicate component id",
                with(
                    base.clone(),
                    &["delta", "invalidated", "componentIds"],
                    json!(["c", "c"]),
                ),
                3,
                DiffRule::Duplicate,
            ),
            (
                "unsorted removed",
                complete(3, 5, json!(["a", "b"]), json!(["b", "a"])),
                3,
                DiffRule::Unsorted,
            ),
            (
                "removed not invalidated",
                complete(3, 5, json!(["a"]), json!(["z"])),
                3,
                DiffRule::Overlap,
            ),
            (
                "changed and removed",
                with(base.clone(), &["nodes"], json!([{"id": "b"}])),
                3,
                DiffRule::Overlap,
            ),
            (
                "removed not array",
                with(base.clone(), &["removedNodeIds"], Value::Null),
                3,
                DiffRule::Shape,
            ),
            (
                "too many ids",
                complete(3, 5, json!(too_many), json!([])),
                3,
                DiffRule::TooMany,
            ),
            (
                "ui not set on advance",
                with(base.clone(), &["delta", "invalidated", "ui"], json!(false)),
                3,
                DiffRule::Ui,
            ),
            (
                "complete with all",
                with(base.clone(), &["delta", "invalidated", "all"], json!(true)),
                3,
                DiffRule::ResetShape,
            ),
            (
                "same revision not empty",
                complete(4, 4, json!(["a"]), json!([])),
                4,
                DiffRule::Regression,
            ),
            (
                "reset missing flag",
                with(
                    reset(2, 9),
                    &["delta", "invalidated", "facts"],
                    json!(false),
                ),
                2,
                DiffRule::ResetShape,
            ),
            (
                "reset with ids",
                with(
                    reset(2, 9),
                    &["delta", "invalidated", "nodeIds"],
                    json!(["a"]),
                ),
                2,
                DiffRule::ResetShape,
            ),
            (
                "reset without advance",
                reset(4, 4),
                4,
                DiffRule::Regression,
            ),
        ];
        for (name, response, baseline, rule) in cases {
            let got = validate(&response, baseline);
            assert_eq!(
                got.as_ref().err().map(|e| e.rule),
                Some(rule),
                "{name}: {got:?}"
            );
        }
    }

    #[test]
    fn codes_are_unique_and_dotted() {
        let codes: BTreeSet<&str> = DiffRule::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(codes.len(), DiffRule::ALL.len());
        assert!(codes
            .iter()
            .all(|c| c.starts_with("test.driver.web.page_context_diff.")));
    }

    #[test]
    fn exactly_the_ceiling_is_allowed() {
        let ids: Vec<String> = (0..MAX_DIFF_IDS).map(|i| format!("n{i:06}")).collect();
        assert!(validate(&complete(1, 2, json!(ids), json!([])), 1).is_ok());
    }
}
