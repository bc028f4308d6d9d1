//! Folder contents inside a [`Dir`]: listing (each entry's kind read without following it),
//! removal of a file or a whole tree (links inside are removed, never followed; a link in place
//! of the tree itself is refused), the bytes a tree holds, and moving an outside file in.
//! Trees are walked with an explicit stack, so a deeply nested tree planted in the workspace
//! cannot exhaust the call stack.

use crate::dir::Dir;
use crate::error::FsError;
use crate::file::Access;
use rustix::fs::{renameat, statat, unlinkat, AtFlags, FileType, CWD};
use rustix::io::Errno;
use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// What a listed entry is (never resolved through a link).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A folder.
    Dir,
    /// A regular file.
    File,
    /// A symbolic link.
    Symlink,
    /// A FIFO, device, socket or anything else.
    Other,
}

impl EntryKind {
    pub(crate) fn of(kind: FileType) -> EntryKind {
        match kind {
            FileType::Directory => EntryKind::Dir,
            FileType::RegularFile => EntryKind::File,
            FileType::Symlink => EntryKind::Symlink,
            _ => EntryKind::Other,
        }
    }
}

/// One entry of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name in the folder.
    pub name: OsString,
    /// What it is.
    pub kind: EntryKind,
    /// Its size in bytes (of the entry itself: a link's own size).
    pub len: u64,
    /// When its content last changed (of the entry itself), for stores that remove their
    /// least recently written files first.
    pub modified: SystemTime,
}

impl Dir {
    /// Every entry of this folder but `.` and `..`, in no particular order.
    pub fn list(&self) -> Result<Vec<Entry>, FsError> {
        let io = |e: Errno| FsError::io("list", self.path().to_path_buf(), e);
        let reader = rustix::fs::Dir::read_from(self.fd()).map_err(io)?;
        let mut entries = Vec::new();
        for entry in reader {
            let entry = entry.map_err(io)?;
            let raw = entry.file_name().to_bytes();
            if raw == b"." || raw == b".." {
                continue;
            }
            let name: OsString =
                <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(raw).to_owned();
            // Gone between the listing and the look: not an entry any more.
            let Ok(st) = statat(self.fd(), entry.file_name(), AtFlags::SYMLINK_NOFOLLOW) else {
                continue;
            };
            entries.push(Entry {
                name,
                kind: EntryKind::of(FileType::from_raw_mode(st.st_mode)),
                len: st.st_size as u64,
                modified: modified(&st),
            });
        }
        Ok(entries)
    }

    /// Remove the file (or link, which is not followed) `rel`; a missing file is not an error.
    pub fn remove_file(&self, rel: impl AsRef<Path>) -> Result<(), FsError> {
        let (parent, name, path) = match self.parent_of(rel.as_ref()) {
            Ok(found) => found,
            Err(e) if e.is_not_found() => return Ok(()),
            Err(e) => return Err(e),
        };
        match unlinkat(parent.fd(), name, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => Ok(()),
            Err(e) => Err(parent.classify(name, path, "remove", e)),
        }
    }

    /// Remove the folder `rel` and everything in it; a missing folder is not an error, a link
    /// or a file in its place is refused.
    pub fn remove_dir_all(&self, rel: impl AsRef<Path>) -> Result<(), FsError> {
        let (parent, name, path) = match self.parent_of(rel.as_ref()) {
            Ok(found) => found,
            Err(e) if e.is_not_found() => return Ok(()),
            Err(e) => return Err(e),
        };
        let top = match parent.open_dir(name) {
            Ok(dir) => dir,
            Err(e) if e.is_not_found() => return Ok(()),
            Err(e) => return Err(e),
        };
        empty_tree(top)?;
        match unlinkat(parent.fd(), name, AtFlags::REMOVEDIR) {
            Ok(()) | Err(Errno::NOENT) => Ok(()),
            Err(e) => Err(FsError::io("remove", path, e)),
        }
    }

    /// Bytes of every regular file in this folder and below (links are not followed; entries
    /// that cannot be read are skipped).
    pub fn tree_bytes(&self) -> u64 {
        let mut total = 0;
        let mut stack = vec![self.clone()];
        while let Some(dir) = stack.pop() {
            for entry in dir.list().unwrap_or_default() {
                match entry.kind {
                    EntryKind::File => total += entry.len,
                    EntryKind::Dir => stack.extend(dir.open_dir(&entry.name).ok()),
                    EntryKind::Symlink | EntryKind::Other => {}
                }
            }
        }
        total
    }

    /// Move the file at `source` (a plain path outside this folder, e.g. a browser's download
    /// folder) to `rel` here: a rename, or a copy and a removal across file systems. A link in
    /// place of `rel` is refused.
    pub fn move_into(&self, source: &Path, rel: impl AsRef<Path>) -> Result<(), FsError> {
        let rel = rel.as_ref();
        let (parent, name, path) = self.parent_of(rel)?;
        if let Ok(st) = statat(parent.fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            if FileType::from_raw_mode(st.st_mode) == FileType::Symlink {
                return Err(FsError::Symlink { path });
            }
        }
        match renameat(CWD, source, parent.fd(), name) {
            Ok(()) => Ok(()),
            Err(Errno::XDEV) => {
                let mut from = std::fs::File::open(source)
                    .map_err(|e| FsError::io("read", source.to_path_buf(), e))?;
                let mut to = parent.open_file(name, Access::Replace, crate::SHARED)?;
                std::io::copy(&mut from, &mut to).map_err(|e| FsError::io("write", path, e))?;
                let _ = std::fs::remove_file(source);
                Ok(())
            }
            Err(e) => Err(FsError::io("move", path, e)),
        }
    }
}

/// A `stat`'s modification time (before 1970 read as 1970).
fn modified(st: &rustix::fs::Stat) -> SystemTime {
    let secs = u64::try_from(st.st_mtime).unwrap_or(0);
    let nanos = u32::try_from(st.st_mtime_nsec)
        .unwrap_or(0)
        .min(999_999_999);
    SystemTime::UNIX_EPOCH + Duration::new(secs, nanos)
}

/// Remove everything inside `top`, depth first, without recursion.
fn empty_tree(top: Dir) -> Result<(), FsError> {
    let mut stack: Vec<(Dir, OsString)> = vec![(top, OsString::new())];
    while let Some((dir, _)) = stack.last() {
        let dir = dir.clone();
        let mut deeper = None;
        for entry in dir.list()? {
            if entry.kind == EntryKind::Dir {
                deeper = Some(entry.name);
                break;
            }
            match unlinkat(dir.fd(), &entry.name, AtFlags::empty()) {
                Ok(()) | Err(Errno::NOENT) => {}
                Err(e) => return Err(FsError::io("remove", dir.path().join(&entry.name), e)),
            }
        }
        match deeper {
            Some(name) => {
                let child = dir.open_dir(&name)?;
                stack.push((child, name));
            }
            None => {
                let Some((_, name)) = stack.pop() else { break };
                if let Some((parent, _)) = stack.last() {
                    match unlinkat(parent.fd(), &name, AtFlags::REMOVEDIR) {
                        Ok(()) | Err(Errno::NOENT) => {}
                        Err(e) => return Err(FsError::io("remove", parent.path().join(&name), e)),
                    }
                }
            }
        }
    }
    Ok(())
}
