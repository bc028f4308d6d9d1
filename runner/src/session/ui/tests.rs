//! The UI record check and the `@uN` facts: one rule at a time, the printed facts (snapshots),
//! and properties over generated records.

use super::facts::{facts_of, NodeName, UiRefs};
use super::record::{validate, Binding, UiRule, Viewport};
use super::{names_of, read, UiBudget};
use crate::session::code::SessionCode;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn node(id: &str, display: &str, rect: [f64; 4]) -> Value {
    let edges = json!({ "top": 0, "right": 0, "bottom": 0, "left": 0 });
    let mut n = json!({
        "nodeId": id, "display": display, "position": "static",
        "rect": { "x": rect[0], "y": rect[1], "width": rect[2], "height": rect[3] },
        "margin": edges, "border": edges, "padding": edges,
        "overflow": { "x": "visible", "y": "visible" },
        "boxSizing": "content-box", "writingMode": "horizontal-tb", "direction": "ltr"
    });
    if display == "flex" {
        n["flex"] = json!({ "direction": "row", "wrap": "nowrap", "justify": "normal",
                            "align": "normal", "gap": "normal" });
    }
    n
}

/// A Page Context response with a valid UI record: a card clipping its Pay button, a toast over
/// Save, a spinner turning, three list items, a flex row and a scrolling list.
fn response() -> Value {
    let nodes = vec![
        node("n1", "block", [0.0, 0.0, 800.0, 600.0]),
        node("n2", "block", [0.0, 0.0, 100.0, 50.0]),
        node("n3", "inline-block", [50.0, 10.0, 100.0, 20.0]),
        node("n4", "inline-block", [0.0, 100.0, 80.0, 30.0]),
        node("n5", "block", [40.0, 110.0, 200.0, 40.0]),
        node("n6", "flex", [0.0, 200.0, 300.0, 40.0]),
        node("n7", "list-item", [0.0, 200.0, 100.0, 40.0]),
        node("n8", "list-item", [100.0, 200.0, 100.0, 40.0]),
        node("n9", "list-item", [200.0, 200.0, 100.0, 40.0]),
    ];
    let contains = |from: &str, to: &str| json!({ "from": from, "to": to, "kind": "contains" });
    let mut edges: Vec<Value> = ["n2", "n4", "n5", "n6"]
        .iter()
        .map(|t| contains("n1", t))
        .collect();
    edges.push(contains("n2", "n3"));
    for t in ["n7", "n8", "n9"] {
        edges.push(contains("n6", t));
        edges.push(json!({ "from": "n6", "to": t, "kind": "scroll_container" }));
    }
    let viewport = json!({ "width": 800, "height": 600, "dpr": 1 });
    let ui = json!({
        "protocol": "a3s.test.ui-understanding/1",
        "observationId": "ui-7-1",
        "pageRevision": 7,
        "viewport": viewport,
        "scope": { "kind": "page" },
        "budget": { "limits": { "nodes": 200, "timeMs": 32 }, "used": { "nodes": 9, "timeMs": 1.5 },
                    "truncated": false, "reasons": [] },
        "evidence": { "source": "computed_style", "nodeCount": 9, "inaccessibleStyleSheets": 0,
                      "untrusted": true },
        "style": { "color": [{ "value": "rgb(0, 0, 0)", "count": 9 }], "spacing": [], "radius": [],
                   "shadow": [], "typography": [] },
        "layout": { "nodes": nodes, "edges": edges },
        "components": [{ "id": "cluster-1", "signature": "li(span)", "nodeIds": ["n7", "n8", "n9"] }],
        "stateDiffs": [{ "nodeId": "n5", "field": "size", "from": "200x0", "to": "200x40" }],
        "overlaps": [{ "a": "n4", "b": "n5", "area": { "x": 40, "y": 110, "width": 40, "height": 20 },
                       "above": "n5" }],
        "clips": [{ "nodeId": "n3", "by": "n2", "visibleRatio": 0.5 }],
        "motion": { "runningAnimations": 1, "reducedMotion": false,
                    "animations": [{ "nodeId": "n5", "kind": "animation", "name": "slide-in",
                                     "state": "running" }] }
    });
    let named = |id: &str, tag: &str, role: Option<&str>, name: &str| {
        let mut n = json!({ "id": id, "tag": tag, "name": name });
        if let Some(r) = role {
            n["role"] = json!(r);
        }
        n
    };
    json!({
        "revision": 7,
        "page": { "viewport": viewport },
        "truncated": false,
        "truncatedReasons": [],
        "nodes": [
            named("n1", "main", Some("main"), ""),
            named("n2", "div", None, "Card"),
            named("n3", "button", Some("button"), "Pay"),
            named("n4", "button", Some("button"), "Save"),
            named("n5", "div", Some("status"), "Saved \"now\"\nreally"),
            named("n6", "ul", Some("list"), ""),
            named("n7", "li", Some("listitem"), "One"),
            named("n8", "li", Some("listitem"), "Two"),
            named("n9", "li", Some("listitem"), "Three"),
        ],
        "ui": ui
    })
}

