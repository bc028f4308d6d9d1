//! The writer against the one committed schema of the feed,
//! `docs/schema/run-candidates-1.schema.json` (the Test Kit's reader is held to the same file by
//! `testkit/src/overlay/candidates/schema.test.ts`): every feed the runner writes is valid, the
//! committed example is exactly what the writer writes for its fixture, and the schema's bounds,
//! enums and fields are the Rust types' own. A changed field, bound or spelling on either side
//! fails here or there.

use super::*;
use a3s_test_lang::ir::{Target, TextMatch};
use serde_json::Value;
use std::collections::BTreeSet;

fn docs(rel: &str) -> Value {
    let path = format!("{}/../docs/schema/{rel}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect(&path)).expect(&path)
}

fn schema() -> Value {
    docs("run-candidates-1.schema.json")
}

/// The errors of `value` against `node` (empty when valid), for the keywords the committed
/// schemas use; any other keyword fails loudly, so the schema cannot grow a rule this skips.
fn validate(node: &Value, value: &Value, root: &Value, at: &str) -> Vec<String> {
    const KNOWN: &[&str] = &[
        "$schema",
        "$id",
        "$ref",
        "$defs",
        "title",
        "description",
        "type",
        "const",
        "enum",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maxItems",
        "items",
        "properties",
        "required",
        "additionalProperties",
        "oneOf",
    ];
    let node = node.as_object().expect("a schema node is an object");
    for k in node.keys() {
        assert!(
            KNOWN.contains(&k.as_str()),
            "unsupported keyword {k} at {at}"
        );
    }
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("a local $ref");
        return validate(&root["$defs"][name], value, root, at);
    }
    let mut errors = vec![];
    let mut fail = |m: String| errors.push(format!("{at}: {m}"));
    if let Some(all) = node.get("oneOf").and_then(Value::as_array) {
        let passing = all
            .iter()
            .filter(|s| validate(s, value, root, at).is_empty())
            .count();
        if passing != 1 {
            fail(format!("matches {passing} of oneOf"));
        }
    }
    if let Some(t) = node.get("type").and_then(Value::as_str) {
        let ok = match t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_u64() || value.is_i64(),
            other => panic!("unsupported type {other}"),
        };
        if !ok {
            fail(format!("not {t}"));
            return errors;
        }
    }
    if let Some(c) = node.get("const") {
        if c != value {
            fail(format!("not {c}"));
        }
    }
    if let Some(e) = node.get("enum").and_then(Value::as_array) {
        if !e.contains(value) {
            fail(format!("not one of {e:?}"));
        }
    }
    if let Some(s) = value.as_str() {
        let n = s.chars().count() as u64;
        if let Some(p) = node.get("pattern").and_then(Value::as_str) {
            if !regex::Regex::new(p).unwrap().is_match(s) {
                fail(format!("does not match {p}"));
            }
        }
        if node
            .get("minLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| n < m)
        {
            fail("too short".into());
        }
        if node
            .get("maxLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| n > m)
        {
            fail(format!("{n} characters is too long"));
        }
    }
    if let (Some(n), Some(m)) = (value.as_i64(), node.get("minimum").and_then(Value::as_i64)) {
        if n < m {
            fail(format!("below {m}"));
        }
    }
    if let Some(items) = value.as_array() {
        if node
            .get("maxItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| items.len() as u64 > m)
        {
            fail("too many items".into());
        }
        if let Some(item) = node.get("items") {
            for (i, v) in items.iter().enumerate() {
                errors.extend(validate(item, v, root, &format!("{at}[{i}]")));
            }
        }
    }
    if let Some(obj) = value.as_object() {
        let props = node.get("properties").and_then(Value::as_object);
        for r in node
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !obj.contains_key(r.as_str().unwrap()) {
                errors.push(format!("{at}: missing {r}"));
            }
        }
        for (k, v) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(p) => errors.extend(validate(p, v, root, &format!("{at}.{k}"))),
                None if node.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{at}: unknown field {k}"))
                }
                None => {}
            }
        }
    }
    errors
}

