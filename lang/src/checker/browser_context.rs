//! Context options (`docs/acl.md` §2.4) on a project, suite or scenario, and the `context` step
//! that changes the emulated ones mid-scenario.
//!
//! Each option is read once into [`ContextSettings`]; what cannot be applied is refused here with
//! its span: a time zone that is not an IANA name (`test.spec.invalid_timezone`, checked against
//! the `chrono-tz` table, the same IANA database Chromium's ICU reads), a device outside the
//! built-in table (`test.spec.unknown_device`, with the nearest name), a clock instant that is not
//! RFC 3339 (`test.spec.invalid_time`). Header values and credentials may read a variable
//! (`env("NAME")`), which the driver resolves when it applies them and never shows.

use super::clock::clock_time;
use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::steps::MAX_VIEWPORT_PX;
use super::text::text_value;
use super::values::{boolean, keyword, list, non_empty, optional, type_error, u32_in, unreadable};
use crate::ast::{Attribute, Value, ValueKind};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::devices::DEVICES;
use crate::ir::{
    Action, ClockInstall, ColorScheme, ContextSettings, ForcedColors, Geolocation, HttpCredentials,
    HttpHeader, Permission, ReducedMotion, Surface, ViewportSize,
};
use std::str::FromStr;

/// What the `context` step may change: the options emulated per page, which Chromium applies
/// to a live page at once. `ignore_https_errors` is not one of them, though Chromium takes it on a
/// live page: like Playwright's `ignoreHTTPSErrors` it is fixed when the context is made, so one
/// value holds for every page and `request` step of the scenario, and turning it off midway
/// cannot reach connections the browser already accepted and keeps open.
pub(super) const CONTEXT_STEP_SCHEMA: &[&str] = &[
    "offline",
    "geolocation",
    "permissions",
    "color_scheme",
    "reduced_motion",
    "forced_colors",
    "extra_http_headers",
];

/// Read every context option present in `fields` (a project, suite or scenario).
pub(super) fn settings(ctx: &mut Ctx, f: &Fields<'_>) -> Option<ContextSettings> {
    let locale = f.get("locale").map(|a| locale(ctx, a));
    let timezone_id = f.get("timezone_id").map(|a| timezone(ctx, a));
    let device = f.get("device").map(|a| device(ctx, a));
    let user_agent = f
        .get("user_agent")
        .map(|a| non_empty(ctx, a).map(str::to_string));
    let viewport = f.get("viewport").map(|a| viewport(ctx, a));
    let credentials = f.get("http_credentials").map(|a| credentials(ctx, a));
    let clock = f.get("clock").map(|a| clock(ctx, a));
    let ignore_https_errors = f.get("ignore_https_errors").map(|a| boolean(ctx, a));
    let emulated = emulated(ctx, f);
    let mut settings = emulated?;
    settings.locale = optional(locale)?;
    settings.timezone_id = optional(timezone_id)?;
    settings.device = optional(device)?;
    settings.user_agent = optional(user_agent)?;
    settings.viewport = optional(viewport)?;
    settings.http_credentials = optional(credentials)?;
    settings.clock = optional(clock)?;
    settings.ignore_https_errors = optional(ignore_https_errors)?;
    Some(settings)
}

/// Refuse the context options written on a terminal or desktop scenario
/// (`test.spec.surface_step`), each at its name: neither has a browser context to apply them to,
/// and an option its driver would ignore must not pass as applied.
pub(super) fn refuse_off_the_web(ctx: &mut Ctx, f: &Fields<'_>, surface: Surface) {
    if surface == Surface::Web {
        return;
    }
    let surface = surface.name();
    for attr in f.present(|name| CONTEXT_OPTIONS.contains(&name)) {
        let name = &attr.name.name;
        ctx.error_in(
            Code::SurfaceStep,
            name,
            attr.name.span,
            format!("`{name}` is a browser context option; this scenario's surface is {surface}"),
        )
        .hint("remove it, or set `surface = \"web\"`");
    }
}

