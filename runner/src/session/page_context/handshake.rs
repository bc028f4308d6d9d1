//! Deciding what a page's Test Kit bridge is from its handshake
//! (`a3s.test.testkit-handshake/1`). An absent bridge is normal (the page keeps working on
//! accessibility refs alone); a present one must name the expected protocols and package, an
//! SDK version in the supported range and the capabilities the session relies on — otherwise it
//! is incompatible, which is an error of its own (`test.driver.web.page_context_incompatible`),
//! never a silent fallback.

use serde_json::Value;

/// The handshake protocol.
pub const HANDSHAKE_PROTOCOL: &str = "a3s.test.testkit-handshake/1";
/// The snapshot protocol the bridge must speak.
pub const PAGE_CONTEXT_PROTOCOL: &str = "a3s.test.page-context/1";
/// The npm package the bridge must come from.
pub const PACKAGE_NAME: &str = "@a3s-lab/testkit";
/// Capabilities every compatible bridge must offer.
pub const REQUIRED_CAPABILITIES: [&str; 3] = ["snapshot.summary", "snapshot.diff", "scope.page"];
/// Supported SDK versions: `>= 0.1.0, < 0.2.0` (0.x minors may break the contract).
pub const SDK_MIN: (u64, u64, u64) = (0, 1, 0);
/// Exclusive upper bound of supported SDK versions.
pub const SDK_BELOW: (u64, u64, u64) = (0, 2, 0);

/// A compatible bridge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bridge {
    /// The SDK version it reported.
    pub sdk_version: String,
    /// The capabilities it advertised.
    pub capabilities: Vec<String>,
}

/// Parse `major.minor.patch` (an optional `-pre`/`+build` suffix is ignored for the range).
fn semver(s: &str) -> Option<(u64, u64, u64)> {
    let core = s.split(['-', '+']).next()?;
    let mut parts = core.split('.');
    let mut next = || parts.next().and_then(|p| p.parse::<u64>().ok());
    let v = (next()?, next()?, next()?);
    Some(v)
}

/// Check a handshake record. `Ok(bridge)` if compatible; `Err(reason)` (never page text beyond
/// the reported version) if not.
pub fn check(handshake: &Value) -> Result<Bridge, String> {
    let field = |name: &str| handshake.get(name).and_then(Value::as_str);
    if field("protocol") != Some(HANDSHAKE_PROTOCOL) {
        return Err(format!(
            "the handshake protocol is not {HANDSHAKE_PROTOCOL}"
        ));
    }
    if field("packageName") != Some(PACKAGE_NAME) {
        return Err(format!("the bridge is not from {PACKAGE_NAME}"));
    }
    if field("pageContextProtocol") != Some(PAGE_CONTEXT_PROTOCOL) {
        return Err(format!("the bridge does not speak {PAGE_CONTEXT_PROTOCOL}"));
    }
    let version = field("sdkVersion").unwrap_or("");
    let parsed = semver(version).filter(|v| *v >= SDK_MIN && *v < SDK_BELOW);
    if parsed.is_none() {
        let shown: String = version.chars().take(32).collect();
        return Err(format!(
            "sdkVersion {shown:?} is outside the supported range >=0.1.0 <0.2.0"
        ));
    }
    let Some(caps) = handshake.get("capabilities").and_then(Value::as_array) else {
        return Err("the handshake lists no capabilities".into());
    };
    let capabilities: Vec<String> = caps
        .iter()
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect();
    if let Some(missing) = REQUIRED_CAPABILITIES
        .iter()
        .find(|r| !capabilities.iter().any(|c| c == *r))
    {
        return Err(format!("the bridge lacks the capability {missing}"));
    }
    Ok(Bridge {
        sdk_version: version.to_string(),
        capabilities,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn good() -> Value {
        json!({
            "protocol": HANDSHAKE_PROTOCOL,
            "packageName": PACKAGE_NAME,
            "sdkVersion": "0.1.0",
            "pageContextProtocol": PAGE_CONTEXT_PROTOCOL,
            "capabilities": ["snapshot.summary", "snapshot.scoped", "snapshot.diff", "scope.page"]
        })
    }

    #[test]
    fn accepts_the_current_sdk() {
        let b = check(&good()).unwrap();
        assert_eq!(b.sdk_version, "0.1.0");
        let mut v = good();
        v["sdkVersion"] = json!("0.1.7-beta.1");
        assert!(check(&v).is_ok());
    }

    #[test]
    fn refuses_incompatible_bridges() {
        let cases: Vec<(&str, Value)> = vec![
            ("protocol", json!("a3s.test.testkit-handshake/2")),
            ("packageName", json!("@evil/testkit")),
            ("pageContextProtocol", json!("a3s.test.page-context/2")),
            ("sdkVersion", json!("0.2.0")),
            ("sdkVersion", json!("0.0.9")),
            ("sdkVersion", json!("1.0.0")),
            ("sdkVersion", json!("banana")),
            ("sdkVersion", json!(1)),
            ("capabilities", json!(["snapshot.summary"])),
            ("capabilities", json!("snapshot.diff")),
        ];
        for (field, value) in cases {
            let mut v = good();
            v[field] = value.clone();
            assert!(check(&v).is_err(), "{field} = {value}");
        }
        assert!(check(&json!(null)).is_err());
    }
}
