//! A suite's `check_contract` step: one route of the reviewed contract the runner admitted with
//! the suite, reconciled against the page the scenario is on — through the same
//! [`super::read::read_route`] and [`super::judge`] rules as `contract check`, so a scenario and
//! the command cannot disagree about the same page.
//!
//! Why the step fails as a product failure (`test.assert.contract_mismatch`): the contract is
//! what a person approved; the page not showing it is the product's problem. The failure
//! message lists each expectation not met with what was seen and the source evidence, and the
//! whole typed report is kept as the step's evidence (`contract/STEP.json`).

use super::read::read_route;
use super::report::{ContractReport, Outcome};
use a3s_test_driver::api::{EvidenceKind, StepEnv, StepOutput, SurfaceContext};
use a3s_test_driver::{FailureCode, StepFailure};
use a3s_test_lang::ir::{ContractCheck, ContractRoute, Step};

/// Run `check` (the step `step` holds) in `ctx`.
pub async fn run<C: SurfaceContext>(
    ctx: &mut C,
    step: &Step,
    check: &ContractCheck,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let Some(contract) = check.contract.as_ref() else {
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            format!(
                "the contract {} was not admitted with the suite",
                check.path
            ),
        ));
    };
    let Some(route) = route(&contract.routes, check.route.as_deref()) else {
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            format!("the contract {} has no route to check", check.path),
        ));
    };
    let report = ContractReport::new(
        &contract.id,
        vec![read_route(ctx, route, env.deadline).await?],
    );
    let json = serde_json::to_vec_pretty(&report).unwrap_or_default();
    let name = step.label.as_deref().unwrap_or("check_contract");
    let evidence: Vec<_> = a3s_test_driver::save_evidence(
        env.artifact_dir,
        &format!("contract/{}.json", file_stem(name)),
        EvidenceKind::ContractReport,
        &json,
    )
    .ok()
    .into_iter()
    .collect();
    if report.passed() {
        return Ok(StepOutput {
            evidence,
            detail: None,
        });
    }
    let mut failure = StepFailure::new(FailureCode::ContractMismatch, message(&report));
    failure.evidence = evidence;
    Err(failure)
}

/// The route a step names, or the contract's only route when it names none.
pub fn route<'a>(routes: &'a [ContractRoute], name: Option<&str>) -> Option<&'a ContractRoute> {
    match name {
        Some(path) => routes.iter().find(|r| r.path == path),
        None if routes.len() == 1 => routes.first(),
        None => None,
    }
}

/// The failure's message: the counts, then one line per expectation not met.
fn message(report: &ContractReport) -> String {
    let total = report.met + report.missing + report.different;
    let mut out = format!(
        "contract \"{}\": {} of {total} expectations not met ({} missing, {} different)",
        report.contract,
        report.missing + report.different,
        report.missing,
        report.different
    );
    for route in &report.routes {
        for e in route
            .expectations
            .iter()
            .filter(|e| e.outcome != Outcome::Met)
        {
            out.push_str(&format!(
                "\n  {} {} {}: seen {}",
                e.outcome.as_str(),
                e.id,
                e.expected,
                e.seen
            ));
            if !e.evidence.is_empty() {
                out.push_str(&format!(" (from {})", e.evidence.join(", ")));
            }
        }
    }
    out
}

/// A step label as a file name: letters, digits, `-` and `_` kept, anything else `_`.
fn file_stem(label: &str) -> String {
    label
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