/// The context options a project, suite or scenario may set: the one list their schemas are
/// joined with ([`with_context_options`]).
pub(super) const CONTEXT_OPTIONS: [&str; 15] = [
    "locale",
    "timezone_id",
    "color_scheme",
    "reduced_motion",
    "forced_colors",
    "geolocation",
    "permissions",
    "offline",
    "extra_http_headers",
    "http_credentials",
    "user_agent",
    "viewport",
    "device",
    "clock",
    "ignore_https_errors",
];

/// `own` followed by [`CONTEXT_OPTIONS`], at compile time: the schema of a block that takes the
/// context options (`N` is the sum of both lengths; a wrong `N` fails to compile).
pub(super) const fn with_context_options<const A: usize, const N: usize>(
    own: [&'static str; A],
) -> [&'static str; N] {
    assert!(A + CONTEXT_OPTIONS.len() == N, "N must be A + 15");
    let mut out = [""; N];
    let mut i = 0;
    while i < A {
        out[i] = own[i];
        i += 1;
    }
    let mut j = 0;
    while j < CONTEXT_OPTIONS.len() {
        out[A + j] = CONTEXT_OPTIONS[j];
        j += 1;
    }
    out
}

/// `context "label" { offline = true … }`: at least one emulated option.
pub(super) fn step(ctx: &mut Ctx, f: &Fields<'_>) -> Option<Action> {
    if !CONTEXT_STEP_SCHEMA.iter().any(|name| f.get(name).is_some()) {
        // An attribute outside the schema is reported already; one mistake, one diagnostic.
        let written = f
            .block()
            .items
            .iter()
            .any(|i| matches!(i, crate::ast::Item::Attribute(_)));
        if !written {
            ctx.error(
                Code::MissingAttribute,
                header(f.block()),
                "`context` changes nothing",
            )
            .hint("set at least one of `offline`, `geolocation`, `permissions`, `color_scheme`, `reduced_motion`, `forced_colors`, `extra_http_headers`");
        }
        return None;
    }
    Some(Action::Context {
        settings: Box::new(emulated(ctx, f)?),
    })
}

/// The options both the settings and the `context` step take.
fn emulated(ctx: &mut Ctx, f: &Fields<'_>) -> Option<ContextSettings> {
    let color_scheme = f
        .get("color_scheme")
        .map(|a| keyword(ctx, a, ColorScheme::KEYWORDS, ColorScheme::from_keyword));
    let reduced_motion = f
        .get("reduced_motion")
        .map(|a| keyword(ctx, a, ReducedMotion::KEYWORDS, ReducedMotion::from_keyword));
    let forced_colors = f
        .get("forced_colors")
        .map(|a| keyword(ctx, a, ForcedColors::KEYWORDS, ForcedColors::from_keyword));
    let geolocation = f.get("geolocation").map(|a| geolocation(ctx, a));
    let permissions = f.get("permissions").map(|a| permissions(ctx, a));
    let offline = f.get("offline").map(|a| boolean(ctx, a));
    let headers = f.get("extra_http_headers").map(|a| headers(ctx, a));
    Some(ContextSettings {
        color_scheme: optional(color_scheme)?,
        reduced_motion: optional(reduced_motion)?,
        forced_colors: optional(forced_colors)?,
        geolocation: optional(geolocation)?,
        permissions: optional(permissions)?,
        offline: optional(offline)?,
        extra_http_headers: optional(headers)?,
        ..ContextSettings::default()
    })
}

/// `locale = "de-DE"`: a BCP 47 tag's shape (a 2–3 letter language, then 1–8 character
/// subtags); which tags Chromium knows is its own business, as in Playwright.
fn locale(ctx: &mut Ctx, attr: &Attribute) -> Option<String> {
    let text = non_empty(ctx, attr)?;
    let mut parts = text.split('-');
    let language = parts.next().unwrap_or_default();
    let shaped = (2..=3).contains(&language.len())
        && language.chars().all(|c| c.is_ascii_alphabetic())
        && parts
            .all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()));
    if !shaped {
        ctx.error_in(
            Code::InvalidValue,
            "locale",
            attr.value.span,
            format!("`locale` must be a BCP 47 language tag, found \"{text}\""),
        )
        .hint("write a tag such as \"de-DE\", \"en-GB\" or \"ja\"");
        return None;
    }
    Some(text.to_string())
}

