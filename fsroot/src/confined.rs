//! [`ConfinedPath`]: a location as a value — the anchor (the project folder, or an output folder
//! the person named) and the part below it that is walked without following links. It is what
//! outlives one operation (a ledger's place, a session folder's), and is walked again on every
//! use, so a link planted after one operation is still refused by the next.

use crate::dir::Dir;
use crate::error::FsError;
use crate::file::Access;
use std::fs::File;
use std::path::{Path, PathBuf};

/// An anchor folder and a relative path below it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConfinedPath {
    anchor: PathBuf,
    rel: PathBuf,
}

impl ConfinedPath {
    /// `rel` below `anchor`. Nothing is checked yet: `rel` is validated (relative, no `..`) and
    /// walked when the location is used.
    pub fn new(anchor: impl Into<PathBuf>, rel: impl Into<PathBuf>) -> Self {
        ConfinedPath {
            anchor: anchor.into(),
            rel: rel.into(),
        }
    }

    /// The anchor itself (an output folder the person named elsewhere).
    pub fn anchor_only(anchor: impl Into<PathBuf>) -> Self {
        ConfinedPath::new(anchor, PathBuf::new())
    }

    /// `rel` below this location, with the same anchor.
    pub fn join(&self, rel: impl AsRef<Path>) -> Self {
        ConfinedPath {
            anchor: self.anchor.clone(),
            rel: self.rel.join(rel),
        }
    }

    /// The location of the folder holding this one, and this one's name; `None` at the anchor.
    pub fn split(&self) -> Option<(ConfinedPath, &std::ffi::OsStr)> {
        let name = self.rel.file_name()?;
        let parent = self.rel.parent().unwrap_or(Path::new(""));
        Some((ConfinedPath::new(self.anchor.clone(), parent), name))
    }

    /// The anchor folder.
    pub fn anchor(&self) -> &Path {
        &self.anchor
    }

    /// The part walked without following links.
    pub fn relative(&self) -> &Path {
        &self.rel
    }

    /// The whole path, for messages and plain-path tools; opening it by this path would follow
    /// links.
    pub fn path(&self) -> PathBuf {
        if self.rel.as_os_str().is_empty() {
            self.anchor.clone()
        } else {
            self.anchor.join(&self.rel)
        }
    }

    /// Open the folder at this location.
    pub fn open_dir(&self) -> Result<Dir, FsError> {
        Dir::open_anchor(&self.anchor)?.open_dir(&self.rel)
    }

    /// Open the folder at this location, creating what is missing (the anchor included).
    pub fn create_dir_all(&self) -> Result<Dir, FsError> {
        Dir::create_anchor(&self.anchor)?.create_dir_all(&self.rel)
    }

    /// Open the file at this location (see [`Dir::open_file`]).
    pub fn open_file(&self, access: Access, mode: u32) -> Result<File, FsError> {
        Dir::open_anchor(&self.anchor)?.open_file(&self.rel, access, mode)
    }

    /// The file at this location, at most `limit` bytes (see [`Dir::read`]).
    pub fn read(&self, limit: u64) -> Result<Vec<u8>, FsError> {
        Dir::open_anchor(&self.anchor)?.read(&self.rel, limit)
    }

    /// Replace the file at this location atomically (see [`Dir::write_atomic`]).
    pub fn write_atomic(&self, bytes: &[u8], mode: u32) -> Result<(), FsError> {
        Dir::open_anchor(&self.anchor)?.write_atomic(&self.rel, bytes, mode)
    }

    /// Remove the file at this location (see [`Dir::remove_file`]).
    pub fn remove_file(&self) -> Result<(), FsError> {
        Dir::open_anchor(&self.anchor)?.remove_file(&self.rel)
    }
}
