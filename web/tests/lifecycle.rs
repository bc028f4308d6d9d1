//! Browser ownership: launch, attach, shutdown, drop and crashes leave no process behind and
//! never hang.

mod common;

use a3s_test_driver::{ContextOptions, EvidenceKind, FailureCode, SurfaceContext, SurfaceDriver};
use a3s_test_web::{live_group_members, LaunchOptions, WebDriver};
use common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

fn launch_options() -> LaunchOptions {
    LaunchOptions {
        executable: Some(a3s_test_web::DEFAULT_BROWSER.into()),
        ..LaunchOptions::default()
    }
}

/// Poll `/proc` until no live process of the group is left (bounded).
async fn group_gone(pgid: u32) -> bool {
    let until = tokio::time::Instant::now() + Duration::from_secs(5);
    while tokio::time::Instant::now() < until {
        if live_group_members(pgid).is_empty() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    live_group_members(pgid).is_empty()
}

fn command_line(pid: u32) -> Vec<String> {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
    cmdline
        .split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect()
}

fn profile_dir(pid: u32) -> std::path::PathBuf {
    let args = command_line(pid);
    let dir = args
        .iter()
        .find_map(|a| a.strip_prefix("--user-data-dir="))
        .expect("profile flag");
    assert!(
        args.iter().any(|a| a == "--headless")
            && args.iter().any(|a| a == "--remote-debugging-port=0"),
        "{args:?}"
    );
    std::path::PathBuf::from(dir)
}

#[test]
fn shutdown_reaps_the_whole_group_and_removes_the_profile() {
    block_on(LIMIT, async {
        let driver = WebDriver::launch(launch_options()).await.unwrap();
        let ids = driver.browser_process().unwrap();
        assert_eq!(ids.pid, ids.pgid, "the browser leads its own group");
        // Suite runs keep Chromium's frame pacing (the interactive case is checked below).
        let args = command_line(ids.pid);
        let flag = a3s_test_web::UNLIMITED_FRAME_RATE_FLAG;
        assert!(!args.iter().any(|a| a == flag), "{args:?}");
        let profile = profile_dir(ids.pid);
        assert!(profile.exists());
        let env = Env::new();
        let mut ctx = driver.new_context(ContextOptions::default()).await.unwrap();
        ok(&mut ctx, &env, &goto("resolve.html")).await;
        assert!(
            live_group_members(ids.pgid).len() > 1,
            "renderers share the group"
        );
        ctx.close().await.unwrap();
        driver.shutdown().await.unwrap();
        assert!(
            live_group_members(ids.pgid).is_empty(),
            "{:?}",
            live_group_members(ids.pgid)
        );
        assert!(!profile.exists(), "profile {} removed", profile.display());
        driver.shutdown().await.unwrap();
        let err = driver
            .new_context(ContextOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.code, FailureCode::BrowserCrashed);
    });
}

#[test]
fn drop_kills_the_group() {
    block_on(LIMIT, async {
        let driver = WebDriver::launch(launch_options()).await.unwrap();
        let ids = driver.browser_process().unwrap();
        let ctx = driver.new_context(ContextOptions::default()).await.unwrap();
        drop(ctx);
        drop(driver);
        assert!(
            group_gone(ids.pgid).await,
            "{:?}",
            live_group_members(ids.pgid)
        );
    });
}

#[test]
fn a_browser_killed_mid_step_fails_fast_with_browser_crashed() {
    block_on(LIMIT, async {
        let driver = WebDriver::launch(launch_options()).await.unwrap();
        let ids = driver.browser_process().unwrap();
        let env = Env::new();
        let mut ctx = driver.new_context(ContextOptions::default()).await.unwrap();
        ok(&mut ctx, &env, &goto("expect.html")).await;
        let killer = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            unsafe { libc::killpg(ids.pgid as i32, libc::SIGKILL) };
        });
        let started = std::time::Instant::now();
        // A reading that watches for a change for 30 s: the page never gives one.
        let never =
            a3s_test_lang::ir::ExpectCondition::Page(a3s_test_lang::ir::PageCondition::Text {
                text: "never appears".into(),
            });
        let err = ctx
            .check(&never, Some(Duration::from_secs(30)), &env.step_env())
            .await
            .unwrap_err();
        killer.await.unwrap();
        assert_eq!(err.code, FailureCode::BrowserCrashed, "{}", err.message);
        // A bound on a hang, not a speed check: without crash detection the reading would watch
        // on for its 30 s.
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "noticed in {:?}",
            started.elapsed()
        );
        let err = dispatch(&mut ctx, &acl(&expect_text("x")), &env.step_env())
            .await
            .unwrap_err();
        assert_eq!(err.code, FailureCode::BrowserCrashed);
        // The logs are written; the page's evidence is listed missing with the reason.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let captured = ctx
            .capture_failure_evidence(&env.artifact_dir("failure"), deadline)
            .await;
        assert!(captured.files.len() <= 2, "{captured:?}");
        let missing: Vec<_> = captured.missing.iter().map(|m| m.kind).collect();
        assert_eq!(
            missing,
            [EvidenceKind::Screenshot, EvidenceKind::Accessibility],
            "{captured:?}"
        );
        assert!(captured.missing[0].reason.contains("the browser is gone"));
        assert!(ctx.close().await.is_err());
        driver.shutdown().await.unwrap();
        assert!(group_gone(ids.pgid).await);
    });
}

