//! The project file's `grid { url sessions capabilities queue_timeout_ms }` block: the Selenium
//! Grid 4 a `run` spreads its web scenarios over when neither `--grid` nor `A3S_TEST_GRID` names
//! one (`docs/scale.md`, `docs/acl.md` §11).
//!
//! Why the URL may not carry credentials here: the project file is committed with the suites, and
//! a password in it would be read by everyone who reads them. A Grid behind a login is named by
//! `--grid` or `A3S_TEST_GRID`, whose value never reaches a report. The capabilities are the
//! Grid's own vocabulary (`se:name`, `platformName`, `goog:chromeOptions` …), passed on as JSON
//! the tool does not interpret, so they are kept as JSON from admission on.

use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::urls::{url, UrlRule};
use super::values::{optional, u64_in};
use crate::ast::{Attribute, Block, Value, ValueKind};
use crate::code::Code;
use crate::ir::{GridConfig, MAX_GRID_SESSIONS};

pub(super) const GRID_SCHEMA: &[&str] = &["url", "sessions", "capabilities", "queue_timeout_ms"];

/// Longest queue wait a project may ask for: one hour, as `--grid-queue-timeout-ms`.
const MAX_QUEUE_TIMEOUT_MS: u64 = 3_600_000;

/// Check `grid { … }` (path entered, label already refused).
pub(super) fn grid(ctx: &mut Ctx, block: &Block) -> Option<GridConfig> {
    let f = Fields::collect_leaf(ctx, block, GRID_SCHEMA);
    let address = f.required(ctx, "url").and_then(|a| grid_url(ctx, a));
    let sessions = f
        .get("sessions")
        .map(|a| u64_in(ctx, a, 1, u64::from(MAX_GRID_SESSIONS)));
    let queue = f
        .get("queue_timeout_ms")
        .map(|a| u64_in(ctx, a, 1, MAX_QUEUE_TIMEOUT_MS));
    let capabilities = match f.get("capabilities") {
        None => Some(serde_json::Map::new()),
        Some(attr) => match &attr.value.kind {
            ValueKind::Object(entries) => object(ctx, entries),
            other => {
                ctx.error_in(
                    Code::Type,
                    "capabilities",
                    attr.value.span,
                    format!(
                        "`capabilities` must be an object, found {}",
                        other.describe()
                    ),
                )
                .hint("write `capabilities = { \"se:name\" = \"ci\" }`");
                None
            }
        },
    };
    Some(GridConfig {
        url: address?.to_string(),
        sessions: optional(sessions)?.map(|n| n as u16),
        capabilities: capabilities?,
        queue_timeout_ms: optional(queue)?,
    })
}

/// An `http(s)` address without a user or password in it.
fn grid_url<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let text = url(ctx, attr, UrlRule::Server)?;
    let authority = text
        .split_once("://")
        .map(|(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or(""))
        .unwrap_or("");
    if authority.contains('@') {
        ctx.error_in(
            Code::InvalidValue,
            "url",
            attr.value.span,
            "the Grid address holds a user or password, and the project file is shared",
        )
        .hint("name a Grid behind a login with `--grid` or `A3S_TEST_GRID` instead");
        return None;
    }
    Some(text)
}

/// An ACL object as a JSON object, every entry checked (all errors reported).
fn object(
    ctx: &mut Ctx,
    entries: &[Attribute],
) -> Option<serde_json::Map<String, serde_json::Value>> {
    let mut map = Some(serde_json::Map::new());
    for entry in entries {
        match (json(ctx, &entry.value), &mut map) {
            (Some(v), Some(m)) => {
                m.insert(entry.name.name.clone(), v);
            }
            _ => map = None,
        }
    }
    map
}

/// An ACL value as JSON: strings, numbers, booleans, `null`, lists and objects; anything else
/// (a target call, a regular expression) is a type error at its span.
fn json(ctx: &mut Ctx, value: &Value) -> Option<serde_json::Value> {
    use serde_json::Value as J;
    Some(match &value.kind {
        ValueKind::String(s) => J::String(s.clone()),
        ValueKind::Integer(i) => J::from(*i),
        ValueKind::Float(x) => serde_json::Number::from_f64(*x).map(J::Number)?,
        ValueKind::Bool(b) => J::Bool(*b),
        ValueKind::Null => J::Null,
        ValueKind::List(items) => {
            let mut out = Some(Vec::with_capacity(items.len()));
            for item in items {
                match (json(ctx, item), &mut out) {
                    (Some(v), Some(list)) => list.push(v),
                    _ => out = None,
                }
            }
            J::Array(out?)
        }
        ValueKind::Object(entries) => J::Object(object(ctx, entries)?),
        ValueKind::Error => return None,
        other => {
            ctx.error_in(
                Code::Type,
                "capabilities",
                value.span,
                format!("a capability must be JSON data, found {}", other.describe()),
            )
            .hint("use strings, numbers, booleans, null, lists and objects");
            return None;
        }
    })
}
