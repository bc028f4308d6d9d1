//! The signal × command × trial matrix: each stop signal (SIGKILL, SIGINT, SIGTERM, SIGHUP) sent
//! at a randomised moment to each long-lived command (`run` on a suite that waits on a page that
//! never answers, `run` of a terminal scenario whose program ignores every stop signal, `agent
//! start`, the live supervisor `agent start` leaves behind — of a browser session and of a
//! terminal one (`--tui -- bc -q`) and a desktop one (`--gui -- gnome-calculator`) —, `run` of a desktop scenario (gnome-calculator on an owned
//! Xvfb desktop), and `dev` with
//! the dev server it starts). After every trial no process of that trial remains within 2 s
//! (after `agent abort` where the supervisor died), and the command ends the documented way: 130
//! for a handled stop signal (0 for `dev`, whose normal end is a stop), death by the signal for
//! SIGKILL, `test.session.interrupted` from an interrupted start.
//!
//! Processes are counted by the tag this test sets on the one command it spawns per trial
//! (`tests/owned.rs`): every process the tool launches inherits it, and the browser's helpers are
//! found through the groups tagged processes led. Never by name.
//!
//! Moments are drawn from a seeded generator: the seed is printed, and `A3S_TEST_MATRIX_SEED`
//! replays it. For the handled signals the moment is measured from when the command's handler is
//! in place (its bit in `SigCgt` of `/proc/<pid>/status`): before that the kernel's default action
//! ends the process, which no program can change, and the exit code would say nothing about the
//! tool. SIGKILL is measured from the spawn.
//!
//! Trials per cell: `A3S_TEST_MATRIX_TRIALS` for every row; by default the 20 for `run`,
//! `agent start` and the supervisor (240 trials, each launching a Chromium: about 2.5 minutes on
//! a 2-core machine with [`CONCURRENCY`] trials at a time), 20 for `run tui` (80 quick trials on
//! a pseudoterminal) and [`DEV_TRIALS`] for `dev`, whose trials are the slowest. A lower count gives a quicker, weaker run; `A3S_TEST_MATRIX_ONLY=<name>`
//! runs one row (e.g. `dev`) to replay it.
//!
//! Adding a command is one line in [`COMMANDS`] and one trial function.

use crate::harness::{command, dev_server_project, free_port, workdir, FixtureServer, HOLD};
use crate::owned::{new_tag, Tracker, TAG_VAR};
use a3s_test_runner::process_tree::ProcessInfo;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How long everything of a trial may take to disappear once its owner ended.
const GONE: Duration = Duration::from_secs(2);

/// How long a signalled command may take to end (a handled signal closes the browser first).
const ENDS: Duration = Duration::from_secs(30);

/// How long a command may take to reach the state a trial waits for.
const REACH: Duration = Duration::from_secs(60);

/// Trials running at once: enough to overlap the browsers' start-up, few enough for 2 cores.
const CONCURRENCY: usize = 3;

/// The signals of the matrix and their names.
const SIGNALS: [(i32, &str); 4] = [
    (libc::SIGKILL, "KILL"),
    (libc::SIGINT, "INT"),
    (libc::SIGTERM, "TERM"),
    (libc::SIGHUP, "HUP"),
];

/// One command of the matrix: its name and how one trial of it runs.
struct Subject {
    /// Shown in failures.
    name: &'static str,
    /// One trial: signal `sig` after `delay`; `Err` describes what went wrong.
    trial: fn(&Setup, &Trial) -> Result<(), String>,
    /// Trials per signal when `A3S_TEST_MATRIX_TRIALS` is not set.
    trials: usize,
}

