//! `ignore_https_errors = true` (`docs/acl.md` §2.4, §11), end to end: the real binary and
//! Chromium against loopback HTTPS servers presenting `provider/tests/fixtures/tls/localhost.pem`,
//! whose root the binary does not trust (`SSL_CERT_FILE` and `SSL_CERT_DIR` are cleared, so only
//! the system store counts). With the option a scenario's pages load and its `request` steps
//! pass; without it the navigation is `test.driver.web.navigation_failed` naming Chromium's
//! certificate error and the request `request_failed`. Two scenarios at once on one browser, one
//! with the option, show it stays in its own context. A dev server with an `https` url is ready
//! with the option, and refused at once, naming the option, without it.

use crate::harness::{command, finish, free_port, scenario, workdir, Finished, RUN_BOUND};
use crate::tls::{fixture, https_serving};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The page every test server here answers with, and the JSON of its `/api/me`.
fn page(path: &str, _cookie: &str) -> (&'static str, String) {
    match path {
        "/api/me" => ("application/json", r#"{"user":{"name":"Ada"}}"#.to_string()),
        _ => (
            "text/html",
            "<!doctype html><title>secure</title><h1>Served over self-signed HTTPS</h1>\
             <a href=\"/popup\" target=\"_blank\">Open a popup</a>"
                .into(),
        ),
    }
}

/// A scenario with `attributes` that opens `https://localhost:{port}/` and asks `/api/me`.
fn opening(id: &str, port: u16, attributes: &str) -> String {
    opening_then(id, port, attributes, "")
}

/// [`opening`], then the `steps` given.
fn opening_then(id: &str, port: u16, attributes: &str, steps: &str) -> String {
    format!(
        "    scenario \"{id}\" {{\n        surface = \"web\"\n        {attributes}\n        \
         navigate \"open\" {{ url = \"https://localhost:{port}/\" }}\n        \
         expect \"heading\" {{ visible = role(\"heading\", \"Served over self-signed HTTPS\") }}\n        \
         request \"me\" {{\n            url = \"https://localhost:{port}/api/me\"\n            \
         json_path = \"$.user.name\"\n            equals = \"Ada\"\n        }}\n{steps}    }}\n"
    )
}

/// Check that `{suite}/ignoring` passed and `{suite}/verifying` failed its navigation; the
/// failure's message.
fn ignored_and_refused(json: &serde_json::Value, suite: &str) -> String {
    let ignoring = scenario(json, &format!("{suite}/ignoring"));
    assert_eq!(ignoring["status"], "passed", "{json}");
    let refused = &scenario(json, &format!("{suite}/verifying"))["failure"];
    assert_eq!(
        refused["code"], "test.driver.web.navigation_failed",
        "{json}"
    );
    refused["message"].as_str().unwrap_or_default().to_string()
}

/// `run` over `files` with `args`, the machine's trust store alone (no `SSL_CERT_FILE`/`DIR`).
fn run_untrusting(files: &[(&str, &str)], args: &[&str]) -> Finished {
    let work = workdir(files);
    let mut run = command("run", args, work.path());
    crate::tls::trusting_only(&mut run, None);
    finish(run.spawn().unwrap(), RUN_BOUND)
}

/// Steps that open the page at `port` in a new tab, then a popup from it, and navigate the popup
/// to the page again, expecting its heading in each: every tab of the context gets the option.
/// (The popup's first document is not asked for: Chromium starts loading it before the runner
/// adopts the popup, `docs/acl.md` §2.4.)
fn in_new_tabs(port: u16) -> String {
    format!(
        "        tab \"new\" {{\n            operation = \"new\"\n            \
         url = \"https://localhost:{port}/\"\n        }}\n        \
         expect \"in-new-tab\" {{ visible = role(\"heading\", \"Served over self-signed HTTPS\") }}\n        \
         click \"open-popup\" {{ target = role(\"link\", \"Open a popup\") }}\n        \
         tab \"to-popup\" {{\n            operation = \"switch\"\n            tab = 2\n        }}\n        \
         navigate \"in-popup\" {{ url = \"https://localhost:{port}/again\" }}\n        \
         expect \"popup\" {{ visible = role(\"heading\", \"Served over self-signed HTTPS\") }}\n"
    )
}

#[test]
fn a_scenario_that_ignores_https_errors_loads_the_page_and_sends_the_request() {
    let port = https_serving("localhost.pem", page);
    let suite = format!(
        "suite \"secure\" {{\n{}{}}}\n",
        opening_then(
            "ignoring",
            port,
            "ignore_https_errors = true",
            &in_new_tabs(port)
        ),
        opening("verifying", port, ""),
    );
    let done = run_untrusting(&[("secure.acl", &suite)], &["secure.acl", "--json"]);
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let message = ignored_and_refused(&done.json(), "secure");
    assert!(
        message.contains("ERR_CERT_AUTHORITY_INVALID") && message.contains("ignore_https_errors"),
        "{message}"
    );

    // Without the option a `request` step alone is refused by the machine's trust store.
    let asking = format!(
        "suite \"api\" {{\n    scenario \"me\" {{\n        surface = \"web\"\n        \
         request \"me\" {{ url = \"https://localhost:{port}/api/me\" }}\n    }}\n}}\n"
    );
    let done = run_untrusting(&[("api.acl", &asking)], &["api.acl", "--json"]);
    let json = done.json();
    let failure = &scenario(&json, "api/me")["failure"];
    assert_eq!(failure["code"], "test.driver.web.request_failed", "{json}");
}

/// Refused handshakes the isolation test's server has seen.
static REFUSED: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// [`page`], plus `/hold`: answered once a client refused the certificate (or after a bound),
/// saying whether one had. An empty path is a connection that ended before a request.
fn holding(path: &str, cookie: &str) -> (&'static str, String) {
    let (refused, changed) = &REFUSED;
    match path {
        "" => {
            *refused.lock().unwrap() += 1;
            changed.notify_all();
            ("text/plain", String::new())
        }
        "/hold" => {
            let guard = refused.lock().unwrap();
            let (seen, _) = changed
                .wait_timeout_while(guard, Duration::from_secs(30), |n| *n == 0)
                .unwrap();
            let body = serde_json::json!({ "other": if *seen > 0 { "refused" } else { "none" } });
            ("application/json", body.to_string())
        }
        _ => page(path, cookie),
    }
}

#[test]
fn ignoring_https_errors_stays_in_its_own_context_while_another_runs_beside_it() {
    let port = https_serving("localhost.pem", holding);
    // `ignoring` loads the page, then holds its context open until the server has seen the
    // other scenario's browser context refuse the same certificate.
    let hold = format!(
        "        request \"hold\" {{\n            url = \"https://localhost:{port}/hold\"\n            \
         json_path = \"$.other\"\n            equals = \"refused\"\n        }}\n"
    );
    let ignoring = opening_then("ignoring", port, "ignore_https_errors = true", &hold);
    let suite = format!(
        "suite \"both\" {{\n    action_timeout_ms = 60000\n{ignoring}{}}}\n",
        opening("verifying", port, "")
    );
    let done = run_untrusting(
        &[("both.acl", &suite)],
        &["both.acl", "--json", "--jobs", "2"],
    );
    ignored_and_refused(&done.json(), "both");
}

/// A project whose dev server is `openssl s_server` presenting `localhost.pem` on `port`, with
/// `extra` written into its `dev_server` block and `project` at its top.
fn openssl_project(port: u16, extra: &str, project: &str) -> String {
    let (cert, key) = (fixture("localhost.pem"), fixture("server.key"));
    format!(
        "project \"p\" {{\n    {project}\n    dev_server {{\n        command = [\"openssl\", \
         \"s_server\", \"-quiet\", \"-www\", \"-accept\", \"127.0.0.1:{port}\", \"-cert\", \"{}\", \
         \"-key\", \"{}\"]\n        url = \"https://localhost:{port}/\"\n        \
         startup_timeout_ms = 20000\n        {extra}\n    }}\n}}\n",
        cert.display(),
        key.display()
    )
}

/// A suite whose one scenario asks the dev server at `port`.
fn asking_dev_server(port: u16) -> String {
    format!(
        "suite \"served\" {{\n    scenario \"ask\" {{\n        surface = \"web\"\n        \
         request \"root\" {{ url = \"https://localhost:{port}/\" }}\n    }}\n}}\n"
    )
}

#[test]
fn an_https_dev_server_is_ready_with_the_option_and_refused_by_name_without_it() {
    let port = free_port();
    let project = openssl_project(
        port,
        "ignore_https_errors = true",
        "ignore_https_errors = true",
    );
    let done = run_untrusting(
        &[
            (".a3s-test/project.acl", &project),
            ("served.acl", &asking_dev_server(port)),
        ],
        &["served.acl", "--json"],
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);

    let port = free_port();
    let project = openssl_project(port, "", "ignore_https_errors = true");
    let done = run_untrusting(
        &[
            (".a3s-test/project.acl", &project),
            ("served.acl", &asking_dev_server(port)),
        ],
        &["served.acl", "--json"],
    );
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let failure = &done.json()["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.run.dev_server", "{failure}");
    let message = failure["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("not trusted") && message.contains("ignore_https_errors"),
        "{message}"
    );
}
