//! `project` roots (`docs/acl.md` §11): `.a3s-test/project.acl`.
//!
//! `project "id" { version expect_timeout_ms dev_server{…} browser{…} tui{…} grid{…} provider "name"{…}… verification{ check "id"{…}… } }`. The
//! sections take no label and appear at most once (a second one is `test.spec.duplicate_attribute`,
//! pointing at the first). Commands are non-empty argument vectors of non-empty strings because
//! they run without a shell. Bounds chosen here: `startup_timeout_ms` 1–3,600,000 ms (default
//! 60,000); a check's `timeout_ms` 1–86,400,000 ms (one day; default 120,000) because a full
//! regression tier can legitimately run for hours.

use super::browser_context::with_context_options;
use super::context::{header, Annotate, Ctx};
use super::fields::Fields;
use super::ids::{forbid_label, required_label, IdSet};
use super::storage::state_path;
use super::suite::{timeout, version, MAX_TIMEOUT_MS};
use super::urls::{url, UrlRule};
use super::values::{boolean, keyword, non_empty, optional, string_list_with, u64_in, ItemRules};
use crate::ast::{Attribute, Block, Item};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::{
    BrowserSettings, CheckTier, DevServer, ProjectConfig, TraceSetting, VerificationCheck,
    DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS,
};

/// Longest verification check deadline: one day.
pub(super) const MAX_CHECK_TIMEOUT_MS: u64 = 86_400_000;

/// The project's own attributes, then the context options (read by
/// `checker/browser_context.rs`).
pub(super) const PROJECT_SCHEMA: &[&str] = &with_context_options::<5, 20>([
    "version",
    "expect_timeout_ms",
    "include",
    "storage_state",
    "trace",
]);
pub(super) const SECTIONS: &[&str] = &[
    "dev_server",
    "browser",
    "verification",
    "tui",
    "grid",
    "gui",
];
/// `provider "name" { … }`: labelled, one block per provider (`checker/provider_project.rs`).
pub(super) const PROVIDER: &str = "provider";
pub(super) const DEV_SERVER_SCHEMA: &[&str] = &[
    "command",
    "url",
    "startup_timeout_ms",
    "reuse_existing",
    "ignore_https_errors",
];
pub(super) const BROWSER_SCHEMA: &[&str] = &["executable", "headed"];
const VERIFICATION_SCHEMA: &[&str] = &[];
pub(super) const CHECK_SCHEMA: &[&str] = &["tier", "command", "file_prefixes", "timeout_ms"];

/// Check `project "id" { … }` at the document root.
pub(super) fn project(ctx: &mut Ctx, block: &Block) -> Option<ProjectConfig> {
    let mark = ctx.enter_block(block);
    let id = required_label(ctx, block);
    let fields = Fields::collect(ctx, block, PROJECT_SCHEMA);
    let version = version(ctx, fields.get("version"));
    let expect_timeout = optional(
        fields
            .get("expect_timeout_ms")
            .map(|a| u64_in(ctx, a, 1, MAX_TIMEOUT_MS)),
    );
    let include = match fields.get("include") {
        Some(a) => string_list_with(ctx, a, ItemRules::NAME_SET),
        None => Some(Vec::new()),
    };

    let storage_state = optional(fields.get("storage_state").map(|a| state_path(ctx, a)));
    let context = super::browser_context::settings(ctx, &fields);
    let trace_names = TraceSetting::NAMES.map(|(n, _)| n);
    let trace = optional(
        fields
            .get("trace")
            .map(|a| keyword(ctx, a, &trace_names, TraceSetting::from_name)),
    );

    let mut dev_server: Option<Option<DevServer>> = Some(None);
    let mut browser: Option<Option<BrowserSettings>> = Some(None);
    let mut checks: Option<Vec<VerificationCheck>> = Some(Vec::new());
    let mut tui = Some(None);
    let mut grid = Some(None);
    let mut gui = Some(None);
    let mut first_seen: [Option<&Block>; 6] = [None; 6];
    let mut providers = Some(Vec::new());
    let mut provider_names = IdSet::default();
    for item in &block.items {
        let Item::Block(section) = item else { continue };
        let kind = section.kind.name.as_str();
        if kind == PROVIDER {
            // Labelled and repeatable, unlike the sections below: one block per provider.
            let inner = ctx.enter_block(section);
            let checked = super::provider_project::provider(ctx, section, &mut provider_names);
            ctx.leave(inner);
            match (checked, &mut providers) {
                (Some(p), Some(list)) => list.push(p),
                _ => providers = None,
            }
            continue;
        }
        let Some(index) = SECTIONS.iter().position(|s| *s == kind) else {
            let hint = match did_you_mean(kind, SECTIONS.iter().copied().chain([PROVIDER])) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "a project holds `dev_server`, `browser`, `verification`, `tui`, `gui`, `grid` and `provider` blocks"
                    .to_string(),
            };
            ctx.error_in(
                Code::UnknownBlock,
                kind,
                section.kind.span,
                format!("a project cannot hold a `{kind}` block"),
            )
            .hint(hint);
            continue;
        };
        if let Some(first) = first_seen[index] {
            ctx.error_in(
                Code::DuplicateAttribute,
                kind,
                header(section),
                format!("`{kind}` is given twice"),
            )
            .also(header(first), "first given here")
            .hint(format!("merge the two `{kind}` sections into one"));
            continue;
        }
        first_seen[index] = Some(section);
        let inner = ctx.enter(kind);
        forbid_label(ctx, section);
        match kind {
            "dev_server" => dev_server = check_dev_server(ctx, section).map(Some),
            "browser" => browser = check_browser(ctx, section).map(Some),
            "tui" => tui = super::terminal_project::tui(ctx, section).map(|t| Some(Box::new(t))),
            "gui" => gui = super::gui_project::gui(ctx, section).map(|g| Some(Box::new(g))),
            "grid" => grid = super::grid_project::grid(ctx, section).map(|g| Some(Box::new(g))),
            _ => checks = verification(ctx, section),
        }
        ctx.leave(inner);
    }
    ctx.leave(mark);
    Some(ProjectConfig {
        id: id?.to_string(),
        version: version?,
        dev_server: dev_server?,
        browser: browser?,
        expect_timeout_ms: expect_timeout?,
        checks: checks?,
        include: include?.into_iter().map(str::to_string).collect(),
        tui: tui?,
        gui: gui?,
        span: block.span,
        storage_state: storage_state?,
        context: context?,
        trace: trace?,
        grid: grid?,
        providers: providers?,
    })
}

