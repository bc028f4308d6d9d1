//! The verification slice planner: which trusted checks a verification runs, and why.
//!
//! A change that stays inside the finding's mapped source gets a *focused* slice: a greedy cover
//! of the changed files by the catalog's focused checks (the check covering the most
//! still-uncovered files wins; configuration order breaks ties). Whenever the tool cannot show
//! the change is local — no source mapping, no stable locator, no changed files, a file outside
//! the mapping or without a focused check, new browser errors, a failed prior ACL proof, no
//! baseline — the slice is *expanded* to the regression checks (or the whole catalog when there
//! are none), and every reason is recorded. Expanded with an empty catalog fails closed.
//!
//! The planner is pure: the same input and catalog always give the same decision, so a stored
//! decision can be re-derived and audited.

use crate::error::{ErrorCode, LedgerError};
use crate::verification::{ExpansionReason, Scope, SliceDecision, SliceInput, SLICE_PROTOCOL};
use a3s_test_lang::ir::{CheckTier, VerificationCheck};

/// Why no slice could be planned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SliceError {
    /// The slice expanded but the project declares no checks: nothing could vouch for the
    /// change, so verification fails instead of passing with nothing run.
    #[error("the verification slice expanded ({reasons}) but the project declares no verification checks")]
    EmptyCatalog {
        /// The expansion reasons, comma-separated, for the message.
        reasons: String,
        /// The decision that could not be served (scope expanded, no checks selected).
        decision: Box<SliceDecision>,
    },
}

impl SliceError {
    /// The stable code of the error.
    pub fn code(&self) -> ErrorCode {
        match self {
            SliceError::EmptyCatalog { .. } => ErrorCode::SliceEmpty,
        }
    }
}

impl From<SliceError> for LedgerError {
    fn from(e: SliceError) -> Self {
        LedgerError::new(e.code(), e.to_string())
    }
}

/// Whether `check` selects changed file `file`: a check without prefixes covers every file; one
/// with prefixes covers a file that starts with one of them (plain string prefixes, as written
/// in `project.acl`).
pub fn covers(check: &VerificationCheck, file: &str) -> bool {
    check.file_prefixes.is_empty() || check.file_prefixes.iter().any(|p| file.starts_with(p))
}

/// The focused checks greedily chosen to cover `changed`, in the order chosen, and the changed
/// files no focused check covers.
fn greedy_cover<'a>(
    changed: &'a [String],
    catalog: &'a [VerificationCheck],
) -> (Vec<&'a VerificationCheck>, Vec<&'a str>) {
    let mut uncovered: Vec<&str> = changed.iter().map(String::as_str).collect();
    let mut chosen: Vec<&VerificationCheck> = Vec::new();
    let focused: Vec<&VerificationCheck> = catalog
        .iter()
        .filter(|c| c.tier == CheckTier::Focused)
        .collect();
    while !uncovered.is_empty() {
        // `max_by_key` keeps the last maximum; iterate in reverse so the first in configuration
        // order wins a tie.
        let best = focused
            .iter()
            .rev()
            .filter(|c| !chosen.iter().any(|d| std::ptr::eq(*d, **c)))
            .map(|c| (uncovered.iter().filter(|f| covers(c, f)).count(), *c))
            .max_by_key(|(n, _)| *n);
        match best {
            Some((n, check)) if n > 0 => {
                uncovered.retain(|f| !covers(check, f));
                chosen.push(check);
            }
            _ => break,
        }
    }
    (chosen, uncovered)
}

