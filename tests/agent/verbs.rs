//! Refs for elements a page made operable without an operable role, one verb per action kind,
//! and answers an agent can act on (exit 0/1/2, unknown vs stale refs, errors in the agent's own
//! terms) — the real binary and Chromium against loopback pages.

use crate::support::*;
use serde_json::Value;

/// A draggable div, a drop zone with drag listeners, a div with a click listener, a div that
/// only has a pointer cursor, a container whose delegated click listener must not make it a
/// ref (it holds a button), and a list whose listener delegates to its rows (they get refs).
const OPERABLE: &str = r#"<!doctype html><html><head><style>
#src, #dst, #card, #tile { width: 120px; height: 40px; margin: 8px; border: 1px solid #888; }
#tile { cursor: pointer; }
</style></head><body>
<div id="src" draggable="true">Drag me</div>
<div id="dst">Drop here</div>
<div id="card">Open card</div>
<div id="tile" onmousedown="document.getElementById('out').textContent = 'tile pressed'">Tile</div>
<div id="wrap"><button type="button" id="inner">Inner</button></div>
<ol id="sorted"><li>First row</li><li>Second row</li></ol>
<p id="out">nothing yet</p>
<script>
const out = document.getElementById('out');
document.getElementById('card').addEventListener('click', () => { out.textContent = 'card opened'; });
const dst = document.getElementById('dst');
dst.addEventListener('dragover', (e) => e.preventDefault());
dst.addEventListener('drop', (e) => {
  e.preventDefault();
  out.textContent = 'dropped in the ' + (e.offsetY > 30 ? 'bottom' : e.offsetY < 10 ? 'top' : 'middle');
});
document.getElementById('wrap').addEventListener('click', () => {});
document.getElementById('sorted').addEventListener('mousedown', (e) => { out.textContent = 'picked ' + e.target.textContent; });
</script>
</body></html>"#;

