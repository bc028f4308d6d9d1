//! The finer rules of `docs/acl.md` §2–§10, one mistake per row: the code, the path below the
//! scenario (`suite.s.scenario.sc.`) and the underlined text.

use crate::{in_scenario, only_diagnostic, show};
use a3s_test_lang::{admit, Code};

fn check_rows(rows: &[(&str, Code, &str, &str)]) {
    for (step, code, tail, spanned) in rows {
        let source = in_scenario(step);
        let d = only_diagnostic(&source);
        assert_eq!(
            d.code,
            *code,
            "{step}\n{}",
            show(&source, std::slice::from_ref(&d))
        );
        let path = if tail.is_empty() {
            "suite.s.scenario.sc".to_string()
        } else {
            format!("suite.s.scenario.sc.{tail}")
        };
        assert_eq!(d.path, path, "{step}");
        assert_eq!(&source[d.span.range()], *spanned, "{step}");
    }
}

#[test]
fn scenario_and_suite_rules() {
    use Code::*;
    let rows = [
        ("        name = \"\"", InvalidValue, "name", "\"\""),
        ("        tags = [\"a\", \"\"]", InvalidValue, "tags", "\"\""),
        ("        tags = \"smoke\"", Type, "tags", "\"smoke\""),
        ("        tags = [\"a\", 1]", Type, "tags", "1"),
        (
            "        timeout_ms = 3600001",
            InvalidValue,
            "timeout_ms",
            "3600001",
        ),
        (
            "        action_timeout_ms = -1",
            InvalidValue,
            "action_timeout_ms",
            "-1",
        ),
        (
            "        surface = \"mobile\"",
            DuplicateAttribute,
            "surface",
            "surface",
        ),
        (
            "        scenario \"inner\" { }",
            UnknownBlock,
            "scenario",
            "scenario",
        ),
        (
            "        click \"c\" {\n target = css(\"a\")\n nested { }\n }",
            UnknownBlock,
            "click.c.nested",
            "nested",
        ),
        (
            "        click \"c\" {\n target = css(\"a\")\n button = \"back\"\n }",
            InvalidValue,
            "click.c.button",
            "\"back\"",
        ),
        (
            "        context_click \"c\" {\n target = css(\"a\")\n button = \"left\"\n }",
            UnknownAttribute,
            "context_click.c.button",
            "button",
        ),
        (
            "        click \"c\" {\n target = css(\"a\")\n modifiers = [\"Ctrl\"]\n }",
            InvalidValue,
            "click.c.modifiers",
            "\"Ctrl\"",
        ),
        (
            "        click \"c\" {\n target = css(\"a\")\n modifiers = [\"shift\", \"Shift\"]\n }",
            InvalidValue,
            "click.c.modifiers",
            "\"Shift\"",
        ),
        (
            "        click \"c\" {\n target = css(\"a\")\n position { x = 1 }\n }",
            MissingAttribute,
            "click.c.position.y",
            "position",
        ),
        (
            "        hover \"c\" {\n target = css(\"a\")\n position { x = 1\n y = -2 }\n }",
            InvalidValue,
            "hover.c.position.y",
            "-2",
        ),
        (
            "        click \"c\" {\n target = css(\"a\")\n position { x = 1\n y = 2 }\n position { x = 3\n y = 4 }\n }",
            DuplicateAttribute,
            "click.c.position",
            "position",
        ),
        (
            "        focus \"c\" {\n target = css(\"a\")\n position { x = 1\n y = 2 }\n }",
            UnknownBlock,
            "focus.c.position",
            "position",
        ),
        (
            "        click = css(\"a\")",
            UnknownAttribute,
            "click",
            "click",
        ),
        (
            "        click \"\" { target = css(\"a\") }",
            InvalidId,
            "click.",
            "\"\"",
        ),
        (
            "        click \"a.b\" { target = css(\"a\") }",
            InvalidId,
            "click.a.b",
            "\"a.b\"",
        ),
    ];
    // Each row joins a valid step, so the scenario is never empty because of the row itself.
    let rows: Vec<(String, Code, &str, &str)> = rows
        .iter()
        .map(|(s, c, t, x)| {
            (
                format!("{s}\n        navigate \"n\" {{ url = \"/\" }}"),
                *c,
                *t,
                *x,
            )
        })
        .collect();
    let rows: Vec<(&str, Code, &str, &str)> = rows
        .iter()
        .map(|(s, c, t, x)| (s.as_str(), *c, *t, *x))
        .collect();
    check_rows(&rows);

    let long = "x".repeat(65);
    let source = format!("suite \"{long}\" {{\n scenario \"sc\" {{\n surface = \"web\"\n navigate \"n\" {{ url = \"/\" }}\n }}\n}}");
    let d = admit(&source).diagnostics;
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::InvalidId);
    assert!(d[0].message.contains("65 characters"), "{}", d[0].message);

    for (suite_attr, code) in [
        ("version = 0", Code::InvalidValue),
        ("version = \"1\"", Code::Type),
        ("base_url = \"/relative\"", Code::InvalidValue),
        ("base_url = \"about:blank\"", Code::InvalidValue),
        ("action_timeout_ms = 0", Code::InvalidValue),
        ("name = \"x\"", Code::UnknownAttribute),
        ("navigate \"n\" { url = \"/\" }", Code::UnknownBlock),
    ] {
        let source = format!(
            "suite \"s\" {{\n    {suite_attr}\n    scenario \"sc\" {{\n surface = \"web\"\n navigate \"n\" {{ url = \"/\" }}\n }}\n}}"
        );
        let d = admit(&source).diagnostics;
        assert_eq!(
            d.iter().map(|d| d.code).collect::<Vec<_>>(),
            vec![code],
            "{suite_attr}\n{}",
            show(&source, &d)
        );
    }

    let missing_surface =
        "suite \"s\" {\n scenario \"sc\" {\n navigate \"n\" { url = \"/\" }\n }\n}";
    let d = admit(missing_surface).diagnostics;
    assert_eq!(
        (d.len(), d[0].code, d[0].path.as_str()),
        (1, Code::MissingAttribute, "suite.s.scenario.sc.surface")
    );
    assert_eq!(&missing_surface[d[0].span.range()], "scenario \"sc\"");

    let missing_label =
        "suite {\n scenario \"sc\" {\n surface = \"web\"\n navigate \"n\" { url = \"/\" }\n }\n}";
    let d = admit(missing_label).diagnostics;
    assert_eq!(
        (d.len(), d[0].code, d[0].path.as_str()),
        (1, Code::MissingLabel, "suite")
    );
}

