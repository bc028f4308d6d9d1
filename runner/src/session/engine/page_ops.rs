//! The supervisor's page operations for repair verification: each request is one typed read of
//! the page, answered through [`LivePage`] (the same reads the in-process `repair_observe` runs),
//! deciding nothing — the steps and their verdicts are the pipeline's
//! ([`crate::repair::verify`]). Kept apart from the turn engine so the repair requests each stay
//! in their own small file.

use super::Engine;
use crate::repair::verify::ObservePage;
use crate::session::code::{SessionCode, SessionError};
use crate::session::protocol::{
    CaptureEvidence, LocateTarget, MeasureLayout, ReadPageText, WaitRevision,
};
use crate::session::repair_page::locate::Located;
use crate::session::repair_page::{
    Captured, LayoutReading, LivePage, PageText, RevisionSeen, MAX_REVISION_TIMEOUT_MS, STEPS_BOUND,
};
use a3s_test_driver::AgentDriver;
use a3s_test_lang::ir::Target;
use std::time::Duration;
use tokio::time::Instant;

/// The most candidate targets one `locate_target` tries.
pub const MAX_CANDIDATES: usize = 64;

fn invalid(message: impl Into<String>) -> SessionError {
    SessionError::new(SessionCode::InvalidInput, message)
}

/// A target the page may resolve again: never a ref, which belongs to one observation.
fn resolvable(target: &Target) -> Result<(), SessionError> {
    if target.is_stable() {
        Ok(())
    } else {
        Err(invalid(format!(
            "{target} cannot be resolved again: a verification names elements by locator, never \
             by ref"
        )))
    }
}

/// The deadline of a read given `within_ms`: never more than [`STEPS_BOUND`].
fn within(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms).min(STEPS_BOUND)
}

impl<D: AgentDriver> Engine<D> {
    fn live_page(&self) -> Result<LivePage<'_, D::Context>, SessionError> {
        Ok(LivePage::new(
            self.ctx()?,
            &self.dir,
            self.repair_deadline(),
        ))
    }

    /// `wait_revision`: step 1's wait, at most [`MAX_REVISION_TIMEOUT_MS`].
    pub(super) async fn wait_revision(
        &self,
        w: &WaitRevision,
    ) -> Result<RevisionSeen, SessionError> {
        if w.timeout_ms > MAX_REVISION_TIMEOUT_MS {
            return Err(invalid(format!(
                "timeout_ms must be at most {MAX_REVISION_TIMEOUT_MS}"
            )));
        }
        let until = Instant::now() + Duration::from_millis(w.timeout_ms);
        self.live_page()?.wait_revision(w.after, until).await
    }

    /// `locate_target`: step 2's read, over locators only.
    pub(super) async fn locate_target(&self, l: &LocateTarget) -> Result<Located, SessionError> {
        if l.candidates.len() > MAX_CANDIDATES {
            return Err(invalid(format!(
                "more than {MAX_CANDIDATES} candidate targets"
            )));
        }
        for (_, target) in &l.candidates {
            resolvable(target)?;
        }
        self.live_page()?
            .locate(&l.candidates, within(l.within_ms))
            .await
    }

    /// `read_page_text`: step 3's read for page criteria.
    pub(super) async fn read_page_text(&self, r: &ReadPageText) -> Result<PageText, SessionError> {
        self.live_page()?.page_text(within(r.within_ms)).await
    }

    /// `measure_layout`: step 3's read for a layout finding.
    pub(super) async fn measure_layout(
        &self,
        m: &MeasureLayout,
    ) -> Result<LayoutReading, SessionError> {
        if let Some(node) = &m.node {
            resolvable(node)?;
        }
        self.live_page()?
            .measure_layout(&m.layout, m.node.as_ref(), within(m.within_ms))
            .await
    }

    /// `capture_evidence`: steps 4–5's read, the evidence confined below `artifacts/repairs/`.
    pub(super) async fn capture_evidence(
        &self,
        c: &CaptureEvidence,
    ) -> Result<Captured, SessionError> {
        self.live_page()?.capture(&c.dir, within(c.within_ms)).await
    }
}