/// `timezone_id = "Asia/Tokyo"`: an IANA name (case as the database writes it).
fn timezone(ctx: &mut Ctx, attr: &Attribute) -> Option<String> {
    let text = non_empty(ctx, attr)?;
    if chrono_tz::Tz::from_str(text).is_ok() {
        return Some(text.to_string());
    }
    let names = chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name());
    let near = did_you_mean(text, names).or_else(|| {
        // A case slip (`asia/tokyo`) is the commonest mistake; did-you-mean is case-sensitive.
        chrono_tz::TZ_VARIANTS
            .iter()
            .map(|tz| tz.name())
            .find(|name| name.eq_ignore_ascii_case(text))
    });
    let d = ctx.error_in(
        Code::InvalidTimezone,
        "timezone_id",
        attr.value.span,
        format!("\"{text}\" is not an IANA time zone"),
    );
    if let Some(name) = near {
        d.hint(format!("did you mean \"{name}\"?"));
    }
    None
}

/// `device = "Pixel 7"`: a row of the built-in table.
fn device(ctx: &mut Ctx, attr: &Attribute) -> Option<String> {
    let text = non_empty(ctx, attr)?;
    if crate::ir::devices::Device::named(text).is_some() {
        return Some(text.to_string());
    }
    let names = DEVICES.iter().map(|d| d.name);
    let near = did_you_mean(text, names).or_else(|| {
        DEVICES
            .iter()
            .map(|d| d.name)
            .find(|name| name.eq_ignore_ascii_case(text))
    });
    let d = ctx.error_in(
        Code::UnknownDevice,
        "device",
        attr.value.span,
        format!("\"{text}\" is not a device of the built-in table"),
    );
    if let Some(name) = near {
        d.hint(format!("did you mean \"{name}\"?"));
    }
    None
}

/// The entries of object attribute `attr`, by the names in `keys` (first assignment of each);
/// unknown and repeated names are reported at `<attr>.<name>`. `None` when `attr` is no object.
fn object<'a>(
    ctx: &mut Ctx,
    attr: &'a Attribute,
    keys: &[&'static str],
    example: &str,
) -> Option<Vec<Option<&'a Attribute>>> {
    let name = &attr.name.name;
    let ValueKind::Object(entries) = &attr.value.kind else {
        if let Some(d) = type_error(ctx, name, &attr.value, "an object") {
            d.hint(format!("write `{name} = {example}`"));
        }
        return None;
    };
    let mut found: Vec<Option<&Attribute>> = vec![None; keys.len()];
    let mark = ctx.enter(name);
    let mut ok = true;
    for entry in entries {
        let key = entry.name.name.as_str();
        match keys.iter().position(|k| *k == key) {
            Some(i) if found[i].is_none() => found[i] = Some(entry),
            Some(i) => {
                let first = found[i].map(|a| a.name.span);
                let d = ctx.error_in(
                    Code::DuplicateAttribute,
                    key,
                    entry.name.span,
                    format!("`{key}` is set twice in `{name}`"),
                );
                if let Some(first) = first {
                    d.also(first, "first set here");
                }
                ok = false;
            }
            None => {
                let hint = match did_you_mean(key, keys.iter().copied()) {
                    Some(k) => format!("did you mean `{k}`?"),
                    None => format!("`{name}` takes {}", keys.join(", ")),
                };
                ctx.error_in(
                    Code::UnknownAttribute,
                    key,
                    entry.name.span,
                    format!("`{name}` has no entry `{key}`"),
                )
                .hint(hint);
                ok = false;
            }
        }
    }
    ctx.leave(mark);
    ok.then_some(found)
}

/// A required entry `key` of object attribute `attr` (reported at the object when missing).
fn required<'a>(
    ctx: &mut Ctx,
    attr: &Attribute,
    entry: Option<&'a Attribute>,
    key: &str,
) -> Option<&'a Attribute> {
    if entry.is_none() {
        let name = &attr.name.name;
        ctx.error_in(
            Code::MissingAttribute,
            name,
            attr.value.span,
            format!("`{name}` needs `{key}`"),
        )
        .hint(format!("add `{key} = …` inside `{name}`"));
    }
    entry
}

