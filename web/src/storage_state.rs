//! Saving and loading a context's sign-in state ([`a3s_test_driver::storage_state`]) over CDP.
//!
//! - **Save** (`save_storage_state`): cookies from `Storage.getCookies` for the context's
//!   `browserContextId` (every cookie of the context, HttpOnly ones included, which page script
//!   cannot read), and the localStorage of the top document of every tab, read by
//!   `Runtime.evaluate`, and with `indexed_db = true` every IndexedDB database of that document's
//!   origin ([`super::indexed_db`]). The file is written under the project root through `fsroot`
//!   (a link on the way is refused), atomically, mode 0600, and only once everything was read:
//!   a value that cannot be saved leaves no file behind.
//! - **Load** (a fresh context, before its first step): cookies with `Storage.setCookies` on the
//!   context. localStorage has no CDP setter that works for an origin no document of the context
//!   has loaded (`DOMStorage.setDOMStorageItem` needs a frame of that origin), so for each saved
//!   origin the first tab navigates to `<origin>/.a3s-test-storage-state`, a request the driver
//!   answers itself through `Fetch` interception with an empty page (the app's server never sees
//!   it), sets the items and creates the saved IndexedDB databases there (closing its
//!   connections, so the app's own `open` at a later version is not blocked), then returns to
//!   `about:blank`. Why not
//!   `Page.addScriptToEvaluateOnNewDocument`: the script would run on every later document of the
//!   origin too and overwrite what the scenario's own steps stored, unless it kept a marker the
//!   app could see; a one-time pre-navigation leaves nothing behind.

use super::cdp::COMMAND_BOUND;
use super::context::{detail, WebContext};
use super::route::{self, Answer, Headers, Route};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::storage_state::{
    Cookie, OriginStorage, StorageItem, StorageState, MAX_STORAGE_STATE_BYTES,
    STORAGE_STATE_VERSION,
};
use a3s_test_driver::{StepDetail, StepEnv, StepFailure, StepOutput};
use a3s_test_fsroot::{ConfinedPath, PRIVATE};
use a3s_test_lang::ir::{StatePath, UrlPattern};
use serde_json::{json, Value};
use tokio::time::Instant;

/// The path the driver answers itself while loading an origin's localStorage.
const LOAD_PATH: &str = "/.a3s-test-storage-state";

/// Reads `[origin, [[key, value]…]]` of the top document, or `null` for an opaque origin.
const READ_LOCAL_STORAGE: &str = "(() => { try { if (location.origin === 'null') return null; \
     const items = []; for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); \
     items.push([k, localStorage.getItem(k)]); } return [location.origin, items]; } \
     catch (e) { return null; } })()";

fn failure(code: FailureCode, message: impl Into<String>) -> StepFailure {
    StepFailure::new(code, message)
}

/// `save_storage_state { path indexed_db }`.
pub(crate) async fn save(
    ctx: &mut WebContext,
    path: &StatePath,
    indexed_db: bool,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let state = read_state(ctx, indexed_db, env.deadline).await?;
    let bytes = state.to_json();
    if bytes.len() as u64 > MAX_STORAGE_STATE_BYTES {
        return Err(failure(
            FailureCode::StorageStateUnencodable,
            format!(
                "the storage state would be {} bytes, more than the {} MiB a state file may hold;                  nothing was saved",
                bytes.len(),
                MAX_STORAGE_STATE_BYTES / (1024 * 1024)
            ),
        ));
    }
    let file = ConfinedPath::new(env.working_dir, path.as_str());
    let write = || -> Result<(), a3s_test_fsroot::FsError> {
        if let Some((parent, name)) = file.split() {
            parent.create_dir_all()?.write_atomic(name, &bytes, PRIVATE)
        } else {
            file.write_atomic(&bytes, PRIVATE)
        }
    };
    write().map_err(|e| {
        let code = if e.is_refusal() {
            FailureCode::UnsafePath
        } else {
            FailureCode::StorageStateWrite
        };
        failure(code, format!("failed to save the storage state: {e}"))
    })?;
    Ok(detail(StepDetail::StorageStateSaved {
        storage_state: path.as_str().to_string(),
        cookies: state.cookies.len(),
        origins: state.origins.len(),
        databases: state.origins.iter().map(|o| o.indexed_db.len()).sum(),
    }))
}