fn check(feed: &RunCandidates) -> Vec<String> {
    let s = schema();
    validate(&s, &serde_json::to_value(feed).unwrap(), &s, "$")
}

const PAGE: &str = "http://127.0.0.1:4000/checkout";

fn at(id: &str, status: ScenarioStatus, target: Option<Target>) -> ScenarioResult {
    let mut f = failure(FailureCode::TextMismatch, Some(&format!("{PAGE}?step=2")));
    // A failure of no step's element (the page's own check) has no target and no location here.
    f.location = f.location.filter(|_| target.is_some());
    f.target = target;
    if status == ScenarioStatus::Flaky {
        let mut s = scenario(id, status, None);
        s.earlier_attempts.push(AttemptResult {
            attempt: 1,
            status: ScenarioStatus::Failed,
            failure: Some(f),
            steps: vec![],
            duration_ms: 1,
            artifact_dir: None,
            trace: None,
        });
        return s;
    }
    scenario(id, status, Some(f))
}

/// Every status and every locator kind, a combined target (no locator) and none at all.
fn fixture() -> RunCandidates {
    let role = |name: Option<TextMatch>| Target::Role {
        role: "button".into(),
        name,
    };
    let result = run(vec![
        at(
            "checkout/pay",
            ScenarioStatus::Failed,
            Some(role(Some(TextMatch::contains("Pay")))),
        ),
        at(
            "checkout/any-button",
            ScenarioStatus::TimedOut,
            Some(role(None)),
        ),
        at(
            "checkout/email",
            ScenarioStatus::Flaky,
            Some(Target::Label {
                label: TextMatch::exact("Email"),
            }),
        ),
        at(
            "checkout/card",
            ScenarioStatus::Failed,
            Some(Target::Placeholder {
                placeholder: TextMatch::contains("Card number"),
            }),
        ),
        at(
            "checkout/total",
            ScenarioStatus::Failed,
            Some(Target::Text {
                text: TextMatch::contains("Total"),
            }),
        ),
        at(
            "checkout/note",
            ScenarioStatus::Failed,
            Some(Target::TestId {
                test_id: "note".into(),
            }),
        ),
        at(
            "checkout/summary",
            ScenarioStatus::Failed,
            Some(Target::Css {
                selector: "#summary > p".into(),
            }),
        ),
        at(
            "checkout/nth",
            ScenarioStatus::Failed,
            Some(Target::Nth {
                target: Box::new(role(None)),
                index: 1,
            }),
        ),
        at("checkout/page", ScenarioStatus::Failed, None),
    ]);
    candidates_for(Some(&result), &page(PAGE))
}

