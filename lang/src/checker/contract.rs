//! `contract "id" { source … route "/path" { element … text … layout … } decision … }` roots
//! (`docs/acl.md` §2.5): a reviewed Surface Contract.
//!
//! Why checked like any ACL file: a contract is written by `a3s-test contract review` but it is
//! committed, diffed and edited by people, so every problem is reported where it is written —
//! a layout naming an element that is not on its route, evidence citing an undeclared source, a
//! digest that is not SHA-256 — before `contract check` opens a browser.

use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::ids::{required_label, IdSet};
use super::values::{keyword, non_empty, string_list};
use crate::ast::{Attribute, Block, Item};
use crate::code::Code;
use crate::ir::{
    Contract, ContractDecision, ContractExpectation, ContractRelation, ContractRoute,
    ContractSource, ContractState, ExpectationKind,
};

/// The root block kind.
pub(super) const CONTRACT: &str = "contract";
pub(super) const CONTRACT_SCHEMA: &[&str] = &["candidates_sha256", "rejected"];
pub(super) const SOURCE_SCHEMA: &[&str] = &["path", "sha256"];
pub(super) const ROUTE_SCHEMA: &[&str] = &[];
pub(super) const ELEMENT_SCHEMA: &[&str] = &["role", "name", "state", "evidence"];
pub(super) const TEXT_SCHEMA: &[&str] = &["text", "evidence"];
pub(super) const LAYOUT_SCHEMA: &[&str] = &["subject", "relation", "object", "evidence"];
pub(super) const DECISION_SCHEMA: &[&str] = &["chosen", "over", "rationale"];
/// Blocks a contract holds.
pub(super) const CONTRACT_BLOCKS: &[&str] = &["source", "route", "decision"];
/// Blocks a route holds.
pub(super) const ROUTE_BLOCKS: &[&str] = &["element", "text", "layout"];
/// The `state` keywords.
pub(super) const STATES: &[&str] = &[
    "enabled",
    "disabled",
    "checked",
    "unchecked",
    "visible",
    "hidden",
];
/// The `relation` keywords.
pub(super) const RELATIONS: &[&str] = &["above", "below", "left_of", "right_of"];

/// Check `contract "id" { … }` at the document root.
pub(super) fn contract(ctx: &mut Ctx, block: &Block) -> Option<Contract> {
    let mark = ctx.enter_block(block);
    let id = required_label(ctx, block);
    let f = Fields::collect(ctx, block, CONTRACT_SCHEMA);
    let candidates_sha256 = match f.get("candidates_sha256") {
        Some(a) => sha256(ctx, a).map(|s| Some(s.to_string())),
        None => Some(None),
    };
    let rejected = match f.get("rejected") {
        Some(a) => string_list(ctx, a).map(|l| l.into_iter().map(str::to_string).collect()),
        None => Some(Vec::new()),
    };
    let mut ok = true;
    let mut sources = Vec::new();
    let mut routes = Vec::new();
    let mut decisions = Vec::new();
    let mut source_ids = IdSet::default();
    let mut expectation_ids = IdSet::default();
    let mut decision_ids = IdSet::default();
    let mut route_paths = IdSet::default();
    for item in &block.items {
        let Item::Block(nested) = item else { continue };
        let inner = ctx.enter_block(nested);
        let read = match nested.kind.name.as_str() {
            "source" => source(ctx, nested, &mut source_ids).map(|s| sources.push(s)),
            "route" => {
                route(ctx, nested, &mut route_paths, &mut expectation_ids).map(|r| routes.push(r))
            }
            "decision" => decision(ctx, nested, &mut decision_ids).map(|d| decisions.push(d)),
            kind => {
                ctx.error_in(
                    Code::UnknownBlock,
                    kind,
                    nested.kind.span,
                    format!("a contract cannot hold a `{kind}` block"),
                )
                .hint("a contract holds `source`, `route` and `decision` blocks");
                None
            }
        };
        ok &= read.is_some();
        ctx.leave(inner);
    }
    if ok
        && !routes
            .iter()
            .any(|r: &ContractRoute| !r.expectations.is_empty())
    {
        ctx.error(
            Code::EmptyContract,
            header(block),
            "the contract holds no expectation",
        )
        .hint("add `route \"/path\" { element \"id\" { role = \"button\" name = \"Pay\" } }`");
        ok = false;
    }
    if ok {
        ok = references(ctx, block, &sources, &routes);
    }
    ctx.leave(mark);
    if !ok {
        return None;
    }
    Some(Contract {
        id: id?.to_string(),
        candidates_sha256: candidates_sha256?,
        rejected: rejected?,
        sources,
        routes,
        decisions,
    })
}

