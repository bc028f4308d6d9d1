//! Finding a query among recognised words: runs of consecutive words of one line that read as
//! the query, case-insensitively, each run one box.
//!
//! Why by words and not by substring: a box must cover exactly what was found, and Tesseract's
//! boxes are per word. A query of several words ("Place order") matches those words in order on
//! one line; punctuation around a word ("Checkout!", "(Sale)") does not stop a match.

use crate::tsv::Word;

/// One place the query was read, in image pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width (above zero).
    pub width: u32,
    /// Height (above zero).
    pub height: u32,
    /// The lowest confidence of its words, 0..1.
    pub confidence: f64,
    /// The words as read, joined by spaces.
    pub text: String,
}

/// `word` lower-cased without the punctuation around it (inner punctuation, as in "e-mail",
/// stays).
pub fn normalise(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// The query's words, normalised; empty words (punctuation alone) dropped.
pub fn query_words(query: &str) -> Vec<String> {
    query
        .split_whitespace()
        .map(normalise)
        .filter(|w| !w.is_empty())
        .collect()
}

/// Every run of consecutive words on one line of `words` that reads as `query`, best first
/// (highest confidence, then top to bottom, left to right). A query without words finds nothing.
pub fn find(words: &[Word], query: &str) -> Vec<Found> {
    let wanted = query_words(query);
    if wanted.is_empty() {
        return Vec::new();
    }
    // Tesseract writes a line's words in order; group them by line, keeping that order.
    let mut lines: Vec<Vec<&Word>> = Vec::new();
    for w in words {
        match lines.last_mut() {
            Some(line) if line[0].line == w.line => line.push(w),
            _ => lines.push(vec![w]),
        }
    }
    let mut found = Vec::new();
    for line in &lines {
        let normalised: Vec<String> = line.iter().map(|w| normalise(&w.text)).collect();
        if normalised.len() < wanted.len() {
            continue;
        }
        for start in 0..=normalised.len() - wanted.len() {
            if normalised[start..start + wanted.len()] != wanted[..] {
                continue;
            }
            let run = &line[start..start + wanted.len()];
            if let Some(f) = union(run) {
                found.push(f);
            }
        }
    }
    found.sort_by(|a, b| {
        b.confidence
            .total_cmp(&a.confidence)
            .then(a.y.cmp(&b.y))
            .then(a.x.cmp(&b.x))
    });
    found
}

/// The box around `run`, or `None` when it has no area.
fn union(run: &[&Word]) -> Option<Found> {
    let left = run.iter().map(|w| w.left).min()?;
    let top = run.iter().map(|w| w.top).min()?;
    let right = run.iter().map(|w| w.left.saturating_add(w.width)).max()?;
    let bottom = run.iter().map(|w| w.top.saturating_add(w.height)).max()?;
    let confidence = run.iter().map(|w| w.confidence).fold(100.0_f64, f64::min) / 100.0;
    (right > left && bottom > top).then(|| Found {
        x: left,
        y: top,
        width: right - left,
        height: bottom - top,
        confidence: confidence.clamp(0.0, 1.0),
        text: run
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(line: u32, index: u32, left: u32, text: &str, confidence: f64) -> Word {
        Word {
            line: (1, 1, 1, line),
            index,
            left,
            top: line * 40,
            width: 50,
            height: 20,
            confidence,
            text: text.into(),
        }
    }

    #[test]
    fn a_phrase_matches_consecutive_words_of_one_line_case_insensitively() {
        let words = vec![
            word(1, 1, 0, "Place", 95.0),
            word(1, 2, 60, "ORDER!", 80.0),
            word(2, 1, 0, "place", 90.0),
            word(3, 1, 0, "order", 90.0),
        ];
        let found = find(&words, "place order");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].x, found[0].width), (0, 110));
        assert_eq!(found[0].confidence, 0.8);
        assert_eq!(found[0].text, "Place ORDER!");
    }

    #[test]
    fn every_occurrence_is_one_box_best_first() {
        let words = vec![word(1, 1, 0, "Remove", 70.0), word(2, 1, 0, "remove", 90.0)];
        let found = find(&words, "Remove");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].y, 80);
        assert!(find(&words, "  ?! ").is_empty());
        assert!(find(&words, "Remove it").is_empty());
    }
}
