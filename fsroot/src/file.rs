//! Opening files inside a [`Dir`]: the last component is opened `O_NOFOLLOW` and `O_NONBLOCK`
//! (a FIFO planted where a file is expected must not block the reader or writer), then checked
//! with `fstat` — a regular file only, and for any write a single hard link, so neither a link
//! nor a second name can carry a write (or a truncation) to a file elsewhere. The check comes
//! before a byte is written: [`Access::Replace`] truncates only after it.

use crate::dir::{kind_name, Dir};
use crate::error::FsError;
use rustix::fs::{fstat, openat, FileType, Mode, OFlags};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// How a file is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read an existing file.
    Read,
    /// Read it and append to it, creating it when missing (logs, the ledger).
    Append,
    /// Create it for writing; it must not exist yet.
    CreateNew,
    /// Write it from empty, creating it when missing (truncated only after the checks).
    Replace,
}

impl Access {
    fn flags(self) -> OFlags {
        let base = OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
        match self {
            Access::Read => base | OFlags::RDONLY,
            Access::Append => base | OFlags::RDWR | OFlags::APPEND | OFlags::CREATE,
            Access::CreateNew => base | OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL,
            Access::Replace => base | OFlags::WRONLY | OFlags::CREATE,
        }
    }

    fn writes(self) -> bool {
        self != Access::Read
    }

    fn action(self) -> &'static str {
        match self {
            Access::Read => "open",
            Access::Append | Access::Replace => "open for writing",
            Access::CreateNew => "create",
        }
    }
}

impl Dir {
    /// Open the file `rel` below this folder. `mode` is the permission of a file this call
    /// creates (e.g. [`crate::PRIVATE`]); it is ignored for an existing file.
    pub fn open_file(
        &self,
        rel: impl AsRef<Path>,
        access: Access,
        mode: u32,
    ) -> Result<File, FsError> {
        let (parent, name, path) = self.parent_of(rel.as_ref())?;
        let fd = openat(parent.fd(), name, access.flags(), Mode::from_raw_mode(mode))
            .map_err(|e| parent.classify(name, path.clone(), access.action(), e))?;
        let file = File::from(fd);
        check_opened(&file, &path, access)?;
        if access == Access::Replace {
            file.set_len(0)
                .map_err(|e| FsError::io("truncate", path.clone(), e))?;
        }
        Ok(file)
    }

    /// The whole content of the file `rel`, refused when it is larger than `limit` bytes.
    pub fn read(&self, rel: impl AsRef<Path>, limit: u64) -> Result<Vec<u8>, FsError> {
        let rel = rel.as_ref();
        let file = self.open_file(rel, Access::Read, 0)?;
        read_capped(file, &self.path().join(rel), limit)
    }
}

/// Read `file` to its end, refusing more than `limit` bytes.
pub(crate) fn read_capped(file: File, path: &Path, limit: u64) -> Result<Vec<u8>, FsError> {
    let too_large = || FsError::TooLarge {
        path: path.to_path_buf(),
        limit,
    };
    let len = file
        .metadata()
        .map_err(|e| FsError::io("inspect", path.to_path_buf(), e))?
        .len();
    if len > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FsError::io("read", path.to_path_buf(), e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// After the open: a regular file, with one link when it is written; the non-blocking flag is
/// cleared again (it only had to keep a FIFO from blocking the open).
fn check_opened(file: &File, path: &Path, access: Access) -> Result<(), FsError> {
    let path_buf = || PathBuf::from(path);
    let st = fstat(file).map_err(|e| FsError::io("inspect", path_buf(), e))?;
    let kind = FileType::from_raw_mode(st.st_mode);
    if kind != FileType::RegularFile {
        return Err(FsError::NotRegular {
            path: path_buf(),
            kind: kind_name(kind),
        });
    }
    let links = st.st_nlink as u64;
    if access.writes() && links > 1 {
        return Err(FsError::HardLinked {
            path: path_buf(),
            links,
        });
    }
    let flags = rustix::fs::fcntl_getfl(file).map_err(|e| FsError::io("open", path_buf(), e))?;
    rustix::fs::fcntl_setfl(file, flags - OFlags::NONBLOCK)
        .map_err(|e| FsError::io("open", path_buf(), e))
}
