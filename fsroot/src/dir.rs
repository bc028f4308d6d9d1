//! [`Dir`]: a folder opened without following links, and the walk that gets there — one
//! `openat(O_DIRECTORY | O_NOFOLLOW)` per component from the folder before it, creating missing
//! folders on request. Every other operation of the crate starts from a `Dir`.

use crate::error::{FsError, InvalidReason};
use crate::rel::components;
use crate::tree::EntryKind;
use rustix::fs::{openat, statat, AtFlags, FileType, Mode, OFlags, CWD};
use rustix::io::Errno;
use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Mode of folders this crate creates (the process umask applies, as for `std::fs`).
const DIR_MODE: u32 = 0o777;
/// How often a walk retries a folder that vanished between its creation and its opening.
const CREATE_RETRIES: usize = 4;

/// An open folder reached without following any link below its anchor. Cloning shares the file
/// descriptor, so a verified folder can be handed on (to a driver, a thread) without walking
/// again.
#[derive(Clone)]
pub struct Dir {
    fd: Arc<OwnedFd>,
    path: PathBuf,
}

impl std::fmt::Debug for Dir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Dir").field(&self.path).finish()
    }
}

fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC
}

impl Dir {
    /// Open the anchor folder `path` as the person named it: links in `path` itself are followed
    /// (it is their choice), everything below it is walked without.
    pub fn open_anchor(path: &Path) -> Result<Dir, FsError> {
        let fd = openat(CWD, path, dir_flags(), Mode::empty())
            .map_err(|e| FsError::io("open", path.to_path_buf(), e))?;
        Ok(Dir {
            fd: Arc::new(fd),
            path: path.to_path_buf(),
        })
    }

    /// [`Dir::open_anchor`], creating the anchor (and its parents) first when it is missing.
    pub fn create_anchor(path: &Path) -> Result<Dir, FsError> {
        std::fs::create_dir_all(path).map_err(|e| FsError::io("create", path.to_path_buf(), e))?;
        Dir::open_anchor(path)
    }

    /// Where this folder is, for messages and for tools that need a plain path (a child
    /// process's working folder, a report link). Opening it again by this path would follow
    /// links; use the `Dir` instead.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder `rel` below this one; every component must be a real folder.
    pub fn open_dir(&self, rel: impl AsRef<Path>) -> Result<Dir, FsError> {
        self.walk(rel.as_ref(), false)
    }

    /// The folder `rel` below this one, creating missing components; an existing component must
    /// be a real folder.
    pub fn create_dir_all(&self, rel: impl AsRef<Path>) -> Result<Dir, FsError> {
        self.walk(rel.as_ref(), true)
    }

    /// Create the folder `rel` exclusively (its parent must exist): of two callers creating the
    /// same folder, exactly one succeeds; the other gets an `AlreadyExists` I/O error.
    pub fn create_dir(&self, rel: impl AsRef<Path>) -> Result<Dir, FsError> {
        let (parent, name, path) = self.parent_of(rel.as_ref())?;
        rustix::fs::mkdirat(parent.fd(), name, Mode::from_raw_mode(DIR_MODE))
            .map_err(|e| parent.classify(name, path.clone(), "create", e))?;
        parent.child_dir(name, false)
    }

    /// The kind of `rel` without following a link, or `None` when it (or a folder on the way)
    /// does not exist.
    pub fn kind_of(&self, rel: impl AsRef<Path>) -> Result<Option<EntryKind>, FsError> {
        let (parent, name, path) = match self.parent_of(rel.as_ref()) {
            Ok(found) => found,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(e) => return Err(e),
        };
        match statat(parent.fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(EntryKind::of(FileType::from_raw_mode(st.st_mode)))),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(FsError::io("inspect", path, e)),
        }
    }

    pub(crate) fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// The open folder's descriptor, for the one call that has no `*at` form: binding a Unix socket
/// in it (through `/proc/self/fd/<fd>/…`).
impl AsFd for Dir {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

impl Dir {
    /// Walk `rel` component by component from here.
    fn walk(&self, rel: &Path, create: bool) -> Result<Dir, FsError> {
        let parts = components(rel).map_err(|reason| FsError::InvalidPath {
            path: self.path.join(rel),
            reason: reason.into(),
        })?;
        let mut current = self.clone();
        for part in parts {
            current = current.child_dir(part, create)?;
        }
        Ok(current)
    }

