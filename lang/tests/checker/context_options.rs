//! Context options and the clock (issue 42): the project's, the suite's and the scenario's
//! options admitted and folded (later wins), the `context` step and the clock steps to the IR,
//! every refusal in one file rendered, and a terminal scenario refusing the browser-only steps.

use crate::{admitted_suite, problems};
use a3s_test_lang::ir::{
    Action, AdmittedDocument, ColorScheme, Geolocation, HttpHeader, Permission, TextValue,
    ViewportSize,
};
use a3s_test_lang::render::{render, Colour, Format};
use a3s_test_lang::{admit, Code};

const SUITE: &str = r#"suite "shop" {
    locale = "de-DE"
    color_scheme = "dark"
    extra_http_headers = { "X-Request-Id" = "7", Authorization = env("TOKEN") }
    scenario "phone" {
        surface = "web"
        device = "Pixel 7"
        color_scheme = "light"
        timezone_id = "Asia/Tokyo"
        geolocation = { latitude = 52.52, longitude = 13, accuracy = 5 }
        permissions = ["geolocation", "clipboard-read"]
        clock = { install_at = "2020-01-01T00:00:00Z" }
        navigate "open" { url = "/" }
        context "offline" { offline = true  geolocation = { latitude = 1, longitude = 2 } }
        clock_fast_forward "minute" { ms = 60000 }
        clock_pause_at "stop" { time = "2020-01-01T01:00:00+01:00" }
        clock_resume "go" {}
        clock_set_fixed_time "fixed" { time = "2024-02-29T12:00:00.5Z" }
    }
}
"#;

#[test]
fn options_fold_suite_then_scenario_and_steps_are_admitted() {
    let suite = admitted_suite(SUITE);
    let scenario = &suite.scenarios[0];
    let c = &scenario.context;
    assert_eq!(c.locale.as_deref(), Some("de-DE"));
    assert_eq!(
        c.color_scheme,
        Some(ColorScheme::Light),
        "the scenario wins"
    );
    assert_eq!(c.timezone_id.as_deref(), Some("Asia/Tokyo"));
    assert_eq!(
        c.extra_http_headers.as_deref(),
        Some(
            &[
                HttpHeader {
                    name: "X-Request-Id".into(),
                    value: TextValue::literal("7"),
                },
                HttpHeader {
                    name: "Authorization".into(),
                    value: TextValue::Env(a3s_test_lang::ir::EnvVar::new("TOKEN").unwrap()),
                },
            ][..]
        )
    );
    assert_eq!(
        c.geolocation,
        Some(Geolocation {
            latitude: 52.52,
            longitude: 13.0,
            accuracy: 5.0
        })
    );
    assert_eq!(
        c.permissions.as_deref(),
        Some(&[Permission::Geolocation, Permission::ClipboardRead][..])
    );
    assert_eq!(
        c.effective_viewport(),
        Some(ViewportSize {
            width: 412,
            height: 839
        })
    );
    assert_eq!(
        c.clock.as_ref().unwrap().install_at.unix_ms,
        1_577_836_800_000
    );
    assert_eq!(suite.context.color_scheme, Some(ColorScheme::Dark));

    let actions: Vec<&Action> = scenario.steps.iter().map(|s| &s.action).collect();
    let Action::Context { settings } = actions[1] else {
        panic!("{:?}", actions[1]);
    };
    assert_eq!(settings.offline, Some(true));
    assert_eq!(settings.geolocation.map(|g| g.latitude), Some(1.0));
    assert_eq!(actions[2], &Action::ClockFastForward { ms: 60_000 });
    let Action::ClockPauseAt { time } = actions[3] else {
        panic!("{:?}", actions[3]);
    };
    assert_eq!(time.unix_ms, 1_577_836_800_000, "the offset is applied");
    assert_eq!(actions[4], &Action::ClockResume);
    let Action::ClockSetFixedTime { time } = actions[5] else {
        panic!("{:?}", actions[5]);
    };
    assert_eq!(time.unix_ms, 1_709_208_000_500);
    // The IR round-trips through JSON (agent sessions persist steps).
    let json = serde_json::to_string(&suite).unwrap();
    let back: a3s_test_lang::ir::Suite = serde_json::from_str(&json).unwrap();
    assert_eq!(back, suite);
}

