//! `library "id" { steps "name" { … } … }` roots (`docs/acl.md` §2.2): step groups shared by
//! every suite through the project file's `include`.
//!
//! Why a root of its own: a shared file is admitted like any other (every problem reported where
//! it is written, once), but it runs nothing — so it is neither a suite (which must hold a
//! scenario) nor a project. Its `use` steps may call groups of other libraries; those calls are
//! resolved when a suite expands them.
//!
//! `surface = "tui"` on the library makes its groups terminal step lists (checked by the terminal
//! rules, like a suite's hooks and groups when all its scenarios are terminal ones); without it
//! they are web step lists. Either way a group brought into a scenario of the other surface is
//! refused there (`test.spec.surface_step`), when the suite expands it.

use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::groups::{group, STEPS};
use super::ids::{required_label, IdSet};
use super::suite::{version, SURFACES};
use super::values::keyword;
use crate::ast::{Block, Item};
use crate::code::Code;
use crate::ir::{Library, Surface};

pub(super) const LIBRARY_SCHEMA: &[&str] = &["version", "surface"];

/// Check `library "id" { … }` at the document root.
pub(super) fn library(ctx: &mut Ctx, block: &Block) -> Option<Library> {
    let mark = ctx.enter_block(block);
    let id = required_label(ctx, block);
    let fields = Fields::collect(ctx, block, LIBRARY_SCHEMA);
    let version = version(ctx, fields.get("version"));
    let surface = match fields.get("surface") {
        None => Some(Surface::Web),
        Some(a) => keyword(ctx, a, SURFACES, |s| match s {
            "web" => Some(Surface::Web),
            "gui" => Some(Surface::Gui),
            "tui" => Some(Surface::Tui),
            _ => None,
        }),
    };
    let outer = ctx.set_surface(surface.filter(|s| *s == Surface::Tui));
    let mut groups = Some(Vec::new());
    let mut names = IdSet::with_capacity(block.items.len());
    for item in &block.items {
        let Item::Block(nested) = item else { continue };
        if nested.kind.name != STEPS {
            let kind = &nested.kind.name;
            ctx.error_in(
                Code::UnknownBlock,
                kind,
                nested.kind.span,
                format!("a library cannot hold a `{kind}` block"),
            )
            .hint("a library holds `steps \"name\" { … }` groups");
            groups = None;
            continue;
        }
        match (group(ctx, nested, &mut names), &mut groups) {
            (Some(def), Some(list)) => list.push(def),
            _ => groups = None,
        }
    }
    if groups.as_ref().is_some_and(Vec::is_empty) {
        ctx.error(
            Code::EmptyGroup,
            header(block),
            "the library holds no group",
        )
        .hint("add `steps \"name\" { … }`");
        groups = None;
    }
    ctx.set_surface(outer);
    ctx.leave(mark);
    version?;
    surface?;
    Some(Library {
        id: id?.to_string(),
        groups: groups?,
    })
}
