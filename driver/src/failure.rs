//! Runtime failure codes (`test.assert.*`, `test.driver.web.*`, `test.run.*`) and their classes.
//!
//! Admission codes (`test.spec.*`) live in `a3s-test-lang`; the one spec-class code here,
//! [`FailureCode::EvidencePathEscape`], is the runtime half of the evidence-path rule (a symlink
//! can only be detected on disk). Codes are a typed enum so every result and reporter agrees on
//! the spelling, and so the failure class is derived, never guessed from a string.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Which party a failure blames. Kept separate in every result (`docs/acl.md` §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    /// The product did not match the expectation (`test.assert.*`, target not found …).
    Product,
    /// The suite itself is wrong or asks for something impossible (`test.spec.*`).
    Specification,
    /// The browser, driver or runner failed (`test.driver.web.*` infrastructure, `test.run.*`).
    Infrastructure,
    /// Tearing down failed after the verdict was known.
    Cleanup,
}

macro_rules! failure_codes {
    ($( $(#[doc = $doc:literal])* $variant:ident => $name:literal, $class:ident; )*) => {
        /// A stable runtime failure code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum FailureCode {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl FailureCode {
            /// Every code, in registry order.
            pub const ALL: &'static [FailureCode] = &[ $( FailureCode::$variant, )* ];

            /// The stable dotted name.
            pub fn as_str(self) -> &'static str {
                match self { $( FailureCode::$variant => $name, )* }
            }

            /// The failure class this code belongs to.
            pub fn class(self) -> FailureClass {
                match self { $( FailureCode::$variant => FailureClass::$class, )* }
            }

            /// Look a code up by name.
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $( $name => Some(FailureCode::$variant), )* _ => None }
            }
        }
    };
}

failure_codes! {
    /// Visible page text did not contain the expected text.
    TextMismatch => "test.assert.text_mismatch", Product;
    /// The URL was not the expected one.
    UrlMismatch => "test.assert.url_mismatch", Product;
    /// The target was expected visible and is not.
    NotVisible => "test.assert.not_visible", Product;
    /// The target was expected hidden and a visible match exists.
    NotHidden => "test.assert.not_hidden", Product;
    /// The target does not intersect the viewport.
    NotInViewport => "test.assert.not_in_viewport", Product;
    /// Something covers the target's centre.
    NotPointerReachable => "test.assert.not_pointer_reachable", Product;
    /// Rendered text (or texts) differ.
    RenderedTextMismatch => "test.assert.rendered_text_mismatch", Product;
    /// Visible match count differs.
    CountMismatch => "test.assert.count_mismatch", Product;
    /// A control's value differs.
    ValueMismatch => "test.assert.value_mismatch", Product;
    /// Selected option values differ.
    SelectionMismatch => "test.assert.selection_mismatch", Product;
    /// A control or semantic state differs.
    StateMismatch => "test.assert.state_mismatch", Product;
    /// A layout relation does not hold.
    LayoutMismatch => "test.assert.layout_mismatch", Product;
    /// Viewport coverage outside the bound.
    CoverageMismatch => "test.assert.coverage_mismatch", Product;
    /// A later sample of a stability window was false.
    Unstable => "test.assert.unstable", Product;
    /// No element matched the target.
    TargetNotFound => "test.driver.web.target_not_found", Product;
    /// Several elements matched the target.
    TargetAmbiguous => "test.driver.web.target_ambiguous", Product;
    /// One match, but never visible, enabled and stable in time.
    TargetNotActionable => "test.driver.web.target_not_actionable", Product;
    /// A navigation failed (DNS, refused, HTTP error page is not a failure).
    NavigationFailed => "test.driver.web.navigation_failed", Product;
    /// No dialog was open for a dialog operation.
    NoDialog => "test.driver.web.no_dialog", Product;
    /// No tab with that label or index.
    TabNotFound => "test.driver.web.tab_not_found", Product;
    /// The frame target is not an iframe, or its document is cross-origin.
    FrameUnavailable => "test.driver.web.frame_unavailable", Product;
    /// The click did not start a download in time.
    DownloadMissing => "test.driver.web.download_missing", Product;
    /// A JavaScript dialog the suite did not handle blocks the page (add a `dialog` step).
    DialogBlocking => "test.driver.web.dialog_blocking", Product;
    /// The page has a Test Kit bridge whose handshake is incompatible (protocol, package,
    /// SDK version range or capabilities).
    PageContextIncompatible => "test.driver.web.page_context_incompatible", Product;
    /// The Page Context revision kept changing while an observation was taken (retried once).
    PageContextChanged => "test.driver.web.page_context_changed", Product;
    /// The browser could not be launched or attached.
    BrowserLaunch => "test.driver.web.browser_launch", Infrastructure;
    /// The browser process died or the CDP connection dropped.
    BrowserCrashed => "test.driver.web.browser_crashed", Infrastructure;
    /// A CDP command did not answer within its deadline.
    CommandTimeout => "test.driver.web.command_timeout", Infrastructure;
    /// A CDP command answered with an error the driver did not expect.
    Protocol => "test.driver.web.protocol", Infrastructure;
    /// A `css()` selector is not valid CSS.
    InvalidSelector => "test.driver.web.invalid_selector", Specification;
    /// `har`/`trace` stop without a running recording.
    CaptureNotStarted => "test.driver.web.capture_not_started", Specification;
    /// The driver cannot perform this step (capability check).
    Unsupported => "test.driver.web.unsupported", Specification;
    /// An evidence path resolves outside the artifact folder (symlink) or cannot be written.
    EvidencePathEscape => "test.spec.evidence_path", Specification;
    /// An evidence path over the length or depth limits (checked before any folder is made).
    EvidencePathLimit => "test.spec.evidence_path_limit", Specification;
    /// An upload path does not exist or escapes the working directory.
    UploadPath => "test.driver.web.upload_path", Specification;
    /// Writing evidence to disk failed.
    EvidenceWrite => "test.run.evidence_write", Infrastructure;
    /// The scenario deadline passed: a step, a `wait` or an action waiting for its target ran
    /// into it (the message says what was awaited).
    Timeout => "test.run.timeout", Infrastructure;
    /// The run was cancelled (Ctrl+C).
    Cancelled => "test.run.cancelled", Infrastructure;
    /// The scenario's surface has no driver (gui/tui today).
    UnsupportedSurface => "test.run.unsupported_surface", Specification;
    /// The dev server did not start or answer in time.
    DevServer => "test.run.dev_server", Infrastructure;
    /// Closing a context, browser or server failed or left a process behind.
    CleanupFailed => "test.run.cleanup_failed", Cleanup;
}

impl std::fmt::Display for FailureCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for FailureCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Read back from a JSON result (`merge-reports`): an unknown name is an error, never a guess.
impl<'de> Deserialize<'de> for FailureCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        FailureCode::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown failure code `{name}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for code in FailureCode::ALL {
            assert!(seen.insert(code.as_str()));
            assert_eq!(FailureCode::from_name(code.as_str()), Some(*code));
        }
        assert_eq!(FailureCode::TargetNotFound.class(), FailureClass::Product);
        assert_eq!(
            FailureCode::BrowserCrashed.class(),
            FailureClass::Infrastructure
        );
    }
}