/// The commands under test.
const COMMANDS: &[Subject] = &[
    Subject {
        name: "run",
        trial: run_trial,
        trials: 20,
    },
    Subject {
        name: "run tui",
        trial: run_tui_trial,
        trials: 20,
    },
    Subject {
        name: "run gui",
        trial: run_gui_trial,
        trials: 5,
    },
    Subject {
        name: "agent start",
        trial: start_trial,
        trials: 20,
    },
    Subject {
        name: "agent supervise",
        trial: supervisor_trial,
        trials: 20,
    },
    Subject {
        name: "agent supervise --tui",
        trial: tui_supervisor_trial,
        trials: 20,
    },
    Subject {
        name: "agent supervise --gui",
        trial: gui_supervisor_trial,
        trials: 5,
    },
    Subject {
        name: "dev",
        trial: dev_trial,
        trials: DEV_TRIALS,
    },
];

/// What every trial shares: the loopback server.
struct Setup {
    server: FixtureServer,
}

/// One trial's draw.
#[derive(Debug, Clone, Copy)]
struct Trial {
    /// The signal to send.
    sig: i32,
    /// A uniform draw in [0, 1) that places the moment within the command's span.
    at: f64,
    /// Index within its cell (also names the session).
    index: usize,
}

impl Trial {
    /// The delay within `span` this trial's draw picks.
    fn delay(&self, span: Duration) -> Duration {
        span.mul_f64(self.at)
    }

    fn handled(&self) -> bool {
        self.sig != libc::SIGKILL
    }
}

/// SplitMix64: a tiny seeded generator, so a failing matrix can be replayed from its seed.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// True once `pid` has a handler for `sig` (its bit in `SigCgt`).
fn catches(pid: i32, sig: i32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (sig - 1)) != 0)
}

/// Wait until `child` handles `sig` (or has ended), up to [`REACH`].
fn wait_handler(child: &mut Child, sig: i32) -> Result<(), String> {
    let until = Instant::now() + REACH;
    let pid = child.id() as i32;
    while !catches(pid, sig) {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return Ok(());
        }
        if Instant::now() >= until {
            return Err(format!("no handler for signal {sig} within {REACH:?}"));
        }
        // Not a notification anyone sends: /proc is the only thing to watch.
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(())
}

/// Wait for `child` up to [`ENDS`], reading its stdout; on overrun kill its group.
fn ended(mut child: Child) -> Result<(std::process::ExitStatus, String), String> {
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stdout {
            let _ = std::io::Read::read_to_string(&mut s, &mut text);
        }
        text
    });
    match child.wait_timeout(ENDS) {
        Ok(Some(status)) => Ok((status, reader.join().unwrap_or_default())),
        _ => {
            // SAFETY: the group of the child this trial spawned (in a group of its own).
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            Err(format!("did not end within {ENDS:?} of the signal"))
        }
    }
}

/// Spawn `command` (carrying `tag`, stderr dropped), let it reach its signal handler when the
/// trial sends a handled signal, wait the trial's share of `span`, send the signal and wait for
/// the end: (exit status, stdout).
fn signalled(
    mut command: Command,
    tag: &str,
    trial: &Trial,
    span: Duration,
    what: &str,
) -> Result<(std::process::ExitStatus, String), String> {
    let mut child = command
        .env(TAG_VAR, tag)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("spawn {what}: {e}"))?;
    if trial.handled() {
        wait_handler(&mut child, trial.sig)?;
    }
    std::thread::sleep(trial.delay(span));
    // SAFETY: the `what` this trial spawned (still our unreaped child, so the pid is its own).
    unsafe { libc::kill(child.id() as i32, trial.sig) };
    ended(child)
}

/// Nothing of the tag alive within [`GONE`]; on failure kill what is left and say what it was.
fn none_left(tracker: &mut Tracker, what: &str) -> Result<(), String> {
    let left = tracker.killed_after(GONE);
    if left.is_empty() {
        return Ok(());
    }
    Err(format!("{what}: processes {left:?} outlived it"))
}

/// The exit a handled stop signal must give (130), or death by SIGKILL.
fn expect_exit(trial: &Trial, status: std::process::ExitStatus, out: &str) -> Result<(), String> {
    let good = if trial.handled() {
        status.code() == Some(130)
    } else {
        status.signal() == Some(libc::SIGKILL)
    };
    if good {
        Ok(())
    } else {
        Err(format!("exit {status:?}, stdout {out:?}"))
    }
}

