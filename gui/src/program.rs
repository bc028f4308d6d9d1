//! A program started on an owned desktop, found on the accessibility bus.
//!
//! The program is started (an argument vector, no shell) into a process group of its own that
//! the tool owns (`crate::owned`), with the desktop's environment. It is "on the desktop" once
//! it registered with the accessibility registry: one of the registry root's children is a bus
//! connection whose Unix process belongs to the program's group (asked of the bus with
//! `GetConnectionUnixProcessID`, so a program started through a wrapper script is found too, and
//! another program on the same desktop never is). Until then the wait re-reads the registry,
//! bounded by a deadline, and ends at once with a coded error when the program exits.

use crate::app::App;
use crate::desktop::{Desktop, REGISTRY};
use crate::error::{GuiError, ProgramExit};
use crate::owned::{Member, OwnedGroup};
use crate::ready::{self, NotReady};
use crate::toolkit::Toolkit;
use a3s_test_driver::process::ProcessInfo;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The path of every accessible root object (the registry's and each application's).
pub const ROOT_PATH: &str = "/org/a11y/atspi/accessible/root";

/// What to start on a desktop: an argument vector (no shell), its folder and environment.
#[derive(Debug, Clone)]
pub struct ProgramSpec {
    /// The program: a path, or a name looked up on `PATH`.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its working directory (the caller's when `None`).
    pub cwd: Option<PathBuf>,
    /// Variables set for it on top of the inherited environment and the desktop's.
    pub env: Vec<(OsString, OsString)>,
    /// How long it may take to appear on the accessibility bus.
    pub appear_within: Duration,
}

impl ProgramSpec {
    /// A program with arguments, in the caller's folder, given 10 s to appear.
    pub fn new<I, S>(program: impl Into<OsString>, args: I) -> ProgramSpec
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        ProgramSpec {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            cwd: None,
            env: Vec::new(),
            appear_within: Duration::from_secs(10),
        }
    }
}

/// A running program on a desktop, registered on its accessibility bus.
#[derive(Debug)]
pub struct Program {
    group: OwnedGroup,
    member: Member,
    name: String,
    bus_name: String,
    appeared_in: Duration,
    /// Its toolkit once it answered (`Program::toolkit`): asked once, not on every step.
    toolkit: tokio::sync::OnceCell<Toolkit>,
    // Last: removed after the group is stopped.
    output: tempfile::TempDir,
}

impl Desktop {
    /// Start `spec` on this desktop and wait until it is an application on the accessibility
    /// bus. On failure the program's group is stopped before the error returns.
    pub async fn start_program(&self, spec: &ProgramSpec) -> Result<Program, GuiError> {
        start_on(self.a11y(), self.env(), spec).await
    }
}

/// Start `spec` with the desktop variables `env` and wait until it is an application on the
/// accessibility bus `a11y` (an owned desktop's, or one `crate::attach` attached to).
pub(crate) async fn start_on(
    a11y: &zbus::Connection,
    env: Vec<(OsString, OsString)>,
    spec: &ProgramSpec,
) -> Result<Program, GuiError> {
    {
        let name = spec.program.to_string_lossy().into_owned();
        if let Some(cwd) = &spec.cwd {
            if !cwd.is_dir() {
                return Err(GuiError::WorkingDirectory {
                    path: cwd.display().to_string(),
                });
            }
        }
        let spawn_failed = |source| GuiError::SpawnFailed {
            program: name.clone(),
            source,
        };
        let output = tempfile::Builder::new()
            .prefix("a3s-test-program-")
            .tempdir()
            .map_err(spawn_failed)?;
        let stdout = std::fs::File::create(output.path().join("stdout")).map_err(spawn_failed)?;
        let stderr = std::fs::File::create(output.path().join("stderr")).map_err(spawn_failed)?;
        let group = OwnedGroup::start().map_err(spawn_failed)?;

        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr);
        if let Some(cwd) = &spec.cwd {
            command.current_dir(cwd);
        }
        for variable in Desktop::env_removed() {
            command.env_remove(variable);
        }
        command.envs(env).envs(spec.env.iter().map(|(k, v)| (k, v)));
        // Subscribed before the spawn: the registry announces each application it embeds
        // (`ChildrenChanged` on its root), which wakes the wait at once instead of at its next
        // poll; without the subscription the wait polls alone.
        let registry = crate::wait::Wake::subscribe(a11y, REGISTRY, spec.appear_within)
            .await
            .ok();
        let started = Instant::now();
        let mut laps = crate::timing::Laps::start("start");
        let member = group.spawn(command).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => GuiError::ProgramNotFound {
                program: name.clone(),
            },
            _ => spawn_failed(e),
        })?;

        laps.lap("spawn");
        let pgid = group.pgid();
        let mut owners: HashMap<String, Option<u32>> = HashMap::new();
        let woken = registry.as_ref().map(crate::wait::Wake::woken);
        let found = ready::poll(&member.exit, spec.appear_within, woken, async || {
            application_of_group(a11y, pgid, &mut owners).await
        })
        .await;
        laps.lap("appear");
        laps.print();
        let bus_name = match found {
            Ok(bus_name) => bus_name,
            Err(NotReady::Exited(status)) => {
                return Err(GuiError::ExitedEarly {
                    program: name,
                    exit: status
                        .map(ProgramExit::from_status)
                        .unwrap_or(ProgramExit::Signal(0)),
                    said: last_line(output.path()),
                })
            }
            Err(NotReady::Timeout(waited)) => {
                return Err(GuiError::NotAccessible {
                    program: name,
                    waited_ms: waited.as_millis(),
                })
            }
        };
        Ok(Program {
            group,
            member,
            name,
            bus_name,
            appeared_in: started.elapsed(),
            toolkit: tokio::sync::OnceCell::new(),
            output,
        })
    }
}

