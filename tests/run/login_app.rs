//! A loopback app with a real cookie login, for the sign-in-once tests: `POST /login` (form
//! field `user`) counts the login and sets an HttpOnly session cookie whose value is unique to
//! this app; `GET /` shows `signed in as <user>` or `anonymous`, and `theme: remembered` when
//! the page's localStorage holds the `theme` that `/?remember` stores (a value unique to this
//! app, never shown). Signed in, `/?late` sends its page's body 300 ms after its head, the way a
//! slow server does, so a check can meet the new document before it has any element.

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
            if request.method == "POST" && request.target.starts_with("/login") {
                count.fetch_add(1, Ordering::SeqCst);
                let body = String::from_utf8_lossy(&request.body).into_owned();
                let user = body.strip_prefix("user=").unwrap_or("someone");
                let next = if request.target.ends_with("?late") {
                    "/?late"
                } else {
                    "/"
                };
                let extra = format!(
                    "Set-Cookie: session={cookie}.{user}; Path=/; HttpOnly; SameSite=Lax\r\nLocation: {next}\r\n"
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
            let action = if request.target.ends_with("?late") {
                "/login?late"
            } else {
                "/login"
            };
            let page = format!(
                "<!doctype html><title>Login app</title><p>{who}</p><p id=\"theme\"></p>\
                 <form method=\"post\" action=\"{action}\"><label>User <input name=\"user\"></label>\
                 <button>Sign in</button></form><script>{remember}\
                 document.getElementById('theme').textContent = 'theme: ' + \
                 (localStorage.getItem('theme') === '{stored}' ? 'remembered' : 'none');</script>"
            );
            if request.target.ends_with("?late") && who != "anonymous" {
                late(&stream, page.as_bytes());
                return;
            }
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

/// Answer `body` as HTML, the head at once and the body 300 ms later.
fn late(stream: &std::net::TcpStream, body: &[u8]) {
    use std::io::Write;
    let mut stream = stream;
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.flush());
    // A slow server, not synchronisation: the browser must see a document with no element yet.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = stream.write_all(body);
}
