//! Context options applied to a browser context (`docs/acl.md` §2.4): CDP emulation per tab,
//! permissions per browser context, credentials through the `Fetch` domain.
//!
//! `ignore_https_errors` is `Security.setIgnoreCertificateErrors` on each page session of the
//! context, as Playwright sends it: Chromium keeps that override per target (the page's DevTools
//! agent host), so another scenario's context on the same browser still refuses the certificate
//! (`tests/run/insecure.rs` runs both at once). Its `request` steps read the same remembered
//! option ([`WebContext::ignores_https_errors`]).
//!
//! Why per tab and remembered: Chromium emulates locale, time zone, media features, geolocation,
//! network conditions, headers, the user agent, device metrics and touch per page session, so
//! every tab of the context gets them — the first one before its first navigation, a popup as it
//! is adopted ([`ContextShared::emulation`]). Variables (`env("NAME")` in headers and credentials)
//! are read once, when the options are applied, and kept only in memory ([`Resolved`] shows no
//! value when printed).

use super::cdp::{Session, COMMAND_BOUND};
use super::context::WebContext;
use super::tab::ContextShared;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::vars::{self, VarSource};
use a3s_test_driver::StepFailure;
use a3s_test_lang::ir::{ContextSettings, HttpCredentials, HttpHeader, Permission, TextValue};
use serde_json::{json, Map, Value};
use std::sync::Arc;
use tokio::time::Instant;

/// Context options whose variables are read: every header value and credential is a literal.
/// `Debug` names no value.
#[derive(Clone, Default)]
pub(crate) struct Resolved(pub ContextSettings);

impl std::fmt::Debug for Resolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Resolved(context options)")
    }
}

/// The answer to an HTTP authentication challenge, read from `http_credentials`. `Debug` names
/// no value.
pub(crate) struct Credentials {
    /// The user name.
    pub username: String,
    /// The password.
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Credentials(..)")
    }
}

/// What a context remembers of its options, for the tabs it adopts later: the resolved options
/// and the user-agent override's parameters.
pub(crate) type Remembered = (Resolved, Option<Value>);

/// `settings` with each variable replaced by its value (`test.spec.env_unset` when unset).
pub(crate) fn resolve(
    settings: &ContextSettings,
    source: &dyn VarSource,
) -> Result<Resolved, StepFailure> {
    let read = |v: &TextValue| -> Result<TextValue, StepFailure> {
        Ok(TextValue::literal(vars::resolve(v, source)?.as_str()))
    };
    let mut resolved = settings.clone();
    if let Some(headers) = &settings.extra_http_headers {
        let mut out = Vec::with_capacity(headers.len());
        for h in headers {
            out.push(HttpHeader {
                name: h.name.clone(),
                value: read(&h.value)?,
            });
        }
        resolved.extra_http_headers = Some(out);
    }
    if let Some(c) = &settings.http_credentials {
        resolved.http_credentials = Some(HttpCredentials {
            username: read(&c.username)?,
            password: read(&c.password)?,
        });
    }
    Ok(Resolved(resolved))
}

/// The CDP name of a permission (`Browser.PermissionType`).
fn permission_type(p: Permission) -> &'static [&'static str] {
    match p {
        Permission::Geolocation => &["geolocation"],
        Permission::Notifications => &["notifications"],
        Permission::Camera => &["videoCapture"],
        Permission::Microphone => &["audioCapture"],
        Permission::Midi => &["midi"],
        Permission::MidiSysex => &["midi", "midiSysex"],
        Permission::BackgroundSync => &["backgroundSync"],
        Permission::Sensors => &["sensors"],
        Permission::ClipboardRead => &["clipboardReadWrite"],
        Permission::ClipboardWrite => &["clipboardSanitizedWrite"],
        Permission::PaymentHandler => &["paymentHandler"],
        Permission::StorageAccess => &["storageAccess"],
        Permission::LocalFonts => &["localFonts"],
    }
}

/// The literal text of a resolved value.
fn literal(v: &TextValue) -> &str {
    v.as_literal().unwrap_or_default()
}

