//! The app origin given on the command line, normalized to what a browser sends in `Origin`
//! (`scheme://host[:port]`, lowercase, default port omitted, leading zeros of the port dropped).
//!
//! Why `url`: it parses hosts and ports as the WHATWG URL standard a browser follows, so
//! `http://127.0.0.1:080` becomes `http://127.0.0.1` exactly as the browser's `Origin` does.

/// Normalize `--app-origin`; refuses paths, queries, fragments, credentials and other schemes.
pub fn normalize(raw: &str) -> Result<String, String> {
    let url = url::Url::parse(raw.trim())
        .map_err(|e| format!("--app-origin {raw:?} must look like http://host:port ({e})"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("--app-origin {raw:?} must be http or https"));
    }
    let bare = url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none();
    if !bare || raw.contains('\\') {
        return Err(format!(
            "--app-origin {raw:?} must be an origin only: no path, query or credentials"
        ));
    }
    Ok(url.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn normalizes_like_a_browser_origin() {
        for (raw, origin) in [
            ("http://localhost:5173", "http://localhost:5173"),
            ("HTTP://LocalHost:5173/", "http://localhost:5173"),
            ("http://localhost:80", "http://localhost"),
            ("https://app.test:443", "https://app.test"),
            ("http://[::1]:3000", "http://[::1]:3000"),
            ("http://[::1]", "http://[::1]"),
            // A port with leading zeros is the same port; the browser's `Origin` drops them.
            ("http://127.0.0.1:080", "http://127.0.0.1"),
            ("http://127.0.0.1:05173", "http://127.0.0.1:5173"),
        ] {
            assert_eq!(normalize(raw).unwrap(), origin, "{raw}");
        }
    }

    #[test]
    fn refuses_anything_but_an_origin() {
        for bad in [
            "localhost:5173",
            "ftp://x",
            "http://",
            "http://a/b",
            "http://u:p@a",
            "http://a?x",
            "http://a:x",
            "http://a#f",
            "http://a:70000",
            "http:\\\\a",
        ] {
            assert!(normalize(bad).is_err(), "{bad}");
        }
    }
}
