//! Agent sessions on a terminal, end to end: the real binary, a real supervisor and real
//! programs (`bc -q`, `python3 -q`) on pseudoterminals the supervisor owns. An observation is
//! the numbered screen; input names the latest observation and is refused, with nothing sent,
//! when the screen changed since; promotion writes a `surface = "tui"` suite that `a3s-test run`
//! passes; closing leaves no process of the session's groups.
//!
//! A screen change the agent did not cause is made the way it happens in life: another process
//! writes to the program's terminal (its `/dev/pts/N`, found through `/proc/<pid>/fd/0`).

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The screen rows of an observation's JSON, as text.
fn rows(observation: &Value) -> Vec<String> {
    observation["screen"]["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no screen in {observation}"))
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

/// Write `text` to the terminal of the session's program, as another process would.
fn write_to_terminal(dir: &Path, session: &str, text: &str) {
    let pid = session_json(dir, session)["ownership"]["browser_pid"]
        .as_u64()
        .unwrap();
    let tty = std::fs::read_link(format!("/proc/{pid}/fd/0")).unwrap();
    assert!(tty.starts_with("/dev/pts"), "{}", tty.display());
    let mut terminal = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(&tty)
        .unwrap();
    terminal.write_all(text.as_bytes()).unwrap();
}

#[test]
fn a_terminal_session_types_into_bc_refuses_a_changed_screen_and_promotes_a_passing_suite() {
    let dir = project();
    let d = dir.path();
    let (started, g) = start_program(d, "calc", "tui", &["bc", "-q"]);
    assert_eq!(started["url"], "bc -q");
    let program_pid = session_json(d, "calc")["ownership"]["browser_pid"]
        .as_u64()
        .unwrap() as i32;

    // bc is ready once its line editor asked for bracketed paste (typed before that, the
    // terminal and then the editor would each echo the text).
    let mut first = Value::Null;
    let ready = crate::common::wait_until(std::time::Duration::from_secs(30), || {
        first = turn(d, "calc", &["observe"]);
        first["screen"]["modes"]["bracketed_paste"] == true
    });
    assert!(ready, "{first}");
    assert_eq!(first["screen"]["columns"], 80, "{first}");
    assert_eq!(first["screen"]["rows"], 24, "{first}");
    assert_eq!(first["screen"]["cursor"]["row"], 1, "{first}");
    // The settle period: the echo and the answer of one key arrive within it on a busy machine.
    let act = |args: &[&str]| {
        let mut all = vec!["agent"];
        all.extend_from_slice(args);
        all.extend_from_slice(&[
            "--session",
            "calc",
            "--observe",
            "--settle-ms",
            "100",
            "--json",
        ]);
        ok(d, &all)
    };
    let typed = act(&["type", "6*7", "--observation", &observation_number(&first)]);
    assert_eq!(typed["status"], "passed", "{typed}");
    let echoed = &typed["observation"];
    assert_eq!(rows(echoed)[0], "6*7", "{echoed}");
    let pressed = act(&[
        "press",
        "Enter",
        "--observation",
        &observation_number(echoed),
    ]);
    let answered = &pressed["observation"];
    assert_eq!(rows(answered)[..2], ["6*7", "42"], "{answered}");

    // An old observation is refused: nothing is sent.
    let old = refused(
        d,
        &[
            "agent",
            "type",
            "--session",
            "calc",
            "--observation",
            &observation_number(echoed),
            "--json",
            "1/0",
        ],
        "test.session.stale_screen",
    );
    assert!(
        old["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not the latest"),
        "{old}"
    );
    // Input must name the observation it was decided on.
    refused(
        d,
        &["agent", "press", "--session", "calc", "--json", "Enter"],
        "test.session.stale_screen",
    );
    // The screen changes under the latest observation: the input naming it is refused (exit 2)
    // and nothing reaches bc.
    write_to_terminal(d, "calc", "a line from elsewhere\r\n");
    let out = a3s(
        d,
        &[
            "agent",
            "type",
            "--session",
            "calc",
            "--observation",
            &observation_number(answered),
            "--json",
            "9*9",
        ],
    );
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    let changed = out.json();
    assert_eq!(
        changed["error"]["code"], "test.session.stale_screen",
        "{changed}"
    );
    assert!(
        changed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the screen changed since observation"),
        "{changed}"
    );

    let since = turn(
        d,
        "calc",
        &["observe", "--since", &observation_number(answered)],
    );
    assert_eq!(since["since"], answered["observation"], "{since}");
    assert_eq!(rows(&since), ["a line from elsewhere"], "{since}");
    let typed = act(&["type", "1+1", "--observation", &observation_number(&since)]);
    let pressed = act(&[
        "press",
        "Enter",
        "--observation",
        &observation_number(&typed["observation"]),
    ]);
    let screen = rows(&pressed["observation"]);
    assert!(screen.contains(&"2".to_string()), "{screen:?}");
    // Input is ordered: had the refused `9*9` been sent, bc would have echoed and answered it
    // before `1+1`.
    assert!(
        !screen.iter().any(|r| r.contains("9*9") || r == "81"),
        "{screen:?}"
    );
    let expected = turn(d, "calc", &["exec", "expect { text = \"42\" }"]);
    assert_eq!(expected["status"], "passed", "{expected}");
    // A browser step is refused at admission, before anything is sent.
    browser_step_refused(d, "calc");

    finish_passed(d, "calc", "42", g);
    assert!(
        !Path::new(&format!("/proc/{program_pid}")).exists(),
        "bc ({program_pid}) survived"
    );

    let suite = promote_and_run(d, "calc", "tui", 5, d);
    assert!(
        !suite.contains("9*9"),
        "a refused input is not a passing turn: {suite}"
    );
}

