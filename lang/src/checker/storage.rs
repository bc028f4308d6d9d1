//! Storage-state paths (`storage_state = "…"` on a scenario, suite or project) and the
//! `save_storage_state` step (`docs/acl.md` §5, "Sign in once").
//!
//! A state path is relative to the project root and must stay inside it: the same shape rules as
//! evidence paths (no absolute path, `..`, backslash, control character or folder name), reported
//! as `test.spec.state_path` because the file holds secrets and lives beside the suites, not in an
//! artifact folder. Links cannot be seen here; the runner re-checks each component with `fsroot`.
//! `indexed_db = true` opts in to saving each origin's IndexedDB databases as well.

use super::context::Ctx;
use super::evidence::path_problem;
use super::fields::Fields;
use super::values::{boolean, string};
use crate::ast::Attribute;
use crate::code::Code;
use crate::ir::{Action, StatePath};

/// The attributes of `save_storage_state`.
pub(super) const SAVE_SCHEMA: &[&str] = &["path", "indexed_db"];

/// A state-file path attribute.
pub(super) fn state_path(ctx: &mut Ctx, attr: &Attribute) -> Option<StatePath> {
    let path = string(ctx, attr)?;
    let problem = path_problem(path)
        .or_else(|| crate::limits::evidence_path_limit(path).map(|_| "is too long or too deep"));
    if let Some(problem) = problem {
        let shown: String = path.chars().take(64).collect();
        ctx.error_in(
            Code::StatePath,
            &attr.name.name,
            attr.value.span,
            format!("storage state path \"{shown}\" {problem}"),
        );
        return None;
    }
    Some(StatePath(path.to_string()))
}

/// `save_storage_state "label" { path = "…" indexed_db = true }`.
pub(super) fn save(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Action> {
    let path = fields
        .required(ctx, "path")
        .and_then(|a| state_path(ctx, a));
    let indexed_db = match fields.get("indexed_db") {
        Some(attr) => boolean(ctx, attr),
        None => Some(false),
    };
    Some(Action::SaveStorageState {
        path: path?,
        indexed_db: indexed_db?,
    })
}
