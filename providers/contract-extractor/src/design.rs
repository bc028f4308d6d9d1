//! Design images → candidates from their text regions: Tesseract's words (the bounded child and
//! TSV reader of `a3s-test-ocr-grounding`, one copy) grouped into lines, each line a region in
//! image pixels with the mean confidence of its words.
//!
//! Why lines, and why they mostly corroborate: an image has no roles, so what a design can say
//! on its own is "this text is shown". A line whose text is exactly the name of an element or
//! the text a PRD candidate already expects adds its region to that candidate's evidence (the
//! reviewer sees both the sentence and where the design draws it); any other line becomes a
//! `text` candidate of its own. Lines Tesseract is unsure of (below [`MIN_CONFIDENCE`]) or that
//! hold no letter or digit (rules, borders) are left out.

use crate::extract::Extraction;
use a3s_test_ocr_grounding::tsv::Word;
use a3s_test_provider::contract::{Candidate, Evidence, Expectation, OpenDecision, MAX_EVIDENCE};
use std::collections::BTreeMap;

/// The lowest mean word confidence (Tesseract's 0..100) a line needs to become evidence.
pub const MIN_CONFIDENCE: f64 = 60.0;

/// One line of text on the image.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Its words joined by single spaces.
    pub text: String,
    /// Left edge, in image pixels.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width, above zero.
    pub width: u32,
    /// Height, above zero.
    pub height: u32,
    /// The mean confidence of its words, 0..1.
    pub confidence: f64,
}

/// Tesseract's words as lines, in reading order; empty words, boxes of no area and lines
/// without a letter or digit are dropped.
pub fn lines(words: &[Word]) -> Vec<Line> {
    let mut grouped: BTreeMap<(u32, u32, u32, u32), Vec<&Word>> = BTreeMap::new();
    for w in words {
        if !w.text.trim().is_empty() && w.width > 0 && w.height > 0 {
            grouped.entry(w.line).or_default().push(w);
        }
    }
    let mut out = Vec::new();
    for mut ws in grouped.into_values() {
        ws.sort_by_key(|w| w.index);
        let text = ws
            .iter()
            .map(|w| w.text.trim())
            .collect::<Vec<_>>()
            .join(" ");
        if !text.chars().any(char::is_alphanumeric) {
            continue;
        }
        let left = ws.iter().map(|w| w.left).min().unwrap_or(0);
        let top = ws.iter().map(|w| w.top).min().unwrap_or(0);
        let right = ws
            .iter()
            .map(|w| w.left.saturating_add(w.width))
            .max()
            .unwrap_or(0);
        let bottom = ws
            .iter()
            .map(|w| w.top.saturating_add(w.height))
            .max()
            .unwrap_or(0);
        let mean = ws.iter().map(|w| w.confidence).sum::<f64>() / ws.len() as f64;
        out.push(Line {
            text,
            x: left,
            y: top,
            width: right - left,
            height: bottom - top,
            confidence: (mean / 100.0).clamp(0.0, 1.0),
        });
    }
    out
}

/// Add image `source`'s `lines` (named `name`) to `x`: as evidence of the candidate that
/// already expects their text, else as `text` candidates on the one route the other candidates
/// share (on `/` with an open decision when they share none).
pub fn merge(x: &mut Extraction, source: &str, name: &str, lines: &[Line]) {
    let routes: std::collections::BTreeSet<&str> =
        x.candidates.iter().map(|c| c.route.as_str()).collect();
    let route = match routes.len() {
        1 => routes.into_iter().next().unwrap_or("/").to_string(),
        _ => "/".to_string(),
    };
    let mut placed = Vec::new();
    for line in lines
        .iter()
        .filter(|l| l.confidence * 100.0 >= MIN_CONFIDENCE)
    {
        let region = Evidence::Region {
            source: source.to_string(),
            x: line.x,
            y: line.y,
            width: line.width,
            height: line.height,
            text: Some(line.text.clone()),
        };
        let known = x.candidates.iter_mut().find(|c| match &c.expectation {
            Expectation::Element { name, .. } => *name == line.text,
            Expectation::Text { text } => *text == line.text,
            Expectation::Layout { .. } => false,
        });
        match known {
            Some(c) if c.evidence.len() < MAX_EVIDENCE => c.evidence.push(region),
            Some(_) => {}
            None => {
                let id = format!("c{}", x.candidates.len() + 1);
                placed.push(id.clone());
                x.candidates.push(Candidate {
                    id,
                    route: route.clone(),
                    expectation: Expectation::Text {
                        text: line.text.clone(),
                    },
                    confidence: (line.confidence * 100.0).round() / 100.0,
                    evidence: vec![region],
                });
            }
        }
    }
    if !placed.is_empty() && route == "/" {
        x.open_decisions.push(OpenDecision {
            id: format!("d{}", x.open_decisions.len() + 1),
            question: format!(
                "The design image \"{name}\" names no route and the PRD candidates name none or several; its texts were placed on `/`: which page does it show?"
            ),
            candidates: placed,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(line: u32, index: u32, left: u32, text: &str, confidence: f64) -> Word {
        Word {
            line: (1, 1, 1, line),
            index,
            left,
            top: 10 * line,
            width: 20,
            height: 8,
            confidence,
            text: text.to_string(),
        }
    }

    #[test]
    fn words_become_lines_with_their_box_and_mean_confidence() {
        let got = lines(&[
            word(1, 2, 50, "total", 90.0),
            word(1, 1, 10, "Order", 80.0),
            word(2, 1, 10, " ", 95.0),
            word(3, 1, 10, "|", 95.0),
        ]);
        assert_eq!(
            got,
            [Line {
                text: "Order total".into(),
                x: 10,
                y: 10,
                width: 60,
                height: 8,
                confidence: 0.85,
            }]
        );
    }

    #[test]
    fn a_line_a_candidate_expects_becomes_its_evidence_and_others_new_text() {
        let mut x = Extraction::default();
        x.candidates.push(Candidate {
            id: "c1".into(),
            route: "/checkout".into(),
            expectation: Expectation::Element {
                role: "button".into(),
                name: "Pay now".into(),
                state: None,
            },
            confidence: 0.9,
            evidence: Vec::new(),
        });
        let line = |text: &str, confidence: f64| Line {
            text: text.into(),
            x: 1,
            y: 2,
            width: 3,
            height: 4,
            confidence,
        };
        merge(
            &mut x,
            "s2",
            "design.png",
            &[
                line("Pay now", 0.95),
                line("Free shipping", 0.912),
                line("blur", 0.3),
            ],
        );
        assert_eq!(x.candidates.len(), 2);
        assert_eq!(x.candidates[0].evidence.len(), 1);
        assert_eq!(x.candidates[1].route, "/checkout");
        assert_eq!(x.candidates[1].confidence, 0.91);
        assert_eq!(
            x.candidates[1].expectation,
            Expectation::Text {
                text: "Free shipping".into()
            }
        );
        assert!(x.open_decisions.is_empty());
    }
}