/// `agent …` in `dir` carrying `tag`, bounded; (exit code, stdout).
fn agent(dir: &Path, tag: &str, args: &[&str]) -> Result<(i32, String), String> {
    let child = command("agent", args, dir)
        .env(TAG_VAR, tag)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("spawn agent {args:?}: {e}"))?;
    let (status, out) = ended(child)?;
    Ok((status.code().unwrap_or(-1), out))
}

/// `agent abort` must exit 0 with the cleanup verified.
fn abort(dir: &Path, tag: &str, id: &str) -> Result<(), String> {
    let (code, out) = agent(dir, tag, &["abort", "--session", id, "--json"])?;
    let verified = serde_json::from_str::<serde_json::Value>(&out)
        .map(|v| v["cleanup_verified"] == true)
        .unwrap_or(false);
    if code == 0 && verified {
        Ok(())
    } else {
        Err(format!("agent abort exited {code}: {out}"))
    }
}

/// How many `agent start` trials finished before their signal (printed: a matrix where most did
/// would test little of the start).
static STARTS_DONE_FIRST: AtomicUsize = AtomicUsize::new(0);

/// `run` of a suite whose first scenario waits a minute on `/hang`, signalled within the first
/// 3 s (while it starts, while its browser starts, mid-scenario).
fn run_trial(setup: &Setup, trial: &Trial) -> Result<(), String> {
    let work = workdir(&[("hold.acl", HOLD)]);
    let tag = new_tag("matrix-run");
    let mut tracker = Tracker::new(&tag);
    let args = [
        "hold.acl",
        "--jobs",
        "1",
        "--base-url",
        &setup.server.base_url,
    ];
    let run = command("run", &args, work.path());
    let (status, out) = signalled(run, &tag, trial, Duration::from_secs(3), "run")?;
    let exit = expect_exit(trial, status, &out);
    none_left(&mut tracker, "the signalled run")?;
    exit
}

/// A terminal program that ignores every stop signal and has a worker of its own: only the
/// owner's group kill ends it.
const STUBBORN_TUI_PROJECT: &str = "project \"p\" {\n  tui {\n    command = [\"sh\", \"-c\", \"trap '' INT TERM HUP; sleep 600 & wait\"]\n  }\n}\n";

/// A terminal scenario that waits a minute for text the program never prints.
const TUI_HOLD: &str = "suite \"hold\" {\n  scenario \"never\" {\n    surface = \"tui\"\n    timeout_ms = 60000\n    wait \"never\" { text = \"never printed\" }\n  }\n}\n";

/// `run` of a terminal scenario on a stubborn program on its own pseudoterminal, signalled within
/// the first 2 s (while the program starts, while the scenario waits): the `tui` row of the
/// ownership matrix.
fn run_tui_trial(_setup: &Setup, trial: &Trial) -> Result<(), String> {
    let work = workdir(&[
        (".a3s-test/project.acl", STUBBORN_TUI_PROJECT),
        ("hold.acl", TUI_HOLD),
    ]);
    let tag = new_tag("matrix-tui");
    let mut tracker = Tracker::new(&tag);
    let run = command("run", &["hold.acl"], work.path());
    let (status, out) = signalled(run, &tag, trial, Duration::from_secs(2), "run tui")?;
    let exit = expect_exit(trial, status, &out);
    none_left(&mut tracker, "the signalled terminal run")?;
    exit
}

/// The project of the `gui` row: gnome-calculator on an owned desktop.
const GUI_PROJECT: &str =
    "project \"p\" {\n  gui {\n    command = [\"gnome-calculator\"]\n  }\n}\n";

/// A desktop scenario that waits a minute for text the window never shows.
const GUI_HOLD: &str = "suite \"hold\" {\n  scenario \"never\" {\n    surface = \"gui\"\n    timeout_ms = 60000\n    wait \"never\" { text = \"never shown\" }\n  }\n}\n";

