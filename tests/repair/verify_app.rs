//! The fixture app of the repair-verify tests (`tests/fixtures/repair-verify/`), served from a
//! loopback server the test starts: the page and the built Test Kit, the app's source files read
//! from the test's project root on every request (so an edit there is what the browser loads
//! next), and a hot-reload channel. [`VerifyApp::edit`] rewrites a source file and announces a
//! new version; the page, which long-polls `/__hot`, re-imports the module and re-renders, the
//! way a dev server's hot reload swaps a module without reloading the document — so the Test
//! Kit reports a newer revision.

use crate::page_server::kit_files;
use std::collections::HashMap;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The app's one component, as the project holds it before the repair.
pub const CHECKOUT: &str = "src/Checkout.js";

/// How long one hot-reload poll is held open before it answers "no change".
const HOLD: Duration = Duration::from_secs(10);

/// A running fixture app.
pub struct VerifyApp {
    /// `http://127.0.0.1:PORT`.
    pub origin: String,
    root: PathBuf,
    version: Arc<(Mutex<u64>, Condvar)>,
}

/// The fixture folder.
fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/repair-verify")
        .join(rel)
}

impl VerifyApp {
    /// Copy the app's sources into `root` and serve the app.
    pub fn start(root: &Path) -> VerifyApp {
        let source = std::fs::read(fixture(CHECKOUT)).unwrap();
        crate::common::write(root, CHECKOUT, source);
        let (listener, origin) = crate::common::loopback();
        let mut files = kit_files();
        files.insert("/".into(), std::fs::read(fixture("index.html")).unwrap());
        let version = Arc::new((Mutex::new(1u64), Condvar::new()));
        let (v, r) = (version.clone(), root.to_path_buf());
        crate::common::serve_each(listener, move |stream| serve(stream, &files, &r, &v));
        VerifyApp {
            origin,
            root: root.to_path_buf(),
            version,
        }
    }

    /// Rewrite the component with a button labelled `label` (and `extra` statements after the
    /// render), then announce the new version to the page.
    pub fn edit(&self, label: &str, extra: &str) {
        let text = format!(
            "// The fixture app's Checkout component after an edit.\nexport function render(root) {{\n  root.innerHTML = '<button data-testid=\"pay\">{label}</button>';\n  {extra}\n}}\n"
        );
        crate::common::write(&self.root, CHECKOUT, text);
        let (lock, changed) = &*self.version;
        *lock.lock().unwrap() += 1;
        changed.notify_all();
    }

    /// Put the component back as the fixture has it, on disk only: no version is announced, so
    /// a page that already rendered the newest version never imports this text (it re-imports
    /// only when `/__hot` answers a newer version, and module imports are cached by URL); only
    /// a fresh load of the page reads it. Call it once the live page shows the edit.
    pub fn revert_unannounced(&self) {
        let source = std::fs::read(fixture(CHECKOUT)).unwrap();
        crate::common::write(&self.root, CHECKOUT, source);
    }
}

fn serve(
    stream: TcpStream,
    files: &HashMap<String, Vec<u8>>,
    root: &Path,
    version: &(Mutex<u64>, Condvar),
) {
    let Some(request) = crate::common::read_request(&stream) else {
        return;
    };
    let target = request.target;
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let (status, kind, body) = if path == "/__hot" {
        let after: i64 = query
            .strip_prefix("after=")
            .and_then(|n| n.parse().ok())
            .unwrap_or(-1);
        let (lock, changed) = version;
        let until = Instant::now() + HOLD;
        let mut current = lock.lock().unwrap();
        while *current as i64 <= after {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            current = changed.wait_timeout(current, left).unwrap().0;
        }
        ("200 OK", "text/plain", current.to_string().into_bytes())
    } else if let Some(rel) = path.strip_prefix("/src/").filter(|r| !r.contains("..")) {
        match std::fs::read(root.join("src").join(rel)) {
            Ok(b) => ("200 OK", "text/javascript", b),
            Err(_) => ("404 Not Found", "text/plain", Vec::new()),
        }
    } else {
        match files.get(path) {
            Some(b) if path.ends_with(".js") => ("200 OK", "text/javascript", b.clone()),
            Some(b) => ("200 OK", "text/html", b.clone()),
            None => ("404 Not Found", "text/plain", Vec::new()),
        }
    };
    crate::common::respond(
        &stream,
        status,
        &format!("{kind}; charset=utf-8"),
        "Cache-Control: no-store\r\n",
        &body,
    );
}