/// The context's cookies and the localStorage (and, asked, IndexedDB) of each tab's top
/// document.
async fn read_state(
    ctx: &WebContext,
    indexed_db: bool,
    deadline: Instant,
) -> Result<StorageState, StepFailure> {
    let reply = ctx
        .cdp
        .call(
            None,
            "Storage.getCookies",
            json!({ "browserContextId": ctx.browser_context_id }),
            COMMAND_BOUND,
            deadline,
        )
        .await?;
    let cookies = reply
        .get("cookies")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(cookie_of).collect())
        .unwrap_or_default();
    let mut origins: Vec<OriginStorage> = Vec::new();
    for tab in &ctx.tabs {
        tab.fail_if_dialog()?;
        let params = json!({ "expression": READ_LOCAL_STORAGE, "returnByValue": true });
        let reply = tab
            .session
            .call("Runtime.evaluate", params, COMMAND_BOUND, deadline)
            .await?;
        let Some(Value::Array(pair)) = reply.pointer("/result/value") else {
            continue;
        };
        let (Some(origin), Some(Value::Array(items))) =
            (pair.first().and_then(Value::as_str), pair.get(1))
        else {
            continue;
        };
        if origins.iter().any(|o| o.origin == origin) {
            continue;
        }
        let local_storage = items
            .iter()
            .filter_map(|item| {
                Some(StorageItem {
                    name: item.get(0)?.as_str()?.to_string(),
                    value: item.get(1)?.as_str()?.to_string(),
                })
            })
            .collect();
        let indexed_db = if indexed_db {
            super::indexed_db::read(tab, origin, deadline).await?
        } else {
            Vec::new()
        };
        origins.push(OriginStorage {
            origin: origin.to_string(),
            local_storage,
            indexed_db,
        });
    }
    Ok(StorageState {
        version: STORAGE_STATE_VERSION,
        cookies,
        origins,
    })
}

