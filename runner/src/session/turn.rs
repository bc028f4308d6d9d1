//! The bookkeeping every non-browser session engine does around a turn, written once: number
//! it, record it in `events.jsonl`, save `session.json`, and shape the answer (the next command
//! after an error, `closing` once the session ended). The terminal and desktop engines differ
//! only in what a turn *does*; their turn records must not drift apart.

use super::code::SessionError;
use super::event::{SessionEvent, TurnOutcome, TurnRecord};
use super::file::{append_event, now_ms, SessionFile};
use super::protocol::{Envelope, Replied, Request};
use a3s_test_fsroot::Dir;

/// Start a turn: its number, and the session's last-turn time.
pub(crate) fn begin(file: &mut SessionFile) -> u64 {
    let turn = file.next_turn;
    file.next_turn += 1;
    file.last_turn_at_ms = now_ms();
    turn
}

/// End turn `turn` of `request` with `result`: the event, the saved record (unless the turn
/// closed the session, whose close wrote it) and the answer.
pub(crate) fn end(
    file: &SessionFile,
    dir: &Dir,
    turn: u64,
    request: Request,
    result: Result<Replied, SessionError>,
    closing: bool,
) -> Envelope<Replied> {
    let outcome = TurnOutcome::of(&result);
    let event = SessionEvent::turn(TurnRecord {
        turn,
        request,
        outcome,
    });
    if !closing {
        if let Err(e) = file.save(dir) {
            return Envelope::error(e, None);
        }
    }
    let _ = append_event(dir, &event);
    let mut answer = match result {
        Ok(reply) => Envelope::reply(reply),
        Err(e) => {
            let next = super::next::after_error(file, e.code);
            Envelope::error(e, next)
        }
    };
    answer.closing = closing || file.state.is_closed();
    answer
}

/// What running one step of a turn needs from its engine.
pub(crate) struct StepPlace<'a> {
    /// The session's `artifacts/` folder.
    pub artifacts: &'a Dir,
    /// The project root (the step's working folder).
    pub root: &'a std::path::Path,
    /// Never fired: a turn is bounded by its deadline.
    pub cancel: &'a crate::cancel::CancelToken,
    /// How long an `expect` waits unless the statement says.
    pub expect_timeout: std::time::Duration,
    /// Bound on capturing failure evidence after a failed step.
    pub evidence_bound: std::time::Duration,
}

/// Run one admitted step of turn `turn` through the shared step runner; on a failure after
/// dispatch, the driver's evidence goes to `artifacts/turn-<turn>/failure/`.
pub(crate) async fn run_step<C: a3s_test_driver::SurfaceContext>(
    ctx: &mut C,
    place: StepPlace<'_>,
    turn: u64,
    step: &a3s_test_lang::ir::Step,
    deadline: tokio::time::Instant,
) -> Result<a3s_test_driver::StepOutput, a3s_test_driver::StepFailure> {
    use crate::step::{self, StepFailed};
    let env = a3s_test_driver::StepEnv {
        base_url: None,
        action_timeout: std::time::Duration::from_secs(5),
        expect_timeout: place.expect_timeout,
        deadline,
        deadline_name: "turn",
        artifact_dir: place.artifacts,
        working_dir: place.root,
        vars: &a3s_test_driver::ProcessVars::SESSION,
        snapshots: None,
    };
    let length = deadline
        .saturating_duration_since(tokio::time::Instant::now())
        .as_millis() as u64;
    let end = step::run_step(ctx, step, &env, place.cancel).await;
    let StepFailed {
        mut failure,
        capture,
    } = match end.into_result("turn", length) {
        Ok(output) => return Ok(output),
        Err(failed) => failed,
    };
    if capture {
        if let Ok(dir) = place
            .artifacts
            .create_dir_all(format!("turn-{turn}/failure"))
        {
            let captured = step::capture_failure_evidence(ctx, &dir, place.evidence_bound).await;
            failure.evidence.extend(captured.files);
            failure.missing_evidence.extend(captured.missing);
        }
    }
    Err(failure)
}

