//! Admitting the contracts a suite's `check_contract` steps name, with the suite: `lang` reads
//! no file, so the runner reads each one (bounded, a regular file, as a suite is read), admits
//! it, and puts the contract into the step — or refuses the suite with
//! `test.spec.contract_file` at the `path` (or `route`) written in it. A run never starts with
//! a contract it cannot read, and `a3s-test check` reports the same diagnostics.

use super::step::route;
use crate::read::read_suite_file;
use a3s_test_lang::code::Code;
use a3s_test_lang::ir::{Action, AdmittedDocument, Contract, Suite};
use a3s_test_lang::Diagnostic;
use std::collections::HashMap;
use std::path::Path;

/// Fill in every `check_contract` step of `suite` (read from `suite_path`): each contract path
/// resolved against the suite file's folder. Returns the errors; the suite must not run when
/// there is one.
pub fn load_contracts(suite_path: &Path, suite: &mut Suite) -> Vec<Diagnostic> {
    let folder = suite_path.parent().unwrap_or(Path::new(""));
    let mut loaded: HashMap<String, Result<Contract, String>> = HashMap::new();
    let mut diagnostics = Vec::new();
    for scenario in &mut suite.scenarios {
        for step in &mut scenario.steps {
            let Action::CheckContract { check } = &mut step.action else {
                continue;
            };
            let outcome = loaded
                .entry(check.path.clone())
                .or_insert_with(|| admit_contract(&folder.join(&check.path)));
            match outcome {
                Err(why) => {
                    let mut d = Diagnostic::error(
                        Code::ContractFile,
                        format!("{}.path", step.path),
                        check.path_span,
                        format!("contract \"{}\" {why}", check.path),
                    );
                    if why.starts_with("cannot be read") {
                        d = d.with_hint(
                            "write it with `a3s-test contract review CANDIDATES --out PATH`; the path is relative to this suite's folder",
                        );
                    }
                    diagnostics.push(d);
                }
                Ok(contract) => {
                    if route(&contract.routes, check.route.as_deref()).is_none() {
                        let routes: Vec<&str> =
                            contract.routes.iter().map(|r| r.path.as_str()).collect();
                        let (span, message) = match &check.route {
                            Some(r) => (
                                check.route_span.unwrap_or(step.span),
                                format!("contract \"{}\" has no route \"{r}\"", check.path),
                            ),
                            None => (
                                step.span,
                                format!(
                                    "contract \"{}\" has {} routes; the step must name one",
                                    check.path,
                                    routes.len()
                                ),
                            ),
                        };
                        diagnostics.push(
                            Diagnostic::error(
                                Code::ContractFile,
                                format!("{}.route", step.path),
                                span,
                                message,
                            )
                            .with_hint(format!("set `route` to one of: {}", routes.join(", "))),
                        );
                    } else {
                        check.contract = Some(contract.clone());
                    }
                }
            }
        }
    }
    diagnostics
}

/// The admitted contract in `path`, or why not (one clause).
fn admit_contract(path: &Path) -> Result<Contract, String> {
    let bytes = read_suite_file(path).map_err(|e| format!("cannot be read: {e}"))?;
    let admission = a3s_test_lang::admit_bytes(&bytes);
    match admission.document {
        Some(AdmittedDocument::Contract(c)) => Ok(c),
        Some(_) => Err("holds another root than `contract`".to_string()),
        None => {
            let first = admission
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .map(|d| format!(": {} {}", d.code, d.message))
                .unwrap_or_default();
            Err(format!("is not an admitted contract{first}"))
        }
    }
}
