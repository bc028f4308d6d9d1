//! Helpers shared by the integration tests: comparing syntax trees without their spans.

#![allow(dead_code)]

use a3s_test_lang::ast::Document;
use a3s_test_lang::parser::parse;
use serde_json::Value;

/// Remove every `span` (and `…_span`) field from a serialised tree (AST or IR), since layout
/// moves bytes but not meaning. Shared with the root crate's `tests/docs.rs`.
pub fn strip_spans(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|k, _| k != "span" && !k.ends_with("_span"));
            map.values_mut().for_each(strip_spans);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_spans),
        _ => {}
    }
}

/// The document as JSON with every `span` removed and comment texts trimmed.
pub fn without_spans(document: &Document) -> Value {
    let mut v = serde_json::to_value(&document.blocks).expect("AST serialises");
    strip_spans(&mut v);
    let comments: Vec<&str> = document
        .comments
        .iter()
        .map(|c| c.text.trim_end())
        .collect();
    serde_json::json!({ "blocks": v, "comments": comments })
}

/// Both sources parse without diagnostics to the same tree (spans aside) and the same comments
/// in the same order.
pub fn assert_same_meaning(original: &str, formatted: &str) {
    let (a, da) = parse(original);
    let (b, db) = parse(formatted);
    assert!(da.is_empty(), "original has diagnostics: {da:#?}");
    assert!(
        db.is_empty(),
        "formatted has diagnostics: {db:#?}\n{formatted}"
    );
    assert_eq!(
        without_spans(&a),
        without_spans(&b),
        "meaning changed:\n{formatted}"
    );
}