/// A command: a non-empty argument vector of non-empty strings.
pub(super) fn command(ctx: &mut Ctx, attr: &Attribute) -> Option<Vec<String>> {
    let rules = ItemRules {
        non_empty: true,
        unique: false,
        at_least_one: true,
    };
    string_list_with(ctx, attr, rules).map(|args| args.into_iter().map(str::to_string).collect())
}

fn check_dev_server(ctx: &mut Ctx, block: &Block) -> Option<DevServer> {
    let f = Fields::collect_leaf(ctx, block, DEV_SERVER_SCHEMA);
    let argv = f.required(ctx, "command").and_then(|a| command(ctx, a));
    let ready_url = f
        .required(ctx, "url")
        .and_then(|a| url(ctx, a, UrlRule::Server));
    let startup = timeout(
        ctx,
        f.get("startup_timeout_ms"),
        DEFAULT_STARTUP_TIMEOUT_MS,
        MAX_TIMEOUT_MS,
    );
    let reuse_existing = f.get("reuse_existing").map(|a| boolean(ctx, a));
    let ignore_https_errors = f.get("ignore_https_errors").map(|a| boolean(ctx, a));
    Some(DevServer {
        command: argv?,
        url: ready_url?.to_string(),
        startup_timeout_ms: startup?,
        reuse_existing: optional(reuse_existing)?,
        ignore_https_errors: optional(ignore_https_errors)?.unwrap_or(false),
    })
}

fn check_browser(ctx: &mut Ctx, block: &Block) -> Option<BrowserSettings> {
    let f = Fields::collect_leaf(ctx, block, BROWSER_SCHEMA);
    let executable = f.get("executable").map(|a| non_empty(ctx, a));
    let headed = match f.get("headed") {
        Some(a) => boolean(ctx, a),
        None => Some(false),
    };
    Some(BrowserSettings {
        executable: optional(executable)?.map(str::to_string),
        headed: headed?,
    })
}

fn verification(ctx: &mut Ctx, block: &Block) -> Option<Vec<VerificationCheck>> {
    // Collected for its unknown-attribute reports; `verification` holds only `check` blocks.
    Fields::collect(ctx, block, VERIFICATION_SCHEMA);
    let mut checks = Some(Vec::new());
    let mut ids = IdSet::with_capacity(block.items.len());
    for item in &block.items {
        let Item::Block(nested) = item else { continue };
        let kind = nested.kind.name.as_str();
        if kind != "check" {
            let hint = match did_you_mean(kind, ["check"]) {
                Some(_) => "did you mean `check`?".to_string(),
                None => "`verification` holds `check \"id\" { … }` blocks".to_string(),
            };
            ctx.error_in(
                Code::UnknownBlock,
                kind,
                nested.kind.span,
                format!("`verification` cannot hold a `{kind}` block"),
            )
            .hint(hint);
            checks = None;
            continue;
        }
        let mark = ctx.enter_block(nested);
        let id = required_label(ctx, nested);
        if let Some(label) = &nested.label {
            ids.insert(ctx, "check id", label);
        }
        let check = check(ctx, nested, id);
        ctx.leave(mark);
        match (check, &mut checks) {
            (Some(c), Some(list)) => list.push(c),
            _ => checks = None,
        }
    }
    checks
}

fn check(ctx: &mut Ctx, block: &Block, id: Option<&str>) -> Option<VerificationCheck> {
    let f = Fields::collect_leaf(ctx, block, CHECK_SCHEMA);
    let tier = f
        .required(ctx, "tier")
        .and_then(|a| keyword(ctx, a, CheckTier::KEYWORDS, CheckTier::from_keyword));
    let argv = f.required(ctx, "command").and_then(|a| command(ctx, a));
    let prefixes = match f.get("file_prefixes") {
        Some(a) => string_list_with(ctx, a, ItemRules::NAME_SET)
            .map(|p| p.into_iter().map(str::to_string).collect()),
        None => Some(Vec::new()),
    };
    let timeout_ms = timeout(
        ctx,
        f.get("timeout_ms"),
        DEFAULT_CHECK_TIMEOUT_MS,
        MAX_CHECK_TIMEOUT_MS,
    );
    Some(VerificationCheck {
        id: id?.to_string(),
        tier: tier?,
        command: argv?,
        file_prefixes: prefixes?,
        timeout_ms: timeout_ms?,
    })
}
