//! The pool's rules with fake members: least-loaded placement, a member's crash is that member's
//! loss while others live (and the last one's is the run's), lost members get no new context.

use super::*;
use a3s_test_lang::ir::ActionKind;
use std::sync::atomic::AtomicBool;

/// A member whose browser "crashes" when the test says so.
struct Fake {
    crashed: Arc<AtomicBool>,
    capabilities: Capabilities,
}

#[derive(Debug)]
struct FakeContext {
    crashed: Arc<AtomicBool>,
}

fn crash() -> StepFailure {
    StepFailure::new(FailureCode::BrowserCrashed, "the connection dropped")
}

impl SurfaceDriver for Fake {
    type Context = FakeContext;

    fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    async fn new_context(&self, _: ContextOptions) -> Result<FakeContext, DriverError> {
        if self.crashed.load(Ordering::SeqCst) {
            return Err(DriverError::new(FailureCode::BrowserCrashed, "gone"));
        }
        Ok(FakeContext {
            crashed: self.crashed.clone(),
        })
    }

    async fn shutdown(&self) -> Result<(), DriverError> {
        Ok(())
    }
}

impl FakeContext {
    fn state(&self) -> Result<(), StepFailure> {
        if self.crashed.load(Ordering::SeqCst) {
            Err(crash())
        } else {
            Ok(())
        }
    }
}

impl SurfaceContext for FakeContext {
    async fn execute(&mut self, _: &Step, _: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        Err(crash())
    }

    async fn check(
        &mut self,
        _: &ExpectCondition,
        _: Option<Duration>,
        _: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        Err(crash())
    }

    async fn capture(
        &mut self,
        _: CaptureRequest<'_>,
        _: &StepEnv<'_>,
    ) -> Result<Captured, StepFailure> {
        Err(crash())
    }

    async fn capture_failure_evidence(
        &mut self,
        _: &a3s_test_fsroot::Dir,
        _: Instant,
    ) -> FailureEvidence {
        FailureEvidence::all_missing("fake")
    }

    async fn load_storage_state(
        &mut self,
        _: &StorageState,
        _: Instant,
    ) -> Result<(), StepFailure> {
        self.state()
    }

    async fn apply_context(
        &mut self,
        _: &a3s_test_lang::ir::ContextSettings,
        _: &dyn a3s_test_driver::vars::VarSource,
        _: Instant,
    ) -> Result<(), StepFailure> {
        self.state()
    }

    async fn close(self) -> Result<(), DriverError> {
        self.state()
            .map_err(|f| DriverError::new(f.code, f.message))
    }
}

fn pool(n: usize) -> (Pool<Fake>, Vec<Arc<AtomicBool>>) {
    let flags: Vec<Arc<AtomicBool>> = (0..n).map(|_| Arc::default()).collect();
    let members = flags
        .iter()
        .enumerate()
        .map(|(i, crashed)| {
            let capabilities = Capabilities {
                surface: a3s_test_lang::ir::Surface::Web,
                steps: [ActionKind::Navigate].into_iter().collect(),
            };
            (
                format!("session-{i}"),
                Fake {
                    crashed: crashed.clone(),
                    capabilities,
                },
            )
        })
        .collect();
    (Pool::new(members), flags)
}

fn open_counts(pool: &Pool<Fake>) -> Vec<usize> {
    pool.states
        .iter()
        .map(|s| s.open.load(Ordering::SeqCst))
        .collect()
}

async fn load(ctx: &mut Pooled<FakeContext>) -> Result<(), StepFailure> {
    ctx.load_storage_state(&StorageState::default(), Instant::now())
        .await
}

#[tokio::test]
async fn contexts_go_to_the_least_loaded_member_and_leave_it_when_closed() {
    let (pool, _) = pool(2);
    let a = pool.new_context(ContextOptions::default()).await.unwrap();
    let b = pool.new_context(ContextOptions::default()).await.unwrap();
    assert_eq!(open_counts(&pool), [1, 1]);
    a.close().await.unwrap();
    assert_eq!(open_counts(&pool), [0, 1]);
    let c = pool.new_context(ContextOptions::default()).await.unwrap();
    assert_eq!(open_counts(&pool), [1, 1]);
    drop((b, c));
    assert_eq!(open_counts(&pool), [0, 0]);
}

#[tokio::test]
async fn a_members_crash_is_its_loss_while_others_live_and_the_last_ones_is_a_crash() {
    let (pool, flags) = pool(2);
    let mut first = pool.new_context(ContextOptions::default()).await.unwrap();
    flags[0].store(true, Ordering::SeqCst);
    let lost = load(&mut first).await.unwrap_err();
    assert_eq!(lost.code, FailureCode::GridSessionLost);
    assert!(lost.message.contains("session-0"), "{}", lost.message);
    // Closing a context of a lost member is not a cleanup failure.
    first.close().await.unwrap();
    // New contexts skip the lost member, even when it has the fewest open.
    let mut second = pool.new_context(ContextOptions::default()).await.unwrap();
    let _third = pool.new_context(ContextOptions::default()).await.unwrap();
    assert_eq!(open_counts(&pool), [0, 2]);
    load(&mut second).await.unwrap();
    // The last member's crash is the run's.
    flags[1].store(true, Ordering::SeqCst);
    assert_eq!(
        load(&mut second).await.unwrap_err().code,
        FailureCode::BrowserCrashed
    );
    let none = pool
        .new_context(ContextOptions::default())
        .await
        .unwrap_err();
    assert_eq!(none.code, FailureCode::BrowserCrashed);
    assert!(
        none.message.contains("every session was lost"),
        "{}",
        none.message
    );
}

#[tokio::test]
async fn a_member_that_cannot_open_a_context_is_lost_and_the_next_one_is_asked() {
    let (pool, flags) = pool(3);
    flags[0].store(true, Ordering::SeqCst);
    let _ctx = pool.new_context(ContextOptions::default()).await.unwrap();
    assert_eq!(open_counts(&pool), [0, 1, 0]);
    assert!(pool.states[0].lost().is_some());
}
