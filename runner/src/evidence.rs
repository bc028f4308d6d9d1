//! Artifact folders: `.a3s-test/runs/<run-id>/<suite>/<scenario>/`, confined and fresh.
//!
//! Every folder the runner hands to a driver is created here through `a3s_test_fsroot`: the
//! output folder's anchor (the project folder for the default `.a3s-test`, or the folder the
//! person named with `--output-dir`) is opened as given, and every component below it — the
//! `.a3s-test` folder itself, `runs/`, the run, suite and scenario folders — is opened without
//! following links, so a link planted anywhere on the way is refused (it could otherwise redirect
//! a screenshot anywhere). The driver receives the open folder, not a path to walk again. A
//! scenario folder that already exists is removed first (stale output must never be mistaken for
//! this run's evidence; links inside it are removed, not followed). Ids are made path-safe:
//! anything outside `[A-Za-z0-9_.-]` becomes `_`, and a leading `.` becomes `_` so an id can
//! never name a hidden or parent folder.

use crate::plan::ScenarioId;
use a3s_test_driver::failure::FailureCode;
use a3s_test_fsroot::{ConfinedPath, Dir, FsError};
use std::path::Path;

/// Sub-folder of a scenario's artifact folder that receives the automatic failure capture.
pub const FAILURE_DIR: &str = "failure";

/// Why an artifact folder could not be prepared: a refused path (a link, a non-folder, a path
/// that would leave its anchor) or a file system failure; the message names the path.
#[derive(Debug, thiserror::Error)]
#[error("failed to place evidence: {source}")]
pub struct EvidenceError {
    #[from]
    source: FsError,
}

impl EvidenceError {
    /// The run code of the failure: `test.run.unsafe_path` for a refused path (the folders are
    /// the runner's own, so a link there is the workspace's doing, never the suite's),
    /// `test.run.evidence_write` for anything the file system refused.
    pub fn code(&self) -> FailureCode {
        if self.source.is_refusal() {
            FailureCode::UnsafePath
        } else {
            FailureCode::EvidenceWrite
        }
    }

    /// The underlying confined-access error.
    pub fn fs(&self) -> &FsError {
        &self.source
    }
}

/// The run's artifact root.
#[derive(Debug, Clone)]
pub struct ArtifactRoot {
    root: Dir,
}

impl ArtifactRoot {
    /// Create `<output>/runs/<run_id>/` (absolute: the anchor is resolved once, as the person
    /// named it), refusing links below the anchor.
    pub fn create(output: &ConfinedPath, run_id: &str) -> Result<ArtifactRoot, EvidenceError> {
        Dir::create_anchor(output.anchor())?;
        let absolute = output.anchor().canonicalize().map_err(|e| FsError::Io {
            action: "resolve",
            path: output.anchor().to_path_buf(),
            source: e,
        })?;
        let anchor = Dir::open_anchor(&absolute)?;
        let rel = output.relative().join("runs").join(safe_component(run_id));
        Ok(ArtifactRoot {
            root: anchor.create_dir_all(rel)?,
        })
    }

    /// `<dir>/runs/<run_id>/` below a folder already opened and verified (a repair proof's
    /// verification folder in the session).
    pub fn within(dir: &Dir, run_id: &str) -> Result<ArtifactRoot, EvidenceError> {
        let rel = Path::new("runs").join(safe_component(run_id));
        Ok(ArtifactRoot {
            root: dir.create_dir_all(rel)?,
        })
    }

    /// The absolute root folder.
    pub fn path(&self) -> &Path {
        self.root.path()
    }

    /// The open root folder (the dev server's log goes here).
    pub fn dir(&self) -> &Dir {
        &self.root
    }

    /// A fresh `<root>/<suite>/<scenario>/` (removed first when it exists).
    pub fn scenario_dir(&self, id: &ScenarioId) -> Result<Dir, EvidenceError> {
        let rel = Path::new(&safe_component(&id.suite)).join(safe_component(&id.scenario));
        fresh_dir(&self.root, &rel)
    }

    /// The fresh folder of one attempt: attempt 1 is [`ArtifactRoot::scenario_dir`], a retry `k`
    /// gets the sibling `<suite>/<scenario>.retry-<k>/` (scenario ids never contain `.`, so it
    /// cannot collide with another scenario's folder), so every attempt keeps its own evidence.
    pub fn attempt_dir(&self, id: &ScenarioId, attempt: u32) -> Result<Dir, EvidenceError> {
        if attempt <= 1 {
            return self.scenario_dir(id);
        }
        let name = format!("{}.retry-{}", safe_component(&id.scenario), attempt - 1);
        let rel = Path::new(&safe_component(&id.suite)).join(name);
        fresh_dir(&self.root, &rel)
    }

    /// A fresh `<scenario_dir>/failure/` for the automatic failure capture.
    pub fn failure_dir(&self, scenario_dir: &Dir) -> Result<Dir, EvidenceError> {
        fresh_dir(scenario_dir, Path::new(FAILURE_DIR))
    }

