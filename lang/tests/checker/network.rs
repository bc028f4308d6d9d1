//! `network_route` forms (`headers`, `continue`, `times`, glob and regular-expression patterns):
//! each refusal with its code, path and span, rendered as a user reads it.

use crate::problems;
use a3s_test_lang::render::{render, Colour, Format};
use a3s_test_lang::{admit, Code};

const REFUSED: &str = r#"suite "s" {
    scenario "sc" {
        surface = "web"
        network_route "two-ways" {
            pattern = "**/api/cart"
            body = "[]"
            continue = true
        }
        network_route "abort-headers" {
            pattern = "**/ads/**"
            abort = true
            headers = { "X-A" = "1" }
        }
        network_route "fulfil-url" {
            pattern = "**/api/cart"
            body = "[]"
            url = "http://127.0.0.1:1/other"
        }
        network_route "continue-status" {
            pattern = "**/api/cart"
            continue = true
            status = 500
        }
        network_route "relative-url" {
            pattern = "**/api/cart"
            continue = true
            url = "/v2/cart"
        }
        network_route "bad-method" {
            pattern = "**/api/cart"
            continue = true
            method = "PO ST"
        }
        network_route "zero-times" {
            pattern = "**/api/cart"
            body = "[]"
            times = 0
        }
        network_route "lookahead" {
            pattern = /\/api\/(?!admin)/
            abort = true
        }
        network_route "flag" {
            pattern = /cart/g
            abort = true
        }
        network_route "number" {
            pattern = 3
            abort = true
        }
        network_route "header-name" {
            pattern = "**/api/cart"
            body = "[]"
            headers = { "X A" = "1" }
        }
        network_unroute "regex-typo" { pattern = /(/ }
    }
}
"#;

#[test]
fn route_refusals() {
    let diagnostics = admit(REFUSED).diagnostics;
    let found: Vec<(Code, &str)> = diagnostics
        .iter()
        .map(|d| (d.code, d.path.as_str()))
        .collect();
    for (code, path) in [
        (
            Code::RouteResponse,
            "suite.s.scenario.sc.network_route.two-ways.continue",
        ),
        (
            Code::RouteResponse,
            "suite.s.scenario.sc.network_route.abort-headers.headers",
        ),
        (
            Code::RouteResponse,
            "suite.s.scenario.sc.network_route.fulfil-url.url",
        ),
        (
            Code::RouteResponse,
            "suite.s.scenario.sc.network_route.continue-status.status",
        ),
        (
            Code::InvalidValue,
            "suite.s.scenario.sc.network_route.relative-url.url",
        ),
        (
            Code::InvalidValue,
            "suite.s.scenario.sc.network_route.bad-method.method",
        ),
        (
            Code::InvalidValue,
            "suite.s.scenario.sc.network_route.zero-times.times",
        ),
        (
            Code::InvalidRegex,
            "suite.s.scenario.sc.network_route.lookahead.pattern",
        ),
        (
            Code::InvalidRegex,
            "suite.s.scenario.sc.network_route.flag.pattern",
        ),
        (
            Code::Type,
            "suite.s.scenario.sc.network_route.number.pattern",
        ),
        (
            Code::InvalidValue,
            "suite.s.scenario.sc.network_route.header-name.headers.X A",
        ),
        (
            Code::InvalidRegex,
            "suite.s.scenario.sc.network_unroute.regex-typo.pattern",
        ),
    ] {
        assert!(
            found.contains(&(code, path)),
            "{code} at {path} missing: {found:#?}"
        );
    }
    assert_eq!(diagnostics.len(), 12, "{found:#?}");
    insta::assert_snapshot!(
        "route_refusals",
        render(
            Format::Human,
            Colour::Never,
            "routes.acl",
            REFUSED,
            &diagnostics
        )
    );
}

#[test]
fn a_false_continue_is_no_way_of_answering() {
    let source = crate::in_scenario(
        "        network_route \"r\" {\n pattern = \"**\"\n continue = false\n }",
    );
    assert_eq!(
        problems(&source),
        vec![(
            Code::RouteResponse,
            "suite.s.scenario.sc.network_route.r".to_string(),
            "network_route \"r\"".to_string()
        )]
    );
}

