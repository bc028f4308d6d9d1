//! `docs/schema/repair-1.schema.json` is the one schema of `a3s.test.repair/1`; the Test Kit's
//! tests validate its batches against it, and these check that the ledger's serde types accept
//! exactly what it describes: the same enums, the same fields (required and optional), the same
//! bounds, and its examples.

mod common;

use common::wire_names;

use a3s_test_ledger::actions::{HumanActionKind, MAX_ACTIONS};
use a3s_test_ledger::criterion::{TargetState, TypedCriterion, MAX_CRITERIA, MAX_CRITERION_CHARS};
use a3s_test_ledger::intake::{
    MAX_FINDINGS, MAX_INSTRUCTION_CHARS, MAX_NODE_IDS, MAX_PAGE_EVENTS, MAX_RELATIONS,
    MAX_TARGET_TEXT_CHARS,
};
use a3s_test_ledger::{
    parse_submission, Finding, Intent, RepairStatus, SentBy, Severity, Submission,
};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn read(rel: &str) -> Value {
    let path = format!("{}/../docs/schema/{rel}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect(&path)).expect(&path)
}

fn schema() -> Value {
    read("repair-1.schema.json")
}

fn def<'a>(schema: &'a Value, name: &str) -> &'a Value {
    &schema["$defs"][name]
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn enums_match_the_serde_types() {
    let s = schema();
    let repair = &def(&s, "repair")["properties"];
    assert_eq!(
        strings(&repair["intent"]["enum"]),
        wire_names([
            Intent::Fix,
            Intent::Change,
            Intent::Question,
            Intent::Approve
        ])
    );
    assert_eq!(
        strings(&repair["severity"]["enum"]),
        wire_names([
            Severity::Blocking,
            Severity::Important,
            Severity::Suggestion
        ])
    );
    let kinds: BTreeSet<String> = def(&s, "successCriterion")["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .flat_map(|c| {
            let k = &c["properties"]["kind"];
            match k.get("const") {
                Some(one) => vec![one.as_str().unwrap().to_owned()],
                None => strings(&k["enum"]).into_iter().collect(),
            }
        })
        .collect();
    assert_eq!(
        kinds,
        TypedCriterion::KINDS
            .iter()
            .map(|k| k.to_string())
            .collect()
    );
    assert_eq!(
        strings(&def(&s, "sentBy")["enum"]),
        wire_names([SentBy::Human, SentBy::PageScript])
    );
    for item in ["repair", "action"] {
        assert_eq!(
            def(&s, item)["properties"]["sentBy"]["$ref"],
            "#/$defs/sentBy",
            "{item}"
        );
    }
    let states = &def(&s, "successCriterion")["oneOf"][4]["properties"]["state"]["enum"];
    assert_eq!(strings(states), wire_names(TargetState::ALL));
    assert_eq!(
        strings(&def(&s, "action")["properties"]["kind"]["enum"]),
        wire_names([
            HumanActionKind::Reply,
            HumanActionKind::Accept,
            HumanActionKind::Dismiss,
            HumanActionKind::Reopen
        ])
    );
}

#[test]
fn bounds_match_the_ledger() {
    let s = schema();
    let repair = &def(&s, "repair")["properties"];
    let target = &def(&s, "target")["properties"];
    let max = |v: &Value, k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}")) as usize;
    assert_eq!(
        max(&def(&s, "repairBatch")["properties"]["repairs"], "maxItems"),
        MAX_FINDINGS
    );
    assert_eq!(
        max(&def(&s, "actionBatch")["properties"]["actions"], "maxItems"),
        MAX_ACTIONS
    );
    assert_eq!(
        max(&repair["instruction"], "maxLength"),
        MAX_INSTRUCTION_CHARS
    );
    assert_eq!(max(&repair["successCriteria"], "maxItems"), MAX_CRITERIA);
    assert_eq!(max(&repair["relations"], "maxItems"), MAX_RELATIONS);
    assert_eq!(max(&repair["events"], "maxItems"), MAX_PAGE_EVENTS);
    assert_eq!(max(&target["nodeIds"], "maxItems"), MAX_NODE_IDS);
    assert_eq!(max(&target["text"], "maxLength"), MAX_TARGET_TEXT_CHARS);
    assert_eq!(
        max(&def(&s, "successCriterion")["oneOf"][0], "maxLength"),
        MAX_CRITERION_CHARS
    );
}

/// The first example finding carries every property the schema lists.
fn full_finding() -> Value {
    read("examples/repairs.json")["repairs"][0].clone()
}

