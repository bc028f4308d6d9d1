//! Tesseract as a bounded child: a PNG on its standard input, its TSV word boxes on its standard
//! output, [`crate::tsv`] reading them.
//!
//! Why a module of its own: anything that needs the words on an image (this provider's grounding,
//! a design review reading a design image) runs the same bounded program. It runs in a process
//! group of its own (an owned child of `a3s-test-driver`, killed when its owner dies); when the
//! deadline passes the whole group is killed and the call fails, and what it writes is read only
//! up to a bound. `OMP_THREAD_LIMIT=1`: one recognition uses one core, so parallel requests share
//! a small machine instead of each starting a thread per core.

use crate::tsv::{self, TsvError, Word};
use a3s_test_driver::child::{self, ExitWatch, Group, OnOwnerDeath};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Most bytes of TSV read from Tesseract (a 4K screenshot full of text is well under this).
pub const MAX_TSV_BYTES: usize = 8 * 1024 * 1024;
/// Most bytes of Tesseract's standard error kept for a failure's message.
const MAX_STDERR_BYTES: usize = 4 * 1024;

/// How to run Tesseract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tesseract {
    /// The program (`tesseract` on `PATH` by default).
    pub program: PathBuf,
    /// Its language (`eng` by default).
    pub language: String,
    /// Its page segmentation mode: 3 (automatic) by default. Sparse-text mode (11) reads
    /// isolated words well at 1× but loses framed words (text in bordered buttons) on a 2×
    /// screenshot; automatic segmentation finds both.
    pub segmentation: u8,
}

impl Default for Tesseract {
    fn default() -> Self {
        Tesseract {
            program: PathBuf::from("tesseract"),
            language: "eng".into(),
            segmentation: 3,
        }
    }
}

/// Why no words were read.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    /// The program could not be started.
    #[error("failed to start {program}: {source} (install the Debian package `tesseract-ocr`)")]
    Start {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// It did not finish within the deadline; its group was killed.
    #[error("tesseract did not finish within {0} ms and was stopped")]
    Timeout(u128),
    /// It exited with a failure.
    #[error("tesseract failed ({status}): {stderr}")]
    Failed {
        /// How it exited.
        status: String,
        /// The start of what it wrote to standard error, on one line.
        stderr: String,
    },
    /// It wrote more than [`MAX_TSV_BYTES`].
    #[error("tesseract wrote more than {MAX_TSV_BYTES} bytes of TSV")]
    TooLarge,
    /// What it wrote is not its TSV.
    #[error("tesseract's TSV could not be read: {0}")]
    Tsv(#[from] TsvError),
}

impl Tesseract {
    /// The words Tesseract reads on `png`, within `within`.
    pub fn words(&self, png: &[u8], within: Duration) -> Result<Vec<Word>, OcrError> {
        let tsv = self.tsv(png, within)?;
        Ok(tsv::parse(&tsv)?)
    }

    /// Tesseract's TSV for `png`, within `within` (blocking: call it off an async runtime).
    pub fn tsv(&self, png: &[u8], within: Duration) -> Result<String, OcrError> {
        let started = std::time::Instant::now();
        let mut command = Command::new(&self.program);
        command
            .arg("stdin")
            .arg("stdout")
            .arg("-l")
            .arg(&self.language)
            .arg("--psm")
            .arg(self.segmentation.to_string())
            .arg("tsv")
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut spawned =
            child::spawn(command, Group::NewGroup, OnOwnerDeath::Kill).map_err(|source| {
                OcrError::Start {
                    program: self.program.display().to_string(),
                    source,
                }
            })?;
        let pgid = spawned.id();
        let (Some(mut stdin), Some(stdout), Some(stderr)) = (
            spawned.stdin.take(),
            spawned.stdout.take(),
            spawned.stderr.take(),
        ) else {
            a3s_test_driver::process::kill_group(pgid);
            return Err(OcrError::Failed {
                status: "not started".into(),
                stderr: "its standard streams were not opened".into(),
            });
        };
        let exit = ExitWatch::new(spawned);
        // The image is written, and both outputs read, beside the wait: a full pipe in either
        // direction must not stall the child past its deadline.
        let input = png.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let reader = std::thread::spawn(move || bounded(stdout, MAX_TSV_BYTES));
        let errors = std::thread::spawn(move || bounded(stderr, MAX_STDERR_BYTES));
        let status = exit.wait_blocking(within.saturating_sub(started.elapsed()));
        let Some(status) = status else {
            a3s_test_driver::process::kill_group(pgid);
            let _ = exit.wait_blocking(Duration::from_secs(5));
            let _ = (writer.join(), reader.join(), errors.join());
            return Err(OcrError::Timeout(within.as_millis()));
        };
        // The child is gone; anything of its group still holding a pipe goes with it.
        a3s_test_driver::process::kill_group(pgid);
        let _ = writer.join();
        let (out, overflow) = reader.join().unwrap_or_default();
        let (err, _) = errors.join().unwrap_or_default();
        if !status.success() {
            let stderr: String = String::from_utf8_lossy(&err)
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .take(300)
                .collect();
            return Err(OcrError::Failed {
                status: status.to_string(),
                stderr: stderr.trim().to_string(),
            });
        }
        if overflow {
            return Err(OcrError::TooLarge);
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

/// Up to `max` bytes of `from`, and whether there was more (the rest is drained and dropped, so
/// the writer never blocks on a full pipe).
fn bounded(mut from: impl Read, max: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 64 * 1024];
    let mut overflow = false;
    loop {
        match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = max.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
                overflow |= n > room;
            }
        }
    }
    (kept, overflow)
}
