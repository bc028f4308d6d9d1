//! Snapshot expectations: `expect { screenshot = "cart.png" … }` (a visual comparison against a
//! baseline image beside the suite) and `expect { aria_snapshot = """…""" }` (the page's
//! accessibility tree against a written outline) — `docs/acl.md` §9.
//!
//! Why their own types: both compare the page with something kept outside the condition (a PNG
//! in `<suite>.snapshots/`, or a multi-line outline that `--update-snapshots` may rewrite in the
//! suite), so the runner, not the driver, decides them; the IR carries exactly the options
//! admission proved valid, and the span an update rewrites.

use super::Target;
use crate::span::Span;
use serde::{Deserialize, Serialize};

/// Longest baseline name, in bytes (the platform suffix and the folder come on top).
pub const MAX_SNAPSHOT_NAME_BYTES: usize = 100;

/// Default perceptual colour threshold (`threshold`), as pixelmatch and Playwright use.
pub const DEFAULT_THRESHOLD: f64 = 0.2;

/// Most targets in one `mask` list.
pub const MAX_MASKS: usize = 64;

/// A baseline's file name as written (`cart.png`): one path component of `[A-Za-z0-9_.-]`,
/// ending in `.png`, not starting with a dot. Kept as written; the platform is added when the
/// file is looked up (`cart-linux.png`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SnapshotName(String);

impl SnapshotName {
    /// The name, if `name` is a valid one; why not otherwise.
    pub fn parse(name: &str) -> Result<SnapshotName, &'static str> {
        let stem = name
            .strip_suffix(".png")
            .ok_or("a baseline name ends in `.png`")?;
        if stem.is_empty() || name.starts_with('.') {
            return Err("a baseline name needs a stem before `.png` and cannot start with a dot");
        }
        if name.len() > MAX_SNAPSHOT_NAME_BYTES {
            return Err("a baseline name is at most 100 bytes");
        }
        if !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        {
            return Err("a baseline name is one file name of letters, digits, `_`, `-` and `.`");
        }
        Ok(SnapshotName(name.to_string()))
    }

    /// The name as written (`cart.png`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The file name for `platform`: `cart.png` on `linux` is `cart-linux.png`.
    pub fn for_platform(&self, platform: &str) -> String {
        let stem = self.0.strip_suffix(".png").unwrap_or(&self.0);
        format!("{stem}-{platform}.png")
    }
}

impl std::fmt::Display for SnapshotName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How many differing pixels a visual comparison tolerates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffBudget {
    /// `max_diff_pixels = N` (the default is 0: any differing pixel fails).
    Pixels(u64),
    /// `max_diff_ratio = R`: at most this fraction (0–1) of all pixels.
    Ratio(f64),
}

/// What `animations` asks of the page while it is captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Animations {
    /// `"disabled"` (the default, as Playwright's): finite animations are finished, infinite
    /// ones cancelled, transitions off.
    Disabled,
    /// `"allow"`: the page is captured as it runs.
    Allow,
}

/// `expect { screenshot = "cart.png" … }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VisualExpectation {
    /// The baseline's name as written.
    pub name: SnapshotName,
    /// Differing pixels tolerated.
    pub budget: DiffBudget,
    /// Perceptual colour distance (0–1) under which two pixels are the same (default 0.2).
    pub threshold: f64,
    /// Elements painted a solid colour in both images before comparing (`mask = [targets]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mask: Vec<Target>,
    /// `full_page = true`: the whole scrollable page, not only the viewport.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub full_page: bool,
    /// `animations = "disabled" | "allow"`.
    pub animations: Animations,
}

/// `expect { aria_snapshot = """…""" [target] }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AriaExpectation {
    /// The outline as written (dedented), one `- role "name" [attr]` per line.
    pub snapshot: String,
    /// The element whose subtree is compared; the whole page when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// Span of the `aria_snapshot` value in its file: what `--update-snapshots` replaces.
    pub value_span: Span,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_one_png_file_and_carry_the_platform() {
        let n = SnapshotName::parse("cart.png").unwrap();
        assert_eq!(n.for_platform("linux"), "cart-linux.png");
        for bad in ["cart", ".png", ".x.png", "a/b.png", "../a.png", "a b.png"] {
            assert!(SnapshotName::parse(bad).is_err(), "{bad}");
        }
        assert!(SnapshotName::parse(&format!("{}.png", "a".repeat(97))).is_err());
    }
}