/// `run` of a desktop scenario, signalled within the first 3 s (while the X server, the buses,
/// the registry or the program start, while the scenario waits): the `gui` row. Nothing of
/// the desktop may survive.
fn run_gui_trial(_setup: &Setup, trial: &Trial) -> Result<(), String> {
    let work = workdir(&[
        (".a3s-test/project.acl", GUI_PROJECT),
        ("hold.acl", GUI_HOLD),
    ]);
    let tag = new_tag("matrix-gui");
    let mut tracker = Tracker::new(&tag);
    let run = command("run", &["hold.acl"], work.path());
    let (status, out) = signalled(run, &tag, trial, Duration::from_secs(3), "run gui")?;
    let exit = expect_exit(trial, status, &out);
    none_left(&mut tracker, "the signalled desktop run")?;
    exit
}

/// `agent start`, signalled within the time a start takes; a start that finished first is
/// aborted (its session must then be whole).
fn start_trial(setup: &Setup, trial: &Trial) -> Result<(), String> {
    let dir = workdir(&[]);
    let d = dir.path();
    let tag = new_tag("matrix-start");
    let mut tracker = Tracker::new(&tag);
    let id = format!("start{}", trial.index);
    let url = format!("{}/", setup.server.base_url);
    let start = command("agent", &["start", &url, "--session", &id, "--json"], d);
    let span = Duration::from_millis(1500);
    let (status, out) = signalled(start, &tag, trial, span, "agent start")?;
    let folder = d.join(".a3s-test/agent-sessions").join(&id);
    if status.code() == Some(0) {
        // The start returned before the signal landed: a whole session to abort.
        STARTS_DONE_FIRST.fetch_add(1, Ordering::SeqCst);
        abort(d, &tag, &id)?;
        return none_left(&mut tracker, "the aborted session of a finished start");
    }
    let exit = expect_exit(trial, status, &out);
    if !trial.handled() && folder.join("session.json").exists() {
        // No handler ran: a SIGKILL that landed after the hand-over leaves a committed session
        // (its record says which processes are its own); `abort` must stop all of it.
        abort(d, &tag, &id)?;
    }
    none_left(&mut tracker, "the interrupted start")?;
    exit?;
    if trial.handled() {
        let code = serde_json::from_str::<serde_json::Value>(&out)
            .map(|v| v["error"]["code"] == "test.session.interrupted")
            .unwrap_or(false);
        if !code {
            return Err(format!("not test.session.interrupted: {out}"));
        }
        if folder.exists() {
            return Err("the interrupted start left its session folder".into());
        }
    }
    Ok(())
}

/// The supervisor of a started session, signalled within a second of the start: a handled
/// signal closes the session by itself; after SIGKILL `agent abort` stops what it recorded.
fn supervisor_trial(setup: &Setup, trial: &Trial) -> Result<(), String> {
    let url = format!("{}/", setup.server.base_url);
    supervised(trial, "sup", &[&url], &[])
}

/// The supervisor of a terminal session (`agent start --tui -- bc -q`), as
/// [`supervisor_trial`]: what it owns is the program's group on its pseudoterminal.
fn tui_supervisor_trial(_setup: &Setup, trial: &Trial) -> Result<(), String> {
    supervised(trial, "tui", &["--tui"], &["--", "bc", "-q"])
}

/// The supervisor of a desktop session (`agent start --gui -- gnome-calculator`), as
/// [`supervisor_trial`]: what it owns is an Xvfb desktop, its buses and the program, each in a
/// group of its own; nothing of them may survive.
fn gui_supervisor_trial(_setup: &Setup, trial: &Trial) -> Result<(), String> {
    supervised(trial, "gui", &["--gui"], &["--", "gnome-calculator"])
}

