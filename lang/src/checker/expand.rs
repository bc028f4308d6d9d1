//! Expansion of hooks and `use` steps into a scenario's closed step list (`docs/acl.md` §2.2).
//!
//! Why at admission: the executor runs a flat, typed list — it never resolves a name. Here every
//! `use` is replaced by the steps of its group (the suite's own `steps` blocks first, then the
//! libraries the project file includes), each expanded step gets a distinct, stable path under
//! its group (`….use.sign-in.click.submit`), and each group is recorded once (`StepGroup`) so the
//! reports can draw it as one nested step. A name no group has, a group that uses itself and
//! nesting deeper than [`MAX_GROUP_DEPTH`] are refused here, each once at the `use` that is in
//! the file being admitted.

use super::context::{Annotate, Ctx};
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::{GroupCall, GroupDef, GroupItem, GroupKind, Hook, Library, Step, StepGroup};
use crate::span::Span;
use std::collections::{HashMap, HashSet};

/// Deepest nesting of `use` inside groups.
pub const MAX_GROUP_DEPTH: usize = 8;

/// Where a group is defined.
#[derive(Clone, Copy)]
enum Origin {
    /// In the file being admitted.
    Local,
    /// In an included library file.
    Included,
}

/// The groups a suite can call: its own, then the included ones.
pub(super) struct Groups<'a> {
    by_name: HashMap<&'a str, (&'a GroupDef, Origin)>,
    /// Calls already reported, so a problem reached from many places is said once.
    reported: HashSet<(Span, Code)>,
    /// Off while checking groups on their own: depth counts from a scenario's `use`.
    depth_bound: bool,
}

/// One scenario's expanded list and its groups.
#[derive(Default)]
pub(super) struct Expanded {
    /// Steps in run order.
    pub(super) steps: Vec<Step>,
    /// Every hook and `use` group, parents before children.
    pub(super) groups: Vec<StepGroup>,
}

/// Where an expansion is: its path prefix, group, hook and the in-file call it hangs from.
#[derive(Clone)]
struct Place<'p> {
    base: &'p str,
    parent: Option<usize>,
    hook: Option<Hook>,
    /// The in-file `use` an included group was reached through: its steps point there.
    anchor: Option<&'p GroupCall>,
}

impl<'a> Groups<'a> {
    /// The suite's own groups (they win over included ones of the same name) and the libraries.
    pub(super) fn new(local: &'a [GroupDef], libraries: &'a [(String, Library)]) -> Self {
        let mut by_name = HashMap::new();
        for (_, library) in libraries.iter().rev() {
            for def in &library.groups {
                by_name.insert(def.name.as_str(), (def, Origin::Included));
            }
        }
        for def in local {
            by_name.insert(def.name.as_str(), (def, Origin::Local));
        }
        Groups {
            by_name,
            reported: HashSet::new(),
            depth_bound: true,
        }
    }

    /// Expand a hook's items at the start or end of a scenario whose path is `scenario_path`.
    pub(super) fn hook(
        &mut self,
        ctx: &mut Ctx,
        hook: Hook,
        items: &[GroupItem],
        span: Span,
        scenario_path: &str,
        out: &mut Expanded,
    ) -> bool {
        let path = format!("{scenario_path}.{}", hook.name());
        out.groups.push(StepGroup {
            kind: GroupKind::Hook { hook },
            label: hook.name().to_string(),
            path: path.clone(),
            parent: None,
            span,
        });
        let place = Place {
            base: &path,
            parent: Some(out.groups.len() - 1),
            hook: Some(hook),
            anchor: None,
        };
        self.list(ctx, items, &place, &mut Vec::new(), out)
    }

    /// Expand a scenario's own items (paths under `scenario_path`).
    pub(super) fn own(
        &mut self,
        ctx: &mut Ctx,
        items: &[GroupItem],
        scenario_path: &str,
        out: &mut Expanded,
    ) -> bool {
        let place = Place {
            base: scenario_path,
            parent: None,
            hook: None,
            anchor: None,
        };
        self.list(ctx, items, &place, &mut Vec::new(), out)
    }

    /// Check that every `use` of a group defined in this file resolves, even one no scenario
    /// reaches, so a broken group is refused where it is written.
    pub(super) fn check_local(&mut self, ctx: &mut Ctx, local: &[GroupDef]) -> bool {
        let mut ok = true;
        self.depth_bound = false;
        for def in local {
            let place = Place {
                base: "",
                parent: None,
                hook: None,
                anchor: None,
            };
            let mut stack = vec![def.name.clone()];
            ok &= self.list(
                ctx,
                &def.items,
                &place,
                &mut stack,
                &mut Expanded::default(),
            );
        }
        self.depth_bound = true;
        ok
    }