#[test]
fn a_wedged_browser_times_out_instead_of_hanging() {
    block_on(LIMIT, async {
        let driver = WebDriver::launch(launch_options()).await.unwrap();
        let ids = driver.browser_process().unwrap();
        let mut env = Env::new();
        let mut ctx = driver.new_context(ContextOptions::default()).await.unwrap();
        ok(&mut ctx, &env, &goto("expect.html")).await;
        unsafe { libc::killpg(ids.pgid as i32, libc::SIGSTOP) };
        env.deadline = tokio::time::Instant::now() + Duration::from_millis(800);
        let started = std::time::Instant::now();
        let err = dispatch(&mut ctx, &acl(&expect_text("Status")), &env.step_env())
            .await
            .unwrap_err();
        unsafe { libc::killpg(ids.pgid as i32, libc::SIGCONT) };
        assert_eq!(err.code, FailureCode::Timeout, "{}", err.message);
        // The 800 ms deadline cuts the call to a stopped browser, which would otherwise hang.
        assert!(started.elapsed() < Duration::from_secs(2));
        driver.shutdown().await.unwrap();
        assert!(group_gone(ids.pgid).await);
    });
}

/// The test's own browser: killed (group) and reaped even when an assertion fails.
struct ExternalBrowser(std::process::Child);

impl Drop for ExternalBrowser {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            unsafe { libc::killpg(self.0.id() as i32, libc::SIGKILL) };
            let _ = self.0.wait();
        }
    }
}

#[test]
fn attach_never_kills_a_browser_it_did_not_start() {
    block_on(LIMIT, async {
        // Start a browser the way another tool would: our test owns it, the driver does not.
        let profile = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new(a3s_test_web::DEFAULT_BROWSER);
        child
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .env("XDG_CONFIG_HOME", profile.path())
            .stderr(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut child, 0);
        let mut child = ExternalBrowser(child.spawn().unwrap());
        let pgid = child.0.id();
        let stderr = child.0.stderr.take().unwrap();
        let ws = tokio::task::spawn_blocking(move || {
            use std::io::BufRead;
            let mut lines = std::io::BufReader::new(stderr).lines();
            let url = lines
                .by_ref()
                .map_while(Result::ok)
                .find_map(|l| l.find("ws://").map(|i| l[i..].to_string()));
            std::thread::spawn(move || for _ in lines {});
            url
        });
        let ws = tokio::time::timeout(Duration::from_secs(20), ws)
            .await
            .unwrap()
            .unwrap()
            .expect("devtools url");
        let driver = WebDriver::attach(&ws, true).await.unwrap();
        assert!(driver.browser_process().is_none());
        let env = Env::new();
        let mut ctx = driver.new_context(ContextOptions::default()).await.unwrap();
        ok(&mut ctx, &env, &goto("resolve.html")).await;
        ok(&mut ctx, &env, &expect_text("Resolution")).await;
        ctx.close().await.unwrap();
        driver.shutdown().await.unwrap();
        assert!(
            !live_group_members(pgid).is_empty(),
            "the attached browser keeps running"
        );
        assert!(child.0.try_wait().unwrap().is_none());
        // The HTTP endpoint form resolves the WebSocket address through /json/version.
        let port = ws
            .trim_start_matches("ws://")
            .split(['/', ':'])
            .nth(1)
            .unwrap()
            .to_string();
        let http = WebDriver::attach(&format!("http://127.0.0.1:{port}"), false)
            .await
            .unwrap();
        let mut ctx = http.new_context(ContextOptions::default()).await.unwrap();
        ok(&mut ctx, &env, &goto("resolve.html")).await;
        ctx.close().await.unwrap();
        http.shutdown().await.unwrap();
        assert!(
            !live_group_members(pgid).is_empty(),
            "still running after the second driver"
        );
        // When the attached browser dies, the closed connection is noticed at once.
        let third = WebDriver::attach(&ws, false).await.unwrap();
        let mut ctx = third.new_context(ContextOptions::default()).await.unwrap();
        unsafe { libc::killpg(pgid as i32, libc::SIGKILL) };
        child.0.wait().unwrap();
        let started = std::time::Instant::now();
        let err = ctx
            .execute(&acl(&goto("resolve.html")), &env.step_env())
            .await
            .unwrap_err();
        assert_eq!(err.code, FailureCode::BrowserCrashed, "{}", err.message);
        // A bound on a hang: the closed connection ends the step instead of its 30 s deadline.
        assert!(started.elapsed() < Duration::from_secs(2));
        third.shutdown().await.unwrap();
        assert!(group_gone(pgid).await);
    });
}