#[test]
fn target_rules() {
    use Code::*;
    check_rows(&[
        (
            "        click \"c\" { target = role(\"\") }",
            TargetArguments,
            "click.c.target",
            "\"\"",
        ),
        (
            "        click \"c\" { target = role(\"button\", \"  \") }",
            TargetArguments,
            "click.c.target",
            "\"  \"",
        ),
        (
            "        click \"c\" { target = role(\"a\", \"b\", \"c\") }",
            TargetArguments,
            "click.c.target",
            "role(\"a\", \"b\", \"c\")",
        ),
        (
            "        click \"c\" { target = role(1) }",
            TargetArguments,
            "click.c.target",
            "1",
        ),
        (
            "        click \"c\" { target = label(\"a\", \"b\") }",
            TargetArguments,
            "click.c.target",
            "label(\"a\", \"b\")",
        ),
        (
            "        click \"c\" { target = css(\"\") }",
            TargetArguments,
            "click.c.target",
            "\"\"",
        ),
        (
            "        click \"c\" { target = testid() }",
            TargetArguments,
            "click.c.target",
            "testid()",
        ),
        (
            "        click \"c\" { target = text(\"a\", \"yes\") }",
            TargetArguments,
            "click.c.target",
            "\"yes\"",
        ),
        (
            "        click \"c\" { target = ref(\"@e1\", \"@e2\") }",
            TargetArguments,
            "click.c.target",
            "ref(\"@e1\", \"@e2\")",
        ),
        (
            "        click \"c\" { target = ref(4) }",
            TargetArguments,
            "click.c.target",
            "4",
        ),
        (
            "        click \"c\" { target = ref(\"@e01\") }",
            InvalidRef,
            "click.c.target",
            "\"@e01\"",
        ),
        (
            "        click \"c\" { target = ref(\"@x1\") }",
            InvalidRef,
            "click.c.target",
            "\"@x1\"",
        ),
        (
            "        click \"c\" { target = xpath(\"//a\") }",
            UnknownTarget,
            "click.c.target",
            "xpath",
        ),
        (
            "        click \"c\" { target = \"@e3\" }",
            Type,
            "click.c.target",
            "\"@e3\"",
        ),
        (
            "        frame \"f\" { target = main(\"x\") }",
            TargetArguments,
            "frame.f.target",
            "main(\"x\")",
        ),
        (
            "        frame \"f\" { target = frame(\"x\") }",
            UnknownTarget,
            "frame.f.target",
            "frame",
        ),
        (
            "        frame \"f\" { target = ref(\"@u1\") }",
            TargetObservationOnly,
            "frame.f.target",
            "\"@u1\"",
        ),
        (
            "        drag \"d\" {\n source = main()\n target = css(\"b\")\n }",
            MainOutsideFrame,
            "drag.d.source",
            "main()",
        ),
        (
            "        expect \"e\" { enabled = main() }",
            MainOutsideFrame,
            "expect.e.enabled",
            "main()",
        ),
    ]);
}

