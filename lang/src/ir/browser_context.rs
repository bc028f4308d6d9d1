//! Context options (`docs/acl.md` §2.4): how the page's world looks to it — locale, time zone,
//! media features, geolocation and permissions, the network, headers, credentials, the user agent,
//! the viewport, a device, the clock, whether certificate errors are ignored.
//!
//! Why one struct of options, each `None` when not written: the project, the suite and the
//! scenario may each set any of them, the later one winning per option ([`ContextSettings::then`]),
//! and the `context` step changes the emulated ones mid-scenario with the same type. A value is
//! admitted here once (a real IANA time zone, a known device, an RFC 3339 instant), so the driver
//! only applies what it is given.

use super::devices::Device;
use super::text_value::TextValue;
use serde::{Deserialize, Serialize};

/// Every context option one level (project, suite, scenario, `context` step) sets.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContextSettings {
    /// `locale = "de-DE"`: `navigator.language`, `Intl` defaults, `Accept-Language`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// `timezone_id = "Asia/Tokyo"`: an IANA time zone name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone_id: Option<String>,
    /// `color_scheme`: `prefers-color-scheme`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color_scheme: Option<ColorScheme>,
    /// `reduced_motion`: `prefers-reduced-motion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced_motion: Option<ReducedMotion>,
    /// `forced_colors`: `forced-colors`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced_colors: Option<ForcedColors>,
    /// `geolocation = { latitude, longitude, accuracy }`: what `navigator.geolocation` reports
    /// (the page also needs `permissions = ["geolocation"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<Geolocation>,
    /// `permissions = [...]`: granted to every origin of the context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Vec<Permission>>,
    /// `offline = true`: every request fails and `navigator.onLine` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offline: Option<bool>,
    /// `extra_http_headers = { "X-Name" = "…" }`: sent with every request, in source order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_http_headers: Option<Vec<HttpHeader>>,
    /// `http_credentials = { username, password }`: answers HTTP authentication challenges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_credentials: Option<HttpCredentials>,
    /// `user_agent = "…"`: `navigator.userAgent` and the `User-Agent` header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// `viewport = { width, height }` in CSS px.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewport: Option<ViewportSize>,
    /// `device = "Pixel 7"`: a row of [`super::devices::DEVICES`] (viewport, scale, mobile,
    /// touch, user agent); `viewport` and `user_agent` written beside it win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// `clock = { install_at = "…" }`: the page's clock is controlled from its first document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockInstall>,
    /// `ignore_https_errors = true`: the scenario's pages load, and its `request` steps send to,
    /// HTTPS servers whose certificate the browser or the machine does not trust (a self-signed
    /// local or staging server). Opt-in per context, like Playwright's `ignoreHTTPSErrors`; it
    /// never reaches the Grid, providers or the runner's other requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_https_errors: Option<bool>,
}

impl ContextSettings {
    /// True when nothing is set (serialization leaves it out).
    pub fn is_empty(&self) -> bool {
        self == &ContextSettings::default()
    }

    /// These settings with `later`'s written over them, option by option: what a scenario gets
    /// from its project, then suite, then its own (later wins).
    pub fn then(&self, later: &ContextSettings) -> ContextSettings {
        fn pick<T: Clone>(earlier: &Option<T>, later: &Option<T>) -> Option<T> {
            later.clone().or_else(|| earlier.clone())
        }
        ContextSettings {
            locale: pick(&self.locale, &later.locale),
            timezone_id: pick(&self.timezone_id, &later.timezone_id),
            color_scheme: pick(&self.color_scheme, &later.color_scheme),
            reduced_motion: pick(&self.reduced_motion, &later.reduced_motion),
            forced_colors: pick(&self.forced_colors, &later.forced_colors),
            geolocation: pick(&self.geolocation, &later.geolocation),
            permissions: pick(&self.permissions, &later.permissions),
            offline: pick(&self.offline, &later.offline),
            extra_http_headers: pick(&self.extra_http_headers, &later.extra_http_headers),
            http_credentials: pick(&self.http_credentials, &later.http_credentials),
            user_agent: pick(&self.user_agent, &later.user_agent),
            viewport: pick(&self.viewport, &later.viewport),
            device: pick(&self.device, &later.device),
            clock: pick(&self.clock, &later.clock),
            ignore_https_errors: pick(&self.ignore_https_errors, &later.ignore_https_errors),
        }
    }

