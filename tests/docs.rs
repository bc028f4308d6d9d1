//! `docs/acl.md` is checked against the toolchain: every ```` ```acl ```` example admits (```` ```acl
//! statement ```` examples in statement mode), formats to the same IR idempotently, and the
//! diagnostic code list (§14) equals `Code::ALL`, in registry order. `docs/agent.md` names every
//! session gate code; `docs/reports.md` names every `merge-reports` code.

#[path = "../lang/tests/common/mod.rs"]
mod lang_common;

use a3s_test_lang::ir::AdmittedDocument;
use a3s_test_lang::{admit, admit_statement, printer::format_source, Code};
use lang_common::strip_spans;
use serde_json::Value;

fn docs() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/acl.md"))
        .expect("docs/acl.md")
}

/// Every fenced example as (info string, body, line number of the fence).
fn examples(text: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let info = info.trim().to_string();
        let body: Vec<&str> = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| !l.starts_with("```"))
            .collect();
        if info.starts_with("acl") {
            out.push((info, body.join("\n") + "\n", n + 1));
        }
    }
    out
}

/// The IR of an example without spans, or the diagnostics as an error.
fn ir(info: &str, source: &str) -> Result<Value, String> {
    let mut json = match info {
        "acl" => {
            let admission = admit(source);
            match admission.document {
                Some(doc) => serde_json::to_value(doc).unwrap(),
                None => return Err(format!("{:#?}", admission.diagnostics)),
            }
        }
        "acl statement" => match admit_statement(source) {
            Ok(step) => serde_json::to_value(step).unwrap(),
            Err(d) => return Err(format!("{d:#?}")),
        },
        other => return Err(format!("unknown example kind ```{other}")),
    };
    strip_spans(&mut json);
    Ok(json)
}

#[test]
fn every_example_admits_and_round_trips() {
    let text = docs();
    let examples = examples(&text);
    assert!(examples.iter().filter(|(i, _, _)| i == "acl").count() >= 3);
    assert!(
        examples
            .iter()
            .filter(|(i, _, _)| i == "acl statement")
            .count()
            >= 30
    );
    for (info, source, line) in &examples {
        let before = ir(info, source).unwrap_or_else(|e| {
            panic!("docs/acl.md:{line}: example does not admit:\n{source}\n{e}")
        });
        let formatted = format_source(source)
            .unwrap_or_else(|d| panic!("docs/acl.md:{line}: does not format: {d:?}"));
        let after = ir(info, &formatted)
            .unwrap_or_else(|e| panic!("docs/acl.md:{line}: formatted example fails:\n{e}"));
        assert_eq!(
            before, after,
            "docs/acl.md:{line}: formatting changed the IR"
        );
        assert_eq!(
            format_source(&formatted).unwrap(),
            formatted,
            "docs/acl.md:{line}: fmt not idempotent"
        );
    }
}

#[test]
fn every_step_block_has_an_example() {
    let text = docs();
    let examples = examples(&text);
    let kinds: Vec<String> = examples
        .iter()
        .filter_map(|(info, source, _)| {
            if info != "acl statement" {
                return None;
            }
            admit_statement(source)
                .ok()
                .map(|step| step.action.kind().name().to_string())
        })
        .collect();
    // Terminal-only steps are not statements (agent sessions drive the web): a suite example
    // of §5.1 shows them.
    let suites: Vec<String> = examples
        .iter()
        .filter(|(info, _, _)| info == "acl")
        .filter_map(|(_, source, _)| match admit(source).document {
            Some(AdmittedDocument::Suite(suite)) => Some(suite),
            _ => None,
        })
        .flat_map(|suite| suite.scenarios)
        .flat_map(|scenario| scenario.steps)
        .map(|step| step.action.kind().name().to_string())
        .collect();
    for kind in a3s_test_lang::ir::ActionKind::ALL.iter().map(|k| k.name()) {
        let terminal_only = a3s_test_lang::ir::TERMINAL_ONLY_STEPS
            .iter()
            .any(|k| k.name() == kind);
        assert!(
            kinds.iter().any(|k| k == kind) || (terminal_only && suites.iter().any(|k| k == kind)),
            "docs/acl.md has no ```acl statement example of `{kind}`"
        );
    }
}

