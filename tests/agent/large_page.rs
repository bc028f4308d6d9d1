//! Issue 16 case 10: a page of 20,000 elements. The first observe used to time out
//! (`Accessibility.getFullAXTree did not answer within 10000 ms`), `session.json` grew to
//! 6.75 MB and `--full` printed 1.3 MB. Observations are now bounded in bytes on such a page,
//! and elements made operable by a cursor or a listener get refs there as on a small page.

use crate::support::*;
use a3s_test_runner::session::view::MAX_MAX_BYTES as FULL_BUDGET_BYTES;
use serde_json::Value;

/// The card is operable only by its pointer cursor (the click is handled on the document), the
/// tile only by its own listener, the rows of the ordered list by their list's listener.
const LISTENERS: &str = "<script>\
const said = document.getElementById('said');\
document.addEventListener('click', (e) => { if (e.target.closest('#card')) said.textContent = 'card opened'; });\
document.getElementById('tile').addEventListener('click', () => { said.textContent = 'tile clicked'; });\
document.getElementById('sorted').addEventListener('mousedown', (e) => { said.textContent = 'picked ' + e.target.textContent; });\
</script>";

/// `rows` list items of a button, a link and a text span each (4 elements per row).
fn big_page(rows: usize) -> String {
    let mut body = String::with_capacity(rows * 120);
    for i in 0..rows {
        body.push_str(&format!(
            "<li><button type=\"button\">Item {i}</button> <a href=\"#r{i}\">Details {i}</a> <span>note {i}</span></li>\n"
        ));
    }
    format!(
        "<!doctype html><html><head><title>Big</title></head><body><h1>Catalogue</h1>\
         <button id=\"first\" type=\"button\">Press me</button>\
         <div id=\"handle\" draggable=\"true\" aria-label=\"Handle\">drag</div>\
         <div id=\"card\" style=\"cursor: pointer\">Open <b>card</b></div>\
         <div id=\"tile\">Listened tile</div>\
         <ol id=\"sorted\"><li>First row</li><li>Second row</li></ol>\
         <output id=\"said\">nothing yet</output>\
         <label>PIN <input type=\"password\" id=\"pin\" value=\"s3cret-pin-value\"></label>\
         <ul>{body}</ul>{LISTENERS}</body></html>"
    )
}

