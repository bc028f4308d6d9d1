//! `depends_on = ["auth-setup"]` on a scenario (`docs/acl.md` §2, "Dependencies").
//!
//! An entry names a scenario of the same suite, by its id or as `"suite-id/scenario-id"` with
//! this suite's id. Each scenario's list is read while the scenario is checked; the graph is
//! judged once the whole suite is read, because a scenario may name one written after it:
//! an unknown id is `test.spec.unknown_dependency` at the entry, a cycle
//! `test.spec.dependency_cycle` at the entry that closes it (a scenario naming itself included),
//! each cycle reported once. An entry naming another suite (`"auth/sign-in"`) is admitted when
//! both halves are valid ids (`test.spec.invalid_id` otherwise): admission reads one file at a
//! time, so the run's planner checks that it exists and closes no cycle across files
//! (`test.run.unknown_dependency`, `test.run.dependency_cycle`, before any browser starts).

use super::context::{Annotate, Ctx};
use super::ids::id_problem;
use super::values::{list, string_list_with, ItemRules};
use crate::ast::Attribute;
use crate::code::Code;
use crate::diagnostic::did_you_mean;
use crate::ir::Dependency;
use crate::span::Span;
use std::collections::{BTreeMap, BTreeSet};

/// One `depends_on` entry as written, for the suite-wide check.
struct Edge {
    scenario: String,
    span: Span,
}

/// One scenario's declared dependencies.
struct Node {
    path: String,
    edges: Vec<Edge>,
}

/// Every scenario of a suite and the dependencies each declared.
#[derive(Default)]
pub(super) struct DependencyGraph {
    ids: BTreeSet<String>,
    nodes: BTreeMap<String, Node>,
}

impl DependencyGraph {
    /// Record a scenario id (whether or not it declares dependencies).
    pub(super) fn scenario(&mut self, id: &str) {
        self.ids.insert(id.to_string());
    }

    /// Read scenario `id`'s `depends_on` (its path is the current one) in suite `suite`.
    pub(super) fn depends_on(
        &mut self,
        ctx: &mut Ctx,
        suite: Option<&str>,
        id: Option<&str>,
        attr: &Attribute,
    ) -> Option<Vec<Dependency>> {
        let names = string_list_with(ctx, attr, ItemRules::NAME_SET)?;
        let items = list(ctx, attr)?;
        let mut ok = true;
        let mut edges = Vec::with_capacity(names.len());
        let mut elsewhere = Vec::new();
        for (name, item) in names.iter().zip(items) {
            let scenario = match name.split_once('/') {
                None => *name,
                Some((s, scenario)) if Some(s) == suite => scenario,
                Some((s, scenario)) => {
                    let problem = id_problem(s).or_else(|| id_problem(scenario));
                    if let Some(problem) = problem {
                        ctx.error_in(
                            Code::InvalidId,
                            "depends_on",
                            item.span,
                            format!("\"{name}\" is not `suite-id/scenario-id`: {problem}"),
                        );
                        ok = false;
                    } else {
                        elsewhere.push(Dependency {
                            suite: Some(s.to_string()),
                            scenario: scenario.to_string(),
                        });
                    }
                    continue;
                }
            };
            edges.push(Edge {
                scenario: scenario.to_string(),
                span: item.span,
            });
        }
        let mut deps: Vec<Dependency> = edges
            .iter()
            .map(|e| Dependency {
                suite: None,
                scenario: e.scenario.clone(),
            })
            .collect();
        deps.extend(elsewhere);
        if let Some(id) = id {
            let path = format!("{}.depends_on", ctx.path());
            self.nodes.insert(id.to_string(), Node { path, edges });
        }
        ok.then_some(deps)
    }

    /// Report unknown ids and cycles; true when the graph is sound.
    pub(super) fn check(&self, ctx: &mut Ctx) -> bool {
        let mut ok = true;
        for node in self.nodes.values() {
            for edge in &node.edges {
                if !self.ids.contains(&edge.scenario) {
                    let known = self.ids.iter().map(String::as_str);
                    let hint = match did_you_mean(&edge.scenario, known) {
                        Some(s) => format!("did you mean \"{s}\"?"),
                        None => Code::UnknownDependency.default_hint().to_string(),
                    };
                    ctx.error_at(
                        Code::UnknownDependency,
                        node.path.clone(),
                        edge.span,
                        format!("no scenario \"{}\" in this suite", edge.scenario),
                    )
                    .hint(hint);
                    ok = false;
                }
            }
        }
        ok & self.check_cycles(ctx)
    }

    /// Depth-first search from every scenario; an edge into a scenario still on the stack closes
    /// a cycle, reported at that edge.
    fn check_cycles(&self, ctx: &mut Ctx) -> bool {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            Open,
            Done,
        }
        let mut marks: BTreeMap<&str, Mark> = BTreeMap::new();
        let mut ok = true;
        for start in self.nodes.keys() {
            if marks.contains_key(start.as_str()) {
                continue;
            }
            // (scenario, next edge index); the stack is the current path.
            let mut stack: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
            marks.insert(start, Mark::Open);
            while let Some((id, next)) = stack.last().copied() {
                let edges = self.nodes.get(id).map_or(&[][..], |n| &n.edges[..]);
                let Some(edge) = edges.get(next) else {
                    marks.insert(id, Mark::Done);
                    stack.pop();
                    continue;
                };
                stack.last_mut().expect("non-empty stack").1 += 1;
                let to = edge.scenario.as_str();
                match marks.get(to) {
                    Some(Mark::Open) => {
                        let from = stack.iter().position(|(s, _)| *s == to).unwrap_or(0);
                        let mut cycle: Vec<&str> = stack[from..].iter().map(|(s, _)| *s).collect();
                        cycle.push(to);
                        let path = self
                            .nodes
                            .get(id)
                            .map(|n| n.path.clone())
                            .unwrap_or_default();
                        ctx.error_at(
                            Code::DependencyCycle,
                            path,
                            edge.span,
                            format!("dependency cycle: {}", cycle.join(" → ")),
                        );
                        ok = false;
                    }
                    Some(Mark::Done) => {}
                    None if self.ids.contains(to) => {
                        marks.insert(to, Mark::Open);
                        stack.push((to, 0));
                    }
                    None => {}
                }
            }
        }
        ok
    }
}