#[test]
fn a_route_prints_and_reads_back_with_its_regex() {
    let source = crate::in_scenario(
        "        network_route \"r\" {\n pattern = /\\/api\\/cart$/i\n continue = true\n headers = { \"X-Test\" = \"1\" }\n times = 2\n }",
    );
    assert!(problems(&source).is_empty(), "{:?}", problems(&source));
    let printed = a3s_test_lang::printer::format_source(&source).expect("formats");
    assert!(printed.contains("pattern = /\\/api\\/cart$/i"), "{printed}");
    let steps = |suite: &str| crate::only_scenario(suite).steps;
    let (printed, written) = (steps(&printed), steps(&source));
    assert_eq!(printed.len(), 1);
    assert_eq!(printed[0].action, written[0].action);
}

#[test]
fn network_waits_admit_a_glob_or_regex_and_an_optional_status() {
    use a3s_test_lang::ir::{Action, NetworkEvent, NetworkWait, UrlPattern, WaitCondition};
    let wait = |step: &str| match crate::action(step) {
        Action::Wait {
            condition: WaitCondition::Network { wait },
        } => wait,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        wait("        wait \"w\" {\n response = \"**/api/cart\"\n status = 200\n }"),
        NetworkWait {
            event: NetworkEvent::Response,
            pattern: "**/api/cart".into(),
            status: Some(200),
        }
    );
    assert_eq!(
        wait("        wait \"w\" { request = /\\/api\\/cart$/i }"),
        NetworkWait {
            event: NetworkEvent::Request,
            pattern: UrlPattern::Regex {
                regex: "\\/api\\/cart$".into(),
                flags: "i".into()
            },
            status: None,
        }
    );
}

const WAIT_REFUSED: &str = r#"suite "s" {
    scenario "sc" {
        surface = "web"
        wait "status-on-text" {
            text = "Saved"
            status = 200
        }
        wait "status-on-request" {
            request = "**/api/cart"
            status = 200
        }
        wait "bad-status" {
            response = "**/api/cart"
            status = 99
        }
        wait "two" {
            response = "**/api/cart"
            text = "Saved"
        }
        wait "number" { response = 3 }
        wait "status-only" { status = 200 }
    }
}
"#;

#[test]
fn network_wait_refusals() {
    let diagnostics = admit(WAIT_REFUSED).diagnostics;
    let found: Vec<(Code, &str)> = diagnostics
        .iter()
        .map(|d| (d.code, d.path.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                Code::ConditionAttribute,
                "suite.s.scenario.sc.wait.status-on-text.status"
            ),
            (
                Code::ConditionAttribute,
                "suite.s.scenario.sc.wait.status-on-request.status"
            ),
            (
                Code::InvalidValue,
                "suite.s.scenario.sc.wait.bad-status.status"
            ),
            (
                Code::ConflictingConditions,
                "suite.s.scenario.sc.wait.two.text"
            ),
            (Code::Type, "suite.s.scenario.sc.wait.number.response"),
            (
                Code::MissingCondition,
                "suite.s.scenario.sc.wait.status-only"
            ),
        ]
    );
    insta::assert_snapshot!(
        "network_wait_refusals",
        render(
            Format::Human,
            Colour::Never,
            "waits.acl",
            WAIT_REFUSED,
            &diagnostics
        )
    );
}

#[test]
fn a_request_step_takes_its_call_and_expectation() {
    use a3s_test_lang::ir::{
        Action, ApiRequest, EnvVar, HttpHeader, JsonCheck, JsonPath, JsonScalar, TextValue,
    };
    let step = "        request \"me\" {\n method = \"post\"\n url = \"/api/me\"\n headers = { Authorization = env(\"TOKEN\") }\n body = \"{}\"\n status = 201\n json_path = \"$.user.roles[0]\"\n equals = \"admin\"\n }";
    assert_eq!(
        crate::action(step),
        Action::Request {
            request: ApiRequest {
                method: "POST".into(),
                url: "/api/me".into(),
                headers: vec![HttpHeader {
                    name: "Authorization".into(),
                    value: TextValue::Env(EnvVar::new("TOKEN").unwrap()),
                }],
                body: Some("{}".into()),
                status: Some(201),
                json: Some(JsonCheck {
                    json_path: JsonPath::parse("$.user.roles[0]").unwrap(),
                    equals: JsonScalar::String("admin".into()),
                }),
            },
        }
    );
    let plain = crate::action("        request \"me\" { url = \"http://127.0.0.1:1/x\" }");
    assert!(
        matches!(plain, Action::Request { request } if request.method == "GET" && request.status.is_none() && request.json.is_none())
    );
}

