//! Reading one suite file for `check`/`fmt`: the bounded reader shared with `run`
//! (`a3s_test_runner::read`), with its failures turned into diagnostics — anything longer than
//! 1 MiB is `test.spec.file_too_large`, a FIFO, socket or device is `test.spec.unreadable`. The
//! text is then decoded by [`a3s_test_lang::decode_source`], so UTF-8 rules live in one place.

use super::discover::unreadable;
use a3s_test_lang::Diagnostic;
use a3s_test_runner::read::{read_suite_file, ReadError};
use std::path::Path;

/// Read `path`, or return the diagnostic that explains why it cannot be admitted.
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    read_suite_file(path).map_err(|e| read_diagnostic(path, e))
}

/// The diagnostic that explains why `path` could not be read.
pub fn read_diagnostic(path: &Path, error: ReadError) -> Diagnostic {
    match error {
        ReadError::Io(e) => unreadable(path, &e, true).diagnostic,
        ReadError::TooLarge { size } => ReadError::too_large_diagnostic(size),
    }
}

/// The text to show in diagnostics for `bytes`: exact for UTF-8, and for invalid UTF-8 a lossy
/// copy, which is byte-identical up to the first invalid byte (where `test.spec.not_utf8` points).
pub fn display_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
