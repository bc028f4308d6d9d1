//! Property tests of the TSV reader: it never panics on any input, and reads back every word
//! row written in Tesseract's format exactly, whatever rows of other levels surround it.

use a3s_test_ocr_grounding::tsv::{parse, Word, HEADER};
use proptest::prelude::*;

fn a_word() -> impl Strategy<Value = Word> {
    (
        (1u32..3, 1u32..20, 1u32..5, 1u32..30),
        1u32..50,
        (0u32..4000, 0u32..4000, 1u32..500, 1u32..200),
        0u32..=100,
        "[A-Za-z0-9.,!?()'-]{1,12}",
    )
        .prop_map(
            |(line, index, (left, top, width, height), confidence, text)| Word {
                line,
                index,
                left,
                top,
                width,
                height,
                confidence: f64::from(confidence),
                text,
            },
        )
}

/// `words` as Tesseract writes them, a line row before each word.
fn render(words: &[Word]) -> String {
    let mut out = HEADER.join("\t");
    out.push('\n');
    for w in words {
        let (p, b, par, l) = w.line;
        out.push_str(&format!("4\t{p}\t{b}\t{par}\t{l}\t0\t0\t0\t10\t10\t-1\t\n"));
        out.push_str(&format!(
            "5\t{p}\t{b}\t{par}\t{l}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            w.index, w.left, w.top, w.width, w.height, w.confidence, w.text
        ));
    }
    out
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused_without_a_panic(text in "(?s).{0,400}") {
        let _ = parse(&text);
        let with_header = format!("{}\n{text}", HEADER.join("\t"));
        let _ = parse(&with_header);
    }

    #[test]
    fn rows_with_any_cells_are_read_or_refused_without_a_panic(
        rows in proptest::collection::vec(proptest::collection::vec("[-0-9a-z. ]{0,6}", 0..14), 0..10)
    ) {
        let mut text = HEADER.join("\t");
        for row in rows {
            text.push('\n');
            text.push_str(&row.join("\t"));
        }
        let _ = parse(&text);
    }

    #[test]
    fn every_word_row_is_read_back(words in proptest::collection::vec(a_word(), 0..20)) {
        prop_assert_eq!(parse(&render(&words)).unwrap(), words);
    }
}
