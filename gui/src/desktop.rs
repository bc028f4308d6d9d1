//! An owned headless desktop: an X server, a private session bus, the accessibility bus and its
//! registry, started in that order into one process group the tool owns.
//!
//! Why each piece, in order (measured on these machines, see `docs/gui.md`):
//! 1. `Xvfb -displayfd 1`: the server picks a free display itself and writes its number on our
//!    pipe once it accepts clients — never a fixed display number, which a parallel run or a
//!    developer's own server may already hold. `-nolisten tcp`: local clients only.
//!    `-noreset`: the server keeps its root properties when its last client leaves.
//! 2. a private `dbus-daemon --nofork` with a generated configuration (`crate::bus_config`) that
//!    activates nothing; `--print-address` is its ready line.
//! 3. `at-spi-bus-launcher --launch-immediately --a11y=1` on that bus starts the accessibility
//!    bus; polled through `org.a11y.Bus.GetAddress` until it answers.
//! 4. `at-spi2-registryd` on the accessibility bus; polled through `NameHasOwner
//!    org.a11y.atspi.Registry`. Programs register with it, and its root's children are the
//!    programs on the bus.
//! 5. the root window's `AT_SPI_BUS` property holds the accessibility bus's address (written
//!    with `x11rb`): Qt programs find the bus reliably only through it.
//!
//! Everything lives in a private 0700 folder (the sockets, logs, `XDG_RUNTIME_DIR`), removed
//! after the group is stopped. Stopping ([`Desktop::shutdown`] or drop) SIGKILLs the group and
//! waits, bounded, until none of its processes lives.

use crate::bus_config::session_bus_config;
use crate::error::GuiError;
use crate::owned::{Member, OwnedGroup};
use crate::ready::{self, NotReady};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, PropMode};
use x11rb::wrapper::ConnectionExt as _;

/// The accessibility registry's well-known name on the accessibility bus.
pub const REGISTRY: &str = "org.a11y.atspi.Registry";

/// How long one call on a bus may wait for its answer.
pub const CALL_WITHIN: Duration = Duration::from_secs(5);

/// What desktop to start, and where its programs are.
#[derive(Debug, Clone)]
pub struct DesktopOptions {
    /// Screen width in pixels.
    pub width: u16,
    /// Screen height in pixels.
    pub height: u16,
    /// The deadline of each start-up step (the X server, each bus, the registry).
    pub step_within: Duration,
    /// The X server (`Xvfb`, looked up on `PATH`).
    pub xvfb: PathBuf,
    /// The D-Bus daemon (`dbus-daemon`).
    pub dbus_daemon: PathBuf,
    /// The accessibility bus launcher.
    pub bus_launcher: PathBuf,
    /// The accessibility registry.
    pub registryd: PathBuf,
}

impl Default for DesktopOptions {
    /// 1280×800 (the product's default window size), 10 s a step, Debian's paths.
    fn default() -> DesktopOptions {
        DesktopOptions {
            width: 1280,
            height: 800,
            step_within: Duration::from_secs(10),
            xvfb: "Xvfb".into(),
            dbus_daemon: "dbus-daemon".into(),
            bus_launcher: "/usr/libexec/at-spi-bus-launcher".into(),
            registryd: "/usr/libexec/at-spi2-registryd".into(),
        }
    }
}

/// A running owned desktop (see the module doc).
#[derive(Debug)]
pub struct Desktop {
    group: OwnedGroup,
    display: String,
    session_bus: String,
    a11y_bus: String,
    a11y: zbus::Connection,
    members: Vec<(&'static str, u32)>,
    started_in: Duration,
    // Last: removed after the group is stopped (fields drop after `Drop::drop`).
    dir: tempfile::TempDir,
}

/// One desktop process to start: its part name, its Debian package, program and arguments.
struct Part<'a> {
    name: &'static str,
    package: &'static str,
    program: &'a Path,
    args: Vec<OsString>,
}