#[test]
fn the_terminal_verbs_over_mcp_are_the_same_operations() {
    let dir = project();
    let d = dir.path();
    let mcp = McpClient::start(d, &[], TURN);
    let names: Vec<String> = mcp
        .tools()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    for t in ["test_type", "test_press", "test_paste", "test_resize"] {
        assert!(names.iter().any(|n| n == t), "{t} missing from {names:?}");
    }
    let call = |name: &str, args: Value| mcp_ok(&mcp, name, args);
    // The basic REPL (python 3.13 would otherwise draw its own line editor).
    let g = mcp_start_program(
        &mcp,
        d,
        json!({ "session": "py", "tui": true, "program": ["env", "PYTHON_BASIC_REPL=1", "python3", "-q"], "columns": 60, "rows": 12 }),
    );
    // The prompt: observe (settling) until python printed it.
    let mut seen = Value::Null;
    let prompt = crate::common::wait_until(std::time::Duration::from_secs(30), || {
        seen = call("test_observe", json!({ "session": "py", "settle_ms": 100 }));
        rows(&seen).iter().any(|r| r.starts_with(">>>"))
    });
    assert!(prompt, "no prompt: {seen}");
    assert_eq!(seen["screen"]["columns"], 60, "{seen}");
    let n = seen["observation"].clone();
    // Over MCP an action answers with the next observation.
    let typed = call(
        "test_type",
        json!({ "session": "py", "observation": n, "text": "6*7", "settle_ms": 100 }),
    );
    let m = typed["observation"]["observation"].clone();
    assert!(
        rows(&typed["observation"])
            .iter()
            .any(|r| r.ends_with("6*7")),
        "{typed}"
    );
    let pressed = call(
        "test_press",
        json!({ "session": "py", "observation": m, "key": "Enter", "settle_ms": 100 }),
    );
    assert!(
        rows(&pressed["observation"]).contains(&"42".to_string()),
        "{pressed}"
    );
    // The observation the press was decided on is over: refused, with the same code as the CLI.
    let (stale, err) = mcp.result(
        "test_paste",
        json!({ "session": "py", "observation": m, "text": "1+1\n" }),
    );
    assert!(err, "{stale}");
    assert_eq!(
        stale["error"]["code"], "test.session.stale_screen",
        "{stale}"
    );
    let latest = pressed["observation"]["observation"].clone();
    let resized = call(
        "test_resize",
        json!({ "session": "py", "observation": latest, "columns": 100, "rows": 30, "settle_ms": 100 }),
    );
    assert_eq!(
        resized["observation"]["screen"]["columns"], 100,
        "{resized}"
    );
    assert_eq!(resized["observation"]["screen"]["rows"], 30, "{resized}");
    // A paste is a terminal's paste (bracketed when the program asked for it).
    let pasted = call(
        "test_paste",
        json!({ "session": "py", "observation": resized["observation"]["observation"], "text": "7*6", "settle_ms": 100 }),
    );
    assert!(
        rows(&pasted["observation"])
            .iter()
            .any(|r| r.ends_with("7*6")),
        "{pasted}"
    );
    let entered = call(
        "test_press",
        json!({ "session": "py", "observation": pasted["observation"]["observation"], "key": "Enter", "settle_ms": 100 }),
    );
    let answers = rows(&entered["observation"]);
    assert_eq!(
        answers.iter().filter(|r| *r == "42").count(),
        2,
        "{answers:?}"
    );
    mcp_close(
        &mcp,
        "test_finish",
        json!({ "session": "py", "status": "passed", "summary": "42" }),
        g,
    );
}

