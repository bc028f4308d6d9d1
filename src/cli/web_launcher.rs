//! The launcher `run` hands to the runner: starts (or attaches to) Chromium through the Web driver.
//!
//! Capabilities come from the driver's static list (`web::capabilities`), so the runner's capability gate works
//! before (and without) a browser.

use a3s_test_driver::{Capabilities, DriverError};
use a3s_test_runner::executor::DriverLauncher;
use a3s_test_web::{LaunchOptions, WebDriver};
use std::path::PathBuf;
use std::time::Duration;

/// Browser settings for one run.
#[derive(Debug, Clone)]
pub struct WebLauncher {
    /// Explicit executable (`--browser`, `A3S_TEST_BROWSER`, project), else the driver default.
    pub executable: Option<PathBuf>,
    /// Show the window.
    pub headed: bool,
    /// Attach to this DevTools endpoint instead of launching.
    pub endpoint: Option<String>,
}

impl DriverLauncher for WebLauncher {
    type Driver = WebDriver;

    fn capabilities(&self) -> Capabilities {
        a3s_test_web::capabilities()
    }

    async fn launch(self, timeout: Duration) -> Result<WebDriver, DriverError> {
        match &self.endpoint {
            Some(endpoint) => WebDriver::attach(endpoint, true).await,
            None => {
                let options = LaunchOptions {
                    executable: self.executable,
                    headed: self.headed,
                    launch_timeout: timeout,
                    ..LaunchOptions::default()
                };
                WebDriver::launch(options).await
            }
        }
    }
}

/// The launcher `agent supervise` hands to the session supervisor: the browser an agent session
/// owns (no prepared spare contexts, frames drawn back to back since each turn waits on them,
/// reaped when the supervisor exits). Chosen here so `a3s_test_runner::session` stays generic
/// over the driver contract.
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionLauncher {
    /// Show the window (`a3s-test dev` with a display or `--headed`); agent sessions are headless.
    pub headed: bool,
}

impl DriverLauncher for SessionLauncher {
    type Driver = WebDriver;

    fn capabilities(&self) -> Capabilities {
        a3s_test_web::capabilities()
    }

    async fn launch(self, timeout: Duration) -> Result<WebDriver, DriverError> {
        WebDriver::launch(LaunchOptions {
            prewarm: false,
            headed: self.headed,
            unlimited_frame_rate: true,
            reap_at_exit: true,
            launch_timeout: timeout,
            ..LaunchOptions::default()
        })
        .await
    }
}
