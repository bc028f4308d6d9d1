//! The browser's temporary profile folder, and the sweep that removes profiles whose owner died
//! without removing them.
//!
//! A browser killed with its owner (SIGKILL of `a3s-test run`, see [`a3s_test_driver::child`]) leaves its
//! profile behind, since no code of the owner runs again. Each profile therefore carries a marker
//! file naming its owner and its browser by pid *and* start time; the next launch on the machine
//! removes every profile whose owner and browser are both gone. The folder name prefix only
//! narrows the scan: nothing is removed without a readable marker proving it is dead, and a
//! profile still in use (by this or any other live a3s-test process) is never touched.

use a3s_test_driver::atomic::{write_atomic, Permissions};
use a3s_test_driver::process::{is_alive, start_time};
use std::path::Path;

/// Prefix of profile folders in the temp folder.
const PREFIX: &str = "a3s-test-browser-";
/// The marker file inside a profile.
const MARKER: &str = "a3s-test-owner";

/// Who a profile belongs to: `(pid, start time)` of the owner and, once launched, the browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProfileMarker {
    owner: (u32, u64),
    browser: Option<(u32, u64)>,
}

impl ProfileMarker {
    /// The marker of a profile this process owns (no browser yet).
    fn owner() -> ProfileMarker {
        let pid = std::process::id();
        ProfileMarker {
            owner: (pid, start_time(pid).unwrap_or(0)),
            browser: None,
        }
    }

    /// The same marker with the launched browser recorded.
    pub fn with_browser(self, pid: u32) -> ProfileMarker {
        ProfileMarker {
            browser: start_time(pid).map(|start| (pid, start)),
            ..self
        }
    }

    /// Write the marker into `profile` (best effort: a profile without a marker is never swept,
    /// only leaked, which is the safe side).
    pub fn write(&self, profile: &Path) {
        let (browser, browser_start) = self.browser.unwrap_or((0, 0));
        let text = format!(
            "{} {} {browser} {browser_start}\n",
            self.owner.0, self.owner.1
        );
        let _ = write_atomic(
            &profile.join(MARKER),
            text.as_bytes(),
            ".a3s-test-owner-",
            Permissions::Private,
        );
    }

    fn parse(text: &str) -> Option<ProfileMarker> {
        let n: Vec<u64> = text
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        let [owner, owner_start, browser, browser_start] = n[..] else {
            return None;
        };
        Some(ProfileMarker {
            owner: (u32::try_from(owner).ok()?, owner_start),
            browser: (browser != 0).then_some((u32::try_from(browser).ok()?, browser_start)),
        })
    }

    /// True when neither the owner nor the browser is alive any more.
    fn is_dead(&self) -> bool {
        !is_alive(self.owner.0, self.owner.1) && !self.browser.is_some_and(|(p, s)| is_alive(p, s))
    }
}

/// Create a fresh profile folder owned by this process, with its marker.
pub(crate) fn create() -> std::io::Result<(tempfile::TempDir, ProfileMarker)> {
    let profile = tempfile::Builder::new().prefix(PREFIX).tempdir()?;
    let marker = ProfileMarker::owner();
    marker.write(profile.path());
    Ok((profile, marker))
}

/// Remove the profiles in the temp folder whose marker proves owner and browser dead. Returns
/// how many were removed.
pub(crate) fn sweep_stale() -> usize {
    sweep_in(&std::env::temp_dir())
}

fn sweep_in(folder: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let named = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(PREFIX));
        // A real folder only (never follow a symlink someone planted).
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !named || !is_dir {
            continue;
        }
        let path = entry.path();
        let Some(marker) = std::fs::read_to_string(path.join(MARKER))
            .ok()
            .and_then(|t| ProfileMarker::parse(&t))
        else {
            continue;
        };
        if marker.is_dead() && std::fs::remove_dir_all(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_profiles_of_dead_owners_are_swept() {
        let folder = tempfile::tempdir().unwrap();
        let make = |name: &str, marker: Option<&str>| {
            let dir = folder.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            if let Some(m) = marker {
                std::fs::write(dir.join(MARKER), m).unwrap();
            }
            dir
        };
        let me = ProfileMarker::owner();
        let live = make(
            &format!("{PREFIX}live"),
            Some(&format!("{} {} 0 0", me.owner.0, me.owner.1)),
        );
        // Our pid with another start time: a recycled pid, so the owner is dead.
        let dead = make(
            &format!("{PREFIX}dead"),
            Some(&format!("{} {} 0 0", me.owner.0, me.owner.1 + 1)),
        );
        let browser_alive = make(
            &format!("{PREFIX}browser"),
            Some(&format!("1 0 {} {}", me.owner.0, me.owner.1)),
        );
        let unmarked = make(&format!("{PREFIX}unmarked"), None);
        let other = make("someone-else", Some("1 0 0 0"));
        assert_eq!(sweep_in(folder.path()), 1);
        assert!(!dead.exists());
        for kept in [live, browser_alive, unmarked, other] {
            assert!(kept.exists(), "{}", kept.display());
        }
    }

    #[test]
    fn markers_round_trip() {
        let m = ProfileMarker::owner().with_browser(std::process::id());
        let (b, bs) = m.browser.unwrap();
        let text = format!("{} {} {b} {bs}", m.owner.0, m.owner.1);
        assert_eq!(ProfileMarker::parse(&text), Some(m));
        assert_eq!(ProfileMarker::parse("1 2 3"), None);
    }
}
