//! Atomic file replacement for `fmt`: [`a3s_test_driver::atomic::write_atomic`] with the target's
//! permissions kept and a symbolic link followed (its target is rewritten, so the link survives).
//! The temporary copy is `.a3s-fmt-*.tmp` beside the file; any failure before the rename removes
//! it and leaves the original untouched. The contract is tested with the helper
//! (`a3s_test_driver::atomic`) and end to end by `tests/fmt.rs`.

use a3s_test_driver::atomic::{write_atomic, Permissions};
use std::path::Path;

/// Replace the contents of `path` (which must exist) with `bytes` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic(path, bytes, ".a3s-fmt-", Permissions::KeepTarget)
}
