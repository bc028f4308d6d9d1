//! What makes a contract generation answer admissible: digests that match the request, spans
//! whose quoted text is the source's bytes, regions inside their image, and candidates, conflicts
//! and open decisions that refer only to what exists.
//!
//! Why one checker for the wire and the file: `contract generate` checks the provider's answer
//! with it, and `contract review` checks the candidates file again (after re-hashing the sources)
//! with the same function, so a candidates file edited by hand is held to the same rules.

use super::types::*;
use crate::code::{ProviderCode, ProviderError};
use std::collections::{HashMap, HashSet};

/// A source as the checker needs it: its id, digest and, for a text source, its bytes; for an
/// image source, its size in pixels.
#[derive(Debug, Clone, Copy)]
pub struct SourceView<'a> {
    /// The id evidence names it by.
    pub id: &'a str,
    /// SHA-256, lowercase hex.
    pub sha256: &'a str,
    /// What it is, with what evidence may point into it.
    pub body: SourceBody<'a>,
}

/// What evidence may point into.
#[derive(Debug, Clone, Copy)]
pub enum SourceBody<'a> {
    /// A text source's bytes (UTF-8).
    Text(&'a str),
    /// An image's size in pixels.
    Image {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
}

/// Why a span does not quote its source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpanError {
    /// `start` is not before `end`.
    #[error("the span {start}..{end} is empty or reversed")]
    Empty {
        /// First byte.
        start: u64,
        /// Last byte (exclusive).
        end: u64,
    },
    /// The span ends past the source.
    #[error("the span {start}..{end} ends past the source's {len} bytes")]
    OutOfBounds {
        /// First byte.
        start: u64,
        /// Last byte (exclusive).
        end: u64,
        /// The source's length.
        len: usize,
    },
    /// An end of the span cuts a UTF-8 character.
    #[error("the span {start}..{end} cuts a UTF-8 character")]
    NotOnBoundary {
        /// First byte.
        start: u64,
        /// Last byte (exclusive).
        end: u64,
    },
    /// The bytes are not the quote.
    #[error("bytes {start}..{end} are {actual:?}, the quote is {quote:?}")]
    Mismatch {
        /// First byte.
        start: u64,
        /// Last byte (exclusive).
        end: u64,
        /// What the source holds there (cut at 200 characters).
        actual: String,
        /// What the quote says (cut at 200 characters).
        quote: String,
    },
}

/// Check that bytes `start..end` of `text` are exactly `quote`.
pub fn check_span(text: &str, start: u64, end: u64, quote: &str) -> Result<(), SpanError> {
    if start >= end {
        return Err(SpanError::Empty { start, end });
    }
    let (s, e) = match (usize::try_from(start), usize::try_from(end)) {
        (Ok(s), Ok(e)) if e <= text.len() => (s, e),
        _ => {
            return Err(SpanError::OutOfBounds {
                start,
                end,
                len: text.len(),
            })
        }
    };
    if !text.is_char_boundary(s) || !text.is_char_boundary(e) {
        return Err(SpanError::NotOnBoundary { start, end });
    }
    let actual = &text[s..e];
    if actual != quote {
        return Err(SpanError::Mismatch {
            start,
            end,
            actual: crate::wire::shorten(actual, 200),
            quote: crate::wire::shorten(quote, 200),
        });
    }
    Ok(())
}

/// Check a provider's answer against the request it answers.
pub fn check_answer(
    request: &ContractRequest,
    response: &ContractResponse,
) -> Result<(), ProviderError> {
    if response.cost_microusd > request.max_cost_microusd {
        return Err(ProviderError::new(
            ProviderCode::OverBudget,
            format!(
                "the answer cost {} µUSD, the request's budget is {} µUSD",
                response.cost_microusd, request.max_cost_microusd
            ),
        ));
    }
    let views: Vec<SourceView<'_>> = request.sources.iter().map(view_of).collect();
    check_digests(&views, &response.sources)?;
    check_candidates(
        &views,
        &response.candidates,
        &response.conflicts,
        &response.open_decisions,
    )
}

fn view_of(source: &Source) -> SourceView<'_> {
    SourceView {
        id: &source.id,
        sha256: &source.sha256,
        body: match &source.content {
            SourceContent::Utf8 { text } => SourceBody::Text(text),
            SourceContent::Base64 { width, height, .. } => SourceBody::Image {
                width: *width,
                height: *height,
            },
        },
    }
}

