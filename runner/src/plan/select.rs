//! Which scenarios the selection flags choose: `--filter`, `--tag`, `--exclude-tag`, `--grep`,
//! `--grep-invert`, and `only = true` annotations.
//!
//! `--grep` matches a regular expression against the scenario id, its name and its suite id
//! (any of them, like Playwright's title grep); `--grep-invert` drops what it matches. When any
//! chosen scenario is annotated `only = true`, only those stay (`run --forbid-only` refuses such
//! a run before this point).

use super::{PlanOptions, ScenarioId};
use a3s_test_lang::ir::Scenario;

/// True when the flags choose the scenario (`only` and `--shard` are applied after).
pub(super) fn chosen(id: &ScenarioId, scenario: &Scenario, options: &PlanOptions) -> bool {
    let full = id.to_string();
    let by_filter = options.filters.is_empty()
        || options
            .filters
            .iter()
            .any(|g| g.matches(&full) || g.matches(&id.scenario));
    let by_tag = options.tags.is_empty() || scenario.tags.iter().any(|t| options.tags.contains(t));
    let excluded = scenario
        .tags
        .iter()
        .any(|t| options.exclude_tags.contains(t));
    let texts = [
        id.scenario.as_str(),
        scenario.name.as_str(),
        id.suite.as_str(),
    ];
    let by_grep = options
        .grep
        .as_ref()
        .is_none_or(|re| texts.iter().any(|t| re.is_match(t)));
    let inverted = options
        .grep_invert
        .as_ref()
        .is_some_and(|re| texts.iter().any(|t| re.is_match(t)));
    by_filter && by_tag && !excluded && by_grep && !inverted
}

/// True when the scenario is annotated `only = true`.
pub(super) fn is_only(scenario: &Scenario) -> bool {
    scenario.organisation.annotations.only
}
