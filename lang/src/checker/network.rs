//! `network_route` and `network_unroute`.
//!
//! A route answers matching requests in exactly one way: `body = "…"` (fulfil, with optional
//! `status`, default 200, `content_type` and response `headers`), `abort = true`, or
//! `continue = true` (on to the network, with optional `url`, `method`, request `headers` and
//! `post_data` replaced). None, more than one, or an attribute of another way is
//! `test.spec.route_response`; `abort = false` and `continue = false` are the same as leaving them
//! out. `pattern` is a glob string or a regular expression (`/…/flags`), compiled here with the
//! engine the driver matches with, so a pattern it cannot use is refused at its span.

use super::browser_context::headers;
use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::values::{boolean, non_empty, optional, string, type_error, u32_in};
use crate::ast::{Attribute, ValueKind};
use crate::code::Code;
use crate::ir::{ContinueOverrides, HttpHeader, RouteResponse, UrlPattern};

/// Attributes of `network_route`.
pub(super) const ROUTE_SCHEMA: &[&str] = &[
    "pattern",
    "body",
    "abort",
    "continue",
    "status",
    "content_type",
    "headers",
    "url",
    "method",
    "post_data",
    "times",
];
/// Attributes of `network_unroute`.
pub(super) const UNROUTE_SCHEMA: &[&str] = &["pattern"];

/// Default status of a fulfilled route.
pub(super) const DEFAULT_STATUS: u16 = 200;

/// Most requests one route may be limited to (`times`).
const MAX_TIMES: u32 = 1_000_000;

/// Flags a URL regular expression takes (as a locator's).
const URL_REGEX_FLAGS: &[char] = &['i', 'm', 's', 'u'];

/// The three ways a route answers, and the attributes that belong to each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Fulfil,
    Abort,
    Continue,
}

impl Way {
    /// The attribute that chooses this way, as written.
    fn chooser(self) -> &'static str {
        match self {
            Way::Fulfil => "body",
            Way::Abort => "abort = true",
            Way::Continue => "continue = true",
        }
    }

    /// The optional attributes this way reads.
    fn details(self) -> &'static [&'static str] {
        match self {
            Way::Fulfil => &["status", "content_type", "headers"],
            Way::Abort => &[],
            Way::Continue => &["url", "method", "headers", "post_data"],
        }
    }
}

/// Every optional attribute of some way.
const DETAILS: &[&str] = &[
    "status",
    "content_type",
    "headers",
    "url",
    "method",
    "post_data",
];

/// The admitted parts of one `network_route`.
pub(super) struct Route {
    /// Which requests.
    pub pattern: UrlPattern,
    /// How they are answered.
    pub response: RouteResponse,
    /// How many of them, when limited.
    pub times: Option<u32>,
}

