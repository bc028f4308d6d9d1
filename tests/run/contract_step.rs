//! A suite's `check_contract` step (`docs/acl.md` §5, `docs/contracts.md` §4) through the binary
//! and real Chromium on a loopback app: the reviewed contract passes on the page, the same run
//! fails with the exact differences after the page changes (in the JSON, JUnit and HTML
//! reports, with the typed report kept as evidence), and a missing or invalid contract file,
//! or an unknown route, refuses the suite at admission with its location and hint.

use crate::common::{loopback, read_request, respond, serve_each};
use crate::harness::{command, finish, workdir, Finished, RUN_BOUND};
use serde_json::Value;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The reviewed contract: a button in a state, a heading, a text and a layout.
const CONTRACT: &str = r#"contract "checkout" {
    source "s1" {
        path = "prd.md"
        sha256 = "4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a4b1e3f0a"
    }
    route "/checkout" {
        element "pay" {
            role = "button"
            name = "Pay now"
            state = "enabled"
            evidence = ["s1:40..47"]
        }
        element "total" {
            role = "heading"
            name = "Order total"
            evidence = ["s1:95..106"]
        }
        text "shipping" {
            text = "Free shipping"
            evidence = ["s1:120..133"]
        }
        layout "pay-below-total" {
            subject = "pay"
            relation = "below"
            object = "total"
            evidence = ["s1:140..190"]
        }
    }
}
"#;

/// The page as the contract says.
const APP: &str = "<!doctype html><title>Checkout</title><h1>Order total</h1><p>Free shipping</p><button>Pay now</button>";

/// The page after a change: the button disabled and above a renamed heading, the text in
/// another case.
const CHANGED: &str = "<!doctype html><title>Checkout</title><button disabled>Pay now</button><h1>Total due</h1><p>FREE SHIPPING</p>";

const SUITE: &str = r#"suite "shop" {
    scenario "checkout" {
        surface = "web"
        navigate "open" { url = "/checkout" }
        check_contract "prd" { path = "contract.acl" route = "/checkout" }
    }
}
"#;

/// A loopback app answering `/checkout` with whatever `page` holds at the time; its origin.
fn app(page: Arc<Mutex<&'static str>>) -> String {
    let (listener, origin) = loopback();
    serve_each(listener, move |stream| {
        if let Some(request) = read_request(&stream) {
            if request.target == "/checkout" {
                let html = *page.lock().unwrap();
                respond(
                    &stream,
                    "200 OK",
                    "text/html; charset=utf-8",
                    "",
                    html.as_bytes(),
                );
            } else {
                respond(&stream, "404 Not Found", "text/plain", "", b"not found");
            }
        }
    });
    origin
}

/// `a3s-test run shop.acl --json --junit junit.xml --html report --base-url ORIGIN`.
fn run(work: &Path, origin: &str) -> Finished {
    let child = command(
        "run",
        &[
            "shop.acl",
            "--json",
            "--junit",
            "junit.xml",
            "--html",
            "report",
            "--base-url",
            origin,
        ],
        work,
    )
    .spawn()
    .unwrap();
    finish(child, RUN_BOUND)
}

#[test]
fn a_reviewed_contract_passes_then_fails_with_exact_differences_after_the_page_changes() {
    let page = Arc::new(Mutex::new(APP));
    let origin = app(page.clone());
    let work = workdir(&[("shop.acl", SUITE), ("contract.acl", CONTRACT)]);

    let passed = run(work.path(), &origin);
    assert_eq!(passed.code, 0, "{}\n{}", passed.stdout, passed.stderr);
    let json = passed.json();
    let step = &json["scenarios"][0]["steps"][1];
    assert_eq!(step["kind"], "check_contract", "{step}");
    assert_eq!(step["status"], "passed", "{step}");

    *page.lock().unwrap() = CHANGED;
    let failed = run(work.path(), &origin);
    assert_eq!(failed.code, 1, "{}\n{}", failed.stdout, failed.stderr);
    let json = failed.json();
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"], "test.assert.contract_mismatch",
        "{failure}"
    );
    let message = failure["message"].as_str().unwrap().to_string();
    insta::assert_snapshot!("contract_step_changed_page", message);

    // The typed report is the step's evidence, on disk where the result says.
    let evidence = failure["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "contract_report")
        .unwrap_or_else(|| panic!("no contract_report evidence in {failure}"));
    let path = work.path().join(evidence["path"].as_str().unwrap());
    let report: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(report["format"], "a3s.test.contract-report/1");
    assert_eq!(
        (&report["met"], &report["missing"], &report["different"]),
        (&Value::from(0), &Value::from(2), &Value::from(2)),
        "{report}"
    );
    assert_eq!(report["routes"][0]["url"], format!("{origin}/checkout"));

    // The JUnit and HTML reports carry the same differences.
    let junit = std::fs::read_to_string(work.path().join("junit.xml")).unwrap();
    assert!(junit.contains("test.assert.contract_mismatch"), "{junit}");
    assert!(
        junit.contains("different pay button &quot;Pay now&quot; enabled: seen visible, disabled"),
        "{junit}"
    );
    let html = std::fs::read_to_string(work.path().join("report/index.html")).unwrap();
    assert!(
        html.contains("contract_mismatch"),
        "no code in the HTML report"
    );
    assert!(
        html.contains("Total due"),
        "no difference in the HTML report"
    );
}

#[test]
fn a_missing_or_invalid_contract_or_an_unknown_route_refuses_the_suite_at_admission() {
    let origin = app(Arc::new(Mutex::new(APP)));
    let suite = r#"suite "shop" {
    scenario "missing" {
        surface = "web"
        navigate "open" { url = "/checkout" }
        check_contract "prd" { path = "gone.acl" }
    }
    scenario "not-a-contract" {
        surface = "web"
        navigate "open" { url = "/checkout" }
        check_contract "prd" { path = "other.acl" }
    }
    scenario "route" {
        surface = "web"
        navigate "open" { url = "/checkout" }
        check_contract "prd" { path = "contract.acl" route = "/cart" }
    }
}
"#;
    let other = "suite \"other\" {\n    scenario \"s\" {\n        surface = \"web\"\n        navigate \"open\" { url = \"/\" }\n    }\n}\n";
    let work = workdir(&[
        ("shop.acl", suite),
        ("other.acl", other),
        ("contract.acl", CONTRACT),
    ]);
    let refused = run(work.path(), &origin);
    assert_eq!(refused.code, 2, "{}\n{}", refused.stdout, refused.stderr);
    insta::assert_snapshot!("contract_step_admission", refused.stderr);

    let checked = finish(
        command("check", &["shop.acl"], work.path())
            .spawn()
            .unwrap(),
        RUN_BOUND,
    );
    assert_eq!(checked.code, 2, "{}\n{}", checked.stdout, checked.stderr);
    assert_eq!(
        checked.stdout.matches("test.spec.contract_file").count()
            + checked.stderr.matches("test.spec.contract_file").count(),
        3,
        "{}\n{}",
        checked.stdout,
        checked.stderr
    );
}
