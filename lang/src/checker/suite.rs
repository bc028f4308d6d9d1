//! `suite` and `scenario` blocks (`docs/acl.md` §2).
//!
//! A suite holds its settings and at least one scenario; a scenario holds its settings and at least
//! one step. Scenario ids and step labels are unique within their parent. Bounds (`docs/acl.md`
//! §2): `timeout_ms`, `action_timeout_ms` and `expect_timeout_ms` are 1–3,600,000 ms (one
//! hour — a longer scenario is a job, not a test), and `version` must be 1, the only version this
//! toolchain reads (a later version is reported, not misread).

use super::browser_context;
use super::browser_context::with_context_options;
use super::context::{header, Annotate, Ctx};
use super::dependencies::DependencyGraph;
use super::expand::Groups;
use super::fields::Fields;
use super::groups::step_items;
use super::ids::{required_label, IdSet};
use super::organisation::organisation;
use super::params;
use super::shared::{Ready, Shared, SHARED_BLOCKS};
use super::steps::{action, is_step_kind, unknown_step};
use super::storage::state_path;
use super::urls::{url, UrlRule};
use super::values::{integer, keyword, non_empty, optional, string_list_with, u64_in, ItemRules};
use crate::ast::{Attribute, Block, Item};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::{ActionKind, ContextSettings, Library};
use crate::ir::{
    Scenario, Step, Suite, Surface, DEFAULT_ACTION_TIMEOUT_MS, DEFAULT_SCENARIO_TIMEOUT_MS,
};

/// Longest scenario deadline and action wait: one hour.
pub(super) const MAX_TIMEOUT_MS: u64 = 3_600_000;
/// The ACL version this toolchain reads.
pub(super) const SUPPORTED_VERSION: u32 = 1;

/// A suite's own attributes, then the context options (read by `checker/browser_context.rs`).
pub(super) const SUITE_SCHEMA: &[&str] = &with_context_options::<5, 20>([
    "version",
    "base_url",
    "action_timeout_ms",
    "expect_timeout_ms",
    "storage_state",
]);
/// The values of a scenario's `surface`.
pub(super) const SURFACES: &[&str] = &["web", "gui", "tui"];
/// A scenario's own attributes, then the context options (read by `checker/browser_context.rs`).
pub(super) const SCENARIO_SCHEMA: &[&str] = &with_context_options::<13, 28>([
    "name",
    "surface",
    "timeout_ms",
    "action_timeout_ms",
    "expect_timeout_ms",
    "tags",
    params::EACH,
    // read by checker/organisation.rs
    "depends_on",
    "storage_state",
    "skip",
    "fixme",
    "slow",
    "only",
]);

/// `version = 1` on a suite or project.
pub(super) fn version(ctx: &mut Ctx, attr: Option<&Attribute>) -> Option<u32> {
    let Some(attr) = attr else {
        return Some(SUPPORTED_VERSION);
    };
    let n = integer(ctx, attr)?;
    if n == i64::from(SUPPORTED_VERSION) {
        return Some(SUPPORTED_VERSION);
    }
    let message = if n < 1 {
        format!("`version` must be a positive integer, found {n}")
    } else {
        format!(
            "ACL version {n} is not supported; this toolchain reads version {SUPPORTED_VERSION}"
        )
    };
    ctx.error_in(Code::InvalidValue, "version", attr.value.span, message)
        .hint(format!(
            "write `version = {SUPPORTED_VERSION}`, or upgrade a3s-test"
        ));
    None
}

/// A timeout attribute in milliseconds, 1..=[`MAX_TIMEOUT_MS`], or `default` when absent.
pub(super) fn timeout(
    ctx: &mut Ctx,
    attr: Option<&Attribute>,
    default: u64,
    max: u64,
) -> Option<u64> {
    match attr {
        Some(attr) => u64_in(ctx, attr, 1, max),
        None => Some(default),
    }
}