/// `network_route { pattern = … body = … | abort = true | continue = true … times = N }`.
pub(super) fn route(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Route> {
    let pattern = fields
        .required(ctx, "pattern")
        .and_then(|a| url_pattern(ctx, a));
    let times = optional(fields.get("times").map(|a| u32_in(ctx, a, 1, MAX_TIMES)));
    let response = response(ctx, fields);
    Some(Route {
        pattern: pattern?,
        response: response?,
        times: times?,
    })
}

/// The way chosen, checked against the attributes given, then read.
fn response(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<RouteResponse> {
    let mut chosen: Vec<(Way, &Attribute)> = Vec::new();
    let mut unreadable = false;
    if let Some(body) = fields.get("body") {
        chosen.push((Way::Fulfil, body));
    }
    for (name, way) in [("abort", Way::Abort), ("continue", Way::Continue)] {
        if let Some(attr) = fields.get(name) {
            match boolean(ctx, attr) {
                Some(true) => chosen.push((way, attr)),
                Some(false) => {}
                None => unreadable = true,
            }
        }
    }
    let way = match chosen.as_slice() {
        [] => {
            if !unreadable {
                ctx.error(
                    Code::RouteResponse,
                    header(fields.block()),
                    "`network_route` has none of `body`, `abort = true` and `continue = true`",
                )
                .hint("add `body = \"…\"` to answer matching requests, `abort = true` to fail them, or `continue = true` to send them on");
            }
            return None;
        }
        [(way, _)] => *way,
        [(first, first_attr), (second, second_attr), ..] => {
            ctx.error_in(
                Code::RouteResponse,
                &second_attr.name.name,
                second_attr.name.span,
                format!(
                    "`network_route` has both `{}` and `{}`",
                    first.chooser(),
                    second.chooser()
                ),
            )
            .also(first_attr.name.span, format!("`{}` given here", first.chooser()))
            .hint("a route answers in one way: keep one of `body`, `abort = true` and `continue = true`");
            return None;
        }
    };
    let mut plain = true;
    for detail in DETAILS {
        if way.details().contains(detail) {
            continue;
        }
        if let Some(attr) = fields.get(detail) {
            plain = false;
            let owners: Vec<&str> = [Way::Fulfil, Way::Continue]
                .into_iter()
                .filter(|w| w.details().contains(detail))
                .map(Way::chooser)
                .map(|c| c.trim_end_matches(" = true"))
                .collect();
            ctx.error_in(
                Code::RouteResponse,
                detail,
                attr.name.span,
                format!(
                    "`{detail}` has no effect on a route with `{}`",
                    way.chooser()
                ),
            )
            .hint(format!(
                "remove `{detail}`; it belongs to a route with `{}`",
                owners.join("` or `")
            ));
        }
    }
    let response = match way {
        Way::Abort => Some(RouteResponse::Abort),
        Way::Fulfil => fulfil(ctx, fields),
        Way::Continue => continued(ctx, fields).map(RouteResponse::Continue),
    };
    response.filter(|_| plain)
}

/// `body`, `status`, `content_type`, `headers`.
fn fulfil(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<RouteResponse> {
    let body = fields.get("body").and_then(|a| string(ctx, a));
    let status = match fields.get("status").map(|a| u32_in(ctx, a, 100, 599)) {
        Some(s) => s.and_then(|s| u16::try_from(s).ok()),
        None => Some(DEFAULT_STATUS),
    };
    let content_type = optional(fields.get("content_type").map(|a| non_empty(ctx, a)));
    let headers = header_list(ctx, fields);
    Some(RouteResponse::Fulfill {
        body: body?.to_string(),
        status: status?,
        content_type: content_type?.map(str::to_string),
        headers: headers?,
    })
}

/// `url`, `method`, `headers`, `post_data` of `continue = true`.
fn continued(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<ContinueOverrides> {
    let url = optional(fields.get("url").map(|a| absolute_url(ctx, a)));
    let method = optional(fields.get("method").map(|a| method(ctx, a)));
    let headers = header_list(ctx, fields);
    let post_data = optional(fields.get("post_data").map(|a| string(ctx, a)));
    Some(ContinueOverrides {
        url: url?.map(str::to_string),
        method: method?,
        headers: headers?,
        post_data: post_data?.map(str::to_string),
    })
}

fn header_list(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Vec<HttpHeader>> {
    match fields.get("headers") {
        Some(attr) => headers(ctx, attr),
        None => Some(Vec::new()),
    }
}

/// `url = "http://…"`: the request goes elsewhere; Chromium takes only an absolute URL.
fn absolute_url<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let url = non_empty(ctx, attr)?;
    if url.starts_with("http://") || url.starts_with("https://") {
        return Some(url);
    }
    ctx.error_in(
        Code::InvalidValue,
        "url",
        attr.value.span,
        format!("\"{url}\" is not an absolute http(s) URL"),
    )
    .hint(
        "write the whole URL, e.g. \"http://127.0.0.1:4173/api/cart\" (same scheme as the request)",
    );
    None
}

/// `method = "POST"`: an HTTP token, kept in upper case.
pub(super) fn method(ctx: &mut Ctx, attr: &Attribute) -> Option<String> {
    let method = non_empty(ctx, attr)?;
    if method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Some(method.to_ascii_uppercase());
    }
    ctx.error_in(
        Code::InvalidValue,
        "method",
        attr.value.span,
        format!("\"{method}\" is not an HTTP method"),
    )
    .hint("use a method name of letters only, such as \"GET\", \"POST\", \"PUT\", \"PATCH\" or \"DELETE\"");
    None
}

/// `pattern = "**/api/cart"` (a glob) or `pattern = /\/api\/cart(\?.*)?$/` (a regular
/// expression, matched with the Rust `regex` engine the driver uses: JavaScript's syntax without
/// lookaround and backreferences).
pub(super) fn url_pattern(ctx: &mut Ctx, attr: &Attribute) -> Option<UrlPattern> {
    let name = attr.name.name.as_str();
    match &attr.value.kind {
        ValueKind::String(_) => non_empty(ctx, attr).map(|g| UrlPattern::Glob(g.to_string())),
        ValueKind::Regex { pattern, flags } => {
            let mut seen = Vec::new();
            for f in flags.chars() {
                if !URL_REGEX_FLAGS.contains(&f) || seen.contains(&f) {
                    let problem = if seen.contains(&f) {
                        format!("the flag `{f}` is given twice")
                    } else {
                        format!("`{f}` is not a flag a URL pattern takes")
                    };
                    ctx.error_in(
                        Code::InvalidRegex,
                        name,
                        attr.value.span,
                        format!("{problem} in /{pattern}/{flags}"),
                    );
                    return None;
                }
                seen.push(f);
            }
            let source = UrlPattern::regex_source(pattern, flags);
            if let Err(e) = regex::Regex::new(&source) {
                let why = e.to_string();
                let last = why.lines().last().unwrap_or("").trim();
                let last = last.strip_prefix("error: ").unwrap_or(last).to_string();
                ctx.error_in(
                    Code::InvalidRegex,
                    name,
                    attr.value.span,
                    format!("/{pattern}/{flags} is not a URL pattern the driver can match: {last}"),
                )
                .hint("URL patterns use JavaScript's regular expression syntax without lookaround (`(?=`, `(?!`) and backreferences (`\\1`); or write a glob string such as \"**/api/cart\"");
                return None;
            }
            Some(UrlPattern::Regex {
                regex: pattern.clone(),
                flags: flags.clone(),
            })
        }
        _ => {
            if let Some(d) = type_error(
                ctx,
                name,
                &attr.value,
                "a glob string or a regular expression",
            ) {
                d.hint(format!(
                    "write `{name} = \"**/api/cart\"` or `{name} = /\\/api\\/cart$/`"
                ));
            }
            None
        }
    }
}

/// `network_unroute { pattern = … }`: `None` removes every route.
pub(super) fn unroute(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Option<UrlPattern>> {
    match fields.get("pattern") {
        Some(attr) => url_pattern(ctx, attr).map(Some),
        None => Some(None),
    }
}
