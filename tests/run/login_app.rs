//! A loopback app with a real cookie login, for the sign-in-once tests: `POST /login` (form
//! field `user`) counts the login and sets an HttpOnly session cookie whose value is unique to
//! this app; `GET /` shows `signed in as <user>` or `anonymous`, and the page's localStorage
//! `theme` (`/?remember` stores one, also unique to this app).

use crate::common::{loopback, read_request, respond, serve_each};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A running login app.
pub struct LoginApp {
    /// `http://127.0.0.1:<port>`.
    pub origin: String,
    /// The session cookie's value (what no report may contain).
    pub session: String,
    /// The localStorage value `/?remember` stores (a secret too).
    pub theme: String,
    logins: Arc<AtomicUsize>,
}

impl LoginApp {
    /// Start the app on a free port.
    pub fn start() -> LoginApp {
        let (listener, origin) = loopback();
        let port = origin.rsplit(':').next().unwrap_or("0").to_string();
        let session = format!("sess-{port}-{}", std::process::id());
        let theme = format!("theme-{port}-{}", std::process::id());
        let logins = Arc::new(AtomicUsize::new(0));
        let (cookie, stored, count) = (session.clone(), theme.clone(), logins.clone());
        serve_each(listener, move |stream| {
            let Some(request) = read_request(&stream) else {
                return;
            };
            if request.method == "POST" && request.target == "/login" {
                count.fetch_add(1, Ordering::SeqCst);
                let body = String::from_utf8_lossy(&request.body).into_owned();
                let user = body.strip_prefix("user=").unwrap_or("someone");
                let extra = format!(
                    "Set-Cookie: session={cookie}.{user}; Path=/; HttpOnly; SameSite=Lax\r\nLocation: /\r\n"
                );
                respond(&stream, "303 See Other", "text/plain", &extra, b"");
                return;
            }
            let who = request
                .header("cookie")
                .unwrap_or("")
                .split(';')
                .filter_map(|c| c.trim().strip_prefix("session="))
                .find_map(|v| v.strip_prefix(&format!("{cookie}.")))
                .map_or("anonymous".to_string(), |u| format!("signed in as {u}"));
            let remember = if request.target.ends_with("?remember") {
                format!("localStorage.setItem('theme', '{stored}');")
            } else {
                String::new()
            };
            let page = format!(
                "<!doctype html><title>Login app</title><p>{who}</p><p id=\"theme\"></p>\
                 <form method=\"post\" action=\"/login\"><label>User <input name=\"user\"></label>\
                 <button>Sign in</button></form><script>{remember}\
                 document.getElementById('theme').textContent = 'theme: ' + \
                 (localStorage.getItem('theme') === '{stored}' ? 'remembered' : 'none');</script>"
            );
            respond(
                &stream,
                "200 OK",
                "text/html; charset=utf-8",
                "",
                page.as_bytes(),
            );
        });
        LoginApp {
            origin,
            session,
            theme,
            logins,
        }
    }

    /// How many times someone signed in.
    pub fn logins(&self) -> usize {
        self.logins.load(Ordering::SeqCst)
    }
}