#[test]
fn the_code_list_equals_the_registry() {
    let text = docs();
    let section = text
        .split("## 14. Diagnostic codes")
        .nth(1)
        .expect("a `## 14. Diagnostic codes` section");
    let listed: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(code, rest)| {
            assert!(
                rest.trim_start().starts_with('—') && rest.len() > 5,
                "`{code}` needs a one-line fix"
            );
            code
        })
        .collect();
    let registry: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        listed, registry,
        "docs/acl.md §14 must list exactly Code::ALL, in registry order"
    );
}

#[test]
fn the_agent_docs_list_every_gate_code() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/agent.md"))
        .expect("docs/agent.md");
    let gates: Vec<_> = a3s_test_runner::session::SessionCode::ALL
        .iter()
        .filter(|code| code.is_gate())
        .collect();
    assert!(!gates.is_empty(), "the session codes include gates");
    for code in gates {
        assert!(
            doc.contains(code.as_str()),
            "docs/agent.md does not mention {code}"
        );
    }
}

#[test]
fn the_report_docs_list_every_merge_code() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reports.md"))
        .expect("docs/reports.md");
    for code in a3s_test_runner::merge::MergeCode::ALL {
        assert!(
            doc.contains(code.as_str()),
            "docs/reports.md does not mention {code}"
        );
    }
}

/// `docs/deployment.md` keeps one row per control of the deployment checklist (eight), and every
/// test or source file it names as covering a control exists, so a renamed test cannot leave a
/// control pointing at nothing.
#[test]
fn the_deployment_checklist_names_files_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/deployment.md")).expect("deployment.md");
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.starts_with("| ")
                && l[2..]
                    .split(' ')
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(rows.len(), 8, "one row per checklist control");
    let prefixes = [
        "tests/",
        "testkit/src/",
        "web/tests/",
        "ledger/tests/",
        "examples/",
    ];
    let mut named = 0;
    for row in rows {
        for path in row.split('`').skip(1).step_by(2) {
            if !prefixes.iter().any(|p| path.starts_with(p)) {
                continue;
            }
            named += 1;
            if let Some(dir) = path.strip_suffix("*.test.ts") {
                assert!(root.join(dir).is_dir(), "{path} names no folder");
            } else {
                assert!(root.join(path).is_file(), "{path} does not exist");
            }
        }
    }
    assert!(named >= 15, "the checklist names its tests ({named})");
}

/// `ARCHITECTURE.md` is the one-page map for the next engineer: it stays short, and every path it
/// names (a back-quoted word with a `/` in it) exists, so a moved or deleted module shows up here
/// instead of misleading a reader.
#[test]
fn the_architecture_map_is_one_page_and_names_only_paths_that_exist() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    assert!(
        text.lines().count() <= 120,
        "ARCHITECTURE.md has {} lines; keep it a one-page map and move detail into module docs",
        text.lines().count()
    );
    let mut named = 0;
    let missing: Vec<&str> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.contains('/') && !word.contains(' ') && !word.starts_with('@'))
        .inspect(|_| named += 1)
        .filter(|path| !std::path::Path::new(root).join(path).exists())
        .collect();
    assert!(named >= 40, "the map names only {named} paths");
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn the_state_file_example_is_a_state_file_this_toolchain_reads() {
    use a3s_test_driver::storage_state::indexed_db::StoredValue;
    use a3s_test_driver::storage_state::{StorageState, STORAGE_STATE_VERSION};
    let text = docs();
    let section = text
        .split_once("**The state file**")
        .expect("docs/acl.md documents the state file")
        .1;
    let example = section
        .split_once("```json\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a ```json example")
        .0;
    let state = StorageState::from_json(example.as_bytes()).expect("the example reads");
    assert_eq!(state.version, STORAGE_STATE_VERSION);
    let store = &state.origins[0].indexed_db[0].object_stores[0];
    let StoredValue::Object { entries } = &store.records[0].value else {
        panic!("the example's record is an object");
    };
    assert!(entries
        .iter()
        .any(|p| matches!(p.value, StoredValue::Date { value: Some(_) })));
}
