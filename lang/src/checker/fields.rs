//! One block's attribute table: which attributes it defines, unknown names and duplicates.
//!
//! Every block kind has a schema — the attribute names it accepts. [`Fields::collect`] walks the
//! block once, reports names outside the schema (`test.spec.unknown_attribute`, with a "did you
//! mean" hint) and second assignments (`test.spec.duplicate_attribute`, pointing at the first),
//! and keeps the first assignment of each known name in a fixed-size slot array. Lookups are a
//! linear scan of a schema of at most [`MAX_SCHEMA`] names, which beats hashing at that size and
//! allocates nothing, so checking a 10,000-step file stays linear.

use super::context::{header, Annotate, Ctx};
use crate::ast::{Attribute, Block, Item};
use crate::code::Code;
use crate::diagnostic::did_you_mean;

/// The largest schema of any block (`expect` has 50 names).
pub(super) const MAX_SCHEMA: usize = 56;

/// The first assignment of each schema attribute of one block.
pub(super) struct Fields<'a> {
    block: &'a Block,
    schema: &'static [&'static str],
    slots: [Option<&'a Attribute>; MAX_SCHEMA],
    /// Schema names that an unknown attribute was probably meant to be (`targt` → `target`).
    misspelt: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    /// Read `block`'s attributes against `schema`, reporting unknown and repeated names.
    ///
    /// Nested blocks are left to the caller: only it knows which ones may appear.
    pub(super) fn collect(
        ctx: &mut Ctx,
        block: &'a Block,
        schema: &'static [&'static str],
    ) -> Self {
        Self::read(ctx, block, schema, false)
    }

    /// [`Fields::collect`] for a block that holds attributes only: every nested block is reported
    /// in the same pass (`test.spec.unknown_block`).
    pub(super) fn collect_leaf(
        ctx: &mut Ctx,
        block: &'a Block,
        schema: &'static [&'static str],
    ) -> Self {
        Self::read(ctx, block, schema, true)
    }

    fn read(ctx: &mut Ctx, block: &'a Block, schema: &'static [&'static str], leaf: bool) -> Self {
        debug_assert!(
            schema.len() <= MAX_SCHEMA,
            "schema of `{}` is too large",
            block.kind.name
        );
        let mut slots = [None; MAX_SCHEMA];
        let mut misspelt = Vec::new();
        for item in &block.items {
            let attribute = match item {
                Item::Attribute(attribute) => attribute,
                Item::Block(nested) => {
                    if leaf {
                        reject_nested_block(ctx, block, nested);
                    }
                    continue;
                }
            };
            let name = attribute.name.name.as_str();
            match index_of(schema, name) {
                Some(index) => match slots[index] {
                    None => slots[index] = Some(attribute),
                    Some(first) => {
                        let first: &Attribute = first;
                        ctx.error_in(
                            Code::DuplicateAttribute,
                            name,
                            attribute.name.span,
                            format!("`{name}` is set twice in `{}`", block.kind.name),
                        )
                        .also(first.name.span, "first set here");
                    }
                },
                None => {
                    let suggestion = did_you_mean(name, schema.iter().copied());
                    misspelt.extend(suggestion);
                    let hint = match suggestion {
                        Some(known) => format!("did you mean `{known}`?"),
                        None => unknown_attribute_hint(&block.kind.name, name, schema),
                    };
                    ctx.error_in(
                        Code::UnknownAttribute,
                        name,
                        attribute.name.span,
                        format!("`{}` has no attribute `{name}`", block.kind.name),
                    )
                    .hint(hint);
                }
            }
        }
        Fields {
            block,
            schema,
            slots,
            misspelt,
        }
    }

    /// The first assignment of `name`, if any. `name` must be in the schema.
    pub(super) fn get(&self, name: &str) -> Option<&'a Attribute> {
        let index = index_of(self.schema, name);
        debug_assert!(
            index.is_some(),
            "`{name}` is not in the schema of `{}`",
            self.block.kind.name
        );
        index.and_then(|i| self.slots[i])
    }

    /// The first assignment of `name`, or a `test.spec.missing_attribute` at the block header.
    pub(super) fn required(&self, ctx: &mut Ctx, name: &str) -> Option<&'a Attribute> {
        let found = self.get(name);
        if found.is_none() {
            let kind = &self.block.kind.name;
            self.report_missing(
                ctx,
                name,
                format!("`{kind}` needs `{name}`"),
                format!("add `{name} = …` to this `{kind}` block"),
            );
        }
        found
    }

    /// Report `name` as missing — unless an unknown attribute of this block was already reported
    /// as its likely misspelling, which would make this a second diagnostic for one mistake.
    pub(super) fn report_missing(&self, ctx: &mut Ctx, name: &str, message: String, hint: String) {
        if !self.is_misspelt(name) {
            ctx.error_in(Code::MissingAttribute, name, header(self.block), message)
                .hint(hint);
        }
    }

    /// True when an unknown attribute of this block looked like a misspelling of a name that
    /// satisfies `filter`.
    pub(super) fn misspelt_any(&self, filter: impl Fn(&str) -> bool) -> bool {
        self.misspelt.iter().any(|name| filter(name))
    }

    /// True when an unknown attribute of this block looked like a misspelling of `name`.
    pub(super) fn is_misspelt(&self, name: &str) -> bool {
        self.misspelt.contains(&name)
    }

    /// The block these fields belong to.
    pub(super) fn block(&self) -> &'a Block {
        self.block
    }

    /// The recorded (first) assignments whose names satisfy `filter`, in source order.
    pub(super) fn present<'f>(
        &'f self,
        filter: impl Fn(&str) -> bool + 'f,
    ) -> impl Iterator<Item = &'a Attribute> + 'f {
        self.block.items.iter().filter_map(move |item| match item {
            Item::Attribute(a) if filter(&a.name.name) => self
                .get_known(&a.name.name)
                .filter(|first| std::ptr::eq(*first, a)),
            _ => None,
        })
    }

    /// Like [`Fields::get`] for a name that may be outside the schema.
    fn get_known(&self, name: &str) -> Option<&'a Attribute> {
        index_of(self.schema, name).and_then(|i| self.slots[i])
    }
}

