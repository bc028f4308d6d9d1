//! `a3s-test-fsroot`: the one way A3S Test reaches a file below a folder it does not fully trust —
//! the project's `.a3s-test/` (agent sessions, the repair ledger, run artifacts, the dev channel)
//! and the artifact folder a driver writes evidence into.
//!
//! Why it exists: a coding agent edits the workspace, so it can plant a symbolic link (or a FIFO,
//! or a hard link) where A3S Test expects its own folder or file. Following it would land
//! evidence, ledger lines or whole sessions outside the project, or truncate a file elsewhere.
//! Here a location is an *anchor* (the folder the person named — the project root, a
//! `--output-dir` — opened normally) plus a relative part whose every component is opened with
//! `openat(…, O_NOFOLLOW)` from the folder before it: a symbolic link anywhere below the anchor
//! is refused with [`FsError::Symlink`] naming it, a component that is not a real folder with
//! [`FsError::NotDirectory`], a file that is not a regular file (FIFO, device, socket) with
//! [`FsError::NotRegular`] — files are opened `O_NONBLOCK` and checked with `fstat`, so a FIFO
//! never blocks — and a file opened for writing that has other hard links with
//! [`FsError::HardLinked`], before a byte is written or truncated.
//!
//! Why a thin layer over `rustix` instead of `cap-std`: `cap-std` confines paths to a root but
//! follows symbolic links that stay inside it, and its no-follow option covers only the last
//! component; the rule here is stricter (no link at all, the first component included), which is
//! a per-component `openat` loop. `rustix` gives safe, typed `openat`/`mkdirat`/`renameat`/
//! `unlinkat`/`fstat`; this crate only adds the walk, the checks and the error type.
//!
//! [`ConfinedPath`] is the location as a value (cheap to clone, walks again on each use);
//! [`Dir`] is an open, verified folder (its file descriptor), for several operations in a row
//! and for handing a verified root to a driver.

mod atomic;
mod confined;
mod dir;
mod error;
mod file;
mod rel;
mod tree;

pub use confined::ConfinedPath;
pub use dir::Dir;
pub use error::{FsError, InvalidReason};
pub use file::Access;
pub use rel::{components, RelError};
pub use tree::{Entry, EntryKind};

/// Owner read/write only: ledgers, session records, channel files.
pub const PRIVATE: u32 = 0o600;
/// Owner read/write, others read: reports and candidates meant to be opened by people.
pub const SHARED: u32 = 0o644;