/// A number (integer or decimal) within `min..=max`, read from entry `attr` of object `outer`.
fn number_in(ctx: &mut Ctx, outer: &str, attr: &Attribute, min: f64, max: f64) -> Option<f64> {
    let name = &attr.name.name;
    let mark = ctx.enter(outer);
    let n = match attr.value.kind {
        ValueKind::Integer(n) => Some(n as f64),
        ValueKind::Float(f) => Some(f),
        _ => {
            type_error(ctx, name, &attr.value, "a number");
            None
        }
    };
    let n = n.filter(|n| {
        let inside = (min..=max).contains(n);
        if !inside {
            ctx.error_in(
                Code::InvalidValue,
                name,
                attr.value.span,
                format!("`{name}` must be between {min} and {max}, found {n}"),
            )
            .hint(format!("give `{name}` a number from {min} to {max}"));
        }
        inside
    });
    ctx.leave(mark);
    n
}

/// `geolocation = { latitude = 52.52, longitude = 13.40, accuracy = 10 }`.
fn geolocation(ctx: &mut Ctx, attr: &Attribute) -> Option<Geolocation> {
    let example = "{ latitude = 52.52, longitude = 13.40 }";
    let keys = ["latitude", "longitude", "accuracy"];
    let [lat, lon, acc] = object(ctx, attr, &keys, example)?[..] else {
        return None;
    };
    let lat = required(ctx, attr, lat, "latitude");
    let lon = required(ctx, attr, lon, "longitude");
    let outer = attr.name.name.as_str();
    let latitude = lat.map(|a| number_in(ctx, outer, a, -90.0, 90.0));
    let longitude = lon.map(|a| number_in(ctx, outer, a, -180.0, 180.0));
    let accuracy = match acc {
        Some(a) => number_in(ctx, outer, a, 0.0, 1.0e7),
        None => Some(0.0),
    };
    Some(Geolocation {
        latitude: latitude??,
        longitude: longitude??,
        accuracy: accuracy?,
    })
}

/// `viewport = { width = 390, height = 844 }`.
fn viewport(ctx: &mut Ctx, attr: &Attribute) -> Option<ViewportSize> {
    let keys = ["width", "height"];
    let [w, h] = object(ctx, attr, &keys, "{ width = 1280, height = 720 }")?[..] else {
        return None;
    };
    let w = required(ctx, attr, w, "width");
    let h = required(ctx, attr, h, "height");
    let mark = ctx.enter(&attr.name.name);
    let width = w.map(|a| u32_in(ctx, a, 1, MAX_VIEWPORT_PX));
    let height = h.map(|a| u32_in(ctx, a, 1, MAX_VIEWPORT_PX));
    ctx.leave(mark);
    Some(ViewportSize {
        width: width??,
        height: height??,
    })
}

/// `http_credentials = { username = "ada", password = env("PASSWORD") }`.
fn credentials(ctx: &mut Ctx, attr: &Attribute) -> Option<HttpCredentials> {
    let example = "{ username = \"ada\", password = env(\"PASSWORD\") }";
    let keys = ["username", "password"];
    let [user, pass] = object(ctx, attr, &keys, example)?[..] else {
        return None;
    };
    let user = required(ctx, attr, user, "username");
    let pass = required(ctx, attr, pass, "password");
    let mark = ctx.enter(&attr.name.name);
    let username = user.map(|a| text_value(ctx, a, true));
    let password = pass.map(|a| text_value(ctx, a, false));
    ctx.leave(mark);
    Some(HttpCredentials {
        username: username??,
        password: password??,
    })
}