    fn list(
        &mut self,
        ctx: &mut Ctx,
        items: &[GroupItem],
        place: &Place<'_>,
        stack: &mut Vec<String>,
        out: &mut Expanded,
    ) -> bool {
        let mut ok = true;
        for item in items {
            match item {
                GroupItem::Step(step) => {
                    let mut step = step.clone();
                    step.path = join(place.base, &step.path);
                    step.group = place.parent;
                    step.hook = place.hook;
                    if let Some(call) = place.anchor {
                        step.span = call.span;
                    }
                    out.steps.push(step);
                }
                GroupItem::Use(call) => ok &= self.call(ctx, call, place, stack, out),
            }
        }
        ok
    }

    fn call(
        &mut self,
        ctx: &mut Ctx,
        call: &GroupCall,
        place: &Place<'_>,
        stack: &mut Vec<String>,
        out: &mut Expanded,
    ) -> bool {
        // A problem inside an included group is reported at the in-file `use` that reached it.
        let site = place.anchor.unwrap_or(call);
        let Some(&(def, origin)) = self.by_name.get(call.group.as_str()) else {
            self.unknown(ctx, call, site);
            return false;
        };
        if let Some(at) = stack.iter().position(|n| *n == call.group) {
            let mut cycle = stack[at..].join(" → ");
            cycle.push_str(&format!(" → {}", call.group));
            self.report(
                ctx,
                site,
                Code::GroupCycle,
                format!("group `{}` uses itself: {cycle}", call.group),
            )
            .map(|d| d.hint(Code::GroupCycle.default_hint()));
            return false;
        }
        if self.depth_bound && stack.len() >= MAX_GROUP_DEPTH {
            let message = format!(
                "`use \"{}\"` nests groups {} levels deep; the limit is {MAX_GROUP_DEPTH}",
                call.label,
                stack.len() + 1
            );
            self.report(ctx, site, Code::GroupDepth, message);
            return false;
        }
        let path = join(place.base, &format!("use.{}", call.label));
        let span = place.anchor.map_or(call.span, |a| a.span);
        out.groups.push(StepGroup {
            kind: GroupKind::Use {
                group: call.group.clone(),
            },
            label: call.label.clone(),
            path: path.clone(),
            parent: place.parent,
            span,
        });
        let anchor = match origin {
            Origin::Included => Some(site),
            Origin::Local => place.anchor,
        };
        let inner = Place {
            base: &path,
            parent: Some(out.groups.len() - 1),
            hook: place.hook,
            anchor,
        };
        stack.push(call.group.clone());
        let ok = self.list(ctx, &def.items, &inner, stack, out);
        stack.pop();
        ok
    }

    fn unknown(&mut self, ctx: &mut Ctx, call: &GroupCall, site: &GroupCall) {
        let names: Vec<&str> = self.by_name.keys().copied().collect();
        let suggestion = did_you_mean(&call.group, names.iter().copied());
        let span = if std::ptr::eq(call, site) {
            call.name_span
        } else {
            site.span
        };
        let message = if std::ptr::eq(call, site) {
            format!("no group is named \"{}\"", call.group)
        } else {
            format!(
                "group \"{}\" uses \"{}\", which no group is named",
                site.group, call.group
            )
        };
        let Some(d) = self.report_at(ctx, site, span, Code::UnknownGroup, message) else {
            return;
        };
        match suggestion {
            Some(s) => d.hint(format!("did you mean \"{s}\"?")),
            None => d.hint(Code::UnknownGroup.default_hint()),
        };
    }

    fn report<'c>(
        &mut self,
        ctx: &'c mut Ctx,
        site: &GroupCall,
        code: Code,
        message: String,
    ) -> Option<&'c mut crate::diagnostic::Diagnostic> {
        self.report_at(ctx, site, site.span, code, message)
    }

    fn report_at<'c>(
        &mut self,
        ctx: &'c mut Ctx,
        site: &GroupCall,
        span: Span,
        code: Code,
        message: String,
    ) -> Option<&'c mut crate::diagnostic::Diagnostic> {
        if !self.reported.insert((site.span, code)) {
            return None;
        }
        Some(ctx.error_at(code, &site.path, span, message))
    }
}

fn join(base: &str, rest: &str) -> String {
    if base.is_empty() {
        rest.to_string()
    } else {
        format!("{base}.{rest}")
    }
}
