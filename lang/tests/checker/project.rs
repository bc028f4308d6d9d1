//! Project roots (`docs/acl.md` §11): the admitted configuration and the paths of their mistakes.

use crate::{problems, show};
use a3s_test_lang::ir::*;
use a3s_test_lang::{admit, Code};

const PROJECT: &str = r#"project "shop" {
    version = 1
    dev_server {
        command = ["npm", "run", "dev"]
        url = "http://127.0.0.1:5173"
        startup_timeout_ms = 90000
        reuse_existing = false
    }
    browser {
        executable = "/usr/bin/chromium"
        headed = false
    }
    verification {
        check "checkout-unit" {
            tier = "focused"
            command = ["npm", "test", "--", "checkout"]
            file_prefixes = ["src/checkout/"]
            timeout_ms = 120000
        }
        check "e2e" {
            tier = "regression"
            command = ["a3s-test", "run", "suites/"]
        }
    }
}
"#;

#[test]
fn project_admits_to_its_configuration() {
    let admission = admit(PROJECT);
    let Some(AdmittedDocument::Project(project)) = admission.document else {
        panic!("{}", show(PROJECT, &admission.diagnostics));
    };
    assert_eq!(project.id, "shop");
    assert_eq!(project.version, 1);
    assert_eq!(
        project.dev_server,
        Some(DevServer {
            command: vec!["npm".into(), "run".into(), "dev".into()],
            url: "http://127.0.0.1:5173".into(),
            startup_timeout_ms: 90_000,
            reuse_existing: Some(false),
            ignore_https_errors: false,
        })
    );
    assert_eq!(
        project.browser,
        Some(BrowserSettings {
            executable: Some("/usr/bin/chromium".into()),
            headed: false
        })
    );
    assert_eq!(project.checks.len(), 2);
    assert_eq!(project.checks[0].id, "checkout-unit");
    assert_eq!(project.checks[0].tier, CheckTier::Focused);
    assert_eq!(
        project.checks[0].file_prefixes,
        vec!["src/checkout/".to_string()]
    );
    assert_eq!(project.checks[1].tier, CheckTier::Regression);
    assert_eq!(project.checks[1].timeout_ms, DEFAULT_CHECK_TIMEOUT_MS);
    assert!(project.checks[1].file_prefixes.is_empty());

    let minimal = admit("project \"p\" {\n    dev_server {\n command = [\"make\", \"serve\"]\n url = \"http://localhost:8080\"\n }\n}\n");
    let Some(AdmittedDocument::Project(minimal)) = minimal.document else {
        panic!("minimal project")
    };
    assert_eq!(
        minimal.dev_server.unwrap().startup_timeout_ms,
        DEFAULT_STARTUP_TIMEOUT_MS
    );
    assert!(minimal.browser.is_none() && minimal.checks.is_empty());
}

#[test]
fn project_mistakes_carry_project_paths() {
    let source = r#"project "shop" {
    dev_server {
        command = []
        url = "/local"
    }
    browser {
        headed = "no"
    }
    browser {
    }
    verify {
    }
    verification {
        check "unit" {
            tier = "fast"
            command = ["cargo", ""]
        }
        check "unit" {
            tier = "full"
        }
        check {
            tier = "full"
            command = ["x"]
        }
    }
}
"#;
    use Code::*;
    let expected: Vec<(Code, &str, &str)> = vec![
        (InvalidValue, "project.shop.dev_server.command", "[]"),
        (InvalidValue, "project.shop.dev_server.url", "\"/local\""),
        (Type, "project.shop.browser.headed", "\"no\""),
        (DuplicateAttribute, "project.shop.browser", "browser"),
        (UnknownBlock, "project.shop.verify", "verify"),
        (
            InvalidValue,
            "project.shop.verification.check.unit.tier",
            "\"fast\"",
        ),
        (
            InvalidValue,
            "project.shop.verification.check.unit.command",
            "\"\"",
        ),
        (
            DuplicateId,
            "project.shop.verification.check.unit",
            "\"unit\"",
        ),
        (
            MissingAttribute,
            "project.shop.verification.check.unit.command",
            "check \"unit\"",
        ),
        (MissingLabel, "project.shop.verification.check", "check"),
    ];
    let got = problems(source);
    let got: Vec<(Code, &str, &str)> = got
        .iter()
        .map(|(c, p, t)| (*c, p.as_str(), t.as_str()))
        .collect();
    // The DuplicateId and MissingAttribute of the second `check "unit"` share a start; the sort
    // orders equal starts by span end, so the label's diagnostic comes second.
    let mut expected_sorted = expected.clone();
    expected_sorted.sort_by_key(|(_, _, text)| source.find(text).unwrap_or(0));
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    for item in &expected {
        assert!(got.contains(item), "missing {item:?} in {got:#?}");
    }
}

