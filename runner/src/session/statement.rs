//! Statements as text and as IR: ACL string literals, printing a target in ACL syntax, the
//! sugar commands (`click @e3`, `fill @e2 "x"`, …) as statements, finding the refs a step uses,
//! and swapping refs for durable targets — in the IR (for dispatch) and in the source (for
//! promotion, via the lexer so a `ref(` inside a string literal is never touched).

use super::code::{SessionCode, SessionError};
use a3s_test_lang::ir::{Step, Target};
use a3s_test_lang::lexer::{lex, Token};
use serde_json::Value;
use std::collections::BTreeMap;

/// The longest target argument a verb takes, in characters: a ref `@eN` or ONE target call such
/// as `role("button", "Save")` — far above any real locator, low enough that a caller cannot
/// make a statement (and the session record that keeps it) large. The MCP tool schemas state it.
pub const MAX_TARGET_CHARS: usize = 4096;

/// The longest URL `navigate` takes, in characters: longer than any real address (browsers and
/// servers cut far below), and a bound on what goes into the statement. The MCP schema states it.
pub const MAX_URL_CHARS: usize = 8192;

/// An ACL string literal for `s` (the printer's canonical quoting).
pub fn acl_string(s: &str) -> String {
    a3s_test_lang::printer::string_literal(s)
}

/// A target in ACL syntax (`role("button", "Save")`).
pub fn print_target(target: &Target) -> String {
    target.to_string()
}

/// A caller's target argument as ACL: `@e3` becomes `ref("@e3")`; anything else must be ONE
/// target call such as `role("button", "Save")` — a name, then a parenthesised list of literals
/// — so a value can never add attributes or steps to the statement it goes into.
pub fn target_arg(arg: &str) -> Result<String, SessionError> {
    let arg = arg.trim();
    if arg.starts_with('@') {
        return Ok(format!("ref({})", acl_string(arg)));
    }
    let lexed = lex(arg);
    let tokens: Vec<&Token> = lexed.tokens.iter().map(|(t, _)| t).collect();
    let literal = |t: &Token| {
        matches!(
            t,
            Token::Str(_) | Token::Int(_) | Token::Float(_) | Token::True | Token::False
        )
    };
    let one_call = match tokens.as_slice() {
        [Token::Ident(_), Token::LParen, inner @ .., Token::RParen] => {
            inner.iter().enumerate().all(|(i, t)| {
                if i % 2 == 0 {
                    literal(t)
                } else {
                    matches!(t, Token::Comma)
                }
            }) && inner.len() % 2 == 1
        }
        _ => false,
    };
    if !one_call
        || !lexed.diagnostics.is_empty()
        || !lexed.comments.is_empty()
        || arg.contains('\n')
    {
        return Err(SessionError::new(
            SessionCode::InvalidInput,
            format!(
                "{} is neither a ref (@e3) nor one target such as role(\"button\", \"Save\")",
                acl_string(&arg.chars().take(200).collect::<String>())
            ),
        ));
    }
    Ok(arg.to_string())
}

/// A step block `kind { name = value … }` from attribute pairs whose values are already ACL
/// (string literals from [`acl_string`], targets from [`target_arg`], numbers, lists).
pub fn block(kind: &str, attributes: &[(&str, String)]) -> String {
    match attributes {
        [] => format!("{kind} {{}}"),
        [(name, value)] => format!("{kind} {{ {name} = {value} }}"),
        many => {
            let mut out = format!("{kind} {{\n");
            for (name, value) in many {
                out.push_str(&format!("    {name} = {value}\n"));
            }
            out.push('}');
            out
        }
    }
}

/// An ACL list of string literals.
pub fn string_list(values: &[String]) -> String {
    let items: Vec<String> = values.iter().map(|v| acl_string(v)).collect();
    format!("[{}]", items.join(", "))
}