/// Check `suite "id" { … }` at the document root; `use` steps may call the groups of
/// `libraries` (each with the path of its file).
pub(super) fn suite(
    ctx: &mut Ctx,
    block: &Block,
    libraries: &[(String, Library)],
) -> Option<Suite> {
    let mark = ctx.enter_block(block);
    let id = required_label(ctx, block);
    let fields = Fields::collect(ctx, block, SUITE_SCHEMA);
    let version = version(ctx, fields.get("version"));
    let base_url = fields.get("base_url").map(|a| url(ctx, a, UrlRule::Base));
    let action_timeout = timeout(
        ctx,
        fields.get("action_timeout_ms"),
        DEFAULT_ACTION_TIMEOUT_MS,
        MAX_TIMEOUT_MS,
    );
    let expect_timeout = optional(
        fields
            .get("expect_timeout_ms")
            .map(|a| u64_in(ctx, a, 1, MAX_TIMEOUT_MS)),
    );

    let storage_state = optional(fields.get("storage_state").map(|a| state_path(ctx, a)));
    let context = browser_context::settings(ctx, &fields);
    let mut graph = DependencyGraph::default();

    let mut scenarios = Some(Vec::with_capacity(block.items.len()));
    let mut ids = IdSet::with_capacity(block.items.len());
    let mut any_block = false;
    let mut shared = Shared::new();
    let mut scenario_blocks = Vec::with_capacity(block.items.len());
    // Hooks and groups follow the suite's one surface when every scenario shares it.
    let outer = ctx.set_surface(super::terminal::suite_surface(block));
    for item in &block.items {
        let Item::Block(nested) = item else { continue };
        if SHARED_BLOCKS.contains(&nested.kind.name.as_str()) {
            shared.add(ctx, nested);
            continue;
        }
        any_block = true;
        if nested.kind.name != "scenario" {
            unknown_suite_block(ctx, nested);
            scenarios = None;
            continue;
        }
        scenario_blocks.push(nested);
    }
    ctx.set_surface(outer);
    let shared = shared.finish(libraries);
    let mut groups = shared.resolver();
    if !shared.check(ctx, &mut groups) {
        scenarios = None;
    }
    let mut scope = SuiteScope {
        shared: &shared,
        groups: &mut groups,
        suite_id: id,
        graph: &mut graph,
    };
    for nested in scenario_blocks {
        let inherited = Inherited {
            action_timeout_ms: action_timeout.unwrap_or(DEFAULT_ACTION_TIMEOUT_MS),
            expect_timeout_ms: expect_timeout.flatten(),
            context: context.as_ref(),
        };
        let made = match params::each(nested) {
            None => scenario(ctx, nested, &mut ids, inherited, &mut scope).map(|s| vec![s]),
            Some(each) => {
                if let Some(label) = &nested.label {
                    ids.insert(ctx, "scenario id", label);
                }
                params::instances(ctx, nested, each, &mut |ctx, instance| {
                    let mut own = IdSet::with_capacity(0);
                    scenario(ctx, instance, &mut own, inherited, &mut scope)
                })
            }
        };
        match (made, &mut scenarios) {
            (Some(s), Some(list)) => list.extend(s),
            _ => scenarios = None,
        }
    }
    if !graph.check(ctx) {
        scenarios = None;
    }
    if !any_block {
        ctx.error(Code::EmptySuite, header(block), "the suite has no scenario")
            .hint("add `scenario \"id\" { surface = \"web\" … }`");
    }
    ctx.leave(mark);
    expect_timeout?;
    Some(Suite {
        id: id?.to_string(),
        version: version?,
        base_url: optional(base_url)?.map(str::to_string),
        scenarios: scenarios?,
        span: block.span,
        storage_state: storage_state?,
        context: context?,
    })
}

fn unknown_suite_block(ctx: &mut Ctx, nested: &Block) {
    let kind = &nested.kind.name;
    let hint = if is_step_kind(kind) {
        format!("steps live inside a scenario: `scenario \"id\" {{ {kind} … }}`")
    } else if did_you_mean(kind, ["scenario"]).is_some() {
        "did you mean `scenario`?".to_string()
    } else if let Some(s) = did_you_mean(kind, SHARED_BLOCKS.iter().copied()) {
        format!("did you mean `{s}`?")
    } else {
        "a suite holds `scenario \"id\" { … }`, `before_each`, `after_each` and `steps \"name\" { … }` blocks".to_string()
    };
    ctx.error_in(
        Code::UnknownBlock,
        kind,
        nested.kind.span,
        format!("a suite cannot hold a `{kind}` block"),
    )
    .hint(hint);
}

/// What a scenario takes from its suite unless it sets its own.
#[derive(Clone, Copy)]
struct Inherited<'s> {
    /// The suite's (or the default) action wait.
    action_timeout_ms: u64,
    /// The suite's expect timeout, if it sets one.
    expect_timeout_ms: Option<u64>,
    /// The suite's context options (`None` when they were refused).
    context: Option<&'s ContextSettings>,
}

/// What every scenario of a suite is checked against: the suite's groups (and the resolver of
/// their `use` calls), its id, and the dependency graph the scenarios add to.
struct SuiteScope<'s, 'g, 'r> {
    shared: &'s Ready<'r>,
    groups: &'g mut Groups<'r>,
    suite_id: Option<&'s str>,
    graph: &'g mut DependencyGraph,
}

