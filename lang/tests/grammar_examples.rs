//! The grammar files in `grammar/` stay true to the implementation: every example fenced in
//! `acl.ebnf` parses without a diagnostic, and the TextMate grammar is valid JSON with the
//! scopes editors rely on.

// This target reads the grammar files; the I/O bans in `lang/clippy.toml` are for the library only.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use a3s_test_lang::checker::{ENV_FUNCTION, FRAME_FUNCTIONS, TARGET_FUNCTIONS};
use a3s_test_lang::parser::parse;
use std::path::{Path, PathBuf};

fn grammar_file(name: &str) -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../grammar")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (path, text)
}

/// Every `(* example:` … `*)` block of the EBNF file, with its 1-based starting line.
fn ebnf_examples(text: &str) -> Vec<(usize, String)> {
    let mut examples = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut current {
            None if line.trim_start().starts_with("(* example:") => {
                current = Some((i + 2, String::new()))
            }
            None => {}
            Some(_) if line.trim() == "*)" => {
                examples.push(current.take().expect("inside an example"))
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    assert!(current.is_none(), "an example is not closed with `*)`");
    examples
}

#[test]
fn every_ebnf_example_parses_cleanly() {
    let (path, text) = grammar_file("acl.ebnf");
    let examples = ebnf_examples(&text);
    assert!(
        examples.len() >= 4,
        "expected several examples in {}",
        path.display()
    );
    for (line, example) in examples {
        let (document, diagnostics) = parse(&example);
        assert!(
            diagnostics.is_empty(),
            "example at {}:{line}: {diagnostics:#?}",
            path.display()
        );
        assert_eq!(
            document.blocks.len(),
            1,
            "example at {}:{line} holds one block",
            path.display()
        );
        let formatted = a3s_test_lang::printer::format_source(&example).expect("formats");
        assert_eq!(
            a3s_test_lang::printer::format_source(&formatted).expect("formats"),
            formatted
        );
    }
}

#[test]
fn ebnf_names_every_production_the_parser_implements() {
    let (_, text) = grammar_file("acl.ebnf");
    for production in [
        "document", "block", "item", "value", "list", "call", "values", "string", "escape",
        "integer", "decimal", "comment",
    ] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(production) && l.contains('=')),
            "production `{production}` missing"
        );
    }
}

fn collect_scopes(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map {
                if key == "name" {
                    if let Some(s) = v.as_str() {
                        out.push(s.to_string());
                    }
                }
                collect_scopes(v, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_scopes(v, out)),
        _ => {}
    }
}

#[test]
fn textmate_grammar_is_json_with_the_expected_scopes() {
    let (path, text) = grammar_file("acl.tmLanguage.json");
    let json: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(json["scopeName"], "source.acl");
    assert!(json["fileTypes"]
        .as_array()
        .is_some_and(|f| f.iter().any(|t| t == "acl")));
    let repository = json["repository"].as_object().expect("repository");
    // Every `include` points at an existing repository entry.
    let mut includes = Vec::new();
    fn collect_includes(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(s) = map.get("include").and_then(|s| s.as_str()) {
                    out.push(s.to_string());
                }
                map.values().for_each(|v| collect_includes(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| collect_includes(v, out)),
            _ => {}
        }
    }
    collect_includes(&json, &mut includes);
    for include in includes {
        let key = include.strip_prefix('#').expect("local include");
        assert!(
            repository.contains_key(key),
            "include {include} has no repository entry"
        );
    }
    let mut scopes = Vec::new();
    collect_scopes(&json, &mut scopes);
    for expected in [
        "comment.line.number-sign.acl",
        "comment.line.double-slash.acl",
        "string.quoted.double.acl",
        "string.quoted.single.acl",
        "constant.character.escape.acl",
        "constant.numeric.integer.acl",
        "constant.numeric.decimal.acl",
        "constant.language.acl",
        "entity.name.type.block.acl",
        "variable.other.property.attribute.acl",
        "support.function.target.acl",
        "support.function.value.acl",
    ] {
        assert!(
            scopes.iter().any(|s| s == expected),
            "scope {expected} missing"
        );
    }
    let targets = repository["target-function"]["match"]
        .as_str()
        .expect("target-function match");
    for function in TARGET_FUNCTIONS.iter().chain(FRAME_FUNCTIONS) {
        assert!(
            targets.contains(function),
            "target function {function} not highlighted"
        );
    }
    let values = repository["value-function"]["match"]
        .as_str()
        .expect("value-function match");
    assert!(values.contains(ENV_FUNCTION), "env() not highlighted");
    let keywords = repository["keywords"]["match"]
        .as_str()
        .expect("keywords match");
    for keyword in ["true", "false", "null"] {
        assert!(keywords.contains(keyword));
    }
}
