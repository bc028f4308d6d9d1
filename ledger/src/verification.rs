//! The verification record of a repair: the typed facts A3S Test itself gathered before calling
//! a repair verified (or not).
//!
//! An agent reporting completion proves nothing; the tool re-observes the page, plans a check
//! slice, runs trusted checks and proves a regression candidate. Every one of those facts is
//! kept here, in one strict record per verification, so a reviewer (and `repair-inspect`) can
//! see why a finding reached `review_ready` or `verification_failed` — and so that nothing but
//! the tool can produce one. All types are strict on the way in (`deny_unknown_fields`): a
//! record that does not match this shape is refused, never half-read.
//!
//! Paths are relative to the agent session folder; digests are `sha256:<lowercase hex>`.

use crate::criterion::SuccessCriterion;
use serde::{Deserialize, Serialize};

/// The protocol of a slice decision record; versioned so a later planner can change its rules
/// without misreading old records.
pub const SLICE_PROTOCOL: &str = "a3s.test.repair-verification-slice/1";

/// The protocol of a verification record.
pub const VERIFICATION_PROTOCOL: &str = "a3s.test.repair-verification/1";

/// What an evidence file holds, so a viewer knows how to show it without sniffing bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// A PNG screenshot of the viewport.
    Screenshot,
    /// A bounded Page Context snapshot (JSON).
    PageContext,
    /// Console messages since the document loaded (bounded JSON).
    Console,
    /// Uncaught page errors since the document loaded (bounded JSON).
    PageErrors,
    /// A trusted check's bounded standard output.
    CheckStdout,
    /// A trusted check's bounded standard error.
    CheckStderr,
    /// A generated ACL regression candidate.
    Candidate,
    /// The page's checked UI understanding as numbered `@uN` facts (JSON): overlaps, clips,
    /// motion, clusters, layout and scroll containers.
    UiUnderstanding,
}

/// A file of evidence, pinned by its digest so later tampering is detectable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvidenceRef {
    /// What the file holds.
    pub kind: EvidenceKind,
    /// The file, relative to the agent session folder (confined: no `..`, not absolute).
    pub path: String,
    /// `sha256:<lowercase hex>` of the file's bytes.
    pub sha256: String,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// The *before* evidence A3S Test captured itself when a finding entered from a live session;
/// the error delta of a verification is measured against it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Baseline {
    /// The page's URL at capture time.
    pub url: String,
    /// The Test Kit revision at capture time, if the page reported one.
    pub revision: Option<u64>,
    /// Console errors seen since the document loaded, at capture time.
    pub console_errors: u32,
    /// Uncaught page errors seen since the document loaded, at capture time.
    pub page_errors: u32,
    /// Screenshot, Page Context, console and page-error files.
    pub evidence: Vec<EvidenceRef>,
}

/// How wide a verification's check slice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Only the focused checks covering the changed files.
    Focused,
    /// Regression checks (or the whole catalog): the tool could not prove the change local.
    Expanded,
}

/// Why a slice was expanded; every reason that applies is recorded, not just the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpansionReason {
    /// The finding maps to no source file.
    NoSourceMapping,
    /// The target has no stable locator (role+name, label or test id).
    NoStableLocator,
    /// The completion listed no changed files.
    NoChangedFiles,
    /// A changed file is not one of the finding's mapped source files.
    ChangedFileOutsideSource,
    /// A changed file is covered by no focused check.
    NoFocusedCheck,
    /// The fresh page shows console errors the baseline did not.
    NewConsoleErrors,
    /// The fresh page shows page errors the baseline did not.
    NewPageErrors,
    /// The latest prior ACL candidate proof of this finding failed.
    PriorAclProofFailed,
    /// The finding has no before baseline (imported without a live page).
    NoBaseline,
}

