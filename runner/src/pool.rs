//! Several browsers behind one [`SurfaceDriver`]: the executor runs against one driver, and a run
//! on a Selenium Grid (`run --grid`) has one browser per Grid session. [`Pool`] spreads the
//! scenarios' contexts over its members — each new context goes to the live member with the
//! fewest open contexts — so `--jobs 4` over four sessions keeps one scenario on each.
//!
//! Why a member's loss is not the run's loss: the executor treats a crashed browser
//! (`test.driver.web.browser_crashed`) as the end of the run — no later scenario opens. A Grid
//! session can be lost on its own (its node died, the Grid ended it) while the others run on.
//! So a [`Pooled`] context whose member fails with a crash marks that member lost and reports
//! `test.driver.web.grid_session_lost` instead (an infrastructure failure of that scenario, which
//! `--retries` runs again on another member); new contexts skip lost members. Only when the last
//! member is lost does the crash pass through as it is, ending the run as a single browser's
//! crash would.
//!
//! The runner names no concrete driver: members are any `SurfaceDriver`, each with a name for
//! messages (the binary uses the Grid session id).

use a3s_test_driver::snapshot::{CaptureRequest, Captured};
use a3s_test_driver::storage_state::StorageState;
use a3s_test_driver::trace::{StepCapture, TraceMark, TraceWant};
use a3s_test_driver::{
    Capabilities, ConditionSample, ContextOptions, DriverError, FailureCode, FailureEvidence,
    StepEnv, StepFailure, StepOutput, SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{ExpectCondition, Step};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// The shared state of one member: how many contexts it holds and whether it was lost.
#[derive(Debug, Default)]
struct MemberState {
    name: String,
    open: AtomicUsize,
    lost: Mutex<Option<String>>,
}

impl MemberState {
    fn lost(&self) -> Option<String> {
        self.lost.lock().ok().and_then(|l| l.clone())
    }

    fn mark_lost(&self, why: &str) {
        if let Ok(mut lost) = self.lost.lock() {
            lost.get_or_insert_with(|| why.to_string());
        }
    }
}

/// Several drivers of one surface; contexts open on the least-loaded live one.
#[derive(Debug)]
pub struct Pool<D> {
    members: Vec<(D, Arc<MemberState>)>,
    states: Arc<Vec<Arc<MemberState>>>,
}

impl<D: SurfaceDriver> Pool<D> {
    /// A pool of `members` (name, driver); at least one.
    pub fn new(members: Vec<(String, D)>) -> Pool<D> {
        let members: Vec<(D, Arc<MemberState>)> = members
            .into_iter()
            .map(|(name, driver)| {
                let state = Arc::new(MemberState {
                    name,
                    ..MemberState::default()
                });
                (driver, state)
            })
            .collect();
        let states = Arc::new(members.iter().map(|(_, s)| s.clone()).collect());
        Pool { members, states }
    }

    /// How many members the pool has, lost ones included.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// True for a pool without members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The live member with the fewest open contexts (the first such in member order).
    fn pick(&self, skip: &[usize]) -> Option<usize> {
        self.members
            .iter()
            .enumerate()
            .filter(|(i, (_, s))| !skip.contains(i) && s.lost().is_none())
            .min_by_key(|(_, (_, s))| s.open.load(Ordering::SeqCst))
            .map(|(i, _)| i)
    }

    /// The error once no member is left: the last loss, as the crash it was.
    fn all_lost(&self) -> DriverError {
        let reasons: Vec<String> = self
            .states
            .iter()
            .filter_map(|s| s.lost().map(|why| format!("{}: {why}", s.name)))
            .collect();
        DriverError::new(
            FailureCode::BrowserCrashed,
            format!("every session was lost ({})", reasons.join("; ")),
        )
    }
}

/// True while some member other than `state` is live.
fn others_live(states: &[Arc<MemberState>], state: &MemberState) -> bool {
    states
        .iter()
        .any(|s| !std::ptr::eq(s.as_ref(), state) && s.lost().is_none())
}

impl<D: SurfaceDriver> SurfaceDriver for Pool<D> {
    type Context = Pooled<D::Context>;

    fn capabilities(&self) -> &Capabilities {
        self.members[0].0.capabilities()
    }

    async fn new_context(&self, options: ContextOptions) -> Result<Self::Context, DriverError> {
        // Each member prepares contexts ahead for its share of the waiting scenarios only.
        let live = self
            .states
            .iter()
            .filter(|s| s.lost().is_none())
            .count()
            .max(1);
        let options = ContextOptions {
            ready_ahead: options.ready_ahead.div_ceil(live),
            ..options
        };
        let mut tried = Vec::new();
        // A member that fails to open a context because it is gone is marked lost and the next
        // one is asked; any other refusal is the scenario's.
        while let Some(index) = self.pick(&tried) {
            tried.push(index);
            let (driver, state) = &self.members[index];
            state.open.fetch_add(1, Ordering::SeqCst);
            let guard = OpenGuard(state.clone());
            match driver.new_context(options.clone()).await {
                Ok(inner) => {
                    return Ok(Pooled {
                        inner,
                        guard,
                        states: self.states.clone(),
                    })
                }
                Err(e) if e.code == FailureCode::BrowserCrashed => state.mark_lost(&e.message),
                Err(e) => return Err(e),
            }
        }
        Err(self.all_lost())
    }

    async fn shutdown(&self) -> Result<(), DriverError> {
        // Together: one slow member does not hold up the others' shutdown.
        let all = self.members.iter().map(|(d, _)| d.shutdown());
        futures::future::join_all(all)
            .await
            .into_iter()
            .collect::<Result<Vec<()>, _>>()
            .map(|_| ())
    }
}

/// Counts a context as open on its member until it is closed or dropped.
#[derive(Debug)]
struct OpenGuard(Arc<MemberState>);

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A context on one member of a [`Pool`].
#[derive(Debug)]
pub struct Pooled<C> {
    inner: C,
    guard: OpenGuard,
    states: Arc<Vec<Arc<MemberState>>>,
}

impl<C> Pooled<C> {
    /// A crash of this context's member while others are live becomes that member's loss.
    fn lost(&self, code: FailureCode, message: &str) -> Option<String> {
        let state = &self.guard.0;
        if code != FailureCode::BrowserCrashed {
            return None;
        }
        state.mark_lost(message);
        others_live(&self.states, state)
            .then(|| format!("the Grid session {} was lost: {message}", state.name))
    }

    fn step<T>(&self, r: Result<T, StepFailure>) -> Result<T, StepFailure> {
        r.map_err(|mut f| {
            if let Some(message) = self.lost(f.code, &f.message) {
                f.code = FailureCode::GridSessionLost;
                f.message = message;
            }
            f
        })
    }
}

impl<C: SurfaceContext> SurfaceContext for Pooled<C> {
    async fn execute(&mut self, step: &Step, env: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        let r = self.inner.execute(step, env).await;
        self.step(r)
    }

    async fn check(
        &mut self,
        condition: &ExpectCondition,
        watch: Option<Duration>,
        env: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        let r = self.inner.check(condition, watch, env).await;
        self.step(r)
    }

    async fn capture(
        &mut self,
        request: CaptureRequest<'_>,
        env: &StepEnv<'_>,
    ) -> Result<Captured, StepFailure> {
        let r = self.inner.capture(request, env).await;
        self.step(r)
    }

    async fn capture_failure_evidence(
        &mut self,
        dir: &a3s_test_fsroot::Dir,
        deadline: Instant,
    ) -> FailureEvidence {
        if let Some(why) = self.guard.0.lost() {
            return FailureEvidence::all_missing(&format!("the session was lost: {why}"));
        }
        self.inner.capture_failure_evidence(dir, deadline).await
    }

    async fn load_storage_state(
        &mut self,
        state: &StorageState,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        let r = self.inner.load_storage_state(state, deadline).await;
        self.step(r)
    }

    async fn page_facts(
        &mut self,
        request: &a3s_test_driver::page_facts::PageFactsRequest,
        deadline: Instant,
    ) -> Result<a3s_test_driver::page_facts::PageFacts, StepFailure> {
        let r = self.inner.page_facts(request, deadline).await;
        self.step(r)
    }

    async fn apply_context(
        &mut self,
        settings: &a3s_test_lang::ir::ContextSettings,
        vars: &dyn a3s_test_driver::vars::VarSource,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        let r = self.inner.apply_context(settings, vars, deadline).await;
        self.step(r)
    }

    async fn close(self) -> Result<(), DriverError> {
        let Pooled { inner, guard, .. } = self;
        // The context of a lost session went with it: nothing is left to close.
        if guard.0.lost().is_some() {
            drop(inner);
            return Ok(());
        }
        let closed = inner.close().await;
        drop(guard);
        closed
    }

    fn trace_start(&mut self, frames: Option<u32>) -> bool {
        self.inner.trace_start(frames)
    }

    fn trace_mark(&self) -> TraceMark {
        self.inner.trace_mark()
    }

    async fn trace_capture(
        &mut self,
        since: TraceMark,
        want: TraceWant,
        deadline: Instant,
    ) -> StepCapture {
        self.inner.trace_capture(since, want, deadline).await
    }
}

#[cfg(test)]
mod tests;
