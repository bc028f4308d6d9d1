//! The checker: turns a parsed [`Document`] into the admitted IR, enforcing every rule of
//! `docs/acl.md` §1–§12, and reports *every* problem of a file — each with a stable [`Code`], a
//! logical path (`suite.checkout.scenario.guest-checkout.click.pay.target`), the precise span, a
//! message and a hint — sorted by position.
//!
//! Layout (one job per file):
//! - [`context`]: the logical path and the diagnostics collector.
//! - [`fields`]: one block's attribute table (unknown and duplicate attributes).
//! - [`values`]: typed readers (string, integer ranges, boolean, keyword, lists).
//! - [`ids`]: labels, the id alphabet, uniqueness; [`seen`]: the duplicate-check set.
//! - [`targets`], [`urls`], [`keys`], [`evidence`]: value grammars of targets/refs, URLs, key
//!   chords and evidence paths; [`text`]: texts that may read a variable (`env("NAME")`).
//! - [`steps`]: the web steps of §5; [`conditions`] (`wait`/`expect`, §8–§9); [`stability`] (§7);
//!   [`operations`] (`tab`, `dialog`, `har`, `trace`); [`network`] (routes).
//! - [`suite`], [`project`], [`statement`]: the three kinds of document.
//! - [`browser_context`]: context options (project, suite, scenario) and the `context` step;
//!   [`clock`]: the clock steps and RFC 3339 instants.
//! - [`organisation`]: a scenario's place in a run — [`dependencies`] (`depends_on`, the
//!   suite-wide graph), [`storage`] (`storage_state` paths and `save_storage_state`),
//!   [`annotations`] (`skip`, `fixme`, `slow`, `only`).
//!
//! Logical paths: every block adds its kind and, when it has one, its label; an attribute adds its
//! name. A block whose label is missing contributes only its kind (`statement.click.target`).

mod annotations;
mod browser_context;
pub mod catalog;
mod clock;
mod conditions;
mod context;
mod contract;
mod contract_step;
mod dependencies;
mod evidence;
mod expand;
mod fields;
mod grid_project;
mod groups;
mod gui;
mod gui_project;
mod ids;
mod keys;
mod library;
mod network;
mod operations;
mod organisation;
mod params;
mod pointer;
mod project;
mod provider_project;
mod request;
mod seen;
mod shared;
mod snapshot;
mod stability;
mod statement;
mod steps;
mod storage;
mod suite;
mod targets;
mod terminal;
mod terminal_project;
mod text;
mod urls;
mod values;

use crate::ast::{Block, Document};
use crate::code::Code;
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::ir::{AdmittedDocument, Library, Step};
use context::{header, Annotate, Ctx};
pub use expand::MAX_GROUP_DEPTH;
pub use keys::NAMED_KEYS;
pub use targets::{FRAME_FUNCTIONS, TARGET_FUNCTIONS};
pub use text::ENV_FUNCTION;

/// Root block kinds.
const ROOTS: &[&str] = &["suite", "project", "library", "contract"];

/// Check a parsed file against every rule of `docs/acl.md` and build the IR.
///
/// Returns the IR only when no error was found, and every diagnostic sorted by position. A document
/// without blocks yields nothing: the caller reports an empty file, or the parser already reported
/// why nothing could be read.
pub fn check_document(document: &Document) -> (Option<AdmittedDocument>, Vec<Diagnostic>) {
    check_document_with(document, &[])
}

/// [`check_document`] for a suite whose `use` steps may call the groups of `libraries` (each
/// with the path of its file, as the project file's `include` found them).
pub fn check_document_with(
    document: &Document,
    libraries: &[(String, Library)],
) -> (Option<AdmittedDocument>, Vec<Diagnostic>) {
    let mut ctx = Ctx::new();
    let Some((root, extra)) = document.blocks.split_first() else {
        return (None, Vec::new());
    };
    for other in extra {
        let kind = &other.kind.name;
        let mark = ctx.enter_block(other);
        ctx.error(
            Code::MultipleRoots,
            header(other),
            format!("a file holds one root block; this is a second `{kind}`"),
        )
        .also(header(root), "the root block")
        .hint("put each suite in its own file");
        ctx.leave(mark);
    }
    let admitted = check_root(&mut ctx, root, libraries);
    finish(ctx, admitted)
}

fn check_root(
    ctx: &mut Ctx,
    root: &Block,
    libraries: &[(String, Library)],
) -> Option<AdmittedDocument> {
    let kind = root.kind.name.as_str();
    match kind {
        "suite" => suite::suite(ctx, root, libraries).map(AdmittedDocument::Suite),
        "library" => library::library(ctx, root).map(AdmittedDocument::Library),
        "project" => project::project(ctx, root).map(AdmittedDocument::Project),
        contract::CONTRACT => contract::contract(ctx, root).map(AdmittedDocument::Contract),
        _ => {
            let hint = if let Some(s) = did_you_mean(kind, ROOTS.iter().copied()) {
                format!("did you mean `{s}`?")
            } else if kind == "scenario" {
                "wrap the scenario in `suite \"name\" { … }`".to_string()
            } else if steps::is_step_kind(kind) {
                format!("`{kind}` is a step: put it in a scenario inside `suite \"name\" {{ … }}`")
            } else {
                Code::UnknownRoot.default_hint().to_string()
            };
            let mark = ctx.enter_block(root);
            ctx.error(
                Code::UnknownRoot,
                root.kind.span,
                format!("`{kind}` is not a root block"),
            )
            .hint(hint);
            ctx.leave(mark);
            None
        }
    }
}

/// Check a document that must hold exactly one step block (statement mode, `docs/acl.md` §12).
///
/// Paths start at `statement`. Zero blocks, several blocks, or a suite/project/scenario are
/// `test.spec.statement_count`.
pub fn check_statement(document: &Document, source_len: usize) -> (Option<Step>, Vec<Diagnostic>) {
    check_statement_on(document, source_len, crate::ir::Surface::Web)
}

/// [`check_statement`] for a session on `surface`: a terminal session's statement is judged by
/// the terminal rules (`type { value }` types into the program), as a step of a `surface =
/// "tui"` scenario is, and a browser step is `test.spec.surface_step`.
pub fn check_statement_on(
    document: &Document,
    source_len: usize,
    surface: crate::ir::Surface,
) -> (Option<Step>, Vec<Diagnostic>) {
    let mut ctx = Ctx::new();
    ctx.set_surface(Some(surface).filter(|s| *s == crate::ir::Surface::Tui));
    ctx.set_statement();
    let step = statement::statement(&mut ctx, document, source_len);
    finish(ctx, step)
}

fn finish<T>(ctx: Ctx, value: Option<T>) -> (Option<T>, Vec<Diagnostic>) {
    let failed = ctx.has_errors();
    let diagnostics = ctx.finish();
    (if failed { None } else { value }, diagnostics)
}
