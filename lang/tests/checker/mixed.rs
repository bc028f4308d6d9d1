//! A file with many different mistakes: every one is reported, in source order, and nothing else.

use crate::problems;
use a3s_test_lang::{admit, Code};

const SOURCE: &str = r##"suite "shop" {
    version = 2
    base_url = "127.0.0.1:4173"
    scenario "guest" {
        surface = "web"
        timeout_ms = 0
        tags = ["smoke", "smoke"]
        navigate "open" { url = "cart" }
        clik "pay" { target = css("#pay") }
        fill "email" {
            target = label("")
            valu = "a@b.c"                 # misspelt: no second "missing value" report
        }
        press "undo" { key = "Cmd+z" }
        expect "total" { rendered_text = "3" }
        wait "spinner" { hidden = ref("@e4") }
        screenshot "shot" { path = "/tmp/x.png" }
        click "pay" { target = ref("@u2") }
        network_route "api" {
            pattern = "**/api"
            body = "[]"
            abort = true
        }
        expect "calm" {
            text = "Ready"
            stable_for_ms = 1000
            sample_interval_ms = 2000
        }
    }
    scenario "guest" {
        surface = "gui"
        wheel "w" { delta_y = 0 }
        tab "t" { operation = "switch" }
    }
}
"##;

#[test]
fn every_mistake_is_reported_in_source_order() {
    use Code::*;
    let g = "suite.shop.scenario.guest";
    let expected: Vec<(Code, String, &str)> = vec![
        (InvalidValue, "suite.shop.version".into(), "2"),
        (
            InvalidValue,
            "suite.shop.base_url".into(),
            "\"127.0.0.1:4173\"",
        ),
        (InvalidValue, format!("{g}.timeout_ms"), "0"),
        (InvalidValue, format!("{g}.tags"), "\"smoke\""),
        (InvalidValue, format!("{g}.navigate.open.url"), "\"cart\""),
        (UnknownBlock, format!("{g}.clik"), "clik"),
        (TargetArguments, format!("{g}.fill.email.target"), "\"\""),
        (UnknownAttribute, format!("{g}.fill.email.valu"), "valu"),
        (InvalidKey, format!("{g}.press.undo.key"), "\"Cmd+z\""),
        (
            MissingAttribute,
            format!("{g}.expect.total.target"),
            "expect \"total\"",
        ),
        (
            HiddenTargetUnstable,
            format!("{g}.wait.spinner.hidden"),
            "ref(\"@e4\")",
        ),
        (
            EvidencePath,
            format!("{g}.screenshot.shot.path"),
            "\"/tmp/x.png\"",
        ),
        (
            TargetObservationOnly,
            format!("{g}.click.pay.target"),
            "\"@u2\"",
        ),
        (
            RouteResponse,
            format!("{g}.network_route.api.abort"),
            "abort",
        ),
        (
            StabilityLimit,
            format!("{g}.expect.calm.sample_interval_ms"),
            "2000",
        ),
        (DuplicateId, g.into(), "\"guest\""),
        (WheelDelta, format!("{g}.wheel.w.delta_y"), "0"),
        // A desktop scenario refuses a browser-only step at its block.
        (SurfaceStep, format!("{g}.tab.t"), "tab"),
    ];
    let got = problems(SOURCE);
    let got: Vec<(Code, String, &str)> = got
        .iter()
        .map(|(code, path, text)| (*code, path.clone(), text.as_str()))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn diagnostics_are_sorted_by_position() {
    let admission = admit(SOURCE);
    assert!(admission.document.is_none());
    let starts: Vec<usize> = admission.diagnostics.iter().map(|d| d.span.start).collect();
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    assert_eq!(starts, sorted);
    let (_, diagnostics) =
        a3s_test_lang::checker::check_document(&a3s_test_lang::parser::parse(SOURCE).0);
    assert_eq!(
        diagnostics, admission.diagnostics,
        "the checker sorts on its own"
    );
}
