//! Pulling dependencies into a plan (`depends_on`, issue 41).
//!
//! Selection flags choose scenarios; a chosen scenario's dependencies then join the plan even when
//! no flag chose them (`--filter`, `--tag`, `--grep`, `--shard`, `--last-failed` alike), marked
//! [`PlannedScenario::dependency_only`] so reports say why they ran. Each joins once, however
//! many scenarios need it, and the plan keeps source order; the executor starts a dependant only
//! once its dependencies have finished. Admission already refused unknown ids and cycles, so
//! every name resolves within its suite.

use super::{PlannedScenario, ScenarioId, SuiteInfo};
use crate::admit::AdmittedFile;
use a3s_test_lang::ir::StatePath;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The ids scenario `scenario` of suite `suite` depends on.
pub(super) fn needs(suite: &str, scenario: &a3s_test_lang::ir::Scenario) -> Vec<ScenarioId> {
    scenario
        .organisation
        .depends_on
        .iter()
        .map(|d| ScenarioId::new(d.suite.as_deref().unwrap_or(suite), &d.scenario))
        .collect()
}

/// Check the dependencies admission could not: entries naming another suite's scenario must name
/// one of this run, and the whole graph (across files) must have no cycle.
pub(super) fn check(files: &[AdmittedFile]) -> Result<(), super::PlanError> {
    let mut graph: BTreeMap<ScenarioId, (Vec<ScenarioId>, String)> = BTreeMap::new();
    for file in files {
        for scenario in &file.suite.scenarios {
            let id = ScenarioId::new(&file.suite.id, &scenario.id);
            let at = file.source.location(scenario.span.start);
            graph.insert(id, (needs(&file.suite.id, scenario), at));
        }
    }
    for (id, (deps, at)) in &graph {
        if let Some(missing) = deps.iter().find(|d| !graph.contains_key(d)) {
            return Err(super::PlanError::UnknownDependency {
                scenario: id.to_string(),
                dependency: missing.to_string(),
                at: at.clone(),
            });
        }
    }
    // Depth-first from every scenario; an edge into one still on the path closes a cycle.
    let mut done: BTreeSet<&ScenarioId> = BTreeSet::new();
    for start in graph.keys() {
        let mut path: Vec<(&ScenarioId, usize)> = vec![(start, 0)];
        while let Some((id, next)) = path.last().copied() {
            let deps = &graph[id].0;
            let Some(dep) = deps.get(next) else {
                done.insert(id);
                path.pop();
                continue;
            };
            path.last_mut().expect("a path").1 += 1;
            if let Some(from) = path.iter().position(|(s, _)| *s == dep) {
                let mut cycle: Vec<String> =
                    path[from..].iter().map(|(s, _)| s.to_string()).collect();
                cycle.push(dep.to_string());
                return Err(super::PlanError::DependencyCycle {
                    cycle: cycle.join(" → "),
                });
            }
            if !done.contains(dep) {
                path.push((dep, 0));
            }
        }
    }
    Ok(())
}

/// Add to `planned` every scenario its members need, transitively, in source order.
pub fn pull_in(
    planned: &mut Vec<PlannedScenario>,
    files: &[AdmittedFile],
    project_state: Option<&StatePath>,
) {
    let mut wanted: BTreeSet<ScenarioId> = planned.iter().map(|p| p.id.clone()).collect();
    let mut queue: Vec<ScenarioId> = planned.iter().flat_map(|p| p.needs.clone()).collect();
    let mut added = BTreeSet::new();
    while let Some(id) = queue.pop() {
        if !wanted.insert(id.clone()) {
            continue;
        }
        added.insert(id.clone());
        if let Some(scenario) = find(files, &id) {
            queue.extend(needs(&id.suite, scenario));
        }
    }
    if added.is_empty() {
        return;
    }
    let mut chosen: BTreeMap<ScenarioId, PlannedScenario> =
        planned.drain(..).map(|p| (p.id.clone(), p)).collect();
    for file in files {
        let suite = Arc::new(SuiteInfo::of(file));
        for scenario in &file.suite.scenarios {
            let id = ScenarioId::new(&file.suite.id, &scenario.id);
            if let Some(p) = chosen.remove(&id) {
                planned.push(p);
            } else if added.contains(&id) {
                let mut p = PlannedScenario::of(id, suite.clone(), scenario, project_state);
                p.dependency_only = true;
                planned.push(p);
            }
        }
    }
}

fn find<'a>(files: &'a [AdmittedFile], id: &ScenarioId) -> Option<&'a a3s_test_lang::ir::Scenario> {
    files
        .iter()
        .filter(|f| f.suite.id == id.suite)
        .flat_map(|f| &f.suite.scenarios)
        .find(|s| s.id == id.scenario)
}
