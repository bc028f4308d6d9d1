//! Real processes: every check below is a real `sh`/`sleep` run in an owned group.

use super::*;
use a3s_test_driver::process::ProcessInfo;
use a3s_test_lang::ir::CheckTier;
use std::path::PathBuf;

fn check(id: &str, command: &[&str], timeout_ms: u64) -> VerificationCheck {
    VerificationCheck {
        id: id.into(),
        tier: CheckTier::Focused,
        command: command.iter().map(|s| s.to_string()).collect(),
        file_prefixes: Vec::new(),
        timeout_ms,
    }
}

/// A project root and a session folder with its evidence dir.
struct Fixture {
    root: tempfile::TempDir,
    session: tempfile::TempDir,
    evidence: EvidenceDir,
}

impl Fixture {
    fn new() -> Fixture {
        let root = tempfile::tempdir().unwrap();
        let session = tempfile::tempdir().unwrap();
        let folder = a3s_test_fsroot::Dir::open_anchor(session.path()).unwrap();
        let evidence =
            EvidenceDir::create(&folder, "artifacts/repairs/f1/a1/verify/checks").unwrap();
        Fixture {
            root,
            session,
            evidence,
        }
    }

    async fn run(&self, checks: &[VerificationCheck], opts: &CheckOptions) -> Vec<CheckResult> {
        let refs: Vec<&VerificationCheck> = checks.iter().collect();
        run_checks(self.root.path(), &refs, &self.evidence, opts)
            .await
            .unwrap()
    }

    async fn one(&self, check: VerificationCheck) -> CheckResult {
        self.run(&[check], &CheckOptions::default())
            .await
            .pop()
            .unwrap()
    }

    /// One check running `sh -c script`, with the default options.
    async fn sh(&self, id: &str, script: &str, timeout_ms: u64) -> CheckResult {
        self.one(check(id, &["sh", "-c", script], timeout_ms)).await
    }

    fn read(&self, e: &Option<EvidenceRef>) -> Vec<u8> {
        let e = e.as_ref().expect("evidence kept");
        std::fs::read(self.session.path().join(&e.path)).unwrap()
    }

    fn pid_file(&self) -> PathBuf {
        self.root.path().join("pid")
    }

    /// The pid the check wrote into `pid` (in the project root, its cwd).
    fn written_pid(&self) -> i32 {
        std::fs::read_to_string(self.pid_file())
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }
}

/// Gone: no such process, or only a zombie waiting for its new parent to reap it.
fn gone(pid: i32) -> bool {
    ProcessInfo::read(pid).is_none_or(|p| p.is_zombie())
}

