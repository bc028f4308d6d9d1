//! Planning: which admitted scenarios this run executes, in which order.
//!
//! Selection is `--filter <glob>` (any of them matches the full id `suite/scenario` or the bare
//! scenario id), `--tag <t>` (the scenario carries any of the tags), `--exclude-tag`, `--grep` /
//! `--grep-invert` and `only = true` ([`select`]), then `--shard i/n` (applied to the selected
//! set); last, the selected scenarios' dependencies join the plan ([`dependencies`]). With
//! recorded durations a shard balances expected time ([`balance`]); otherwise, and for a
//! scenario without a recorded duration, sharding hashes the full id with FNV-1a, a fixed function that does not
//! change across Rust versions or machines, so `--shard 2/3` picks the same scenarios on every CI
//! worker and adding one scenario never reshuffles the others. The plan keeps source order
//! (files sorted by path, scenarios as written), so reports read like the suites.

pub mod balance;
pub mod dependencies;
mod select;

use crate::admit::{AdmittedFile, SourceFile};
use crate::filter::Glob;
use a3s_test_lang::ir::{Action, Scenario, StatePath};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A scenario's run-wide id: `suite/scenario`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ScenarioId {
    /// The suite id.
    pub suite: String,
    /// The scenario id within the suite.
    pub scenario: String,
}

impl ScenarioId {
    /// Build an id.
    pub fn new(suite: impl Into<String>, scenario: impl Into<String>) -> Self {
        ScenarioId {
            suite: suite.into(),
            scenario: scenario.into(),
        }
    }
}

impl fmt::Display for ScenarioId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.suite, self.scenario)
    }
}

/// `--shard i/n`: this worker runs shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

/// A `--shard` value that is not `i/n` with `1 ≤ i ≤ n`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard `{0}`: expected `i/n` with 1 <= i <= n, e.g. `2/3`")]
pub struct ShardError(pub String);

impl std::str::FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ShardError(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(err)?;
        let index: u32 = i.trim().parse().map_err(|_| err())?;
        let count: u32 = n.trim().parse().map_err(|_| err())?;
        if index == 0 || count == 0 || index > count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// True when this shard owns the scenario.
    pub fn owns(&self, id: &ScenarioId) -> bool {
        fnv1a64(id.to_string().as_bytes()) % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// FNV-1a, 64-bit: tiny, fixed forever, good enough spread for sharding.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Selection options.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// Keep scenarios matching any of these (all when empty).
    pub filters: Vec<Glob>,
    /// Keep scenarios carrying any of these tags (all when empty).
    pub tags: Vec<String>,
    /// Keep only this shard.
    pub shard: Option<Shard>,
    /// Drop scenarios carrying any of these tags (`--exclude-tag`).
    pub exclude_tags: Vec<String>,
    /// Keep scenarios whose id, name or suite id this matches (`--grep`).
    pub grep: Option<regex::Regex>,
    /// Drop scenarios whose id, name or suite id this matches (`--grep-invert`).
    pub grep_invert: Option<regex::Regex>,
    /// The project's `storage_state`, for scenarios whose suite and scenario name none.
    pub storage_state: Option<StatePath>,
    /// Recorded durations: `shard` then balances expected time ([`balance`]) instead of
    /// hashing alone.
    pub durations: Option<Arc<balance::DurationMap>>,
}

/// The suite a planned scenario belongs to.
#[derive(Debug)]
pub struct SuiteInfo {
    /// The suite id.
    pub id: String,
    /// Its `base_url`.
    pub base_url: Option<String>,
    /// The file it came from.
    pub source: Arc<SourceFile>,
    /// The suite's `storage_state`.
    pub storage_state: Option<StatePath>,
}

impl SuiteInfo {
    /// The suite of an admitted file.
    pub fn of(file: &AdmittedFile) -> SuiteInfo {
        SuiteInfo {
            id: file.suite.id.clone(),
            base_url: file.suite.base_url.clone(),
            source: file.source.clone(),
            storage_state: file.suite.storage_state.clone(),
        }
    }
}

/// One scenario the run will execute.
#[derive(Debug, Clone)]
pub struct PlannedScenario {
    /// `suite/scenario`.
    pub id: ScenarioId,
    /// Its suite.
    pub suite: Arc<SuiteInfo>,
    /// The admitted scenario.
    pub scenario: Arc<Scenario>,
    /// The scenarios that must finish first (`depends_on`), all in the plan.
    pub needs: Vec<ScenarioId>,
    /// True when no selection flag chose it: a chosen scenario depends on it.
    pub dependency_only: bool,
    /// The storage state its context starts from: the scenario's, else its suite's, else the
    /// project's — an inherited one except in the scenario that saves it.
    pub storage_state: Option<StatePath>,
}

impl PlannedScenario {
    /// Plan `scenario` of `suite`.
    pub fn of(
        id: ScenarioId,
        suite: Arc<SuiteInfo>,
        scenario: &Scenario,
        project_state: Option<&StatePath>,
    ) -> PlannedScenario {
        // An inherited state is not loaded into the scenario that saves it: that one signs in.
        let saves = |path: &StatePath| {
            scenario.steps.iter().any(
                |step| matches!(&step.action, Action::SaveStorageState { path: p, .. } if p == path),
            )
        };
        let storage_state = scenario.organisation.storage_state.clone().or_else(|| {
            suite
                .storage_state
                .clone()
                .or_else(|| project_state.cloned())
                .filter(|path| !saves(path))
        });
        PlannedScenario {
            needs: dependencies::needs(&id.suite, scenario),
            id,
            suite,
            scenario: Arc::new(scenario.clone()),
            dependency_only: false,
            storage_state,
        }
    }
}

/// What the run will execute.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Selected scenarios in source order.
    pub scenarios: Vec<PlannedScenario>,
    /// Scenarios admitted in total, before selection.
    pub admitted: usize,
}