/// `clock = { install_at = "2020-01-01T00:00:00Z" }`.
fn clock(ctx: &mut Ctx, attr: &Attribute) -> Option<ClockInstall> {
    let example = "{ install_at = \"2020-01-01T00:00:00Z\" }";
    let [at] = object(ctx, attr, &["install_at"], example)?[..] else {
        return None;
    };
    let at = required(ctx, attr, at, "install_at")?;
    let mark = ctx.enter(&attr.name.name);
    let install_at = clock_time(ctx, at);
    ctx.leave(mark);
    Some(ClockInstall {
        install_at: install_at?,
    })
}

/// `permissions = ["geolocation", …]`: known names, each once.
fn permissions(ctx: &mut Ctx, attr: &Attribute) -> Option<Vec<Permission>> {
    let items = list(ctx, attr)?;
    let mut out = Some(Vec::with_capacity(items.len()));
    for item in items {
        let read = permission(ctx, item);
        match (read, &mut out) {
            (Some(p), Some(list)) if list.contains(&p) => {
                ctx.error_in(
                    Code::InvalidValue,
                    "permissions",
                    item.span,
                    format!("\"{}\" is listed twice", p.keyword()),
                )
                .hint("list each permission once");
                out = None;
            }
            (Some(p), Some(list)) => list.push(p),
            _ => out = None,
        }
    }
    out
}

fn permission(ctx: &mut Ctx, item: &Value) -> Option<Permission> {
    if unreadable(item) {
        return None;
    }
    let ValueKind::String(name) = &item.kind else {
        type_error(ctx, "permissions", item, "a list of strings");
        return None;
    };
    if let Some(p) = Permission::from_keyword(name) {
        return Some(p);
    }
    let d = ctx.error_in(
        Code::InvalidValue,
        "permissions",
        item.span,
        format!("\"{name}\" is not a permission a context can grant"),
    );
    match did_you_mean(name, Permission::KEYWORDS.iter().copied()) {
        Some(s) => d.hint(format!("did you mean \"{s}\"?")),
        None => d.hint(format!(
            "use {}",
            super::values::quoted_list(Permission::KEYWORDS)
        )),
    };
    None
}

/// `extra_http_headers = { "X-Request-Id" = "7", Authorization = env("TOKEN") }`: HTTP token
/// names, each once (names compare case-insensitively), values a literal or a variable.
pub(super) fn headers(ctx: &mut Ctx, attr: &Attribute) -> Option<Vec<HttpHeader>> {
    let name = &attr.name.name;
    let ValueKind::Object(entries) = &attr.value.kind else {
        if let Some(d) = type_error(ctx, name, &attr.value, "an object") {
            d.hint(format!(
                "write `{name} = {{ \"X-Request-Id\" = \"7\", Authorization = env(\"TOKEN\") }}`"
            ));
        }
        return None;
    };
    let mark = ctx.enter(name);
    let mut out = Some(Vec::with_capacity(entries.len()));
    for (i, entry) in entries.iter().enumerate() {
        let key = entry.name.name.as_str();
        let token = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !token {
            ctx.error_in(
                Code::InvalidValue,
                key,
                entry.name.span,
                format!("\"{key}\" is not an HTTP header name"),
            )
            .hint("a header name holds letters, digits and `-` (e.g. \"X-Request-Id\")");
            out = None;
            continue;
        }
        if let Some(first) = entries[..i]
            .iter()
            .find(|e| e.name.name.eq_ignore_ascii_case(key))
        {
            ctx.error_in(
                Code::DuplicateAttribute,
                key,
                entry.name.span,
                format!("header `{key}` is set twice"),
            )
            .also(first.name.span, "first set here")
            .hint("header names ignore case: keep one");
            out = None;
            continue;
        }
        let value = text_value(ctx, entry, false);
        let value = value.filter(|v| {
            let broken = v.as_literal().is_some_and(|t| t.contains(['\r', '\n']));
            if broken {
                ctx.error_in(
                    Code::InvalidValue,
                    key,
                    entry.value.span,
                    format!("the value of header `{key}` holds a line break"),
                )
                .hint("a header value is one line");
            }
            !broken
        });
        match (value, &mut out) {
            (Some(value), Some(list)) => list.push(HttpHeader {
                name: key.to_string(),
                value,
            }),
            _ => out = None,
        }
    }
    ctx.leave(mark);
    out
}