/// Whether `pid` is gone within a bound. A killed process closes its files before the kernel
/// marks it a zombie, so a check that ended on its pipe's end-of-file may see it exiting for a
/// moment longer (on a loaded machine, long enough to read it in between).
async fn gone_soon(pid: i32) -> bool {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while !gone(pid) {
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    true
}

#[tokio::test]
async fn a_passing_check_keeps_both_streams_with_their_digests() {
    let f = Fixture::new();
    let r = f.sh("ok", "echo hello; echo warn >&2", 10_000).await;
    assert_eq!(r.outcome, CheckOutcome::Passed, "{r:?}");
    assert_eq!(
        (r.mode, r.exit_code, &r.message),
        (CheckMode::Executed, Some(0), &None)
    );
    let out = r.stdout.as_ref().unwrap();
    assert_eq!(out.kind, EvidenceKind::CheckStdout);
    assert_eq!(
        out.path,
        "artifacts/repairs/f1/a1/verify/checks/01-ok.stdout.log"
    );
    assert_eq!(f.read(&r.stdout), b"hello\n");
    assert_eq!(out.sha256, sha256(b"hello\n"));
    assert_eq!(out.bytes, 6);
    assert_eq!(f.read(&r.stderr), b"warn\n");
    assert_eq!(r.stderr.as_ref().unwrap().kind, EvidenceKind::CheckStderr);
    assert!(first_failure(&[r]).is_none());
}

#[tokio::test]
async fn a_check_that_exits_1_fails_and_keeps_its_exit_code() {
    let f = Fixture::new();
    let r = f.sh("unit", "echo boom >&2; exit 1", 10_000).await;
    assert_eq!((r.outcome, r.exit_code), (CheckOutcome::Failed, Some(1)));
    assert_eq!(f.read(&r.stderr), b"boom\n");
    let failure = first_failure(&[r]).unwrap();
    assert_eq!(failure.step, VerifyStep::Checks);
    assert_eq!(failure.code, "test.session.repair_check_failed");
    assert_eq!(failure.message, "check `unit` failed with exit code 1");
}

#[tokio::test]
async fn a_check_past_its_deadline_times_out_and_is_stopped() {
    let f = Fixture::new();
    let started = std::time::Instant::now();
    let r = f.sh("slow", "echo $$ > pid; exec sleep 30", 200).await;
    assert_eq!(r.outcome, CheckOutcome::TimedOut, "{r:?}");
    assert_eq!(r.exit_code, None);
    assert!(r.duration_ms >= 200, "{r:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(gone(f.written_pid()), "the timed-out sleep must be gone");
    assert_eq!(
        first_failure(&[r]).unwrap().code,
        "test.session.repair_check_timeout"
    );
}

#[tokio::test]
async fn a_check_that_ignores_sigterm_is_killed_after_the_cleanup_timeout() {
    let f = Fixture::new();
    let opts = CheckOptions {
        cleanup_timeout: Duration::from_millis(300),
        ..CheckOptions::default()
    };
    let script = "trap '' TERM; echo $$ > pid.tmp; mv pid.tmp pid; while :; do sleep 1; done";
    let started = std::time::Instant::now();
    let r = f
        .run(&[check("stubborn", &["sh", "-c", script], 200)], &opts)
        .await
        .pop()
        .unwrap();
    assert_eq!(r.outcome, CheckOutcome::TimedOut, "{r:?}");
    assert!(
        started.elapsed() >= Duration::from_millis(500),
        "TERM was ignored: KILL came after the cleanup timeout"
    );
    assert!(gone(f.written_pid()));
}

#[test]
fn selection_follows_the_slice_and_catches_unknown_ids() {
    let catalog = [check("a", &["true"], 1), check("b", &["true"], 1)];
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let picked: Vec<&str> = select(&catalog, &ids(&["b", "a"]))
        .unwrap()
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(picked, ["b", "a"]);
    assert_eq!(
        select(&catalog, &ids(&["a", "zz"])).unwrap_err(),
        UnknownCheck("zz".into())
    );
}

#[tokio::test]
async fn a_double_forked_child_is_a_surviving_descendant_and_is_killed() {
    let f = Fixture::new();
    let r = f
        .sh("forks", "(sleep 60 & echo $! > pid); exit 0", 10_000)
        .await;
    assert_eq!(r.outcome, CheckOutcome::SurvivingDescendant, "{r:?}");
    assert_eq!(r.exit_code, Some(0), "the main process itself exited 0");
    let pid = f.written_pid();
    assert!(gone(pid), "the double-forked sleep {pid} must be gone");
    assert!(
        r.message.as_deref().unwrap().contains(&pid.to_string()),
        "{r:?}"
    );
    assert_eq!(
        first_failure(&[r]).unwrap().code,
        "test.session.repair_check_survivor"
    );
}

#[tokio::test]
async fn a_helper_that_left_the_group_but_holds_the_output_is_found_and_killed() {
    let f = Fixture::new();
    // The helper writes its pid only after `setsid`, and the check exits only after that, so
    // it really is outside the group when the check ends.
    let script = r#"setsid sh -c 'echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 60' &
        while [ ! -s pid ]; do :; done; exit 0"#;
    let r = f.sh("escapes", script, 10_000).await;
    let pid = f.written_pid();
    assert_eq!(r.outcome, CheckOutcome::SurvivingDescendant, "{r:?}");
    assert!(gone_soon(pid).await, "the escaped sleep {pid} must be gone");
    let message = r.message.unwrap();
    assert!(message.contains("had left its process group"), "{message}");
    assert!(message.contains(&pid.to_string()), "{message}");
}

#[tokio::test]
async fn output_is_bounded_to_its_last_bytes_and_says_it_was_truncated() {
    let f = Fixture::new();
    let opts = CheckOptions {
        output_limit: 1024,
        ..CheckOptions::default()
    };
    let script = "i=0; while [ $i -lt 2000 ]; do echo line-$i; i=$((i+1)); done";
    let r = f
        .run(&[check("loud", &["sh", "-c", script], 20_000)], &opts)
        .await
        .pop()
        .unwrap();
    assert_eq!(r.outcome, CheckOutcome::Passed, "{r:?}");
    let bytes = f.read(&r.stdout);
    let text = String::from_utf8(bytes.clone()).unwrap();
    let (header, tail) = text.split_once('\n').unwrap();
    assert!(
        header.starts_with("[a3s-test: stdout truncated: the first "),
        "{header}"
    );
    assert_eq!(tail.len(), 1024);
    assert!(tail.ends_with("line-1999\n"));
    assert_eq!(r.stdout.as_ref().unwrap().bytes, bytes.len() as u64);
    assert_eq!(
        r.message.as_deref(),
        Some("stdout truncated to its last 1024 bytes")
    );
}

#[tokio::test]
async fn a_check_runs_in_the_project_root() {
    let f = Fixture::new();
    let r = f.one(check("where", &["pwd", "-P"], 10_000)).await;
    assert_eq!(r.outcome, CheckOutcome::Passed);
    let want = format!("{}\n", f.root.path().canonicalize().unwrap().display());
    assert_eq!(String::from_utf8(f.read(&r.stdout)).unwrap(), want);
}

#[tokio::test]
async fn a_relative_program_is_the_projects_own() {
    let f = Fixture::new();
    // A link to `echo`, not a freshly written script: exec'ing a file just written can meet
    // ETXTBSY while another test thread forks.
    std::fs::create_dir_all(f.root.path().join("scripts")).unwrap();
    std::os::unix::fs::symlink(which("echo"), f.root.path().join("scripts/say")).unwrap();
    let r = f
        .one(check(
            "script",
            &["./scripts/say", "from-the-project"],
            10_000,
        ))
        .await;
    assert_eq!(r.outcome, CheckOutcome::Passed, "{r:?}");
    assert_eq!(f.read(&r.stdout), b"from-the-project\n");
}

/// `program`'s path on `PATH`.
fn which(program: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap()
}

#[tokio::test]
async fn no_shell_interprets_the_arguments() {
    let f = Fixture::new();
    let r = f
        .one(check("argv", &["echo", "$HOME", "a;b", "*"], 10_000))
        .await;
    assert_eq!(f.read(&r.stdout), b"$HOME a;b *\n");
}

#[tokio::test]
async fn checks_run_in_order_and_a_missing_program_is_a_spawn_failure() {
    let f = Fixture::new();
    let checks = [
        check("first", &["sh", "-c", "exit 3"], 10_000),
        check(
            "missing",
            &["/nonexistent/a3s-test-no-such-program"],
            10_000,
        ),
        check("last", &["true"], 10_000),
    ];
    let results = f.run(&checks, &CheckOptions::default()).await;
    let got: Vec<(&str, CheckOutcome)> =
        results.iter().map(|r| (r.id.as_str(), r.outcome)).collect();
    assert_eq!(
        got,
        [
            ("first", CheckOutcome::Failed),
            ("missing", CheckOutcome::SpawnFailed),
            ("last", CheckOutcome::Passed),
        ]
    );
    assert!(results[1].stdout.is_none() && results[1].stderr.is_none());
    assert!(results[2]
        .stdout
        .as_ref()
        .unwrap()
        .path
        .ends_with("/03-last.stdout.log"));
    // The first failure in order names the verification's failure.
    assert_eq!(
        first_failure(&results).unwrap().code,
        "test.session.repair_check_failed"
    );
    assert_eq!(
        outcome_code(CheckOutcome::SpawnFailed),
        Some(SessionCode::RepairCheckSpawn)
    );
}

#[tokio::test]
async fn cancelling_stops_the_running_check_and_keeps_the_finished_ones() {
    let f = Fixture::new();
    let cancel = CancelToken::new();
    let opts = CheckOptions {
        cancel: Some(cancel.clone()),
        ..CheckOptions::default()
    };
    let pid_file = f.pid_file();
    // Cancel once the long check has really started (it wrote its pid), within a deadline.
    let canceller = tokio::spawn(async move {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !pid_file.exists() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        cancel.cancel();
    });
    let checks = [
        check("quick", &["true"], 10_000),
        check(
            "long",
            &[
                "sh",
                "-c",
                "echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 30",
            ],
            30_000,
        ),
    ];
    let refs: Vec<&VerificationCheck> = checks.iter().collect();
    let err = run_checks(f.root.path(), &refs, &f.evidence, &opts)
        .await
        .unwrap_err();
    canceller.await.unwrap();
    let CheckRunError::Interrupted { completed } = &err else {
        panic!("{err}")
    };
    assert_eq!(completed.len(), 1);
    assert_eq!(completed[0].outcome, CheckOutcome::Passed);
    assert_eq!(err.code(), SessionCode::RepairCheckInterrupted);
    assert!(gone(f.written_pid()), "the interrupted check must be gone");
}

#[test]
fn evidence_dirs_are_confined() {
    let session = tempfile::tempdir().unwrap();
    let folder = a3s_test_fsroot::Dir::open_anchor(session.path()).unwrap();
    for bad in ["../x", "/abs", ""] {
        assert!(EvidenceDir::create(&folder, bad).is_err(), "{bad}");
    }
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), session.path().join("artifacts")).unwrap();
    let err = EvidenceDir::create(&folder, "artifacts/repairs").unwrap_err();
    assert_eq!(
        err.code(),
        a3s_test_driver::failure::FailureCode::UnsafePath
    );
    assert!(std::fs::read_dir(elsewhere.path())
        .unwrap()
        .next()
        .is_none());
}

