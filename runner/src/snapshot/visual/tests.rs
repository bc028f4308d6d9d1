//! The capture loop of a visual expectation against a scripted surface on paused time: the first
//! capture is compared at once, later ones only when two in a row are equal, a baseline is
//! written only as the update mode says, and a page that never holds still fails saying so.

use super::*;
use a3s_test_driver::snapshot::{SnapshotSettings, SuiteEdits};
use a3s_test_driver::{ConditionSample, DriverError, FailureEvidence, MapVars};
use a3s_test_lang::ir::{Animations, ExpectCondition, SnapshotName, Step};
use std::collections::VecDeque;
use std::sync::Arc;

/// Answers each capture with the next image of a script (the last one repeats).
struct Frames {
    frames: VecDeque<Rgba>,
    captures: usize,
}

impl Frames {
    fn new(frames: Vec<Rgba>) -> Frames {
        Frames {
            frames: frames.into(),
            captures: 0,
        }
    }
}

impl SurfaceContext for Frames {
    async fn apply_context(
        &mut self,
        _: &a3s_test_lang::ir::ContextSettings,
        _: &dyn a3s_test_driver::vars::VarSource,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "the scripted surface has no browser context",
        ))
    }

    async fn execute(&mut self, _: &Step, _: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        unreachable!("a visual expectation only captures")
    }

    async fn check(
        &mut self,
        _: &ExpectCondition,
        _: Option<Duration>,
        _: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        unreachable!("a visual expectation only captures")
    }

    async fn capture(
        &mut self,
        _: CaptureRequest<'_>,
        _: &StepEnv<'_>,
    ) -> Result<Captured, StepFailure> {
        self.captures += 1;
        let frame = if self.frames.len() > 1 {
            self.frames.pop_front().unwrap()
        } else {
            self.frames[0].clone()
        };
        Ok(Captured::Png(encode_png(&frame)))
    }

    async fn capture_failure_evidence(
        &mut self,
        _: &a3s_test_fsroot::Dir,
        _: Instant,
    ) -> FailureEvidence {
        unreachable!()
    }

    async fn load_storage_state(
        &mut self,
        _: &a3s_test_driver::storage_state::StorageState,
        _: Instant,
    ) -> Result<(), StepFailure> {
        unreachable!()
    }

    async fn close(self) -> Result<(), DriverError> {
        Ok(())
    }
}

fn solid(v: u8) -> Rgba {
    Rgba {
        width: 4,
        height: 4,
        pixels: [v, v, v, 255].repeat(16),
    }
}

fn visual() -> VisualExpectation {
    VisualExpectation {
        name: SnapshotName::parse("box.png").unwrap(),
        budget: DiffBudget::Pixels(0),
        threshold: 0.2,
        mask: Vec::new(),
        full_page: false,
        animations: Animations::Disabled,
    }
}

static NO_VARS: MapVars = MapVars(std::collections::BTreeMap::new());

struct Suite {
    temp: tempfile::TempDir,
    artifacts: a3s_test_fsroot::Dir,
    settings: SnapshotSettings,
}

impl Suite {
    fn new(update: UpdateSnapshots, baseline: Option<&Rgba>) -> Suite {
        let temp = tempfile::tempdir().unwrap();
        std::fs::create_dir(temp.path().join("runs")).unwrap();
        let artifacts = a3s_test_fsroot::Dir::open_anchor(&temp.path().join("runs")).unwrap();
        let settings = SnapshotSettings::for_suite(
            temp.path().join("s.acl"),
            update,
            Arc::new(SuiteEdits::default()),
        );
        if let Some(image) = baseline {
            std::fs::create_dir(&settings.dir).unwrap();
            std::fs::write(
                settings.dir.join(format!("box-{}.png", settings.platform)),
                encode_png(image),
            )
            .unwrap();
        }
        Suite {
            temp,
            artifacts,
            settings,
        }
    }

    fn env(&self) -> StepEnv<'_> {
        StepEnv {
            base_url: None,
            action_timeout: Duration::from_secs(5),
            expect_timeout: Duration::from_secs(5),
            deadline: Instant::now() + Duration::from_secs(60),
            deadline_name: "scenario",
            artifact_dir: &self.artifacts,
            working_dir: self.temp.path(),
            snapshots: Some(&self.settings),
            vars: &NO_VARS,
        }
    }

    fn baseline(&self) -> Option<Rgba> {
        Baseline::of(&self.settings, &visual().name).read().unwrap()
    }
}

#[tokio::test(start_paused = true)]
async fn a_page_that_already_matches_costs_one_capture() {
    let suite = Suite::new(UpdateSnapshots::None, Some(&solid(10)));
    let mut page = Frames::new(vec![solid(10)]);
    let out = expect(
        &mut page,
        &visual(),
        Some(Duration::from_secs(5)),
        &suite.env(),
    )
    .await;
    assert!(out.is_ok(), "{out:?}");
    assert_eq!(page.captures, 1);
}

