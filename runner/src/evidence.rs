//! Artifact folders: `.a3s-test/runs/<run-id>/<suite>/<scenario>/`, confined and fresh.
//!
//! Every folder the runner hands to a driver is created here and checked on disk: the relative
//! part has no `..`, no root and no empty component, and no component from the run root down is a
//! symlink (a symlink planted in `.a3s-test/runs/` could otherwise redirect a screenshot anywhere).
//! A scenario folder that already exists is removed first (stale output must never be mistaken for
//! this run's evidence). Ids are made path-safe: anything outside `[A-Za-z0-9_.-]` becomes `_`, and
//! a leading `.` becomes `_` so an id can never name a hidden or parent folder.

use crate::plan::ScenarioId;
use std::path::{Component, Path, PathBuf};

/// Sub-folder of a scenario's artifact folder that receives the automatic failure capture.
pub const FAILURE_DIR: &str = "failure";

/// Why an artifact folder could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum EvidenceError {
    /// The relative path has `..`, a root, or nothing in it.
    #[error("failed to place evidence at `{path}`: the path must be relative, non-empty and without `..`")]
    NotRelative {
        /// The path as given.
        path: String,
    },
    /// A component on the way is a symlink.
    #[error("failed to place evidence at `{}`: `{}` is a symlink", path.display(), link.display())]
    Symlink {
        /// The full path.
        path: PathBuf,
        /// The offending component.
        link: PathBuf,
    },
    /// The file system refused.
    #[error("failed to prepare `{}`: {source}", path.display())]
    Io {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> EvidenceError + '_ {
    move |source| EvidenceError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The run's artifact root.
#[derive(Debug, Clone)]
pub struct ArtifactRoot {
    root: PathBuf,
}

impl ArtifactRoot {
    /// Create `<output_dir>/runs/<run_id>/` (absolute), refusing symlinks under `output_dir`.
    pub fn create(output_dir: &Path, run_id: &str) -> Result<ArtifactRoot, EvidenceError> {
        std::fs::create_dir_all(output_dir).map_err(io(output_dir))?;
        let base = output_dir.canonicalize().map_err(io(output_dir))?;
        let root = prepare_dir(
            &base,
            Path::new("runs").join(safe_component(run_id)).as_path(),
            false,
        )?;
        Ok(ArtifactRoot { root })
    }

    /// The absolute root folder.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// A fresh `<root>/<suite>/<scenario>/` (removed first when it exists).
    pub fn scenario_dir(&self, id: &ScenarioId) -> Result<PathBuf, EvidenceError> {
        let rel = Path::new(&safe_component(&id.suite)).join(safe_component(&id.scenario));
        prepare_dir(&self.root, &rel, true)
    }

    /// The fresh folder of one attempt: attempt 1 is [`ArtifactRoot::scenario_dir`], a retry `k`
    /// gets the sibling `<suite>/<scenario>.retry-<k>/` (scenario ids never contain `.`, so it
    /// cannot collide with another scenario's folder), so every attempt keeps its own evidence.
    pub fn attempt_dir(&self, id: &ScenarioId, attempt: u32) -> Result<PathBuf, EvidenceError> {
        if attempt <= 1 {
            return self.scenario_dir(id);
        }
        let name = format!("{}.retry-{}", safe_component(&id.scenario), attempt - 1);
        let rel = Path::new(&safe_component(&id.suite)).join(name);
        prepare_dir(&self.root, &rel, true)
    }

    /// A fresh `<scenario_dir>/failure/` for the automatic failure capture.
    pub fn failure_dir(&self, scenario_dir: &Path) -> Result<PathBuf, EvidenceError> {
        let rel = scenario_dir
            .strip_prefix(&self.root)
            .unwrap_or(scenario_dir)
            .join(FAILURE_DIR);
        prepare_dir(&self.root, &rel, true)
    }
}

/// Make an id usable as one path component.
pub fn safe_component(id: &str) -> String {
    let mut out: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with('.') {
        out.replace_range(0..0, "_");
    }
    out
}

/// Join `rel` under `base` after checking it is relative, `..`-free and symlink-free on disk.
pub fn confined_join(base: &Path, rel: &Path) -> Result<PathBuf, EvidenceError> {
    let not_relative = || EvidenceError::NotRelative {
        path: rel.display().to_string(),
    };
    let mut joined = base.to_path_buf();
    let mut any = false;
    for component in rel.components() {
        match component {
            Component::Normal(part) => {
                joined.push(part);
                any = true;
                if std::fs::symlink_metadata(&joined).is_ok_and(|m| m.file_type().is_symlink()) {
                    return Err(EvidenceError::Symlink {
                        path: base.join(rel),
                        link: joined,
                    });
                }
            }
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(not_relative())
            }
        }
    }
    if !any {
        return Err(not_relative());
    }
    Ok(joined)
}

fn prepare_dir(base: &Path, rel: &Path, fresh: bool) -> Result<PathBuf, EvidenceError> {
    let dir = confined_join(base, rel)?;
    if fresh && std::fs::symlink_metadata(&dir).is_ok() {
        std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
    }
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    // Re-check after creating: a symlink raced into place between the check and the create.
    confined_join(base, rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_dirs_are_fresh_and_confined() {
        let out = tempfile::tempdir().unwrap();
        let root = ArtifactRoot::create(out.path(), "20260101T000000Z-abcdef").unwrap();
        assert!(root.path().is_absolute());
        assert!(root.path().ends_with("runs/20260101T000000Z-abcdef"));
        let id = ScenarioId::new("forms", "submit");
        let dir = root.scenario_dir(&id).unwrap();
        std::fs::write(dir.join("stale.png"), b"old").unwrap();
        let again = root.scenario_dir(&id).unwrap();
        assert_eq!(dir, again);
        assert!(
            !again.join("stale.png").exists(),
            "stale output must be removed"
        );
        let failure = root.failure_dir(&again).unwrap();
        assert_eq!(failure, again.join(FAILURE_DIR));
    }

    #[test]
    fn symlinks_and_parent_components_are_refused() {
        let out = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let root = ArtifactRoot::create(out.path(), "run").unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), root.path().join("forms")).unwrap();
        let err = root
            .scenario_dir(&ScenarioId::new("forms", "submit"))
            .unwrap_err();
        assert!(matches!(err, EvidenceError::Symlink { .. }), "{err}");
        assert!(
            std::fs::read_dir(elsewhere.path())
                .unwrap()
                .next()
                .is_none(),
            "nothing written through the link"
        );
        for bad in ["../x", "/abs", "", "."] {
            assert!(
                matches!(
                    confined_join(root.path(), Path::new(bad)),
                    Err(EvidenceError::NotRelative { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn ids_become_safe_components() {
        assert_eq!(safe_component("checkout flow/v2"), "checkout_flow_v2");
        assert_eq!(safe_component(".."), "_..");
        assert_eq!(safe_component(""), "_");
        assert_eq!(safe_component("ok-id_1"), "ok-id_1");
    }
}
