//! The retry loop against a scripted surface on paused time: when it reads, what it decides,
//! and the property that a condition arriving at `t` passes an expect timeout `T` exactly when
//! `t < T`.

use super::*;
use a3s_test_driver::{DriverError, MapVars, StepFailure, StepOutput};
use a3s_test_lang::ir::{Stability, Step, Target};
use proptest::prelude::*;

/// How the scripted surface answers a watch.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Signals {
    /// It reports the change at the moment the condition starts to hold.
    OnChange,
    /// It reports nothing: only the backoff brings the next reading.
    Never,
    /// It reports a change all the time (an animated page).
    Always,
}

/// A condition that holds from `arrives` after `t0` on, and stops holding at `leaves`.
struct Scripted {
    t0: Instant,
    arrives: Option<Duration>,
    leaves: Option<Duration>,
    signals: Signals,
    /// Offsets of every reading from `t0`.
    readings: Vec<Duration>,
    /// Answer readings with this error instead.
    broken: Option<FailureCode>,
}

impl Scripted {
    fn new(arrives: Option<u64>, signals: Signals) -> Scripted {
        Scripted {
            t0: Instant::now(),
            arrives: arrives.map(Duration::from_millis),
            leaves: None,
            signals,
            readings: Vec::new(),
            broken: None,
        }
    }

    fn holds_at(&self, at: Instant) -> bool {
        let since = at.duration_since(self.t0);
        self.arrives.is_some_and(|a| since >= a) && self.leaves.is_none_or(|l| since < l)
    }
}

impl SurfaceContext for Scripted {
    async fn execute(&mut self, _: &Step, _: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        unreachable!("conditions are read through check")
    }

    async fn capture(
        &mut self,
        _request: a3s_test_driver::snapshot::CaptureRequest<'_>,
        _env: &StepEnv<'_>,
    ) -> Result<a3s_test_driver::snapshot::Captured, StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "no captures here",
        ))
    }

    async fn check(
        &mut self,
        _condition: &ExpectCondition,
        watch: Option<Duration>,
        env: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        let now = Instant::now();
        if now >= env.deadline {
            return Err(StepFailure::new(FailureCode::Timeout, "deadline"));
        }
        self.readings.push(now.duration_since(self.t0));
        if let Some(code) = self.broken {
            return Err(StepFailure::new(code, "cannot read"));
        }
        if self.holds_at(now) {
            return Ok(ConditionSample::Holds(Value::from("seen")));
        }
        let seen = format!("nothing at +{} ms", now.duration_since(self.t0).as_millis());
        if let Some(watch) = watch {
            let end = now + watch;
            let wake = match (self.signals, self.arrives) {
                (Signals::OnChange, Some(a)) => end.min((self.t0 + a).max(now)),
                (Signals::Always, _) => now,
                _ => end,
            };
            tokio::time::sleep_until(wake.min(env.deadline)).await;
        }
        Ok(ConditionSample::Fails {
            code: FailureCode::TextMismatch,
            seen,
        })
    }

    async fn capture_failure_evidence(
        &mut self,
        _: &a3s_test_fsroot::Dir,
        _: tokio::time::Instant,
    ) -> a3s_test_driver::FailureEvidence {
        a3s_test_driver::FailureEvidence::default()
    }

    async fn apply_context(
        &mut self,
        _: &a3s_test_lang::ir::ContextSettings,
        _: &dyn a3s_test_driver::vars::VarSource,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "the fake has no browser context",
        ))
    }
    async fn load_storage_state(
        &mut self,
        _: &a3s_test_driver::storage_state::StorageState,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "the fake has no storage",
        ))
    }
    async fn close(self) -> Result<(), DriverError> {
        Ok(())
    }
}

fn text() -> ExpectCondition {
    ExpectCondition::Page(PageCondition::Text {
        text: "Ready".into(),
    })
}

fn expectation(timeout_ms: Option<u64>, immediate: bool) -> Expectation {
    Expectation {
        condition: text(),
        stability: None,
        timeout_ms,
        immediate,
        soft: false,
    }
}

/// Run `e` on `surface` with a 5 s expect timeout and `deadline_ms` of scenario time left.
async fn run(
    surface: &mut Scripted,
    e: &Expectation,
    deadline_ms: u64,
) -> Result<StepOutput, StepFailure> {
    let dir = Folder::new();
    expect(surface, e, &step_env(&dir, deadline_ms)).await
}

/// A temporary folder and its open handle (the artifact folder a step gets).
struct Folder {
    temp: tempfile::TempDir,
    dir: a3s_test_fsroot::Dir,
}

impl Folder {
    fn new() -> Folder {
        let temp = tempfile::tempdir().unwrap();
        let dir = a3s_test_fsroot::Dir::open_anchor(temp.path()).unwrap();
        Folder { temp, dir }
    }
}