/// The versioned decision record of a slice (`a3s.test.repair-verification-slice/1`), exactly
/// the shape the product documentation shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SliceDecision {
    /// Always [`SLICE_PROTOCOL`].
    pub protocol: String,
    /// Focused or expanded.
    pub scope: Scope,
    /// The finding's mapped source files.
    pub source_files: Vec<String>,
    /// Whether the target resolved through a stable locator.
    pub stable_locator: bool,
    /// The latest prior ACL proof of this finding, if there was one.
    pub prior_acl_proof_passed: Option<bool>,
    /// The checks to run, in configuration order.
    pub selected_checks: Vec<String>,
    /// Every reason the slice expanded (empty when focused), in declaration order.
    pub expansion_reasons: Vec<ExpansionReason>,
}

/// What the slice planner needs to know about one verification; pure data so the planner is a
/// pure function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SliceInput {
    /// The finding's mapped source files.
    pub source_files: Vec<String>,
    /// The completion's changed files.
    pub changed_files: Vec<String>,
    /// Whether the target resolved through a stable locator.
    pub stable_locator: bool,
    /// The fresh page added console errors.
    pub new_console_errors: bool,
    /// The fresh page added page errors.
    pub new_page_errors: bool,
    /// The latest prior ACL proof of this finding, if any.
    pub prior_acl_proof_passed: Option<bool>,
    /// Whether the finding has a before baseline.
    pub has_baseline: bool,
}

/// Who produced a check result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckMode {
    /// A3S Test ran the command itself.
    Executed,
    /// An orchestrator ran it and reported the result (`--checks-json`).
    CallerReported,
}

/// How a check ended. Anything but `Passed` is a failed check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckOutcome {
    /// Exit status zero, nothing left running.
    Passed,
    /// Non-zero exit status (or killed by a signal).
    Failed,
    /// The run deadline passed.
    TimedOut,
    /// A descendant process survived the check.
    SurvivingDescendant,
    /// The process group could not be cleaned up in time.
    CleanupFailed,
    /// The command could not be started.
    SpawnFailed,
}

impl CheckOutcome {
    /// Whether the check passed.
    pub fn passed(self) -> bool {
        self == CheckOutcome::Passed
    }
}

/// The result of one trusted check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckResult {
    /// The catalog's check id.
    pub id: String,
    /// Run by the tool or reported by the caller.
    pub mode: CheckMode,
    /// How it ended.
    pub outcome: CheckOutcome,
    /// The exit status, when the process exited.
    pub exit_code: Option<i32>,
    /// Wall time of the run.
    pub duration_ms: u64,
    /// Bounded standard output, kept as evidence.
    pub stdout: Option<EvidenceRef>,
    /// Bounded standard error, kept as evidence.
    pub stderr: Option<EvidenceRef>,
    /// A short note (why it failed to start, what survived, …).
    pub message: Option<String>,
}

/// The kind of locator a target resolved through, in the documented resolution order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocatorKind {
    /// Role and accessible name.
    RoleName,
    /// Associated label.
    Label,
    /// Test id attribute.
    TestId,
    /// Placeholder text.
    Placeholder,
    /// Visible text.
    Text,
    /// CSS selector.
    Css,
    /// The replacement ACL target the agent declared at completion.
    Replacement,
}

impl LocatorKind {
    /// Whether a match through this locator survives cosmetic changes (role+name, label,
    /// test id); text and CSS do not.
    pub fn is_stable(self) -> bool {
        matches!(
            self,
            LocatorKind::RoleName | LocatorKind::Label | LocatorKind::TestId
        )
    }
}

/// How the original target (or its replacement) was found again after the repair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TargetResolution {
    /// The locator that matched exactly one element.
    pub locator: LocatorKind,
    /// The ACL target expression, as printed by `lang`.
    pub acl_target: String,
    /// Whether the locator is stable (role+name, label, test id).
    pub stable: bool,
}

/// The evaluation of one success criterion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CriterionOutcome {
    /// The criterion's index in the finding's `successCriteria`.
    pub index: u32,
    /// The criterion itself.
    pub criterion: SuccessCriterion,
    /// False for prose: only a reviewer can judge it.
    pub verifiable: bool,
    /// The verdict; `None` when not verifiable or not evaluated.
    pub passed: Option<bool>,
    /// What the page showed (bounded), for the reviewer.
    pub observed: Option<String>,
}

