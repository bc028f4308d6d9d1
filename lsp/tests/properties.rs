//! Properties of the core on arbitrary input: an incremental change lands where a splice of the
//! same bytes would, and no feature panics at any position of any text — ACL-like or not,
//! with multi-byte and astral characters and positions past every end.

use a3s_test_lsp::core::features::{
    completion, diagnostics, fixes, folding, format, hover, names, symbols, tokens,
};
use a3s_test_lsp::core::store::{Change, Doc};
use a3s_test_lsp::core::text::{Lines, Pos};
use proptest::prelude::*;

/// Texts made of ACL's pieces and some that are not.
fn acl_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("suite \"s\" {\n".to_string()),
        Just("scenario \"a\" {\n".to_string()),
        Just("surface = \"web\"\n".to_string()),
        Just("click \"c\" { target = role(\"button\", \"Go\") }\n".to_string()),
        Just("depends_on = [\"a\"]\n".to_string()),
        Just("use \"g\" {}\n".to_string()),
        Just("steps \"g\" {\n".to_string()),
        Just("}\n".to_string()),
        Just("# é😀 comment\n".to_string()),
        Just("urll = /x\\/y/i\n".to_string()),
        "[ -~é😀\n]{0,12}",
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn an_incremental_change_is_a_splice(text in acl_like(), a in 0usize..4096, b in 0usize..4096, insert in "[a-zé😀\n]{0,6}") {
        let lines = Lines::new(&text);
        let (start, end) = (lines.pos(a.min(b).min(text.len())), lines.pos(a.max(b).min(text.len())));
        let mut doc = Doc::new(text.clone(), 1);
        doc.apply(&Change { range: Some((start, end)), text: insert.clone() });
        let mut expected = text.clone();
        let (s, e) = (lines.offset(start), lines.offset(end));
        if expected.is_char_boundary(s) && expected.is_char_boundary(e) {
            expected.replace_range(s..e, &insert);
            prop_assert_eq!(doc.text, expected);
        }
    }

    #[test]
    fn positions_anywhere_never_panic(text in acl_like(), line in 0u32..40, col in 0u32..200) {
        let mut doc = Doc::new(text.clone(), 1);
        doc.apply(&Change { range: Some((Pos::new(line, col), Pos::new(line + 1, col / 2))), text: "x".into() });
        let offset = doc.lines().offset(Pos::new(line, col));
        let found = diagnostics::diagnose(&doc.text, &[]);
        let _ = completion::complete(&doc.text, offset);
        let _ = hover::hover(&doc.text, &found, offset);
        let _ = fixes::fixes(&doc.text, &found, 0, doc.text.len());
        let _ = format::format_range(&doc.text, offset, doc.text.len());
        let _ = names::rename(&doc.text, offset, "renamed");
        let _ = symbols::symbols(&doc.text);
        let _ = tokens::tokens(&doc.text);
        let _ = folding::folds(&doc.text, doc.lines());
    }
}

/// Found by `positions_anywhere_never_panic`: a block whose span the parser ended right after
/// its `{` (no `}` of its own) made the missing-attribute fix slice backwards.
#[test]
fn a_fix_for_a_block_without_its_closing_brace_does_not_panic() {
    let text = "# é😀 comment\nsurface = \"web\"\n# é😀 comment\n}\nLH=é' scenario \"a\" {\n😀/😀Y:éIq\nF😀:# é😀 comment\nsuite \"s\" {x\n_Ié<:5N\\hscenario \"a\" {\n}\nuse \"g\" {}\nclick \"c\" { target = role(\"button\", \"Go\") }\nsurface = \"web\"\nscenario \"a\" {\n";
    let found = diagnostics::diagnose(text, &[]);
    let _ = fixes::fixes(text, &found, 0, text.len());
}
