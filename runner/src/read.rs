//! Reading one suite file, bounded: shared by `run` (here) and `check`/`fmt` (the CLI).
//!
//! At most `MAX_FILE_BYTES + 1` bytes are read, so a huge file (or `/dev/zero`) is refused without
//! being loaded. Only regular files are read: a FIFO, socket or device named `*.acl` is refused.
//! The file is opened non-blocking so that opening a FIFO cannot wait forever for a writer, and the
//! type is checked on the opened descriptor (no race between the check and the read).

use a3s_test_lang::{Code, Diagnostic, Span, MAX_FILE_BYTES};
use std::io::Read;
use std::path::Path;

/// Why a suite file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Opening or reading failed, or the path is not a regular file.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file is larger than `MAX_FILE_BYTES`; `size` is what the file system reports.
    #[error("file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes (1 MiB)")]
    TooLarge {
        /// The file's size in bytes.
        size: u64,
    },
}

impl ReadError {
    /// The `test.spec.file_too_large` diagnostic for a file of `size` bytes: how
    /// [`ReadError::TooLarge`] is reported, by `run` and by `check`/`fmt` alike.
    pub fn too_large_diagnostic(size: u64) -> Diagnostic {
        Diagnostic::error(
            Code::FileTooLarge,
            "",
            Span::default(),
            ReadError::TooLarge { size }.to_string(),
        )
    }
}

/// Read `path` whole if it is a regular file of at most `MAX_FILE_BYTES`.
pub fn read_suite_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    (&file)
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > MAX_FILE_BYTES {
        // The size of the file that was read (the opened descriptor), not of whatever the path
        // names now.
        let size = file
            .metadata()
            .map(|m| m.len())
            .unwrap_or(bytes.len() as u64);
        return Err(ReadError::TooLarge { size });
    }
    Ok(bytes)
}

/// Open `path` for reading, refusing anything but a regular file (after following links).
fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Without O_NONBLOCK, opening a FIFO blocks until some other process opens it to write.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a directory, FIFO, socket or device is never a suite)",
        ));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_fifos_devices_and_oversized_files() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.acl");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        assert!(matches!(read_suite_file(&fifo), Err(ReadError::Io(_))));
        assert!(matches!(
            read_suite_file(Path::new("/dev/zero")),
            Err(ReadError::Io(_))
        ));
        let big = dir.path().join("big.acl");
        std::fs::write(&big, vec![b'#'; MAX_FILE_BYTES + 10]).unwrap();
        assert!(matches!(
            read_suite_file(&big),
            Err(ReadError::TooLarge { size }) if size == (MAX_FILE_BYTES + 10) as u64
        ));
        let ok = dir.path().join("ok.acl");
        std::fs::write(&ok, "suite \"a\" {}").unwrap();
        assert_eq!(read_suite_file(&ok).unwrap(), b"suite \"a\" {}");
    }
}