#[test]
fn the_committed_example_is_what_the_writer_writes_and_it_is_valid() {
    let feed = fixture();
    assert_eq!(check(&feed), Vec::<String>::new());
    let kinds: BTreeSet<_> = feed
        .candidates
        .iter()
        .filter_map(|c| serde_json::to_value(c.locator.as_ref()?).ok())
        .map(|l| l["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds.len(), 6, "the fixture has every locator kind");
    assert_eq!(
        serde_json::to_value(&feed).unwrap(),
        docs("examples/run-candidates.json"),
        "docs/schema/examples/run-candidates.json is the writer's feed for this fixture; \
         update it when the writer changes on purpose"
    );
    let empty = candidates_for(None, &page(PAGE));
    assert_eq!(check(&empty), Vec::<String>::new());
}

#[test]
fn the_schema_is_the_types_own() {
    let s = schema();
    let d = &s["$defs"];
    assert_eq!(
        d["feed"]["properties"]["protocol"]["const"],
        CANDIDATES_PROTOCOL
    );
    assert_eq!(
        d["feed"]["properties"]["candidates"]["maxItems"],
        MAX_CANDIDATES
    );
    assert_eq!(
        d["candidate"]["properties"]["message"]["maxLength"],
        MAX_CANDIDATE_TEXT
    );
    let strings = |v: &Value| -> BTreeSet<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let wire = |v: Value| v.as_str().unwrap().to_string();
    let statuses = [
        CandidateStatus::Failed,
        CandidateStatus::TimedOut,
        CandidateStatus::Flaky,
    ];
    assert_eq!(
        strings(&d["status"]["enum"]),
        statuses
            .iter()
            .map(|x| wire(serde_json::to_value(x).unwrap()))
            .collect()
    );
    assert_eq!(
        strings(&d["textMode"]["enum"]),
        [TextMode::Contains, TextMode::Exact]
            .iter()
            .map(|x| wire(serde_json::to_value(x).unwrap()))
            .collect()
    );
    // Each object's properties are the fields the writer writes when all are present, and its
    // required ones are those it always writes.
    let feed = serde_json::to_value(fixture()).unwrap();
    let keys = |v: &Value| -> BTreeSet<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&d["feed"]["properties"]), keys(&feed));
    let empty = serde_json::to_value(candidates_for(None, &page(PAGE))).unwrap();
    assert_eq!(strings(&d["feed"]["required"]), keys(&empty));
    let items = feed["candidates"].as_array().unwrap();
    let all: BTreeSet<String> = items.iter().flat_map(keys).collect();
    assert_eq!(keys(&d["candidate"]["properties"]), all);
    let always = items
        .iter()
        .map(keys)
        .reduce(|a, b| a.intersection(&b).cloned().collect())
        .unwrap();
    assert_eq!(strings(&d["candidate"]["required"]), always);
    // Every product failure code fits the code rule.
    let code = &d["candidate"]["properties"]["code"];
    for c in FailureCode::ALL {
        let errors = validate(code, &Value::String(c.as_str().into()), &s, c.as_str());
        assert_eq!(errors, Vec::<String>::new());
    }
}

#[test]
fn the_schema_refuses_what_the_reader_refuses() {
    let s = schema();
    let good = serde_json::to_value(fixture()).unwrap();
    assert!(validate(&s, &good, &s, "$").is_empty());
    let mut bad = vec![];
    let mut edit = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        bad.push(v);
    };
    edit(&|v| v["extra"] = Value::Bool(true));
    edit(&|v| v["candidates"][0]["status"] = "passed".into());
    edit(&|v| v["candidates"][0]["code"] = "spec.wrong".into());
    edit(&|v| v["candidates"][0]["message"] = "".into());
    edit(&|v| v["candidates"][0]["locator"]["kind"] = "xpath".into());
    edit(&|v| v["candidates"][0]["locator"]["value"] = "x".into());
    edit(&|v| v["candidates"][0]["name"] = "n".repeat(501).into());
    edit(&|v| v["omitted"] = (-1).into());
    edit(&|v| v["protocol"] = "a3s.test.run-candidates/2".into());
    edit(&|v| {
        v.as_object_mut().unwrap().remove("page");
    });
    for v in &bad {
        assert!(!validate(&s, v, &s, "$").is_empty(), "{v}");
    }
}

proptest! {
    #[test]
    fn every_feed_the_writer_writes_is_valid(
        message in "\\PC{1,3000}",
        name in "\\PC{1,700}",
        label in "\\PC{0,700}",
        role_name in "[a-z]{1,150}",
    ) {
        let mut s = at("s/label", ScenarioStatus::Failed, Some(Target::Label { label: TextMatch::contains(label) }));
        s.name = name.clone();
        s.failure.as_mut().unwrap().message = message.clone();
        let r = at("s/role", ScenarioStatus::Flaky, Some(Target::Role { role: role_name, name: None }));
        let feed = candidates_for(Some(&run(vec![s, r])), &page(PAGE));
        prop_assert_eq!(check(&feed), Vec::<String>::new());
    }
}