/// The emulation commands `settings` asks of one tab, in the order they are sent.
fn tab_commands(settings: &ContextSettings) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    if let Some(locale) = &settings.locale {
        out.push(("Emulation.setLocaleOverride", json!({ "locale": locale })));
    }
    if let Some(zone) = &settings.timezone_id {
        out.push((
            "Emulation.setTimezoneOverride",
            json!({ "timezoneId": zone }),
        ));
    }
    let mut features = Vec::new();
    if let Some(s) = settings.color_scheme {
        features.push(json!({ "name": "prefers-color-scheme", "value": s.keyword() }));
    }
    if let Some(m) = settings.reduced_motion {
        features.push(json!({ "name": "prefers-reduced-motion", "value": m.keyword() }));
    }
    if let Some(c) = settings.forced_colors {
        features.push(json!({ "name": "forced-colors", "value": c.keyword() }));
    }
    if !features.is_empty() {
        out.push((
            "Emulation.setEmulatedMedia",
            json!({ "features": features }),
        ));
    }
    if let Some(g) = settings.geolocation {
        out.push((
            "Emulation.setGeolocationOverride",
            json!({ "latitude": g.latitude, "longitude": g.longitude, "accuracy": g.accuracy }),
        ));
    }
    if let Some(offline) = settings.offline {
        out.push((
            "Network.emulateNetworkConditions",
            json!({
                "offline": offline, "latency": 0,
                "downloadThroughput": -1, "uploadThroughput": -1,
            }),
        ));
    }
    if let Some(headers) = &settings.extra_http_headers {
        let map: Map<String, Value> = headers
            .iter()
            .map(|h| (h.name.clone(), json!(literal(&h.value))))
            .collect();
        out.push(("Network.setExtraHTTPHeaders", json!({ "headers": map })));
    }
    let device = settings.device();
    if let Some(size) = settings.effective_viewport() {
        out.push((
            "Emulation.setDeviceMetricsOverride",
            json!({
                "width": size.width, "height": size.height,
                "deviceScaleFactor": device.map_or(1.0, |d| d.scale),
                "mobile": device.is_some_and(|d| d.mobile),
            }),
        ));
    }
    if settings.ignores_https_errors() {
        out.push((
            "Security.setIgnoreCertificateErrors",
            json!({ "ignore": true }),
        ));
    }
    if let Some(d) = device.filter(|d| d.touch) {
        out.push((
            "Emulation.setTouchEmulationEnabled",
            json!({ "enabled": d.touch, "maxTouchPoints": 5 }),
        ));
    }
    out
}

/// Send `settings`' emulation to one tab, pipelined, each command bounded.
pub(crate) async fn apply_to_tab(
    session: &Session,
    settings: &Resolved,
    user_agent: Option<&Value>,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let mut commands = tab_commands(&settings.0);
    if let Some(ua) = user_agent {
        commands.push(("Emulation.setUserAgentOverride", ua.clone()));
    }
    let calls = commands
        .into_iter()
        .map(|(method, params)| session.call(method, params, COMMAND_BOUND, deadline));
    for result in futures_util::future::join_all(calls).await {
        result.map_err(refused)?;
    }
    Ok(())
}

/// A command Chromium refused while applying options: what the browser said, as the options'
/// failure.
fn refused(f: StepFailure) -> StepFailure {
    if f.code == FailureCode::Protocol {
        StepFailure::new(
            FailureCode::Protocol,
            format!("the browser refused a context option: {}", f.message),
        )
    } else {
        f
    }
}

