//! The agent's observation view on real pages: the text outline and its compact JSON
//! (snapshots), the byte budget and its marker, repeated texts, a diff after a click and a
//! settle on a page that changes on a timer.

use crate::support::*;
use serde_json::Value;

/// The fixture pages served by `a3s-test serve` in this repository.
fn fixture(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/web/");
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

/// The output with the server's random port replaced, so it can be snapshotted.
fn stable(text: &str, server: &Server) -> String {
    text.replace(&server.origin, "http://127.0.0.1:PORT")
}

fn observe_text(d: &std::path::Path, session: &str, extra: &[&str]) -> String {
    let mut args = vec!["agent", "observe", "--session", session];
    args.extend_from_slice(extra);
    let out = a3s(d, &args);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    out.stdout
}

#[test]
fn the_forms_fixture_reads_as_one_outline_in_text_and_compact_json() {
    let (server, dir, groups) = session_on(&[("/", &fixture("forms.html"))], "forms", &[]);
    let d = dir.path();
    let text = observe_text(d, "forms", &[]);
    insta::assert_snapshot!("forms_text", stable(&text, &server));
    let json = a3s(d, &["agent", "observe", "--session", "forms", "--json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    // Compact: one line of JSON, and `checked` is a boolean like every on/off state.
    assert_eq!(json.stdout.trim_end().lines().count(), 1, "{}", json.stdout);
    let v = json.json();
    let terms = refs(&v)
        .into_iter()
        .find(|r| r["role"] == "checkbox")
        .unwrap();
    assert_eq!(terms["checked"], Value::Bool(false), "{terms}");
    insta::assert_snapshot!("forms_json", stable(json.stdout.trim_end(), &server));
    turn(d, "forms", &["abort"]);
    assert_gone(groups);
}

const GRID: &str = r#"<!doctype html><body><h1>Seats</h1>
<div style="display:grid;grid-template-columns:repeat(3,4em)">
<div>A</div><div>B</div><div>C</div>
<div>1</div><div>1</div><div>1</div>
</div>
<label for="note">Note</label><textarea id="note">said once</textarea>
<p>Hello <b>world</b>, again.</p>
</body>"#;

#[test]
fn repeated_texts_are_kept_and_a_value_appears_once() {
    let (server, dir, groups) = session_on(&[("/", GRID)], "grid", &[]);
    let d = dir.path();
    let text = observe_text(d, "grid", &[]);
    insta::assert_snapshot!("grid_text", stable(&text, &server));
    assert_eq!(text.matches("\"1\"\n").count(), 3, "{text}");
    assert_eq!(text.matches("said once").count(), 1, "{text}");
    turn(d, "grid", &["abort"]);
    assert_gone(groups);
}

fn list_page(n: usize) -> String {
    let mut items = String::new();
    for i in 1..=n {
        items.push_str(&format!(
            "<li>Row {i} <button type=\"button\">Pick {i}</button></li>\n"
        ));
    }
    format!("<!doctype html><body><h1>Rows</h1><ul>{items}</ul></body>")
}

#[test]
fn a_view_past_its_budget_says_what_was_cut_and_the_scope_shows_the_rest() {
    let (_server, dir, groups) = session_on(&[("/", &list_page(60))], "budget", &[]);
    let d = dir.path();
    let text = observe_text(d, "budget", &["--max-bytes", "600"]);
    assert!(text.len() <= 600 + 200, "{} bytes:\n{text}", text.len());
    let marker = text
        .lines()
        .find(|l| l.starts_with("… cut "))
        .unwrap_or_else(|| panic!("no marker in\n{text}"));
    assert!(marker.contains("past the 600-byte budget"), "{marker}");
    let scope = marker
        .split("observe --scope ")
        .nth(1)
        .and_then(|rest| rest.split([',', ' ']).next())
        .unwrap_or_else(|| panic!("no scope in {marker}"))
        .to_string();
    assert!(
        scope.starts_with("@e") || scope.parse::<usize>().is_ok(),
        "{scope}"
    );
    // The scoped view starts where the first one was cut.
    let rest = observe_text(d, "budget", &["--max-bytes", "600", "--scope", &scope]);
    assert!(rest.contains(&format!("from {scope}\n")), "{rest}");
    assert!(!rest.contains("\"Pick 1\""), "{rest}");
    // JSON carries the same marker; the default budget fits the whole list.
    let v = turn(d, "budget", &["observe", "--max-bytes", "600"]);
    assert_eq!(v["truncated"], true);
    assert!(v["truncation"].as_str().unwrap().contains("--scope"), "{v}");
    assert!(serde_json::to_string(&v).unwrap().len() <= 600, "{v}");
    let whole = turn(d, "budget", &["observe", "--full"]);
    assert_eq!(refs(&whole).len(), 60);
    assert!(whole.get("truncated").is_none(), "{whole}");
    turn(d, "budget", &["abort"]);
    assert_gone(groups);
}

const MENU: &str = r#"<!doctype html><body><h1>Menu</h1>
<button type="button" aria-expanded="false" onclick="this.setAttribute('aria-expanded','true'); document.getElementById('items').hidden = false; document.getElementById('hint').remove()">Open</button>
<p id="hint">Closed</p>
<ul id="items" hidden><li><a href="?a">Alpha</a></li><li><a href="?b">Beta</a></li></ul>
<p>Footer</p>
</body>"#;

#[test]
fn a_diff_after_a_click_lists_only_the_changed_lines_with_current_refs() {
    let (server, dir, groups) = session_on(&[("/", MENU)], "diff", &[]);
    let d = dir.path();
    let first = turn(d, "diff", &["observe"]);
    let n = first["observation"].as_u64().unwrap().to_string();
    let open = ref_of(&first, "button", "Open");
    turn(d, "diff", &["click", &open]);
    let text = observe_text(d, "diff", &["--since", &n]);
    insta::assert_snapshot!("menu_diff_text", stable(&text, &server));
    let v = turn(d, "diff", &["observe", "--since", &n]);
    let changes = v["changes"].as_array().unwrap();
    assert!(v.get("lines").is_none(), "{v}");
    let kinds: Vec<(&str, String)> = changes
        .iter()
        .map(|c| {
            let what = c["ref"]
                .as_str()
                .map(|_| c["name"].to_string())
                .unwrap_or_else(|| c["text"].to_string());
            (c["change"].as_str().unwrap(), what)
        })
        .collect();
    assert!(kinds.contains(&("changed", "\"Open\"".into())), "{kinds:?}");
    assert!(kinds.contains(&("added", "\"Alpha\"".into())), "{kinds:?}");
    assert!(
        kinds.contains(&("removed", "\"Closed\"".into())),
        "{kinds:?}"
    );
    assert!(
        !kinds.iter().any(|(_, w)| w.contains("Footer")),
        "{kinds:?}"
    );
    // The refs of a diff are the new observation's: acting on one passes the gates.
    let alpha = changes
        .iter()
        .find(|c| c["name"] == "Alpha")
        .and_then(|c| c["ref"].as_str())
        .unwrap()
        .to_string();
    let m = v["observation"].as_u64().unwrap().to_string();
    turn(d, "diff", &["click", &alpha, "--observation", &m]);
    // An unknown baseline says so and carries the whole view.
    let v = turn(d, "diff", &["observe", "--since", "999"]);
    assert!(v["cannot_diff"].as_str().unwrap().contains("999"), "{v}");
    assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    turn(d, "diff", &["abort"]);
    assert_gone(groups);
}

/// Adds one item every 100 ms until there are five, then stops.
const TIMER: &str = r#"<!doctype html><body><h1>Loading</h1><ul id="l"></ul>
<script>
let n = 0;
const t = setInterval(() => {
  n += 1;
  const li = document.createElement('li'); li.textContent = 'Item ' + n;
  document.getElementById('l').appendChild(li);
  if (n === 5) { clearInterval(t); document.querySelector('h1').textContent = 'Ready'; }
}, 100);
</script></body>"#;

/// Changes an attribute every 20 ms, forever.
const BUSY: &str = r#"<!doctype html><body><h1>Busy</h1><script>
setInterval(() => { document.body.dataset.t = String(Date.now()); }, 20);
</script></body>"#;

#[test]
fn settle_waits_for_a_page_that_changes_on_a_timer_and_says_so() {
    let (_server, dir, groups) = session_on(&[("/", TIMER), ("/busy", BUSY)], "settle", &[]);
    let d = dir.path();
    let v = turn(d, "settle", &["observe", "--settle-ms", "400"]);
    assert_eq!(v["settle"]["settled"], true, "{v}");
    let lines = v["lines"].to_string();
    assert!(lines.contains("Item 5") && lines.contains("Ready"), "{v}");
    // A page that never stops changing hits the cap, and the answer says it did not settle.
    turn(d, "settle", &["navigate", "/busy"]);
    let text = observe_text(d, "settle", &["--settle-ms", "300"]);
    assert!(
        text.contains("\nnot settled: still changing after "),
        "{text}"
    );
    // Out-of-range values are refused before anything waits.
    let out = a3s(
        d,
        &[
            "agent",
            "observe",
            "--session",
            "settle",
            "--settle-ms",
            "0",
            "--json",
        ],
    );
    assert_eq!(out.code, 2, "{}", out.stdout);
    turn(d, "settle", &["abort"]);
    assert_gone(groups);
}