impl Desktop {
    /// Start a desktop; on any failure everything already started is stopped before the error
    /// returns.
    pub async fn start(options: &DesktopOptions) -> Result<Desktop, GuiError> {
        let started = Instant::now();
        let dir = tempfile::Builder::new()
            .prefix("a3s-test-desktop-")
            .tempdir()
            .map_err(|e| GuiError::desktop("private folder", format!("failed: {e}")))?;
        let group = OwnedGroup::start()
            .map_err(|e| GuiError::desktop("process group", format!("failed: {e}")))?;
        let mut members = Vec::new();
        let within = options.step_within;

        // 1. The X server.
        let (reader, writer) = std::io::pipe()
            .map_err(|e| GuiError::desktop("X server", format!("pipe failed: {e}")))?;
        let xvfb = Part {
            name: "X server",
            package: "xvfb",
            program: &options.xvfb,
            args: [
                "-displayfd".into(),
                "1".into(),
                "-screen".into(),
                "0".into(),
                format!("{}x{}x24", options.width, options.height).into(),
                "-nolisten".into(),
                "tcp".into(),
                // Without it the server resets when its last client leaves, and the root
                // window's `AT_SPI_BUS` property (written by a client that then disconnects)
                // is gone before any program starts.
                "-noreset".into(),
            ]
            .into(),
        };
        let x = spawn(&group, dir.path(), &xvfb, &[], Stdio::from(writer))?;
        members.push((xvfb.name, x.pid));
        let number = ready::first_line(reader, &x.exit, within)
            .await
            .map_err(|e| not_ready(&xvfb, dir.path(), e))?;
        let display = format!(":{number}");

        // 2. The private session bus.
        let socket = dir.path().join("session-bus");
        let config = dir.path().join("session-bus.conf");
        std::fs::write(&config, session_bus_config(&socket))
            .map_err(|e| GuiError::desktop("session bus", format!("config not written: {e}")))?;
        let (reader, writer) = std::io::pipe()
            .map_err(|e| GuiError::desktop("session bus", format!("pipe failed: {e}")))?;
        let mut config_arg = OsString::from("--config-file=");
        config_arg.push(&config);
        let dbus = Part {
            name: "session bus",
            package: "dbus-daemon",
            program: &options.dbus_daemon,
            args: vec!["--nofork".into(), config_arg, "--print-address=1".into()],
        };
        let bus = spawn(&group, dir.path(), &dbus, &[], Stdio::from(writer))?;
        members.push((dbus.name, bus.pid));
        let session_bus = ready::first_line(reader, &bus.exit, within)
            .await
            .map_err(|e| not_ready(&dbus, dir.path(), e))?;

        let env = base_env(&display, &session_bus, dir.path());

        // 3. The accessibility bus.
        let launcher = Part {
            name: "accessibility bus",
            package: "at-spi2-core",
            program: &options.bus_launcher,
            args: vec!["--launch-immediately".into(), "--a11y=1".into()],
        };
        let launched = spawn(&group, dir.path(), &launcher, &env, Stdio::null())?;
        members.push((launcher.name, launched.pid));
        let session = connect(&session_bus, "session bus").await?;
        let a11y_bus = ready::poll(&launched.exit, within, None, async || {
            let bus = atspi::proxy::bus::BusProxy::new(&session).await.ok()?;
            bus.get_address().await.ok().filter(|a| !a.is_empty())
        })
        .await
        .map_err(|e| not_ready(&launcher, dir.path(), e))?;

        // 5 (before the registry, so everything started from now on finds the bus through it).
        set_root_property(&display, &a11y_bus)?;

        // 4. The registry.
        let mut env = env;
        env.push(("AT_SPI_BUS_ADDRESS".into(), a11y_bus.clone().into()));
        let registryd = Part {
            name: "registry",
            package: "at-spi2-core",
            program: &options.registryd,
            args: Vec::new(),
        };
        let registry = spawn(&group, dir.path(), &registryd, &env, Stdio::null())?;
        members.push((registryd.name, registry.pid));
        let a11y = connect(&a11y_bus, "accessibility bus").await?;
        ready::poll(&registry.exit, within, None, async || {
            let dbus = zbus::fdo::DBusProxy::new(&a11y).await.ok()?;
            let name = zbus::names::BusName::try_from(REGISTRY).ok()?;
            dbus.name_has_owner(name).await.ok().filter(|owned| *owned)
        })
        .await
        .map_err(|e| not_ready(&registryd, dir.path(), e))?;
        // Before any program starts: see `crate::wait`.
        crate::wait::register(&a11y).await?;

        Ok(Desktop {
            group,
            display,
            session_bus,
            a11y_bus,
            a11y,
            members,
            started_in: started.elapsed(),
            dir,
        })
    }

    /// The X display, e.g. `:3`.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The private session bus's address.
    pub fn session_bus(&self) -> &str {
        &self.session_bus
    }

    /// The accessibility bus's address.
    pub fn a11y_bus(&self) -> &str {
        &self.a11y_bus
    }

    /// A connection to the accessibility bus, shared by everything that reads the desktop.
    pub fn a11y(&self) -> &zbus::Connection {
        &self.a11y
    }

    /// Real input and screenshots on this desktop (a new X connection).
    pub fn input(&self) -> Result<crate::input::Input, GuiError> {
        crate::input::Input::open(&self.display, &self.a11y)
    }

    /// How long [`Desktop::start`] took, until the registry owned its name.
    pub fn started_in(&self) -> Duration {
        self.started_in
    }

    /// The process group every desktop process is in.
    pub fn pgid(&self) -> u32 {
        self.group.pgid()
    }

    /// The desktop's processes this tool started (part name, pid); their own children (the
    /// accessibility bus's daemon) are in the same group.
    pub fn members(&self) -> &[(&'static str, u32)] {
        &self.members
    }

    /// Pids of the desktop group's live processes.
    pub fn live(&self) -> Vec<u32> {
        self.group.live()
    }

    /// The desktop's private folder (sockets, logs, programs' `XDG_RUNTIME_DIR`).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The environment a program on this desktop gets on top of the caller's: set these, and
    /// remove [`Desktop::env_removed`].
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        let mut env = base_env(&self.display, &self.session_bus, self.dir.path());
        env.push(("AT_SPI_BUS_ADDRESS".into(), self.a11y_bus.clone().into()));
        env
    }