fn names(response: &Value) -> std::collections::BTreeMap<String, NodeName> {
    // The two buttons have `@cN` refs in this observation.
    names_of(response, |id| match id {
        "n3" => Some("@c1".into()),
        "n4" => Some("@c2".into()),
        _ => None,
    })
}

fn check(response: &Value) -> Result<(), UiRule> {
    let ids: BTreeSet<String> = names(response).keys().cloned().collect();
    let viewport: Viewport = serde_json::from_value(response["page"]["viewport"].clone()).unwrap();
    let binding = Binding {
        revision: response["revision"].as_u64().unwrap(),
        viewport,
        node_ids: &ids,
        max_nodes: 200,
        max_time_ms: 32,
    };
    validate(&response["ui"], &binding)
        .map(|_| ())
        .map_err(|v| v.rule)
}

fn with(mut response: Value, pointer: &str, value: Value) -> Value {
    *response
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("{pointer}")) = value;
    response
}

#[test]
fn a_whole_record_passes_and_prints_as_facts() {
    let r = response();
    assert_eq!(check(&r), Ok(()));
    let (facts, view) = read(&r, &UiBudget::default(), &names(&r)).unwrap();
    assert_eq!(view.nodes, 9);
    assert!(view.notes.is_empty(), "{:?}", view.notes);
    let mut refs = UiRefs::default();
    let mut view = view;
    view.refs = refs.bind(3, facts);
    insta::assert_snapshot!("ui_facts_text", super::text::render(&view));
    insta::assert_snapshot!(
        "ui_facts_json",
        serde_json::to_string_pretty(&view).unwrap()
    );
}

