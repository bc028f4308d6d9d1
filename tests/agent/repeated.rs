//! An agent acts on the element it was shown, even among repeated ones: the second of three
//! "Delete" buttons is clicked by its ref, the step promotes to a locator that names that row's
//! button alone, and the promoted suite still picks Bob's row after the rows are re-rendered in
//! another order. A ref whose element changed or left the page is refused with the true reason.

use crate::support::*;
use serde_json::Value;

const ROWS: &str = include_str!("../fixtures/web/rows.html");

/// The refs of the buttons named `name`, in observation order.
fn refs_named(observation: &Value, name: &str) -> Vec<String> {
    refs(observation)
        .into_iter()
        .filter(|r| r["role"] == "button" && r["name"] == name)
        .map(|r| r["ref"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_second_of_three_same_named_buttons_is_clicked_promoted_and_replayed() {
    let (_server, dir, groups) = session_on(&[("/", ROWS)], "rows", &[]);
    let d = dir.path();
    let obs = turn(d, "rows", &["observe"]);
    let deletes = refs_named(&obs, "Delete");
    assert_eq!(deletes.len(), 6, "{obs}");
    // The row text stands next to its button in the outline, so the rows can be told apart.
    let text = a3s(d, &["agent", "observe", "--session", "rows"]).stdout;
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in {text}"))
    };
    assert!(
        at("Alice") < at(&deletes[0]) && at(&deletes[0]) < at("Bob"),
        "{text}"
    );
    assert!(
        at("Bob") < at(&deletes[1]) && at(&deletes[1]) < at("Carol"),
        "{text}"
    );

    // Bob's button, the second of three with one name: nothing changed, so it is clicked.
    let obs = turn(d, "rows", &["observe"]);
    let bob = refs_named(&obs, "Delete")[1].clone();
    let clicked = turn(d, "rows", &["click", &bob]);
    let written = clicked["resolved"][0]["target"].as_str().unwrap();
    assert_eq!(
        written, r#"within(testid("row-bob"), role("button", "Delete"))"#,
        "{clicked}"
    );
    turn(d, "rows", &["expect", "text", "deleted Bob"]);

    // A project row has only its text: the locator anchors on it.
    let obs = turn(d, "rows", &["observe"]);
    let gemini = refs_named(&obs, "Delete")[4].clone();
    let clicked = turn(d, "rows", &["click", &gemini]);
    let written = clicked["resolved"][0]["target"].as_str().unwrap();
    assert_eq!(
        written, r#"within(has_text(role("listitem"), "Gemini"), role("button", "Delete"))"#,
        "{clicked}"
    );
    turn(d, "rows", &["expect", "text", "deleted project Gemini"]);

    // The rows re-render (new elements) between the observation and the click: the ref is
    // refused, saying that its element is gone, and nothing is clicked.
    let obs = turn(d, "rows", &["observe"]);
    let carol = refs_named(&obs, "Delete")[2].clone();
    let shuffle = ref_of(&obs, "button", "Shuffle");
    let clicked = turn(
        d,
        "rows",
        &["exec", &format!("click {{ target = ref(\"{shuffle}\") }}")],
    );
    assert_eq!(clicked["status"], "passed");
    let refused = refused_turn(d, "rows", &["click", &carol], "test.session.stale_ref");
    let m = error_message(&refused);
    assert!(
        m.contains("ended") || m.contains("is gone"),
        "the true reason: {m}"
    );

    turn(d, "rows", &["promote", "--output", "rows.acl"]);
    turn(d, "rows", &["finish", "--status", "passed"]);
    assert_gone(groups);
    let suite = std::fs::read_to_string(d.join("rows.acl")).unwrap();
    assert!(!suite.contains("ref("), "{suite}");

    // The promoted suite passes, and still picks Bob's and Gemini's rows when the rows come in
    // reverse order.
    let run = a3s(d, &["run", "rows.acl"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let reversed = suite.replacen("/\" }", "/#reversed\" }", 1);
    assert_ne!(
        reversed, suite,
        "the start URL is in the promoted suite: {suite}"
    );
    std::fs::write(d.join("reversed.acl"), reversed).unwrap();
    let run = a3s(d, &["run", "reversed.acl"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}
