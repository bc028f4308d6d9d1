//! The project file's `provider "name" { kind endpoint model authorization_env timeout_ms
//! max_cost_microusd max_input_units max_output_units }` blocks: the advisory model providers a deployment plugs in
//! (`docs/providers.md`, `docs/acl.md` §11).
//!
//! Why these rules at admission: the project file is committed and shared, so it may hold no
//! secret (the `Authorization` value is named by an environment variable, whose name must start
//! with `A3S_TEST_PROVIDER_AUTHORIZATION_` so a file cannot send an unrelated secret of the
//! environment to a provider), and an `http://` endpoint is admitted only for explicit loopback
//! (`127.0.0.0/8`, `::1`, `localhost`): anything else must be HTTPS. The transport
//! (`a3s-test-provider`) checks the same rules again before it connects.

use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::ids::{required_label, IdSet};
use super::values::{keyword, non_empty, optional, u64_in};
use crate::ast::{Attribute, Block};
use crate::code::Code;
use crate::ir::{
    ProviderConfig, ProviderKind, DEFAULT_PROVIDER_TIMEOUT_MS, PROVIDER_AUTHORIZATION_ENV_PREFIX,
};

pub(super) const PROVIDER_SCHEMA: &[&str] = &[
    "kind",
    "endpoint",
    "model",
    "authorization_env",
    "timeout_ms",
    "max_cost_microusd",
    "max_input_units",
    "max_output_units",
];

/// Longest deadline of one provider call: ten minutes.
const MAX_PROVIDER_TIMEOUT_MS: u64 = 600_000;

/// Largest per-call budget: 1,000 US dollars, in millionths.
const MAX_COST_MICROUSD: u64 = 1_000_000_000;

/// Largest usage budget of one call, in the provider's own units (tokens, images).
const MAX_USAGE_UNITS: u64 = 1_000_000_000_000;

/// Check one `provider "name" { … }` (path entered); `names` refuses a label used twice.
pub(super) fn provider<'a>(
    ctx: &mut Ctx,
    block: &'a Block,
    names: &mut IdSet<'a>,
) -> Option<ProviderConfig> {
    let name = required_label(ctx, block);
    let unique = match &block.label {
        Some(label) if name.is_some() => names.insert(ctx, "provider", label),
        _ => true,
    };
    let f = Fields::collect_leaf(ctx, block, PROVIDER_SCHEMA);
    let kind_names = ProviderKind::NAMES.map(|(n, _)| n);
    let kind = f
        .required(ctx, "kind")
        .and_then(|a| keyword(ctx, a, &kind_names, ProviderKind::from_name));
    let endpoint = f.required(ctx, "endpoint").and_then(|a| endpoint(ctx, a));
    let model = f.required(ctx, "model").and_then(|a| non_empty(ctx, a));
    let authorization_env = optional(
        f.get("authorization_env")
            .map(|a| authorization_env(ctx, a)),
    );
    let timeout = optional(
        f.get("timeout_ms")
            .map(|a| u64_in(ctx, a, 1, MAX_PROVIDER_TIMEOUT_MS)),
    );
    let cost = f
        .required(ctx, "max_cost_microusd")
        .and_then(|a| u64_in(ctx, a, 0, MAX_COST_MICROUSD));
    let usage = |ctx: &mut Ctx, name: &str| {
        optional(f.get(name).map(|a| u64_in(ctx, a, 0, MAX_USAGE_UNITS)))
    };
    let max_input_units = usage(ctx, "max_input_units");
    let max_output_units = usage(ctx, "max_output_units");
    if !unique {
        return None;
    }
    Some(ProviderConfig {
        name: name?.to_string(),
        kind: kind?,
        endpoint: endpoint?.to_string(),
        model: model?.to_string(),
        authorization_env: authorization_env?.map(str::to_string),
        timeout_ms: timeout?.unwrap_or(DEFAULT_PROVIDER_TIMEOUT_MS),
        max_cost_microusd: cost?,
        max_input_units: max_input_units?,
        max_output_units: max_output_units?,
    })
}

/// `https://host…`, or `http://` to explicit loopback; never a user or password.
fn endpoint<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let text = non_empty(ctx, attr)?;
    match endpoint_problem(text) {
        None => Some(text),
        Some((message, hint)) => {
            ctx.error_in(Code::InvalidValue, "endpoint", attr.value.span, message)
                .hint(hint);
            None
        }
    }
}

/// Why `text` is not an admissible provider endpoint: `(message, hint)`.
pub(super) fn endpoint_problem(text: &str) -> Option<(String, String)> {
    let (scheme, rest) =
        match text.split_once("://") {
            Some((s, r)) => (s.to_ascii_lowercase(), r),
            None => return Some((
                format!("the endpoint \"{text}\" is not an absolute URL"),
                "write `https://host/path`, or `http://127.0.0.1:PORT/path` for a local provider"
                    .into(),
            )),
        };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Some((
            "the endpoint holds a user or password, and the project file is shared".into(),
            "put the credential in the variable `authorization_env` names".into(),
        ));
    }
    if authority.is_empty() {
        return Some((
            format!("the endpoint \"{text}\" names no host"),
            "write `https://host/path`".into(),
        ));
    }
    match scheme.as_str() {
        "https" => None,
        "http" if is_loopback_authority(authority) => None,
        "http" => Some((
            format!("`http://` is only for a provider on this machine, and \"{authority}\" is not a loopback address"),
            "use `https://`, or `http://127.0.0.1:PORT` (or `[::1]`, `localhost`) for a local provider".into(),
        )),
        other => Some((
            format!("the endpoint's scheme `{other}` is neither `https` nor `http`"),
            "write `https://host/path`".into(),
        )),
    }
}

/// True for `127.0.0.0/8`, `[::1]` and `localhost`, with or without a port.
pub(super) fn is_loopback_authority(authority: &str) -> bool {
    let host = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((ip, _)) => {
                return ip
                    .parse::<std::net::Ipv6Addr>()
                    .is_ok_and(|ip| ip.is_loopback())
            }
            None => return false,
        }
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// An environment variable name under [`PROVIDER_AUTHORIZATION_ENV_PREFIX`].
fn authorization_env<'a>(ctx: &mut Ctx, attr: &'a Attribute) -> Option<&'a str> {
    let name = non_empty(ctx, attr)?;
    let suffix = name.strip_prefix(PROVIDER_AUTHORIZATION_ENV_PREFIX);
    let well_formed = suffix.is_some_and(|s| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    });
    if !well_formed {
        ctx.error_in(
            Code::InvalidValue,
            "authorization_env",
            attr.value.span,
            format!("`authorization_env` must name a variable `{PROVIDER_AUTHORIZATION_ENV_PREFIX}NAME` (capitals, digits, `_`), found \"{name}\""),
        )
        .hint(format!("export the value as `{PROVIDER_AUTHORIZATION_ENV_PREFIX}<PROVIDER>` and name that variable"));
        return None;
    }
    Some(name)
}
