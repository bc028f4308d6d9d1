//! What a suite shares with its scenarios: `before_each`, `after_each` and its own `steps`
//! groups (`docs/acl.md` §2.1–§2.2), collected once and expanded into each scenario.
//!
//! Why its own file: the suite reader stays about settings and scenarios; this file owns the
//! suite-level blocks that are not scenarios and the order a scenario's list is built in —
//! `before_each`, the scenario's own steps, `after_each`.

use super::context::{header, Annotate, Ctx};
use super::expand::{Expanded, Groups};
use super::groups::{group, hook, STEPS};
use super::ids::IdSet;
use crate::ast::Block;
use crate::code::Code;
use crate::ir::{GroupDef, GroupItem, Hook, Library};
use crate::span::Span;

/// The suite-level block kinds besides `scenario`.
pub(super) const SHARED_BLOCKS: &[&str] = &["before_each", "after_each", STEPS];

/// The suite's hooks and groups as checked, before any scenario is.
#[derive(Default)]
pub(super) struct Shared<'a> {
    before: Option<(Vec<GroupItem>, Span)>,
    after: Option<(Vec<GroupItem>, Span)>,
    first: [Option<&'a Block>; 2],
    groups: Vec<GroupDef>,
    names: IdSet<'a>,
    /// False once any of them is in error (the suite is then not admitted).
    ok: bool,
}

impl<'a> Shared<'a> {
    /// Nothing collected yet.
    pub(super) fn new() -> Self {
        Shared {
            ok: true,
            ..Shared::default()
        }
    }

    /// Check one suite-level `before_each`, `after_each` or `steps` block.
    pub(super) fn add(&mut self, ctx: &mut Ctx, block: &'a Block) {
        let which = match block.kind.name.as_str() {
            "before_each" => Hook::BeforeEach,
            "after_each" => Hook::AfterEach,
            _ => {
                match group(ctx, block, &mut self.names) {
                    Some(def) => self.groups.push(def),
                    None => self.ok = false,
                }
                return;
            }
        };
        let slot = which as usize;
        if let Some(first) = self.first[slot] {
            let kind = which.name();
            ctx.error_in(
                Code::DuplicateAttribute,
                kind,
                header(block),
                format!("`{kind}` is given twice"),
            )
            .also(header(first), "first given here")
            .hint(format!("merge the two `{kind}` blocks into one"));
            self.ok = false;
            return;
        }
        self.first[slot] = Some(block);
        let items = hook(ctx, block).map(|items| (items, block.span));
        if items.is_none() {
            self.ok = false;
        }
        match which {
            Hook::BeforeEach => self.before = items,
            Hook::AfterEach => self.after = items,
        }
    }

    /// Done collecting: check the `use` steps inside the suite's own groups.
    pub(super) fn finish(mut self, libraries: &'a [(String, Library)]) -> Ready<'a> {
        let groups = std::mem::take(&mut self.groups);
        Ready {
            shared: self,
            groups,
            libraries,
        }
    }
}

/// The suite's shared blocks, ready to expand scenarios.
pub(super) struct Ready<'a> {
    shared: Shared<'a>,
    groups: Vec<GroupDef>,
    libraries: &'a [(String, Library)],
}

impl Ready<'_> {
    /// Check the suite's own groups; `false` when any shared block is in error.
    pub(super) fn check(&self, ctx: &mut Ctx, groups: &mut Groups<'_>) -> bool {
        groups.check_local(ctx, &self.groups) && self.shared.ok
    }

    /// A scenario's closed list: `before_each`, its own items, `after_each`, every `use`
    /// expanded. `None` when a call does not resolve (reported once per `use`).
    pub(super) fn expand(
        &self,
        ctx: &mut Ctx,
        groups: &mut Groups<'_>,
        own: &[GroupItem],
        scenario_path: &str,
    ) -> Option<Expanded> {
        let mut out = Expanded::default();
        let mut ok = true;
        if let Some((items, span)) = &self.shared.before {
            ok &= groups.hook(ctx, Hook::BeforeEach, items, *span, scenario_path, &mut out);
        }
        ok &= groups.own(ctx, own, scenario_path, &mut out);
        if let Some((items, span)) = &self.shared.after {
            ok &= groups.hook(ctx, Hook::AfterEach, items, *span, scenario_path, &mut out);
        }
        ok.then_some(out)
    }

    /// The resolver every scenario of the suite expands through (one, so a problem reached
    /// from several scenarios is reported once).
    pub(super) fn resolver(&self) -> Groups<'_> {
        Groups::new(&self.groups, self.libraries)
    }
}
