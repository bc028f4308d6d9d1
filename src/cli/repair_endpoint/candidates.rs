//! `GET …/candidates?page=URL`: the latest run's failed and flaky scenarios on that page
//! (`a3s.test.run-candidates/1`, `runner/src/candidates/`), for the Review Overlay's
//! "Candidates" list.
//!
//! A read, and nothing more: it appends nothing, changes no run result, and answers only for a
//! page of the app's own origin. The same access rule as a POST holds (the app's `Origin` when
//! the browser sends one — a same-origin GET usually does not — and a same-origin
//! `Sec-Fetch-Site`; the channel's bearer token for `a3s-test dev`).

use super::handler::{error_body, Access, Config};
use super::http::{Conn, Head};
use a3s_test_ledger::EndpointCode as Rejection;
use a3s_test_runner::candidates::{candidates_for, read_latest};
use url::Url;

/// The last path segment a candidates read is asked on.
const PATH_SUFFIX: &str = "/candidates";

/// Longest `page` parameter accepted, in bytes.
const MAX_PAGE_URL: usize = 4096;

/// True when `head` asks for candidates (a GET whose path ends in `/candidates`).
pub fn is_candidates_read(head: &Head) -> bool {
    let path = head.target.split(['?', '#']).next().unwrap_or("");
    head.method == "GET" && path.ends_with(PATH_SUFFIX)
}

fn refuse(conn: Conn, r: Rejection, message: &str) -> u16 {
    conn.respond(r.status(), &[], &error_body(r.as_str(), message));
    r.status()
}

/// The page asked about, or why it cannot be served.
fn page_of(head: &Head, access: &Access) -> Result<Url, (Rejection, &'static str)> {
    let query = Url::parse(&format!("http://endpoint.invalid{}", head.target)).map_err(|_| {
        (
            Rejection::BadRequest,
            "the request target is not a valid path",
        )
    })?;
    let mut pages = query.query_pairs().filter(|(k, _)| k == "page");
    let page = match (pages.next(), pages.next()) {
        (Some((_, v)), None) if !v.is_empty() && v.len() <= MAX_PAGE_URL => v.into_owned(),
        _ => {
            return Err((
                Rejection::BadRequest,
                "send one `page` parameter: the page's URL (at most 4096 bytes)",
            ))
        }
    };
    let page = Url::parse(&page)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or((Rejection::BadRequest, "`page` must be an http(s) URL"))?;
    if let Access::Origin(app) = access {
        if page.origin().ascii_serialization() != *app {
            return Err((
                Rejection::Origin,
                "`page` must be a page of the app's origin",
            ));
        }
    }
    Ok(page)
}

/// Who may read: the app's page (an `Origin`, when sent, is the app's; a `Sec-Fetch-Site`, when
/// sent, is same-origin), or the dev channel's bearer.
fn may_read(access: &Access, head: &Head) -> Result<(), (Rejection, &'static str)> {
    match access {
        Access::Origin(app) => {
            let origin = head
                .single("origin")
                .map_err(|_| (Rejection::Origin, "more than one Origin header"))?;
            if origin.is_some_and(|o| o != app) {
                return Err((
                    Rejection::Origin,
                    "the Origin header must be the app's origin",
                ));
            }
            if let Ok(Some(site)) = head.single("sec-fetch-site") {
                if site != "same-origin" {
                    return Err((Rejection::Origin, "only same-origin requests are accepted"));
                }
            }
            Ok(())
        }
        Access::Bearer(_) => super::handler::allowed(access, head),
    }
}

/// Answer one candidates read.
pub fn serve(config: &Config, conn: Conn, head: &Head) -> u16 {
    let page = match may_read(&config.access, head).and_then(|()| page_of(head, &config.access)) {
        Ok(page) => page,
        Err((r, message)) => return refuse(conn, r, message),
    };
    let latest = match read_latest(&config.output) {
        Ok(latest) => latest,
        Err(e) => return refuse(conn, Rejection::CandidatesUnreadable, &e.to_string()),
    };
    let feed = candidates_for(latest.as_ref(), &page);
    let body = serde_json::to_vec(&feed).expect("a candidates feed serializes");
    conn.respond(200, &[], &body);
    200
}