impl Plan {
    /// Scenarios left out by filter, tag or shard.
    pub fn skipped(&self) -> usize {
        self.admitted - self.scenarios.len()
    }
}

/// Why a plan could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Two files define the same `suite/scenario` (scenario ids are unique within a suite, but the
    /// same suite id may appear in two files).
    #[error("scenario `{id}` is defined twice: in {first} and in {second}; give one of the suites another id")]
    DuplicateScenario {
        /// The id.
        id: String,
        /// First definition (`file:line:col`).
        first: String,
        /// Second definition.
        second: String,
    },
    /// A `depends_on` entry naming another suite's scenario that no admitted file has.
    #[error("{scenario} (at {at}) depends on `{dependency}`, which no suite of this run defines; pass its file too, or correct the name")]
    UnknownDependency {
        /// The dependant.
        scenario: String,
        /// The entry as a full id.
        dependency: String,
        /// Where the dependant is (`file:line:col`).
        at: String,
    },
    /// `depends_on` entries across suites that form a cycle.
    #[error("dependency cycle across suites: {cycle}; remove one `depends_on` entry of it")]
    DependencyCycle {
        /// The cycle, `a/x → b/y → a/x`.
        cycle: String,
    },
}

impl PlanError {
    /// The stable code of the refusal, when it has one.
    pub fn code(&self) -> Option<a3s_test_driver::failure::SelectionCode> {
        use a3s_test_driver::failure::SelectionCode;
        match self {
            PlanError::DuplicateScenario { .. } => None,
            PlanError::UnknownDependency { .. } => Some(SelectionCode::UnknownDependency),
            PlanError::DependencyCycle { .. } => Some(SelectionCode::DependencyCycle),
        }
    }
}

/// Select the scenarios to run.
pub fn plan(files: &[AdmittedFile], options: &PlanOptions) -> Result<Plan, PlanError> {
    let mut seen: BTreeMap<ScenarioId, String> = BTreeMap::new();
    let mut plan = Plan::default();
    let mut chosen = Vec::new();
    for file in files {
        let suite = Arc::new(SuiteInfo::of(file));
        for scenario in &file.suite.scenarios {
            let id = ScenarioId::new(&file.suite.id, &scenario.id);
            let here = file.source.location(scenario.span.start);
            if let Some(first) = seen.insert(id.clone(), here.clone()) {
                return Err(PlanError::DuplicateScenario {
                    id: id.to_string(),
                    first,
                    second: here,
                });
            }
            plan.admitted += 1;
            if select::chosen(&id, scenario, options) {
                chosen.push((id, suite.clone(), scenario));
            }
        }
    }
    dependencies::check(files)?;
    if chosen.iter().any(|(_, _, s)| select::is_only(s)) {
        chosen.retain(|(_, _, s)| select::is_only(s));
    }
    let project_state = options.storage_state.as_ref();
    let owned: Vec<bool> = match (options.shard, &options.durations) {
        (None, _) => vec![true; chosen.len()],
        (Some(shard), Some(durations)) if !durations.is_empty() => {
            let ids: Vec<String> = chosen.iter().map(|(id, _, _)| id.to_string()).collect();
            balance::partition(&ids, shard.count, durations)
                .into_iter()
                .map(|s| s == shard.index - 1)
                .collect()
        }
        (Some(shard), _) => chosen.iter().map(|(id, _, _)| shard.owns(id)).collect(),
    };
    plan.scenarios = chosen
        .into_iter()
        .zip(owned)
        .filter(|(_, owned)| *owned)
        .map(|((id, suite, scenario), _)| PlannedScenario::of(id, suite, scenario, project_state))
        .collect();
    dependencies::pull_in(&mut plan.scenarios, files, project_state);
    Ok(plan)
}

