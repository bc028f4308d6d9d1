//! `run --grid URL`: the scenarios run on browsers a Selenium Grid 4 hands out, one W3C session
//! per job, each driven over its `se:cdp` endpoint by the same Web driver and executor as a local
//! run ([docs/scale.md](../../docs/scale.md)).
//!
//! This file reads the flags (and `A3S_TEST_GRID`) into [`GridSettings`]; `grid/url.rs` keeps the
//! address's credentials out of sight, `grid/client.rs` makes the bounded WebDriver requests,
//! `grid/sessions.rs` owns the run's sessions until they are deleted, and `grid/launcher.rs`
//! opens them and pools their browsers for the executor.

mod client;
mod launcher;
mod sessions;
mod url;

pub use launcher::GridLauncher;
pub use sessions::Sessions;
pub use url::GridUrl;

use std::sync::Arc;
use std::time::Duration;

use a3s_test_lang::ir::GridConfig;

/// The environment variable that names a Grid when `--grid` is not given.
pub const GRID_ENV: &str = "A3S_TEST_GRID";
/// How long a new session may wait in the Grid's queue by default.
pub const DEFAULT_QUEUE_TIMEOUT_MS: u64 = 60_000;

/// The Grid flags of `run`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GridArgs {
    /// Run the scenarios on a Selenium Grid 4 (`http://host:port`), one session per job
    /// [default: `A3S_TEST_GRID` unless --browser or --browser-endpoint is given].
    #[arg(long, value_name = "URL", conflicts_with_all = ["browser", "browser_endpoint"])]
    pub grid: Option<String>,
    /// Grid sessions to open [default: --jobs; never more than the Grid's free slots].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub grid_sessions: Option<u16>,
    /// Capabilities of each new Grid session, a JSON object whose keys replace the defaults
    /// (`browserName` chrome, `goog:chromeOptions` with `--headless=new --no-sandbox`).
    #[arg(long, value_name = "JSON")]
    pub grid_capabilities: Option<String>,
    /// How long a new Grid session may wait in the Grid's queue for a free slot
    /// [default: the project's `grid.queue_timeout_ms`, else 60000].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub grid_queue_timeout_ms: Option<u64>,
}

/// A run's Grid, as the flags and environment say.
#[derive(Debug, Clone)]
pub struct GridSettings {
    /// Where the Grid is.
    pub url: GridUrl,
    /// Sessions to open (before the Grid's free slots bound them).
    pub sessions: usize,
    /// The `alwaysMatch` capabilities of each session.
    pub capabilities: serde_json::Map<String, serde_json::Value>,
    /// The queue bound of each new session.
    pub queue_timeout: Duration,
}

impl GridSettings {
    /// The launcher of this Grid and the registry `run` releases after the run.
    pub fn launcher(self) -> Result<(GridLauncher, Sessions), String> {
        let client = client::GridClient::new(self.url).map_err(|e| e.to_string())?;
        let sessions = Sessions::new(client);
        let launcher = GridLauncher {
            sessions: sessions.clone(),
            wanted: self.sessions,
            capabilities: Arc::new(self.capabilities),
            queue_timeout: self.queue_timeout,
        };
        Ok((launcher, sessions))
    }
}

