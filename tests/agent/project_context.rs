//! An agent session starts the way `run` opens a web scenario: `agent start` in a project whose
//! file sets context options (locale, time zone, viewport, colour scheme) and a
//! `storage_state` opens its browser context with them, so the very first document (the start
//! URL) sees them; the session record says what was applied. A state file that is not there
//! refuses the start with the run's code in the message, and leaves no process behind.

use crate::support::*;
use serde_json::json;

/// Prints what the context shows it: language, time zone, width, colour scheme, and the
/// signed-in state (a cookie, a localStorage item, an IndexedDB record).
const PAGE: &str = r#"<!doctype html><title>Context</title>
<p id="context"></p><p id="state">state: reading</p>
<script>
document.getElementById('context').textContent = [
  'lang=' + navigator.language,
  'zone=' + Intl.DateTimeFormat().resolvedOptions().timeZone,
  'width=' + innerWidth,
  'dark=' + matchMedia('(prefers-color-scheme: dark)').matches,
].join(' ');
(async () => {
  const cookie = document.cookie.split('; ').find((c) => c.startsWith('session=')) || 'none';
  const theme = localStorage.getItem('theme') || 'none';
  let note = 'none';
  if ((await indexedDB.databases()).some((d) => d.name === 'app')) {
    const db = await new Promise((ok, no) => {
      const r = indexedDB.open('app');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => no(r.error);
    });
    const when = await new Promise((ok) => {
      const r = db.transaction('notes').objectStore('notes').get('first');
      r.onsuccess = () => ok(r.result);
    });
    note = when instanceof Date ? when.toISOString() : 'not a date';
  }
  document.getElementById('state').textContent =
    `state: ${cookie} theme=${theme} note=${note}`;
})();
</script>"#;

const PROJECT: &str = r#"project "shop" {
    locale = "de-DE"
    timezone_id = "Asia/Tokyo"
    viewport = { width = 480, height = 800 }
    color_scheme = "dark"
    storage_state = ".a3s-test/auth.json"
}
"#;

/// A state file for `origin`: a session cookie, a localStorage item and an IndexedDB record
/// holding a Date.
fn state(origin: &str) -> String {
    json!({
        "version": 2,
        "cookies": [{
            "name": "session", "value": "abc123", "domain": "127.0.0.1", "path": "/",
            "expires": -1.0, "httpOnly": false, "secure": false, "sameSite": "Lax"
        }],
        "origins": [{
            "origin": origin,
            "localStorage": [{ "name": "theme", "value": "sepia" }],
            "indexedDB": [{
                "name": "app", "version": 1,
                "objectStores": [{
                    "name": "notes", "keyPath": null, "autoIncrement": false, "indexes": [],
                    "records": [{
                        "key": { "type": "string", "value": "first" },
                        "value": { "type": "date", "value": 1_704_164_645_000.0 }
                    }]
                }]
            }]
        }]
    })
    .to_string()
}

fn observed_text(dir: &std::path::Path, session: &str) -> String {
    let out = a3s(dir, &["agent", "observe", "--session", session]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    out.stdout
}

#[test]
fn a_session_sees_the_project_context_options_and_starts_signed_in() {
    let (server, dir, url) = page_and_project(PAGE);
    let d = dir.path();
    crate::common::write(d, ".a3s-test/project.acl", PROJECT);
    crate::common::write(d, ".a3s-test/auth.json", state(&server.origin));
    let groups = start(d, "ctx", &url, &[]);
    let text = observed_text(d, "ctx");
    assert!(
        text.contains("lang=de-DE zone=Asia/Tokyo width=480 dark=true"),
        "{text}"
    );
    // Read once the page's own script has finished with IndexedDB (a turn waits for it).
    let expected = "state: session=abc123 theme=sepia note=2024-01-02T03:04:05.000Z";
    turn(d, "ctx", &["expect-text", expected]);
    let record = session_json(d, "ctx");
    assert_eq!(record["context"]["locale"], "de-DE", "{record}");
    assert_eq!(record["storage_state"], ".a3s-test/auth.json");
    turn(d, "ctx", &["abort"]);
    assert_gone(groups);
}

#[test]
fn without_a_project_file_the_session_keeps_the_browser_defaults() {
    let (_server, dir, url) = page_and_project(PAGE);
    let d = dir.path();
    let groups = start(d, "plain", &url, &[]);
    let text = observed_text(d, "plain");
    assert!(!text.contains("lang=de-DE"), "{text}");
    assert!(text.contains("dark=false"), "{text}");
    turn(
        d,
        "plain",
        &["expect-text", "state: none theme=none note=none"],
    );
    assert!(session_json(d, "plain").get("context").is_none());
    turn(d, "plain", &["abort"]);
    assert_gone(groups);
}

#[test]
fn a_missing_state_file_refuses_the_start_with_the_run_code() {
    let (_server, dir, url) = page_and_project(PAGE);
    let d = dir.path();
    crate::common::write(d, ".a3s-test/project.acl", PROJECT);
    let refusal = refused(
        d,
        &["agent", "start", &url, "--session", "nostate", "--json"],
        "test.session.supervisor",
    );
    let message = error_message(&refusal);
    assert!(
        message.contains("test.run.storage_state_missing") && message.contains("auth.json"),
        "{message}"
    );
    let record = session_json(d, "nostate");
    let o = &record["ownership"];
    for key in ["supervisor_pgid", "browser_pgid"] {
        let group = o[key].as_u64().unwrap_or(0) as u32;
        if group > 0 {
            assert!(
                a3s_test_web::live_group_members(group).is_empty(),
                "{key} {group} survived"
            );
        }
    }
}