/// The scenarios annotated `only = true` among those the flags choose (for `--forbid-only`).
pub fn only_annotated(files: &[AdmittedFile]) -> Vec<ScenarioId> {
    files
        .iter()
        .flat_map(|f| {
            f.suite
                .scenarios
                .iter()
                .filter(|s| select::is_only(s))
                .map(|s| ScenarioId::new(&f.suite.id, &s.id))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::ir::{Action, Step, Suite, Surface};
    use a3s_test_lang::Span;
    use std::path::PathBuf;

    fn scenario(id: &str, tags: &[&str]) -> Scenario {
        Scenario {
            id: id.into(),
            name: id.into(),
            surface: Surface::Web,
            timeout_ms: 1000,
            action_timeout_ms: 500,
            expect_timeout_ms: None,
            tags: tags.iter().map(|t| t.to_string()).collect(),
            steps: vec![Step {
                label: Some("open".into()),
                path: format!("suite.s.scenario.{id}.navigate.open"),
                span: Span::new(0, 0),
                action: Action::Navigate { url: "/".into() },
                group: None,
                hook: None,
            }],
            groups: vec![],
            context: Default::default(),
            path: format!("suite.s.scenario.{id}"),
            span: Span::new(0, 0),
            organisation: Default::default(),
        }
    }

    /// One admitted suite file of `scenarios` (the other test modules build theirs with it).
    pub(super) fn file(suite: &str, scenarios: Vec<Scenario>) -> AdmittedFile {
        AdmittedFile {
            source: Arc::new(SourceFile {
                path: PathBuf::from(format!("{suite}.acl")),
                text: Arc::from(""),
            }),
            suite: Suite {
                id: suite.into(),
                version: 1,
                base_url: None,
                scenarios,
                span: Span::new(0, 0),
                storage_state: None,
                context: Default::default(),
            },
            warnings: vec![],
        }
    }

    fn ids(plan: &Plan) -> Vec<String> {
        plan.scenarios.iter().map(|s| s.id.to_string()).collect()
    }

    fn files() -> Vec<AdmittedFile> {
        vec![
            file(
                "forms",
                vec![scenario("submit", &["smoke"]), scenario("validate", &[])],
            ),
            file(
                "dialogs",
                vec![
                    scenario("alert", &["smoke", "dialog"]),
                    scenario("confirm", &["dialog"]),
                ],
            ),
        ]
    }

    #[test]
    fn selection_table() {
        let cases: &[(&[&str], &[&str], &[&str])] = &[
            (
                &[],
                &[],
                &[
                    "forms/submit",
                    "forms/validate",
                    "dialogs/alert",
                    "dialogs/confirm",
                ],
            ),
            (&["forms/*"], &[], &["forms/submit", "forms/validate"]),
            (
                &["alert", "*/sub*"],
                &[],
                &["forms/submit", "dialogs/alert"],
            ),
            (&[], &["smoke"], &["forms/submit", "dialogs/alert"]),
            (&["dialogs/*"], &["smoke"], &["dialogs/alert"]),
            (&["nothing"], &[], &[]),
        ];
        for (filters, tags, expected) in cases {
            let options = PlanOptions {
                filters: filters.iter().map(|f| Glob::new(f).unwrap()).collect(),
                tags: tags.iter().map(|t| t.to_string()).collect(),
                ..Default::default()
            };
            let plan = plan(&files(), &options).unwrap();
            assert_eq!(ids(&plan), *expected, "filters {filters:?} tags {tags:?}");
            assert_eq!(plan.admitted, 4);
        }
    }

    #[test]
    fn shards_partition_the_plan_deterministically() {
        let many: Vec<Scenario> = (0..50).map(|i| scenario(&format!("s{i}"), &[])).collect();
        let files = vec![file("big", many)];
        let mut all = Vec::new();
        for index in 1..=3 {
            let options = PlanOptions {
                shard: Some(Shard { index, count: 3 }),
                ..Default::default()
            };
            let first = ids(&plan(&files, &options).unwrap());
            assert_eq!(first, ids(&plan(&files, &options).unwrap()));
            assert!(!first.is_empty(), "shard {index} is empty");
            all.extend(first);
        }
        all.sort();
        let mut expected = ids(&plan(&files, &PlanOptions::default()).unwrap());
        expected.sort();
        assert_eq!(all, expected);
    }

    #[test]
    fn shard_parsing() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "1/0", "1", "a/b", "1/3/4"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn duplicate_ids_across_files_are_rejected() {
        let files = vec![
            file("forms", vec![scenario("a", &[])]),
            file("forms", vec![scenario("a", &[])]),
        ];
        assert!(matches!(
            plan(&files, &PlanOptions::default()),
            Err(PlanError::DuplicateScenario { .. })
        ));
    }
}

#[cfg(test)]
mod organisation_tests {
    //! Selection by `--grep`/`--grep-invert`/`--exclude-tag`, `only`, and dependencies pulled in.
    use super::*;
    use a3s_test_lang::ir::{Action, Dependency, Step, Surface};
    use a3s_test_lang::Span;

    fn scenario(id: &str, tags: &[&str], deps: &[&str], only: bool) -> Scenario {
        let organisation = a3s_test_lang::ir::Organisation {
            depends_on: deps
                .iter()
                .map(|d| Dependency {
                    suite: None,
                    scenario: d.to_string(),
                })
                .collect(),
            annotations: a3s_test_lang::ir::Annotations {
                only,
                ..Default::default()
            },
            ..Default::default()
        };
        Scenario {
            id: id.into(),
            name: format!("{id} name"),
            surface: Surface::Web,
            timeout_ms: 1000,
            action_timeout_ms: 500,
            expect_timeout_ms: None,
            tags: tags.iter().map(|t| t.to_string()).collect(),
            steps: vec![Step {
                label: Some("open".into()),
                path: String::new(),
                span: Span::new(0, 0),
                action: Action::Navigate { url: "/".into() },
                group: None,
                hook: None,
            }],
            groups: Vec::new(),
            context: Default::default(),
            path: String::new(),
            span: Span::new(0, 0),
            organisation,
        }
    }

    fn files(only: bool) -> Vec<AdmittedFile> {
        let scenarios = vec![
            scenario("auth-setup", &[], &[], false),
            scenario("cart", &["smoke"], &["auth-setup"], only),
            scenario("checkout", &["slow"], &["cart"], false),
            scenario("about", &["smoke"], &[], false),
        ];
        let mut shop = super::tests::file("shop", scenarios);
        shop.suite.storage_state = Some(StatePath(".a3s-test/auth.json".into()));
        vec![shop]
    }

    /// `id` (with `+` when pulled in as a dependency), in plan order.
    fn shown(plan: &Plan) -> Vec<String> {
        plan.scenarios
            .iter()
            .map(|s| {
                let mark = if s.dependency_only { "+" } else { "" };
                format!("{}{mark}", s.id.scenario)
            })
            .collect()
    }

    fn with(options: PlanOptions, only: bool) -> Vec<String> {
        shown(&plan(&files(only), &options).unwrap())
    }

    fn re(s: &str) -> Option<regex::Regex> {
        Some(regex::Regex::new(s).unwrap())
    }

    #[test]
    fn refinements_choose_and_dependencies_join_in_source_order() {
        let all = |o: PlanOptions| with(o, false);
        assert_eq!(
            all(PlanOptions::default()),
            ["auth-setup", "cart", "checkout", "about"]
        );
        let grep = PlanOptions {
            grep: re("^check"),
            ..Default::default()
        };
        assert_eq!(all(grep), ["auth-setup+", "cart+", "checkout"]);
        // The name and the suite id are matched too.
        let by_name = PlanOptions {
            grep: re("about name"),
            ..Default::default()
        };
        assert_eq!(all(by_name), ["about"]);
        let by_suite = PlanOptions {
            grep: re("^shop$"),
            grep_invert: re("setup|check"),
            ..Default::default()
        };
        assert_eq!(all(by_suite), ["auth-setup+", "cart", "about"]);
        let exclude = PlanOptions {
            tags: vec!["smoke".into()],
            exclude_tags: vec!["smoke".into()],
            ..Default::default()
        };
        assert!(all(exclude).is_empty());
        let filter = PlanOptions {
            filters: vec![Glob::new("cart").unwrap()],
            ..Default::default()
        };
        assert_eq!(all(filter), ["auth-setup+", "cart"]);
    }

    #[test]
    fn only_keeps_the_annotated_scenarios_and_their_dependencies() {
        assert_eq!(with(PlanOptions::default(), true), ["auth-setup+", "cart"]);
        assert_eq!(only_annotated(&files(true)).len(), 1);
        assert!(only_annotated(&files(false)).is_empty());
    }

    #[test]
    fn every_shard_pulls_in_the_dependencies_of_its_scenarios() {
        let mut owned = Vec::new();
        for index in 1..=3 {
            let options = PlanOptions {
                shard: Some(Shard { index, count: 3 }),
                ..Default::default()
            };
            let plan = plan(&files(false), &options).unwrap();
            for s in &plan.scenarios {
                for need in &s.needs {
                    assert!(
                        plan.scenarios.iter().any(|p| &p.id == need),
                        "shard {index}: {} needs {need}, which is not in the plan",
                        s.id
                    );
                }
                if !s.dependency_only {
                    owned.push(s.id.to_string());
                }
            }
        }
        owned.sort();
        assert_eq!(
            owned,
            [
                "shop/about",
                "shop/auth-setup",
                "shop/cart",
                "shop/checkout"
            ],
            "each scenario is owned by exactly one shard"
        );
    }

    #[test]
    fn the_storage_state_comes_from_the_scenario_else_the_suite_else_the_project() {
        let mut files = files(false);
        files[0].suite.scenarios[1].organisation.storage_state =
            Some(StatePath("mine.json".into()));
        let options = PlanOptions {
            storage_state: Some(StatePath("project.json".into())),
            ..Default::default()
        };
        let plan = plan(&files, &options).unwrap();
        let states: Vec<&str> = plan
            .scenarios
            .iter()
            .map(|s| s.storage_state.as_ref().map_or("", |p| p.as_str()))
            .collect();
        assert_eq!(
            states,
            [
                ".a3s-test/auth.json",
                "mine.json",
                ".a3s-test/auth.json",
                ".a3s-test/auth.json"
            ]
        );
        files[0].suite.storage_state = None;
        let fallback = super::plan(&files, &options).unwrap();
        assert_eq!(
            fallback.scenarios[0]
                .storage_state
                .as_ref()
                .unwrap()
                .as_str(),
            "project.json"
        );
    }
}

#[cfg(test)]
mod across_suites_tests {
    //! `depends_on = ["auth/sign-in"]`: checked by the planner, pulled in across files.
    use super::tests::file;
    use super::*;
    use a3s_test_lang::ir::{Dependency, Organisation, Surface};
    use a3s_test_lang::Span;

    fn scenario(id: &str, deps: &[(&str, &str)]) -> Scenario {
        Scenario {
            id: id.into(),
            name: id.into(),
            surface: Surface::Web,
            timeout_ms: 1000,
            action_timeout_ms: 500,
            expect_timeout_ms: None,
            tags: vec![],
            steps: vec![],
            groups: Vec::new(),
            context: Default::default(),
            path: String::new(),
            span: Span::new(0, 0),
            organisation: Organisation {
                depends_on: deps
                    .iter()
                    .map(|(s, d)| Dependency {
                        suite: Some(s.to_string()),
                        scenario: d.to_string(),
                    })
                    .collect(),
                ..Default::default()
            },
        }
    }

    #[test]
    fn another_suites_scenario_is_pulled_in_checked_and_cycles_are_refused() {
        let files = vec![
            file("auth", vec![scenario("sign-in", &[])]),
            file("shop", vec![scenario("cart", &[("auth", "sign-in")])]),
        ];
        let options = PlanOptions {
            filters: vec![Glob::new("shop/*").unwrap()],
            ..Default::default()
        };
        let planned = plan(&files, &options).unwrap();
        let ids: Vec<String> = planned.scenarios.iter().map(|s| s.id.to_string()).collect();
        assert_eq!(ids, ["auth/sign-in", "shop/cart"]);
        assert!(planned.scenarios[0].dependency_only);

        let missing = vec![file("shop", vec![scenario("cart", &[("auth", "sign-in")])])];
        let e = plan(&missing, &PlanOptions::default()).unwrap_err();
        assert!(matches!(e, PlanError::UnknownDependency { .. }), "{e}");
        assert_eq!(e.code().unwrap().as_str(), "test.run.unknown_dependency");

        let cycle = vec![
            file("auth", vec![scenario("sign-in", &[("shop", "cart")])]),
            file("shop", vec![scenario("cart", &[("auth", "sign-in")])]),
        ];
        let e = plan(&cycle, &PlanOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dependency cycle across suites: auth/sign-in → shop/cart → auth/sign-in; remove one \
             `depends_on` entry of it"
        );
        assert_eq!(e.code().unwrap().as_str(), "test.run.dependency_cycle");
    }
}