/// Which Layout Mode check a verification ran (the finding's `target.layout` mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LayoutCheck {
    /// A new component must now occupy the destination.
    Placement,
    /// The existing node must now overlap the destination.
    Rearrange,
}

/// What the Layout Mode check found on the repaired page, so a reviewer sees why a layout
/// finding passed or failed (a record can never pass with a failed layout check).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayoutOutcome {
    /// Placement or rearrange.
    pub check: LayoutCheck,
    /// Whether the destination (shifted by the scroll since it was drawn) intersects the
    /// current viewport.
    pub in_viewport: bool,
    /// Placement: the element now at the destination's visible centre (a short description,
    /// untrusted page text); `None` when only the page root is there.
    pub occupant: Option<String>,
    /// Rearrange: the area, in CSS px² rounded down, the node's box shares with the destination.
    pub overlap_px: Option<u64>,
    /// The verdict of the check.
    pub passed: bool,
}

/// Browser errors the fresh page added relative to the baseline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ErrorDelta {
    /// Console errors not in the baseline.
    pub new_console_errors: u32,
    /// Page errors not in the baseline.
    pub new_page_errors: u32,
    /// Whether a baseline existed to compare with (without one, every error counts as new).
    pub baseline: bool,
}

/// The result of running an ACL candidate in a fresh browser context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Proof {
    /// Whether the candidate passed.
    pub passed: bool,
    /// The failing step's stable code, when it failed.
    pub code: Option<String>,
    /// What failed, for people.
    pub message: Option<String>,
    /// Wall time of the run.
    pub duration_ms: u64,
}

/// A generated ACL regression candidate and its proof; kept under the session's evidence root,
/// never in the application's files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CandidateRecord {
    /// The candidate file, relative to the session folder.
    pub path: String,
    /// `sha256:<lowercase hex>` of the candidate file.
    pub sha256: String,
    /// Its run in a fresh browser.
    pub proof: Proof,
}

/// The eight verification steps, in order; a failure names the step it happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerifyStep {
    /// 1. Wait for a newer ready Test Kit revision.
    Revision,
    /// 2. Re-resolve the target.
    Target,
    /// 3. Evaluate typed criteria.
    Criteria,
    /// 4. Compare browser errors with the baseline.
    Errors,
    /// 5. Capture and hash evidence.
    Capture,
    /// 6. Plan the slice.
    Slice,
    /// 7. Run the trusted checks.
    Checks,
    /// 8. Generate and prove the ACL candidate.
    Candidate,
}

impl VerifyStep {
    /// The step's 1-based number.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
}

/// Why a verification failed: the step and its stable code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerificationFailure {
    /// The step that failed.
    pub step: VerifyStep,
    /// The stable code (`test.session.*`).
    pub code: String,
    /// What failed, for people.
    pub message: String,
}

/// What the session's browser found on the page in steps 2–5 of a verification. The supervisor
/// answers it and the record keeps it, so it is written once: the record flattens it, and its
/// JSON keeps these fields at the top level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageResult {
    /// How the target was found again (step 2).
    pub target: Option<TargetResolution>,
    /// Every success criterion, evaluated or marked not verifiable (step 3).
    pub criteria: Vec<CriterionOutcome>,
    /// Browser errors relative to the baseline (step 4).
    pub errors: Option<ErrorDelta>,
    /// The Layout Mode check (step 3), for placement and rearrange findings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<LayoutOutcome>,
    /// After-evidence: screenshot, Page Context, console and page-error files (step 5).
    pub evidence: Vec<EvidenceRef>,
    /// The `@uN` UI facts of the after-evidence (step 5), one printed line each, numbered within
    /// that capture and pinned by its `ui_understanding` file: what a reviewer reads about
    /// overlapping, clipped and moving boxes without opening the file. At most
    /// [`MAX_UI_FACTS`] lines of at most [`MAX_UI_FACT_CHARS`] characters; untrusted page text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ui_facts: Vec<String>,
}