/// Close the context and the driver and check the program's group `pgid` is gone; the
/// problems found (none when everything stopped).
pub(crate) async fn shutdown<D: a3s_test_driver::SurfaceDriver>(
    ctx: Option<D::Context>,
    driver: &D,
    pgid: u32,
) -> Vec<String> {
    use a3s_test_driver::SurfaceContext;
    let mut problems = Vec::new();
    if let Some(ctx) = ctx {
        if let Err(e) = ctx.close().await {
            problems.push(e.to_string());
        }
    }
    if let Err(e) = driver.shutdown().await {
        problems.push(e.to_string());
    }
    problems.extend(super::engine::group_survivors(pgid, "program"));
    problems
}

/// What a program session engine (terminal, desktop) does in a turn of its own; [`handle`] and
/// [`close`] do the rest once, so the two answer every request kind the same way: an
/// observation, a statement, finish, abort, and the refusal of whatever needs a page.
pub(crate) trait ProgramTurns: super::supervisor::Served {
    /// The verbs this session has, named in the refusal of a request that needs a page.
    const DRIVES: &'static str;

    /// The record and the folder together (closing writes one into the other).
    fn parts(&mut self) -> (&mut SessionFile, &Dir);

    /// Observe now, bounded by the turn's deadline (the view already admitted).
    fn turn_observe(
        &mut self,
        view: &super::view::ViewRequest,
    ) -> impl std::future::Future<Output = Result<super::view::Observation, SessionError>>;

    /// The view options this surface honours (refused: nothing observed, nothing ended).
    fn admit_view(view: &super::view::ViewRequest) -> Result<(), SessionError>;

    /// Forget the latest observation: its refs or screen are no longer current.
    fn end_observation(&mut self);

    /// Run turn `turn`'s statement through the engine's gates.
    fn turn_exec(
        &mut self,
        turn: u64,
        exec: &super::protocol::Exec,
    ) -> impl std::future::Future<Output = Result<super::reply::Executed, SessionError>>;

    /// Stop the program (and what hosts it) and list what did not stop.
    fn turn_shutdown(&mut self) -> impl std::future::Future<Output = Vec<String>>;
}

/// Serve one request of a program session.
pub(crate) async fn handle<E: ProgramTurns>(engine: &mut E, request: Request) -> Envelope<Replied> {
    use super::code::SessionCode;
    use super::protocol::{self, Call, Exec, Finish, FinishStatus};
    use super::view::ViewRequest;
    let turn = begin(engine.parts().0);
    let closing = matches!(request, Request::Finish(_) | Request::Abort(_));
    let result = match &request {
        Request::Observe(view) => {
            // A view refused as asked changes nothing; a failed observation ends the one
            // before it (what the agent meant to look at is unknown).
            let seen = match E::admit_view(view) {
                Ok(()) => engine.turn_observe(view).await,
                Err(e) => Err(e),
            };
            if seen
                .as_ref()
                .is_err_and(|e| e.code != SessionCode::InvalidInput)
            {
                engine.end_observation();
            }
            ViewRequest::answered(seen)
        }
        Request::Exec(exec) => {
            let result = engine.turn_exec(turn, exec).await;
            Exec::answered(
                result
                    .map(Into::into)
                    .map_err(|e| super::answer::refused(e, &exec.statement)),
            )
        }
        Request::Finish(Finish {
            status, summary, ..
        }) => {
            let status = match status {
                FinishStatus::Passed => "passed",
                FinishStatus::Failed => "failed",
            };
            Finish::answered(
                close(
                    engine,
                    super::file::SessionState::Finished,
                    status,
                    Some(summary.clone()),
                )
                .await,
            )
        }
        Request::Abort(abort) => protocol::Abort::answered(
            close(
                engine,
                super::file::SessionState::Aborted,
                "aborted",
                abort.reason.clone(),
            )
            .await,
        ),
        other => Err(SessionError::new(
            SessionCode::Capability,
            format!(
                "`{}` needs a page; this session drives {}",
                other.op(),
                E::DRIVES
            ),
        )),
    };
    end(engine.file(), engine.dir(), turn, request, result, closing)
}