#[test]
fn the_project_file_takes_context_options() {
    let source = r#"project "shop" {
    locale = "fr-FR"
    offline = false
    http_credentials = { username = "ada", password = env("PASSWORD") }
}
"#;
    let Some(AdmittedDocument::Project(project)) = admit(source).document else {
        panic!("not admitted");
    };
    assert_eq!(project.context.locale.as_deref(), Some("fr-FR"));
    assert_eq!(project.context.offline, Some(false));
    let credentials = project.context.http_credentials.unwrap();
    assert!(credentials.password.is_concealed());
}

#[test]
fn ignore_https_errors_is_admitted_at_every_level_and_folds_later_wins() {
    let source = r#"project "shop" {
    ignore_https_errors = true
    dev_server {
        command = ["npm", "run", "dev"]
        url = "https://localhost:5173"
        ignore_https_errors = true
    }
}
"#;
    let Some(AdmittedDocument::Project(project)) = admit(source).document else {
        panic!("not admitted: {:?}", admit(source).diagnostics);
    };
    assert_eq!(project.context.ignore_https_errors, Some(true));
    assert!(project.dev_server.unwrap().ignore_https_errors);

    let suite = admitted_suite(
        r#"suite "staging" {
    ignore_https_errors = true
    scenario "inherits" {
        surface = "web"
        navigate "open" { url = "https://localhost:5173/" }
    }
    scenario "verifies" {
        surface = "web"
        ignore_https_errors = false
        navigate "open" { url = "https://localhost:5173/" }
    }
}
"#,
    );
    let [inherits, verifies] = &suite.scenarios[..] else {
        panic!("two scenarios");
    };
    assert!(inherits.context.ignores_https_errors());
    assert!(
        !verifies.context.ignores_https_errors(),
        "the scenario wins"
    );
    let project_then_nothing = project.context.then(&Default::default());
    assert!(
        project_then_nothing.ignores_https_errors(),
        "the project's reaches a scenario"
    );
    assert_eq!(
        problems(
            "suite \"s\" {\n    ignore_https_errors = \"yes\"\n    scenario \"a\" {\n        \
             surface = \"web\"\n        navigate \"open\" { url = \"/\" }\n    }\n}\n"
        )
        .len(),
        1,
        "a boolean only"
    );
}

const REFUSED: &str = r#"suite "shop" {
    timezone_id = "asia/tokyo"
    locale = "German"
    scenario "bad" {
        surface = "web"
        device = "Pixle 7"
        color_scheme = "darkish"
        geolocation = { latitude = 100, longitud = 2 }
        permissions = ["geolocation", "geolocation", "camara"]
        extra_http_headers = { "Bad Header" = "x", "X-A" = "1", "x-a" = "2", "X-B" = 3 }
        http_credentials = { username = "ada" }
        viewport = { width = 0, height = 720 }
        user_agent = env("AGENT")
        clock = { install_at = "yesterday" }
        navigate "open" { url = "/" }
        context "nothing" {}
        context "device" { device = "Pixel 7" }
        context "certificates" { ignore_https_errors = true }
        clock_fast_forward "never" { ms = 0 }
        clock_set_fixed_time "when" {}
    }
    scenario "terminal" {
        surface = "tui"
        locale = "de-DE"
        ignore_https_errors = true
        clock_resume "go" {}
        context "off" { offline = true }
    }
}
"#;

#[test]
fn context_refusals() {
    let diagnostics = admit(REFUSED).diagnostics;
    let codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    for code in [
        Code::InvalidTimezone,
        Code::UnknownDevice,
        Code::InvalidTime,
        Code::SurfaceStep,
    ] {
        assert!(codes.contains(&code), "{code} missing: {codes:?}");
    }
    insta::assert_snapshot!(
        "context_refusals",
        render(
            Format::Human,
            Colour::Never,
            "refused.acl",
            REFUSED,
            &diagnostics
        )
    );
}

#[test]
fn a_header_map_with_string_keys_prints_and_reads_back() {
    let source = "suite \"s\" {\n    extra_http_headers = { \"X-Request-Id\" = \"7\", Accept = \"text/html\" }\n    scenario \"a\" {\n        surface = \"web\"\n        navigate \"open\" { url = \"/\" }\n    }\n}\n";
    assert!(problems(source).is_empty(), "{:?}", problems(source));
    let printed = a3s_test_lang::printer::format_source(source).expect("formats");
    assert!(
        printed.contains("{ \"X-Request-Id\" = \"7\", Accept = \"text/html\" }"),
        "{printed}"
    );
}
