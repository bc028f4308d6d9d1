//! `navigate`: load a URL in the current tab and wait for its `load` event.

use super::Outcome;
use crate::context::{detail, WebContext};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{StepDetail, StepEnv, StepFailure};
use serde_json::{json, Value};

/// Resolve a possibly relative URL against the suite's `base_url`.
pub(crate) fn resolve_url(url: &str, base: Option<&str>) -> Result<String, StepFailure> {
    if let Ok(absolute) = url::Url::parse(url) {
        return Ok(absolute.to_string());
    }
    let Some(base) = base else {
        return Err(StepFailure::new(
            FailureCode::NavigationFailed,
            format!("{url:?} is relative and the suite has no base_url"),
        ));
    };
    let base = url::Url::parse(base).map_err(|e| {
        StepFailure::new(
            FailureCode::NavigationFailed,
            format!("base_url {base:?} is invalid: {e}"),
        )
    })?;
    base.join(url).map(|u| u.to_string()).map_err(|e| {
        StepFailure::new(
            FailureCode::NavigationFailed,
            format!("cannot resolve {url:?}: {e}"),
        )
    })
}

/// `navigate { url }`.
pub(crate) async fn navigate(ctx: &mut WebContext, url: &str, env: &StepEnv<'_>) -> Outcome {
    let url = resolve_url(url, env.base_url)?;
    let tab = ctx.tab()?;
    tab.fail_if_dialog()?;
    let budget = env
        .deadline
        .saturating_duration_since(tokio::time::Instant::now());
    let call = tab
        .session
        .call("Page.navigate", json!({ "url": url }), budget, env.deadline);
    let reply = tokio::select! {
        reply = call => reply?,
        // A `beforeunload` dialog holds the navigation until it is answered.
        message = tab.dialog_opened() => return Err(crate::script::dialog_blocking(&message)),
    };
    if let Some(error) = reply
        .get("errorText")
        .and_then(Value::as_str)
        .filter(|e| !e.is_empty())
    {
        return Err(StepFailure::new(
            FailureCode::NavigationFailed,
            format!(
                "navigating to {url} failed: {error}{}",
                certificate_hint(error)
            ),
        ));
    }
    if let Some(loader) = reply.get("loaderId").and_then(Value::as_str) {
        if tab.wait_loaded(loader, false, env.deadline).await.is_err() {
            return Err(StepFailure::new(
                FailureCode::Timeout,
                format!("{url} did not finish loading before the scenario deadline"),
            ));
        }
    }
    ctx.tab_mut()?.frames.clear();
    Ok(detail(StepDetail::Url { url }))
}

/// What to do about a certificate Chromium refused (`net::ERR_CERT_…`), after its error text;
/// nothing for other errors.
fn certificate_hint(error: &str) -> &'static str {
    if error.starts_with("net::ERR_CERT_") {
        " (the browser does not trust the server's certificate; for a self-signed local or \
         staging server set `ignore_https_errors = true` on the scenario, suite or project)"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::{certificate_hint, resolve_url};

    #[test]
    fn a_certificate_error_names_the_option_that_accepts_it() {
        assert!(certificate_hint("net::ERR_CERT_AUTHORITY_INVALID").contains("ignore_https_errors"));
        assert_eq!(certificate_hint("net::ERR_CONNECTION_REFUSED"), "");
    }

    #[test]
    fn relative_urls_resolve_against_base() {
        let base = Some("http://127.0.0.1:4173/app/");
        assert_eq!(
            resolve_url("/cart", base).unwrap(),
            "http://127.0.0.1:4173/cart"
        );
        assert_eq!(
            resolve_url("cart?x=1", base).unwrap(),
            "http://127.0.0.1:4173/app/cart?x=1"
        );
        assert_eq!(resolve_url("about:blank", None).unwrap(), "about:blank");
        assert!(resolve_url("/cart", None).is_err());
    }
}