/// Close a program session: stop its processes, verify they are gone, write the report.
pub(crate) async fn close<E: ProgramTurns>(
    engine: &mut E,
    state: super::file::SessionState,
    status: &str,
    summary: Option<String>,
) -> Result<super::reply::Closing, SessionError> {
    let problems = engine.turn_shutdown().await;
    let (file, dir) = engine.parts();
    super::engine::record_close(file, dir, state, status, summary, problems, None)
}

/// A program session just started: its record (active, saved, `started` recorded), its
/// `artifacts/` folder, the driver and the context that runs the program.
pub(crate) struct Started<D: a3s_test_driver::SurfaceDriver> {
    pub file: SessionFile,
    pub artifacts: Dir,
    pub driver: D,
    pub ctx: D::Context,
}

/// How a program session starts, whichever surface hosts the program.
pub(crate) struct ProgramStart<'a> {
    /// The surface the context is opened on.
    pub surface: a3s_test_lang::ir::Surface,
    /// What hosts the program, for messages ("terminal", "desktop").
    pub host: &'a str,
    /// The bound on launching the driver and, again, on starting the program.
    pub launch_timeout: std::time::Duration,
}

/// Launch the driver through `launcher`, start the program (both bounded), record who owns
/// which process group and mark the session in `dir` active. `program` names the program
/// from the record the CLI wrote; `process` reads the program's pid and group from its context.
pub(crate) async fn start_program<L: crate::executor::DriverLauncher>(
    launcher: L,
    dir: &Dir,
    token: String,
    how: ProgramStart<'_>,
    program: impl FnOnce(&SessionFile) -> String,
    process: impl FnOnce(
        &<L::Driver as a3s_test_driver::SurfaceDriver>::Context,
    ) -> a3s_test_driver::BrowserProcess,
) -> Result<Started<L::Driver>, SessionError> {
    use super::code::SessionCode;
    use super::file::{Ownership, SessionState};
    use a3s_test_driver::SurfaceDriver;
    let mut file = SessionFile::load(dir)?;
    let artifacts = dir
        .create_dir_all("artifacts")
        .map_err(|e| SessionError::fs(&e))?;
    let program = program(&file);
    let failed = |what: &str, e: a3s_test_driver::DriverError| {
        SessionError::new(
            SessionCode::Supervisor,
            format!("failed to {what} `{program}`: {}: {}", e.code, e.message),
        )
    };
    let driver = launcher
        .launch(how.launch_timeout)
        .await
        .map_err(|e| failed(&format!("set up the {} of", how.host), e))?;
    let options = a3s_test_driver::ContextOptions {
        surface: Some(how.surface),
        ..a3s_test_driver::ContextOptions::default()
    };
    let ctx = tokio::time::timeout(how.launch_timeout, driver.new_context(options))
        .await
        .map_err(|_| {
            SessionError::new(
                SessionCode::Supervisor,
                format!("`{program}` did not start within {:?}", how.launch_timeout),
            )
        })?
        .map_err(|e| failed("start", e))?;
    let process = process(&ctx);
    let start_of = |pid: u32| a3s_test_driver::process::start_time(pid).unwrap_or(0);
    file.ownership = Ownership {
        supervisor_pid: std::process::id(),
        supervisor_pgid: a3s_test_driver::process::own_pgid(),
        browser_pid: process.pid,
        browser_pgid: process.pgid,
        supervisor_start: start_of(std::process::id()),
        browser_start: start_of(process.pid),
        token,
    };
    file.state = SessionState::Active;
    file.last_turn_at_ms = now_ms();
    file.save(dir)?;
    append_event(dir, &SessionEvent::Started { url: program })?;
    Ok(Started {
        file,
        artifacts,
        driver,
        ctx,
    })
}