#[test]
fn the_program_dies_with_its_supervisor() {
    let dir = project();
    let d = dir.path();
    ok(
        d,
        &[
            "agent",
            "start",
            "--session",
            "owned",
            "--json",
            "--tui",
            "--",
            "bc",
            "-q",
        ],
    );
    let g = groups(d, "owned");
    assert_alive(g);
    let supervisor = session_json(d, "owned")["ownership"]["supervisor_pid"]
        .as_u64()
        .unwrap() as i32;
    // SIGKILL: no handler runs; the program goes by its parent-death signal alone.
    assert_eq!(unsafe { libc::kill(supervisor, libc::SIGKILL) }, 0);
    wait_gone(g, std::time::Duration::from_secs(10));
    // The record still says active: abort settles it without a supervisor.
    let closed = ok(d, &["agent", "abort", "--session", "owned", "--json"]);
    assert_eq!(closed["cleanup_verified"], true, "{closed}");
}

#[test]
fn a_terminal_session_without_a_runnable_program_is_refused_with_its_code() {
    let dir = project();
    let d = dir.path();
    // No program after `--` and no `tui` block in the project.
    let none = refused(
        d,
        &["agent", "start", "--session", "none", "--json", "--tui"],
        "test.session.invalid_input",
    );
    assert!(
        none["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no program"),
        "{none}"
    );
    // A program that does not exist: the driver's code in the supervisor's refusal, and no
    // process of the attempt left.
    let missing = refused(
        d,
        &[
            "agent",
            "start",
            "--session",
            "missing",
            "--json",
            "--tui",
            "--",
            "no-such-program-a3s",
        ],
        "test.session.supervisor",
    );
    let message = missing["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("test.driver.tui.program_not_found"),
        "{missing}"
    );
    assert_eq!(session_json(d, "missing")["state"], "failed");
    // The project's block gives the program when none follows `--`, and a program that ends at
    // once is observed with how it ended; input to it fails in the driver.
    crate::common::write(
        d,
        ".a3s-test/project.acl",
        "project \"p\" {\n  tui { command = [\"sh\", \"-c\", \"echo bye\"] }\n}\n",
    );
    ok(
        d,
        &["agent", "start", "--session", "short", "--json", "--tui"],
    );
    let g = groups(d, "short");
    let mut seen = Value::Null;
    let ended = crate::common::wait_until(std::time::Duration::from_secs(20), || {
        seen = turn(d, "short", &["observe"]);
        seen["screen"]["exit"].is_string()
    });
    assert!(ended, "{seen}");
    assert_eq!(seen["screen"]["exit"], "exit code 0", "{seen}");
    assert_eq!(rows(&seen)[0], "bye", "{seen}");
    let out = a3s(
        d,
        &[
            "agent",
            "type",
            "--session",
            "short",
            "--observation",
            &observation_number(&seen),
            "--json",
            "x",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    let failed = out.json();
    assert_eq!(
        failed["error"]["code"], "test.session.step_failed",
        "{failed}"
    );
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("test.driver.tui.not_running"),
        "{failed}"
    );
    ok(d, &["agent", "abort", "--session", "short", "--json"]);
    assert_gone(g);
}
