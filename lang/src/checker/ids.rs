//! Block labels: presence, the id alphabet, and uniqueness within a parent.
//!
//! Scenario ids, step labels, check ids and suite/project names are 1–64 characters of
//! `[A-Za-z0-9_-]` (`docs/acl.md` §2) because they become path segments, artifact folder names and
//! `--scenario` filters. Uniqueness uses one [`Seen`] set per parent (a short vector that turns into a
//! `HashMap` as it grows), so a scenario with thousands of steps is still checked in linear time.

use super::context::{header, Annotate, Ctx};
use super::seen::Seen;
use crate::ast::{Block, StringLit};
use crate::code::Code;
use crate::span::Span;

/// Longest id or label.
pub(super) const MAX_ID_CHARS: usize = 64;

/// Why a string is not an id, or `None` when it is one.
pub(super) fn id_problem(id: &str) -> Option<String> {
    if id.is_empty() {
        return Some("it is empty".to_string());
    }
    if let Some(bad) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Some(format!("{bad:?} is not allowed"));
    }
    if id.len() > MAX_ID_CHARS {
        return Some(format!(
            "it is {} characters long; the limit is {MAX_ID_CHARS}",
            id.len()
        ));
    }
    None
}

/// Check a label string as an id at `label.span`; returns it when valid.
/// `kind` names the block in the message (`` `click` label "a b" is not a valid id``).
pub(super) fn check_id<'a>(ctx: &mut Ctx, kind: &str, label: &'a StringLit) -> Option<&'a str> {
    match id_problem(&label.value) {
        None => Some(&label.value),
        Some(reason) => {
            let value = &label.value;
            ctx.error(
                Code::InvalidId,
                label.span,
                format!("`{kind}` label \"{value}\" is not a valid id: {reason}"),
            );
            None
        }
    }
}

/// The label of a block that needs one: `test.spec.missing_label` when absent, `invalid_id` when
/// malformed. Returns the label when it is a valid id.
pub(super) fn required_label<'a>(ctx: &mut Ctx, block: &'a Block) -> Option<&'a str> {
    let kind = &block.kind.name;
    match &block.label {
        Some(label) => check_id(ctx, kind, label),
        None => {
            ctx.error(
                Code::MissingLabel,
                header(block),
                format!("`{kind}` needs a label"),
            )
            .hint(format!("write `{kind} \"name\" {{ … }}`"));
            None
        }
    }
}

/// Report a label on a block that takes none (`dev_server`, `browser`, `verification`).
pub(super) fn forbid_label(ctx: &mut Ctx, block: &Block) {
    if let Some(label) = &block.label {
        let kind = &block.kind.name;
        ctx.error(
            Code::UnexpectedLabel,
            label.span,
            format!("`{kind}` takes no label"),
        )
        .hint(format!(
            "write `{kind} {{ … }}` without \"{}\"",
            label.value
        ));
    }
}

/// Labels already used under one parent.
#[derive(Debug, Default)]
pub(super) struct IdSet<'a> {
    seen: Seen<'a, Span>,
}

impl<'a> IdSet<'a> {
    /// An empty set expecting about `n` labels.
    pub(super) fn with_capacity(n: usize) -> Self {
        IdSet {
            seen: Seen::with_capacity(n),
        }
    }

    /// Record `label`; report `test.spec.duplicate_id` (pointing at the first use) when taken.
    /// Returns true when the label was new.
    pub(super) fn insert(&mut self, ctx: &mut Ctx, what: &str, label: &'a StringLit) -> bool {
        match self.seen.first_or_insert(&label.value, label.span) {
            Some(first) => {
                ctx.error(
                    Code::DuplicateId,
                    label.span,
                    format!("{what} \"{}\" is used twice", label.value),
                )
                .also(first, "first used here");
                false
            }
            None => true,
        }
    }
}