fn names(observation: &Value) -> Vec<(String, String)> {
    refs(observation)
        .iter()
        .map(|r| {
            (
                r["role"].as_str().unwrap_or("").to_string(),
                r["name"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn ref_named(observation: &Value, name: &str) -> String {
    refs(observation)
        .into_iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no ref named {name:?} in {observation}"))["ref"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn draggable_and_clickable_divs_get_refs_and_are_acted_on_by_ref() {
    let (_server, dir, groups) = session_on(&[("/", OPERABLE)], "ops", &[]);
    let d = dir.path();
    let obs = turn(d, "ops", &["observe"]);
    let listed = names(&obs);
    for name in [
        "Drag me",
        "Drop here",
        "Open card",
        "Tile",
        "Inner",
        "First row",
        "Second row",
    ] {
        assert!(
            listed.iter().any(|(_, n)| n == name),
            "{name} has no ref: {listed:?}"
        );
    }
    // The delegating container holds a button: it is not a control itself.
    assert!(
        !listed
            .iter()
            .any(|(_, n)| n.contains("Inner") && n != "Inner"),
        "{listed:?}"
    );
    assert!(listed.iter().all(|(role, _)| role != "RootWebArea"));

    let card = ref_named(&obs, "Open card");
    let clicked = turn(d, "ops", &["click", &card]);
    assert_eq!(clicked["status"], "passed", "{clicked}");
    turn(d, "ops", &["expect", "text", "card opened"]);

    let obs = turn(d, "ops", &["observe"]);
    let n = obs["observation"].as_u64().unwrap().to_string();
    let tile = ref_named(&obs, "Tile");
    turn(d, "ops", &["click", &tile, "--observation", &n]);
    turn(d, "ops", &["expect", "text", "tile pressed"]);

    let obs = turn(d, "ops", &["observe"]);
    assert!(
        !names(&obs).iter().any(|(_, n)| n == "First row Second row"),
        "the delegating list is no control: {obs}"
    );
    let row = ref_named(&obs, "Second row");
    turn(d, "ops", &["click", &row]);
    turn(d, "ops", &["expect", "text", "picked Second row"]);

    let obs = turn(d, "ops", &["observe"]);
    let (src, dst) = (ref_named(&obs, "Drag me"), ref_named(&obs, "Drop here"));
    let dragged = turn(d, "ops", &["drag", &src, &dst]);
    assert_eq!(dragged["step"], "drag", "{dragged}");
    turn(d, "ops", &["wait", "text", "dropped in the middle"]);
    // `--edge` releases just inside that edge of the target instead.
    let obs = turn(d, "ops", &["observe"]);
    let (src, dst) = (ref_named(&obs, "Drag me"), ref_named(&obs, "Drop here"));
    turn(d, "ops", &["drag", &src, &dst, "--edge", "bottom"]);
    turn(d, "ops", &["wait", "text", "dropped in the bottom"]);

    // The steps promote with targets that name the same nodes.
    let finished = turn(d, "ops", &["finish", "--status", "passed"]);
    assert_eq!(
        finished["next"],
        "a3s-test agent promote --session ops --output suites/ops.acl"
    );
    let suite = d.join("ops.acl");
    ok(
        d,
        &[
            "agent",
            "promote",
            "--session",
            "ops",
            "--output",
            suite.to_str().unwrap(),
            "--json",
        ],
    );
    let check = a3s(d, &["check", suite.to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    let promoted = std::fs::read_to_string(&suite).unwrap();
    assert!(promoted.contains(r#"edge = "bottom""#), "{promoted}");
    assert_gone(groups);
}

/// One control of each kind, a hover menu, a key listener and a tall page.
const CONTROLS: &str = r#"<!doctype html><html><head><style>
#menu { display: none; } #trigger:hover + #menu { display: block; }
#tall { height: 4000px; }
</style></head><body>
<label for="name">Name</label><input id="name">
<label for="notes">Notes</label><input id="notes" value="a">
<label><input type="checkbox" id="tos"> Accept terms</label>
<label for="size">Size</label><select id="size"><option value="s">Small</option><option value="m">Medium</option></select>
<button type="button" id="trigger">Account</button><div id="menu"><a href="/settings">Settings</a></div>
<p id="keys">no key</p>
<div id="tall">tall</div>
<p id="bottom">Bottom</p>
<script>
document.getElementById('name').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') document.getElementById('keys').textContent = 'enter in ' + e.target.id;
});
window.addEventListener('scroll', () => { document.getElementById('keys').dataset.scrolled = 'yes'; });
</script>
</body></html>"#;

#[test]
fn each_verb_family_runs_its_statement() {
    let (_server, dir, groups) = session_on(&[("/", CONTROLS)], "verbs", &[]);
    let d = dir.path();
    let passed = |words: &[&str], step: &str| {
        let v = turn(d, "verbs", words);
        assert_eq!(v["status"], "passed", "{words:?}: {v}");
        assert_eq!(v["step"], step, "{words:?}: {v}");
    };
    // Pointer: hover opens the menu.
    let obs = turn(d, "verbs", &["observe"]);
    let account = ref_of(&obs, "button", "Account");
    passed(&["hover", &account], "hover");
    passed(
        &["expect", "visible", "role(\"link\", \"Settings\")"],
        "expect",
    );
    // Text: fill, type, and press into a target (focused first, one statement).
    let obs = turn(d, "verbs", &["observe"]);
    let name = ref_of(&obs, "textbox", "Name");
    passed(&["fill", &name, "Ada \"Lovelace\""], "fill");
    passed(&["type", "label(\"Notes\")", "bc"], "type");
    passed(
        &[
            "expect",
            "value",
            "Ada \"Lovelace\"",
            "--target",
            "label(\"Name\")",
        ],
        "expect",
    );
    passed(
        &["expect", "value", "abc", "--target", "label(\"Notes\")"],
        "expect",
    );
    // `press` into a ref while Notes has focus: one statement, one turn, one step, the ref
    // checked once before dispatch; the key reaches Name.
    let obs = turn(d, "verbs", &["observe"]);
    let n = obs["observation"].as_u64().unwrap().to_string();
    let name = ref_of(&obs, "textbox", "Name");
    let before = session_json(d, "verbs");
    let pressed = turn(d, "verbs", &["press", "Enter", &name, "--observation", &n]);
    let after = session_json(d, "verbs");
    assert_eq!(pressed["step"], "press", "{pressed}");
    assert_eq!(pressed["turn"], before["next_turn"], "{pressed}");
    let count = |v: &Value, key: &str| v[key].as_u64().unwrap();
    assert_eq!(count(&after, "next_turn"), count(&before, "next_turn") + 1);
    assert_eq!(count(&after, "actions"), count(&before, "actions") + 1);
    let steps = |v: &Value| v["steps"].as_array().map(Vec::len).unwrap();
    assert_eq!(steps(&after), steps(&before) + 1);
    let step = &after["steps"][steps(&before)];
    assert_eq!(
        step["statement"],
        format!("press {{\n    target = ref(\"{name}\")\n    key = \"Enter\"\n}}"),
        "{step}"
    );
    assert_eq!(pressed["resolved"][0]["ref"], name.as_str(), "{pressed}");
    assert_eq!(pressed["resolved"].as_array().map(Vec::len), Some(1));
    let wait = a3s(d, &turn_args("verbs", &["wait", "text", "enter in name"]));
    assert_eq!(wait.code, 0, "{}{}", wait.stdout, wait.stderr);
    assert!(
        wait.stdout.contains(r#""step":"wait","status":"passed""#)
            && wait.stdout.contains(r#""detail":{"observed":"#)
            && !wait.stdout.contains(r#""facts":"#),
        "{}",
        wait.stdout
    );
    // Observation N has ended: the same ref is refused as stale, nothing is dispatched.
    let waited = session_json(d, "verbs");
    refused_turn(
        d,
        "verbs",
        &["press", "Enter", &name, "--observation", &n],
        "test.session.stale_ref",
    );
    let refused = session_json(d, "verbs");
    assert_eq!(steps(&refused), steps(&waited));
    assert_eq!(count(&refused, "actions"), count(&waited, "actions"));
    // A stable target works the same way.
    passed(&["press", "Enter", "label(\"Name\")"], "press");
    // Choice: check, uncheck, select.
    let obs = turn(d, "verbs", &["observe"]);
    let tos = ref_of(&obs, "checkbox", "Accept terms");
    passed(&["check", &tos], "check");
    passed(&["expect", "checked", "label(\"Accept terms\")"], "expect");
    // A step's detail prints as the object a suite's results record, keys sorted (it crossed
    // the supervisor socket tagged, which the printed answer does not show).
    let unchecked = a3s(
        d,
        &turn_args("verbs", &["uncheck", "label(\"Accept terms\")"]),
    );
    assert_eq!(
        unchecked.code, 0,
        "{}{}",
        unchecked.stdout, unchecked.stderr
    );
    assert!(
        unchecked
            .stdout
            .contains(r#""step":"uncheck","status":"passed""#)
            && unchecked
                .stdout
                .contains(r#""detail":{"changed":true,"element":"#)
            && !unchecked.stdout.contains(r#""kind":"#),
        "{}",
        unchecked.stdout
    );
    passed(
        &["expect", "unchecked", "label(\"Accept terms\")"],
        "expect",
    );
    passed(&["select", "label(\"Size\")", "m"], "select");
    passed(
        &[
            "expect",
            "selected_values",
            "m",
            "--target",
            "label(\"Size\")",
        ],
        "expect",
    );
    passed(&["focus", "label(\"Notes\")"], "focus");
    passed(&["expect", "focused", "label(\"Notes\")"], "expect");
    // Scrolling: scroll and wheel.
    passed(&["wheel", "--dy", "-100", "--dx", "0"], "wheel");
    passed(&["scroll", "down", "--by", "6000"], "wheel");
    passed(&["wait", "visible", "css(\"#bottom\")"], "wait");
    passed(&["expect", "in_viewport", "css(\"#bottom\")"], "expect");
    passed(
        &[
            "expect",
            "visible-count",
            "1",
            "--target",
            "css(\"#bottom\")",
        ],
        "expect",
    );
    turn(d, "verbs", &["finish", "--status", "passed"]);
    assert_gone(groups);
}

/// A disabled button (clicks on it fail) and one that works.
const ERRORS: &str = r#"<!doctype html><html><head><style>
</style></head><body>
<button type="button" id="covered" disabled>Hidden away</button>
<button type="button" onclick="this.textContent = 'Done'">Go</button>
</body></html>"#;

/// The human error lines of a command (stderr), with numbers that vary per run masked.
fn human(d: &std::path::Path, words: &[&str]) -> (i32, String) {
    let mut args = vec!["agent"];
    args.extend_from_slice(words);
    args.extend(["--session", "errs"]);
    let out = a3s(d, &args);
    let masked: String = out
        .stderr
        .split_inclusive(char::is_whitespace)
        .map(|w| {
            let t = w.trim_end_matches(|c: char| c.is_whitespace() || c == ';' || c == ',');
            if t.len() > 1 && t.chars().all(|c| c.is_ascii_digit()) {
                w.replacen(t, "N", 1)
            } else {
                w.to_string()
            }
        })
        .collect();
    (out.code, masked)
}

#[test]
fn exit_codes_tell_refused_from_ran_and_failed_and_errors_name_the_ref() {
    let (_server, dir, groups) = session_on(&[("/", ERRORS)], "errs", &[]);
    let d = dir.path();
    let obs = turn(d, "errs", &["observe"]);
    let go = ref_of(&obs, "button", "Go");
    let covered = ref_of(&obs, "button", "Hidden away");

    // 2: refused before dispatch, nothing happened.
    let (code, typo) = human(d, &["exec", "clik { target = ref(\"@e1\") }"]);
    assert_eq!(code, 2, "{typo}");
    assert!(typo.contains("did you mean"), "{typo}");
    let (code, unknown) = human(d, &["click", "@e99"]);
    assert_eq!(code, 2, "{unknown}");
    let (code, bad_target) = human(d, &["click", "css(\"a\") } navigate { url = \"/x\""]);
    assert_eq!(code, 2, "{bad_target}");
    // None of those ended the observation: the ref still works (exit 0).
    let (code, out) = human(d, &["click", &go]);
    assert_eq!(code, 0, "{out}");
    // The click ended the observation: the same ref is stale now, not unknown.
    let (code, stale) = human(d, &["click", &go]);
    assert_eq!(code, 2, "{stale}");
    let json = refused_turn(d, "errs", &["click", &go], "test.session.stale_ref");
    assert_eq!(
        json["error"]["detail"]["statement"],
        format!("click {{ target = ref(\"{go}\") }}")
    );
    refused_turn(d, "errs", &["click", "@e99"], "test.session.unknown_ref");

    // 1: dispatched and failed; the message names the ref and the statement, not a CSS path.
    turn(d, "errs", &["observe"]);
    let (code, failed) = human(d, &["click", &covered]);
    assert_eq!(code, 1, "{failed}");
    assert!(failed.contains(&covered), "{failed}");
    assert!(!failed.contains("nth-of-type"), "{failed}");
    let (code, expect_failed) = human(d, &["expect", "text", "Never shown"]);
    assert_eq!(code, 1, "{expect_failed}");

    insta::assert_snapshot!(
        "agent_errors_human",
        [typo, unknown, bad_target, stale, failed, expect_failed].join("----\n")
    );
    turn(d, "errs", &["abort"]);
    assert_gone(groups);
}

/// A button whose click shows a text 1.5 s later, and a button under a layer that never goes.
const LATE: &str = r#"<!doctype html><html><head><style>
.row { position: relative; margin: 1rem; }
#lid { position: absolute; inset: -4px; background: rgba(0, 0, 0, .2); }
</style></head><body>
<button id="go" onclick="setTimeout(() => { document.getElementById('out').textContent = 'Arrived'; }, 1500)">Go</button>
<div class="row"><button id="under" onclick="document.getElementById('out').textContent = 'reached'">Under the lid</button><div id="lid"></div></div>
<p id="out">nothing yet</p>
</body></html>"#;

#[test]
fn agent_expect_waits_for_its_condition_and_a_covered_click_is_refused() {
    let (_server, dir, groups) = session_on(&[("/", LATE)], "late", &[]);
    let d = dir.path();
    let obs = turn(d, "late", &["observe"]);
    let go = ref_of(&obs, "button", "Go");

    // The text arrives 1.5 s after the click: `expect` waits for it and says for how long.
    turn(d, "late", &["click", &go]);
    let passed = turn(
        d,
        "late",
        &["expect", "text", "Arrived", "--timeout-ms", "10000"],
    );
    let waited = passed["detail"]["waited_ms"].as_u64().unwrap();
    assert!(waited > 0, "it waited for the text: {passed}");
    let out = a3s(
        d,
        &["agent", "expect", "text", "Arrived", "--session", "late"],
    );
    assert!(
        out.stdout.starts_with("passed: expect (turn") && out.stdout.contains(", waited "),
        "{}",
        out.stdout
    );

    // Its own timeout, then the condition's code and the last text seen; `--immediate` reads once.
    let failed = refused_turn(
        d,
        "late",
        &["expect", "text", "Never shown", "--timeout-ms", "300"],
        "test.session.step_failed",
    );
    let m = error_message(&failed);
    assert!(
        m.contains("test.assert.text_mismatch")
            && m.contains("did not hold within 300 ms")
            && m.contains("it reads"),
        "{m}"
    );
    let once = refused_turn(
        d,
        "late",
        &["expect", "text", "Never shown", "--immediate"],
        "test.session.step_failed",
    );
    assert!(error_message(&once).contains("immediate = true"), "{once}");

    // The click on the covered button: refused by the hit test, naming the layer, page untouched.
    let obs = turn(d, "late", &["observe"]);
    let under_now = ref_of(&obs, "button", "Under the lid");
    let covered = refused_turn(
        d,
        "late",
        &["click", &under_now],
        "test.session.step_failed",
    );
    let m = error_message(&covered);
    assert!(
        m.contains("test.driver.web.target_covered") && m.contains("<div#lid>"),
        "{m}"
    );
    refused_turn(
        d,
        "late",
        &["expect", "text", "reached", "--immediate"],
        "test.session.step_failed",
    );
    turn(d, "late", &["abort"]);
    assert_gone(groups);
}
