//! Valid sources for every step kind and every `wait`/`expect` form, admitted to the expected IR.

use crate::{action, admitted_suite, in_scenario, only_scenario};
use a3s_test_lang::ir::*;

fn role(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: Some(TextMatch::contains(name)),
    }
}

fn css(selector: &str) -> Target {
    Target::Css {
        selector: selector.into(),
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn suite_and_scenario_settings_and_defaults() {
    let source = r#"suite "checkout" {
    version = 1
    base_url = "http://127.0.0.1:4173"
    action_timeout_ms = 2000
    scenario "guest-checkout" {
        name = "Guest can pay"
        surface = "web"
        timeout_ms = 30000
        tags = ["smoke", "payments"]
        navigate "open" { url = "/cart" }
        click "pay" { target = role("button", "Pay now") }
        expect "done" { text = "Thank you" }
    }
    scenario "minimal" {
        surface = "tui"
        action_timeout_ms = 700
        wait "open" { text = "/" }
    }
}
"#;
    let suite = admitted_suite(source);
    assert_eq!(suite.id, "checkout");
    assert_eq!(suite.version, 1);
    assert_eq!(suite.base_url.as_deref(), Some("http://127.0.0.1:4173"));
    let [guest, minimal] = &suite.scenarios[..] else {
        panic!("two scenarios")
    };
    assert_eq!(guest.id, "guest-checkout");
    assert_eq!(guest.name, "Guest can pay");
    assert_eq!(guest.surface, Surface::Web);
    assert_eq!(guest.timeout_ms, 30_000);
    assert_eq!(guest.action_timeout_ms, 2_000, "inherited from the suite");
    assert_eq!(guest.tags, strings(&["smoke", "payments"]));
    assert_eq!(guest.path, "suite.checkout.scenario.guest-checkout");
    let labels: Vec<_> = guest
        .steps
        .iter()
        .map(|s| s.label.clone().unwrap())
        .collect();
    assert_eq!(labels, ["open", "pay", "done"]);
    assert_eq!(
        guest.steps[1].path,
        "suite.checkout.scenario.guest-checkout.click.pay"
    );
    assert_eq!(
        &source[guest.steps[1].span.range()],
        "click \"pay\" { target = role(\"button\", \"Pay now\") }"
    );
    assert_eq!(minimal.name, "minimal", "name defaults to the id");
    assert_eq!(minimal.surface, Surface::Tui);
    assert_eq!(minimal.timeout_ms, DEFAULT_SCENARIO_TIMEOUT_MS);
    assert_eq!(minimal.action_timeout_ms, 700);
    assert!(minimal.tags.is_empty());

    let defaults = only_scenario(&in_scenario("        navigate \"n\" { url = \"/\" }"));
    assert_eq!(defaults.action_timeout_ms, DEFAULT_ACTION_TIMEOUT_MS);
    assert_eq!(
        admitted_suite(&in_scenario("        navigate \"n\" { url = \"/\" }")).version,
        1
    );
}

#[test]
fn every_step_kind_admits_to_its_action() {
    let cases: Vec<(&str, Action)> = vec![
        ("navigate \"n\" { url = \"/cart\" }", Action::Navigate { url: "/cart".into() }),
        ("navigate \"n\" { url = \"https://example.com/a?b#c\" }", Action::Navigate { url: "https://example.com/a?b#c".into() }),
        ("click \"c\" { target = role(\"button\", \"Pay\") }", Action::Click { target: role("button", "Pay"), pointer: PointerOptions::default(), via: InputVia::Pointer, action: None }),
        (
            "click \"c\" {\n target = css(\"a\")\n button = \"middle\"\n modifiers = [\"Control\", \"shift\"]\n position { x = 4\n y = 0 }\n }",
            Action::Click {
                target: css("a"),
                pointer: PointerOptions {
                    button: Some(MouseButton::Middle),
                    modifiers: vec![Modifier::Control, Modifier::Shift],
                    position: Some(Position { x: 4, y: 0 }),
                },
                via: InputVia::Pointer,
                action: None,
            },
        ),
        (
            "context_click \"c\" {\n target = css(\"a\")\n modifiers = [\"alt\"]\n }",
            Action::ContextClick {
                target: css("a"),
                pointer: PointerOptions { modifiers: vec![Modifier::Alt], ..PointerOptions::default() },
            },
        ),
        ("hover \"c\" { target = label(\"Email\") }", Action::Hover { target: Target::Label { label: TextMatch::contains("Email") }, pointer: PointerOptions::default() }),
        ("focus \"c\" { target = placeholder(\"Search\") }", Action::Focus { target: Target::Placeholder { placeholder: TextMatch::contains("Search") } }),
        ("double_click \"c\" { target = text(\"Row 1\") }", Action::DoubleClick { target: Target::Text { text: TextMatch::contains("Row 1") }, pointer: PointerOptions::default() }),
        ("context_click \"c\" { target = text(\"Row 1\", true) }", Action::ContextClick { target: Target::Text { text: TextMatch::exact("Row 1") }, pointer: PointerOptions::default() }),
        ("check \"c\" { target = testid(\"terms\") }", Action::Check { target: Target::TestId { test_id: "terms".into() } }),
        ("uncheck \"c\" { target = css(\"#news\") }", Action::Uncheck { target: css("#news") }),
        (
            "fill \"f\" {\n target = label(\"Email\")\n value = \"a@b.c\"\n }",
            Action::Fill { target: Target::Label { label: TextMatch::contains("Email") }, value: "a@b.c".into() },
        ),
        ("fill \"f\" {\n target = css(\"#q\")\n value = \"\"\n }", Action::Fill { target: css("#q"), value: "".into() }),
        (
            "type \"t\" {\n target = ref(\"@e12\")\n value = \"abc\"\n }",
            Action::Type { target: Target::Ref { reference: ElementRef::Accessibility(12) }, value: "abc".into() },
        ),
        ("insert_text \"i\" { value = \"héllo\" }", Action::InsertText { value: "héllo".into() }),
        (
            "select \"s\" {\n target = css(\"select\")\n values = [\"red\", \"blue\"]\n }",
            Action::Select { target: css("select"), values: strings(&["red", "blue"]) },
        ),
        (
            "drag \"d\" {\n source = css(\"#a\")\n target = ref(\"@c3\")\n }",
            Action::Drag { source: css("#a"), target: Target::Ref { reference: ElementRef::PageContext(3) }, edge: None },
        ),
        (
            "drag \"d\" {\n source = css(\"#a\")\n target = css(\"#b\")\n edge = \"bottom\"\n }",
            Action::Drag { source: css("#a"), target: css("#b"), edge: Some(DragEdge::Bottom) },
        ),
        ("press \"p\" { key = \"Enter\" }", Action::Press { key: KeyChord { modifiers: vec![], key: "Enter".into() }, target: None }),
        (
            "press \"p\" { key = \"Enter\"\n target = css(\"#q\") }",
            Action::Press { key: KeyChord { modifiers: vec![], key: "Enter".into() }, target: Some(css("#q")) },
        ),
        (
            "press \"p\" { key = \"Control+Shift+z\" }",
            Action::Press { key: KeyChord { modifiers: vec![Modifier::Control, Modifier::Shift], key: "z".into() }, target: None },
        ),
        ("wheel \"w\" { delta_y = 300 }", Action::Wheel { delta_x: 0, delta_y: 300, modifiers: vec![], target: None }),
        (
            "wheel \"w\" {\n delta_y = 0\n delta_x = -40\n modifiers = [\"shift\", \"control\"]\n target = css(\"#list\")\n }",
            Action::Wheel { delta_x: -40, delta_y: 0, modifiers: vec![Modifier::Shift, Modifier::Control], target: Some(css("#list")) },
        ),
        ("viewport \"v\" {\n width = 390\n height = 844\n }", Action::Viewport { width: 390, height: 844, scale: None }),
        ("viewport \"v\" {\n width = 390\n height = 844\n scale = 3\n }", Action::Viewport { width: 390, height: 844, scale: Some(3) }),
        ("snapshot \"s\" {}", Action::Snapshot { interactive: true }),
        ("snapshot \"s\" { interactive = false }", Action::Snapshot { interactive: false }),
        ("screenshot \"s\" { path = \"shots/cart.png\" }", Action::Screenshot { path: EvidencePath("shots/cart.png".into()) }),
        ("accessibility \"a\" { path = \"tree.json\" }", Action::Accessibility { path: EvidencePath("tree.json".into()), interactive: false }),
        (
            "accessibility \"a\" {\n path = \"tree.json\"\n interactive = true\n }",
            Action::Accessibility { path: EvidencePath("tree.json".into()), interactive: true },
        ),
        ("console \"c\" { path = \"console.json\" }", Action::Console { path: EvidencePath("console.json".into()), clear: false }),
        (
            "page_errors \"e\" {\n path = \"errors.json\"\n clear = true\n }",
            Action::PageErrors { path: EvidencePath("errors.json".into()), clear: true },
        ),
        ("tab \"t\" { operation = \"list\" }", Action::Tab { operation: TabOperation::List }),
        ("tab \"t\" { operation = \"new\" }", Action::Tab { operation: TabOperation::New { url: None, label: None } }),
        (
            "tab \"t\" {\n operation = \"new\"\n url = \"/docs\"\n label = \"docs\"\n }",
            Action::Tab { operation: TabOperation::New { url: Some("/docs".into()), label: Some("docs".into()) } },
        ),
        ("tab \"t\" {\n operation = \"switch\"\n tab = 0\n }", Action::Tab { operation: TabOperation::Switch { tab: TabRef::Index(0) } }),
        (
            "tab \"t\" {\n operation = \"switch\"\n tab = \"docs\"\n }",
            Action::Tab { operation: TabOperation::Switch { tab: TabRef::Label("docs".into()) } },
        ),
        ("tab \"t\" { operation = \"close\" }", Action::Tab { operation: TabOperation::Close { tab: None } }),
        ("tab \"t\" {\n operation = \"close\"\n tab = 2\n }", Action::Tab { operation: TabOperation::Close { tab: Some(TabRef::Index(2)) } }),
        ("frame \"f\" { target = main() }", Action::Frame { target: FrameTarget::Main }),
        ("frame \"f\" { target = css(\"iframe#pay\") }", Action::Frame { target: FrameTarget::Css { selector: "iframe#pay".into() } }),
        ("frame \"f\" { target = ref(\"@e7\") }", Action::Frame { target: FrameTarget::Ref { reference: ElementRef::Accessibility(7) } }),
        ("dialog \"d\" { operation = \"status\" }", Action::Dialog { operation: DialogOperation::Status }),
        ("dialog \"d\" { operation = \"accept\" }", Action::Dialog { operation: DialogOperation::Accept { text: None } }),
        (
            "dialog \"d\" {\n operation = \"accept\"\n text = \"Ada\"\n }",
            Action::Dialog { operation: DialogOperation::Accept { text: Some("Ada".into()) } },
        ),
        ("dialog \"d\" { operation = \"dismiss\" }", Action::Dialog { operation: DialogOperation::Dismiss }),
        (
            "upload \"u\" {\n target = label(\"Avatar\")\n paths = [\"fixtures/a.png\", \"b.txt\"]\n }",
            Action::Upload { target: Target::Label { label: TextMatch::contains("Avatar") }, paths: strings(&["fixtures/a.png", "b.txt"]) },
        ),
        (
            "download \"d\" {\n target = role(\"link\", \"Invoice\")\n path = \"invoice.pdf\"\n }",
            Action::Download { target: role("link", "Invoice"), path: EvidencePath("invoice.pdf".into()) },
        ),
        (
            "network_route \"r\" {\n pattern = \"**/api/users\"\n body = \"[]\"\n }",
            Action::NetworkRoute {
                pattern: "**/api/users".into(),
                response: RouteResponse::Fulfill { body: "[]".into(), status: 200, content_type: None, headers: vec![] },
                times: None,
            },
        ),
        (
            "network_route \"r\" {\n pattern = \"**/api/users\"\n body = \"{}\"\n status = 503\n content_type = \"application/json\"\n }",
            Action::NetworkRoute {
                pattern: "**/api/users".into(),
                response: RouteResponse::Fulfill { body: "{}".into(), status: 503, content_type: Some("application/json".into()), headers: vec![] },
                times: None,
            },
        ),
        (
            "network_route \"r\" {\n pattern = \"**/api/cart\"\n body = \"[]\"\n headers = { \"X-Total\" = \"3\" }\n times = 2\n }",
            Action::NetworkRoute {
                pattern: "**/api/cart".into(),
                response: RouteResponse::Fulfill {
                    body: "[]".into(),
                    status: 200,
                    content_type: None,
                    headers: vec![HttpHeader { name: "X-Total".into(), value: TextValue::literal("3") }],
                },
                times: Some(2),
            },
        ),
        (
            "network_route \"r\" {\n pattern = /\\/api\\/cart(\\?.*)?$/i\n continue = true\n url = \"http://127.0.0.1:1/v2/cart\"\n method = \"post\"\n headers = { Authorization = env(\"TOKEN\") }\n post_data = \"{}\"\n }",
            Action::NetworkRoute {
                pattern: UrlPattern::Regex { regex: "\\/api\\/cart(\\?.*)?$".into(), flags: "i".into() },
                response: RouteResponse::Continue(ContinueOverrides {
                    url: Some("http://127.0.0.1:1/v2/cart".into()),
                    method: Some("POST".into()),
                    headers: vec![HttpHeader { name: "Authorization".into(), value: TextValue::Env(EnvVar::new("TOKEN").unwrap()) }],
                    post_data: Some("{}".into()),
                }),
                times: None,
            },
        ),
        (
            "network_route \"r\" {\n pattern = \"**/x\"\n continue = true\n times = 1\n }",
            Action::NetworkRoute { pattern: "**/x".into(), response: RouteResponse::Continue(ContinueOverrides::default()), times: Some(1) },
        ),
        (
            "network_route \"r\" {\n pattern = \"**/track\"\n abort = true\n }",
            Action::NetworkRoute { pattern: "**/track".into(), response: RouteResponse::Abort, times: None },
        ),
        ("network_unroute \"u\" {}", Action::NetworkUnroute { pattern: None }),
        (
            "route_from_har \"h\" { path = \"shop.har\" }",
            Action::RouteFromHar { replay: HarReplay { path: "shop.har".into(), not_found: HarNotFound::Abort } },
        ),
        (
            "request \"r\" { url = \"/api/me\" }",
            Action::Request {
                request: ApiRequest { method: "GET".into(), url: "/api/me".into(), headers: vec![], body: None, status: None, json: None },
            },
        ),
        ("network_unroute \"u\" { pattern = \"**/track\" }", Action::NetworkUnroute { pattern: Some("**/track".into()) }),
        ("har \"h\" { operation = \"start\" }", Action::Har { operation: CaptureOperation::Start }),
        (
            "har \"h\" {\n operation = \"stop\"\n path = \"net.har\"\n }",
            Action::Har { operation: CaptureOperation::Stop { path: EvidencePath("net.har".into()) } },
        ),
        ("trace \"t\" { operation = \"start\" }", Action::Trace { operation: CaptureOperation::Start }),
        (
            "save_storage_state \"s\" {\n path = \".a3s-test/auth.json\"\n indexed_db = false\n }",
            Action::SaveStorageState { path: StatePath(".a3s-test/auth.json".into()), indexed_db: false },
        ),
        (
            "save_storage_state \"s\" {\n path = \".a3s-test/auth.json\"\n indexed_db = true\n }",
            Action::SaveStorageState { path: StatePath(".a3s-test/auth.json".into()), indexed_db: true },
        ),
        (
            "context \"c\" { offline = true }",
            Action::Context {
                settings: Box::new(a3s_test_lang::ir::ContextSettings {
                    offline: Some(true),
                    ..Default::default()
                }),
            },
        ),
        (
            "clock_fast_forward \"f\" { ms = 1000 }",
            Action::ClockFastForward { ms: 1000 },
        ),
        (
            "clock_pause_at \"p\" { time = \"1970-01-01T00:00:01Z\" }",
            Action::ClockPauseAt {
                time: a3s_test_lang::ir::ClockTime { unix_ms: 1000, text: "1970-01-01T00:00:01Z".into() },
            },
        ),
        ("clock_resume \"r\" {}", Action::ClockResume),
        (
            "clock_set_fixed_time \"s\" { time = \"1970-01-01T00:00:02Z\" }",
            Action::ClockSetFixedTime {
                time: a3s_test_lang::ir::ClockTime { unix_ms: 2000, text: "1970-01-01T00:00:02Z".into() },
            },
        ),
        (
            "trace \"t\" {\n operation = \"stop\"\n path = \"trace.zip\"\n }",
            Action::Trace { operation: CaptureOperation::Stop { path: EvidencePath("trace.zip".into()) } },
        ),
    ];
    let mut kinds_seen = std::collections::HashSet::new();
    for (step, expected) in cases {
        let got = action(step);
        assert_eq!(got, expected, "{step}");
        kinds_seen.insert(got.kind());
    }
    // The contract is filled in by the runner's admission; `lang` keeps the path and route.
    let got = action(
        "check_contract \"c\" {\n path = \"contracts/checkout.acl\"\n route = \"/checkout\"\n }",
    );
    match &got {
        Action::CheckContract { check } => assert_eq!(
            (
                check.path.as_str(),
                check.route.as_deref(),
                check.contract.is_none()
            ),
            ("contracts/checkout.acl", Some("/checkout"), true)
        ),
        other => panic!("{other:?}"),
    }
    kinds_seen.insert(got.kind());
    // Every action kind but wait/expect (covered below) has a valid case.
    for kind in a3s_test_lang::ir::ActionKind::ALL
        .iter()
        .filter(|k| !matches!(k, ActionKind::Wait | ActionKind::Expect))
        // Terminal-only kinds have their cases in `terminal.rs`.
        .filter(|k| !a3s_test_lang::ir::TERMINAL_ONLY_STEPS.contains(k))
    {
        assert!(kinds_seen.contains(kind), "no valid case for {kind}");
    }
}

fn wait(step_body: &str) -> WaitCondition {
    match action(&format!("wait \"w\" {step_body}")) {
        Action::Wait { condition } => condition,
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_wait_form_admits() {
    assert_eq!(
        wait("{ load = \"domcontentloaded\" }"),
        WaitCondition::Load {
            state: LoadState::Domcontentloaded
        }
    );
    assert_eq!(
        wait("{ load = \"networkidle\" }"),
        WaitCondition::Load {
            state: LoadState::Networkidle
        }
    );
    assert_eq!(
        wait("{ text = \"Saved\" }"),
        WaitCondition::Page(PageCondition::Text {
            text: "Saved".into()
        })
    );
    assert_eq!(
        wait("{ url = \"http://x.test/done\" }"),
        WaitCondition::Page(PageCondition::Url {
            url: "http://x.test/done".into()
        })
    );
    assert_eq!(
        wait("{ visible = ref(\"@e2\") }"),
        WaitCondition::Page(PageCondition::Visible {
            target: Target::Ref {
                reference: ElementRef::Accessibility(2)
            }
        })
    );
    assert_eq!(
        wait("{ hidden = css(\".spinner\") }"),
        WaitCondition::Page(PageCondition::Hidden {
            target: css(".spinner")
        })
    );
}

#[test]
fn wait_and_expect_share_page_conditions_in_one_flat_json_shape() {
    // The page resolver reads `{"condition": "text", "text": …}` for both steps.
    let shared = PageCondition::Text {
        text: "Saved".into(),
    };
    let flat = serde_json::json!({ "condition": "text", "text": "Saved" });
    for (value, back) in [
        (
            serde_json::to_value(WaitCondition::Page(shared.clone())).unwrap(),
            serde_json::from_value::<WaitCondition>(flat.clone()).unwrap()
                == WaitCondition::Page(shared.clone()),
        ),
        (
            serde_json::to_value(ExpectCondition::Page(shared.clone())).unwrap(),
            serde_json::from_value::<ExpectCondition>(flat.clone()).unwrap()
                == ExpectCondition::Page(shared.clone()),
        ),
    ] {
        assert_eq!(value, flat);
        assert!(back);
    }
    let load = serde_json::json!({ "condition": "load", "state": "networkidle" });
    assert_eq!(
        serde_json::from_value::<WaitCondition>(load).unwrap(),
        WaitCondition::Load {
            state: LoadState::Networkidle
        }
    );
    assert!(serde_json::from_value::<WaitCondition>(
        serde_json::json!({ "condition": "in_viewport" })
    )
    .is_err());
}

fn expect(step_body: &str) -> Expectation {
    match action(&format!("expect \"e\" {step_body}")) {
        Action::Expect { expectation } => expectation,
        other => panic!("{other:?}"),
    }
}

fn condition(step_body: &str) -> ExpectCondition {
    let e = expect(step_body);
    assert_eq!(e.stability, None);
    e.condition
}

/// Every form lang lists (the list the agent's `expect` verb offers) is one the checker admits,
/// by that name, to a condition of that form, with the value kind the list gives.
#[test]
fn every_listed_expect_form_admits_to_its_own_form() {
    let forms: Vec<ExpectForm> = ExpectForm::all().collect();
    assert_eq!(forms.len(), 36);
    for form in forms {
        let name = form.name();
        assert_eq!(ExpectForm::from_name(name), Some(form));
        let json = serde_json::to_value(form).unwrap();
        assert_eq!(json, name);
        assert_eq!(serde_json::from_value::<ExpectForm>(json).unwrap(), form);
        let value = match form.value() {
            FormValue::Text if form == ExpectForm::Screenshot => "\"x.png\"",
            FormValue::Text if form == ExpectForm::AriaSnapshot => "\"- x\"",
            FormValue::Text => "\"x\"",
            FormValue::Texts => "[\"a\"]",
            FormValue::Count => "2",
            FormValue::Percent => "50",
            FormValue::Target => "css(\"#t\")",
            FormValue::Keyword => "\"above\"",
        };
        let mut body = format!("{{\n {name} = {value}\n");
        if form.reads_target() {
            body.push_str(" target = css(\"#t\")\n");
        }
        if form == ExpectForm::Layout {
            body.push_str(" relative_to = css(\"#u\")\n");
        }
        body.push('}');
        assert_eq!(condition(&body).form(), form, "{body}");
    }
    assert_eq!(ExpectForm::from_name("target"), None);
}

#[test]
fn every_expect_form_admits() {
    use ExpectCondition as C;
    use PageCondition as P;
    let t = || css("#t");
    let cases: Vec<(&str, ExpectCondition)> = vec![
        ("{ text = \"Thank you\" }", C::Page(P::Text { text: "Thank you".into() })),
        ("{ url = \"/done\" }", C::Page(P::Url { url: "/done".into() })),
        ("{ visible = role(\"heading\", \"Done\") }", C::Page(P::Visible { target: role("heading", "Done") })),
        ("{ visible = ref(\"@e1\") }", C::Page(P::Visible { target: Target::Ref { reference: ElementRef::Accessibility(1) } })),
        ("{ hidden = css(\"#t\") }", C::Page(P::Hidden { target: t() })),
        ("{ in_viewport = css(\"#t\") }", C::InViewport { target: t() }),
        ("{ pointer_reachable = css(\"#t\") }", C::PointerReachable { target: t() }),
        ("{\n rendered_text = \"Total: 3\"\n target = css(\"#t\")\n }", C::RenderedText { target: t(), text: "Total: 3".into() }),
        ("{\n rendered_text = \"\"\n target = ref(\"@e4\")\n }", C::RenderedText { target: Target::Ref { reference: ElementRef::Accessibility(4) }, text: "".into() }),
        (
            "{\n rendered_texts = [\"a\", \"b\", \"a\"]\n target = css(\"#t\")\n }",
            C::RenderedTexts { target: t(), texts: strings(&["a", "b", "a"]) },
        ),
        ("{\n visible_count = 0\n target = css(\"#t\")\n }", C::VisibleCount { target: t(), count: 0 }),
        ("{\n value = \"42\"\n target = css(\"#t\")\n }", C::Value { target: t(), value: "42".into() }),
        ("{\n selected_values = [\"b\", \"a\"]\n target = css(\"#t\")\n }", C::SelectedValues { target: t(), values: strings(&["b", "a"]) }),
        (
            "{\n viewport_coverage_at_least = 50\n target = css(\"#t\")\n }",
            C::ViewportCoverage { target: t(), bound: CoverageBound::AtLeast, percent: 50 },
        ),
        (
            "{\n viewport_coverage_at_most = 100\n target = css(\"#t\")\n }",
            C::ViewportCoverage { target: t(), bound: CoverageBound::AtMost, percent: 100 },
        ),
        (
            "{\n layout = \"left_of\"\n target = css(\"#t\")\n relative_to = role(\"button\", \"Pay\")\n }",
            C::Layout { target: t(), relation: LayoutRelation::LeftOf, relative_to: role("button", "Pay"), tolerance_px: 0 },
        ),
        (
            "{\n layout = \"aligned_center_y\"\n target = css(\"#t\")\n relative_to = css(\"#u\")\n tolerance_px = 1024\n }",
            C::Layout { target: t(), relation: LayoutRelation::AlignedCenterY, relative_to: css("#u"), tolerance_px: 1024 },
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(condition(body), expected, "{body}");
    }
    for state in ElementState::ALL {
        let body = format!("{{ {} = role(\"button\", \"Pay\") }}", state.keyword());
        assert_eq!(
            condition(&body),
            C::State {
                target: role("button", "Pay"),
                state: *state
            },
            "{body}"
        );
    }
    for relation in LayoutRelation::ALL {
        let body = format!(
            "{{\n layout = \"{}\"\n target = css(\"a\")\n relative_to = css(\"b\")\n }}",
            relation.keyword()
        );
        assert!(
            matches!(condition(&body), C::Layout { relation: r, .. } if r == *relation),
            "{body}"
        );
    }
}

#[test]
fn stability_windows_and_their_default_interval() {
    let e = expect("{\n text = \"a\"\n stable_for_ms = 500\n }");
    assert_eq!(
        e.stability,
        Some(Stability {
            stable_for_ms: 500,
            sample_interval_ms: 50
        })
    );
    let e = expect("{\n text = \"a\"\n stable_for_ms = 10\n }");
    assert_eq!(
        e.stability,
        Some(Stability {
            stable_for_ms: 10,
            sample_interval_ms: 10
        })
    );
    let e = expect("{\n visible = css(\"a\")\n stable_for_ms = 1000\n sample_interval_ms = 1\n }");
    assert_eq!(
        e.stability,
        Some(Stability {
            stable_for_ms: 1000,
            sample_interval_ms: 1
        })
    );
    assert_eq!(e.stability.unwrap().planned_samples(), 1001);
    // The spec's default min(50, window) would plan 1,201 samples here; the default is raised so
    // that every allowed window is admissible without an explicit interval.
    let e = expect("{\n text = \"a\"\n stable_for_ms = 60000\n }");
    assert_eq!(
        e.stability,
        Some(Stability {
            stable_for_ms: 60000,
            sample_interval_ms: 60
        })
    );
    assert_eq!(e.stability.unwrap().planned_samples(), 1001);
}

#[test]
fn inline_state_and_collection_forms_accept_stable_and_ref_targets_as_documented() {
    // State and visible forms accept refs; only the forms listed in `docs/acl.md` §6 need stable
    // targets.
    assert!(matches!(
        condition("{ enabled = ref(\"@e3\") }"),
        ExpectCondition::State { .. }
    ));
    assert!(matches!(
        condition("{\n selected_values = []\n target = ref(\"@e3\")\n }"),
        ExpectCondition::SelectedValues { .. }
    ));
}

#[test]
fn an_expect_waits_by_default_and_says_otherwise_with_timeout_ms_or_immediate() {
    let e = expect("{ text = \"a\" }");
    assert_eq!((e.timeout_ms, e.immediate), (None, false));
    let e = expect("{\n text = \"a\"\n timeout_ms = 200\n }");
    assert_eq!((e.timeout_ms, e.immediate), (Some(200), false));
    let e = expect("{\n hidden = css(\"#spinner\")\n immediate = true\n }");
    assert_eq!((e.timeout_ms, e.immediate), (None, true));
    let e = expect("{\n text = \"a\"\n immediate = true\n stable_for_ms = 100\n }");
    assert!(e.immediate && e.stability.is_some());
}

#[test]
fn expect_timeouts_come_from_the_scenario_else_the_suite() {
    let suite = admitted_suite(
        "suite \"s\" {\n expect_timeout_ms = 900\n scenario \"a\" {\n surface = \"web\"\n navigate \"n\" { url = \"/\" }\n }\n scenario \"b\" {\n surface = \"web\"\n expect_timeout_ms = 50\n navigate \"n\" { url = \"/\" }\n }\n }",
    );
    let timeouts: Vec<_> = suite
        .scenarios
        .iter()
        .map(|s| s.expect_timeout_ms)
        .collect();
    assert_eq!(timeouts, vec![Some(900), Some(50)]);
    let plain = only_scenario(&in_scenario("        navigate \"n\" { url = \"/\" }"));
    assert_eq!(plain.expect_timeout_ms, None);
}
