//! Dependants wait for their dependencies (`depends_on`): one outcome cell per planned
//! scenario, set once when it finishes; a dependant waits for each of its dependencies' cells
//! before it asks for a slot (so a waiting dependant never holds a slot its dependency needs,
//! whatever `--jobs` is), then runs when all of them passed, or is skipped naming the first that
//! did not.

use crate::plan::Plan;
use crate::result::ScenarioStatus;
use crate::skip::SkipRecord;
use std::collections::HashMap;
use tokio::sync::watch;

/// Every planned scenario's outcome, once it is known.
pub(super) struct Outcomes {
    cells: Vec<watch::Sender<Option<ScenarioStatus>>>,
    /// Per scenario: (plan index, name as its reason shows it) of each dependency.
    needs: Vec<Vec<(usize, String)>>,
}

impl Outcomes {
    /// One empty cell per planned scenario, and where each one's dependencies are in the plan.
    pub(super) fn new(plan: &Plan) -> Outcomes {
        let index: HashMap<String, usize> = plan
            .scenarios
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.to_string(), i))
            .collect();
        let needs = plan
            .scenarios
            .iter()
            .map(|p| {
                p.needs
                    .iter()
                    .filter_map(|id| {
                        let shown = if id.suite == p.id.suite {
                            id.scenario.clone()
                        } else {
                            id.to_string()
                        };
                        index.get(&id.to_string()).map(|&i| (i, shown))
                    })
                    .collect()
            })
            .collect();
        Outcomes {
            cells: plan
                .scenarios
                .iter()
                .map(|_| watch::channel(None).0)
                .collect(),
            needs,
        }
    }

    /// Record how scenario `index` ended.
    pub(super) fn finished(&self, index: usize, status: ScenarioStatus) {
        if let Some(cell) = self.cells.get(index) {
            cell.send_replace(Some(status));
        }
    }

    /// True when scenario `index` depends on nothing.
    pub(super) fn independent(&self, index: usize) -> bool {
        self.needs.get(index).is_none_or(Vec::is_empty)
    }

    /// Wait for scenario `index`'s dependencies; `Some` skip record when one did not pass.
    pub(super) async fn wait(&self, index: usize) -> Option<SkipRecord> {
        for (dep, id) in self.needs.get(index).into_iter().flatten() {
            let mut rx = self.cells[*dep].subscribe();
            let status = match rx.wait_for(Option::is_some).await {
                Ok(s) => s.unwrap_or(ScenarioStatus::Cancelled),
                Err(_) => ScenarioStatus::Cancelled,
            };
            let how = match status {
                ScenarioStatus::Passed | ScenarioStatus::Flaky => continue,
                ScenarioStatus::Failed => "failed",
                ScenarioStatus::TimedOut => "timed out",
                ScenarioStatus::Cancelled => "was cancelled",
                ScenarioStatus::Skipped => "was skipped",
            };
            return Some(SkipRecord::dependency(id, how));
        }
        None
    }
}
