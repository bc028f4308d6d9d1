//! `env("NAME")` in an agent session (`docs/acl.md` §5, `docs/agent.md`): the variable is read
//! from the supervisor's environment — the one `agent start` ran in, not the environment of a
//! later turn or of an MCP client — when the statement runs; `test_act` and `test_fill` take it
//! as `{"env": "NAME"}`; promotion keeps `env("NAME")`; and the value is in no answer and no
//! session file.

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable, set only in the environment of `agent start`.
const VAR: &str = "A3S_AGENT_SECRET";
const SECRET: &str = "agent-secret-5b8d03aa";

const PAGE: &str = r#"<!doctype html><html><head><title>Sign in</title></head><body>
<label for="pw">Password</label><input id="pw" type="password">
<label for="again">Repeat it</label><input id="again" type="password">
<label for="code">Code</label><input id="code" type="password">
</body></html>"#;

/// Every regular file under `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    out
}

#[test]
fn a_session_types_a_variable_of_its_own_environment_and_never_records_it() {
    let server = Server::start(&[("/", PAGE)]);
    let dir = project();
    let d = dir.path();
    let mut answers: Vec<String> = Vec::new();

    // Only `agent start` has the variable: the supervisor inherits it.
    let started = crate::common::output_within(
        Command::new(env!("CARGO_BIN_EXE_a3s-test"))
            .args(["agent", "start", &server.url(), "--session", "pw", "--json"])
            .env(VAR, SECRET)
            .current_dir(d),
        None,
        TURN,
    );
    let started = Out::from(started);
    assert_eq!(started.code, 0, "{}\n{}", started.stdout, started.stderr);
    answers.extend([started.stdout, started.stderr]);
    let groups = groups(d, "pw");

    // Typed and compared by the CLI's `exec`, whose own environment lacks the variable.
    let mut exec = |statement: &str| {
        let out = a3s(d, &turn_args("pw", &["exec", statement]));
        answers.extend([out.stdout.clone(), out.stderr.clone()]);
        out
    };
    let filled = exec(
        "fill \"password\" {\n target = label(\"Password\")\n value = env(\"A3S_AGENT_SECRET\")\n}",
    );
    assert_eq!(filled.code, 0, "{}\n{}", filled.stdout, filled.stderr);
    let expected =
        exec("expect {\n target = label(\"Password\")\n value = env(\"A3S_AGENT_SECRET\")\n}");
    assert_eq!(expected.code, 0, "{}\n{}", expected.stdout, expected.stderr);

    // A variable the supervisor does not have fails the step, naming it and whose it is.
    let unset = exec("fill {\n target = label(\"Code\")\n value = env(\"A3S_AGENT_UNSET\")\n}");
    assert_ne!(unset.code, 0);
    let unset = unset.json();
    assert_eq!(
        unset["error"]["code"], "test.session.step_failed",
        "{unset}"
    );
    let m = error_message(&unset);
    assert!(
        m.contains("test.spec.env_unset")
            && m.contains(
                "the variable A3S_AGENT_UNSET is not set in the agent session's environment"
            ),
        "{m}"
    );

    // Over MCP (a client process without the variable): `{"env": "NAME"}` in `test_act` and
    // `test_fill`.
    let mcp = McpClient::start(d, &[], TURN);
    let call = |name: &str, arguments: Value| -> Value {
        let (v, refused) = mcp.result(name, arguments);
        assert!(!refused, "{name}: {v}");
        v
    };
    let acted = call(
        "test_act",
        json!({ "session": "pw", "action": { "action": "fill", "target": "label(\"Repeat it\")", "text": { "env": VAR } } }),
    );
    assert_eq!(acted["status"], "passed", "{acted}");
    let typed = call(
        "test_fill",
        json!({ "session": "pw", "target": "label(\"Code\")", "text": { "env": VAR } }),
    );
    assert_eq!(typed["status"], "passed", "{typed}");
    for field in ["Repeat it", "Code"] {
        let statement = format!(
            "expect {{\n target = label({field:?})\n value = env(\"A3S_AGENT_SECRET\")\n}}"
        );
        let checked = call(
            "test_exec",
            json!({ "session": "pw", "statement": statement }),
        );
        assert_eq!(checked["status"], "passed", "{checked}");
        answers.push(checked.to_string());
    }
    answers.extend([acted.to_string(), typed.to_string()]);
    drop(mcp);

    // Promotion writes the variable, not its value; the suite is admitted.
    let promoted = turn(d, "pw", &["promote", "--output", "suites/pw.acl"]);
    answers.push(promoted.to_string());
    let suite = std::fs::read_to_string(d.join("suites/pw.acl")).unwrap();
    assert!(
        suite.contains("value = env(\"A3S_AGENT_SECRET\")"),
        "{suite}"
    );
    let check = a3s(d, &["check", "suites/pw.acl"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);

    let finished = turn(d, "pw", &["finish", "--status", "passed"]);
    assert_eq!(finished["cleanup_verified"], true, "{finished}");
    answers.push(finished.to_string());
    assert_gone(groups);

    for answer in &answers {
        assert!(
            !answer.contains(SECRET),
            "an answer holds the secret: {answer}"
        );
    }
    let written = files_under(d);
    assert!(
        written.iter().any(|p| p.ends_with("events.jsonl")),
        "{written:?}"
    );
    for path in written {
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
            "{} holds the secret",
            path.display()
        );
    }
}