    /// Variables removed from a program's inherited environment: ones that switch its
    /// accessibility off (`NO_AT_BRIDGE`, `GTK_A11Y`) or send it to the caller's own display.
    pub fn env_removed() -> &'static [&'static str] {
        &["NO_AT_BRIDGE", "GTK_A11Y", "WAYLAND_DISPLAY", "XAUTHORITY"]
    }

    /// Stop every desktop process and wait (bounded) until none lives; true when none does.
    pub fn shutdown(mut self) -> bool {
        self.group.stop()
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        self.group.stop();
    }
}

/// The variables every desktop process and program shares.
fn base_env(display: &str, session_bus: &str, dir: &Path) -> Vec<(OsString, OsString)> {
    vec![
        ("DISPLAY".into(), display.into()),
        ("DBUS_SESSION_BUS_ADDRESS".into(), session_bus.into()),
        // Private: the accessibility bus's socket and a program's runtime files land here.
        ("XDG_RUNTIME_DIR".into(), dir.into()),
        // No dconf: settings live in memory and nothing is auto-started to store them.
        ("GSETTINGS_BACKEND".into(), "memory".into()),
        // The X server above, never a Wayland compositor of the caller's.
        ("GDK_BACKEND".into(), "x11".into()),
        ("QT_QPA_PLATFORM".into(), "xcb".into()),
        // Qt switches its accessibility bridge on only when asked (or a screen reader runs).
        ("QT_LINUX_ACCESSIBILITY_ALWAYS_ON".into(), "1".into()),
    ]
}

/// Start one desktop part into `group`; its stderr goes to `<dir>/<part>.log`.
fn spawn(
    group: &OwnedGroup,
    dir: &Path,
    part: &Part<'_>,
    env: &[(OsString, OsString)],
    stdout: Stdio,
) -> Result<Member, GuiError> {
    let log = std::fs::File::create(log_path(dir, part.name))
        .map_err(|e| GuiError::desktop(part.name, format!("log not created: {e}")))?;
    let mut command = Command::new(part.program);
    command
        .args(&part.args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(log);
    for name in Desktop::env_removed() {
        command.env_remove(name);
    }
    command.envs(env.iter().map(|(k, v)| (k, v)));
    group.spawn(command).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => GuiError::DesktopMissing {
            program: part.program.display().to_string(),
            package: part.package,
        },
        _ => GuiError::desktop(part.name, format!("failed to start: {e}")),
    })
}

/// Where a part's stderr is kept.
fn log_path(dir: &Path, part: &str) -> PathBuf {
    dir.join(format!("{}.log", part.replace(' ', "-")))
}

/// A part that was not ready, with the last line it logged.
fn not_ready(part: &Part<'_>, dir: &Path, why: NotReady) -> GuiError {
    let log = std::fs::read_to_string(log_path(dir, part.name)).unwrap_or_default();
    let last = log.lines().rev().find(|l| !l.trim().is_empty());
    let problem = match last {
        Some(line) => format!("{why} (its last log line: {})", line.trim()),
        None => why.to_string(),
    };
    GuiError::desktop(part.name, problem)
}

/// Connect to a bus by address.
async fn connect(address: &str, part: &'static str) -> Result<zbus::Connection, GuiError> {
    let builder = zbus::connection::Builder::address(address)
        .map_err(|e| GuiError::desktop(part, format!("has a bad address `{address}`: {e}")))?;
    builder
        // Every call on the bus has a bound: a program that stops answering (busy in a modal
        // loop, hung) fails the call with a timeout instead of hanging the step.
        .method_timeout(CALL_WITHIN)
        .build()
        .await
        .map_err(|e| GuiError::desktop(part, format!("refused a connection: {e}")))
}

/// Write the accessibility bus's address to the root window's `AT_SPI_BUS` property.
fn set_root_property(display: &str, a11y_bus: &str) -> Result<(), GuiError> {
    let failed = |e: &dyn std::fmt::Display| {
        GuiError::desktop("X server", format!("refused the AT_SPI_BUS property: {e}"))
    };
    let (conn, screen) = crate::x11_stream::connect(display, crate::x11_stream::X11_WITHIN)
        .map_err(|e| failed(&e))?;
    let root = conn.setup().roots[screen].root;
    let atom = conn
        .intern_atom(false, b"AT_SPI_BUS")
        .map_err(|e| failed(&e))?
        .reply()
        .map_err(|e| failed(&e))?
        .atom;
    conn.change_property8(
        PropMode::REPLACE,
        root,
        atom,
        AtomEnum::STRING,
        a11y_bus.as_bytes(),
    )
    .map_err(|e| failed(&e))?
    .check()
    .map_err(|e| failed(&e))?;
    Ok(())
}
