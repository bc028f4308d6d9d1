//! Why the last-green store did not take a record: typed, so a caller can tell a store that is
//! full of this run's own records (nothing wrong, only no room this time) from a record that is
//! too large and from the disk failing, and each reads as one line in a result or report.

use super::Bound;
use a3s_test_fsroot::FsError;

/// Why a record was not written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record alone is over [`super::MAX_RECORD_BYTES`].
    #[error("the record is {bytes} bytes, over the {cap}-byte cap")]
    TooLarge {
        /// Its size as it would be written.
        bytes: u64,
        /// The cap.
        cap: u64,
    },
    /// Writing it would take the store past its bound, and only records of the run's own
    /// scenarios are left to remove.
    #[error(
        "the store would hold {records} of its records in {bytes} bytes, over its bound of {} \
         records and {} bytes, and only records of this run's scenarios are left to remove",
        bound.records,
        bound.bytes
    )]
    Full {
        /// Records it would hold.
        records: usize,
        /// Bytes it would hold.
        bytes: u64,
        /// The bound it would pass.
        bound: Bound,
    },
    /// The store's folder could not be written or a record of it removed.
    #[error("failed to {action}: {source}")]
    Io {
        /// What was being done (`write the record`, `remove an older record` …).
        action: &'static str,
        /// The confined file access's error.
        source: FsError,
    },
    /// The record could not be encoded as JSON.
    #[error("failed to encode the record: {0}")]
    Encode(#[from] serde_json::Error),
}

impl StoreError {
    /// An I/O failure while doing `action`.
    pub(super) fn io(action: &'static str) -> impl FnOnce(FsError) -> StoreError {
        move |source| StoreError::Io { action, source }
    }
}
