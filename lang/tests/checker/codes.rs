//! One source per admission code the checker emits: it must produce exactly that code, at the
//! expected logical path, underlining the expected text.

use crate::{in_scenario, only_diagnostic, show};
use a3s_test_lang::{admit, Code};

/// `(source, code, path, spanned text)`.
type Case = (String, Code, &'static str, &'static str);

const SC: &str = "suite.s.scenario.sc";

fn step(code: Code, path_tail: &'static str, spanned: &'static str, step: &str) -> Case {
    let path: &'static str = Box::leak(format!("{SC}.{path_tail}").into_boxed_str());
    (in_scenario(step), code, path, spanned)
}

fn file(code: Code, path: &'static str, spanned: &'static str, source: &str) -> Case {
    (source.to_string(), code, path, spanned)
}

fn cases() -> Vec<Case> {
    use Code::*;
    vec![
        // Documents and blocks (`docs/acl.md` §2).
        file(
            MultipleRoots,
            "suite.b",
            "suite \"b\"",
            &format!("{}{}", in_scenario("navigate \"n\" { url = \"/\" }"), "suite \"b\" {\n}\n"),
        ),
        file(UnknownRoot, "suit.a", "suit", "suit \"a\" {\n}\n"),
        step(ContractFile, "check_contract.c.path", "\"/abs.acl\"", "        check_contract \"c\" { path = \"/abs.acl\" }"),
        step(ContractFile, "check_contract.c.route", "\"checkout\"", "        check_contract \"c\" {\n path = \"c.acl\"\n route = \"checkout\"\n }"),
        step(UnknownBlock, "clik", "clik", "        clik \"c\" { target = css(\"a\") }"),
        step(UnknownAttribute, "click.c.tagret", "tagret", "        click \"c\" {\n target = css(\"a\")\n tagret = css(\"b\")\n }"),
        step(MissingAttribute, "click.c.target", "click \"c\"", "        click \"c\" {}"),
        step(DuplicateAttribute, "navigate.n.url", "url", "        navigate \"n\" {\n url = \"/\"\n   url = \"/b\"\n }"),
        step(MissingLabel, "click", "click", "        click { target = css(\"a\") }"),
        file(
            UnexpectedLabel,
            "project.p.browser",
            "\"x\"",
            "project \"p\" {\n    browser \"x\" { headed = true }\n}\n",
        ),
        (
            "suite \"s\" {\n scenario \"sc\" {\n surface = \"web\"\n timeout_ms = 1.5\n navigate \"n\" { url = \"/\" }\n }\n}"
                .to_string(),
            Type,
            "suite.s.scenario.sc.timeout_ms",
            "1.5",
        ),
        (
            "suite \"s\" {\n scenario \"sc\" {\n surface = \"webb\"\n navigate \"n\" { url = \"/\" }\n }\n}".to_string(),
            InvalidValue,
            "suite.s.scenario.sc.surface",
            "\"webb\"",
        ),
        file(
            InvalidId,
            "suite.s.scenario.bad id",
            "\"bad id\"",
            "suite \"s\" {\n scenario \"bad id\" {\n surface = \"web\"\n navigate \"n\" { url = \"/\" }\n }\n}",
        ),
        step(
            DuplicateId,
            "click.c",
            "\"c\"",
            "        click \"c\" { target = css(\"a\") }\n        click \"c\" { target = css(\"b\") }",
        ),
        file(EmptySuite, "suite.s", "suite \"s\"", "suite \"s\" {\n}\n"),
        file(
            EmptyScenario,
            "suite.s.scenario.sc",
            "scenario \"sc\"",
            "suite \"s\" {\n scenario \"sc\" {\n surface = \"web\"\n }\n}",
        ),
        file(
            EmptyContract,
            "contract.c",
            "contract \"c\"",
            "contract \"c\" {\n route \"/a\" {\n }\n}\n",
        ),
        // Hooks, groups and parameters (`docs/acl.md` §2.1–§2.3).
        file(
            EmptyGroup,
            "suite.s.steps.g",
            "steps \"g\"",
            "suite \"s\" {\n steps \"g\" {\n }\n scenario \"sc\" {\n surface = \"web\"\n navigate \"n\" { url = \"/\" }\n }\n}",
        ),
        file(
            UnknownGroup,
            "suite.s.scenario.sc.use.g",
            "\"g\"",
            "suite \"s\" {\n scenario \"sc\" {\n surface = \"web\"\n use \"g\" {}\n }\n}",
        ),
        file(
            GroupCycle,
            "suite.s.steps.g.use.g",
            "use \"g\" {}",
            "suite \"s\" {\n steps \"g\" {\n use \"g\" {}\n }\n scenario \"sc\" {\n surface = \"web\"\n use \"g\" {}\n }\n}",
        ),
        (
            {
                let mut s = String::from("suite \"s\" {\n");
                for i in 0..9 {
                    s.push_str(&format!(" steps \"g{i}\" {{\n use \"g{}\" {{}}\n }}\n", i + 1));
                }
                s.push_str(" steps \"g9\" {\n navigate \"n\" { url = \"/\" }\n }\n scenario \"sc\" {\n surface = \"web\"\n use \"g0\" {}\n }\n}");
                s
            },
            GroupDepth,
            "suite.s.steps.g7.use.g8",
            "use \"g8\" {}",
        ),
        file(
            UnknownParam,
            "suite.s.scenario.sc",
            "${usr}",
            "suite \"s\" {\n scenario \"sc\" {\n surface = \"web\"\n each = [{ user = \"a\" }]\n navigate \"n\" { url = \"/${usr}\" }\n }\n}",
        ),
        file(
            ParamRows,
            "suite.s.scenario.sc.each",
            "[]",
            "suite \"s\" {\n scenario \"sc\" {\n surface = \"web\"\n each = []\n navigate \"n\" { url = \"/\" }\n }\n}",
        ),
        // Targets (`docs/acl.md` §3).
        step(UnknownTarget, "click.c.target", "rol", "        click \"c\" { target = rol(\"button\") }"),
        step(TargetArguments, "click.c.target", "role()", "        click \"c\" { target = role() }"),
        step(InvalidRegex, "click.c.target", "/save/g", "        click \"c\" { target = role(\"button\", /save/g) }"),
        step(InvalidRef, "click.c.target", "\"e3\"", "        click \"c\" { target = ref(\"e3\") }"),
        step(TargetObservationOnly, "click.c.target", "\"@u3\"", "        click \"c\" { target = ref(\"@u3\") }"),
        step(MainOutsideFrame, "click.c.target", "main()", "        click \"c\" { target = main() }"),
        step(VisualPointInSuite, "click.c.target", "visual_point(\"@v1\", 1, 2)", "        click \"c\" { target = visual_point(\"@v1\", 1, 2) }"),
        step(FrameTarget, "frame.f.target", "role(\"button\")", "        frame \"f\" { target = role(\"button\") }"),
        // Conditions (`docs/acl.md` §8, §9).
        step(MissingCondition, "wait.w", "wait \"w\"", "        wait \"w\" {}"),
        step(
            ConflictingConditions,
            "expect.e.url",
            "url",
            "        expect \"e\" {\n text = \"a\"\n url = \"/b\"\n }",
        ),
        step(
            ConditionAttribute,
            "expect.e.target",
            "target",
            "        expect \"e\" {\n text = \"a\"\n target = css(\"p\")\n }",
        ),
        step(HiddenTargetUnstable, "wait.w.hidden", "ref(\"@e1\")", "        wait \"w\" { hidden = ref(\"@e1\") }"),
        step(
            InViewportTargetUnstable,
            "expect.e.in_viewport",
            "ref(\"@e1\")",
            "        expect \"e\" { in_viewport = ref(\"@e1\") }",
        ),
        step(
            PointerReachableTargetUnstable,
            "expect.e.pointer_reachable",
            "ref(\"@c2\")",
            "        expect \"e\" { pointer_reachable = ref(\"@c2\") }",
        ),
        step(
            RenderedTextsTargetUnstable,
            "expect.e.target",
            "ref(\"@e1\")",
            "        expect \"e\" {\n rendered_texts = [\"a\", \"b\"]\n target = ref(\"@e1\")\n }",
        ),
        step(
            VisibleCountTargetUnstable,
            "expect.e.target",
            "ref(\"@e1\")",
            "        expect \"e\" {\n visible_count = 3\n target = ref(\"@e1\")\n }",
        ),
        step(
            LayoutTargetUnstable,
            "expect.e.relative_to",
            "ref(\"@e2\")",
            "        expect \"e\" {\n layout = \"above\"\n target = css(\"h1\")\n relative_to = ref(\"@e2\")\n }",
        ),
        // Stability (`docs/acl.md` §7).
        step(
            StabilityLimit,
            "expect.e.stable_for_ms",
            "5",
            "        expect \"e\" {\n text = \"a\"\n stable_for_ms = 5\n }",
        ),
        // Step-specific rules (`docs/acl.md` §5).
        step(EvidencePath, "screenshot.s.path", "\"../x.png\"", "        screenshot \"s\" { path = \"../x.png\" }"),
        step(EvidencePathLimit, "console.c.path", "\"d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/c.json\"", "        console \"c\" { path = \"d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/c.json\" }"),
        step(
            InvalidEnvName,
            "fill.f.value",
            "\"API-KEY\"",
            "        fill \"f\" {\n target = css(\"#pw\")\n value = env(\"API-KEY\")\n }",
        ),
        step(InvalidKey, "press.p.key", "\"Ctrl+a\"", "        press \"p\" { key = \"Ctrl+a\" }"),
        step(
            RouteResponse,
            "network_route.r",
            "network_route \"r\"",
            "        network_route \"r\" { pattern = \"**/api\" }",
        ),
        step(WheelDelta, "wheel.w.delta_y", "0", "        wheel \"w\" { delta_y = 0 }"),
        step(
            UnknownDevice,
            "device",
            "\"Pixel 8\"",
            "        device = \"Pixel 8\"\n        navigate \"n\" { url = \"/\" }",
        ),
        step(
            InvalidTimezone,
            "timezone_id",
            "\"Mars/Olympus\"",
            "        timezone_id = \"Mars/Olympus\"\n        navigate \"n\" { url = \"/\" }",
        ),
        step(
            InvalidTime,
            "clock_pause_at.p.time",
            "\"noon\"",
            "        clock_pause_at \"p\" { time = \"noon\" }",
        ),
        step(
            SurfaceStep,
            "terminal_resize.r",
            "terminal_resize",
            "        terminal_resize \"r\" { columns = 80 rows = 24 }",
        ),
        step(
            OperationAttribute,
            "tab.t.url",
            "url",
            "        tab \"t\" {\n operation = \"list\"\n url = \"/x\"\n }",
        ),
        // Sign in once, dependencies and annotations (`docs/acl.md` §2, §5).
        step(
            StatePath,
            "save_storage_state.s.path",
            "\"../auth.json\"",
            "        save_storage_state \"s\" { path = \"../auth.json\" }",
        ),
        step(
            UnknownDependency,
            "depends_on",
            "\"setpu\"",
            "        depends_on = [\"setpu\"]\n        navigate \"n\" { url = \"/\" }",
        ),
        step(
            DependencyCycle,
            "depends_on",
            "\"sc\"",
            "        depends_on = [\"sc\"]\n        navigate \"n\" { url = \"/\" }",
        ),
        step(
            ConflictingAnnotations,
            "fixme",
            "fixme = \"bug 7\"",
            "        skip = \"not here\"\n        fixme = \"bug 7\"\n        navigate \"n\" { url = \"/\" }",
        ),
    ]
}

