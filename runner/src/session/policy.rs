//! The session's URL policy: the exact-origin set (start URL origin + `--allow-origin`) bounds
//! navigation, actions and observations; `--allow-domain` hosts only widen network access.
//! Pure functions, so every rule has a table test.

use super::code::{SessionCode, SessionError};
use super::file::Policy;

/// The ASCII serialization of `url`'s origin (`http://127.0.0.1:4173`), or an error for URLs
/// without a tuple origin (`data:`, `file:`, …).
pub fn origin_of(url: &str) -> Result<String, SessionError> {
    let parsed = url::Url::parse(url)
        .map_err(|e| SessionError::new(SessionCode::Policy, format!("invalid URL {url:?}: {e}")))?;
    let origin = parsed.origin();
    if !origin.is_tuple() || !matches!(parsed.scheme(), "http" | "https") {
        return Err(SessionError::new(
            SessionCode::Policy,
            format!("{url:?} has no http(s) origin; sessions only open http and https pages"),
        ));
    }
    Ok(origin.ascii_serialization())
}

/// Build the policy from the start URL and the allow lists (each origin normalised).
pub fn build(
    start_url: &str,
    allow_origins: &[String],
    allow_domains: &[String],
) -> Result<Policy, SessionError> {
    let mut origins = vec![origin_of(start_url)?];
    for o in allow_origins {
        let o =
            origin_of(o).map_err(|e| SessionError::new(SessionCode::InvalidInput, e.message))?;
        if !origins.contains(&o) {
            origins.push(o);
        }
    }
    let mut domains = Vec::new();
    for d in allow_domains {
        let d = d.trim().trim_start_matches("*.").to_ascii_lowercase();
        let valid = !d.is_empty()
            && d.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
        if !valid {
            return Err(SessionError::new(
                SessionCode::InvalidInput,
                format!("invalid --allow-domain {d:?}: give a host name such as cdn.example.com"),
            ));
        }
        if !domains.contains(&d) {
            domains.push(d);
        }
    }
    Ok(Policy { origins, domains })
}

/// Resolve a `navigate` URL (possibly relative) against the current page URL.
pub fn resolve(url: &str, base: &str) -> Result<String, SessionError> {
    let base = url::Url::parse(base).ok();
    let joined = match base {
        Some(b) => b.join(url),
        None => url::Url::parse(url),
    };
    joined
        .map(|u| u.to_string())
        .map_err(|e| SessionError::new(SessionCode::Policy, format!("invalid URL {url:?}: {e}")))
}

/// Navigation, actions and observations: the URL's origin must be in the exact-origin set.
pub fn check_origin(policy: &Policy, url: &str) -> Result<(), SessionError> {
    let origin = origin_of(url)?;
    if policy.origins.contains(&origin) {
        Ok(())
    } else {
        Err(SessionError::new(
            SessionCode::Policy,
            format!(
                "{origin} is not in this session's origins ({}); start the session with \
                 --allow-origin {origin} to allow it",
                policy.origins.join(", ")
            ),
        ))
    }
}

/// Network requests: allowed when the origin is in the set or the host is an allowed domain (or
/// a subdomain of one). Non-network schemes (`data:`, `blob:`, `about:`) stay inside the page.
pub fn network_allowed(policy: &Policy, url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url) else {
        return false;
    };
    match parsed.scheme() {
        "data" | "blob" | "about" => return true,
        "http" | "https" | "ws" | "wss" => {}
        _ => return false,
    }
    let origin = parsed.origin().ascii_serialization();
    if policy.origins.contains(&origin) {
        return true;
    }
    let host = parsed.host_str().unwrap_or("").to_ascii_lowercase();
    policy
        .domains
        .iter()
        .any(|d| host == *d || host.ends_with(&format!(".{d}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        build(
            "http://127.0.0.1:4173/form?x=1",
            &["https://app.example.com".into()],
            &["cdn.example.net".into()],
        )
        .unwrap()
    }

    #[test]
    fn the_origin_set_is_exact() {
        let p = policy();
        assert_eq!(
            p.origins,
            ["http://127.0.0.1:4173", "https://app.example.com"]
        );
        let cases = [
            ("http://127.0.0.1:4173/other", true),
            ("http://127.0.0.1:4174/", false),
            ("https://127.0.0.1:4173/", false),
            ("http://localhost:4173/", false),
            ("https://app.example.com/x", true),
            ("https://cdn.example.net/lib.js", false),
            ("data:text/html,hi", false),
        ];
        for (url, ok) in cases {
            assert_eq!(check_origin(&p, url).is_ok(), ok, "{url}");
        }
    }

    #[test]
    fn domains_widen_network_access_only() {
        let p = policy();
        let cases = [
            ("http://127.0.0.1:4173/api", true),
            ("http://127.0.0.1:9/api", false),
            ("https://cdn.example.net/lib.js", true),
            ("https://a.cdn.example.net/lib.js", true),
            ("https://evilcdn.example.net/", false),
            ("https://example.net/", false),
            ("data:image/png;base64,AA", true),
            ("file:///etc/passwd", false),
        ];
        for (url, ok) in cases {
            assert_eq!(network_allowed(&p, url), ok, "{url}");
        }
    }

    #[test]
    fn relative_urls_resolve_against_the_page() {
        assert_eq!(
            resolve("/b?q=1", "http://127.0.0.1:4173/a/x").unwrap(),
            "http://127.0.0.1:4173/b?q=1"
        );
        assert!(check_origin(
            &policy(),
            &resolve("//evil.test/", "http://127.0.0.1:4173/").unwrap()
        )
        .is_err());
    }

    #[test]
    fn origins_are_normalised_as_a_browser_sends_them() {
        // A zero-padded default port is the default port, which `Origin` leaves out.
        assert_eq!(
            origin_of("http://127.0.0.1:080/x").unwrap(),
            "http://127.0.0.1"
        );
        let p = build(
            "http://127.0.0.1:080/",
            &["HTTPS://App.Example:0443".into()],
            &[],
        )
        .unwrap();
        assert_eq!(p.origins, ["http://127.0.0.1", "https://app.example"]);
        assert!(check_origin(&p, "http://127.0.0.1/").is_ok());
    }

    #[test]
    fn bad_allow_lists_are_invalid_input() {
        let e = build("http://127.0.0.1:1/", &["nope".into()], &[]).unwrap_err();
        assert_eq!(e.code, SessionCode::InvalidInput);
        let e = build("http://127.0.0.1:1/", &[], &["a b".into()]).unwrap_err();
        assert_eq!(e.code, SessionCode::InvalidInput);
        assert_eq!(
            build("file:///x", &[], &[]).unwrap_err().code,
            SessionCode::Policy
        );
    }
}