#[test]
fn dev_server_requires_command_and_url() {
    let got = problems("project \"p\" {\n    dev_server {\n    }\n}\n");
    let codes: Vec<(Code, &str)> = got.iter().map(|(c, p, _)| (*c, p.as_str())).collect();
    assert_eq!(
        codes,
        vec![
            (Code::MissingAttribute, "project.p.dev_server.command"),
            (Code::MissingAttribute, "project.p.dev_server.url"),
        ]
    );
}

#[test]
fn project_trace_names_one_of_the_run_modes() {
    for (name, setting) in TraceSetting::NAMES {
        let source = format!("project \"p\" {{\n    trace = \"{name}\"\n}}\n");
        let admission = admit(&source);
        let Some(AdmittedDocument::Project(project)) = admission.document else {
            panic!("{}", show(&source, &admission.diagnostics));
        };
        assert_eq!(project.trace, Some(setting), "{name}");
    }
    let source = "project \"p\" {\n    trace = \"retain-on-fail\"\n}\n";
    assert_eq!(
        problems(source),
        vec![(
            Code::InvalidValue,
            "project.p.trace".to_string(),
            "\"retain-on-fail\"".to_string()
        )]
    );
    let hint = crate::only_diagnostic(source).hint;
    assert!(
        hint.contains("did you mean \"retain-on-failure\"?"),
        "{hint}"
    );
}

#[test]
fn project_grid_admits_its_address_sessions_and_capabilities_as_json() {
    let source = r#"project "p" {
    grid {
        url = "http://grid.internal:4444"
        sessions = 8
        queue_timeout_ms = 30000
        capabilities = { "se:name" = "nightly", "goog:chromeOptions" = { args = ["--headless=new"] }, "se:recordVideo" = false, retries = 2, ratio = 0.5, nothing = null }
    }
}
"#;
    let admission = admit(source);
    let Some(AdmittedDocument::Project(project)) = admission.document else {
        panic!("{}", show(source, &admission.diagnostics));
    };
    let grid = project.grid.expect("the grid block");
    assert_eq!(grid.url, "http://grid.internal:4444");
    assert_eq!(grid.sessions, Some(8));
    assert_eq!(grid.queue_timeout_ms, Some(30_000));
    assert_eq!(
        serde_json::Value::Object(grid.capabilities),
        serde_json::json!({
            "se:name": "nightly",
            "goog:chromeOptions": { "args": ["--headless=new"] },
            "se:recordVideo": false,
            "retries": 2,
            "ratio": 0.5,
            "nothing": null
        })
    );
}

#[test]
fn project_grid_mistakes_name_their_attribute() {
    let source = r#"project "p" {
    grid {
        url = "http://ci:hunter22@grid:4444"
        sessions = 0
        capabilities = { target = role("button", "x"), list = [1, /re/] }
    }
}
"#;
    assert_eq!(
        problems(source),
        vec![
            (
                Code::InvalidValue,
                "project.p.grid.url".to_string(),
                "\"http://ci:hunter22@grid:4444\"".to_string()
            ),
            (
                Code::InvalidValue,
                "project.p.grid.sessions".to_string(),
                "0".to_string()
            ),
            (
                Code::Type,
                "project.p.grid.capabilities".to_string(),
                "role(\"button\", \"x\")".to_string()
            ),
            (
                Code::Type,
                "project.p.grid.capabilities".to_string(),
                "/re/".to_string()
            ),
        ]
    );
    let hint = crate::only_diagnostic(
        "project \"p\" {\n    grid {\n        url = \"https://u:p@g\"\n    }\n}\n",
    )
    .hint;
    assert!(hint.contains("A3S_TEST_GRID"), "{hint}");
    assert_eq!(
        problems("project \"p\" {\n    grid {\n    }\n}\n"),
        vec![(
            Code::MissingAttribute,
            "project.p.grid.url".to_string(),
            "grid".to_string()
        )]
    );
}