#[test]
fn each_code_is_raised_alone_at_its_path_and_span() {
    for (source, code, path, spanned) in cases() {
        let d = only_diagnostic(&source);
        assert_eq!(
            d.code,
            code,
            "{source}\n{}",
            show(&source, std::slice::from_ref(&d))
        );
        assert_eq!(d.path, path, "{code}");
        assert_eq!(&source[d.span.range()], spanned, "{code}");
        assert!(!d.message.is_empty() && !d.hint.is_empty(), "{code}");
        assert!(
            admit(&source).document.is_none(),
            "{code}: rejected files have no IR"
        );
    }
}

/// Codes the lexer, parser or byte/file layer raise; every other code must be in [`cases`] or in
/// the statement tests.
const NOT_CHECKER: &[Code] = &[
    Code::NotUtf8,
    Code::FileTooLarge,
    Code::EmptyFile,
    Code::Unreadable,
    Code::Unwritable,
    Code::NoSuiteFiles,
    Code::InvalidToken,
    Code::UnterminatedString,
    Code::UnterminatedRegex,
    Code::InvalidEscape,
    Code::NumberTooLarge,
    Code::Syntax,
    Code::NestingTooDeep,
    Code::ListTooLong,
    Code::StatementCount,
    Code::TooManyDiagnostics,
];

