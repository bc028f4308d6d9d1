//! Proving a repair candidate: the admitted candidate suite runs through the suite executor
//! ([`crate::executor::execute`], the path `a3s-test run` takes) in a fresh browser context of
//! the session's own browser, under the session's origin and network policy, within a bound.
//!
//! Why the session's browser and not a new one: the proof must see the application the
//! verification just judged, with the same network reach, and starting a second Chromium would
//! cost more than the whole verification budget. Why a fresh context: nothing the session's tab
//! holds (cookies, storage, an open dialog, the agent's own edits to the DOM) may help the
//! candidate pass.
//!
//! The proof never fails as a Rust error: an inadmissible candidate, a navigation outside the
//! session's origins, a step kind a candidate never has, a failed expectation or an overrun each
//! become a failed [`Proof`] with the stable code of what stopped it.

use crate::admit::{AdmittedFile, SourceFile};
use crate::cancel::CancelToken;
use crate::event::EventSender;
use crate::evidence::ArtifactRoot;
use crate::executor::{execute, DriverLauncher, ExecutorConfig};
use crate::plan::{plan, PlanOptions};
use crate::result::ScenarioStatus;
use crate::session::code::SessionCode;
use crate::session::file::Policy;
use crate::session::policy::{check_origin, network_allowed};
use a3s_test_driver::{
    AgentContext, AgentDriver, Capabilities, ContextOptions, DriverError, FailureCode,
    NetworkFilter, SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{Action, AdmittedDocument, Suite};
use a3s_test_ledger::verification::Proof;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The file name of the candidate inside its verification folder.
pub const CANDIDATE_FILE: &str = "candidate.acl";
/// The file name of the proof result beside it.
pub const PROOF_FILE: &str = "proof.json";
/// The most a proof may take in total: the candidate's own scenario deadline plus room for
/// opening and closing its context.
pub const PROOF_BOUND: Duration = Duration::from_secs(25);
/// Bound on closing the proof's context (and on its failure evidence).
pub const CLEANUP_BOUND: Duration = Duration::from_secs(5);

/// What a proof needs besides the driver and the candidate.
#[derive(Debug, Clone)]
pub struct ProofSettings {
    /// The session's origin and network policy.
    pub policy: Policy,
    /// The verification folder, open and verified; the run's artifacts go to
    /// `<it>/runs/proof/…`, created when missing.
    pub artifacts: a3s_test_fsroot::Dir,
    /// Upload paths would be relative to it (the project root).
    pub working_dir: PathBuf,
    /// The overall bound.
    pub bound: Duration,
}

/// Run `candidate` in a fresh context of `driver` and say whether it passed.
pub async fn prove<D: AgentDriver>(
    driver: Arc<D>,
    candidate: &str,
    settings: &ProofSettings,
) -> Proof {
    let started = Instant::now();
    let failed = |code: &str, message: String| Proof {
        passed: false,
        code: Some(code.to_string()),
        message: Some(message),
        duration_ms: started.elapsed().as_millis() as u64,
    };
    let suite = match admitted(candidate, &settings.policy) {
        Ok(suite) => suite,
        Err((code, message)) => return failed(&code, message),
    };
    let file = AdmittedFile {
        source: Arc::new(SourceFile {
            path: PathBuf::from(CANDIDATE_FILE),
            text: Arc::from(candidate),
        }),
        suite,
        warnings: Vec::new(),
    };
    let planned = match plan(&[file], &PlanOptions::default()) {
        Ok(p) => p,
        Err(e) => return failed(SessionCode::Schema.as_str(), e.to_string()),
    };
    let artifacts = match ArtifactRoot::within(&settings.artifacts, "proof") {
        Ok(a) => a,
        Err(e) => return failed(e.code().as_str(), e.to_string()),
    };
    let config = ExecutorConfig {
        jobs: 1,
        artifacts,
        working_dir: settings.working_dir.clone(),
        base_url: None,
        launch_timeout: CLEANUP_BOUND,
        cleanup_bound: CLEANUP_BOUND,
        retries: 0,
        expect_timeout: Duration::from_millis(a3s_test_lang::ir::DEFAULT_EXPECT_TIMEOUT_MS),
        context: Default::default(),
        update_snapshots: a3s_test_driver::snapshot::UpdateSnapshots::None,
        trace: crate::trace::TraceConfig::default(),
    };
    let launcher = SessionBrowser {
        driver,
        policy: settings.policy.clone(),
    };
    let (events, _rx) = EventSender::channel();
    let run = execute(&planned, launcher, config, events, CancelToken::new());
    let execution = match tokio::time::timeout(settings.bound, run).await {
        Ok(e) => e,
        Err(_) => {
            return failed(
                FailureCode::Timeout.as_str(),
                format!(
                    "the proof did not finish within {} ms",
                    settings.bound.as_millis()
                ),
            )
        }
    };
    let Some(result) = execution.scenarios.first() else {
        return failed(
            FailureCode::Protocol.as_str(),
            "the executor returned no scenario".into(),
        );
    };
    let passed = result.status == ScenarioStatus::Passed && result.cleanup_failure.is_none();
    let failure = result.failure.as_ref().or(result.cleanup_failure.as_ref());
    Proof {
        passed,
        code: failure
            .filter(|_| !passed)
            .map(|f| f.code.as_str().to_string()),
        message: failure.filter(|_| !passed).map(|f| f.message.clone()),
        duration_ms: started.elapsed().as_millis() as u64,
    }
}

/// Admit the candidate as a suite a proof may run: only `navigate`, `wait` and `expect` steps
/// (what [`super::candidate::generate`] writes; nothing that types, uploads or downloads), every
/// navigation inside the session's origins. The error is `(code, message)`.
fn admitted(candidate: &str, policy: &Policy) -> Result<Suite, (String, String)> {
    let admission = a3s_test_lang::admit(candidate);
    let suite = match admission.document {
        Some(AdmittedDocument::Suite(s)) => s,
        Some(
            AdmittedDocument::Project(_)
            | AdmittedDocument::Library(_)
            | AdmittedDocument::Contract(_),
        ) => {
            return Err((
                SessionCode::Schema.as_str().into(),
                "the candidate is a project or library document, not a suite".into(),
            ))
        }
        None => {
            let d = admission.diagnostics.first();
            return Err((
                d.map(|d| d.code.as_str().to_string())
                    .unwrap_or_else(|| SessionCode::Schema.as_str().into()),
                format!(
                    "the candidate is not admitted: {}",
                    d.map(|d| d.message.as_str()).unwrap_or("no diagnostic")
                ),
            ));
        }
    };
    for step in suite.scenarios.iter().flat_map(|s| &s.steps) {
        match &step.action {
            Action::Navigate { url } => {
                check_origin(policy, url).map_err(|e| (e.code.as_str().to_string(), e.message))?
            }
            Action::Wait { .. } | Action::Expect { .. } => {}
            other => {
                return Err((
                    SessionCode::Policy.as_str().into(),
                    format!(
                        "a candidate only navigates, waits and expects; `{}` is not run",
                        other.kind()
                    ),
                ))
            }
        }
    }
    Ok(suite)
}

/// `sha256:<lowercase hex>` of `bytes`: the ledger's one digest function, so a candidate's
/// digest compares equal wherever it is checked.
pub fn digest(bytes: &[u8]) -> String {
    a3s_test_ledger::ledger::sha256_digest(bytes)
}

/// Write `candidate` as `<dir>/candidate.acl` (atomically, in the open, verified folder) and
/// return its digest.
pub fn write_candidate(
    dir: &a3s_test_fsroot::Dir,
    candidate: &str,
) -> Result<String, a3s_test_fsroot::FsError> {
    dir.write_atomic(
        CANDIDATE_FILE,
        candidate.as_bytes(),
        a3s_test_fsroot::SHARED,
    )?;
    Ok(digest(candidate.as_bytes()))
}

/// Write the proof result as `<dir>/proof.json` (atomically).
pub fn write_proof(
    dir: &a3s_test_fsroot::Dir,
    proof: &Proof,
) -> Result<(), a3s_test_fsroot::FsError> {
    let mut bytes = serde_json::to_vec_pretty(proof).map_err(|e| a3s_test_fsroot::FsError::Io {
        action: "encode",
        path: dir.path().join(PROOF_FILE),
        source: std::io::Error::other(e),
    })?;
    bytes.push(b'\n');
    dir.write_atomic(PROOF_FILE, &bytes, a3s_test_fsroot::SHARED)
}

/// The session's browser, handed to the executor as if it were launched: every context it opens
/// enforces the session's network policy, and "shutting it down" leaves the browser running —
/// the session owns it, the proof only borrows one context.
struct SessionBrowser<D> {
    driver: Arc<D>,
    policy: Policy,
}

impl<D: AgentDriver> DriverLauncher for SessionBrowser<D> {
    type Driver = PolicyDriver<D>;

    fn capabilities(&self) -> Capabilities {
        self.driver.capabilities().clone()
    }

    async fn launch(self, _timeout: Duration) -> Result<PolicyDriver<D>, DriverError> {
        Ok(PolicyDriver {
            driver: self.driver,
            policy: self.policy,
        })
    }
}

/// See [`SessionBrowser`].
struct PolicyDriver<D> {
    driver: Arc<D>,
    policy: Policy,
}

impl<D: AgentDriver> SurfaceDriver for PolicyDriver<D> {
    type Context = D::Context;

    fn capabilities(&self) -> &Capabilities {
        self.driver.capabilities()
    }

    async fn new_context(&self, options: ContextOptions) -> Result<D::Context, DriverError> {
        let mut ctx = self.driver.new_context(options).await?;
        let policy = self.policy.clone();
        let filter = NetworkFilter(Arc::new(move |url: &str| network_allowed(&policy, url)));
        let deadline = Instant::now() + CLEANUP_BOUND;
        if let Err(f) = ctx.set_network_filter(filter, deadline).await {
            let _ = tokio::time::timeout(CLEANUP_BOUND, ctx.close()).await;
            return Err(DriverError::new(
                f.code,
                format!("failed to enforce the network policy: {}", f.message),
            ));
        }
        Ok(ctx)
    }

    async fn shutdown(&self) -> Result<(), DriverError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy {
            origins: vec!["http://127.0.0.1:4173".into()],
            domains: vec![],
        }
    }

    fn code(candidate: &str) -> String {
        admitted(candidate, &policy()).unwrap_err().0
    }

    #[test]
    fn only_admitted_navigate_wait_expect_inside_the_origins_run() {
        let ok = "suite \"s\" {\n scenario \"r\" {\n surface = \"web\"\n navigate \"open\" { url = \"http://127.0.0.1:4173/a\" }\n expect \"t\" { text = \"x\" }\n }\n}\n";
        assert!(admitted(ok, &policy()).is_ok());
        let elsewhere = ok.replace("127.0.0.1:4173", "evil.example");
        assert_eq!(code(&elsewhere), "test.session.policy");
        let click = ok.replace(
            "expect \"t\" { text = \"x\" }",
            "click \"c\" { target = role(\"button\", \"Go\") }",
        );
        assert_eq!(code(&click), "test.session.policy");
        assert!(code("suite {").starts_with("test.spec."));
    }

    #[test]
    fn digests_are_lowercase_sha256() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
