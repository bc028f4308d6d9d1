//! `agent inspect`: a typed Page Context request (detail, one scope, an optional diff baseline
//! with a bounded wait, a cursor), checked before anything reaches the page and turned into the
//! bridge's `snapshot` / `waitForDiff` argument. Pure; the engine runs it.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The longest `--wait-timeout-ms` a session turn allows (a turn is bounded at 60 s; the
/// protocol's own ceiling is 300,000 ms).
pub const MAX_WAIT_MS: u64 = 30_000;
/// The longest `--cursor`, in bytes: a cursor is the Test Kit's opaque continuation token
/// (a few dozen bytes); the bound keeps a forged one from growing the bridge request.
pub const MAX_CURSOR_BYTES: usize = 4096;
/// The longest node or component id of a scope, in bytes: the Test Kit's ids are short; the
/// bound keeps a forged one from growing the bridge request.
pub const MAX_SCOPE_ID_BYTES: usize = 256;

/// How much a snapshot reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detail {
    /// Compact records.
    Summary,
    /// Records of one scope.
    Scoped,
    /// What changed since a revision.
    Diff,
    /// Everything, including safe attributes and a few computed styles.
    Forensic,
}

impl Detail {
    /// The protocol spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Detail::Summary => "summary",
            Detail::Scoped => "scoped",
            Detail::Diff => "diff",
            Detail::Forensic => "forensic",
        }
    }
}

/// What part of the page to read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scope {
    /// The whole page.
    Page,
    /// One node (an id from an earlier inspection of this document).
    Node {
        /// The node id.
        id: String,
    },
    /// One component boundary.
    Component {
        /// The component id.
        id: String,
    },
    /// A viewport rectangle in CSS px.
    Region {
        /// Left.
        x: f64,
        /// Top.
        y: f64,
        /// Width (> 0).
        width: f64,
        /// Height (> 0).
        height: f64,
    },
}

/// One inspection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InspectRequest {
    /// Detail level.
    pub detail: Detail,
    /// Scope.
    pub scope: Scope,
    /// Diff baseline (required for, and only allowed with, `diff`).
    pub since_revision: Option<u64>,
    /// Wait up to this long for a change after the baseline (needs `since_revision`).
    pub wait_timeout_ms: Option<u64>,
    /// Continue a truncated response of the exact same request and revision.
    pub cursor: Option<String>,
    /// The observation that follows also shows the UI understanding within this budget, as
    /// `@uN` facts (the inspection itself stays the semantic record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<crate::session::ui::UiBudget>,
}

/// Parse `x,y,w,h` (finite numbers, positive width and height).
pub fn parse_region(s: &str) -> Result<Scope, String> {
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("--region {s:?} is not x,y,w,h"))?;
    match parts.as_slice() {
        [x, y, w, h] if parts.iter().all(|v| v.is_finite()) && *w > 0.0 && *h > 0.0 => {
            Ok(Scope::Region {
                x: *x,
                y: *y,
                width: *w,
                height: *h,
            })
        }
        _ => Err(format!(
            "--region {s:?} must be four finite numbers with a positive width and height"
        )),
    }
}

impl InspectRequest {
    /// Refuse combinations the protocol would reject (never clamp).
    pub fn validate(&self) -> Result<(), String> {
        match (self.detail, self.since_revision) {
            (Detail::Diff, None) => return Err("--detail diff needs --since-revision".into()),
            (Detail::Diff, Some(0)) => return Err("--since-revision starts at 1".into()),
            (Detail::Diff, Some(_)) => {}
            (_, Some(_)) => return Err("--since-revision is only for --detail diff".into()),
            (_, None) => {}
        }
        if let Some(t) = self.wait_timeout_ms {
            if self.since_revision.is_none() {
                return Err("--wait-timeout-ms needs --since-revision".into());
            }
            if t > MAX_WAIT_MS {
                return Err(format!(
                    "--wait-timeout-ms {t} is above {MAX_WAIT_MS} (one session turn)"
                ));
            }
        }
        if let Scope::Node { id } | Scope::Component { id } = &self.scope {
            if id.is_empty() || id.len() > MAX_SCOPE_ID_BYTES {
                return Err(format!(
                    "a node or component id must be 1–{MAX_SCOPE_ID_BYTES} bytes"
                ));
            }
        }
        if self
            .cursor
            .as_deref()
            .is_some_and(|c| c.is_empty() || c.len() > MAX_CURSOR_BYTES)
        {
            return Err(format!("--cursor must be 1–{MAX_CURSOR_BYTES} bytes"));
        }
        if let Some(ui) = &self.ui {
            ui.validate()?;
        }
        Ok(())
    }

    /// The bridge argument (`snapshot(request)`, or `waitForDiff` when waiting).
    pub fn bridge_request(&self) -> Value {
        let scope = match &self.scope {
            Scope::Page => json!({ "kind": "page" }),
            Scope::Node { id } => json!({ "kind": "node", "nodeId": id }),
            Scope::Component { id } => json!({ "kind": "component", "componentId": id }),
            Scope::Region {
                x,
                y,
                width,
                height,
            } => json!({ "kind": "region", "space": "viewport", "x": x, "y": y,
                         "width": width, "height": height }),
        };
        // The agent reads the semantic record; UI evidence is not part of what inspect answers.
        let mut out = json!({ "scope": scope, "ui": false });
        if let Some(c) = &self.cursor {
            out["cursor"] = json!(c);
        }
        if let Some(s) = self.since_revision {
            out["sinceRevision"] = json!(s);
        }
        match self.wait_timeout_ms {
            Some(t) => out["timeoutMs"] = json!(t),
            None => out["detail"] = json!(self.detail.as_str()),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(detail: Detail) -> InspectRequest {
        InspectRequest {
            detail,
            scope: Scope::Page,
            since_revision: None,
            wait_timeout_ms: None,
            cursor: None,
            ui: None,
        }
    }

    #[test]
    fn combinations_are_checked() {
        assert!(req(Detail::Summary).validate().is_ok());
        assert!(req(Detail::Diff).validate().is_err());
        let mut d = req(Detail::Diff);
        d.since_revision = Some(3);
        assert!(d.validate().is_ok());
        d.wait_timeout_ms = Some(MAX_WAIT_MS + 1);
        assert!(d.validate().is_err());
        d.wait_timeout_ms = Some(500);
        assert!(d.validate().is_ok());
        let w = d.bridge_request();
        assert_eq!(w["timeoutMs"], 500);
        assert!(w.get("detail").is_none(), "waitForDiff takes no detail");
        let mut s = req(Detail::Scoped);
        s.since_revision = Some(2);
        assert!(s.validate().is_err());
        let mut t = req(Detail::Summary);
        t.wait_timeout_ms = Some(1);
        assert!(t.validate().is_err());
        let mut n = req(Detail::Scoped);
        n.scope = Scope::Node { id: String::new() };
        assert!(n.validate().is_err());
    }

    #[test]
    fn regions_parse_strictly() {
        assert_eq!(
            parse_region("0, 10,200,50").unwrap(),
            Scope::Region {
                x: 0.0,
                y: 10.0,
                width: 200.0,
                height: 50.0
            }
        );
        for bad in ["1,2,3", "1,2,0,4", "a,b,c,d", "1,2,3,NaN", "1,2,-3,4"] {
            assert!(parse_region(bad).is_err(), "{bad}");
        }
        let mut r = req(Detail::Scoped);
        r.scope = parse_region("1,2,3,4").unwrap();
        assert_eq!(r.bridge_request()["scope"]["space"], "viewport");
        assert_eq!(r.bridge_request()["detail"], "scoped");
    }
}
