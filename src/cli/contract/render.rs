//! Text the contract commands write: the candidates summary a reviewer reads, and the
//! `contract.acl` a review produces, with a provenance comment above every expectation.
//!
//! Why comments for provenance: the admitted `evidence` list keeps the byte spans, but a person
//! reading the diff of a contract needs the quoted words and the source's digest beside the
//! expectation, without opening the PRD.

use super::review::Reviewed;
use a3s_test_lang::printer::string_literal;
use a3s_test_provider::contract::{
    Candidate, CandidatesFile, ElementState, Evidence, Expectation, Relation,
};
use std::fmt::Write;

/// The candidates, conflicts and open decisions, one line each.
pub fn summary(file: &CandidatesFile) -> String {
    let mut out = format!(
        "{} candidate(s) from provider \"{}\" (model \"{}\")\n",
        file.candidates.len(),
        one_line(&file.provider),
        one_line(&file.model)
    );
    for c in &file.candidates {
        let _ = writeln!(
            out,
            "  {} {} {} · confidence {:.2} · {}",
            c.id,
            c.route,
            describe(c),
            c.confidence,
            cited(file, c)
        );
    }
    for k in &file.conflicts {
        let _ = writeln!(
            out,
            "conflict {} between {}: {}",
            k.id,
            k.candidates.join(", "),
            one_line(&k.reason)
        );
    }
    for d in &file.open_decisions {
        let _ = writeln!(out, "open decision {}: {}", d.id, one_line(&d.question));
    }
    out
}

/// One candidate's expectation in words.
pub fn describe(c: &Candidate) -> String {
    match &c.expectation {
        Expectation::Element { role, name, state } => match state {
            Some(s) => format!("{role} \"{}\" {}", one_line(name), state_name(*s)),
            None => format!("{role} \"{}\"", one_line(name)),
        },
        Expectation::Text { text } => format!("text \"{}\"", one_line(text)),
        Expectation::Layout {
            subject,
            relation,
            object,
        } => {
            format!(
                "{subject} {} {object}",
                relation_name(*relation).replace('_', " ")
            )
        }
    }
}

/// Where a candidate comes from, in words: `prd.md bytes 52..59 "Pay now"`.
fn cited(file: &CandidatesFile, c: &Candidate) -> String {
    let mut parts = Vec::new();
    for e in &c.evidence {
        let path = file
            .sources
            .iter()
            .find(|s| s.id == e.source())
            .map_or(e.source(), |s| s.path.as_str());
        parts.push(match e {
            Evidence::Span {
                start, end, quote, ..
            } => format!(
                "{} bytes {start}..{end} \"{}\"",
                one_line(path),
                cut(&one_line(quote), 80)
            ),
            Evidence::Region {
                x,
                y,
                width,
                height,
                ..
            } => format!("{} region {x},{y} {width}×{height}", one_line(path)),
        });
    }
    parts.join("; ")
}