mod caller_results {
    use super::*;
    use proptest::prelude::*;

    fn catalog() -> Vec<VerificationCheck> {
        vec![
            check("unit", &["true"], 1_000),
            check("e2e", &["true"], 1_000),
        ]
    }

    fn parse(json: &str) -> Result<Vec<CheckResult>, CallerResultsError> {
        parse_caller_results(json.as_bytes(), &catalog())
    }

    #[test]
    fn reads_the_documented_shape_as_caller_reported() {
        let results = parse(
            r#"{"protocol":"a3s.test.repair-check-results/1","checks":[
                {"id":"unit","passed":true,"exitCode":0,"durationMs":812,"summary":"41 passed"},
                {"id":"e2e","passed":false}]}"#,
        )
        .unwrap();
        assert_eq!(
            results,
            [
                CheckResult {
                    exit_code: Some(0),
                    duration_ms: 812,
                    ..caller_reported(
                        "unit".into(),
                        CheckOutcome::Passed,
                        Some("41 passed".into())
                    )
                },
                caller_reported("e2e".into(), CheckOutcome::Failed, None),
            ]
        );
        let failure = first_failure(&results[1..]).unwrap();
        assert_eq!(
            failure.message,
            "check `e2e` failed (reported by the caller)"
        );
    }

    #[test]
    fn refuses_every_malformed_report_with_one_code() {
        let p = r#""protocol":"a3s.test.repair-check-results/1""#;
        let cases = [
            (format!(r#"{{{p},"checks":[]}}"#), "list no check"),
            (
                r#"{"protocol":"a3s.test.repair-check-results/2","checks":[]}"#.to_string(),
                "declare protocol",
            ),
            (
                format!(r#"{{{p},"checks":[{{"id":"lint","passed":true}}]}}"#),
                "not in the project",
            ),
            (
                format!(
                    r#"{{{p},"checks":[{{"id":"unit","passed":true}},{{"id":"unit","passed":true}}]}}"#
                ),
                "reported twice",
            ),
            (
                format!(r#"{{{p},"checks":[{{"id":"unit","passed":true,"exitCode":2}}]}}"#),
                "passed with exit code 2",
            ),
            (
                format!(r#"{{{p},"checks":[{{"id":"unit","passed":true,"verdict":"trust me"}}]}}"#),
                "unknown field",
            ),
            (
                format!(r#"{{{p},"checks":[{{"id":"unit"}}]}}"#),
                "missing field",
            ),
            (format!(r#"{{{p},{p},"checks":[]}}"#), "duplicate field"),
            (
                format!(r#"{{{p},"checks":[{{"id":"unit","passed":"yes"}}]}}"#),
                "invalid type",
            ),
            (
                format!(
                    r#"{{{p},"checks":[{{"id":"unit","passed":true,"summary":"{}"}}]}}"#,
                    "x".repeat(MAX_SUMMARY_CHARS + 1)
                ),
                "longer than",
            ),
            (
                format!(r#"{{{p},"checks":[{{"id":"unit","passed":true,"summary":"a\u0000b"}}]}}"#),
                "NUL",
            ),
            (
                "not json".to_string(),
                "not a `a3s.test.repair-check-results/1` document",
            ),
        ];
        for (json, want) in cases {
            let err = parse(&json).unwrap_err();
            assert!(err.to_string().contains(want), "{json}: {err}");
            assert_eq!(err.code(), SessionCode::RepairCheckResults);
        }
        let big = vec![b' '; MAX_RESULTS_BYTES + 1];
        assert!(matches!(
            parse_caller_results(&big, &catalog()),
            Err(CallerResultsError::TooLarge { .. })
        ));
    }

    #[test]
    fn a_selected_check_left_out_of_the_report_is_unreported() {
        let results = parse(
            r#"{"protocol":"a3s.test.repair-check-results/1","checks":[{"id":"e2e","passed":true}]}"#,
        )
        .unwrap();
        let selected = vec!["unit".to_string(), "e2e".to_string()];
        assert_eq!(unreported(&selected, &results), ["unit"]);
        assert!(unreported(&selected[1..], &results).is_empty());
    }

    #[test]
    fn a_file_is_read_bounded_and_must_be_regular() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("results.json");
        std::fs::write(
            &file,
            r#"{"protocol":"a3s.test.repair-check-results/1","checks":[{"id":"unit","passed":true}]}"#,
        )
        .unwrap();
        assert_eq!(read_caller_results(&file, &catalog()).unwrap().len(), 1);
        std::fs::write(&file, vec![b' '; MAX_RESULTS_BYTES * 4]).unwrap();
        assert!(matches!(
            read_caller_results(&file, &catalog()),
            Err(CallerResultsError::TooLarge { .. })
        ));
        assert!(matches!(
            read_caller_results(dir.path(), &catalog()),
            Err(CallerResultsError::Unreadable { .. })
        ));
        assert!(matches!(
            read_caller_results(&dir.path().join("missing"), &catalog()),
            Err(CallerResultsError::Unreadable { .. })
        ));
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = parse_caller_results(&bytes, &catalog());
        }

        #[test]
        fn near_valid_documents_never_panic_and_never_invent_a_pass(
            id in "[a-z0-9]{0,6}",
            passed in any::<bool>(),
            exit in proptest::option::of(any::<i32>()),
            extra in "[ -~]{0,24}",
        ) {
            let exit = exit.map(|e| format!(r#","exitCode":{e}"#)).unwrap_or_default();
            let json = format!(
                r#"{{"protocol":"a3s.test.repair-check-results/1","checks":[{{"id":"{id}","passed":{passed}{exit}}}]}}{extra}"#
            );
            if let Ok(results) = parse_caller_results(json.as_bytes(), &catalog()) {
                prop_assert_eq!(results.len(), 1);
                prop_assert!(id == "unit" || id == "e2e");
                prop_assert_eq!(results[0].outcome.passed(), passed);
                prop_assert_eq!(results[0].mode, CheckMode::CallerReported);
            }
        }
    }
}

/// The judgement itself is pure: what a check left behind decides its outcome, cleanup failures
/// first (a SIGKILL that did not stop the group cannot be produced on demand by a real process).
#[test]
fn cleanup_failures_outrank_every_other_ending() {
    use std::os::unix::process::ExitStatusExt;
    let c = check("c", &["true"], 100);
    let opts = CheckOptions::default();
    let open = Some(Captured {
        tail: Vec::new(),
        total: 0,
        closed: false,
    });
    let closed = Some(Captured {
        tail: Vec::new(),
        total: 0,
        closed: true,
    });
    let ok = || Ended::Exited(Some(ExitStatus::from_raw(0)));
    let left = |survivors: Vec<u32>, escaped: Vec<u32>, still: Option<Vec<u32>>| Left {
        survivors,
        escaped,
        still,
    };
    let outcome = |ended: Ended, l: Left, out: &Option<Captured>| {
        judge(&c, &ended, &l, out, &closed, &opts).0
    };
    use CheckOutcome::*;
    assert_eq!(
        outcome(ok(), left(vec![], vec![], Some(vec![7])), &closed),
        CleanupFailed
    );
    assert_eq!(
        outcome(
            Ended::TimedOut,
            left(vec![], vec![], Some(vec![7])),
            &closed
        ),
        CleanupFailed
    );
    assert_eq!(
        outcome(ok(), left(vec![], vec![9], None), &open),
        CleanupFailed
    );
    assert_eq!(
        outcome(Ended::TimedOut, left(vec![], vec![9], None), &closed),
        TimedOut
    );
    assert_eq!(
        outcome(ok(), left(vec![8], vec![], None), &closed),
        SurvivingDescendant
    );
    assert_eq!(
        outcome(ok(), left(vec![], vec![9], None), &closed),
        SurvivingDescendant
    );
    assert_eq!(outcome(ok(), left(vec![], vec![], None), &closed), Passed);
    let killed = Ended::Exited(Some(ExitStatus::from_raw(9)));
    let (o, code, notes) = judge(
        &c,
        &killed,
        &left(vec![], vec![], None),
        &closed,
        &closed,
        &opts,
    );
    assert_eq!((o, code), (Failed, None));
    assert_eq!(notes, ["killed by signal 9"]);
    assert_eq!(
        outcome_code(CleanupFailed),
        Some(SessionCode::RepairCheckCleanup)
    );
}

#[test]
fn pid_lists_in_messages_are_bounded() {
    assert_eq!(pid_list(&[3, 4]), "[3, 4]");
    let many: Vec<u32> = (1..=100).collect();
    let listed = pid_list(&many);
    assert!(listed.ends_with(", and 84 more]"), "{listed}");
}