#[test]
fn every_rule_refuses_the_whole_record() {
    let r = response();
    let cases: Vec<(&str, Value, UiRule)> = vec![
        (
            "protocol",
            with(
                r.clone(),
                "/ui/protocol",
                json!("a3s.test.ui-understanding/2"),
            ),
            UiRule::Protocol,
        ),
        (
            "mistyped field",
            with(r.clone(), "/ui/evidence/untrusted", json!("yes")),
            UiRule::Shape,
        ),
        (
            "revision",
            with(r.clone(), "/ui/pageRevision", json!(6)),
            UiRule::Binding,
        ),
        (
            "viewport",
            with(r.clone(), "/ui/viewport/width", json!(801)),
            UiRule::Binding,
        ),
        (
            "scope",
            with(
                r.clone(),
                "/ui/scope",
                json!({ "kind": "node", "nodeId": "n1" }),
            ),
            UiRule::Shape,
        ),
        (
            "over the asked limit",
            with(r.clone(), "/ui/budget/limits/nodes", json!(201)),
            UiRule::Budget,
        ),
        (
            "used count",
            with(r.clone(), "/ui/budget/used/nodes", json!(8)),
            UiRule::Budget,
        ),
        (
            "truncated without reason",
            with(r.clone(), "/ui/budget/truncated", json!(true)),
            UiRule::Budget,
        ),
        (
            "stale node",
            with(r.clone(), "/ui/layout/nodes/3/nodeId", json!("n99")),
            UiRule::UnknownNode,
        ),
        (
            "duplicate node",
            with(r.clone(), "/ui/layout/nodes/3/nodeId", json!("n3")),
            UiRule::DuplicateNode,
        ),
        (
            "edge leaves",
            with(r.clone(), "/ui/layout/edges/0/to", json!("n99")),
            UiRule::Graph,
        ),
        (
            "second container",
            with(r.clone(), "/ui/layout/edges/4/to", json!("n4")),
            UiRule::Graph,
        ),
        (
            "negative size",
            with(r.clone(), "/ui/layout/nodes/1/rect/width", json!(-1)),
            UiRule::Geometry,
        ),
        (
            "cluster outside",
            with(r.clone(), "/ui/components/0/nodeIds/0", json!("n99")),
            UiRule::Relation,
        ),
        (
            "overlap outside",
            with(r.clone(), "/ui/overlaps/0/b", json!("n99")),
            UiRule::Relation,
        ),
        (
            "third node above",
            with(r.clone(), "/ui/overlaps/0/above", json!("n1")),
            UiRule::Relation,
        ),
        (
            "self overlap",
            with(r.clone(), "/ui/overlaps/0/b", json!("n4")),
            UiRule::Relation,
        ),
        (
            "empty overlap",
            with(r.clone(), "/ui/overlaps/0/area/width", json!(0)),
            UiRule::Geometry,
        ),
        (
            "whole clip",
            with(r.clone(), "/ui/clips/0/visibleRatio", json!(1.0)),
            UiRule::Relation,
        ),
        (
            "clip outside",
            with(r.clone(), "/ui/clips/0/by", json!("n99")),
            UiRule::Relation,
        ),
        (
            "animation outside",
            with(r.clone(), "/ui/motion/animations/0/nodeId", json!("n99")),
            UiRule::Relation,
        ),
        (
            "change outside",
            with(r.clone(), "/ui/stateDiffs/0/nodeId", json!("n99")),
            UiRule::Relation,
        ),
        (
            "long string",
            with(
                r.clone(),
                "/ui/components/0/signature",
                json!("x".repeat(5000)),
            ),
            UiRule::Size,
        ),
    ];
    for (what, bad, rule) in cases {
        assert_eq!(check(&bad), Err(rule), "{what}");
        let e = read(&bad, &UiBudget::default(), &names(&bad)).unwrap_err();
        assert_eq!(e.code, SessionCode::UiInvalid, "{what}");
        assert!(
            !e.message.contains("n99"),
            "a private id leaked: {}",
            e.message
        );
    }
    // A field the record does not have.
    let mut extra = r.clone();
    extra["ui"]["evidence"]["extra"] = json!(1);
    assert_eq!(check(&extra), Err(UiRule::Shape));
    // Cyclic containment.
    let mut cyclic = r.clone();
    cyclic["ui"]["layout"]["edges"] = json!([
        { "from": "n1", "to": "n2", "kind": "contains" },
        { "from": "n2", "to": "n1", "kind": "contains" }
    ]);
    assert_eq!(check(&cyclic), Err(UiRule::Graph));
}

#[test]
fn what_the_test_kit_cut_or_left_out_is_said() {
    let mut r = response();
    r["ui"]["budget"]["truncated"] = json!(true);
    r["ui"]["budget"]["reasons"] = json!(["node_limit"]);
    r["truncated"] = json!(true);
    r["truncatedReasons"] = json!(["node_limit"]);
    let (_, view) = read(&r, &UiBudget::default(), &names(&r)).unwrap();
    assert_eq!(view.notes.len(), 2, "{:?}", view.notes);
    assert!(
        view.notes[1].contains("first 9 nodes (the 200-node budget)"),
        "{:?}",
        view.notes
    );
    let mut dropped = response();
    dropped.as_object_mut().unwrap().remove("ui");
    dropped["truncated"] = json!(true);
    dropped["truncatedReasons"] = json!(["ui"]);
    let (facts, view) = read(&dropped, &UiBudget::default(), &names(&dropped)).unwrap();
    assert!(facts.is_empty());
    assert!(
        view.notes[0].contains("response byte budget"),
        "{:?}",
        view.notes
    );
}