#[test]
fn step_rules() {
    use Code::*;
    check_rows(&[
        (
            "        navigate \"n\" { url = \"cart\" }",
            InvalidValue,
            "navigate.n.url",
            "\"cart\"",
        ),
        (
            "        navigate \"n\" { url = \"javascript:alert(1)\" }",
            InvalidValue,
            "navigate.n.url",
            "\"javascript:alert(1)\"",
        ),
        (
            "        navigate \"n\" { url = \"\" }",
            InvalidValue,
            "navigate.n.url",
            "\"\"",
        ),
        (
            "        fill \"f\" { target = css(\"a\") }",
            MissingAttribute,
            "fill.f.value",
            "fill \"f\"",
        ),
        (
            "        insert_text \"i\" { value = \"\" }",
            InvalidValue,
            "insert_text.i.value",
            "\"\"",
        ),
        (
            "        select \"s\" {\n target = css(\"s\")\n values = []\n }",
            InvalidValue,
            "select.s.values",
            "[]",
        ),
        (
            "        drag \"d\" { target = css(\"b\") }",
            MissingAttribute,
            "drag.d.source",
            "drag \"d\"",
        ),
        (
            "        press \"p\" { key = \"Control+Control+a\" }",
            InvalidKey,
            "press.p.key",
            "\"Control+Control+a\"",
        ),
        (
            "        press \"p\" { key = \"Control+\" }",
            InvalidKey,
            "press.p.key",
            "\"Control+\"",
        ),
        (
            "        press \"p\" { key = \"Return\" }",
            InvalidKey,
            "press.p.key",
            "\"Return\"",
        ),
        (
            "        press \"p\" { key = \"\" }",
            InvalidKey,
            "press.p.key",
            "\"\"",
        ),
        (
            "        wheel \"w\" {\n delta_y = 0\n delta_x = 0\n }",
            WheelDelta,
            "wheel.w.delta_y",
            "0",
        ),
        (
            "        wheel \"w\" { delta_x = 10 }",
            MissingAttribute,
            "wheel.w.delta_y",
            "wheel \"w\"",
        ),
        (
            "        wheel \"w\" {\n delta_y = 5\n modifiers = [\"shift\", \"shift\"]\n }",
            InvalidValue,
            "wheel.w.modifiers",
            "\"shift\"",
        ),
        (
            "        wheel \"w\" {\n delta_y = 5\n modifiers = [\"Option\"]\n }",
            InvalidValue,
            "wheel.w.modifiers",
            "\"Option\"",
        ),
        (
            "        wheel \"w\" {\n delta_y = 5\n target = ref(\"@u1\")\n }",
            TargetObservationOnly,
            "wheel.w.target",
            "\"@u1\"",
        ),
        (
            "        viewport \"v\" {\n width = 0\n height = 600\n }",
            InvalidValue,
            "viewport.v.width",
            "0",
        ),
        (
            "        viewport \"v\" {\n width = 800\n height = 600\n scale = 0\n }",
            InvalidValue,
            "viewport.v.scale",
            "0",
        ),
        (
            "        snapshot \"s\" { interactive = 1 }",
            Type,
            "snapshot.s.interactive",
            "1",
        ),
        (
            "        screenshot \"s\" { path = \"shot.jpg\" }",
            EvidencePath,
            "screenshot.s.path",
            "\"shot.jpg\"",
        ),
        (
            "        screenshot \"s\" { path = \".png\" }",
            EvidencePath,
            "screenshot.s.path",
            "\".png\"",
        ),
        (
            "        screenshot \"s\" { path = \"/abs.png\" }",
            EvidencePath,
            "screenshot.s.path",
            "\"/abs.png\"",
        ),
        (
            "        screenshot \"s\" { path = \"a\\\\..\\\\b.png\" }",
            EvidencePath,
            "screenshot.s.path",
            "\"a\\\\..\\\\b.png\"",
        ),
        (
            "        screenshot \"s\" { path = \"a\\u{0}.png\" }",
            EvidencePath,
            "screenshot.s.path",
            "\"a\\u{0}.png\"",
        ),
        (
            "        screenshot \"s\" { path = \"\" }",
            EvidencePath,
            "screenshot.s.path",
            "\"\"",
        ),
        (
            "        accessibility \"a\" { path = \"../tree.json\" }",
            EvidencePath,
            "accessibility.a.path",
            "\"../tree.json\"",
        ),
        (
            "        console \"c\" { path = \"logs/\" }",
            EvidencePath,
            "console.c.path",
            "\"logs/\"",
        ),
        (
            "        page_errors \"p\" { path = \"C:errors.json\" }",
            EvidencePath,
            "page_errors.p.path",
            "\"C:errors.json\"",
        ),
        (
            "        download \"d\" {\n target = css(\"a\")\n path = \"x/../../y\"\n }",
            EvidencePath,
            "download.d.path",
            "\"x/../../y\"",
        ),
        (
            "        upload \"u\" {\n target = css(\"input\")\n paths = []\n }",
            InvalidValue,
            "upload.u.paths",
            "[]",
        ),
        (
            "        upload \"u\" {\n target = css(\"input\")\n paths = [\"../secret\"]\n }",
            InvalidValue,
            "upload.u.paths",
            "\"../secret\"",
        ),
        (
            "        tab \"t\" { operation = \"open\" }",
            InvalidValue,
            "tab.t.operation",
            "\"open\"",
        ),
        (
            "        tab \"t\" { url = \"/x\" }",
            MissingAttribute,
            "tab.t.operation",
            "tab \"t\"",
        ),
        (
            "        tab \"t\" { operation = \"switch\" }",
            MissingAttribute,
            "tab.t.tab",
            "tab \"t\"",
        ),
        (
            "        tab \"t\" {\n operation = \"switch\"\n tab = -1\n }",
            InvalidValue,
            "tab.t.tab",
            "-1",
        ),
        (
            "        tab \"t\" {\n operation = \"switch\"\n tab = true\n }",
            Type,
            "tab.t.tab",
            "true",
        ),
        (
            "        tab \"t\" {\n operation = \"new\"\n label = \"my tab\"\n }",
            InvalidId,
            "tab.t.label",
            "\"my tab\"",
        ),
        (
            "        tab \"t\" {\n operation = \"new\"\n tab = 1\n }",
            OperationAttribute,
            "tab.t.tab",
            "tab",
        ),
        (
            "        tab \"t\" {\n operation = \"close\"\n label = \"x\"\n }",
            OperationAttribute,
            "tab.t.label",
            "label",
        ),
        (
            "        tab \"t\" {\n operation = \"list\"\n url = \"not a url\"\n }",
            OperationAttribute,
            "tab.t.url",
            "url",
        ),
        (
            "        dialog \"d\" {\n operation = \"dismiss\"\n text = \"x\"\n }",
            OperationAttribute,
            "dialog.d.text",
            "text",
        ),
        (
            "        har \"h\" {\n operation = \"start\"\n path = \"a.har\"\n }",
            OperationAttribute,
            "har.h.path",
            "path",
        ),
        (
            "        trace \"t\" { operation = \"stop\" }",
            MissingAttribute,
            "trace.t.path",
            "trace \"t\"",
        ),
        (
            "        network_route \"r\" {\n pattern = \"**\"\n abort = false\n }",
            RouteResponse,
            "network_route.r",
            "network_route \"r\"",
        ),
        (
            "        network_route \"r\" {\n pattern = \"**\"\n abort = true\n status = 500\n }",
            RouteResponse,
            "network_route.r.status",
            "status",
        ),
        (
            "        network_route \"r\" {\n pattern = \"**\"\n body = \"x\"\n status = 600\n }",
            InvalidValue,
            "network_route.r.status",
            "600",
        ),
        (
            "        network_route \"r\" {\n pattern = \"\"\n body = \"x\"\n }",
            InvalidValue,
            "network_route.r.pattern",
            "\"\"",
        ),
        (
            "        network_route \"r\" { body = \"x\" }",
            MissingAttribute,
            "network_route.r.pattern",
            "network_route \"r\"",
        ),
        (
            "        network_unroute \"u\" { pattern = \"\" }",
            InvalidValue,
            "network_unroute.u.pattern",
            "\"\"",
        ),
    ]);
}

