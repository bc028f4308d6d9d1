//! The Grid's address (`run --grid URL`, `A3S_TEST_GRID`): `http://` or `https://` (sent over the
//! driver's one TLS configuration, see `client.rs`), and its credentials kept apart from
//! everything that could print it.
//!
//! Why a type: a Grid behind basic authentication is addressed as `http://user:secret@grid:4444`,
//! and the URL appears in messages (a refused session, an unreachable Grid). [`GridUrl`] takes the
//! user and password out when it is parsed: requests carry them as an `Authorization` header,
//! and the only way to show the address, [`GridUrl`]'s `Display`, writes `***` in their place.
//! The URL the HTTP client sees has none, so its own error texts cannot leak them either.

use std::fmt;

/// A Grid address without its credentials, and the credentials beside it.
#[derive(Clone, PartialEq, Eq)]
pub struct GridUrl {
    /// The address with user and password removed; ends with `/` so paths join under it.
    base: url::Url,
    credentials: Option<Credentials>,
}

/// Basic-authentication credentials from the URL (percent-decoded).
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The user name.
    pub user: String,
    /// The password, if the URL has one.
    pub password: Option<String>,
}

/// Why a Grid address was refused. The text never repeats the address as given: it may hold a
/// password.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridUrlError {
    /// Not a URL at all.
    #[error("the Grid address is not a URL ({0}); expected http://host:port")]
    NotAUrl(url::ParseError),
    /// Another scheme than http(s).
    #[error("the Grid address must start with http:// or https://, not {0}://")]
    Scheme(String),
    /// No host.
    #[error("the Grid address has no host; expected http://host:port")]
    NoHost,
    /// A query or fragment, which a WebDriver endpoint never has.
    #[error("the Grid address must not have a query or fragment")]
    Extra,
}

impl std::str::FromStr for GridUrl {
    type Err = GridUrlError;

    fn from_str(text: &str) -> Result<GridUrl, GridUrlError> {
        let mut url = url::Url::parse(text.trim()).map_err(GridUrlError::NotAUrl)?;
        match url.scheme() {
            "http" | "https" => {}
            other => return Err(GridUrlError::Scheme(other.to_string())),
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(GridUrlError::NoHost);
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(GridUrlError::Extra);
        }
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        };
        let credentials =
            (!url.username().is_empty() || url.password().is_some()).then(|| Credentials {
                user: decode(url.username()),
                password: url.password().map(decode),
            });
        // Both setters only fail for URLs that cannot have credentials (checked above).
        let _ = url.set_username("");
        let _ = url.set_password(None);
        if !url.path().ends_with('/') {
            let path = format!("{}/", url.path());
            url.set_path(&path);
        }
        Ok(GridUrl {
            base: url,
            credentials,
        })
    }
}

impl GridUrl {
    /// `path` under the Grid's address (`status`, `session`, `session/<id>`).
    pub fn join(&self, path: &str) -> url::Url {
        // `path` is relative and made of our own segments (a session id is checked first), so
        // joining cannot fail; the base itself is the fallback.
        self.base.join(path).unwrap_or_else(|_| self.base.clone())
    }

    /// The Grid is reached over TLS.
    pub fn is_https(&self) -> bool {
        self.base.scheme() == "https"
    }

    /// The credentials the URL carried, if any.
    pub fn credentials(&self) -> Option<&Credentials> {
        self.credentials.as_ref()
    }
}

/// The address as it may be shown: `***` for the credentials, never their value.
impl fmt::Display for GridUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.credentials {
            None => write!(f, "{}", self.base),
            Some(_) => {
                let host = &self.base[url::Position::BeforeHost..];
                write!(f, "{}://***@{host}", self.base.scheme())
            }
        }
    }
}

/// Shown as the address is: without the credentials.
impl fmt::Debug for GridUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GridUrl({self})")
    }
}

/// Never shows a value.
impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Credentials(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn credentials_are_taken_out_and_never_shown() {
        let grid: GridUrl = "http://ci%40team:s3cr%2Ft@grid.example:4444/wd/hub"
            .parse()
            .unwrap();
        let credentials = grid.credentials().expect("credentials");
        assert_eq!(credentials.user, "ci@team");
        assert_eq!(credentials.password.as_deref(), Some("s3cr/t"));
        assert_eq!(grid.to_string(), "http://***@grid.example:4444/wd/hub/");
        assert_eq!(
            format!("{grid:?}"),
            "GridUrl(http://***@grid.example:4444/wd/hub/)"
        );
        assert_eq!(format!("{credentials:?}"), "Credentials(***)");
        assert_eq!(
            grid.join("session").as_str(),
            "http://grid.example:4444/wd/hub/session"
        );
    }

    #[test]
    fn only_http_and_https_with_a_host() {
        assert_eq!(
            "http://127.0.0.1:4444"
                .parse::<GridUrl>()
                .unwrap()
                .join("status")
                .as_str(),
            "http://127.0.0.1:4444/status"
        );
        assert_eq!(
            "https://grid.example"
                .parse::<GridUrl>()
                .unwrap()
                .join("session")
                .as_str(),
            "https://grid.example/session"
        );
        assert_eq!(
            "ws://grid:4444".parse::<GridUrl>(),
            Err(GridUrlError::Scheme("ws".into()))
        );
        assert_eq!(
            "http://grid:4444/?x=1".parse::<GridUrl>(),
            Err(GridUrlError::Extra)
        );
        assert!(matches!(
            "grid:4444".parse::<GridUrl>(),
            Err(GridUrlError::Scheme(_))
        ));
        assert!(matches!(
            "not a url".parse::<GridUrl>(),
            Err(GridUrlError::NotAUrl(_))
        ));
    }

    proptest! {
        /// Whatever the user and password, neither the shown address nor a refusal holds the
        /// password.
        #[test]
        fn a_password_is_never_shown(
            user in "[a-z]{1,8}",
            password in "[A-Za-z0-9]{12,20}",
            scheme in prop_oneof![Just("http"), Just("https"), Just("ftp"), Just("ws")],
            tail in prop_oneof![Just(""), Just("/wd/hub"), Just("/?q=1"), Just("#f")],
        ) {
            let text = format!("{scheme}://{user}:{password}@grid.example:4444{tail}");
            let shown = match text.parse::<GridUrl>() {
                Ok(grid) => format!("{grid} {grid:?} {:?}", grid.credentials()),
                Err(e) => e.to_string(),
            };
            prop_assert!(!shown.contains(&password), "{}", shown);
        }
    }
}