#[test]
fn every_checker_code_has_a_case() {
    let covered: Vec<Code> = cases().into_iter().map(|(_, code, _, _)| code).collect();
    for code in Code::ALL {
        if !NOT_CHECKER.contains(code) {
            assert!(covered.contains(code), "no checker case for {code}");
        }
    }
}

#[test]
fn duplicates_point_back_at_the_first_occurrence() {
    let source = in_scenario(
        "        click \"c\" { target = css(\"a\") }\n        navigate \"c\" { url = \"/\" }",
    );
    let admission = admit(&source);
    let d = &admission.diagnostics[0];
    assert_eq!(d.code, Code::DuplicateId);
    assert_eq!(d.secondary.len(), 1);
    assert_eq!(&source[d.secondary[0].span.range()], "\"c\"");
    assert!(d.secondary[0].span.start < d.span.start);

    let source = in_scenario("        navigate \"n\" {\n url = \"/\"\n url = \"/b\"\n }");
    let d = &admit(&source).diagnostics[0];
    assert_eq!(d.code, Code::DuplicateAttribute);
    assert_eq!(d.secondary[0].message, "first set here");
    assert!(d.secondary[0].span.start < d.span.start);
}

#[test]
fn misspelt_names_get_did_you_mean_hints() {
    let cases = [
        ("        clik \"c\" { target = css(\"a\") }", "did you mean `click`?"),
        ("        click \"c\" { targt = css(\"a\") }", "did you mean `target`?"),
        ("        click \"c\" { target = rol(\"button\") }", "did you mean `role()`?"),
        ("        wait \"w\" { load = \"networkidl\" }", "did you mean \"networkidle\"?"),
        ("        press \"p\" { key = \"Esc\" }", "did you mean `Escape`?"),
        ("        frame \"f\" { target = man() }", "did you mean `main()`?"),
        ("        drag \"d\" {\n source = css(\"a\")\n target = css(\"b\")\n edge = \"botom\"\n }", "did you mean \"bottom\"?"),
        ("        expect \"e\" {\n layout = \"abov\"\n target = css(\"a\")\n relative_to = css(\"b\")\n }", "did you mean \"above\"?"),
        ("        click \"c\" {\n target = css(\"a\")\n stable_for_ms = 100\n }", "applies only to `expect`"),
    ];
    for (step, hint) in cases {
        let d = only_diagnostic(&in_scenario(step));
        assert!(d.hint.contains(hint), "{step}: {}", d.hint);
    }
    let admission = admit("suit \"a\" {\n}\n");
    assert_eq!(admission.diagnostics[0].hint, "did you mean `suite`?");
}

