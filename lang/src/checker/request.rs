//! `request { method url headers body status json_path equals }`: an API check.
//!
//! `url` is required (absolute http(s), or a path relative to `base_url`); `method` is an HTTP
//! method name (default `GET`); `headers` as a route's (values may be `env("NAME")`); `status`
//! 100–599; `json_path` (see [`crate::ir::JsonPath`]) and `equals` (a string, integer, boolean or
//! `null`) come together — one without the other is `test.spec.missing_attribute`.

use super::browser_context::headers;
use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::values::{non_empty, optional, string, type_error, u32_in};
use crate::ast::{Attribute, ValueKind};
use crate::code::Code;
use crate::ir::{Action, ApiRequest, HarNotFound, HarReplay, JsonCheck, JsonPath, JsonScalar};

/// Attributes of `request`.
pub(super) const SCHEMA: &[&str] = &[
    "method",
    "url",
    "headers",
    "body",
    "status",
    "json_path",
    "equals",
];

/// Attributes of `route_from_har`.
pub(super) const HAR_SCHEMA: &[&str] = &["path", "not_found"];

/// `route_from_har { path = "recorded/cart.har" not_found = "abort" | "fallback" }`.
pub(super) fn route_from_har(ctx: &mut Ctx, f: &Fields<'_>) -> Option<Action> {
    let path = f.required(ctx, "path").and_then(|a| {
        let path = non_empty(ctx, a)?;
        match super::evidence::path_problem(path) {
            None => Some(path.to_string()),
            Some(problem) => {
                ctx.error_in(
                    Code::InvalidValue,
                    "path",
                    a.value.span,
                    format!("HAR path \"{path}\" {problem}"),
                )
                .hint("give a path relative to the working directory, without `..`");
                None
            }
        }
    });
    let not_found = match f.get("not_found") {
        Some(a) => super::values::keyword(ctx, a, HarNotFound::KEYWORDS, |s| match s {
            "abort" => Some(HarNotFound::Abort),
            "fallback" => Some(HarNotFound::Fallback),
            _ => None,
        }),
        None => Some(HarNotFound::Abort),
    };
    Some(Action::RouteFromHar {
        replay: HarReplay {
            path: path?,
            not_found: not_found?,
        },
    })
}

/// `request { … }`.
pub(super) fn request(ctx: &mut Ctx, f: &Fields<'_>) -> Option<Action> {
    let url = f.required(ctx, "url").and_then(|a| url(ctx, a));
    let method = match f.get("method") {
        Some(a) => super::network::method(ctx, a),
        None => Some("GET".to_string()),
    };
    let headers = match f.get("headers") {
        Some(a) => headers(ctx, a),
        None => Some(Vec::new()),
    };
    let body = optional(f.get("body").map(|a| string(ctx, a)));
    let status = optional(
        f.get("status")
            .map(|a| u32_in(ctx, a, 100, 599).and_then(|s| u16::try_from(s).ok())),
    );
    let json = json_check(ctx, f);
    Some(Action::Request {
        request: ApiRequest {
            method: method?,
            url: url?.to_string(),
            headers: headers?,
            body: body?.map(str::to_string),
            status: status?,
            json: json?,
        },
    })
}

/// An absolute http(s) URL, or a path (`/api/me`) resolved against `base_url` when the step runs.
fn url<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let url = non_empty(ctx, attr)?;
    if url.starts_with("http://") || url.starts_with("https://") || url.starts_with('/') {
        return Some(url);
    }
    ctx.error_in(
        Code::InvalidValue,
        "url",
        attr.value.span,
        format!("\"{url}\" is neither an absolute http(s) URL nor a path"),
    )
    .hint("write a path such as \"/api/me\" (resolved against `base_url`) or a whole http(s) URL");
    None
}

/// `json_path` and `equals`, both or neither.
fn json_check(ctx: &mut Ctx, f: &Fields<'_>) -> Option<Option<JsonCheck>> {
    let path_attr = f.get("json_path");
    let equals_attr = f.get("equals");
    match (path_attr, equals_attr) {
        (None, None) => Some(None),
        (Some(_), None) => {
            f.report_missing(
                ctx,
                "equals",
                "`json_path` needs `equals`: the value it must hold".to_string(),
                "add `equals = \"…\"` (a string, integer, `true`, `false` or `null`)".to_string(),
            );
            None
        }
        (None, Some(_)) => {
            f.report_missing(
                ctx,
                "json_path",
                "`equals` needs `json_path`: where the value is".to_string(),
                "add `json_path = \"$.user.name\"`".to_string(),
            );
            None
        }
        (Some(p), Some(e)) => {
            let path = json_path(ctx, p);
            let equals = scalar(ctx, e);
            Some(Some(JsonCheck {
                json_path: path?,
                equals: equals?,
            }))
        }
    }
}

fn json_path(ctx: &mut Ctx, attr: &Attribute) -> Option<JsonPath> {
    let text = string(ctx, attr)?;
    match JsonPath::parse(text) {
        Ok(path) => Some(path),
        Err(e) => {
            ctx.error_in(
                Code::InvalidValue,
                "json_path",
                attr.value.span,
                format!("\"{text}\" is not a JSON path: {e}"),
            )
            .hint(
                "write `$` then `.name`, `[0]` or `[\"any key\"]` steps, e.g. \"$.items[0].name\"",
            );
            None
        }
    }
}

fn scalar(ctx: &mut Ctx, attr: &Attribute) -> Option<JsonScalar> {
    match &attr.value.kind {
        ValueKind::String(s) => Some(JsonScalar::String(s.clone())),
        ValueKind::Integer(i) => Some(JsonScalar::Integer(*i)),
        ValueKind::Bool(b) => Some(JsonScalar::Bool(*b)),
        ValueKind::Null => Some(JsonScalar::Null),
        _ => {
            if let Some(d) = type_error(
                ctx,
                "equals",
                &attr.value,
                "a string, integer, boolean or null",
            ) {
                d.hint("compare one JSON value: `equals = \"Ada\"`, `equals = 3`, `equals = true` or `equals = null`");
            }
            None
        }
    }
}