/// A supervisor trial on the session `agent start BEFORE… --session ID --json AFTER…` starts.
fn supervised(trial: &Trial, prefix: &str, before: &[&str], after: &[&str]) -> Result<(), String> {
    let dir = workdir(&[]);
    let d = dir.path();
    let tag = new_tag("matrix-supervisor");
    let mut tracker = Tracker::new(&tag);
    let id = format!("{prefix}{}", trial.index);
    let mut args = vec!["start"];
    args.extend_from_slice(before);
    args.extend_from_slice(&["--session", &id, "--json"]);
    args.extend_from_slice(after);
    let (code, out) = agent(d, &tag, &args)?;
    if code != 0 {
        tracker.kill_all();
        return Err(format!("agent start exited {code}: {out}"));
    }
    let record: serde_json::Value = std::fs::read(
        d.join(".a3s-test/agent-sessions")
            .join(&id)
            .join("session.json"),
    )
    .ok()
    .and_then(|b| serde_json::from_slice(&b).ok())
    .ok_or("no session.json after a start")?;
    let pid = record["ownership"]["supervisor_pid"].as_i64().unwrap_or(0) as i32;
    let start = record["ownership"]["supervisor_start"]
        .as_u64()
        .unwrap_or(0);
    // The recorded supervisor must be the one this trial's command started.
    let ours = ProcessInfo::read(pid).is_some_and(|p| p.start_time == start)
        && tracker.tagged().iter().any(|p| p.pid == pid);
    if !ours {
        tracker.kill_all();
        return Err(format!("the recorded supervisor {pid} is not this trial's"));
    }
    if trial.handled() {
        let until = Instant::now() + REACH;
        while !catches(pid, trial.sig) {
            if Instant::now() >= until {
                tracker.kill_all();
                return Err("the supervisor never installed its handler".into());
            }
            // Not our child: /proc is the only thing to watch.
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    std::thread::sleep(trial.delay(Duration::from_secs(1)));
    // SAFETY: the supervisor this trial started (pid, start time and tag checked above).
    unsafe { libc::kill(pid, trial.sig) };
    if trial.handled() {
        // A handled signal closes the session like `abort`, with no one asking.
        none_left(&mut tracker, "the signalled supervisor")?;
    }
    abort(d, &tag, &id)?;
    none_left(&mut tracker, "abort after the supervisor died")
}

/// Trials per signal of the `dev` row by default: the 20 (80 trials, each launching a
/// dev server and a browser, took 54 s on a loaded 2-core machine).
const DEV_TRIALS: usize = 20;

/// How long after its handler is in place a `dev` trial may be signalled: a start (dev server,
/// session, browser) takes about 1–2 s here, so the moments cover the start and the running loop.
const DEV_SPAN: Duration = Duration::from_secs(3);

/// How many `dev` trials were signalled after the command said it was ready (printed: most
/// moments should not all fall on one side of it).
static DEV_READY_FIRST: AtomicUsize = AtomicUsize::new(0);

/// A project whose dev server is `a3s-test serve site --port <port>` (a page without the Test
/// Kit: the command's page watcher just keeps asking).
pub(crate) fn dev_project(port: u16) -> tempfile::TempDir {
    let url = format!("http://127.0.0.1:{port}");
    let port = port.to_string();
    let project = dev_server_project(&url, &["a3s-test", "serve", "site", "--port", &port]);
    workdir(&[
        (".a3s-test/project.acl", &project),
        (
            "site/index.html",
            "<!doctype html><title>Dev</title><h1>Dev</h1>",
        ),
    ])
}

/// The events `dev --json` printed, one JSON object a line.
fn dev_events(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// `a3s-test dev` on a project whose dev server it starts, signalled while it starts or while it
/// runs: a handled signal stops everything it started and exits 0 (docs/dev.md, "Stopping");
/// after SIGKILL its dev server (watchdog, parent-death signal), supervisor and browser
/// (parent-death signal) die by themselves, and the record it could not close is settled by
/// `agent abort`.
fn dev_trial(_setup: &Setup, trial: &Trial) -> Result<(), String> {
    let work = dev_project(free_port());
    let d = work.path();
    let tag = new_tag("matrix-dev");
    let mut tracker = Tracker::new(&tag);
    let mut dev = command("dev", &["--json"], d);
    dev.env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("A3S_TEST_ROOT");
    let (status, out) = signalled(dev, &tag, trial, DEV_SPAN, "dev")?;
    let events = dev_events(&out);
    if events.iter().any(|e| e["event"] == "ready") {
        DEV_READY_FIRST.fetch_add(1, Ordering::SeqCst);
    }
    let left = none_left(&mut tracker, "the signalled dev");
    let exit = if trial.handled() {
        let stopped = events
            .iter()
            .any(|e| e["event"] == "stopped" && e["server_left_running"] == false);
        if status.code() == Some(0) && stopped {
            Ok(())
        } else {
            Err(format!("exit {status:?}, stdout {out:?}"))
        }
    } else {
        expect_exit(trial, status, &out)
    };
    left?;
    exit?;
    let record = d.join(".a3s-test/agent-sessions/dev/session.json");
    let open = std::fs::read(&record)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| {
            matches!(
                v["state"].as_str(),
                Some("starting" | "active" | "cleanup_failed")
            )
        });
    if open {
        if trial.handled() {
            return Err("a stopped dev left its session open".into());
        }
        // Nothing runs any more; only the record is left to close.
        abort(d, &tag, "dev")?;
        none_left(&mut tracker, "abort after dev was killed")?;
    }
    Ok(())
}

#[test]
fn every_stop_signal_at_any_moment_leaves_nothing_of_any_command() {
    let seed = env_number("A3S_TEST_MATRIX_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let trials = env_number("A3S_TEST_MATRIX_TRIALS").map(|n| n.max(1) as usize);
    let only = std::env::var("A3S_TEST_MATRIX_ONLY").ok();
    let rows = || {
        COMMANDS
            .iter()
            .enumerate()
            .filter(|(_, c)| only.as_deref().is_none_or(|o| o == c.name))
    };
    let cells: Vec<String> = rows()
        .map(|(_, c)| format!("{} {}", c.name, trials.unwrap_or(c.trials)))
        .collect();
    println!(
        "signal matrix: seed {seed} (A3S_TEST_MATRIX_SEED), trials per signal (A3S_TEST_MATRIX_TRIALS): {}",
        cells.join(", ")
    );
    let mut state = seed;
    let mut jobs = Vec::new();
    // Every row draws its moments, run or not, so one row replays with the full matrix's seed.
    let chosen: Vec<usize> = rows().map(|(c, _)| c).collect();
    for (c, subject) in COMMANDS.iter().enumerate() {
        for &(sig, _) in &SIGNALS {
            for index in 0..trials.unwrap_or(subject.trials) {
                let at = (splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64;
                if chosen.contains(&c) {
                    jobs.push((c, Trial { sig, at, index }));
                }
            }
        }
    }
    let setup = Setup {
        server: FixtureServer::start(),
    };
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..CONCURRENCY {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((c, trial)) = jobs.get(i) else {
                    return;
                };
                let subject = &COMMANDS[*c];
                if let Err(e) = (subject.trial)(&setup, trial) {
                    let name = SIGNALS
                        .iter()
                        .find(|s| s.0 == trial.sig)
                        .map_or("?", |s| s.1);
                    failures.lock().unwrap().push(format!(
                        "{} × SIG{name} trial {} (at {:.3}): {e}",
                        subject.name, trial.index, trial.at
                    ));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    println!(
        "signal matrix: {} trials in {:?}; {} starts had returned before their signal; {} dev \
         trials were signalled after ready",
        jobs.len(),
        started.elapsed(),
        STARTS_DONE_FIRST.load(Ordering::SeqCst),
        DEV_READY_FIRST.load(Ordering::SeqCst)
    );
    assert!(
        failures.is_empty(),
        "seed {seed}: {} of {} trials failed:\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n")
    );
}