#[test]
fn a_missing_browser_is_a_launch_failure() {
    block_on(LIMIT, async {
        let options = LaunchOptions {
            executable: Some("/nonexistent/chromium".into()),
            ..LaunchOptions::default()
        };
        let err = WebDriver::launch(options).await.unwrap_err();
        assert_eq!(err.code, FailureCode::BrowserLaunch);
        assert!(
            err.message.contains("/nonexistent/chromium"),
            "{}",
            err.message
        );
        // A binary that exits at once never reports a DevTools address.
        let options = LaunchOptions {
            executable: Some("/bin/false".into()),
            ..LaunchOptions::default()
        };
        let err = WebDriver::launch(options).await.unwrap_err();
        assert_eq!(err.code, FailureCode::BrowserLaunch);
    });
}

#[test]
fn process_exit_reaps_a_driver_that_was_never_dropped() {
    // The helper launches a browser and exits without dropping its driver.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_a3s-test-web-exit-helper"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let pgid: u32 = stdout
        .lines()
        .find_map(|l| l.split("PGID=").nth(1))
        .unwrap_or_else(|| {
            panic!(
                "no pgid in {stdout:?} / {}",
                String::from_utf8_lossy(&output.stderr)
            )
        })
        .trim()
        .parse()
        .unwrap();
    block_on(LIMIT, async move {
        assert!(group_gone(pgid).await, "{:?}", live_group_members(pgid));
    });
}

#[test]
fn contexts_are_prepared_ahead_and_disposed_in_the_background() {
    block_on(LIMIT, async {
        let driver = WebDriver::launch(launch_options()).await.unwrap();
        let pgid = driver.browser_process().unwrap().pgid;
        let env = Env::new();
        let ahead = |ready_ahead| ContextOptions {
            ready_ahead,
            ..ContextOptions::default()
        };
        let mut first = driver.new_context(ahead(2)).await.unwrap();
        assert_eq!(driver.prepared(), 2, "one context per announced scenario");
        ok(&mut first, &env, &goto("expect.html")).await;
        first.close().await.unwrap();
        // The last scenario announces nobody after it: a prepared context is used, none made.
        let mut last = driver.new_context(ahead(0)).await.unwrap();
        assert_eq!(driver.prepared(), 1);
        ok(&mut last, &env, &goto("expect.html")).await;
        ok(&mut last, &env, &expect_text("first visit")).await;
        last.close().await.unwrap();
        // Shutdown waits for the background disposals and discards the unused spare.
        driver.shutdown().await.unwrap();
        let stats = driver.context_stats();
        assert_eq!(stats.contexts, 2);
        assert!(stats.dispose > Duration::ZERO, "{stats:?}");
        assert_eq!(driver.prepared(), 0);
        assert!(
            group_gone(pgid).await,
            "the browser group outlived shutdown"
        );
    });
}

#[test]
fn only_interactive_sessions_draw_frames_back_to_back() {
    // The default (`false`) is checked by `shutdown_reaps_the_whole_group_and_removes_the_profile`
    // on the browser it launches anyway.
    block_on(LIMIT, async {
        let options = LaunchOptions {
            unlimited_frame_rate: true,
            ..launch_options()
        };
        let driver = WebDriver::launch(options).await.unwrap();
        let args = command_line(driver.browser_process().unwrap().pid);
        let flag = a3s_test_web::UNLIMITED_FRAME_RATE_FLAG;
        assert!(args.iter().any(|a| a == flag), "{args:?}");
        driver.shutdown().await.unwrap();
    });
}