/// The most `@uN` facts a verification record cites.
pub const MAX_UI_FACTS: usize = 24;
/// The longest cited `@uN` fact, in characters.
pub const MAX_UI_FACT_CHARS: usize = 300;

/// Everything one verification found (`a3s.test.repair-verification/1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerificationRecord {
    /// Always [`VERIFICATION_PROTOCOL`].
    pub protocol: String,
    /// The revision the wait started from: the later of the finding's context revision and the
    /// revision of A3S Test's baseline.
    pub revision_before: Option<u64>,
    /// The newer ready revision observed, if one arrived.
    pub revision_after: Option<u64>,
    /// What the page showed (steps 2–5), as the session's browser answered it.
    #[serde(flatten)]
    pub page: PageResult,
    /// The slice decision, once planned.
    pub slice: Option<SliceDecision>,
    /// The selected checks' results, in slice order.
    pub checks: Vec<CheckResult>,
    /// The ACL candidate and its proof, when one was generated.
    pub candidate: Option<CandidateRecord>,
    /// The verdict.
    pub passed: bool,
    /// The failing step, when it failed.
    pub failure: Option<VerificationFailure>,
    /// When the project file's checks differ from the ones pinned at claim: what changed (the
    /// pinned checks ran, or the verification failed because the change was not declared).
    /// `null` when nothing changed; absent in records written before checks were pinned.
    #[serde(default)]
    pub pinned_checks: Option<PinnedChecksChange>,
}

/// How the project file's verification checks changed between the claim and the verification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PinnedChecksChange {
    /// `sha256:<hex>` of the project file at claim (`null`: there was none).
    pub project_sha256_at_claim: Option<String>,
    /// `sha256:<hex>` of the project file now (`null`: there is none).
    pub project_sha256_now: Option<String>,
    /// The checks added, removed or changed (`` `unit` changed ``), in that order.
    pub changes: Vec<String>,
    /// Whether the repair declared `.a3s-test/project.acl` among its changed files (then the
    /// pinned checks ran; otherwise the verification failed).
    pub declared: bool,
}

impl VerificationRecord {
    /// Whether the record carries a candidate whose proof passed (what promotion requires).
    pub fn proven_candidate(&self) -> Option<&CandidateRecord> {
        self.candidate.as_ref().filter(|c| c.proof.passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_decision_has_the_documented_wire_shape() {
        let decision = SliceDecision {
            protocol: SLICE_PROTOCOL.into(),
            scope: Scope::Focused,
            source_files: vec!["src/Checkout.tsx".into()],
            stable_locator: true,
            prior_acl_proof_passed: None,
            selected_checks: vec!["checkout".into()],
            expansion_reasons: vec![],
        };
        let json = serde_json::to_string(&decision).unwrap();
        assert_eq!(
            json,
            r#"{"protocol":"a3s.test.repair-verification-slice/1","scope":"focused","sourceFiles":["src/Checkout.tsx"],"stableLocator":true,"priorAclProofPassed":null,"selectedChecks":["checkout"],"expansionReasons":[]}"#
        );
        let back: SliceDecision = serde_json::from_str(&json).unwrap();
        assert_eq!(back, decision);
    }

    #[test]
    fn unknown_fields_are_refused() {
        let bad =
            r#"{"kind":"screenshot","path":"a.png","sha256":"sha256:00","bytes":1,"extra":1}"#;
        let err = serde_json::from_str::<EvidenceRef>(bad).unwrap_err();
        assert!(err.to_string().contains("unknown field `extra`"), "{err}");
    }

    #[test]
    fn stable_locators_are_role_label_and_test_id() {
        use LocatorKind::*;
        let stable: Vec<_> = [RoleName, Label, TestId, Placeholder, Text, Css, Replacement]
            .into_iter()
            .filter(|k| k.is_stable())
            .collect();
        assert_eq!(stable, vec![RoleName, Label, TestId]);
        assert_eq!(VerifyStep::Revision.number(), 1);
        assert_eq!(VerifyStep::Candidate.number(), 8);
    }
}