/// Plan the slice of one verification over `catalog` (the project's checks in configuration
/// order). Fails closed with [`SliceError::EmptyCatalog`] when the slice expands and there is
/// nothing to run.
pub fn plan_slice(
    input: &SliceInput,
    catalog: &[VerificationCheck],
) -> Result<SliceDecision, SliceError> {
    use ExpansionReason as R;
    let mut reasons = Vec::new();
    if input.source_files.is_empty() {
        reasons.push(R::NoSourceMapping);
    }
    if !input.stable_locator {
        reasons.push(R::NoStableLocator);
    }
    if input.changed_files.is_empty() {
        reasons.push(R::NoChangedFiles);
    }
    // Without a mapping every file is outside it; that is already `NoSourceMapping`.
    if !input.source_files.is_empty()
        && input
            .changed_files
            .iter()
            .any(|f| !input.source_files.contains(f))
    {
        reasons.push(R::ChangedFileOutsideSource);
    }
    let (chosen, uncovered) = greedy_cover(&input.changed_files, catalog);
    if !uncovered.is_empty() {
        reasons.push(R::NoFocusedCheck);
    }
    if input.new_console_errors {
        reasons.push(R::NewConsoleErrors);
    }
    if input.new_page_errors {
        reasons.push(R::NewPageErrors);
    }
    if input.prior_acl_proof_passed == Some(false) {
        reasons.push(R::PriorAclProofFailed);
    }
    if !input.has_baseline {
        reasons.push(R::NoBaseline);
    }
    let mut decision = SliceDecision {
        protocol: SLICE_PROTOCOL.to_owned(),
        scope: Scope::Focused,
        source_files: input.source_files.clone(),
        stable_locator: input.stable_locator,
        prior_acl_proof_passed: input.prior_acl_proof_passed,
        selected_checks: Vec::new(),
        expansion_reasons: Vec::new(),
    };
    if reasons.is_empty() {
        decision.selected_checks = chosen.iter().map(|c| c.id.clone()).collect();
        return Ok(decision);
    }
    decision.scope = Scope::Expanded;
    let regression: Vec<String> = catalog
        .iter()
        .filter(|c| c.tier == CheckTier::Regression)
        .map(|c| c.id.clone())
        .collect();
    decision.selected_checks = if regression.is_empty() {
        catalog.iter().map(|c| c.id.clone()).collect()
    } else {
        regression
    };
    decision.expansion_reasons = reasons;
    if decision.selected_checks.is_empty() {
        let names: Vec<String> = decision
            .expansion_reasons
            .iter()
            .map(|r| reason_name(*r))
            .collect();
        return Err(SliceError::EmptyCatalog {
            reasons: names.join(", "),
            decision: Box::new(decision),
        });
    }
    Ok(decision)
}