/// The last non-empty line a program wrote to its standard error, else to its output (at most
/// 200 characters): what an early exit said about itself.
fn last_line(output: &Path) -> Option<String> {
    ["stderr", "stdout"].iter().find_map(|file| {
        let text = std::fs::read(output.join(file)).ok()?;
        let text = String::from_utf8_lossy(&text);
        let line = text.lines().rev().map(str::trim).find(|l| !l.is_empty())?;
        Some(line.chars().take(200).collect())
    })
}

/// The registry's application whose connection belongs to a process of group `pgid`, if any.
/// `owners` remembers each bus name's process, so each connection is asked about once.
async fn application_of_group(
    a11y: &zbus::Connection,
    pgid: u32,
    owners: &mut HashMap<String, Option<u32>>,
) -> Option<String> {
    // No property caches: a cached proxy reads all its properties and subscribes to their
    // changes when built, round trips this poll (every 10 ms) has no use for.
    let registry = atspi::proxy::accessible::AccessibleProxy::builder(a11y)
        .destination(REGISTRY)
        .ok()?
        .path(ROOT_PATH)
        .ok()?
        .cache_properties(zbus::proxy::CacheProperties::No)
        .build()
        .await
        .ok()?;
    let children = registry.get_children().await.ok()?;
    let dbus = zbus::fdo::DBusProxy::builder(a11y)
        .cache_properties(zbus::proxy::CacheProperties::No)
        .build()
        .await
        .ok()?;
    for child in children {
        let Some(bus_name) = child.name_as_str().map(str::to_owned) else {
            continue;
        };
        if !owners.contains_key(&bus_name) {
            let pid = match zbus::names::BusName::try_from(bus_name.as_str()) {
                Ok(name) => dbus.get_connection_unix_process_id(name).await.ok(),
                Err(_) => None,
            };
            owners.insert(bus_name.clone(), pid);
        }
        let in_group = owners[&bus_name]
            .and_then(|pid| ProcessInfo::read(pid as i32))
            .is_some_and(|p| p.pgid as u32 == pgid);
        if in_group {
            return Some(bus_name);
        }
    }
    None
}

impl Program {
    /// The program as it was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its unique name on the accessibility bus: the destination of every call on its tree,
    /// whose root is at [`ROOT_PATH`].
    pub fn bus_name(&self) -> &str {
        &self.bus_name
    }

    /// Its toolkit, asked of it on the accessibility bus `a11y` the first time and kept (a
    /// program's toolkit does not change); `None` while it does not answer, asked again then.
    pub async fn toolkit(&self, a11y: &zbus::Connection) -> Option<&Toolkit> {
        self.toolkit
            .get_or_try_init(|| async { Toolkit::ask(a11y, &self.bus_name).await.ok_or(()) })
            .await
            .ok()
    }

    /// The program as finds and reads reach it on the accessibility bus `a11y`, keeping no
    /// read from one find to the next (a `Host`'s [`crate::host::Host::app`] does).
    pub async fn app<'a>(&'a self, a11y: &'a zbus::Connection) -> App<'a> {
        App {
            a11y,
            bus_name: &self.bus_name,
            toolkit: self.toolkit(a11y).await,
            kept: None,
            x11: None,
        }
    }

    /// Its pid.
    pub fn pid(&self) -> u32 {
        self.member.pid
    }

    /// Its process group (it leads none: a watchdog does; see `crate::owned`).
    pub fn pgid(&self) -> u32 {
        self.group.pgid()
    }

    /// How long it took from the start until it was on the accessibility bus.
    pub fn appeared_in(&self) -> Duration {
        self.appeared_in
    }

    /// How it ended, once it has.
    pub fn exit(&self) -> Option<ProgramExit> {
        self.member.exit.status().map(ProgramExit::from_status)
    }

    /// Wait (bounded) until it has exited — after a click on a dialog's OK, say — and say how;
    /// `None` when it still runs at the deadline.
    pub async fn exited(&self, within: Duration) -> Option<ProgramExit> {
        tokio::time::timeout(within, self.member.exit.exited())
            .await
            .ok()
            .flatten()
            .map(ProgramExit::from_status)
    }

    /// Pids of the program group's live processes.
    pub fn live(&self) -> Vec<u32> {
        self.group.live()
    }

    /// The folder holding its `stdout` and `stderr` files.
    pub fn output_dir(&self) -> &Path {
        self.output.path()
    }

    /// Stop the program's group and wait (bounded) until none of it lives; true when none does.
    pub fn stop(mut self) -> bool {
        self.group.stop()
    }
}