fn source<'a>(ctx: &mut Ctx, block: &'a Block, ids: &mut IdSet<'a>) -> Option<ContractSource> {
    let id = required_label(ctx, block);
    let unique = match &block.label {
        Some(label) if id.is_some() => ids.insert(ctx, "source", label),
        _ => true,
    };
    let f = Fields::collect_leaf(ctx, block, SOURCE_SCHEMA);
    let path = f.required(ctx, "path").and_then(|a| non_empty(ctx, a));
    let digest = f.required(ctx, "sha256").and_then(|a| sha256(ctx, a));
    unique.then_some(())?;
    Some(ContractSource {
        id: id?.to_string(),
        path: path?.to_string(),
        sha256: digest?.to_string(),
    })
}

fn route<'a>(
    ctx: &mut Ctx,
    block: &'a Block,
    paths: &mut IdSet<'a>,
    ids: &mut IdSet<'a>,
) -> Option<ContractRoute> {
    let path = match &block.label {
        Some(label)
            if label.value.starts_with('/') && !label.value.chars().any(char::is_whitespace) =>
        {
            paths
                .insert(ctx, "route", label)
                .then(|| label.value.clone())
        }
        Some(label) => {
            ctx.error(
                Code::InvalidValue,
                label.span,
                format!("route \"{}\" is not a path", label.value),
            )
            .hint("write the page's path, e.g. `route \"/checkout\" { … }`");
            None
        }
        None => {
            ctx.error(
                Code::MissingLabel,
                header(block),
                "`route` needs its path as a label",
            )
            .hint("write `route \"/checkout\" { … }`");
            None
        }
    };
    Fields::collect(ctx, block, ROUTE_SCHEMA);
    let mut expectations = Some(Vec::new());
    for item in &block.items {
        let Item::Block(nested) = item else { continue };
        let mark = ctx.enter_block(nested);
        let read = if ROUTE_BLOCKS.contains(&nested.kind.name.as_str()) {
            expectation(ctx, nested, ids)
        } else {
            let kind = &nested.kind.name;
            ctx.error_in(
                Code::UnknownBlock,
                kind,
                nested.kind.span,
                format!("a route cannot hold a `{kind}` block"),
            )
            .hint("a route holds `element`, `text` and `layout` blocks");
            None
        };
        match (read, &mut expectations) {
            (Some(e), Some(list)) => list.push(e),
            _ => expectations = None,
        }
        ctx.leave(mark);
    }
    Some(ContractRoute {
        path: path?,
        expectations: expectations?,
    })
}

fn expectation<'a>(
    ctx: &mut Ctx,
    block: &'a Block,
    ids: &mut IdSet<'a>,
) -> Option<ContractExpectation> {
    let id = required_label(ctx, block);
    let unique = match &block.label {
        Some(label) if id.is_some() => ids.insert(ctx, "expectation", label),
        _ => true,
    };
    let (schema, kind): (&'static [&'static str], _) = match block.kind.name.as_str() {
        "element" => (ELEMENT_SCHEMA, 0),
        "text" => (TEXT_SCHEMA, 1),
        _ => (LAYOUT_SCHEMA, 2),
    };
    let f = Fields::collect_leaf(ctx, block, schema);
    let read = match kind {
        0 => {
            let role = f.required(ctx, "role").and_then(|a| role(ctx, a));
            let name = f.required(ctx, "name").and_then(|a| non_empty(ctx, a));
            let state = match f.get("state") {
                Some(a) => keyword(ctx, a, STATES, ContractState::from_name).map(Some),
                None => Some(None),
            };
            (|| {
                Some(ExpectationKind::Element {
                    role: role?.to_string(),
                    name: name?.to_string(),
                    state: state?,
                })
            })()
        }
        1 => f
            .required(ctx, "text")
            .and_then(|a| non_empty(ctx, a))
            .map(|t| ExpectationKind::Text {
                text: t.to_string(),
            }),
        _ => {
            let subject = f.required(ctx, "subject").and_then(|a| non_empty(ctx, a));
            let relation = f
                .required(ctx, "relation")
                .and_then(|a| keyword(ctx, a, RELATIONS, ContractRelation::from_name));
            let object = f.required(ctx, "object").and_then(|a| non_empty(ctx, a));
            (|| {
                Some(ExpectationKind::Layout {
                    subject: subject?.to_string(),
                    relation: relation?,
                    object: object?.to_string(),
                })
            })()
        }
    };
    let evidence = match f.get("evidence") {
        Some(a) => string_list(ctx, a).map(|l| l.into_iter().map(str::to_string).collect()),
        None => Some(Vec::new()),
    };
    unique.then_some(())?;
    Some(ContractExpectation {
        id: id?.to_string(),
        kind: read?,
        evidence: evidence?,
    })
}

