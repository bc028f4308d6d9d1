//! URL rules for `navigate`, `tab { operation = "new" }`, `base_url` and `dev_server.url`.
//!
//! What admission decides (the run decides the rest, e.g. the origin policy):
//! - A URL is non-empty, has no leading or trailing whitespace and no control characters.
//! - An absolute URL's scheme is one of `http`, `https`, `file`, `about`, `data` (so `javascript:`
//!   and typos like `htps:` are rejected); `http(s)` needs `//` and a host.
//! - A relative URL (navigate, new tab) starts with `/`, `?`, `#` or `.` and resolves against the
//!   suite's `base_url` at run time; a bare `cart` or `example.com/x` is ambiguous and rejected.
//! - `base_url` is absolute `http`/`https`/`file`; `dev_server.url` is absolute `http`/`https`.

use super::context::{Annotate, Ctx};
use super::values::string;
use crate::ast::Attribute;
use crate::code::Code;

/// Which URLs an attribute accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum UrlRule {
    /// Absolute (any admitted scheme) or relative to `base_url`: `navigate`, new tabs.
    Page,
    /// Absolute `http`, `https` or `file`: `base_url`.
    Base,
    /// Absolute `http` or `https`: a server to poll.
    Server,
}

/// Schemes a page URL may use.
const PAGE_SCHEMES: &[&str] = &["http", "https", "file", "about", "data"];

/// A URL attribute checked against `rule`.
pub(super) fn url<'a>(ctx: &mut Ctx, attr: &'a Attribute, rule: UrlRule) -> Option<&'a str> {
    let text = string(ctx, attr)?;
    match url_problem(text, rule) {
        None => Some(text),
        Some((message, hint)) => {
            let name = &attr.name.name;
            ctx.error_in(
                Code::InvalidValue,
                name,
                attr.value.span,
                format!("`{name}` {message}"),
            )
            .hint(hint);
            None
        }
    }
}

/// Why `text` is not an admissible URL under `rule`, as (message, hint).
pub(super) fn url_problem(text: &str, rule: UrlRule) -> Option<(String, String)> {
    if text.is_empty() {
        return Some((
            "must not be empty".into(),
            "give a URL such as \"/\" or \"http://127.0.0.1:4173/\"".into(),
        ));
    }
    if text.trim() != text {
        return Some((
            "has leading or trailing whitespace".into(),
            format!("write \"{}\"", text.trim()),
        ));
    }
    if text.chars().any(char::is_control) {
        return Some((
            "contains a control character".into(),
            "percent-encode the character or remove it".into(),
        ));
    }
    let Some(scheme) = scheme_of(text) else {
        return relative_problem(text, rule);
    };
    let lower = scheme.to_ascii_lowercase();
    let allowed: &[&str] = match rule {
        UrlRule::Page => PAGE_SCHEMES,
        UrlRule::Base => &["http", "https", "file"],
        UrlRule::Server => &["http", "https"],
    };
    if !allowed.contains(&lower.as_str()) {
        let rest = &text[scheme.len() + 1..];
        let hint = if rest.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            // `localhost:4173/x` parses as scheme `localhost`.
            format!("did you mean \"http://{text}\"?")
        } else {
            format!(
                "use a URL with scheme {}",
                super::values::quoted_list(allowed)
            )
        };
        return Some((
            format!("uses the scheme `{scheme}:`, which is not allowed here"),
            hint,
        ));
    }
    if lower == "http" || lower == "https" {
        let after = &text[scheme.len() + 1..];
        let host_present = after
            .strip_prefix("//")
            .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'));
        if !host_present {
            return Some((
                "has no host".into(),
                format!("write \"{lower}://host/path\""),
            ));
        }
    }
    None
}

fn relative_problem(text: &str, rule: UrlRule) -> Option<(String, String)> {
    if rule == UrlRule::Page && text.starts_with(['/', '?', '#', '.']) {
        return None;
    }
    let message = match rule {
        UrlRule::Page => "is neither absolute nor relative to `base_url`".to_string(),
        UrlRule::Base | UrlRule::Server => "must be an absolute URL".to_string(),
    };
    let first_segment = text.split('/').next().unwrap_or(text);
    let hint = if first_segment.contains('.')
        || first_segment.contains(':')
        || first_segment == "localhost"
    {
        format!("did you mean \"http://{text}\"?")
    } else if rule == UrlRule::Page {
        format!(
            "write \"/{text}\" (from the site root) or \"./{text}\" (relative to the current page)"
        )
    } else {
        "write an absolute URL such as \"http://127.0.0.1:4173\"".to_string()
    };
    Some((message, hint))
}

/// The scheme of an absolute URL: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` before `:`.
fn scheme_of(text: &str) -> Option<&str> {
    let colon = text.find(':')?;
    let scheme = &text[..colon];
    let mut bytes = scheme.bytes();
    let first = bytes.next()?;
    (first.is_ascii_alphabetic()
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
    .then_some(scheme)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_urls() {
        for ok in [
            "/",
            "/cart?x=1",
            "./next",
            "../up",
            "?q=1",
            "#top",
            "http://127.0.0.1:4173/",
            "HTTPS://example.com",
            "about:blank",
            "data:text/html,<h1>hi there</h1>",
            "file:///tmp/index.html",
            "//cdn.example.com/x",
        ] {
            assert_eq!(url_problem(ok, UrlRule::Page), None, "{ok}");
        }
        for bad in [
            "",
            " /",
            "cart",
            "javascript:alert(1)",
            "localhost:4173/x",
            "http:/x",
            "https://",
            "/a\nb",
        ] {
            assert!(url_problem(bad, UrlRule::Page).is_some(), "{bad}");
        }
    }

    #[test]
    fn base_and_server_urls_are_absolute() {
        assert_eq!(url_problem("http://127.0.0.1:4173", UrlRule::Base), None);
        assert_eq!(url_problem("file:///srv/dist/", UrlRule::Base), None);
        assert!(url_problem("/cart", UrlRule::Base).is_some());
        assert!(url_problem("about:blank", UrlRule::Base).is_some());
        assert!(url_problem("file:///x", UrlRule::Server).is_some());
        let (_, hint) = url_problem("example.com", UrlRule::Server).unwrap();
        assert!(hint.contains("http://example.com"), "{hint}");
    }
}
