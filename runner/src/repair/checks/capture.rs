//! Bounded capture of a check's standard output and error.
//!
//! A check may print without limit (a test runner in a loop), and its output is evidence that
//! goes into the session folder, so only the *last* `limit` bytes of each stream are kept — the
//! end of a test run is where its verdict and failures are. Each pipe is drained on a thread of
//! its own, so a check never blocks on a full pipe whatever the tool is doing meanwhile. The
//! thread ends at end-of-file, which comes once every process holding the pipe's write end is
//! gone; a process that escaped the check's group could hold it open forever, so the caller waits
//! for the end only within a bound ([`Reader::closed_within`]) and then takes what was read so far.

use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::fs::MetadataExt;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// What one stream produced: the kept tail and how much was dropped before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Captured {
    /// The last bytes of the stream (at most the limit).
    pub tail: Vec<u8>,
    /// Every byte read, kept or not.
    pub total: u64,
    /// False when the stream was still open at the bound: some process outside the check's
    /// group holds its write end.
    pub closed: bool,
}

impl Captured {
    /// True when bytes were dropped from the front.
    pub fn truncated(&self) -> bool {
        self.total > self.tail.len() as u64
    }
}

/// A growing buffer that keeps at most `limit` bytes from the end (amortised: it compacts when
/// it reaches twice the limit).
#[derive(Debug)]
struct Tail {
    buf: Vec<u8>,
    limit: usize,
    total: u64,
}

impl Tail {
    fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if bytes.len() >= self.limit {
            self.buf.clear();
            self.buf
                .extend_from_slice(&bytes[bytes.len() - self.limit..]);
            return;
        }
        self.buf.extend_from_slice(bytes);
        if self.buf.len() > self.limit.saturating_mul(2) {
            let cut = self.buf.len() - self.limit;
            self.buf.drain(..cut);
        }
    }

    fn snapshot(&self, closed: bool) -> Captured {
        let start = self.buf.len().saturating_sub(self.limit);
        Captured {
            tail: self.buf[start..].to_vec(),
            total: self.total,
            closed,
        }
    }
}

/// One stream being drained on its own thread.
#[derive(Debug)]
pub(super) struct Reader {
    tail: Arc<Mutex<Tail>>,
    done: oneshot::Receiver<()>,
    closed: bool,
    inode: Option<u64>,
}

impl Reader {
    /// Start draining `pipe`, keeping its last `limit` bytes.
    pub fn start(pipe: impl Into<OwnedFd>, limit: usize) -> Reader {
        let mut pipe = std::fs::File::from(pipe.into());
        let inode = pipe.metadata().ok().map(|m| m.ino());
        let tail = Arc::new(Mutex::new(Tail {
            buf: Vec::new(),
            limit,
            total: 0,
        }));
        let (tx, done) = oneshot::channel();
        let shared = tail.clone();
        let drain = move || {
            let mut chunk = vec![0u8; 16 * 1024];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => match shared.lock() {
                        Ok(mut t) => t.push(&chunk[..n]),
                        Err(_) => break,
                    },
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(());
        };
        // Without a thread the closure (pipe and sender) is dropped: the check then writes into
        // a closed pipe instead of blocking, and the capture is empty.
        let _ = std::thread::Builder::new()
            .name("a3s-test-check-output".into())
            .spawn(drain);
        Reader {
            tail,
            done,
            closed: false,
            inode,
        }
    }

    /// The pipe's inode, to find who else still holds it ([`a3s_test_driver::process::pipe_holders`]).
    pub fn inode(&self) -> Option<u64> {
        self.inode
    }

    /// Wait up to `within` for end-of-file; true once the stream is closed.
    pub async fn closed_within(&mut self, within: Duration) -> bool {
        if !self.closed {
            self.closed = tokio::time::timeout(within, &mut self.done).await.is_ok();
        }
        self.closed
    }

    /// What was kept so far.
    pub fn captured(&self) -> Captured {
        match self.tail.lock() {
            Ok(t) => t.snapshot(self.closed),
            Err(poisoned) => poisoned.into_inner().snapshot(self.closed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_bytes_and_counts_all() {
        let mut t = Tail {
            buf: Vec::new(),
            limit: 4,
            total: 0,
        };
        for chunk in [&b"ab"[..], b"cd", b"ef", b"g"] {
            t.push(chunk);
        }
        let c = t.snapshot(true);
        assert_eq!(c.tail, b"defg");
        assert_eq!(c.total, 7);
        assert!(c.truncated());
        t.push(b"0123456789");
        assert_eq!(t.snapshot(true).tail, b"6789");
    }

    #[tokio::test]
    async fn a_reader_ends_at_end_of_file() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let mut r = Reader::start(reader, 64);
        assert!(r.inode().is_some());
        std::io::Write::write_all(&mut writer, b"hello").unwrap();
        assert!(!r.closed_within(Duration::from_millis(20)).await);
        drop(writer);
        assert!(r.closed_within(Duration::from_secs(5)).await);
        let c = r.captured();
        assert_eq!(
            (c.tail.as_slice(), c.total, c.closed),
            (&b"hello"[..], 5, true)
        );
        assert!(!c.truncated());
    }
}
