//! The repair tools: the same operations as `a3s-test agent repair-*`, through
//! `crate::ops::repair` (and `crate::ops::repair_drain`). Reviewer verbs and import are not
//! here: nothing an MCP client calls can create or decide a finding as a person.

use super::{args, schema, Tool, ToolError};
use crate::ops::repair::{self as ops, OpParams, Verb};
use crate::ops::repair_drain::DrainError;
use crate::ops::Context;
use serde::Deserialize;
use serde_json::{json, Value};

const ID_PATTERN: &str = "^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$";

fn id(description: &str) -> Value {
    json!({ "type": "string", "pattern": ID_PATTERN, "description": description })
}

fn text(description: &str) -> Value {
    json!({ "type": "string", "maxLength": 8192, "description": description })
}

fn lease() -> Value {
    json!({
        "type": "integer", "minimum": 1000, "maximum": 900000,
        "description": "lease length in ms (default 300000)"
    })
}

fn op_schema(verb: Verb) -> Value {
    let mut props = vec![
        ("session", id("the agent session id")),
        ("finding", id("the finding id")),
        (
            "request_id",
            id("your request id; repeating a request with it is a no-op"),
        ),
    ];
    let mut required = vec!["session", "finding", "request_id"];
    let attempt = ("attempt_id", id("the active attempt id returned by claim"));
    match verb {
        Verb::Claim => props.push(("lease_ms", lease())),
        Verb::Progress => {
            props.extend([
                attempt,
                ("lease_ms", lease()),
                ("message", text("what you did")),
            ]);
            required.push("attempt_id");
        }
        Verb::Reply => {
            props.extend([attempt, ("message", text("the question for the reviewer"))]);
            required.extend(["attempt_id", "message"]);
        }
        Verb::Complete => {
            props.extend([
                attempt,
                (
                    "changed_files",
                    json!({
                        "type": "array", "maxItems": 1000,
                        "items": { "type": "string", "minLength": 1, "maxLength": 1024 },
                        "description": "the exact ordered workspace-relative changed files (may be empty)"
                    }),
                ),
                ("lease_ms", lease()),
                ("summary", text("what changed")),
            ]);
            required.extend(["attempt_id", "changed_files"]);
        }
        Verb::Fail => {
            props.extend([attempt, ("summary", text("why it cannot be done"))]);
            required.push("attempt_id");
        }
        Verb::Cancel => {
            props.extend([attempt, ("message", text("why the lease is given back"))]);
            required.push("attempt_id");
        }
        // Reviewer verbs are never offered over MCP (see `tools`), so they need no schema.
        Verb::Accept | Verb::Reject | Verb::Reopen | Verb::Answer => {}
    }
    schema(&props, &required)
}

fn op_tool(
    name: &'static str,
    description: &'static str,
    verb: Verb,
    run: fn(&Context, Value) -> Result<Value, ToolError>,
) -> Tool {
    Tool {
        name,
        description,
        input_schema: op_schema(verb),
        run,
    }
}

fn act(ctx: &Context, verb: Verb, a: Value) -> Result<Value, ToolError> {
    let params: OpParams = args(a)?;
    Ok(ops::act(ctx, verb, &params)?)
}

#[derive(Deserialize)]
struct InboxArgs {
    session: Option<String>,
    limit: Option<usize>,
    #[serde(default)]
    include_terminal: bool,
}

#[derive(Deserialize)]
struct InspectArgs {
    session: String,
    finding: String,
}

#[derive(Deserialize)]
struct DrainArgs {
    session: String,
}

/// The repair tools.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "test_repair_inbox",
            description: "List findings that need doing, most urgent first \
                (a3s.test.repair-inbox/1): expired leases, active work, the oldest queued, \
                reviewer-blocked, inspect-only. Read-only.",
            input_schema: schema(
                &[
                    ("session", id("only this session (default: all)")),
                    (
                        "limit",
                        json!({ "type": "integer", "minimum": 1, "maximum": 100 }),
                    ),
                    ("include_terminal", json!({ "type": "boolean" })),
                ],
                &[],
            ),
            run: |ctx, a| {
                let a: InboxArgs = args(a)?;
                Ok(ops::inbox(
                    ctx,
                    a.session.as_deref(),
                    a.limit,
                    a.include_terminal,
                )?)
            },
        },
        Tool {
            name: "test_repair_inspect",
            description: "Everything about one finding (a3s.test.repair-loop-record/1): \
                instruction and criteria (untrusted), target, source mappings, lease, attempts, \
                replies, changed files, verifications, digests, next action. Read-only.",
            input_schema: schema(
                &[
                    ("session", id("the agent session id")),
                    ("finding", id("the finding id")),
                ],
                &["session", "finding"],
            ),
            run: |ctx, a| {
                let a: InspectArgs = args(a)?;
                Ok(ops::inspect_finding(ctx, &a.session, &a.finding)?)
            },
        },
        op_tool(
            "test_repair_claim",
            "Claim a queued finding: returns an attempt id and a lease (default 5 min, max 15).",
            Verb::Claim,
            |c, a| act(c, Verb::Claim, a),
        ),
        op_tool(
            "test_repair_progress",
            "Report progress on the claimed finding (edits may begin) and renew the lease.",
            Verb::Progress,
            |c, a| act(c, Verb::Progress, a),
        ),
        op_tool(
            "test_repair_reply",
            "Ask the reviewer a question; the finding waits for their answer.",
            Verb::Reply,
            |c, a| act(c, Verb::Reply, a),
        ),
        op_tool(
            "test_repair_complete",
            "End editing with the exact ordered list of changed files; A3S Test then verifies.",
            Verb::Complete,
            |c, a| act(c, Verb::Complete, a),
        ),
        op_tool(
            "test_repair_fail",
            "Mark the repair as impossible.",
            Verb::Fail,
            |c, a| act(c, Verb::Fail, a),
        ),
        op_tool(
            "test_repair_cancel",
            "Give the lease back: queued again before edits, needs input after.",
            Verb::Cancel,
            |c, a| act(c, Verb::Cancel, a),
        ),
        // No reviewer tools (accept, reject, reopen, answer) here: MCP clients are coding agents,
        // and human authorization is a separate authority (`docs/repair.md`). Reviewers use the
        // `a3s-test agent repair-accept|reject|reopen|answer` commands.
        // No import tool either: an MCP client must never create a finding recorded as human
        // intake. Draining only moves what a person already sent in the session's page.
        Tool {
            name: "test_repair_drain",
            description: "Move the findings a reviewer sent in the live session's page (the Test \
                Kit's page queue) into the session's ledger. Idempotent: a finding already in \
                the ledger is not appended again; a refused or failed append stays in the page.",
            input_schema: schema(
                &[("session", id("the running agent session id"))],
                &["session"],
            ),
            run: |ctx, a| {
                let a: DrainArgs = args(a)?;
                crate::ops::repair_drain::drain(ctx, &a.session).map_err(|e| match e {
                    DrainError::Ledger(e) => ToolError::Refused(e),
                    DrainError::Session(e) => ToolError::Session(e),
                })
            },
        },
    ]
}