    /// Whether certificate errors are ignored for this context's pages and requests (default
    /// no).
    pub fn ignores_https_errors(&self) -> bool {
        self.ignore_https_errors == Some(true)
    }

    /// The device row `device` names (admission made sure it exists).
    pub fn device(&self) -> Option<&'static Device> {
        self.device.as_deref().and_then(Device::named)
    }

    /// The viewport the context starts with: `viewport`, else the device's, else `None` (the
    /// driver's default).
    pub fn effective_viewport(&self) -> Option<ViewportSize> {
        self.viewport.or_else(|| self.device().map(|d| d.viewport))
    }

    /// The user agent: `user_agent`, else the device's.
    pub fn effective_user_agent(&self) -> Option<&str> {
        self.user_agent
            .as_deref()
            .or_else(|| self.device().map(|d| d.user_agent))
    }
}

keyword_enum! {
    /// `color_scheme`: what `prefers-color-scheme` matches.
    ColorScheme {
        Light => "light", Dark => "dark", NoPreference => "no-preference",
    }
}

keyword_enum! {
    /// `reduced_motion`: what `prefers-reduced-motion` matches.
    ReducedMotion {
        Reduce => "reduce", NoPreference => "no-preference",
    }
}

keyword_enum! {
    /// `forced_colors`: what `forced-colors` matches.
    ForcedColors {
        Active => "active", Off => "none",
    }
}

keyword_enum! {
    /// `permissions`: what a context may grant its pages (Playwright's names).
    Permission {
        Geolocation => "geolocation",
        Notifications => "notifications",
        Camera => "camera",
        Microphone => "microphone",
        Midi => "midi",
        MidiSysex => "midi-sysex",
        BackgroundSync => "background-sync",
        Sensors => "sensors",
        ClipboardRead => "clipboard-read",
        ClipboardWrite => "clipboard-write",
        PaymentHandler => "payment-handler",
        StorageAccess => "storage-access",
        LocalFonts => "local-fonts",
    }
}

/// A position `navigator.geolocation` reports.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Geolocation {
    /// Degrees, −90 to 90.
    pub latitude: f64,
    /// Degrees, −180 to 180.
    pub longitude: f64,
    /// Metres, ≥ 0 (default 0).
    pub accuracy: f64,
}

/// One extra request header. Its value may read a variable; it is never shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpHeader {
    /// The header name as written (an HTTP token).
    pub name: String,
    /// Its value: a literal or `env("NAME")`.
    pub value: TextValue,
}

/// `http_credentials`: the answer to an HTTP authentication challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpCredentials {
    /// The user name.
    pub username: TextValue,
    /// The password, usually `env("NAME")`; never shown.
    pub password: TextValue,
}

/// A viewport size in CSS px.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewportSize {
    /// Width (> 0).
    pub width: u32,
    /// Height (> 0).
    pub height: u32,
}

/// `clock = { install_at = "…" }`: the instant the page's clock starts at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockInstall {
    /// Where the page's time starts; it then flows with real time until a clock step says
    /// otherwise.
    pub install_at: ClockTime,
}

/// An instant written in RFC 3339 (`2020-01-01T00:00:00Z`), admitted once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockTime {
    /// Milliseconds since the Unix epoch (what `Date.now()` answers).
    pub unix_ms: i64,
    /// The instant as written, for messages.
    pub text: String,
}

impl std::fmt::Display for ClockTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}
