//! The supervisor's `repair_prove` request: write the candidate under the session's evidence
//! root and prove it in a fresh context of the session's own browser
//! ([`crate::repair::proof`]). Kept apart from the turn engine so the repair requests each stay
//! in their own small file.

use super::Engine;
use crate::repair::proof::{self, ProofSettings, CANDIDATE_FILE, PROOF_BOUND};
use crate::session::code::{SessionCode, SessionError};
use a3s_test_driver::AgentDriver;
use a3s_test_fsroot::Dir;
use a3s_test_ledger::verification::CandidateRecord;
use std::path::Path;

/// Evidence folders a proof may write to: below the session's repair evidence root only.
const EVIDENCE_ROOT: &str = "artifacts/repairs/";

impl<D: AgentDriver> Engine<D> {
    /// Write `candidate` to `<dir>/candidate.acl` (session-relative, confined to
    /// `artifacts/repairs/`), prove it, write `<dir>/proof.json` and answer the
    /// [`CandidateRecord`] (path relative to the session folder, digest, proof).
    pub(super) async fn repair_prove(
        &mut self,
        candidate: &str,
        dir: &str,
    ) -> Result<CandidateRecord, SessionError> {
        self.ctx()?;
        let folder = self.evidence_dir(dir)?;
        let io = |e: a3s_test_fsroot::FsError| SessionError::fs(&e);
        let sha256 = proof::write_candidate(&folder, candidate).map_err(io)?;
        let settings = ProofSettings {
            policy: self.file.policy.clone(),
            artifacts: folder.clone(),
            working_dir: self.root.clone(),
            bound: PROOF_BOUND,
        };
        let result = proof::prove(self.driver.clone(), candidate, &settings).await;
        proof::write_proof(&folder, &result).map_err(io)?;
        Ok(CandidateRecord {
            path: format!("{}/{CANDIDATE_FILE}", dir.trim_end_matches('/')),
            sha256,
            proof: result,
        })
    }

    /// `dir` under the session folder: relative, without `..`, below [`EVIDENCE_ROOT`], every
    /// folder on the way opened without following links (a link is `test.session.unsafe_path`).
    fn evidence_dir(&self, dir: &str) -> Result<Dir, SessionError> {
        let refused = |why: String| {
            SessionError::new(
                SessionCode::Policy,
                format!("evidence folder {dir:?} refused: {why}"),
            )
        };
        if !dir.starts_with(EVIDENCE_ROOT) {
            return Err(refused(format!("it must lie below {EVIDENCE_ROOT}")));
        }
        let rel = Path::new(dir);
        if rel
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(refused("it must be a plain relative path".into()));
        }
        self.dir
            .create_dir_all(rel)
            .map_err(|e| SessionError::fs(&e))
    }
}
