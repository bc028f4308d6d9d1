//! The one error type of confined file access. A refusal (a link, a folder that is not one, a
//! file that is not a regular file or has other hard links, a path that would leave the anchor)
//! is told apart from a plain I/O failure by [`FsError::is_refusal`], so callers can answer it
//! with their own stable code; every message names the path at fault on one line.

use crate::rel::RelError;
use std::path::{Path, PathBuf};

/// Why a confined open, read, write or listing did not happen.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    /// The relative part could leave the anchor (absolute, `..`) or names nothing to open.
    #[error("refused `{}`: {reason}", path.display())]
    InvalidPath {
        /// The path as given.
        path: PathBuf,
        /// What is wrong with it.
        reason: InvalidReason,
    },
    /// A component (folder or file) is a symbolic link; it is not followed.
    #[error("refused `{}`: it is a symbolic link, and links are not followed here", path.display())]
    Symlink {
        /// The link itself.
        path: PathBuf,
    },
    /// A component that must be a folder is something else.
    #[error("refused `{}`: it is not a folder", path.display())]
    NotDirectory {
        /// The component.
        path: PathBuf,
    },
    /// The file is not a regular file (a FIFO, device, socket or folder).
    #[error("refused `{}`: it is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead (`a FIFO`, `a folder`, …).
        kind: &'static str,
    },
    /// A file opened for writing has other hard links: writing would change a file elsewhere.
    #[error("refused `{}`: it has {links} hard links, so writing it would change a file elsewhere", path.display())]
    HardLinked {
        /// The file.
        path: PathBuf,
        /// Its link count.
        links: u64,
    },
    /// The file is larger than the reader's cap.
    #[error("refused `{}`: it is larger than {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap.
        limit: u64,
    },
    /// The file system refused an operation.
    #[error("failed to {action} `{}`: {source}", path.display())]
    Io {
        /// What was attempted (`open`, `create`, `read`, …).
        action: &'static str,
        /// Where.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// What makes a relative path unusable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidReason {
    /// A check of [`crate::components`] failed.
    #[error("{0}")]
    Rel(#[from] RelError),
    /// A file operation was given a path with no name in it.
    #[error("it names no file")]
    NoName,
}

impl FsError {
    /// True when the path itself is unsafe (a link, a non-folder, a non-regular or hard-linked
    /// file, an escaping path): the caller answers it as a refusal, not as an I/O failure.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            FsError::InvalidPath { .. }
                | FsError::Symlink { .. }
                | FsError::NotDirectory { .. }
                | FsError::NotRegular { .. }
                | FsError::HardLinked { .. }
        )
    }

    /// True when the file or a folder on the way does not exist.
    pub fn is_not_found(&self) -> bool {
        self.io_kind() == Some(std::io::ErrorKind::NotFound)
    }

    /// The kind of a plain I/O failure (`None` for refusals and size caps).
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self {
            FsError::Io { source, .. } => Some(source.kind()),
            _ => None,
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FsError::InvalidPath { path, .. }
            | FsError::Symlink { path }
            | FsError::NotDirectory { path }
            | FsError::NotRegular { path, .. }
            | FsError::HardLinked { path, .. }
            | FsError::TooLarge { path, .. }
            | FsError::Io { path, .. } => path,
        }
    }

    pub(crate) fn io(
        action: &'static str,
        path: PathBuf,
        source: impl Into<std::io::Error>,
    ) -> Self {
        FsError::Io {
            action,
            path,
            source: source.into(),
        }
    }
}

impl From<FsError> for std::io::Error {
    /// For callers whose own error type carries an `io::Error`: a refusal becomes
    /// `PermissionDenied` with the refusal's message, an I/O failure keeps its kind.
    fn from(e: FsError) -> Self {
        let kind = match &e {
            FsError::Io { source, .. } => source.kind(),
            FsError::TooLarge { .. } => std::io::ErrorKind::InvalidData,
            _ => std::io::ErrorKind::PermissionDenied,
        };
        std::io::Error::new(kind, e.to_string())
    }
}