/// The `contract.acl` text of a review.
pub fn contract_acl(
    id: &str,
    file: &CandidatesFile,
    reviewed: &Reviewed<'_>,
    candidates_sha256: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Surface Contract written by `a3s-test contract review`: every expectation below was approved");
    let _ = writeln!(
        out,
        "# by the reviewer from candidates of provider \"{}\" (model \"{}\").",
        one_line(&file.provider),
        one_line(&file.model)
    );
    let _ = writeln!(out, "contract {} {{", string_literal(id));
    let _ = writeln!(
        out,
        "    candidates_sha256 = {}",
        string_literal(candidates_sha256)
    );
    let rejected: Vec<String> = reviewed
        .rejected
        .iter()
        .map(|r| string_literal(r))
        .collect();
    let _ = writeln!(out, "    rejected = [{}]", rejected.join(", "));
    for s in &file.sources {
        let _ = writeln!(out, "    # {} · {} bytes", s.media_type.as_str(), s.bytes);
        let _ = writeln!(out, "    source {} {{", string_literal(&s.id));
        let _ = writeln!(out, "        path = {}", string_literal(&s.path));
        let _ = writeln!(out, "        sha256 = {}", string_literal(&s.sha256));
        let _ = writeln!(out, "    }}");
    }
    let mut routes: Vec<&str> = Vec::new();
    for c in &reviewed.approved {
        if !routes.contains(&c.route.as_str()) {
            routes.push(&c.route);
        }
    }
    for route in routes {
        let _ = writeln!(out, "    route {} {{", string_literal(route));
        for c in reviewed.approved.iter().filter(|c| c.route == route) {
            let _ = writeln!(
                out,
                "        # {} · {} · confidence {:.2}",
                c.id,
                provenance(file, c),
                c.confidence
            );
            let evidence: Vec<String> = c
                .evidence
                .iter()
                .map(|e| string_literal(&evidence(e)))
                .collect();
            let evidence = format!("evidence = [{}]", evidence.join(", "));
            match &c.expectation {
                Expectation::Element { role, name, state } => {
                    let _ = writeln!(out, "        element {} {{", string_literal(&c.id));
                    let _ = writeln!(out, "            role = {}", string_literal(role));
                    let _ = writeln!(out, "            name = {}", string_literal(name));
                    if let Some(s) = state {
                        let _ = writeln!(
                            out,
                            "            state = {}",
                            string_literal(state_name(*s))
                        );
                    }
                    let _ = writeln!(out, "            {evidence}");
                }
                Expectation::Text { text } => {
                    let _ = writeln!(out, "        text {} {{", string_literal(&c.id));
                    let _ = writeln!(out, "            text = {}", string_literal(text));
                    let _ = writeln!(out, "            {evidence}");
                }
                Expectation::Layout {
                    subject,
                    relation,
                    object,
                } => {
                    let _ = writeln!(out, "        layout {} {{", string_literal(&c.id));
                    let _ = writeln!(out, "            subject = {}", string_literal(subject));
                    let _ = writeln!(
                        out,
                        "            relation = {}",
                        string_literal(relation_name(*relation))
                    );
                    let _ = writeln!(out, "            object = {}", string_literal(object));
                    let _ = writeln!(out, "            {evidence}");
                }
            }
            let _ = writeln!(out, "        }}");
        }
        let _ = writeln!(out, "    }}");
    }
    for s in &reviewed.settled {
        if let Some(k) = file.conflicts.iter().find(|k| k.id == s.conflict) {
            let _ = writeln!(out, "    # {}", cut(&one_line(&k.reason), 200));
        }
        let over: Vec<String> = s.over.iter().map(|o| string_literal(o)).collect();
        let _ = writeln!(out, "    decision {} {{", string_literal(&s.conflict));
        let _ = writeln!(out, "        chosen = {}", string_literal(&s.chosen));
        let _ = writeln!(out, "        over = [{}]", over.join(", "));
        let _ = writeln!(out, "        rationale = {}", string_literal(&s.rationale));
        let _ = writeln!(out, "    }}");
    }
    for d in &file.open_decisions {
        let _ = writeln!(
            out,
            "    # open decision {}: {}",
            d.id,
            cut(&one_line(&d.question), 200)
        );
    }
    out.push_str("}\n");
    out
}

/// A candidate's evidence in a comment: the source's path and digest, the span and its words.
fn provenance(file: &CandidatesFile, c: &Candidate) -> String {
    let mut parts = Vec::new();
    for e in &c.evidence {
        let (path, sha) = file
            .sources
            .iter()
            .find(|s| s.id == e.source())
            .map_or((e.source(), ""), |s| (s.path.as_str(), s.sha256.as_str()));
        let sha = &sha[..sha.len().min(12)];
        parts.push(match e {
            Evidence::Span {
                start, end, quote, ..
            } => {
                format!(
                    "{} sha256:{sha}… bytes {start}..{end} \"{}\"",
                    one_line(path),
                    cut(&one_line(quote), 80)
                )
            }
            Evidence::Region {
                x,
                y,
                width,
                height,
                ..
            } => {
                format!(
                    "{} sha256:{sha}… region {x},{y} {width}×{height}",
                    one_line(path)
                )
            }
        });
    }
    parts.join("; ")
}

/// The admitted evidence form: `s1:52..59` or `s2@10,20,100x30`.
fn evidence(e: &Evidence) -> String {
    match e {
        Evidence::Span {
            source, start, end, ..
        } => format!("{source}:{start}..{end}"),
        Evidence::Region {
            source,
            x,
            y,
            width,
            height,
            ..
        } => format!("{source}@{x},{y},{width}x{height}"),
    }
}

fn state_name(s: ElementState) -> &'static str {
    match s {
        ElementState::Enabled => "enabled",
        ElementState::Disabled => "disabled",
        ElementState::Checked => "checked",
        ElementState::Unchecked => "unchecked",
        ElementState::Visible => "visible",
        ElementState::Hidden => "hidden",
    }
}

fn relation_name(r: Relation) -> &'static str {
    match r {
        Relation::Above => "above",
        Relation::Below => "below",
        Relation::LeftOf => "left_of",
        Relation::RightOf => "right_of",
    }
}

/// Control characters as spaces: a comment or a summary line stays one line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