/// A `Network.Cookie` as saved.
fn cookie_of(c: &Value) -> Option<Cookie> {
    Some(Cookie {
        name: c.get("name")?.as_str()?.to_string(),
        value: c.get("value")?.as_str()?.to_string(),
        domain: c.get("domain")?.as_str()?.to_string(),
        path: c.get("path")?.as_str()?.to_string(),
        expires: c.get("expires").and_then(Value::as_f64).unwrap_or(-1.0),
        http_only: c.get("httpOnly").and_then(Value::as_bool).unwrap_or(false),
        secure: c.get("secure").and_then(Value::as_bool).unwrap_or(false),
        same_site: c
            .get("sameSite")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// A saved cookie as `Storage.setCookies` takes it (a session cookie has no `expires`).
fn cookie_param(c: &Cookie) -> Value {
    let mut param = json!({
        "name": c.name,
        "value": c.value,
        "domain": c.domain,
        "path": c.path,
        "httpOnly": c.http_only,
        "secure": c.secure,
    });
    if c.expires >= 0.0 {
        param["expires"] = json!(c.expires);
    }
    if let Some(same_site) = &c.same_site {
        param["sameSite"] = json!(same_site);
    }
    param
}

impl WebContext {
    /// Load `state` into this fresh context before its first step (see the module doc).
    pub(crate) async fn load_state(
        &mut self,
        state: &StorageState,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        let invalid = |m: String| failure(FailureCode::StorageStateInvalid, m);
        if !state.cookies.is_empty() {
            let cookies: Vec<Value> = state.cookies.iter().map(cookie_param).collect();
            self.cdp
                .call(
                    None,
                    "Storage.setCookies",
                    json!({ "cookies": cookies, "browserContextId": self.browser_context_id }),
                    COMMAND_BOUND,
                    deadline,
                )
                .await
                .map_err(|e| invalid(format!("the browser refused its cookies: {}", e.message)))?;
        }
        let origins: Vec<&OriginStorage> = state
            .origins
            .iter()
            .filter(|o| o.has_page_storage())
            .collect();
        if origins.is_empty() {
            return Ok(());
        }
        for origin in origins {
            self.load_origin(origin, deadline).await?;
        }
        // Back to a blank page: the scenario's first step starts where a fresh context does.
        let tab = self.tab()?;
        let blank = json!({ "url": "about:blank" });
        let reply = tab
            .session
            .call("Page.navigate", blank, COMMAND_BOUND, deadline)
            .await?;
        if let Some(loader) = reply.get("loaderId").and_then(Value::as_str) {
            let _ = tab.wait_loaded(loader, false, deadline).await;
        }
        Ok(())
    }

    /// Open `origin`'s answered-here page in the first tab and set its items and databases there.
    async fn load_origin(
        &mut self,
        origin: &OriginStorage,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        let invalid = |m: String| failure(FailureCode::StorageStateInvalid, m);
        let url = url::Url::parse(&origin.origin)
            .and_then(|u| u.join(LOAD_PATH))
            .map_err(|e| invalid(format!("origin {:?} is not a URL: {e}", origin.origin)))?;
        let pattern = UrlPattern::Glob(url.as_str().replace(['*', '?', '\\'], ""));
        let answer = Answer::Fulfill {
            body: "<!doctype html><title>a3s-test storage state</title>".to_string(),
            status: 200,
            headers: Headers(vec![(
                "Content-Type".to_string(),
                "text/html; charset=utf-8".to_string(),
            )]),
        };
        self.shared
            .routes
            .lock()
            .expect("routes lock")
            .push(Route::new(pattern.clone(), answer, None));
        let loaded = self.open_and_set(url.as_str(), origin, deadline).await;
        self.shared
            .routes
            .lock()
            .expect("routes lock")
            .retain(|r| r.pattern != pattern);
        route::apply_patterns(self.tab()?, &self.shared, deadline).await?;
        loaded
    }

    async fn open_and_set(
        &self,
        url: &str,
        origin: &OriginStorage,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        let invalid = |m: String| failure(FailureCode::StorageStateInvalid, m);
        let tab = self.tab()?;
        route::apply_patterns(tab, &self.shared, deadline).await?;
        let reply = tab
            .session
            .call(
                "Page.navigate",
                json!({ "url": url }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
        if let Some(error) = reply.get("errorText").and_then(Value::as_str) {
            if !error.is_empty() {
                return Err(invalid(format!(
                    "could not open {} to load its localStorage: {error}",
                    origin.origin
                )));
            }
        }
        if let Some(loader) = reply.get("loaderId").and_then(Value::as_str) {
            if tab.wait_loaded(loader, false, deadline).await.is_err() {
                return Err(failure(
                    FailureCode::Timeout,
                    format!(
                        "loading the localStorage of {} ran out of time",
                        origin.origin
                    ),
                ));
            }
        }
        let items: Vec<[&str; 2]> = origin
            .local_storage
            .iter()
            .map(|i| [i.name.as_str(), i.value.as_str()])
            .collect();
        let items = serde_json::to_string(&items).unwrap_or_else(|_| "[]".to_string());
        let expression = format!(
            "(() => {{ for (const [k, v] of {items}) localStorage.setItem(k, v); return location.origin; }})()"
        );
        let reply = tab
            .session
            .call(
                "Runtime.evaluate",
                json!({ "expression": expression, "returnByValue": true }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
        if reply.get("exceptionDetails").is_some()
            || reply.pointer("/result/value").and_then(Value::as_str) != Some(&origin.origin)
        {
            return Err(invalid(format!(
                "could not set the localStorage of {}",
                origin.origin
            )));
        }
        if !origin.indexed_db.is_empty() {
            super::indexed_db::restore(tab, &origin.origin, &origin.indexed_db, deadline).await?;
        }
        Ok(())
    }
}