fn reason_name(r: ExpansionReason) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use ExpansionReason as R;

    fn check(id: &str, tier: CheckTier, prefixes: &[&str]) -> VerificationCheck {
        VerificationCheck {
            id: id.into(),
            tier,
            command: vec!["true".into()],
            file_prefixes: prefixes.iter().map(|p| (*p).to_owned()).collect(),
            timeout_ms: 1000,
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    /// A local change with everything known: the focused baseline input.
    fn local(changed: &[&str]) -> SliceInput {
        SliceInput {
            source_files: strings(changed),
            changed_files: strings(changed),
            stable_locator: true,
            new_console_errors: false,
            new_page_errors: false,
            prior_acl_proof_passed: None,
            has_baseline: true,
        }
    }

    fn catalog() -> Vec<VerificationCheck> {
        vec![
            check("lint", CheckTier::Full, &[]),
            check("checkout", CheckTier::Focused, &["src/Checkout"]),
            check("ui", CheckTier::Focused, &["src/"]),
            check("cart", CheckTier::Focused, &["src/Cart"]),
            check("e2e", CheckTier::Regression, &[]),
            check("smoke", CheckTier::Regression, &[]),
        ]
    }

    #[test]
    fn the_documented_example_is_focused() {
        let d = plan_slice(&local(&["src/Checkout.tsx"]), &catalog()).unwrap();
        // `checkout` and `ui` both cover the file; configuration order picks `checkout`.
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            serde_json::json!({
                "protocol": "a3s.test.repair-verification-slice/1",
                "scope": "focused",
                "sourceFiles": ["src/Checkout.tsx"],
                "stableLocator": true,
                "priorAclProofPassed": null,
                "selectedChecks": ["checkout"],
                "expansionReasons": []
            })
        );
    }

    #[test]
    fn greedy_prefers_the_check_covering_most_files() {
        let d = plan_slice(
            &local(&["src/Checkout.tsx", "src/Cart.tsx", "src/App.tsx"]),
            &catalog(),
        )
        .unwrap();
        assert_eq!(d.selected_checks, strings(&["ui"]));
        let narrow = vec![
            check("a", CheckTier::Focused, &["x/"]),
            check("b", CheckTier::Focused, &["x/", "y/"]),
            check("c", CheckTier::Focused, &["z/"]),
        ];
        let d = plan_slice(&local(&["x/1", "y/1", "z/1", "x/2"]), &narrow).unwrap();
        assert_eq!(d.selected_checks, strings(&["b", "c"]));
    }

    #[test]
    fn every_expansion_reason_is_recorded() {
        type Tweak = fn(&mut SliceInput);
        let cases: Vec<(&str, Tweak, Vec<R>)> = vec![
            (
                "no mapping",
                |i| i.source_files.clear(),
                vec![R::NoSourceMapping],
            ),
            (
                "no stable locator",
                |i| i.stable_locator = false,
                vec![R::NoStableLocator],
            ),
            (
                "no changed files",
                |i| i.changed_files.clear(),
                vec![R::NoChangedFiles],
            ),
            (
                "outside the mapping",
                |i| i.changed_files.push("src/Cart.tsx".into()),
                vec![R::ChangedFileOutsideSource],
            ),
            (
                "no focused check",
                |i| {
                    i.source_files = strings(&["docs/a.md"]);
                    i.changed_files = strings(&["docs/a.md"]);
                },
                vec![R::NoFocusedCheck],
            ),
            (
                "console",
                |i| i.new_console_errors = true,
                vec![R::NewConsoleErrors],
            ),
            ("page", |i| i.new_page_errors = true, vec![R::NewPageErrors]),
            (
                "prior proof failed",
                |i| i.prior_acl_proof_passed = Some(false),
                vec![R::PriorAclProofFailed],
            ),
            (
                "no baseline",
                |i| i.has_baseline = false,
                vec![R::NoBaseline],
            ),
            (
                "all at once, in declaration order",
                |i| {
                    i.has_baseline = false;
                    i.new_page_errors = true;
                    i.source_files.clear();
                    i.stable_locator = false;
                    i.prior_acl_proof_passed = Some(false);
                    i.new_console_errors = true;
                    i.changed_files = strings(&["docs/a.md"]);
                },
                vec![
                    R::NoSourceMapping,
                    R::NoStableLocator,
                    R::NoFocusedCheck,
                    R::NewConsoleErrors,
                    R::NewPageErrors,
                    R::PriorAclProofFailed,
                    R::NoBaseline,
                ],
            ),
        ];
        for (name, tweak, want) in cases {
            let mut input = local(&["src/Checkout.tsx"]);
            tweak(&mut input);
            let d = plan_slice(&input, &catalog()).unwrap();
            assert_eq!(d.scope, Scope::Expanded, "{name}");
            assert_eq!(d.expansion_reasons, want, "{name}");
            assert_eq!(d.selected_checks, strings(&["e2e", "smoke"]), "{name}");
        }
    }

    #[test]
    fn a_passed_prior_proof_keeps_the_slice_focused() {
        let mut input = local(&["src/Checkout.tsx"]);
        input.prior_acl_proof_passed = Some(true);
        let d = plan_slice(&input, &catalog()).unwrap();
        assert_eq!(d.scope, Scope::Focused);
        assert_eq!(d.prior_acl_proof_passed, Some(true));
    }

    #[test]
    fn expanded_without_regression_checks_runs_the_whole_catalog() {
        let cat = vec![
            check("lint", CheckTier::Full, &[]),
            check("checkout", CheckTier::Focused, &["src/Checkout"]),
        ];
        let mut input = local(&["src/Checkout.tsx"]);
        input.has_baseline = false;
        let d = plan_slice(&input, &cat).unwrap();
        assert_eq!(d.selected_checks, strings(&["lint", "checkout"]));
    }

    #[test]
    fn expanded_with_an_empty_catalog_fails_closed() {
        let err = plan_slice(&local(&["src/Checkout.tsx"]), &[]).unwrap_err();
        assert_eq!(err.code(), ErrorCode::SliceEmpty);
        assert_eq!(err.code().as_str(), "test.session.repair_slice_empty");
        assert!(err.to_string().contains("no_focused_check"), "{err}");
        let SliceError::EmptyCatalog { decision, .. } = err;
        assert_eq!(decision.scope, Scope::Expanded);
        assert!(decision.selected_checks.is_empty());
    }

    #[test]
    fn a_check_without_prefixes_covers_everything() {
        let cat = vec![check("all", CheckTier::Focused, &[])];
        let d = plan_slice(&local(&["a/b.ts", "c.ts"]), &cat).unwrap();
        assert_eq!(d.scope, Scope::Focused);
        assert_eq!(d.selected_checks, strings(&["all"]));
    }

    fn arb_catalog() -> impl Strategy<Value = Vec<VerificationCheck>> {
        let tier = prop_oneof![
            Just(CheckTier::Focused),
            Just(CheckTier::Regression),
            Just(CheckTier::Full)
        ];
        let prefixes = proptest::collection::vec(prop_oneof!["a/", "b/", "c/", "a/x"], 0..3);
        proptest::collection::vec((tier, prefixes), 0..6).prop_map(|checks| {
            checks
                .into_iter()
                .enumerate()
                .map(|(i, (tier, prefixes))| VerificationCheck {
                    id: format!("k{i}"),
                    tier,
                    command: vec!["true".into()],
                    file_prefixes: prefixes,
                    timeout_ms: 1000,
                })
                .collect()
        })
    }

    fn arb_input() -> impl Strategy<Value = SliceInput> {
        let file = prop_oneof!["a/x1", "a/y", "b/z", "c/w", "d/v"];
        (
            proptest::collection::vec(file.clone(), 0..4),
            proptest::collection::vec(file, 0..4),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            proptest::option::of(any::<bool>()),
            any::<bool>(),
        )
            .prop_map(|(src, changed, stable, console, page, prior, base)| {
                let dedup = |mut v: Vec<String>| {
                    let mut seen = Vec::new();
                    v.retain(|f| {
                        let fresh = !seen.contains(f);
                        seen.push(f.clone());
                        fresh
                    });
                    v
                };
                SliceInput {
                    source_files: dedup(src),
                    changed_files: dedup(changed),
                    stable_locator: stable,
                    new_console_errors: console,
                    new_page_errors: page,
                    prior_acl_proof_passed: prior,
                    has_baseline: base,
                }
            })
    }

    proptest! {
        #[test]
        fn focused_slices_cover_every_changed_file(input in arb_input(), cat in arb_catalog()) {
            match plan_slice(&input, &cat) {
                Ok(d) if d.scope == Scope::Focused => {
                    prop_assert!(d.expansion_reasons.is_empty());
                    prop_assert!(!d.selected_checks.is_empty());
                    for f in &input.changed_files {
                        let covered = d.selected_checks.iter().any(|id| {
                            cat.iter().any(|c| &c.id == id && c.tier == CheckTier::Focused && covers(c, f))
                        });
                        prop_assert!(covered, "{f} is not covered");
                    }
                }
                Ok(d) => {
                    prop_assert!(!d.expansion_reasons.is_empty());
                    prop_assert!(!d.selected_checks.is_empty());
                    let mut sorted = d.expansion_reasons.clone();
                    sorted.sort();
                    sorted.dedup();
                    prop_assert_eq!(&sorted, &d.expansion_reasons);
                    let has_regression = cat.iter().any(|c| c.tier == CheckTier::Regression);
                    for id in &d.selected_checks {
                        let c = cat.iter().find(|c| &c.id == id).unwrap();
                        prop_assert!(!has_regression || c.tier == CheckTier::Regression);
                    }
                }
                Err(SliceError::EmptyCatalog { .. }) => prop_assert!(cat.is_empty()),
            }
        }

        #[test]
        fn every_chosen_focused_check_first_wins_its_ties(input in arb_input(), cat in arb_catalog()) {
            // Re-run the greedy choice step by step: each chosen check covers at least as many
            // still-uncovered files as any other, and more than every earlier-configured one.
            let (chosen, _) = greedy_cover(&input.changed_files, &cat);
            let mut uncovered: Vec<&str> = input.changed_files.iter().map(String::as_str).collect();
            for (step, pick) in chosen.iter().enumerate() {
                let gain = |c: &VerificationCheck| uncovered.iter().filter(|f| covers(c, f)).count();
                let pick_pos = cat.iter().position(|c| std::ptr::eq(c, *pick)).unwrap();
                for (pos, other) in cat.iter().enumerate() {
                    let taken = chosen[..=step].iter().any(|c| std::ptr::eq(*c, other));
                    if other.tier != CheckTier::Focused || taken {
                        continue;
                    }
                    prop_assert!(gain(other) <= gain(pick));
                    if pos < pick_pos {
                        prop_assert!(gain(other) < gain(pick));
                    }
                }
                uncovered.retain(|f| !covers(pick, f));
            }
        }

        #[test]
        fn planning_is_deterministic(input in arb_input(), cat in arb_catalog()) {
            prop_assert_eq!(plan_slice(&input, &cat), plan_slice(&input, &cat));
        }
    }
}
