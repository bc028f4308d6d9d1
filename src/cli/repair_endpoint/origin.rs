//! The app origin given on the command line, normalized to what a browser sends in `Origin`
//! (`scheme://host[:port]`, lowercase, default port omitted).

/// Normalize `--app-origin`; refuses paths, queries, credentials and other schemes.
pub fn normalize(raw: &str) -> Result<String, String> {
    let lower = raw.trim().to_ascii_lowercase();
    let lower = lower.strip_suffix('/').unwrap_or(&lower);
    let (scheme, rest) = lower
        .split_once("://")
        .ok_or_else(|| format!("--app-origin {raw:?} must look like http://host:port"))?;
    let default_port = match scheme {
        "http" => "80",
        "https" => "443",
        _ => return Err(format!("--app-origin {raw:?} must be http or https")),
    };
    let bad = |c: char| matches!(c, '/' | '?' | '#' | '@' | ' ' | '\\') || c.is_control();
    if rest.is_empty() || rest.contains(bad) {
        return Err(format!(
            "--app-origin {raw:?} must be an origin only: no path, query or credentials"
        ));
    }
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let (inside, after) = v6
            .split_once(']')
            .ok_or_else(|| format!("--app-origin {raw:?} has an unclosed IPv6 host"))?;
        if !after.is_empty() && !after.starts_with(':') {
            return Err(format!("--app-origin {raw:?} has an invalid host"));
        }
        (
            format!("[{inside}]"),
            after.strip_prefix(':').map(str::to_owned),
        )
    } else {
        match rest.split_once(':') {
            Some((h, p)) => (h.to_owned(), Some(p.to_owned())),
            None => (rest.to_owned(), None),
        }
    };
    if host.is_empty() || host.contains(':') && !host.starts_with('[') {
        return Err(format!("--app-origin {raw:?} has an invalid host"));
    }
    let host_port = match port {
        None => host,
        Some(p) if p == default_port => host,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{host}:{p}")
        }
        Some(_) => return Err(format!("--app-origin {raw:?} has an invalid port")),
    };
    Ok(format!("{scheme}://{host_port}"))
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn normalizes_like_a_browser_origin() {
        assert_eq!(
            normalize("http://localhost:5173").unwrap(),
            "http://localhost:5173"
        );
        assert_eq!(
            normalize("HTTP://LocalHost:5173/").unwrap(),
            "http://localhost:5173"
        );
        assert_eq!(
            normalize("http://localhost:80").unwrap(),
            "http://localhost"
        );
        assert_eq!(
            normalize("https://app.test:443").unwrap(),
            "https://app.test"
        );
        assert_eq!(normalize("http://[::1]:3000").unwrap(), "http://[::1]:3000");
        assert_eq!(normalize("http://[::1]").unwrap(), "http://[::1]");
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
        ] {
            assert!(normalize(bad).is_err(), "{bad}");
        }
    }
}
