//! Properties of the contract candidates boundary: span validation accepts exactly the spans
//! that quote their source's bytes on UTF-8 boundaries, and the candidates file parser never
//! panics, refuses extra fields, and reads back what was written.

use a3s_test_provider::contract::{
    check_span, Candidate, CandidatesFile, ContractCode, ElementState, Evidence, Expectation,
    FileSource, MediaType, SpanError, CANDIDATES_FORMAT,
};
use proptest::prelude::*;

proptest! {
    /// Every span on character boundaries quoting its own bytes is accepted.
    #[test]
    fn a_span_quoting_its_bytes_is_accepted(text in "\\PC{1,60}", a in 0usize..200, b in 0usize..200) {
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let (s, e) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
        let (s, e) = (s.min(e), s.max(e));
        prop_assume!(s < e);
        prop_assert_eq!(check_span(&text, s as u64, e as u64, &text[s..e]), Ok(()));
    }

    /// Whatever the offsets and quote, the check never panics, and it accepts only when the
    /// bytes there are the quote.
    #[test]
    fn any_span_is_judged_without_panicking(text in "\\PC{0,40}", start in any::<u64>(), end in any::<u64>(), quote in "\\PC{0,10}") {
        let start = start % 64;
        let end = end % 64;
        match check_span(&text, start, end, &quote) {
            Ok(()) => prop_assert_eq!(&text[start as usize..end as usize], quote.as_str()),
            Err(SpanError::Empty { .. }) => prop_assert!(start >= end),
            Err(SpanError::OutOfBounds { .. }) => prop_assert!(end as usize > text.len()),
            Err(SpanError::NotOnBoundary { .. }) => prop_assert!(
                !text.is_char_boundary(start as usize) || !text.is_char_boundary(end as usize)
            ),
            Err(SpanError::Mismatch { .. }) => prop_assert_ne!(&text[start as usize..end as usize], quote.as_str()),
        }
    }

    /// Arbitrary bytes are refused with the file's code, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic_the_parser(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Err(e) = CandidatesFile::parse(&bytes) {
            prop_assert_eq!(e.code, ContractCode::CandidatesFile);
        }
    }

    /// A written file reads back equal, and an extra field anywhere is refused.
    #[test]
    fn a_written_file_reads_back_and_extra_fields_are_refused(
        name in "[A-Za-z ]{1,20}",
        start in 0u64..100,
        len in 1u64..20,
        confidence in 0.0f64..=1.0,
        state in proptest::option::of(prop_oneof![Just(ElementState::Enabled), Just(ElementState::Checked)]),
    ) {
        let file = sample(&name, start, len, confidence, state);
        let bytes = serde_json::to_vec(&file).expect("encode");
        prop_assert_eq!(CandidatesFile::parse(&bytes).expect("parse"), file.clone());
        let mut value: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        value["candidates"][0]["verdict"] = "pass".into();
        let refused = CandidatesFile::parse(&serde_json::to_vec(&value).expect("encode"));
        prop_assert_eq!(refused.map_err(|e| e.code), Err(ContractCode::CandidatesFile));
    }
}

fn sample(
    name: &str,
    start: u64,
    len: u64,
    confidence: f64,
    state: Option<ElementState>,
) -> CandidatesFile {
    CandidatesFile {
        format: CANDIDATES_FORMAT.to_string(),
        provider: "p".into(),
        model: "m".into(),
        sources: vec![FileSource {
            id: "s1".into(),
            path: "prd.md".into(),
            media_type: MediaType::Markdown,
            sha256: "0".repeat(64),
            bytes: 200,
            width: None,
            height: None,
        }],
        candidates: vec![Candidate {
            id: "c1".into(),
            route: "/".into(),
            expectation: Expectation::Element {
                role: "button".into(),
                name: name.into(),
                state,
            },
            confidence,
            evidence: vec![Evidence::Span {
                source: "s1".into(),
                start,
                end: start + len,
                quote: name.into(),
            }],
        }],
        conflicts: Vec::new(),
        open_decisions: Vec::new(),
    }
}

#[test]
fn verify_checks_spans_against_the_current_text_and_regions_against_the_image() {
    let text = "The \"Pay now\" button.";
    let mut file = sample("Pay now", 5, 7, 0.5, None);
    assert_eq!(file.verify(&[("s1", text)]), Ok(()));
    assert_eq!(
        file.verify(&[("s1", "The \"Pay later\" button.")])
            .map_err(|e| e.code),
        Err(ContractCode::CandidatesFile)
    );
    file.sources.push(FileSource {
        id: "s2".into(),
        path: "design.png".into(),
        media_type: MediaType::Png,
        sha256: "1".repeat(64),
        bytes: 10,
        width: Some(100),
        height: Some(50),
    });
    file.candidates[0].evidence.push(Evidence::Region {
        source: "s2".into(),
        x: 90,
        y: 0,
        width: 20,
        height: 10,
        text: None,
    });
    let refused = file
        .verify(&[("s1", text)])
        .expect_err("a region past the image");
    assert!(
        refused.message.contains("test.provider.region"),
        "{}",
        refused.message
    );
    // A span into an image is refused as a span.
    file.candidates[0].evidence[1] = Evidence::Span {
        source: "s2".into(),
        start: 0,
        end: 1,
        quote: "x".into(),
    };
    let refused = file
        .verify(&[("s1", text)])
        .expect_err("a span of an image");
    assert!(
        refused.message.contains("test.provider.span"),
        "{}",
        refused.message
    );
}