/// Every source repeated once with its digest, and nothing else.
pub fn check_digests(
    sources: &[SourceView<'_>],
    repeated: &[SourceDigest],
) -> Result<(), ProviderError> {
    let digest = |m: String| ProviderError::new(ProviderCode::Digest, m);
    if repeated.len() != sources.len() {
        return Err(digest(format!(
            "the answer repeats {} source digests, the request sent {} sources",
            repeated.len(),
            sources.len()
        )));
    }
    for source in sources {
        let Some(r) = repeated.iter().find(|r| r.id == source.id) else {
            return Err(digest(format!(
                "the answer does not repeat source \"{}\"",
                source.id
            )));
        };
        if r.sha256 != source.sha256 {
            return Err(digest(format!(
                "source \"{}\" is {}, the answer says {}",
                source.id,
                source.sha256,
                crate::wire::shorten(&r.sha256, 64)
            )));
        }
    }
    Ok(())
}

/// Candidates, conflicts and open decisions: bounded, uniquely named, referring only to what
/// exists, every piece of evidence inside its source.
pub fn check_candidates(
    sources: &[SourceView<'_>],
    candidates: &[Candidate],
    conflicts: &[Conflict],
    decisions: &[OpenDecision],
) -> Result<(), ProviderError> {
    let bad = |m: String| ProviderError::new(ProviderCode::Candidates, m);
    if candidates.len() > MAX_CANDIDATES {
        return Err(bad(format!(
            "the answer holds {} candidates; at most {MAX_CANDIDATES} are read",
            candidates.len()
        )));
    }
    if conflicts.len() > MAX_CONFLICTS || decisions.len() > MAX_CONFLICTS {
        return Err(bad(format!(
            "the answer holds more than {MAX_CONFLICTS} conflicts or open decisions"
        )));
    }
    let by_id: HashMap<&str, &SourceView<'_>> = sources.iter().map(|s| (s.id, s)).collect();
    let mut ids: HashMap<&str, &Candidate> = HashMap::new();
    for c in candidates {
        check_id("candidate", &c.id)?;
        if ids.insert(&c.id, c).is_some() {
            return Err(bad(format!("candidate id \"{}\" is used twice", c.id)));
        }
        if !c.route.starts_with('/')
            || c.route.len() > MAX_TEXT
            || c.route.chars().any(char::is_control)
        {
            return Err(bad(format!(
                "candidate \"{}\" has route {:?}; a route is a path starting with `/`",
                c.id,
                crate::wire::shorten(&c.route, 100)
            )));
        }
        if !(0.0..=1.0).contains(&c.confidence) {
            return Err(bad(format!(
                "candidate \"{}\" has confidence {}, outside 0..1",
                c.id, c.confidence
            )));
        }
        check_expectation(c)?;
        if c.evidence.is_empty() || c.evidence.len() > MAX_EVIDENCE {
            return Err(bad(format!(
                "candidate \"{}\" has {} evidence items; 1 to {MAX_EVIDENCE} are needed",
                c.id,
                c.evidence.len()
            )));
        }
        for e in &c.evidence {
            check_evidence(&by_id, &c.id, e)?;
        }
    }
    for c in candidates {
        if let Expectation::Layout {
            subject, object, ..
        } = &c.expectation
        {
            for end in [subject, object] {
                match ids.get(end.as_str()) {
                    Some(other) if matches!(other.expectation, Expectation::Element { .. }) && other.route == c.route => {}
                    _ => return Err(bad(format!("layout candidate \"{}\" names \"{}\", which is no element candidate of route {}", c.id, crate::wire::shorten(end, 64), c.route))),
                }
            }
            if subject == object {
                return Err(bad(format!(
                    "layout candidate \"{}\" places \"{subject}\" against itself",
                    c.id
                )));
            }
        }
    }
    let mut seen = HashSet::new();
    for k in conflicts {
        check_id("conflict", &k.id)?;
        check_text("conflict reason", &k.reason)?;
        if !seen.insert(k.id.as_str()) {
            return Err(bad(format!("conflict id \"{}\" is used twice", k.id)));
        }
        let distinct: HashSet<&str> = k.candidates.iter().map(String::as_str).collect();
        if distinct.len() < 2 || distinct.len() != k.candidates.len() {
            return Err(bad(format!(
                "conflict \"{}\" must name two or more distinct candidates",
                k.id
            )));
        }
        refer(&ids, "conflict", &k.id, &k.candidates)?;
    }
    let mut seen = HashSet::new();
    for d in decisions {
        check_id("open decision", &d.id)?;
        check_text("open decision question", &d.question)?;
        if !seen.insert(d.id.as_str()) {
            return Err(bad(format!("open decision id \"{}\" is used twice", d.id)));
        }
        refer(&ids, "open decision", &d.id, &d.candidates)?;
    }
    Ok(())
}

fn refer(
    ids: &HashMap<&str, &Candidate>,
    what: &str,
    id: &str,
    named: &[String],
) -> Result<(), ProviderError> {
    match named.iter().find(|n| !ids.contains_key(n.as_str())) {
        Some(n) => Err(ProviderError::new(
            ProviderCode::Candidates,
            format!(
                "{what} \"{id}\" names candidate \"{}\", which the answer does not hold",
                crate::wire::shorten(n, 64)
            ),
        )),
        None => Ok(()),
    }
}

fn check_expectation(c: &Candidate) -> Result<(), ProviderError> {
    match &c.expectation {
        Expectation::Element { role, name, .. } => {
            let role_ok = !role.is_empty()
                && role.len() <= MAX_ID
                && role.bytes().all(|b| b.is_ascii_lowercase());
            if !role_ok {
                return Err(ProviderError::new(
                    ProviderCode::Candidates,
                    format!(
                        "candidate \"{}\" has role {:?}; a role is a lowercase ARIA role",
                        c.id,
                        crate::wire::shorten(role, 64)
                    ),
                ));
            }
            check_text("element name", name)
        }
        Expectation::Text { text } => check_text("text", text),
        Expectation::Layout { .. } => Ok(()),
    }
}

fn check_evidence(
    sources: &HashMap<&str, &SourceView<'_>>,
    candidate: &str,
    e: &Evidence,
) -> Result<(), ProviderError> {
    let Some(source) = sources.get(e.source()) else {
        return Err(ProviderError::new(
            ProviderCode::Candidates,
            format!(
                "candidate \"{candidate}\" cites source \"{}\", which was not sent",
                crate::wire::shorten(e.source(), 64)
            ),
        ));
    };
    match (e, source.body) {
        (Evidence::Span { start, end, quote, .. }, SourceBody::Text(text)) => {
            check_text("quote", quote)?;
            check_span(text, *start, *end, quote).map_err(|why| {
                ProviderError::new(ProviderCode::Span, format!("candidate \"{candidate}\" in source \"{}\": {why}", source.id))
            })
        }
        (Evidence::Region { x, y, width, height, text, .. }, SourceBody::Image { width: w, height: h }) => {
            if let Some(text) = text {
                check_text("region text", text)?;
            }
            let inside = *width > 0
                && *height > 0
                && u64::from(*x) + u64::from(*width) <= u64::from(w)
                && u64::from(*y) + u64::from(*height) <= u64::from(h);
            if inside {
                Ok(())
            } else {
                Err(ProviderError::new(
                    ProviderCode::Region,
                    format!("candidate \"{candidate}\": region ({x}, {y}, {width}×{height}) is not a positive area inside the {w}×{h} image \"{}\"", source.id),
                ))
            }
        }
        (Evidence::Span { .. }, SourceBody::Image { .. }) => Err(ProviderError::new(
            ProviderCode::Span,
            format!("candidate \"{candidate}\" cites a byte span of image source \"{}\"; an image takes a region", source.id),
        )),
        (Evidence::Region { .. }, SourceBody::Text(_)) => Err(ProviderError::new(
            ProviderCode::Region,
            format!("candidate \"{candidate}\" cites a region of text source \"{}\"; a text takes a byte span", source.id),
        )),
    }
}

/// An id: `[A-Za-z0-9_-]`, 1 to [`MAX_ID`] bytes.
pub fn check_id(what: &str, id: &str) -> Result<(), ProviderError> {
    if is_id(id) {
        Ok(())
    } else {
        Err(ProviderError::new(
            ProviderCode::Candidates,
            format!(
                "{what} id {:?} is not 1 to {MAX_ID} characters of [A-Za-z0-9_-]",
                crate::wire::shorten(id, 80)
            ),
        ))
    }
}

/// True for an id of `[A-Za-z0-9_-]`, 1 to [`MAX_ID`] bytes.
pub fn is_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn check_text(what: &str, text: &str) -> Result<(), ProviderError> {
    if text.is_empty() || text.len() > MAX_TEXT {
        return Err(ProviderError::new(
            ProviderCode::Candidates,
            format!("a {what} is empty or longer than {MAX_TEXT} bytes"),
        ));
    }
    Ok(())
}
