//! `network_route` and `network_unroute`.
//!
//! A route answers matching requests in exactly one way: `body = "…"` (fulfil, with optional
//! `status`, default 200, and `content_type`) or `abort = true`. Neither, both, or a fulfilment
//! detail on an aborted route is `test.spec.route_response`. `abort = false` is the same as leaving
//! `abort` out.

use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::values::{boolean, non_empty, optional, string, u32_in};
use crate::code::Code;
use crate::ir::RouteResponse;

/// Attributes of `network_route`.
pub(super) const ROUTE_SCHEMA: &[&str] = &["pattern", "body", "abort", "status", "content_type"];
/// Attributes of `network_unroute`.
pub(super) const UNROUTE_SCHEMA: &[&str] = &["pattern"];

/// Default status of a fulfilled route.
pub(super) const DEFAULT_STATUS: u16 = 200;

/// `network_route { pattern = … body = … | abort = true }`: the pattern and the response.
pub(super) fn route(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<(String, RouteResponse)> {
    let pattern = fields
        .required(ctx, "pattern")
        .and_then(|a| non_empty(ctx, a));
    let body_attr = fields.get("body");
    let body = body_attr.map(|a| string(ctx, a));
    let abort_attr = fields.get("abort");
    let abort = abort_attr.map(|a| boolean(ctx, a));
    let status = fields.get("status").map(|a| u32_in(ctx, a, 100, 599));
    let content_type = fields.get("content_type").map(|a| non_empty(ctx, a));
    let aborts = matches!(abort, Some(Some(true)));
    let kind_unreadable = matches!(abort, Some(None));

    let response = match (body_attr, aborts) {
        (Some(body_attr), true) => {
            let abort_attr = abort_attr.expect("abort is set when it is true");
            ctx.error_in(
                Code::RouteResponse,
                "abort",
                abort_attr.name.span,
                "`network_route` has both `body` and `abort = true`",
            )
            .also(body_attr.name.span, "body given here")
            .hint("keep `body` to answer the request, or `abort = true` to fail it — not both");
            None
        }
        (None, false) => {
            if !kind_unreadable {
                ctx.error(Code::RouteResponse, header(fields.block()), "`network_route` has neither `body` nor `abort = true`")
                    .hint("add `body = \"…\"` to answer matching requests, or `abort = true` to fail them");
            }
            None
        }
        (None, true) => {
            let mut plain = true;
            for detail in ["status", "content_type"] {
                if let Some(attr) = fields.get(detail) {
                    plain = false;
                    ctx.error_in(Code::RouteResponse, detail, attr.name.span, format!("`{detail}` has no effect on an aborted request"))
                        .hint(format!("remove `{detail}`, or answer with `body = \"…\"` instead of `abort = true`"));
                }
            }
            plain.then_some(RouteResponse::Abort)
        }
        (Some(_), false) => {
            let status = match status {
                Some(s) => s.and_then(|s| u16::try_from(s).ok()),
                None => Some(DEFAULT_STATUS),
            };
            let content_type = optional(content_type);
            match (body.flatten(), status, content_type) {
                (Some(body), Some(status), Some(content_type)) => Some(RouteResponse::Fulfill {
                    body: body.to_string(),
                    status,
                    content_type: content_type.map(str::to_string),
                }),
                _ => None,
            }
        }
    };
    Some((pattern?.to_string(), response?))
}

/// `network_unroute { pattern = … }`: `None` removes every route.
pub(super) fn unroute(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Option<String>> {
    match fields.get("pattern") {
        Some(attr) => non_empty(ctx, attr).map(|p| Some(p.to_string())),
        None => Some(None),
    }
}