#[tokio::test(start_paused = true)]
async fn later_captures_count_only_once_two_in_a_row_are_equal() {
    let suite = Suite::new(UpdateSnapshots::None, Some(&solid(10)));
    // Still moving (200, 150, 10), then still on the baseline (10, 10).
    let mut page = Frames::new(vec![solid(200), solid(150), solid(10), solid(10)]);
    let out = expect(
        &mut page,
        &visual(),
        Some(Duration::from_secs(5)),
        &suite.env(),
    )
    .await;
    assert!(out.is_ok(), "{out:?}");
    assert_eq!(page.captures, 4);
}

#[tokio::test(start_paused = true)]
async fn a_stable_page_that_differs_fails_with_the_counts_and_three_images() {
    let suite = Suite::new(UpdateSnapshots::None, Some(&solid(10)));
    let mut page = Frames::new(vec![solid(250)]);
    let failure = expect(
        &mut page,
        &visual(),
        Some(Duration::from_secs(2)),
        &suite.env(),
    )
    .await
    .unwrap_err();
    assert_eq!(failure.code, FailureCode::ScreenshotMismatch);
    assert!(
        failure
            .message
            .contains("16 pixels differ (100.00% of 16), 0 allowed"),
        "{}",
        failure.message
    );
    let kinds: Vec<EvidenceKind> = failure.evidence.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EvidenceKind::SnapshotExpected,
            EvidenceKind::SnapshotActual,
            EvidenceKind::SnapshotDiff
        ]
    );
    assert_eq!(suite.baseline(), Some(solid(10)), "nothing written");
}

#[tokio::test(start_paused = true)]
async fn a_page_that_never_holds_still_fails_saying_so() {
    let suite = Suite::new(UpdateSnapshots::All, Some(&solid(10)));
    let frames = (0..200).map(|i| solid(100 + (i % 2) as u8 * 50)).collect();
    let mut page = Frames::new(frames);
    let failure = expect(
        &mut page,
        &visual(),
        Some(Duration::from_secs(2)),
        &suite.env(),
    )
    .await
    .unwrap_err();
    assert_eq!(failure.code, FailureCode::ScreenshotMismatch);
    assert!(
        failure.message.contains("never held still"),
        "{}",
        failure.message
    );
    assert_eq!(
        suite.baseline(),
        Some(solid(10)),
        "an unstable page is never written"
    );
}

#[tokio::test(start_paused = true)]
async fn update_modes_write_what_they_say() {
    // `all`: a stable page that differs replaces the baseline, and the step passes.
    let suite = Suite::new(UpdateSnapshots::All, Some(&solid(10)));
    let mut page = Frames::new(vec![solid(250)]);
    expect(
        &mut page,
        &visual(),
        Some(Duration::from_secs(2)),
        &suite.env(),
    )
    .await
    .unwrap();
    assert_eq!(suite.baseline(), Some(solid(250)));
    // `missing`: a differing page fails and the baseline stays.
    let suite = Suite::new(UpdateSnapshots::Missing, Some(&solid(10)));
    let mut page = Frames::new(vec![solid(250)]);
    assert!(expect(
        &mut page,
        &visual(),
        Some(Duration::from_secs(2)),
        &suite.env()
    )
    .await
    .is_err());
    assert_eq!(suite.baseline(), Some(solid(10)));
    // No baseline: `missing` writes it and passes; the default outside CI writes it and fails;
    // `none` writes nothing and fails.
    for (update, passes, written) in [
        (UpdateSnapshots::Missing, true, true),
        (UpdateSnapshots::MissingFails, false, true),
        (UpdateSnapshots::None, false, false),
    ] {
        let suite = Suite::new(update, None);
        let mut page = Frames::new(vec![solid(40)]);
        let out = expect(
            &mut page,
            &visual(),
            Some(Duration::from_secs(2)),
            &suite.env(),
        )
        .await;
        assert_eq!(out.is_ok(), passes, "{update:?}: {out:?}");
        if let Err(f) = out {
            assert_eq!(f.code, FailureCode::SnapshotMissing);
            assert_eq!(f.evidence[0].kind, EvidenceKind::SnapshotActual);
        }
        assert_eq!(suite.baseline().is_some(), written, "{update:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn immediate_compares_its_one_capture() {
    let suite = Suite::new(UpdateSnapshots::None, Some(&solid(10)));
    let mut page = Frames::new(vec![solid(250)]);
    let failure = expect(&mut page, &visual(), None, &suite.env())
        .await
        .unwrap_err();
    assert_eq!(failure.code, FailureCode::ScreenshotMismatch);
    assert!(
        failure.message.contains("16 pixels differ"),
        "{}",
        failure.message
    );
    assert_eq!(page.captures, 1);
}