fn decision<'a>(ctx: &mut Ctx, block: &'a Block, ids: &mut IdSet<'a>) -> Option<ContractDecision> {
    let id = required_label(ctx, block);
    let unique = match &block.label {
        Some(label) if id.is_some() => ids.insert(ctx, "decision", label),
        _ => true,
    };
    let f = Fields::collect_leaf(ctx, block, DECISION_SCHEMA);
    let chosen = f.required(ctx, "chosen").and_then(|a| non_empty(ctx, a));
    let over = match f.get("over") {
        Some(a) => string_list(ctx, a),
        None => Some(Vec::new()),
    };
    let rationale = f.required(ctx, "rationale").and_then(|a| non_empty(ctx, a));
    unique.then_some(())?;
    Some(ContractDecision {
        conflict: id?.to_string(),
        chosen: chosen?.to_string(),
        over: over?.into_iter().map(str::to_string).collect(),
        rationale: rationale?.to_string(),
    })
}

/// Layout ends name elements of their own route; evidence cites declared sources.
fn references(
    ctx: &mut Ctx,
    block: &Block,
    sources: &[ContractSource],
    routes: &[ContractRoute],
) -> bool {
    let mut ok = true;
    for route in routes {
        let element = |id: &str| {
            route
                .expectations
                .iter()
                .any(|e| e.id == id && matches!(e.kind, ExpectationKind::Element { .. }))
        };
        for e in &route.expectations {
            if let ExpectationKind::Layout {
                subject, object, ..
            } = &e.kind
            {
                for end in [subject, object] {
                    if !element(end) || subject == object {
                        ctx.error(
                            Code::InvalidValue,
                            attribute_span(block, &e.id, if end == subject { "subject" } else { "object" }),
                            format!("layout \"{}\" names \"{end}\", which is no other element of route \"{}\"", e.id, route.path),
                        )
                        .hint("name two different `element` blocks of the same route");
                        ok = false;
                    }
                }
            }
            for cited in &e.evidence {
                let source = cited.split([':', '@']).next().unwrap_or("");
                if !evidence_form(cited) || !sources.iter().any(|s| s.id == source) {
                    ctx.error(
                        Code::InvalidValue,
                        attribute_span(block, &e.id, "evidence"),
                        format!("evidence \"{cited}\" of \"{}\" is not `SOURCE:START..END` or `SOURCE@X,Y,WxH` of a declared source", e.id),
                    )
                    .hint("declare `source \"id\" { path sha256 }` and cite it by id");
                    ok = false;
                }
            }
        }
    }
    ok
}

/// `s1:10..20` or `s1@0,0,10x20`.
fn evidence_form(text: &str) -> bool {
    let number = |s: &str| !s.is_empty() && s.len() <= 10 && s.bytes().all(|b| b.is_ascii_digit());
    if let Some((_, span)) = text.split_once(':') {
        return span
            .split_once("..")
            .is_some_and(|(a, b)| number(a) && number(b));
    }
    if let Some((_, region)) = text.split_once('@') {
        let parts: Vec<&str> = region.split(',').collect();
        return matches!(parts.as_slice(), [x, y, size] if number(x) && number(y)
            && size.split_once('x').is_some_and(|(w, h)| number(w) && number(h)));
    }
    false
}

/// The span of attribute `name` of the expectation labelled `id` (the contract's header when
/// it cannot be found).
fn attribute_span(block: &Block, id: &str, name: &str) -> crate::span::Span {
    for item in &block.items {
        let Item::Block(route) = item else { continue };
        for inner in &route.items {
            let Item::Block(e) = inner else { continue };
            if e.label.as_ref().is_some_and(|l| l.value == id) {
                for a in &e.items {
                    if let Item::Attribute(a) = a {
                        if a.name.name == name {
                            return a.value.span;
                        }
                    }
                }
                return header(e);
            }
        }
    }
    header(block)
}

fn role<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let text = non_empty(ctx, attr)?;
    if text.bytes().all(|b| b.is_ascii_lowercase()) && text.len() <= 64 {
        return Some(text);
    }
    ctx.error_in(
        Code::InvalidValue,
        "role",
        attr.value.span,
        format!("role \"{text}\" is not an ARIA role"),
    )
    .hint("write a lowercase ARIA role, e.g. \"button\", \"link\", \"heading\"");
    None
}

fn sha256<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let text = non_empty(ctx, attr)?;
    if text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Some(text);
    }
    let name = attr.name.name.clone();
    ctx.error_in(
        Code::InvalidValue,
        &name,
        attr.value.span,
        format!("`{name}` is not a SHA-256 digest"),
    )
    .hint("write 64 lowercase hexadecimal digits");
    None
}
