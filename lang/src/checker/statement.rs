//! Statement mode (`docs/acl.md` §12): one step block typed by an agent.
//!
//! The statement goes through the same step checker as a suite step; only the frame differs. The
//! document must hold exactly one block and it must be a step (`test.spec.statement_count`
//! otherwise — a whole `suite` included, with a hint). The label is optional; when given it must be
//! a valid id. Paths start at `statement`: `statement.click.target`, or `statement.click.go.target`
//! when labelled. Refs are only checked for syntax here; binding them to the latest observation is
//! the session's gate.

use super::context::{header, Annotate, Ctx};
use super::ids::check_id;
use super::steps::{action, unknown_step};
use crate::ast::{Block, Document};
use crate::code::Code;
use crate::ir::ActionKind;
use crate::ir::Step;
use crate::span::Span;

/// Check a document holding one statement; `source_len` places the "nothing here" diagnostic.
pub(super) fn statement(ctx: &mut Ctx, document: &Document, source_len: usize) -> Option<Step> {
    let root = ctx.enter("statement");
    let step = match document.blocks.as_slice() {
        [] => {
            ctx.error(
                Code::StatementCount,
                Span::new(0, source_len),
                "the statement holds no step block",
            )
            .hint("send exactly one step block, e.g. `click { target = ref(\"@e3\") }`");
            None
        }
        [only] => one(ctx, only),
        [first, second, rest @ ..] => {
            ctx.error(
                Code::StatementCount,
                header(second),
                format!("a statement is one step block, found {}", 2 + rest.len()),
            )
            .also(header(first), "the first step block")
            .hint("send the blocks as separate statements, one per turn");
            one(ctx, first);
            None
        }
    };
    ctx.leave(root);
    step
}

fn one(ctx: &mut Ctx, block: &Block) -> Option<Step> {
    let kind = block.kind.name.as_str();
    let Some(step_kind) = ActionKind::from_name(kind) else {
        match kind {
            "suite" | "project" | "scenario" => {
                ctx.error(Code::StatementCount, header(block), format!("a statement is one step block, not a `{kind}`"))
                    .hint("run a suite file with `a3s-test run`; an agent statement is one step such as `click { target = ref(\"@e3\") }`");
            }
            _ => unknown_step(
                ctx,
                block,
                "use a step such as click, fill, press, wait or expect (see docs/acl.md)",
            ),
        }
        return None;
    };
    let mark = ctx.enter_block(block);
    let label = match &block.label {
        Some(lit) => check_id(ctx, kind, lit).map(|l| Some(l.to_string())),
        None => Some(None),
    };
    let path = ctx.path().to_string();
    let action = action(ctx, block, step_kind);
    refuse_soft(ctx, block);
    refuse_snapshots(ctx, block);
    ctx.leave(mark);
    Some(Step {
        label: label?,
        path,
        span: block.span,
        action: action?,
        group: None,
        hook: None,
    })
}

/// `screenshot` and `aria_snapshot` compare with what is kept beside a suite file (a baseline
/// image, an outline `--update-snapshots` rewrites); an agent statement has no suite file.
fn refuse_snapshots(ctx: &mut Ctx, block: &Block) {
    if block.kind.name != "expect" {
        return;
    }
    for item in &block.items {
        let crate::ast::Item::Attribute(a) = item else {
            continue;
        };
        let form = crate::ir::ExpectForm::from_name(&a.name.name);
        if form.is_some_and(crate::ir::ExpectForm::needs_suite) {
            ctx.error_in(
                Code::InvalidValue,
                &a.name.name,
                a.name.span,
                format!(
                    "`{}` compares with what is kept beside a suite file; an agent statement has none",
                    a.name.name
                ),
            )
            .hint("check the page with another `expect` form, or write it in a suite scenario");
        }
    }
}

/// `soft = true` belongs to suites: a soft failure is settled at the scenario's end, and an agent
/// turn has no end to settle it at — its `expect` is decided in the turn, so `soft` is refused.
fn refuse_soft(ctx: &mut Ctx, block: &Block) {
    let soft = block.items.iter().find_map(|item| match item {
        crate::ast::Item::Attribute(a) if a.name.name == "soft" => Some(a),
        _ => None,
    });
    if let Some(attr) = soft {
        ctx.error_in(
            Code::InvalidValue,
            "soft",
            attr.span,
            "`soft` has no meaning in an agent statement: its `expect` is decided in this turn",
        )
        .hint("remove `soft`; soft expects exist in suite scenarios only");
    }
}