fn walk_targets(value: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    match value {
        Value::Object(map) => {
            if map.get("by").and_then(Value::as_str) == Some("ref") {
                f(value);
                return;
            }
            for v in map.values_mut() {
                walk_targets(v, f);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk_targets(v, f)),
        _ => {}
    }
}

fn ref_name(target: &Value) -> Option<String> {
    let r = target.get("reference")?;
    let index = r.get("index")?.as_u64()?;
    match r.get("namespace")?.as_str()? {
        "accessibility" => Some(format!("@e{index}")),
        "page_context" => Some(format!("@c{index}")),
        _ => None,
    }
}

/// True when the step names a `visual_point` anywhere (only a desktop session's `click` acts
/// on one; [`crate::session::gates::target_type_in`] refuses it everywhere else).
pub fn has_visual_point(step: &Step) -> bool {
    fn walk(value: &Value) -> bool {
        match value {
            Value::Object(map) => {
                map.get("by").and_then(Value::as_str) == Some("visual_point")
                    || map.values().any(walk)
            }
            Value::Array(items) => items.iter().any(walk),
            _ => false,
        }
    }
    walk(&serde_json::to_value(&step.action).expect("IR serializes"))
}

/// The statement's source with its `visual_point(…)` call replaced by `target`'s ACL text
/// (what promotion writes for a click at a point).
pub fn replace_visual_point_in_source(source: &str, target: &Target) -> String {
    let tokens = lex(source).tokens;
    let start = tokens
        .iter()
        .position(|(t, _)| matches!(t, Token::Ident("visual_point")));
    let Some(start) = start else {
        return source.to_string();
    };
    let Some(end) = tokens[start..]
        .iter()
        .find(|(t, _)| matches!(t, Token::RParen))
        .map(|(_, span)| span.end)
    else {
        return source.to_string();
    };
    let mut out = source.to_string();
    out.replace_range(tokens[start].1.start..end, &print_target(target));
    out
}

/// Every ref the step uses (`@e3`, `@c1`), in order, without duplicates.
pub fn refs_in(step: &Step) -> Vec<String> {
    let mut value = serde_json::to_value(&step.action).expect("IR serializes");
    let mut out = Vec::new();
    walk_targets(&mut value, &mut |t| {
        if let Some(name) = ref_name(t) {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    });
    out
}

/// The step with every ref replaced by its durable target.
pub fn replace_refs(step: &Step, durable: &BTreeMap<String, Target>) -> Result<Step, SessionError> {
    let mut value = serde_json::to_value(step).expect("IR serializes");
    walk_targets(&mut value, &mut |t| {
        if let Some(target) = ref_name(t).and_then(|n| durable.get(&n)) {
            *t = serde_json::to_value(target).expect("targets serialize");
        }
    });
    serde_json::from_value(value).map_err(|e| {
        SessionError::new(
            SessionCode::Capability,
            format!("this step cannot act through a durable target ({e}); use a css target"),
        )
    })
}

/// The statement's source with each `ref("@eN")` call replaced by its durable target's ACL text.
pub fn replace_refs_in_source(source: &str, durable: &BTreeMap<String, Target>) -> String {
    let tokens = lex(source).tokens;
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for w in tokens.windows(4) {
        if let [(Token::Ident("ref"), start), (Token::LParen, _), (Token::Str(raw), _), (Token::RParen, end)] =
            w
        {
            let name = a3s_test_lang::lexer::decode_string(raw);
            if let Some(target) = durable.get(&name) {
                edits.push((start.start, end.end, print_target(target)));
            }
        }
    }
    let mut out = source.to_string();
    for (start, end, text) in edits.into_iter().rev() {
        out.replace_range(start..end, &text);
    }
    out
}

/// The statement's source with `label` inserted after the block kind when it has no label.
pub fn with_label(source: &str, label: &str) -> String {
    let tokens = lex(source).tokens;
    match tokens.as_slice() {
        [(Token::Ident(_), kind), (Token::LBrace, _), ..] => {
            let mut out = source.to_string();
            out.insert_str(kind.end, &format!(" {}", acl_string(label)));
            out
        }
        _ => source.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::admit_statement;

    #[test]
    fn strings_escape_like_acl() {
        assert_eq!(acl_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u{1}\"");
        let step = admit_statement(&block(
            "fill",
            &[
                ("target", target_arg("@e2").unwrap()),
                ("value", acl_string("x\"\n\u{7}y")),
            ],
        ))
        .unwrap();
        assert_eq!(refs_in(&step), ["@e2"]);
    }

    #[test]
    fn a_target_argument_is_one_target_call_or_a_ref() {
        assert_eq!(target_arg(" @e3 ").unwrap(), "ref(\"@e3\")");
        assert_eq!(
            target_arg("role(\"button\", \"Go\")").unwrap(),
            "role(\"button\", \"Go\")"
        );
        assert_eq!(
            target_arg("text(\"a\", true)").unwrap(),
            "text(\"a\", true)"
        );
        for bad in [
            "css(\"a\") }\nclick { target = css(\"b\")",
            "css(\"a\")\n value = \"x\"",
            "css(\"a\"), css(\"b\")",
            "css(css(\"a\"))",
            "role(\"button\",)",
            "button",
            "",
            "css(\"unterminated)",
        ] {
            let e = target_arg(bad).unwrap_err();
            assert_eq!(e.code, SessionCode::InvalidInput, "{bad}");
        }
        assert_eq!(
            block(
                "wheel",
                &[("delta_y", "600".into()), ("target", "ref(\"@e1\")".into())]
            ),
            "wheel {\n    delta_y = 600\n    target = ref(\"@e1\")\n}"
        );
        assert_eq!(
            string_list(&["a\"".into(), "b".into()]),
            "[\"a\\\"\", \"b\"]"
        );
    }

    #[test]
    fn refs_are_replaced_in_ir_and_source() {
        let source = "fill { target = ref(\"@e2\")\n value = \"ref(\\\"@e2\\\")\" }";
        let step = admit_statement(source).unwrap();
        let mut durable = BTreeMap::new();
        durable.insert(
            "@e2".to_string(),
            Target::Label {
                label: a3s_test_lang::ir::TextMatch::contains("Email"),
            },
        );
        let replaced = replace_refs(&step, &durable).unwrap();
        assert!(refs_in(&replaced).is_empty());
        let text = replace_refs_in_source(source, &durable);
        assert_eq!(
            text,
            "fill { target = label(\"Email\")\n value = \"ref(\\\"@e2\\\")\" }"
        );
        assert_eq!(
            with_label(&text, "s1"),
            text.replacen("fill", "fill \"s1\"", 1)
        );
        assert_eq!(
            with_label("click \"go\" { target = css(\"a\") }", "s1"),
            "click \"go\" { target = css(\"a\") }"
        );
    }
}
