//! `env("NAME")` text values (`docs/acl.md` §5, "Secrets from the environment"): admitted as the
//! `value` of `fill`, `type`, `insert_text` and `expect { value }` with a valid name, refused
//! everywhere else with a diagnostic saying where it belongs, and printed back as written.

use crate::{action, in_scenario, only_diagnostic, show};
use a3s_test_lang::ir::{Action, EnvVar, ExpectCondition, Target, TextValue};
use a3s_test_lang::printer::format_source;
use a3s_test_lang::{admit, admit_statement, Code};

fn env(name: &str) -> TextValue {
    TextValue::Env(EnvVar::new(name).expect("a valid name"))
}

fn css(selector: &str) -> Target {
    Target::Css {
        selector: selector.into(),
    }
}

#[test]
fn env_is_admitted_where_a_step_types_or_compares_a_value() {
    assert_eq!(
        action("        fill \"f\" {\n target = css(\"#pw\")\n value = env(\"A3S_PASSWORD\")\n }"),
        Action::Fill {
            target: css("#pw"),
            value: env("A3S_PASSWORD"),
        }
    );
    assert_eq!(
        action("        type \"t\" {\n target = css(\"#pw\")\n value = env('_token9')\n }"),
        Action::Type {
            target: css("#pw"),
            value: env("_token9"),
        }
    );
    assert_eq!(
        action("        insert_text \"i\" { value = env(\"OTP\") }"),
        Action::InsertText { value: env("OTP") }
    );
    let Action::Expect { expectation } =
        action("        expect \"e\" {\n value = env(\"PW\")\n target = css(\"#pw\")\n }")
    else {
        panic!("an expect");
    };
    assert_eq!(
        expectation.condition,
        ExpectCondition::Value {
            target: css("#pw"),
            value: env("PW"),
        }
    );
    // What a failure says was expected names the variable, never a value.
    assert_eq!(
        expectation.condition.to_string(),
        "value = env(\"PW\") with target = css(\"#pw\")"
    );
}

#[test]
fn literals_stay_literals() {
    assert_eq!(
        action("        fill \"f\" {\n target = css(\"#q\")\n value = \"env(\\\"X\\\")\"\n }"),
        Action::Fill {
            target: css("#q"),
            value: TextValue::literal("env(\"X\")"),
        }
    );
}

#[test]
fn the_ir_holds_the_name_and_reads_back_from_json() {
    let step = admit_statement("fill {\n target = label(\"Password\")\n value = env(\"PW\")\n}")
        .expect("admitted");
    let json = serde_json::to_value(&step).unwrap();
    assert_eq!(json["action"]["value"], serde_json::json!({ "env": "PW" }));
    let back: a3s_test_lang::ir::Step = serde_json::from_value(json).unwrap();
    assert_eq!(back, step);
    // A step recorded before env() existed (a plain string value) still reads back.
    let old = serde_json::json!({
        "label": null, "path": "statement.fill", "span": { "start": 0, "end": 1 },
        "action": { "kind": "fill", "target": { "by": "css", "selector": "#q" }, "value": "Ada" }
    });
    let old: a3s_test_lang::ir::Step = serde_json::from_value(old).unwrap();
    assert_eq!(
        old.action,
        Action::Fill {
            target: css("#q"),
            value: TextValue::literal("Ada"),
        }
    );
}

#[test]
fn the_printer_writes_env_calls_back_as_written() {
    let source =
        in_scenario("        fill \"f\" {\n target = css(\"#pw\")\n value = env( 'PW' , )\n }");
    let formatted = format_source(&source).expect("formats");
    assert!(formatted.contains("value = env(\"PW\")\n"), "{formatted}");
    assert_eq!(format_source(&formatted).as_deref(), Ok(formatted.as_str()));
    assert!(admit(&formatted).is_admitted());
}

/// `(step, code, path below the scenario, underlined text, hint contains)`.
type Row<'a> = (&'a str, Code, &'a str, &'a str, &'a str);