const REQUEST_REFUSED: &str = r#"suite "s" {
    scenario "sc" {
        surface = "web"
        request "no-url" { method = "GET" }
        request "relative" { url = "api/me" }
        request "path-alone" {
            url = "/api/me"
            json_path = "$.user"
        }
        request "equals-alone" {
            url = "/api/me"
            equals = 3
        }
        request "bad-path" {
            url = "/api/me"
            json_path = "user.name"
            equals = "Ada"
        }
        request "list" {
            url = "/api/me"
            json_path = "$.roles"
            equals = ["admin"]
        }
        request "status" {
            url = "/api/me"
            status = 700
        }
    }
}
"#;

#[test]
fn request_refusals() {
    let diagnostics = admit(REQUEST_REFUSED).diagnostics;
    let found: Vec<(Code, &str)> = diagnostics
        .iter()
        .map(|d| (d.code, d.path.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                Code::MissingAttribute,
                "suite.s.scenario.sc.request.no-url.url"
            ),
            (
                Code::InvalidValue,
                "suite.s.scenario.sc.request.relative.url"
            ),
            (
                Code::MissingAttribute,
                "suite.s.scenario.sc.request.path-alone.equals"
            ),
            (
                Code::MissingAttribute,
                "suite.s.scenario.sc.request.equals-alone.json_path"
            ),
            (
                Code::InvalidValue,
                "suite.s.scenario.sc.request.bad-path.json_path"
            ),
            (Code::Type, "suite.s.scenario.sc.request.list.equals"),
            (
                Code::InvalidValue,
                "suite.s.scenario.sc.request.status.status"
            ),
        ]
    );
    insta::assert_snapshot!(
        "request_refusals",
        render(
            Format::Human,
            Colour::Never,
            "requests.acl",
            REQUEST_REFUSED,
            &diagnostics
        )
    );
}

#[test]
fn route_from_har_takes_a_relative_path_and_a_not_found_keyword() {
    use a3s_test_lang::ir::{Action, HarNotFound, HarReplay};
    assert_eq!(
        crate::action("        route_from_har \"h\" {\n path = \"recorded/shop.har\"\n not_found = \"fallback\"\n }"),
        Action::RouteFromHar {
            replay: HarReplay {
                path: "recorded/shop.har".into(),
                not_found: HarNotFound::Fallback,
            }
        }
    );
    assert_eq!(
        crate::action("        route_from_har \"h\" { path = \"shop.har\" }"),
        Action::RouteFromHar {
            replay: HarReplay {
                path: "shop.har".into(),
                not_found: HarNotFound::Abort,
            }
        }
    );
}

const HAR_REFUSED: &str = r#"suite "s" {
    scenario "sc" {
        surface = "web"
        route_from_har "no-path" { not_found = "abort" }
        route_from_har "escape" { path = "../shop.har" }
        route_from_har "absolute" { path = "/tmp/shop.har" }
        route_from_har "keyword" {
            path = "shop.har"
            not_found = "fall-back"
        }
    }
}
"#;

#[test]
fn route_from_har_refusals() {
    let diagnostics = admit(HAR_REFUSED).diagnostics;
    let found: Vec<(Code, &str)> = diagnostics
        .iter()
        .map(|d| (d.code, d.path.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                Code::MissingAttribute,
                "suite.s.scenario.sc.route_from_har.no-path.path"
            ),
            (
                Code::InvalidValue,
                "suite.s.scenario.sc.route_from_har.escape.path"
            ),
            (
                Code::InvalidValue,
                "suite.s.scenario.sc.route_from_har.absolute.path"
            ),
            (
                Code::InvalidValue,
                "suite.s.scenario.sc.route_from_har.keyword.not_found"
            ),
        ]
    );
    insta::assert_snapshot!(
        "route_from_har_refusals",
        render(
            Format::Human,
            Colour::Never,
            "har.acl",
            HAR_REFUSED,
            &diagnostics
        )
    );
}