    /// A fresh `<scenario_dir>/<name>/` for a capture beside the scenario's own failure (a soft
    /// expect's, the `after_each` hook's), so no capture overwrites another.
    pub fn named_failure_dir(&self, scenario_dir: &Dir, name: &str) -> Result<Dir, EvidenceError> {
        fresh_dir(scenario_dir, Path::new(name))
    }
}

/// The project's state folder, the one part of an output path that is always confined.
pub const STATE_DIR: &str = ".a3s-test";

/// A path the person gave (relative to `project`, or absolute), as a confined location when it
/// lies in `project`'s `.a3s-test`: the anchor is the project folder, and `.a3s-test` and
/// everything below it are walked without following links. `None` for a path elsewhere, which
/// is the person's choice and is used as given.
pub fn under_state_dir(project: &Path, path: &Path) -> Option<ConfinedPath> {
    let relative = if path.is_absolute() {
        path.strip_prefix(project).ok()?
    } else {
        path
    };
    let mut parts = relative
        .components()
        .skip_while(|c| matches!(c, std::path::Component::CurDir));
    matches!(parts.next(), Some(std::path::Component::Normal(first)) if first == STATE_DIR)
        .then(|| ConfinedPath::new(project, relative))
}

/// Where a run's output folder is: confined from the project folder down when it lies in the
/// project's `.a3s-test` (the default `--output-dir`), else its own anchor (links below it are
/// still not followed).
pub fn output_location(project: &Path, output_dir: &Path) -> ConfinedPath {
    under_state_dir(project, output_dir).unwrap_or_else(|| ConfinedPath::anchor_only(output_dir))
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

/// `rel` below `base`, emptied: removed first when it exists (a link in its place is refused,
/// links inside are removed without being followed), then created.
fn fresh_dir(base: &Dir, rel: &Path) -> Result<Dir, EvidenceError> {
    base.remove_dir_all(rel)?;
    Ok(base.create_dir_all(rel)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_dirs_are_fresh_and_confined() {
        let out = tempfile::tempdir().unwrap();
        let output = ConfinedPath::new(out.path(), ".a3s-test");
        let root = ArtifactRoot::create(&output, "20260101T000000Z-abcdef").unwrap();
        assert!(root.path().is_absolute());
        assert!(root
            .path()
            .ends_with(".a3s-test/runs/20260101T000000Z-abcdef"));
        let id = ScenarioId::new("forms", "submit");
        let dir = root.scenario_dir(&id).unwrap();
        std::fs::write(dir.path().join("stale.png"), b"old").unwrap();
        let again = root.scenario_dir(&id).unwrap();
        assert_eq!(dir.path(), again.path());
        assert!(
            !again.path().join("stale.png").exists(),
            "stale output must be removed"
        );
        let failure = root.failure_dir(&again).unwrap();
        assert_eq!(failure.path(), again.path().join(FAILURE_DIR));
    }

    #[test]
    fn symlinks_are_refused_from_the_state_folder_down() {
        let out = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let output = ConfinedPath::new(out.path(), ".a3s-test");
        let root = ArtifactRoot::create(&output, "run").unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), root.path().join("forms")).unwrap();
        let err = root
            .scenario_dir(&ScenarioId::new("forms", "submit"))
            .unwrap_err();
        assert!(matches!(err.fs(), FsError::Symlink { .. }), "{err}");
        assert_eq!(err.code(), FailureCode::UnsafePath);
        // The artifact root's own folders: `runs/` and `.a3s-test` itself.
        for linked in [".a3s-test/runs", ".a3s-test"] {
            let project = tempfile::tempdir().unwrap();
            let link = project.path().join(linked);
            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(elsewhere.path(), &link).unwrap();
            let output = ConfinedPath::new(project.path(), ".a3s-test");
            let err = ArtifactRoot::create(&output, "run").unwrap_err();
            assert!(
                matches!(err.fs(), FsError::Symlink { .. }),
                "{linked}: {err}"
            );
        }
        assert!(
            std::fs::read_dir(elsewhere.path())
                .unwrap()
                .next()
                .is_none(),
            "nothing written through the link"
        );
    }

    #[test]
    fn an_output_folder_named_elsewhere_is_the_anchor() {
        let project = tempfile::tempdir().unwrap();
        let chosen = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(chosen.path(), project.path().join("out")).unwrap();
        let output = ConfinedPath::anchor_only(project.path().join("out"));
        let root = ArtifactRoot::create(&output, "run").unwrap();
        assert!(root
            .path()
            .starts_with(chosen.path().canonicalize().unwrap()));
    }

    #[test]
    fn only_the_state_folder_is_confined_from_the_project_down() {
        let project = Path::new("/work/app");
        let cases = [
            (".a3s-test", "/work/app", ".a3s-test"),
            ("./.a3s-test/out", "/work/app", "./.a3s-test/out"),
            ("/work/app/.a3s-test", "/work/app", ".a3s-test"),
            ("out", "out", ""),
            ("/tmp/out", "/tmp/out", ""),
            ("/work/app/out", "/work/app/out", ""),
        ];
        for (given, anchor, rel) in cases {
            let location = output_location(project, Path::new(given));
            assert_eq!(location.anchor(), Path::new(anchor), "{given}");
            assert_eq!(location.relative(), Path::new(rel), "{given}");
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
