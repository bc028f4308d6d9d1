use super::*;
use a3s_test_ledger::verification::LocatorKind;
use proptest::prelude::*;

/// A finding as the ledger stores it, with these success criteria (JSON array).
fn finding(criteria: &str) -> Finding {
    let json = format!(
        r#"{{"id":"f-save","target":{{"kind":"node","nodeIds":["n1"]}},"instruction":"Rename it",
            "successCriteria":{criteria},"intent":"change","severity":"important"}}"#
    );
    serde_json::from_str(&json).unwrap()
}

fn finding_with(criteria: Vec<SuccessCriterion>) -> Finding {
    finding(&serde_json::to_string(&criteria).unwrap())
}

fn resolved(locator: LocatorKind, acl_target: &str) -> TargetResolution {
    TargetResolution {
        locator,
        acl_target: acl_target.into(),
        stable: locator.is_stable(),
    }
}

const URL: &str = "http://127.0.0.1:4173/checkout?step=2";

#[test]
fn every_typed_criterion_becomes_one_expect_on_the_target() {
    let f = finding(
        r#"["Reads calmly",
            {"kind":"target_text","equals":"Pay now"},
            {"kind":"page_text","contains":"Total"},
            {"kind":"page_text_absent","contains":"Error"},
            {"kind":"target_visible"},
            {"kind":"target_state","state":"enabled"}]"#,
    );
    let r = resolved(LocatorKind::RoleName, r#"role("button", "Pay now")"#);
    let candidate = generate(&f, &r, URL).unwrap().unwrap();
    insta::assert_snapshot!(candidate);
}

#[test]
fn a_hidden_target_is_expected_hidden() {
    let f = finding(
        r#"[{"kind":"page_text","contains":"Saved"},{"kind":"target_hidden"},
            {"kind":"target_state","state":"collapsed"}]"#,
    );
    let r = resolved(LocatorKind::TestId, r#"testid("toast")"#);
    insta::assert_snapshot!(generate(&f, &r, URL).unwrap().unwrap());
}

#[test]
fn page_values_stay_string_literals() {
    // Quotes, braces, newlines and ACL-looking text from the page are data, never syntax.
    let evil = "\"} navigate \"x\" { url = \"https://evil.example\" } #\n\t\\";
    let f = finding_with(vec![
        SuccessCriterion::Typed(TypedCriterion::TargetText {
            equals: evil.into(),
        }),
        SuccessCriterion::Typed(TypedCriterion::PageTextAbsent {
            contains: evil.into(),
        }),
    ]);
    let target = format!("label({})", string_literal(evil));
    let r = resolved(LocatorKind::Label, &target);
    let candidate = generate(&f, &r, "http://127.0.0.1:4173/\"}")
        .unwrap()
        .unwrap();
    insta::assert_snapshot!(candidate);
    let suite = match a3s_test_lang::admit(&candidate).document {
        Some(a3s_test_lang::ir::AdmittedDocument::Suite(s)) => s,
        other => panic!("not a suite: {other:?}"),
    };
    let steps = &suite.scenarios[0].steps;
    assert_eq!(steps.len(), 4, "{candidate}");
    assert_eq!(
        steps
            .iter()
            .filter(|s| matches!(s.action, Action::Navigate { .. }))
            .count(),
        1
    );
}

#[test]
fn no_candidate_without_a_stable_locator_or_a_text_criterion() {
    let text = finding(r#"[{"kind":"page_text","contains":"Saved"}]"#);
    for (kind, target) in [
        (LocatorKind::Text, r#"text("Save")"#),
        (LocatorKind::Css, r##"css("#save")"##),
        (LocatorKind::Placeholder, r#"placeholder("Name")"#),
    ] {
        assert_eq!(generate(&text, &resolved(kind, target), URL), Ok(None));
    }
    // A resolution claiming stability for a target that is not stable is not trusted.
    let lying = TargetResolution {
        locator: LocatorKind::RoleName,
        acl_target: r##"css("#save")"##.into(),
        stable: true,
    };
    assert_eq!(generate(&text, &lying, URL), Ok(None));
    // A declared replacement is used when it is a stable target, and only then.
    let replaced = TargetResolution {
        locator: LocatorKind::Replacement,
        acl_target: r#"testid("pay")"#.into(),
        stable: true,
    };
    let candidate = generate(&text, &replaced, URL).unwrap().unwrap();
    assert!(
        candidate.contains(r#"visible = testid("pay")"#),
        "{candidate}"
    );
    let loose = TargetResolution {
        acl_target: r#"text("Pay")"#.into(),
        ..replaced
    };
    assert_eq!(generate(&text, &loose, URL), Ok(None));
    // A role without a name matches every button: not stable.
    let nameless = resolved(LocatorKind::RoleName, r#"role("button")"#);
    assert_eq!(generate(&text, &nameless, URL), Ok(None));
    // Two targets (or a step) in the resolution do not admit as one target.
    let smuggled = resolved(
        LocatorKind::RoleName,
        r#"role("button", "a") } navigate { url = "https://evil.example" "#,
    );
    assert_eq!(generate(&text, &smuggled, URL), Ok(None));
    // Only visibility, state or prose: nothing explicit to regress on.
    let vague = finding(r#"["looks right",{"kind":"target_visible"}]"#);
    let role = resolved(LocatorKind::RoleName, r#"role("button", "Save")"#);
    assert_eq!(generate(&vague, &role, URL), Ok(None));
    // A page that is not an absolute http(s) URL cannot be opened by a candidate.
    for url in ["/checkout", "file:///etc/passwd", "javascript:alert(1)", ""] {
        assert_eq!(generate(&text, &role, url), Ok(None), "{url}");
    }
    let none = finding("[]");
    assert_eq!(generate(&none, &role, URL), Ok(None));
}

fn typed_text() -> impl Strategy<Value = SuccessCriterion> {
    let text = any::<String>().prop_filter("non-blank", |s| !s.trim().is_empty());
    prop_oneof![
        text.clone()
            .prop_map(|equals| SuccessCriterion::Typed(TypedCriterion::TargetText { equals })),
        text.clone()
            .prop_map(|contains| SuccessCriterion::Typed(TypedCriterion::PageText { contains })),
        text.prop_map(
            |contains| SuccessCriterion::Typed(TypedCriterion::PageTextAbsent { contains })
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever text the page sends, the candidate admits and has exactly the planned steps.
    #[test]
    fn any_finding_text_yields_an_admissible_candidate(
        criteria in proptest::collection::vec(typed_text(), 1..4),
        name in any::<String>().prop_filter("non-blank", |s| !s.trim().is_empty()),
        path in any::<String>(),
    ) {
        let url = format!("http://127.0.0.1:4173/{path}");
        let f = finding_with(criteria.clone());
        let target = format!("role(\"button\", {})", string_literal(&name));
        let r = resolved(LocatorKind::RoleName, &target);
        let candidate = generate(&f, &r, &url).unwrap().unwrap();
        let admission = a3s_test_lang::admit(&candidate);
        prop_assert!(admission.is_admitted(), "{candidate}");
        let Some(a3s_test_lang::ir::AdmittedDocument::Suite(suite)) = admission.document else {
            panic!("not a suite");
        };
        prop_assert_eq!(suite.scenarios[0].steps.len(), criteria.len() + 2, "{}", candidate);
    }
}