/// The default capabilities: headless Chromium without its sandbox (as Playwright launches it;
/// nodes commonly run as root in containers, where the sandbox refuses to start).
fn default_capabilities() -> serde_json::Map<String, serde_json::Value> {
    let value = serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "args": ["--headless=new", "--no-sandbox"] },
    });
    match value {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

/// The Grid of this run, if any: `--grid`, else `A3S_TEST_GRID`, else the project's `grid`
/// block — the last two only when no local browser was asked for. `jobs` is the run's job count
/// (the default session count). Flags win over the project's values; capabilities are written
/// over the defaults, then the project's, then `--grid-capabilities`, key by key. An unusable
/// address or capabilities object is refused with one sentence (exit 2), never repeating the
/// address.
pub fn settings(
    args: &GridArgs,
    env: Option<String>,
    local_browser: bool,
    jobs: usize,
    project: Option<&GridConfig>,
) -> Result<Option<GridSettings>, String> {
    let text = match (&args.grid, env.filter(|v| !v.trim().is_empty()), project) {
        (Some(flag), _, _) => flag.clone(),
        (None, Some(env), _) if !local_browser => env,
        (None, None, Some(grid)) if !local_browser => grid.url.clone(),
        _ => {
            if args.grid_sessions.is_some() || args.grid_capabilities.is_some() {
                return Err(
                    "--grid-sessions and --grid-capabilities need --grid URL (or A3S_TEST_GRID)"
                        .into(),
                );
            }
            return Ok(None);
        }
    };
    let url: GridUrl = text.parse().map_err(|e| format!("--grid: {e}"))?;
    let mut capabilities = default_capabilities();
    if let Some(grid) = project {
        capabilities.extend(grid.capabilities.clone());
    }
    if let Some(json) = &args.grid_capabilities {
        let given: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json)
            .map_err(|e| format!("--grid-capabilities must be a JSON object: {e}"))?;
        capabilities.extend(given);
    }
    Ok(Some(GridSettings {
        url,
        sessions: args
            .grid_sessions
            .or(project.and_then(|g| g.sessions))
            .map(usize::from)
            .unwrap_or(jobs)
            .max(1),
        capabilities,
        queue_timeout: Duration::from_millis(
            args.grid_queue_timeout_ms
                .or(project.and_then(|g| g.queue_timeout_ms))
                .unwrap_or(DEFAULT_QUEUE_TIMEOUT_MS),
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(grid: Option<&str>) -> GridArgs {
        GridArgs {
            grid: grid.map(str::to_string),
            ..GridArgs::default()
        }
    }

    #[test]
    fn the_flag_beats_the_environment_and_a_local_browser_beats_the_environment() {
        let flag = settings(
            &args(Some("http://a:1")),
            Some("http://b:2".into()),
            false,
            3,
            None,
        )
        .unwrap()
        .unwrap();
        assert_eq!(flag.url.to_string(), "http://a:1/");
        assert_eq!(flag.sessions, 3);
        let env = settings(&args(None), Some("http://b:2".into()), false, 2, None)
            .unwrap()
            .unwrap();
        assert_eq!(env.url.to_string(), "http://b:2/");
        assert!(
            settings(&args(None), Some("http://b:2".into()), true, 2, None)
                .unwrap()
                .is_none()
        );
        assert!(settings(&args(None), None, false, 2, None)
            .unwrap()
            .is_none());
    }

    #[test]
    fn capabilities_replace_the_defaults_key_by_key() {
        let mut given = args(Some("http://a:1"));
        given.grid_capabilities =
            Some(r#"{"goog:chromeOptions":{"args":[]},"se:name":"ci"}"#.into());
        let s = settings(&given, None, false, 1, None).unwrap().unwrap();
        assert_eq!(s.capabilities["browserName"], "chrome");
        assert_eq!(
            s.capabilities["goog:chromeOptions"]["args"],
            serde_json::json!([])
        );
        assert_eq!(s.capabilities["se:name"], "ci");
        given.grid_capabilities = Some("[1]".into());
        assert!(settings(&given, None, false, 1, None)
            .unwrap_err()
            .contains("JSON object"));
    }

    #[test]
    fn the_project_block_comes_after_the_flags_and_the_environment() {
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("se:name".into(), "nightly".into());
        let grid = GridConfig {
            url: "http://project:4444".into(),
            sessions: Some(5),
            capabilities,
            queue_timeout_ms: Some(9_000),
        };
        let s = settings(&args(None), None, false, 2, Some(&grid))
            .unwrap()
            .unwrap();
        assert_eq!(s.url.to_string(), "http://project:4444/");
        assert_eq!(s.sessions, 5);
        assert_eq!(s.capabilities["se:name"], "nightly");
        assert_eq!(s.capabilities["browserName"], "chrome");
        assert_eq!(s.queue_timeout, Duration::from_millis(9_000));
        let mut flags = args(None);
        flags.grid_sessions = Some(1);
        flags.grid_queue_timeout_ms = Some(100);
        flags.grid_capabilities = Some(r#"{"se:name":"flag"}"#.into());
        let s = settings(&flags, Some("http://env:1".into()), false, 2, Some(&grid))
            .unwrap()
            .unwrap();
        assert_eq!(s.url.to_string(), "http://env:1/");
        assert_eq!(
            (s.sessions, s.queue_timeout),
            (1, Duration::from_millis(100))
        );
        assert_eq!(s.capabilities["se:name"], "flag");
        assert!(settings(&args(None), None, true, 2, Some(&grid))
            .unwrap()
            .is_none());
    }

    #[test]
    fn a_refused_address_does_not_repeat_its_password() {
        let e = settings(&args(Some("ftp://u:hunter22@grid:1")), None, false, 1, None).unwrap_err();
        assert!(e.contains("http://") && !e.contains("hunter22"), "{e}");
    }
}