#[test]
fn a_page_of_twenty_thousand_elements_is_observed_within_bounds() {
    let server = Server::start(&[("/big", &big_page(5_000))]);
    let dir = project();
    let d = dir.path();
    let groups = start(d, "big", &format!("{}/big", server.origin), &[]);

    let obs = turn(d, "big", &["observe"]);
    let count = obs["ref_count"].as_u64().unwrap() as usize;
    assert!(count > 0 && count <= a3s_test_web::MAX_CONTROLS, "{count}");
    assert_eq!(obs["truncated"], true, "{}", obs["truncation"]);
    assert!(obs["truncation"]
        .as_str()
        .unwrap()
        .contains("semantic targets"));
    // A private value never leaves the page on this path either.
    assert!(!obs.to_string().contains("s3cret-pin-value"), "{obs}");
    let pin = refs(&obs)
        .into_iter()
        .find(|r| r["name"] == "PIN")
        .unwrap_or_else(|| panic!("no PIN field in {obs}"));
    assert_eq!(pin["value"], "[redacted]", "{pin}");
    // The controls before the cut are listed, in document order.
    ref_of(&obs, "button", "Press me");
    ref_of(&obs, "link", "Details 0");
    // A draggable element has a ref on this path too.
    let handle = refs(&obs)
        .into_iter()
        .find(|r| r["name"] == "Handle")
        .unwrap_or_else(|| panic!("no draggable ref in {obs}"))["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let hovered = turn(d, "big", &["hover", &handle]);
    assert_eq!(hovered["status"], "passed", "{hovered}");

    // Elements operable only by a pointer cursor, their own listener or their list's listener
    // have refs on this path too, named by their text, and are acted on by ref.
    for (name, said) in [
        ("Open card", "card opened"),
        ("Listened tile", "tile clicked"),
        ("Second row", "picked Second row"),
    ] {
        let obs = turn(d, "big", &["observe"]);
        let line = refs(&obs)
            .into_iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("no ref named {name:?} in {obs}"));
        assert_eq!(
            line["role"],
            if name.ends_with("row") {
                "listitem"
            } else {
                "generic"
            },
            "{line}"
        );
        let clicked = turn(d, "big", &["click", line["ref"].as_str().unwrap()]);
        assert_eq!(clicked["status"], "passed", "{clicked}");
        turn(d, "big", &["expect", "text", said]);
    }
    // The list that delegates to its rows is no control of its own.
    let obs = turn(d, "big", &["observe"]);
    assert!(
        !refs(&obs)
            .iter()
            .any(|r| r["name"] == "First row Second row"),
        "{obs}"
    );

    // What the session keeps of an observation is bounded (it was 6.75 MB).
    let kept = std::fs::metadata(d.join(".a3s-test/agent-sessions/big/session.json"))
        .unwrap()
        .len();
    assert!(kept < 512 * 1024, "session.json is {kept} bytes");

    // `--full` stays within its budget and says it was cut.
    let full = a3s(
        d,
        &["agent", "observe", "--session", "big", "--full", "--json"],
    );
    assert_eq!(full.code, 0, "{}", full.stderr);
    assert!(
        full.stdout.len() < FULL_BUDGET_BYTES + 16 * 1024,
        "--full printed {} bytes",
        full.stdout.len()
    );
    let view = full.json();
    assert_eq!(view["truncated"], true);
    assert!(view["truncation"].is_string(), "{view}");
    let text = a3s(d, &["agent", "observe", "--session", "big", "--full"]);
    assert!(text.stdout.contains("\n… "), "{}", text.stdout);

    turn(d, "big", &["abort"]);
    assert_gone(groups);
}

/// Issue 28: an unchanged page of 20,000 elements (15,000 buttons, built by its own script) gave
/// 431, 456, 327 and 450 refs in four observations, `--since` listed controls that had been there
/// all along as added, and the cut marker blamed the cap for a 327-ref view. Now every
/// observation is the same complete view: the first 500 controls in document order with the same
/// refs, no change since the one before, and a marker that names the cap.
#[test]
fn an_unchanged_page_of_twenty_thousand_elements_gives_the_same_view_every_time() {
    let page = include_str!("../fixtures/web/large.html");
    let (_server, dir, groups) = session_on(&[("/", page)], "large", &[]);
    let d = dir.path();
    let mut views: Vec<Value> = Vec::new();
    for _ in 0..4 {
        let obs = turn(d, "large", &["observe", "--full"]);
        assert_eq!(
            obs["ref_count"].as_u64(),
            Some(a3s_test_web::MAX_CONTROLS as u64),
            "{obs}"
        );
        let marker = obs["truncation"].as_str().unwrap_or_default().to_string();
        assert!(marker.contains("at most 500 refs"), "{marker}");
        assert!(!marker.contains("command bound"), "{marker}");
        views.push(obs);
    }
    let listed = |obs: &Value| -> Vec<(String, String)> {
        refs(obs)
            .iter()
            .map(|r| (r["ref"].to_string(), r["name"].to_string()))
            .collect()
    };
    let first = listed(&views[0]);
    assert_eq!(first.first().map(|r| r.1.as_str()), Some("\"Open 0\""));
    for view in &views[1..] {
        assert_eq!(listed(view), first);
    }
    // In document order: row i's three buttons, row after row.
    assert_eq!(ref_of(&views[0], "button", "Delete 0"), "@e3");
    // Nothing changed, so a diff lists nothing.
    let last = views[3]["observation"].as_u64().unwrap().to_string();
    let diff = turn(d, "large", &["observe", "--since", &last]);
    let changes = diff["changes"].as_array().cloned().unwrap_or_default();
    assert!(changes.is_empty(), "{diff}");
    turn(d, "large", &["abort"]);
    assert_gone(groups);
}
