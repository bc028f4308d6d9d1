//! Reading one suite file: bounded, so a huge file is refused without being loaded.
//!
//! At most `MAX_FILE_BYTES + 1` bytes are read; anything longer is `test.spec.file_too_large`
//! using the size the file system reports. Only regular files are read: a FIFO, socket or device
//! named `*.acl` is `test.spec.unreadable`. The file is opened non-blocking so that opening a FIFO
//! cannot wait forever for a writer, and the type is checked on the opened descriptor (no race
//! between the check and the read). The text itself is then decoded by
//! [`a3s_test_lang::decode_source`], so UTF-8 and size rules live in one place.

use super::discover::unreadable;
use a3s_test_lang::{Code, Diagnostic, Span, MAX_FILE_BYTES};
use std::io::Read;
use std::path::Path;

/// Read `path`, or return the diagnostic that explains why it cannot be admitted.
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    let file = open_regular(path).map_err(|e| unreadable(path, &e, true).diagnostic)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(path, &e, true).diagnostic)?;
    if bytes.len() > MAX_FILE_BYTES {
        let size = std::fs::metadata(path)
            .map(|m| m.len())
            .unwrap_or(bytes.len() as u64);
        return Err(Diagnostic::error(
            Code::FileTooLarge,
            "",
            Span::default(),
            format!("file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes (1 MiB)"),
        ));
    }
    Ok(bytes)
}

/// Open `path` for reading, refusing anything but a regular file (after following links).
fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Without O_NONBLOCK, opening a FIFO blocks until some other process opens it to write.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a directory, FIFO, socket or device is never a suite)",
        ));
    }
    Ok(file)
}

/// The text to show in diagnostics for `bytes`: exact for UTF-8, and for invalid UTF-8 a lossy
/// copy, which is byte-identical up to the first invalid byte (where `test.spec.not_utf8` points).
pub fn display_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