/// The position of `name` in `schema`.
///
/// Why the length and first-byte test: this runs for every attribute and every lookup, and most
/// schema names differ from the one sought in length or first letter, so the full comparison (a
/// `memcmp` call) is skipped for almost all of them.
fn index_of(schema: &[&str], name: &str) -> Option<usize> {
    let first = *name.as_bytes().first()?;
    schema.iter().position(|known| {
        known.len() == name.len() && known.as_bytes()[0] == first && *known == name
    })
}

/// Report a block nested in a block that holds only attributes.
fn reject_nested_block(ctx: &mut Ctx, block: &Block, nested: &Block) {
    ctx.error_in(
        Code::UnknownBlock,
        &nested.kind.name,
        nested.kind.span,
        format!(
            "`{}` holds attributes only, not a `{}` block",
            block.kind.name, nested.kind.name
        ),
    )
    .hint(format!(
        "move `{}` out of `{}`",
        nested.kind.name, block.kind.name
    ));
}

/// The hint for an attribute `name` that block `kind` does not define and that misspells nothing.
fn unknown_attribute_hint(kind: &str, name: &str, schema: &[&str]) -> String {
    if matches!(name, "stable_for_ms" | "sample_interval_ms") {
        return "stability (`stable_for_ms`, `sample_interval_ms`) applies only to `expect`"
            .to_string();
    }
    if kind == "scenario" && super::steps::is_step_kind(name) {
        return format!("`{name}` is a step block: write `{name} \"label\" {{ … }}`");
    }
    if schema.is_empty() {
        return format!("`{kind}` takes no attributes");
    }
    if schema.len() <= 8 {
        let list: Vec<String> = schema.iter().map(|s| format!("`{s}`")).collect();
        return format!("`{kind}` takes {}", list.join(", "));
    }
    Code::UnknownAttribute.default_hint().to_string()
}