#[test]
fn condition_rules() {
    use Code::*;
    check_rows(&[
        ("        wait \"w\" { load = \"load\" }", InvalidValue, "wait.w.load", "\"load\""),
        ("        wait \"w\" { text = \"\" }", InvalidValue, "wait.w.text", "\"\""),
        ("        wait \"w\" {\n text = \"a\"\n url = \"/b\"\n }", ConflictingConditions, "wait.w.url", "url"),
        ("        wait \"w\" {\n text = \"a\"\n timeout_ms = 5\n }", UnknownAttribute, "wait.w.timeout_ms", "timeout_ms"),
        ("        wait \"w\" { txt = \"a\" }", UnknownAttribute, "wait.w.txt", "txt"),
        ("        expect \"e\" {}", MissingCondition, "expect.e", "expect \"e\""),
        ("        expect \"e\" { target = css(\"a\") }", MissingCondition, "expect.e", "expect \"e\""),
        ("        expect \"e\" { hidden = ref(\"@e1\") }", HiddenTargetUnstable, "expect.e.hidden", "ref(\"@e1\")"),
        ("        expect \"e\" {\n visible = css(\"a\")\n relative_to = css(\"b\")\n }", ConditionAttribute, "expect.e.relative_to", "relative_to"),
        ("        expect \"e\" {\n enabled = css(\"a\")\n target = css(\"b\")\n }", ConditionAttribute, "expect.e.target", "target"),
        ("        expect \"e\" {\n value = \"a\"\n tolerance_px = 2\n target = css(\"b\")\n }", ConditionAttribute, "expect.e.tolerance_px", "tolerance_px"),
        ("        expect \"e\" { rendered_text = \"a\" }", MissingAttribute, "expect.e.target", "expect \"e\""),
        ("        expect \"e\" {\n rendered_texts = \"a\"\n target = css(\"b\")\n }", Type, "expect.e.rendered_texts", "\"a\""),
        ("        expect \"e\" {\n visible_count = -1\n target = css(\"b\")\n }", InvalidValue, "expect.e.visible_count", "-1"),
        ("        expect \"e\" {\n selected_values = [\"a\", \"a\"]\n target = css(\"s\")\n }", InvalidValue, "expect.e.selected_values", "\"a\""),
        ("        expect \"e\" {\n viewport_coverage_at_least = 101\n target = css(\"b\")\n }", InvalidValue, "expect.e.viewport_coverage_at_least", "101"),
        ("        expect \"e\" {\n viewport_coverage_at_most = 50.5\n target = css(\"b\")\n }", Type, "expect.e.viewport_coverage_at_most", "50.5"),
        ("        expect \"e\" {\n layout = \"under\"\n target = css(\"a\")\n relative_to = css(\"b\")\n }", InvalidValue, "expect.e.layout", "\"under\""),
        ("        expect \"e\" {\n layout = \"above\"\n target = css(\"a\")\n }", MissingAttribute, "expect.e.relative_to", "expect \"e\""),
        ("        expect \"e\" {\n layout = \"above\"\n target = ref(\"@e1\")\n relative_to = css(\"b\")\n }", LayoutTargetUnstable, "expect.e.target", "ref(\"@e1\")"),
        ("        expect \"e\" {\n layout = \"above\"\n target = css(\"a\")\n relative_to = css(\"b\")\n tolerance_px = 1025\n }", InvalidValue, "expect.e.tolerance_px", "1025"),
        ("        expect \"e\" { checked = \"yes\" }", Type, "expect.e.checked", "\"yes\""),
        ("        expect \"e\" { enabld = css(\"a\") }", UnknownAttribute, "expect.e.enabld", "enabld"),
        ("        expect \"e\" {\n text = \"a\"\n stable_for_ms = 60001\n }", StabilityLimit, "expect.e.stable_for_ms", "60001"),
        ("        expect \"e\" {\n text = \"a\"\n stable_for_ms = 100\n sample_interval_ms = 0\n }", StabilityLimit, "expect.e.sample_interval_ms", "0"),
        ("        expect \"e\" {\n text = \"a\"\n stable_for_ms = 100\n sample_interval_ms = 101\n }", StabilityLimit, "expect.e.sample_interval_ms", "101"),
        ("        expect \"e\" {\n text = \"a\"\n stable_for_ms = 2000\n sample_interval_ms = 1\n }", StabilityLimit, "expect.e.sample_interval_ms", "1"),
        ("        expect \"e\" {\n text = \"a\"\n sample_interval_ms = 10\n }", StabilityLimit, "expect.e.sample_interval_ms", "sample_interval_ms"),
        ("        expect \"e\" {\n text = \"a\"\n stable_for_ms = 100.5\n }", Type, "expect.e.stable_for_ms", "100.5"),
        ("        expect \"e\" {\n text = \"a\"\n timeout_ms = 0\n }", InvalidValue, "expect.e.timeout_ms", "0"),
        ("        expect \"e\" {\n text = \"a\"\n timeout_ms = 3600001\n }", InvalidValue, "expect.e.timeout_ms", "3600001"),
        ("        expect \"e\" {\n text = \"a\"\n immediate = \"yes\"\n }", Type, "expect.e.immediate", "\"yes\""),
        ("        expect \"e\" {\n text = \"a\"\n immediate = true\n timeout_ms = 100\n }", InvalidValue, "expect.e.timeout_ms", "timeout_ms"),
        ("        expect \"e\" {\n text = \"a\"\n timout_ms = 100\n }", UnknownAttribute, "expect.e.timout_ms", "timout_ms"),
    ]);

    let items: Vec<String> = (0..257).map(|i| format!("\"{i}\"")).collect();
    let step = format!(
        "        expect \"e\" {{\n rendered_texts = [{}]\n target = css(\"li\")\n }}",
        items.join(", ")
    );
    let source = in_scenario(&step);
    let d = admit(&source).diagnostics;
    assert_eq!(
        d.iter().map(|d| d.code).collect::<Vec<_>>(),
        vec![Code::InvalidValue],
        "{}",
        show(&source, &d)
    );
    assert!(d[0].message.contains("257"));
}

#[test]
fn one_step_reports_each_of_its_mistakes() {
    let source =
        in_scenario("        fill \"f\" {\n target = role(\"\")\n value = 5\n other = 1\n }");
    let codes: Vec<Code> = admit(&source).diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec![Code::TargetArguments, Code::Type, Code::UnknownAttribute]
    );
}