fn parse_one(finding: &Value) -> Result<Finding, String> {
    let doc = json!({ "protocol": "a3s.test.repair/1", "repairs": [finding] });
    match parse_submission(doc.to_string().as_bytes()) {
        Ok(Submission::Repairs(mut f)) => Ok(f.remove(0)),
        Ok(Submission::Actions(_)) => Err("read as actions".into()),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn the_finding_fields_are_the_schemas() {
    let s = schema();
    let repair = def(&s, "repair");
    let full = full_finding();
    assert_eq!(
        keys(&full),
        keys(&repair["properties"]),
        "the example lists every field"
    );
    assert_eq!(
        keys(&full["target"]),
        keys(&def(&s, "target")["properties"]),
        "the example target lists every field"
    );
    // Everything but the page's bookkeeping is stored, under the schema's names.
    let stored = serde_json::to_value(parse_one(&full).unwrap()).unwrap();
    let bookkeeping: BTreeSet<String> = [
        "protocol", "status", "sequence", "events", "delivery", "sentBy",
    ]
    .map(String::from)
    .into();
    let expected: BTreeSet<String> = keys(&repair["properties"])
        .difference(&bookkeeping)
        .cloned()
        .collect();
    assert_eq!(keys(&stored), expected);
    for key in &expected {
        assert_eq!(stored[key], full[key], "{key} is stored as sent");
    }
    // Exactly the schema's required fields are required.
    let required = strings(&repair["required"]);
    for key in keys(&full) {
        let mut without = full.clone();
        without.as_object_mut().unwrap().remove(&key);
        let parsed = parse_one(&without);
        assert_eq!(
            parsed.is_err(),
            required.contains(&key),
            "{key}: {parsed:?}"
        );
    }
    // additionalProperties: false, on both sides.
    assert_eq!(repair["additionalProperties"], false);
    let mut extra = full.clone();
    extra["criteria"] = json!(["the old name"]);
    assert!(parse_one(&extra)
        .unwrap_err()
        .contains("unknown field `criteria`"));
}

#[test]
fn the_examples_are_accepted() {
    match parse_submission(read("examples/repairs.json").to_string().as_bytes()).unwrap() {
        Submission::Repairs(f) => assert_eq!(f.len(), 2),
        Submission::Actions(_) => panic!("repairs read as actions"),
    }
    match parse_submission(read("examples/actions.json").to_string().as_bytes()).unwrap() {
        Submission::Actions(a) => assert_eq!(a.len(), 4),
        Submission::Repairs(_) => panic!("actions read as repairs"),
    }
}

#[test]
fn layouts_and_action_answers_match_the_serde_types() {
    use a3s_test_ledger::actions::ActionAnswer;
    use a3s_test_ledger::layout::{ComponentSource, Layout, MAX_LAYOUT_TEXT_CHARS};
    let s = schema();
    let variants = def(&s, "layout")["oneOf"].as_array().unwrap();
    let sources: BTreeSet<String> = variants[..2]
        .iter()
        .map(|v| {
            v["properties"]["componentSource"]["const"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        sources,
        wire_names([ComponentSource::Catalog, ComponentSource::Project])
    );
    for v in &variants[..2] {
        let p = &v["properties"];
        assert_eq!(p["purpose"]["maxLength"], MAX_LAYOUT_TEXT_CHARS);
        assert_eq!(p["componentType"]["maxLength"], MAX_LAYOUT_TEXT_CHARS);
        assert!(!strings(&v["required"]).contains("purpose"));
    }
    // The schema's own example placement, and a project component named like a catalog one.
    let layout = full_finding()["target"]["layout"].clone();
    assert!(Layout::check(&layout.to_string()).is_ok());
    let mut project = layout.clone();
    project["componentSource"] = json!("project");
    project["componentType"] = json!("Button");
    project.as_object_mut().unwrap().remove("purpose");
    assert!(Layout::check(&project.to_string()).is_ok());
    project["componentSource"] = json!("catalog");
    assert!(Layout::check(&project.to_string()).is_err());
    // Answers to an actions document.
    let outcome = def(&s, "actionOutcome");
    assert_eq!(
        strings(&outcome["properties"]["outcome"]["enum"]),
        wire_names([
            ActionAnswer::Applied,
            ActionAnswer::Duplicate,
            ActionAnswer::Refused,
            ActionAnswer::Retry
        ])
    );
    let example = read("examples/actions-response.json");
    assert_eq!(
        keys(&example),
        keys(&def(&s, "actionsResponse")["properties"])
            .into_iter()
            .filter(|k| k != "error")
            .collect()
    );
    for item in example["actions"].as_array().unwrap() {
        for key in keys(item) {
            assert!(outcome["properties"].get(&key).is_some(), "{key}");
        }
        let answer: ActionAnswer = serde_json::from_value(item["outcome"].clone()).unwrap();
        assert!(answer.is_final(), "the example's answers are all final");
    }
}

/// `docs/schema/human-actions-1.json` is the ledger's transition table seen from the Review
/// Overlay: for each status, the human actions with an edge from it. The Test Kit's tests check
/// its buttons against the same file, so a button the ledger would refuse cannot ship.
#[test]
fn the_human_actions_per_status_are_the_transition_tables() {
    let file = read("human-actions-1.json");
    let statuses = file["statuses"].as_object().expect("statuses");
    let mut listed = BTreeSet::new();
    for status in RepairStatus::ALL {
        let written: Vec<&str> = file["statuses"][status.as_str()]
            .as_array()
            .unwrap_or_else(|| panic!("{status} is not listed"))
            .iter()
            .map(|k| k.as_str().expect("a kind"))
            .collect();
        let accepted: Vec<String> = HumanActionKind::accepted_in(status)
            .into_iter()
            .map(|k| {
                serde_json::to_value(k)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(written, accepted, "{status}");
        listed.insert(status.as_str().to_owned());
    }
    assert_eq!(keys(&file["statuses"]), listed, "{statuses:?}");
}