#[test]
fn budgets_are_bounded() {
    assert!(UiBudget::default().validate().is_ok());
    for (nodes, time_ms) in [(0, 32), (1001, 32), (200, 0), (200, 101)] {
        assert!(
            UiBudget { nodes, time_ms }.validate().is_err(),
            "{nodes} {time_ms}"
        );
    }
    let req = UiBudget {
        nodes: 5,
        time_ms: 9,
    }
    .bridge_request();
    assert_eq!(req["ui"], true);
    assert_eq!(req["limits"], json!({ "uiNodes": 5, "uiTimeMs": 9 }));
}

fn leaf(value: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    value
}

fn any_json() -> impl Strategy<Value = Value> {
    let base = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[a-z0-9_]{0,8}".prop_map(Value::String),
    ];
    leaf(base).prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The JSON pointers of every value in `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(x, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any value anywhere in the record is either accepted or refused with a rule; never a
    /// panic, and an accepted record names only this revision's nodes.
    #[test]
    fn any_change_is_accepted_or_refused_never_a_panic(pick in any::<prop::sample::Index>(), value in any_json()) {
        let r = response();
        let mut all = Vec::new();
        pointers(&r["ui"], "/ui".into(), &mut all);
        let target = pick.get(&all).clone();
        let changed = with(r, &target, value);
        let names = names(&changed);
        if let Ok((facts, _)) = read(&changed, &UiBudget::default(), &names) {
            let printed = serde_json::to_string(&facts).unwrap();
            for i in 1..=9 {
                prop_assert!(!printed.contains(&format!("\"n{i}\"")), "a private id leaked: {printed}");
            }
        }
    }

    /// A containment chain of any length with any scroll edges along it passes, and the facts
    /// stay within their bound.
    #[test]
    fn generated_graphs_pass(n in 1usize..60, scroll in prop::collection::vec(any::<bool>(), 60)) {
        let mut r = response();
        let ids: Vec<String> = (0..n).map(|i| format!("g{i}")).collect();
        r["nodes"] = Value::Array(ids.iter().map(|id| json!({ "id": id, "tag": "div", "name": "" })).collect());
        let nodes: Vec<Value> = ids.iter().map(|id| node(id, "block", [0.0, 0.0, 10.0, 10.0])).collect();
        let mut edges = Vec::new();
        for i in 1..n {
            edges.push(json!({ "from": ids[i - 1], "to": ids[i], "kind": "contains" }));
            if scroll[i] {
                edges.push(json!({ "from": ids[0], "to": ids[i], "kind": "scroll_container" }));
            }
        }
        let ui = &mut r["ui"];
        ui["layout"] = json!({ "nodes": nodes, "edges": edges });
        ui["budget"]["used"]["nodes"] = json!(n);
        ui["evidence"]["nodeCount"] = json!(n);
        for k in ["components", "stateDiffs", "overlaps", "clips"] {
            ui[k] = json!([]);
        }
        ui["motion"]["animations"] = json!([]);
        prop_assert_eq!(check(&r), Ok(()));
        let names = names(&r);
        let record = validate(&r["ui"], &Binding {
            revision: 7,
            viewport: serde_json::from_value(r["page"]["viewport"].clone()).unwrap(),
            node_ids: &names.keys().cloned().collect(),
            max_nodes: 200,
            max_time_ms: 32,
        }).unwrap();
        let (facts, more) = facts_of(&record, &names);
        prop_assert!(facts.len() <= super::facts::MAX_FACTS);
        prop_assert_eq!(more, 0);
    }
}

#[test]
fn a_capture_cites_its_facts_and_keeps_the_page_context_semantic() {
    let r = response();
    let (body, lines) = super::evidence::cite(&r).unwrap();
    assert_eq!(lines.len(), 7);
    assert!(lines[0].starts_with("@u1 overlap status"), "{lines:?}");
    let file: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(file["untrusted"], true);
    assert_eq!(file["ui"]["refs"][1]["ref"], "@u2");
    assert!(!String::from_utf8_lossy(&body).contains("\"n3\""));
    assert!(super::evidence::without_ui(&r).get("ui").is_none());
    // A broken record is not kept, and no record cites nothing.
    assert!(super::evidence::cite(&with(r.clone(), "/ui/pageRevision", json!(1))).is_none());
    let mut none = r;
    none.as_object_mut().unwrap().remove("ui");
    assert!(super::evidence::cite(&none).is_none());
}
