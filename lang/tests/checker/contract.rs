//! Contract roots (`docs/acl.md` §2.5): the admitted Surface Contract and its mistakes' paths.

use crate::{problems, show};
use a3s_test_lang::ir::*;
use a3s_test_lang::{admit, Code};

const SHA: &str = "4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a";

fn contract(body: &str) -> String {
    format!(
        "contract \"shop\" {{\n    source \"s1\" {{\n        path = \"prd.md\"\n        sha256 = \"{SHA}\"\n    }}\n{body}\n}}\n"
    )
}

#[test]
fn a_contract_is_admitted_with_its_routes_and_decisions() {
    let source = contract(
        r#"    rejected = ["c9"]
    route "/checkout" {
        element "c1" {
            role = "button"
            name = "Pay now"
            state = "enabled"
            evidence = ["s1:10..17"]
        }
        element "c2" { role = "heading" name = "Order total" }
        text "c3" { text = "Free shipping" }
        layout "c4" { subject = "c1" relation = "below" object = "c2" }
    }
    decision "k1" { chosen = "c1" over = ["c9"] rationale = "the PRD's list wins" }"#,
    );
    let admission = admit(&source);
    let Some(AdmittedDocument::Contract(c)) = admission.document else {
        panic!("{}", show(&source, &admission.diagnostics));
    };
    assert_eq!(c.id, "shop");
    assert_eq!(c.rejected, ["c9"]);
    assert_eq!(c.routes[0].path, "/checkout");
    assert_eq!(c.routes[0].expectations.len(), 4);
    assert_eq!(
        c.routes[0].expectations[0].kind,
        ExpectationKind::Element {
            role: "button".into(),
            name: "Pay now".into(),
            state: Some(ContractState::Enabled)
        }
    );
    assert_eq!(
        c.routes[0].expectations[3].kind,
        ExpectationKind::Layout {
            subject: "c1".into(),
            relation: ContractRelation::Below,
            object: "c2".into()
        }
    );
    assert_eq!(c.decisions[0].chosen, "c1");
}

#[test]
fn a_layout_must_name_elements_of_its_route_and_evidence_a_declared_source() {
    let source = contract(
        r#"    route "/a" {
        element "c1" { role = "button" name = "Pay" evidence = ["s2:0..3"] }
        layout "c2" { subject = "c1" relation = "below" object = "c9" }
    }"#,
    );
    let found = problems(&source);
    assert!(
        found
            .iter()
            .any(|(code, _, text)| *code == Code::InvalidValue && text.contains("s2:0..3")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(code, _, text)| *code == Code::InvalidValue && text == "\"c9\""),
        "{found:?}"
    );
    let diagnostics = admit(&source).diagnostics;
    assert!(
        diagnostics.iter().any(|d| d.message.contains("\"c9\"")),
        "{}",
        show(&source, &diagnostics)
    );
}

#[test]
fn states_relations_routes_and_digests_are_checked() {
    let source = r#"contract "x" {
    source "s1" { path = "p.md" sha256 = "nope" }
    route "checkout" { text "t" { text = "Hi" } }
    route "/b" {
        element "e" { role = "Button" name = "Pay" state = "on" }
        layout "l" { subject = "e" relation = "beside" object = "e" }
    }
}"#;
    let found = problems(source);
    let invalid = found
        .iter()
        .filter(|(c, _, _)| *c == Code::InvalidValue)
        .count();
    assert!(invalid >= 5, "{found:?}");
}

#[test]
fn an_empty_contract_is_refused() {
    let found = problems("contract \"x\" {\n    route \"/a\" {\n    }\n}\n");
    assert_eq!(
        found.iter().map(|(c, _, _)| *c).collect::<Vec<_>>(),
        [Code::EmptyContract]
    );
}
