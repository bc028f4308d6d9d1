//! Parameters (`each`, `docs/acl.md` §2.3): each row an instance `id[value]` with `${key}`
//! substituted at admission, and every admission error of the form rendered.

use crate::admitted_suite;
use a3s_test_lang::admit;
use a3s_test_lang::ir::{Action, TextValue};
use a3s_test_lang::render::{render, Colour, Format};

const CHECKOUT: &str = r#"suite "shop" {
    scenario "checkout" {
        surface = "web"
        each = [
            { user = "alice", total = "25 EUR" },
            { total = "7 EUR", user = "bob" },
        ]
        navigate "open" { url = "/cart?u=${user}" }
        fill "who" {
            target = label("User ${user}")
            value = "${user} pays $${total}"
        }
    }
}
"#;

#[test]
fn each_row_is_an_instance_with_its_values_substituted() {
    let suite = admitted_suite(CHECKOUT);
    let ids: Vec<&str> = suite.scenarios.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["checkout[alice]", "checkout[bob]"]);
    let bob = &suite.scenarios[1];
    assert_eq!(bob.name, "checkout[bob]");
    assert_eq!(bob.path, "suite.shop.scenario.checkout[bob]");
    assert_eq!(
        bob.steps[0].path,
        "suite.shop.scenario.checkout[bob].navigate.open"
    );
    assert_eq!(
        bob.steps[0].action,
        Action::Navigate {
            url: "/cart?u=bob".into()
        }
    );
    let Action::Fill { target, value, .. } = &bob.steps[1].action else {
        panic!("{:?}", bob.steps[1].action)
    };
    assert_eq!(target.to_string(), "label(\"User bob\")");
    assert_eq!(value, &TextValue::Literal("bob pays ${total}".into()));
}

#[test]
fn an_id_key_names_the_instance() {
    let source = CHECKOUT.replace(
        "{ user = \"alice\", total = \"25 EUR\" },\n            { total = \"7 EUR\", user = \"bob\" },",
        "{ id = \"big\", user = \"alice\", total = \"25 EUR\" },\n            { id = \"small\", total = \"7 EUR\", user = \"alice\" },",
    );
    let suite = admitted_suite(&source);
    let ids: Vec<&str> = suite.scenarios.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["checkout[big]", "checkout[small]"]);
}

#[test]
fn admission_errors_of_parameters() {
    let scenario = |each: &str, step: &str| {
        format!("suite \"s\" {{\n    scenario \"c\" {{\n        surface = \"web\"\n        each = {each}\n        {step}\n    }}\n}}\n")
    };
    let nav = "navigate \"n\" { url = \"/${user}\" }";
    let cases = [
        (
            "unknown_param",
            scenario("[{ user = \"a\" }]", "navigate \"n\" { url = \"/${usr}\" }"),
        ),
        ("empty", scenario("[]", nav)),
        ("not_a_row", scenario("[\"a\"]", nav)),
        (
            "keys_differ",
            scenario("[{ user = \"a\" }, { name = \"b\" }]", nav),
        ),
        ("not_a_string", scenario("[{ user = 1 }]", nav)),
        ("bad_instance", scenario("[{ user = \"a b\" }]", nav)),
        (
            "same_instance",
            scenario("[{ user = \"a\" }, { user = \"a\" }]", nav),
        ),
        (
            "shared_mistake",
            scenario("[{ user = \"a\" }, { user = \"b\" }]", "click \"k\" {}"),
        ),
    ];
    let mut out = String::new();
    for (name, source) in &cases {
        let admission = admit(source);
        assert!(!admission.is_admitted(), "{name} was admitted");
        out.push_str(&format!(
            "=== {name} ===\n{}\n",
            render(
                Format::Human,
                Colour::Never,
                name,
                source,
                &admission.diagnostics
            )
        ));
    }
    insta::assert_snapshot!(out);
}