/// `Emulation.setUserAgentOverride`'s parameters: the user agent (the browser's own when only a
/// locale is set) and the locale as `Accept-Language`, as Playwright sends it.
async fn user_agent_params(
    ctx: &WebContext,
    settings: &ContextSettings,
    deadline: Instant,
) -> Result<Option<Value>, StepFailure> {
    let ua = settings.effective_user_agent().map(str::to_string);
    if ua.is_none() && settings.locale.is_none() {
        return Ok(None);
    }
    let ua = match ua {
        Some(ua) => ua,
        None => {
            let version = ctx
                .cdp
                .call(
                    None,
                    "Browser.getVersion",
                    json!({}),
                    COMMAND_BOUND,
                    deadline,
                )
                .await?;
            version["userAgent"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        }
    };
    let mut params = json!({ "userAgent": ua });
    if let Some(locale) = &settings.locale {
        params["acceptLanguage"] = json!(locale);
    }
    Ok(Some(params))
}

impl WebContext {
    /// Whether this context's options say `ignore_https_errors = true`: its `request` steps then
    /// accept any certificate, as its pages do.
    pub(crate) fn ignores_https_errors(&self) -> bool {
        let stored = self.shared.emulation.lock().expect("emulation lock");
        stored
            .as_deref()
            .is_some_and(|(r, _)| r.0.ignores_https_errors())
    }

    /// Apply a scenario's context options before its first step (see
    /// [`a3s_test_driver::SurfaceContext::apply_context`]).
    pub(crate) async fn apply_settings(
        &mut self,
        settings: &ContextSettings,
        source: &dyn VarSource,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        if settings.is_empty() {
            return Ok(());
        }
        let resolved = resolve(settings, source)?;
        if let Some(size) = settings.effective_viewport() {
            self.viewport = (size.width, size.height);
        }
        let ua = user_agent_params(self, settings, deadline).await?;
        *self.shared.emulation.lock().expect("emulation lock") =
            Some(Arc::new((resolved.clone(), ua.clone())));
        if let Some(c) = &resolved.0.http_credentials {
            *self.shared.credentials.lock().expect("credentials lock") = Some(Credentials {
                username: literal(&c.username).to_string(),
                password: literal(&c.password).to_string(),
            });
        }
        // Every part is independent, so all go at once: the cost is about one round trip. A
        // fresh context has granted nothing, so nothing is reset first.
        let tabs = async {
            for tab in &self.tabs {
                apply_to_tab(&tab.session, &resolved, ua.as_ref(), deadline).await?;
                if resolved.0.http_credentials.is_some() {
                    super::route::apply_patterns(tab, &self.shared, deadline).await?;
                }
            }
            Ok::<(), StepFailure>(())
        };
        let grant = async {
            match &settings.permissions {
                Some(p) => self.grant_only(p, deadline).await,
                None => Ok(()),
            }
        };
        // Registered for the next documents only: the first step has not navigated yet.
        let clock = async {
            match &settings.clock {
                Some(c) => {
                    let config = super::clock::starting_at(c.install_at.unix_ms);
                    super::clock::save(&self.tabs, &self.shared, config, deadline).await
                }
                None => Ok(()),
            }
        };
        let (tabs, grant, clock) = tokio::join!(tabs, grant, clock);
        tabs.and(grant).and(clock)
    }

    /// `context { … }`: change the emulated options of every tab; what the step does not name
    /// stays as it was.
    pub(crate) async fn change_settings(
        &mut self,
        change: &ContextSettings,
        source: &dyn VarSource,
        deadline: Instant,
    ) -> Result<a3s_test_driver::StepOutput, StepFailure> {
        let step = resolve(change, source)?;
        let (current, ua) = {
            let stored = self.shared.emulation.lock().expect("emulation lock");
            stored
                .as_deref()
                .map(|(r, ua)| (r.0.clone(), ua.clone()))
                .unwrap_or_default()
        };
        let merged = Resolved(current.then(&step.0));
        // Media features are replaced as a whole: send every one that is set now.
        let mut sent = step.0.clone();
        sent.color_scheme = merged.0.color_scheme;
        sent.reduced_motion = merged.0.reduced_motion;
        sent.forced_colors = merged.0.forced_colors;
        let sent = Resolved(sent);
        if change.permissions.is_some() {
            self.grant(&merged.0, deadline).await?;
        }
        for tab in &self.tabs {
            apply_to_tab(&tab.session, &sent, None, deadline).await?;
        }
        *self.shared.emulation.lock().expect("emulation lock") = Some(Arc::new((merged, ua)));
        Ok(a3s_test_driver::StepOutput::default())
    }

    /// Grant `settings.permissions` to every origin of this browser context (replacing what was
    /// granted before).
    async fn grant(
        &self,
        settings: &ContextSettings,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        let Some(permissions) = &settings.permissions else {
            return Ok(());
        };
        let id = &self.browser_context_id;
        self.cdp
            .call(
                None,
                "Browser.resetPermissions",
                json!({ "browserContextId": id }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
        self.grant_only(permissions, deadline).await
    }

    /// Grant `permissions` to every origin of this browser context (adding to what it has).
    async fn grant_only(
        &self,
        permissions: &[Permission],
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        if permissions.is_empty() {
            return Ok(());
        }
        let id = &self.browser_context_id;
        let names: Vec<&str> = permissions
            .iter()
            .flat_map(|p| permission_type(*p).iter().copied())
            .collect();
        self.cdp
            .call(
                None,
                "Browser.grantPermissions",
                json!({ "permissions": names, "browserContextId": id }),
                COMMAND_BOUND,
                deadline,
            )
            .await
            .map_err(refused)?;
        Ok(())
    }
}

/// Apply the context's remembered options to a tab it adopts (a popup).
pub(crate) async fn apply_remembered(
    session: &Session,
    shared: &Arc<ContextShared>,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let stored = shared.emulation.lock().expect("emulation lock").clone();
    match stored {
        Some(e) => apply_to_tab(session, &e.0, e.1.as_ref(), deadline).await,
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::ir::{ColorScheme, ViewportSize};

    #[test]
    fn a_device_sets_metrics_touch_and_explicit_viewport_wins() {
        let settings = ContextSettings {
            device: Some("Pixel 7".into()),
            viewport: Some(ViewportSize {
                width: 500,
                height: 600,
            }),
            color_scheme: Some(ColorScheme::Dark),
            ..ContextSettings::default()
        };
        let commands = tab_commands(&settings);
        let methods: Vec<&str> = commands.iter().map(|(m, _)| *m).collect();
        assert_eq!(
            methods,
            [
                "Emulation.setEmulatedMedia",
                "Emulation.setDeviceMetricsOverride",
                "Emulation.setTouchEmulationEnabled"
            ]
        );
        let metrics = &commands[1].1;
        assert_eq!(metrics["width"], 500);
        assert_eq!(metrics["deviceScaleFactor"], 2.625);
        assert_eq!(metrics["mobile"], true);
    }

    #[test]
    fn certificate_errors_are_ignored_only_when_the_option_says_true() {
        let sent = |ignore: Option<bool>| {
            let settings = ContextSettings {
                ignore_https_errors: ignore,
                ..ContextSettings::default()
            };
            tab_commands(&settings)
                .into_iter()
                .filter(|(m, _)| *m == "Security.setIgnoreCertificateErrors")
                .map(|(_, params)| params)
                .collect::<Vec<_>>()
        };
        assert_eq!(sent(Some(true)), [json!({ "ignore": true })]);
        assert!(sent(Some(false)).is_empty() && sent(None).is_empty());
    }

    #[test]
    fn resolved_options_print_no_value() {
        let r = Resolved(ContextSettings::default());
        assert_eq!(format!("{r:?}"), "Resolved(context options)");
    }
}
