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
