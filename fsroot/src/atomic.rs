//! Replacing a file atomically inside a [`Dir`]: a temporary file created exclusively in the
//! same folder (so the rename stays on one file system and never meets another writer's
//! temporary file), written, `fsync`ed, given its mode, then `renameat`ed over the target, and
//! the folder synced. A reader sees the old file or the whole new one. The target, when it
//! exists, must be a regular file: a link or FIFO in its place is refused, not replaced.

use crate::dir::{kind_name, Dir};
use crate::error::FsError;
use crate::file::Access;
use rustix::fs::{renameat, statat, unlinkat, AtFlags, FileType};
use rustix::io::Errno;
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

impl Dir {
    /// Replace the file `rel` with `bytes`, with permissions `mode` (e.g. [`crate::PRIVATE`]).
    pub fn write_atomic(
        &self,
        rel: impl AsRef<Path>,
        bytes: &[u8],
        mode: u32,
    ) -> Result<(), FsError> {
        let (parent, name, path) = self.parent_of(rel.as_ref())?;
        match statat(parent.fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => match FileType::from_raw_mode(st.st_mode) {
                FileType::RegularFile => {}
                FileType::Symlink => return Err(FsError::Symlink { path }),
                other => {
                    return Err(FsError::NotRegular {
                        path,
                        kind: kind_name(other),
                    })
                }
            },
            Err(Errno::NOENT) => {}
            Err(e) => return Err(FsError::io("inspect", path, e)),
        }
        let temp = temp_name();
        let written = (|| {
            let mut file = parent.open_file(&temp, Access::CreateNew, mode)?;
            let io = |e| FsError::io("write", path.clone(), e);
            file.write_all(bytes).map_err(io)?;
            file.set_permissions(std::fs::Permissions::from_mode(mode))
                .map_err(io)?;
            file.sync_all().map_err(io)?;
            renameat(parent.fd(), &temp, parent.fd(), name)
                .map_err(|e| FsError::io("replace", path.clone(), e))
        })();
        if written.is_err() {
            let _ = unlinkat(parent.fd(), &temp, AtFlags::empty());
        }
        written?;
        // A folder that refuses to be synced is not an error: the data is on disk, the rename
        // done.
        let _ = rustix::fs::fsync(parent.fd());
        Ok(())
    }
}

/// `.a3s-<random>.tmp`: hidden, and unique per writer.
fn temp_name() -> OsString {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS random source: time and pid still keep concurrent writers apart, and the
        // exclusive create refuses a clash rather than sharing a file.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        bytes = (nanos ^ u64::from(std::process::id()) << 32).to_le_bytes();
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    OsString::from(format!(".a3s-{hex}.tmp"))
}