    /// The folder that holds `rel`'s last component, that name, and the full path for messages.
    pub(crate) fn parent_of<'r>(
        &self,
        rel: &'r Path,
    ) -> Result<(Dir, &'r OsStr, PathBuf), FsError> {
        let mut parts = components(rel).map_err(|reason| FsError::InvalidPath {
            path: self.path.join(rel),
            reason: reason.into(),
        })?;
        let Some(name) = parts.pop() else {
            return Err(FsError::InvalidPath {
                path: self.path.join(rel),
                reason: InvalidReason::NoName,
            });
        };
        let mut parent = self.clone();
        for part in parts {
            parent = parent.child_dir(part, false)?;
        }
        let path = parent.path.join(name);
        Ok((parent, name, path))
    }

    /// Open the child folder `name` without following it, creating it first if asked.
    fn child_dir(&self, name: &OsStr, create: bool) -> Result<Dir, FsError> {
        let path = self.path.join(name);
        let flags = dir_flags() | OFlags::NOFOLLOW;
        for _ in 0..CREATE_RETRIES {
            match openat(self.fd(), name, flags, Mode::empty()) {
                Ok(fd) => {
                    return Ok(Dir {
                        fd: Arc::new(fd),
                        path,
                    })
                }
                Err(Errno::NOENT) if create => {
                    match rustix::fs::mkdirat(self.fd(), name, Mode::from_raw_mode(DIR_MODE)) {
                        // Created here or by a concurrent walk: open it on the next turn.
                        Ok(()) | Err(Errno::EXIST) => continue,
                        Err(e) => return Err(FsError::io("create", path, e)),
                    }
                }
                Err(e) => return Err(self.classify_dir(name, path, e)),
            }
        }
        Err(FsError::io(
            "create",
            path,
            std::io::Error::other("the folder kept disappearing while it was created"),
        ))
    }

    /// Why opening the child folder `name` failed: a link or a non-folder is a refusal.
    fn classify_dir(&self, name: &OsStr, path: PathBuf, e: Errno) -> FsError {
        if !matches!(e, Errno::LOOP | Errno::NOTDIR | Errno::EXIST) {
            return FsError::io("open", path, e);
        }
        match statat(self.fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => match FileType::from_raw_mode(st.st_mode) {
                FileType::Symlink => FsError::Symlink { path },
                FileType::Directory => FsError::io("open", path, e),
                _ => FsError::NotDirectory { path },
            },
            Err(_) => FsError::io("open", path, e),
        }
    }

    /// Why an operation on the file `name` failed: a link or a non-regular file is a refusal.
    pub(crate) fn classify(
        &self,
        name: &OsStr,
        path: PathBuf,
        action: &'static str,
        e: Errno,
    ) -> FsError {
        if !matches!(
            e,
            Errno::LOOP | Errno::NOTDIR | Errno::EXIST | Errno::NXIO | Errno::ISDIR
        ) {
            return FsError::io(action, path, e);
        }
        match statat(self.fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => match FileType::from_raw_mode(st.st_mode) {
                FileType::Symlink => FsError::Symlink { path },
                FileType::RegularFile => FsError::io(action, path, e),
                FileType::Directory if e == Errno::EXIST => FsError::io(action, path, e),
                other => FsError::NotRegular {
                    path,
                    kind: kind_name(other),
                },
            },
            Err(_) => FsError::io(action, path, e),
        }
    }
}

/// How a message names a file type that is not a regular file.
pub(crate) fn kind_name(kind: FileType) -> &'static str {
    match kind {
        FileType::Directory => "a folder",
        FileType::Fifo => "a FIFO",
        FileType::CharacterDevice | FileType::BlockDevice => "a device",
        FileType::Socket => "a socket",
        FileType::Symlink => "a symbolic link",
        FileType::RegularFile => "a regular file",
        _ => "an unknown kind of file",
    }
}
