//! Test helper, not a product binary: for `process_exit_reaps_a_driver_that_was_never_dropped`
//! in `tests/lifecycle.rs`. It launches a browser, prints `PGID=<process group>` and exits the
//! process without dropping the driver, so the test can check that process exit alone reaps the
//! browser group. A separate binary (rather than the test binary re-run with a filter) keeps the
//! helper out of the test count.

use a3s_test_web::{LaunchOptions, WebDriver, DEFAULT_BROWSER};
use std::sync::OnceLock;

fn main() {
    // Kept in a static so nothing drops it before the exit.
    static KEPT: OnceLock<WebDriver> = OnceLock::new();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let options = LaunchOptions {
        executable: Some(DEFAULT_BROWSER.into()),
        ..LaunchOptions::default()
    };
    let driver = runtime
        .block_on(WebDriver::launch(options))
        .expect("launch chromium");
    let ids = driver.browser_process().expect("a launched browser");
    let _ = KEPT.set(driver);
    println!("PGID={}", ids.pgid);
    std::process::exit(0);
}