#[test]
fn project_providers_are_admitted_by_name_with_their_budget() {
    let source = r#"project "p" {
    provider "ocr" {
        kind = "visual_grounding"
        endpoint = "http://127.0.0.1:7300/ground"
        model = "tesseract-5"
        max_cost_microusd = 0
    }
    provider "vision" {
        kind = "visual_grounding"
        endpoint = "https://vision.example.com/v1/ground"
        model = "v-2"
        authorization_env = "A3S_TEST_PROVIDER_AUTHORIZATION_VISION"
        timeout_ms = 20000
        max_cost_microusd = 5000
        max_input_units = 4000
        max_output_units = 0
    }
    provider "local6" {
        kind = "visual_grounding"
        endpoint = "http://[::1]:9/"
        model = "m"
        max_cost_microusd = 1
    }
    provider "named" {
        kind = "visual_grounding"
        endpoint = "http://localhost:9/"
        model = "m"
        max_cost_microusd = 1
    }
}
"#;
    let admission = admit(source);
    let Some(AdmittedDocument::Project(project)) = admission.document else {
        panic!("{}", show(source, &admission.diagnostics));
    };
    let names: Vec<&str> = project.providers.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["ocr", "vision", "local6", "named"]);
    let ocr = &project.providers[0];
    assert_eq!(ocr.kind, ProviderKind::VisualGrounding);
    assert_eq!(ocr.timeout_ms, DEFAULT_PROVIDER_TIMEOUT_MS);
    assert_eq!(ocr.authorization_env, None);
    let vision = &project.providers[1];
    assert_eq!(
        vision.authorization_env.as_deref(),
        Some("A3S_TEST_PROVIDER_AUTHORIZATION_VISION")
    );
    assert_eq!(
        (vision.timeout_ms, vision.max_cost_microusd),
        (20_000, 5_000)
    );
    assert_eq!(
        (vision.max_input_units, vision.max_output_units),
        (Some(4_000), Some(0))
    );
    assert_eq!((ocr.max_input_units, ocr.max_output_units), (None, None));
}

#[test]
fn project_provider_mistakes_name_their_attribute() {
    let source = r#"project "p" {
    provider "a" {
        kind = "visual_groundin"
        endpoint = "http://grounding.example.com/"
        model = ""
        authorization_env = "OPENAI_API_KEY"
        timeout_ms = 0
        max_cost_microusd = -1
        max_input_units = -5
        max_output_units = "many"
    }
    provider "a" {
        kind = "visual_grounding"
        endpoint = "https://user:pw@g.example.com/"
        model = "m"
    }
}
"#;
    let got = problems(source);
    let want = vec![
        (
            Code::InvalidValue,
            "project.p.provider.a.kind".to_string(),
            "\"visual_groundin\"".to_string(),
        ),
        (
            Code::InvalidValue,
            "project.p.provider.a.endpoint".to_string(),
            "\"http://grounding.example.com/\"".to_string(),
        ),
        (
            Code::InvalidValue,
            "project.p.provider.a.model".to_string(),
            "\"\"".to_string(),
        ),
        (
            Code::InvalidValue,
            "project.p.provider.a.authorization_env".to_string(),
            "\"OPENAI_API_KEY\"".to_string(),
        ),
        (
            Code::InvalidValue,
            "project.p.provider.a.timeout_ms".to_string(),
            "0".to_string(),
        ),
        (
            Code::InvalidValue,
            "project.p.provider.a.max_cost_microusd".to_string(),
            "-1".to_string(),
        ),
        (
            Code::InvalidValue,
            "project.p.provider.a.max_input_units".to_string(),
            "-5".to_string(),
        ),
        (
            Code::Type,
            "project.p.provider.a.max_output_units".to_string(),
            "\"many\"".to_string(),
        ),
        (
            Code::MissingAttribute,
            "project.p.provider.a.max_cost_microusd".to_string(),
            "provider \"a\"".to_string(),
        ),
        (
            Code::DuplicateId,
            "project.p.provider.a".to_string(),
            "\"a\"".to_string(),
        ),
        (
            Code::InvalidValue,
            "project.p.provider.a.endpoint".to_string(),
            "\"https://user:pw@g.example.com/\"".to_string(),
        ),
    ];
    assert_eq!(got, want);
    let hint = crate::only_diagnostic(
        "project \"p\" {\n    provider \"x\" {\n        kind = \"visual_grounding\"\n        endpoint = \"http://10.0.0.2/\"\n        model = \"m\"\n        max_cost_microusd = 0\n    }\n}\n",
    )
    .hint;
    assert!(hint.contains("https://"), "{hint}");
}
