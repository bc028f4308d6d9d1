//! Reading a Markdown PRD into requirement sentences: each with the route of the heading above
//! it and the byte ranges of the UI texts it quotes.
//!
//! Why byte ranges everywhere: a candidate's evidence is checked by the tool against the exact
//! bytes of the file, so every position here is an offset into the text the request sent,
//! never a re-formatted copy.

use std::ops::Range;

/// A sentence of the PRD that quotes UI text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    /// The route of the nearest heading above, when that heading names a path.
    pub route: Option<String>,
    /// The heading's text, for open decisions (empty before the first heading).
    pub heading: String,
    /// The sentence's bytes.
    pub span: Range<usize>,
    /// The quoted texts' bytes, quote marks excluded, in order.
    pub quotes: Vec<Range<usize>>,
}

/// Every sentence of `text` that quotes at least one UI text, in order.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    let mut route = None;
    let mut heading = String::new();
    let mut in_fence = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if let Some(title) = heading_text(trimmed) {
            heading = title.to_string();
            route = route_of(title);
            continue;
        }
        let lead = body.len() - trimmed.len() + list_marker(trimmed);
        for span in split_sentences(body, lead) {
            let quotes = quotes_in(&body[span.clone()])
                .into_iter()
                .map(|q| start + span.start + q.start..start + span.start + q.end)
                .collect::<Vec<_>>();
            if !quotes.is_empty() {
                out.push(Sentence {
                    route: route.clone(),
                    heading: heading.clone(),
                    span: start + span.start..start + span.end,
                    quotes,
                });
            }
        }
    }
    out
}

/// The text of an ATX heading (`## Checkout`), if the line is one.
fn heading_text(line: &str) -> Option<&str> {
    let hashes = line.bytes().take_while(|b| *b == b'#').count();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
        Some(line[hashes..].trim().trim_end_matches('#').trim())
    } else {
        None
    }
}

/// The first word of a heading that is a path (`/checkout`, or `` `/checkout` ``).
fn route_of(heading: &str) -> Option<String> {
    heading
        .split_whitespace()
        .map(|w| w.trim_matches(|c| matches!(c, '`' | '(' | ')' | ',' | ':' | '[' | ']')))
        .find(|w| w.starts_with('/') && w.chars().all(|c| c.is_ascii_graphic()))
        .map(str::to_string)
}

/// Bytes of a list marker (`- `, `* `, `1. `) at the start of `line`.
fn list_marker(line: &str) -> usize {
    for marker in ["- ", "* ", "+ "] {
        if line.starts_with(marker) {
            return marker.len();
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with(". ") {
        return digits + 2;
    }
    0
}

/// Sentences of one line from byte `from`: split after `.`, `!` or `?` followed by a space,
/// outside quotes; each trimmed of surrounding spaces.
fn split_sentences(line: &str, from: usize) -> Vec<Range<usize>> {
    let quoted = quotes_in(line);
    let inside = |i: usize| quoted.iter().any(|q| q.start <= i && i < q.end);
    let mut out = Vec::new();
    let mut start = from;
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate().skip(from) {
        let ends = matches!(b, b'.' | b'!' | b'?')
            && bytes.get(i + 1).is_none_or(|n| *n == b' ')
            && !inside(i);
        if ends {
            push_trimmed(&mut out, line, start..i + 1);
            start = i + 1;
        }
    }
    push_trimmed(&mut out, line, start..line.len());
    out
}

fn push_trimmed(out: &mut Vec<Range<usize>>, line: &str, span: Range<usize>) {
    let text = &line[span.clone()];
    let lead = text.len() - text.trim_start().len();
    let trail = text.len() - text.trim_end().len();
    if lead + trail < text.len() {
        out.push(span.start + lead..span.end - trail);
    }
}

/// Quote pairs: `"…"`, `“…”`, `‘…’` and `'…'` (an apostrophe inside a word is not a quote).
pub fn quotes_in(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let close = match c {
            '"' => Some('"'),
            '“' => Some('”'),
            '‘' => Some('’'),
            '\'' if i == 0 || !chars[i - 1].1.is_alphanumeric() => Some('\''),
            _ => None,
        };
        if let Some(close) = close {
            let open_end = at + c.len_utf8();
            let found = chars[i + 1..].iter().position(|(j, d)| {
                *d == close
                    && (close != '\''
                        || text[j + 1..]
                            .chars()
                            .next()
                            .is_none_or(|n| !n.is_alphanumeric()))
            });
            if let Some(k) = found {
                let (end, _) = chars[i + 1 + k];
                if end > open_end && text[open_end..end].trim() == &text[open_end..end] {
                    out.push(open_end..end);
                }
                i += k + 2;
                continue;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_give_routes_and_quotes_give_spans() {
        let prd = "# Shop\n\n## Checkout `/checkout`\n\n- The \"Pay now\" button must be enabled. Don't show 'Gift'.\n";
        let found = sentences(prd);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].route.as_deref(), Some("/checkout"));
        assert_eq!(&prd[found[0].quotes[0].clone()], "Pay now");
        assert_eq!(
            &prd[found[0].span.clone()],
            "The \"Pay now\" button must be enabled."
        );
        assert_eq!(&prd[found[1].quotes[0].clone()], "Gift");
    }

    #[test]
    fn fenced_code_and_apostrophes_are_not_requirements() {
        let prd = "```\n\"Not me\"\n```\nIt's the user's cart.\n";
        assert!(sentences(prd).is_empty());
    }
}