fn check(rows: &[Row<'_>]) {
    for (step, code, tail, spanned, hint) in rows {
        let source = in_scenario(step);
        let d = only_diagnostic(&source);
        let shown = show(&source, std::slice::from_ref(&d));
        assert_eq!(d.code, *code, "{step}\n{shown}");
        assert_eq!(d.path, format!("suite.s.scenario.sc.{tail}"), "{step}");
        assert_eq!(&source[d.span.range()], *spanned, "{step}");
        assert!(d.hint.contains(hint), "{step}\n{shown}");
    }
}

#[test]
fn env_anywhere_else_says_where_it_is_allowed() {
    use Code::*;
    const ALLOWED: &str = "allowed only as the `value` of `fill`, `type` and `insert_text`, in `expect { value = … }`, in `extra_http_headers` and `http_credentials`, and in a `network_route`'s `headers`";
    check(&[
        (
            "        navigate \"n\" { url = env(\"URL\") }",
            Type,
            "navigate.n.url",
            "env(\"URL\")",
            ALLOWED,
        ),
        (
            "        click \"c\" { target = env(\"X\") }",
            Type,
            "click.c.target",
            "env(\"X\")",
            ALLOWED,
        ),
        (
            "        frame \"f\" { target = env(\"X\") }",
            Type,
            "frame.f.target",
            "env(\"X\")",
            ALLOWED,
        ),
        (
            "        click \"c\" { target = role(\"button\", env(\"X\")) }",
            TargetArguments,
            "click.c.target",
            "env(\"X\")",
            ALLOWED,
        ),
        (
            "        press \"p\" { key = env(\"KEY\") }",
            Type,
            "press.p.key",
            "env(\"KEY\")",
            ALLOWED,
        ),
        (
            "        expect \"e\" { text = env(\"X\") }",
            Type,
            "expect.e.text",
            "env(\"X\")",
            ALLOWED,
        ),
        (
            "        expect \"e\" {\n rendered_text = env(\"X\")\n target = css(\"p\")\n }",
            Type,
            "expect.e.rendered_text",
            "env(\"X\")",
            ALLOWED,
        ),
        (
            "        select \"s\" {\n target = css(\"s\")\n values = [\"a\", env(\"X\")]\n }",
            Type,
            "select.s.values",
            "env(\"X\")",
            ALLOWED,
        ),
        (
            "        dialog \"d\" {\n operation = \"accept\"\n text = env(\"X\")\n }",
            Type,
            "dialog.d.text",
            "env(\"X\")",
            ALLOWED,
        ),
        (
            "        snapshot \"s\" { interactive = env(\"X\") }",
            Type,
            "snapshot.s.interactive",
            "env(\"X\")",
            ALLOWED,
        ),
    ]);
    let source = "suite \"s\" {\n    base_url = env(\"BASE\")\n    scenario \"sc\" {\n        surface = \"web\"\n        navigate \"n\" { url = \"/\" }\n    }\n}\n";
    let d = only_diagnostic(source);
    assert_eq!((d.code, d.path.as_str()), (Code::Type, "suite.s.base_url"));
    assert!(d.hint.contains(ALLOWED), "{}", d.hint);
}

#[test]
fn env_names_and_arguments_are_checked() {
    use Code::*;
    const NAME: &str = "letters, digits and `_`";
    let long = format!(
        "        fill \"f\" {{\n target = css(\"#pw\")\n value = env(\"{}\")\n }}",
        "A".repeat(129)
    );
    let long_name = format!("\"{}\"", "A".repeat(129));
    let rows: Vec<Row<'_>> = vec![
        (
            "        fill \"f\" {\n target = css(\"#pw\")\n value = env(\"9LIVES\")\n }",
            InvalidEnvName,
            "fill.f.value",
            "\"9LIVES\"",
            NAME,
        ),
        (
            "        fill \"f\" {\n target = css(\"#pw\")\n value = env(\"API-KEY\")\n }",
            InvalidEnvName,
            "fill.f.value",
            "\"API-KEY\"",
            NAME,
        ),
        (
            "        type \"t\" {\n target = css(\"#pw\")\n value = env(\"\")\n }",
            InvalidEnvName,
            "type.t.value",
            "\"\"",
            NAME,
        ),
        (
            "        insert_text \"i\" { value = env(\"A B\") }",
            InvalidEnvName,
            "insert_text.i.value",
            "\"A B\"",
            NAME,
        ),
        (&long, InvalidEnvName, "fill.f.value", &long_name, NAME),
        (
            "        fill \"f\" {\n target = css(\"#pw\")\n value = env()\n }",
            Type,
            "fill.f.value",
            "env()",
            "env(\"NAME\")",
        ),
        (
            "        fill \"f\" {\n target = css(\"#pw\")\n value = env(\"A\", \"B\")\n }",
            Type,
            "fill.f.value",
            "env(\"A\", \"B\")",
            "env(\"NAME\")",
        ),
        (
            "        fill \"f\" {\n target = css(\"#pw\")\n value = env(12)\n }",
            Type,
            "fill.f.value",
            "12",
            "quote",
        ),
        (
            "        fill \"f\" {\n target = css(\"#pw\")\n value = env(name = \"PW\")\n }",
            Type,
            "fill.f.value",
            "name",
            "env(\"NAME\")",
        ),
        (
            "        expect \"e\" {\n value = envv(\"PW\")\n target = css(\"#pw\")\n }",
            Type,
            "expect.e.value",
            "envv(\"PW\")",
            "did you mean `env()`?",
        ),
        (
            "        fill \"f\" {\n target = css(\"#pw\")\n value = 3\n }",
            Type,
            "fill.f.value",
            "3",
            "",
        ),
        (
            "        insert_text \"i\" { value = \" \" }",
            InvalidValue,
            "insert_text.i.value",
            "\" \"",
            "non-empty",
        ),
    ];
    for (step, code, tail, spanned, hint) in rows {
        let source = in_scenario(step);
        let d = only_diagnostic(&source);
        assert_eq!(
            d.code,
            code,
            "{step}: {}",
            show(&source, std::slice::from_ref(&d))
        );
        assert_eq!(d.path, format!("suite.s.scenario.sc.{tail}"), "{step}");
        assert_eq!(&source[d.span.range()], spanned, "{step}");
        assert!(d.hint.contains(hint), "{step}: {}", d.hint);
    }
    // The message says why the name is refused; a long name is not repeated in full.
    let d = only_diagnostic(&in_scenario(
        "        fill \"f\" {\n target = css(\"#pw\")\n value = env(\"9LIVES\")\n }",
    ));
    assert_eq!(
        d.message,
        "\"9LIVES\" is not an environment variable name: a variable name cannot start with a digit"
    );
    let d = only_diagnostic(&in_scenario(&long));
    assert!(d.message.len() < 160, "{}", d.message);
    assert!(
        d.message.contains("129 bytes long; the limit is 128"),
        "{}",
        d.message
    );
}

#[test]
fn statements_admit_env_and_refuse_it_the_same_way() {
    let step = admit_statement("type { target = ref(\"@e4\")\n value = env(\"PW\") }").unwrap();
    assert_eq!(step.path, "statement.type");
    let refused = admit_statement("navigate { url = env(\"URL\") }").unwrap_err();
    assert_eq!(refused[0].code, Code::Type);
    assert_eq!(refused[0].path, "statement.navigate.url");
    let refused = admit_statement("insert_text { value = env(\"1\") }").unwrap_err();
    assert_eq!(refused[0].code, Code::InvalidEnvName);
}