#[test]
fn type_errors_say_what_was_expected_and_found() {
    let cases = [
        (
            "        navigate \"n\" { url = 5 }",
            "`url` must be a string, found an integer",
        ),
        (
            "        snapshot \"s\" { interactive = \"yes\" }",
            "`interactive` must be a boolean (`true` or `false`), found a string",
        ),
        (
            "        viewport \"v\" {\n width = 800.5\n height = 600\n }",
            "`width` must be an integer, found a decimal number",
        ),
        (
            "        select \"s\" {\n target = css(\"s\")\n values = \"a\"\n }",
            "`values` must be a list, found a string",
        ),
        (
            "        click \"c\" { target = \"Save\" }",
            "`target` must be a target such as role(\"button\", \"Save\"), found a string",
        ),
    ];
    for (step, message) in cases {
        let d = only_diagnostic(&in_scenario(step));
        assert_eq!(d.code, Code::Type);
        assert_eq!(d.message, message);
    }
    let source = in_scenario("        viewport \"v\" {\n width = 800.5\n height = 600\n }");
    assert_eq!(
        admit(&source).diagnostics[0].hint,
        "every number in ACL v1 is an integer: write `800` or `801`"
    );
    let source = in_scenario("        click \"c\" { target = \"Save\" }");
    assert!(admit(&source).diagnostics[0]
        .hint
        .contains("text(\"Save\")"));
}

#[test]
fn unreadable_values_are_not_reported_twice() {
    // A list cut at the nesting limit holds an unreadable value deep inside: no type error for it.
    let deep = format!("        tags = {}{}", "[".repeat(70), "]".repeat(70));
    let source = in_scenario(&format!("{deep}\n        navigate \"n\" {{ url = \"/\" }}"));
    let codes: Vec<Code> = admit(&source).diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec![Code::NestingTooDeep],
        "{}",
        show(&source, &admit(&source).diagnostics)
    );
    for step in [
        "        click \"c\" { target = }",
        "        click \"c\" { target = role(\"a\" }",
        "        fill \"f\" {\n target = css(\"a\")\n value = @\n }",
        "        click \"c\" { target = [1, @] }",
        "        click \"c\" { target = role(\"a\", [@]) }",
        "        wheel \"w\" {\n delta_y = 1\n modifiers = [[@]]\n }",
    ] {
        let source = in_scenario(step);
        let admission = admit(&source);
        assert!(!admission.diagnostics.is_empty());
        for d in &admission.diagnostics {
            assert!(
                matches!(d.code, Code::Syntax | Code::InvalidToken),
                "{step}: checker repeated a syntax error\n{}",
                show(&source, &admission.diagnostics)
            );
        }
    }
}