/// Check `scenario "id" { … }` (its id unique in `ids`), with the settings it inherits from
/// its suite.
fn scenario<'a>(
    ctx: &mut Ctx,
    block: &'a Block,
    ids: &mut IdSet<'a>,
    suite: Inherited<'_>,
    scope: &mut SuiteScope<'_, '_, '_>,
) -> Option<Scenario> {
    let mark = ctx.enter_block(block);
    let id = required_label(ctx, block);
    if let Some(label) = &block.label {
        ids.insert(ctx, "scenario id", label);
        scope.graph.scenario(&label.value);
    }
    let path = ctx.path().to_string();
    let fields = Fields::collect(ctx, block, SCENARIO_SCHEMA);
    let name = fields.get("name").map(|a| non_empty(ctx, a));
    let surface = fields.required(ctx, "surface").and_then(|a| {
        keyword(ctx, a, SURFACES, |s| match s {
            "web" => Some(Surface::Web),
            "gui" => Some(Surface::Gui),
            "tui" => Some(Surface::Tui),
            _ => None,
        })
    });
    let timeout_ms = timeout(
        ctx,
        fields.get("timeout_ms"),
        DEFAULT_SCENARIO_TIMEOUT_MS,
        MAX_TIMEOUT_MS,
    );
    let action_timeout_ms = timeout(
        ctx,
        fields.get("action_timeout_ms"),
        suite.action_timeout_ms,
        MAX_TIMEOUT_MS,
    );
    let expect_timeout_ms = match fields.get("expect_timeout_ms") {
        Some(a) => u64_in(ctx, a, 1, MAX_TIMEOUT_MS).map(Some),
        None => Some(suite.expect_timeout_ms),
    };
    let tags = match fields.get("tags") {
        Some(a) => string_list_with(ctx, a, ItemRules::NAME_SET),
        None => Some(Vec::new()),
    };
    let organisation = organisation(ctx, &fields, scope.suite_id, id, scope.graph);
    let own_context = browser_context::settings(ctx, &fields);
    if let Some(surface) = surface {
        browser_context::refuse_off_the_web(ctx, &fields, surface);
    }

    let outer = ctx.set_surface(surface);
    let own = step_items(ctx, block);
    ctx.set_surface(outer);
    let any_block = block.items.iter().any(|i| matches!(i, Item::Block(_)));
    let expanded = own.and_then(|own| scope.shared.expand(ctx, scope.groups, &own, &path));
    if !any_block {
        ctx.error(
            Code::EmptyScenario,
            header(block),
            "the scenario has no step",
        )
        .hint("add at least one step such as `navigate \"open\" { url = \"/\" }`");
    }
    ctx.leave(mark);
    let expanded = expanded?;
    if let Some(surface) = surface {
        let terminal = super::terminal::check_surface(ctx, surface, &expanded.steps);
        if !(super::gui::check_surface(ctx, surface, &expanded.steps) && terminal) {
            return None;
        }
    }
    let id = id?;
    let name = match name {
        Some(n) => n?.to_string(),
        None => id.to_string(),
    };
    Some(Scenario {
        id: id.to_string(),
        name,
        surface: surface?,
        timeout_ms: timeout_ms?,
        action_timeout_ms: action_timeout_ms?,
        expect_timeout_ms: expect_timeout_ms?,
        tags: tags?.into_iter().map(str::to_string).collect(),
        steps: expanded.steps,
        groups: expanded.groups,
        path,
        span: block.span,
        organisation: organisation?,
        // A terminal or a desktop has no browser context: it takes no options from its suite.
        context: match surface? {
            Surface::Tui | Surface::Gui => ContextSettings::default(),
            _ => suite.context?.then(&own_context?),
        },
    })
}

/// Check one step of a scenario, hook or group (label required and unique).
pub(super) fn step<'a>(ctx: &mut Ctx, block: &'a Block, labels: &mut IdSet<'a>) -> Option<Step> {
    let kind = &block.kind.name;
    let Some(step_kind) = ActionKind::from_name(kind) else {
        let otherwise = if kind == "scenario" {
            "scenarios do not nest; close this scenario before starting the next"
        } else {
            "use a step such as navigate, click, fill, wait or expect (see docs/acl.md)"
        };
        unknown_step(ctx, block, otherwise);
        return None;
    };
    let mark = ctx.enter_block(block);
    let label = required_label(ctx, block);
    if let Some(lit) = &block.label {
        labels.insert(ctx, "step label", lit);
    }
    let path = ctx.path().to_string();
    let action = action(ctx, block, step_kind);
    ctx.leave(mark);
    Some(Step {
        label: Some(label?.to_string()),
        path,
        span: block.span,
        action: action?,
        group: None,
        hook: None,
    })
}
