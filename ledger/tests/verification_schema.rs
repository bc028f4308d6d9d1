//! `docs/schema/repair-verification-1.schema.json` describes exactly what the ledger stores as a
//! verification record (and a baseline): every object's properties are the fields the Rust
//! types write, its required fields are among them, and every enum lists exactly the Rust
//! variants' wire names.

mod common;

use a3s_test_ledger::*;
use common::*;
use serde_json::Value;
use std::collections::BTreeSet;

fn schema() -> Value {
    let path = format!(
        "{}/../docs/schema/repair-verification-1.schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).expect(&path)).expect(&path)
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect()
}

/// `value` has exactly the properties of `$defs/name`, and every required one.
fn same_shape(schema: &Value, name: &str, value: &Value) {
    let def = &schema["$defs"][name];
    let props = keys(&def["properties"]);
    assert_eq!(keys(value), props, "{name}");
    for r in def["required"].as_array().unwrap() {
        assert!(props.contains(r.as_str().unwrap()), "{name}: required {r}");
    }
    assert_eq!(def["additionalProperties"], false, "{name}");
}

fn same_enum<T: serde::Serialize>(schema: &Value, name: &str, variants: &[T]) {
    let want: BTreeSet<String> = schema["$defs"][name]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(wire_names(variants), want, "{name}");
}

#[test]
fn every_object_matches_the_types() {
    let s = schema();
    let pass = serde_json::to_value(record(true)).unwrap();
    let fail = serde_json::to_value(record(false)).unwrap();
    same_shape(&s, "verificationRecord", &pass);
    same_shape(&s, "targetResolution", &pass["target"]);
    same_shape(&s, "criterionOutcome", &pass["criteria"][1]);
    same_shape(&s, "errorDelta", &pass["errors"]);
    same_shape(&s, "evidenceRef", &pass["evidence"][0]);
    same_shape(&s, "sliceDecision", &pass["slice"]);
    same_shape(&s, "checkResult", &pass["checks"][0]);
    same_shape(&s, "evidenceRef", &pass["checks"][0]["stdout"]);
    same_shape(&s, "candidateRecord", &pass["candidate"]);
    same_shape(&s, "proof", &pass["candidate"]["proof"]);
    same_shape(&s, "verificationFailure", &fail["failure"]);
    same_shape(&s, "pinnedChecksChange", &pass["pinnedChecks"]);
    let Action::Baseline { baseline } = baseline().1 else {
        unreachable!()
    };
    same_shape(&s, "baseline", &serde_json::to_value(&baseline).unwrap());
    assert_eq!(
        s["$defs"]["verificationRecord"]["properties"]["protocol"]["const"],
        VERIFICATION_PROTOCOL
    );
    assert_eq!(
        s["$defs"]["sliceDecision"]["properties"]["protocol"]["const"],
        SLICE_PROTOCOL
    );
}

#[test]
fn every_enum_matches_the_types() {
    let s = schema();
    // Each `match` fails to compile when a variant is added, so the lists below stay complete.
    let evidence = |k: EvidenceKind| match k {
        EvidenceKind::Screenshot
        | EvidenceKind::PageContext
        | EvidenceKind::Console
        | EvidenceKind::PageErrors
        | EvidenceKind::CheckStdout
        | EvidenceKind::CheckStderr
        | EvidenceKind::Candidate
        | EvidenceKind::UiUnderstanding => k,
    };
    use EvidenceKind as E;
    same_enum(
        &s,
        "evidenceKind",
        &[
            E::Screenshot,
            E::PageContext,
            E::Console,
            E::PageErrors,
            E::CheckStdout,
            E::CheckStderr,
            E::Candidate,
            E::UiUnderstanding,
        ]
        .map(evidence),
    );
    let scope = |k: Scope| match k {
        Scope::Focused | Scope::Expanded => k,
    };
    same_enum(&s, "scope", &[Scope::Focused, Scope::Expanded].map(scope));
    use ExpansionReason as R;
    let reason = |k: R| match k {
        R::NoSourceMapping
        | R::NoStableLocator
        | R::NoChangedFiles
        | R::ChangedFileOutsideSource
        | R::NoFocusedCheck
        | R::NewConsoleErrors
        | R::NewPageErrors
        | R::PriorAclProofFailed
        | R::NoBaseline => k,
    };
    same_enum(
        &s,
        "expansionReason",
        &[
            R::NoSourceMapping,
            R::NoStableLocator,
            R::NoChangedFiles,
            R::ChangedFileOutsideSource,
            R::NoFocusedCheck,
            R::NewConsoleErrors,
            R::NewPageErrors,
            R::PriorAclProofFailed,
            R::NoBaseline,
        ]
        .map(reason),
    );
    let mode = |k: CheckMode| match k {
        CheckMode::Executed | CheckMode::CallerReported => k,
    };
    same_enum(
        &s,
        "checkMode",
        &[CheckMode::Executed, CheckMode::CallerReported].map(mode),
    );
    use CheckOutcome as O;
    let outcome = |k: O| match k {
        O::Passed
        | O::Failed
        | O::TimedOut
        | O::SurvivingDescendant
        | O::CleanupFailed
        | O::SpawnFailed => k,
    };
    same_enum(
        &s,
        "checkOutcome",
        &[
            O::Passed,
            O::Failed,
            O::TimedOut,
            O::SurvivingDescendant,
            O::CleanupFailed,
            O::SpawnFailed,
        ]
        .map(outcome),
    );
    use LocatorKind as L;
    let locator = |k: L| match k {
        L::RoleName | L::Label | L::TestId | L::Placeholder | L::Text | L::Css | L::Replacement => {
            k
        }
    };
    same_enum(
        &s,
        "locatorKind",
        &[
            L::RoleName,
            L::Label,
            L::TestId,
            L::Placeholder,
            L::Text,
            L::Css,
            L::Replacement,
        ]
        .map(locator),
    );
    use VerifyStep as V;
    let step = |k: V| match k {
        V::Revision
        | V::Target
        | V::Criteria
        | V::Errors
        | V::Capture
        | V::Slice
        | V::Checks
        | V::Candidate => k,
    };
    same_enum(
        &s,
        "verifyStep",
        &[
            V::Revision,
            V::Target,
            V::Criteria,
            V::Errors,
            V::Capture,
            V::Slice,
            V::Checks,
            V::Candidate,
        ]
        .map(step),
    );
}