/// A scenario's step environment: 5 s expect timeout, `deadline_ms` left.
fn step_env(dir: &Folder, deadline_ms: u64) -> StepEnv<'_> {
    StepEnv {
        base_url: None,
        action_timeout: Duration::from_millis(5000),
        expect_timeout: Duration::from_millis(5000),
        deadline: Instant::now() + Duration::from_millis(deadline_ms),
        deadline_name: "scenario",
        artifact_dir: &dir.dir,
        working_dir: dir.temp.path(),
        snapshots: None,
        vars: &NO_VARS,
    }
}

/// No variables: these surfaces never read one.
static NO_VARS: MapVars = MapVars(std::collections::BTreeMap::new());

fn waited(out: &StepOutput) -> u64 {
    match out.detail {
        Some(StepDetail::Observed { waited_ms, .. } | StepDetail::Stable { waited_ms, .. }) => {
            waited_ms
        }
        ref other => panic!("{other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_condition_that_holds_costs_one_reading() {
    let mut surface = Scripted::new(Some(0), Signals::Never);
    let out = run(&mut surface, &expectation(None, false), 60_000)
        .await
        .unwrap();
    assert_eq!(waited(&out), 0);
    assert_eq!(surface.readings, vec![Duration::ZERO]);
}

#[tokio::test(start_paused = true)]
async fn a_late_condition_is_read_again_when_the_surface_changes() {
    let mut surface = Scripted::new(Some(600), Signals::OnChange);
    let out = run(&mut surface, &expectation(None, false), 60_000)
        .await
        .unwrap();
    assert_eq!(
        waited(&out),
        600,
        "read at the change, not at the next backoff"
    );
}

#[tokio::test(start_paused = true)]
async fn without_change_signals_the_readings_follow_the_backoff() {
    let mut surface = Scripted::new(None, Signals::Never);
    let failure = run(&mut surface, &expectation(Some(2000), false), 60_000)
        .await
        .unwrap_err();
    let at: Vec<u128> = surface.readings.iter().map(|d| d.as_millis()).collect();
    assert_eq!(at, vec![0, 10, 30, 80, 180, 430, 930, 1430, 1930, 2000]);
    assert_eq!(failure.code, FailureCode::TextMismatch);
}

#[tokio::test(start_paused = true)]
async fn a_surface_that_always_changes_is_not_read_in_a_busy_loop() {
    let mut surface = Scripted::new(None, Signals::Always);
    run(&mut surface, &expectation(Some(100), false), 60_000)
        .await
        .unwrap_err();
    for pair in surface.readings.windows(2) {
        assert!(pair[1] - pair[0] >= MIN_GAP, "{:?}", surface.readings);
    }
    assert!(surface.readings.len() <= 11, "{:?}", surface.readings);
}

#[tokio::test(start_paused = true)]
async fn a_condition_that_never_holds_fails_at_the_expect_timeout_naming_the_last_reading() {
    let mut surface = Scripted::new(None, Signals::OnChange);
    let failure = run(&mut surface, &expectation(None, false), 60_000)
        .await
        .unwrap_err();
    assert_eq!(failure.code, FailureCode::TextMismatch);
    assert_eq!(
        failure.message,
        "text = \"Ready\" did not hold within 5000 ms; last seen: nothing at +5000 ms (waited 5000 ms)"
    );
    assert_eq!(
        failure.waited,
        Some(Waited {
            waited_ms: 5000,
            last_seen: "nothing at +5000 ms".into()
        })
    );
}

#[tokio::test(start_paused = true)]
async fn a_value_failure_names_env_but_never_quotes_a_literal_value() {
    let target = Target::Css {
        selector: "#pw".into(),
    };
    let var = a3s_test_lang::ir::EnvVar::new("A3S_PASSWORD").unwrap();
    for (value, says) in [
        (
            a3s_test_lang::ir::TextValue::Env(var),
            "value = env(\"A3S_PASSWORD\") with target = css(\"#pw\") did not hold",
        ),
        (
            "hunter2".into(),
            "value with target = css(\"#pw\") did not hold",
        ),
    ] {
        let e = Expectation {
            condition: ExpectCondition::Value {
                target: target.clone(),
                value,
            },
            ..expectation(None, false)
        };
        let mut surface = Scripted::new(None, Signals::Never);
        let failure = run(&mut surface, &e, 60_000).await.unwrap_err();
        assert!(failure.message.starts_with(says), "{}", failure.message);
        assert!(!failure.message.contains("hunter2"), "{}", failure.message);
    }
}

#[tokio::test(start_paused = true)]
async fn a_step_timeout_beats_the_scenario_and_run_timeouts() {
    let mut surface = Scripted::new(Some(300), Signals::OnChange);
    let failure = run(&mut surface, &expectation(Some(200), false), 60_000)
        .await
        .unwrap_err();
    assert_eq!(failure.waited.unwrap().waited_ms, 200);
}

#[tokio::test(start_paused = true)]
async fn the_scenario_deadline_first_is_a_scenario_timeout() {
    let mut surface = Scripted::new(None, Signals::OnChange);
    let failure = run(&mut surface, &expectation(None, false), 1500)
        .await
        .unwrap_err();
    assert_eq!(failure.code, FailureCode::Timeout);
    assert!(
        failure
            .message
            .starts_with("the scenario deadline passed while expecting text = \"Ready\""),
        "{}",
        failure.message
    );
}

#[tokio::test(start_paused = true)]
async fn immediate_reads_once() {
    let mut surface = Scripted::new(Some(10), Signals::OnChange);
    let failure = run(&mut surface, &expectation(None, true), 60_000)
        .await
        .unwrap_err();
    assert_eq!(surface.readings, vec![Duration::ZERO]);
    assert!(
        failure.message.contains("immediate = true"),
        "{}",
        failure.message
    );
}

#[tokio::test(start_paused = true)]
async fn a_reading_that_cannot_be_made_ends_the_step_at_once() {
    let mut surface = Scripted::new(None, Signals::Never);
    surface.broken = Some(FailureCode::InvalidSelector);
    let failure = run(&mut surface, &expectation(None, false), 60_000)
        .await
        .unwrap_err();
    assert_eq!(failure.code, FailureCode::InvalidSelector);
    assert_eq!(surface.readings.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_stability_window_starts_at_the_first_reading_that_holds() {
    let window = Stability {
        stable_for_ms: 400,
        sample_interval_ms: 100,
    };
    // Holds from 300 ms on and stays: five samples from 300 to 700 ms.
    let mut surface = Scripted::new(Some(300), Signals::OnChange);
    let mut e = expectation(None, false);
    e.stability = Some(window);
    let out = run(&mut surface, &e, 60_000).await.unwrap();
    assert_eq!(waited(&out), 300);
    let last = surface.readings.last().unwrap().as_millis();
    assert_eq!(last, 700);

    // Holds from 300 ms to 450 ms: the sample at 500 ms is a change.
    let mut surface = Scripted::new(Some(300), Signals::OnChange);
    surface.leaves = Some(Duration::from_millis(450));
    let failure = run(&mut surface, &e, 60_000).await.unwrap_err();
    assert_eq!(failure.code, FailureCode::Unstable);
    assert!(
        failure.message.contains("sample 3 of 5 (at +200 ms)"),
        "{}",
        failure.message
    );
}

#[tokio::test(start_paused = true)]
async fn a_wait_has_only_the_scenario_deadline() {
    let dir = Folder::new();
    let condition = PageCondition::Visible {
        target: Target::Css {
            selector: "#late".into(),
        },
    };
    let mut surface = Scripted::new(Some(6000), Signals::OnChange);
    let out = wait(&mut surface, &condition, &step_env(&dir, 8000))
        .await
        .unwrap();
    assert!(matches!(
        out.detail,
        Some(StepDetail::Waited {
            waited_ms: 6000,
            ..
        })
    ));
    let mut surface = Scripted::new(None, Signals::OnChange);
    let failure = wait(&mut surface, &condition, &step_env(&dir, 500))
        .await
        .unwrap_err();
    assert_eq!(failure.code, FailureCode::Timeout);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A condition that arrives at `t` passes an expect timeout of `T` exactly when `t < T`,
    /// give or take one reading gap at the boundary — whether the surface reports changes or
    /// only the backoff brings the next reading (then the tolerance is one backoff step).
    #[test]
    fn a_condition_passes_exactly_when_it_arrives_before_the_timeout(
        t in 0u64..4000,
        timeout in 1u64..4000,
        signals in prop_oneof![Just(Signals::OnChange), Just(Signals::Never)],
    ) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let passed = rt.block_on(async {
            let mut surface = Scripted::new(Some(t), signals);
            let e = expectation(Some(timeout), false);
            run(&mut surface, &e, 60_000).await.is_ok()
        });
        let tolerance = match signals {
            Signals::OnChange => MIN_GAP.as_millis() as u64,
            _ => BACKOFF[BACKOFF.len() - 1].as_millis() as u64,
        };
        if t + tolerance < timeout {
            prop_assert!(passed, "arrived at {t} ms, timeout {timeout} ms");
        }
        if t > timeout {
            prop_assert!(!passed, "arrived at {t} ms, timeout {timeout} ms");
        }
    }
}
