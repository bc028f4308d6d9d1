//! `repairs.jsonl` on disk: append-only JSON Lines, one `fsync` per append, an exclusive `flock`
//! for writers and a shared one for readers, a size ceiling, and torn-tail recovery.
//!
//! Locking uses `flock(2)` on the ledger file itself (through `libc`): it is per open file, so
//! two processes — or two handles in one process — exclude each other, and the kernel drops the
//! lock when a writer dies, even by SIGKILL. A writer holds the lock while it reads the whole
//! ledger, checks the request, appends and syncs, so two writers never interleave and every
//! sequence number is taken exactly once.
//!
//! Crash safety: an append is one `write` of complete lines followed by `fdatasync`; only after
//! that does the caller acknowledge. A crash can leave at most a torn last line (no newline).
//! Readers report and skip it; the next writer moves its bytes to `repairs.jsonl.torn` and cuts
//! the file back to the last complete line before appending. A complete line (one ending in a
//! newline) is never dropped: if one does not parse, the ledger is reported corrupt instead.

use crate::error::{ErrorCode, LedgerError};
use crate::event::{Event, RawFinding, LEDGER_FORMAT};
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The default size ceiling of one ledger file (64 MiB).
pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// The default time to wait for the lock.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(10);

/// Bounds of the store.
#[derive(Clone, Copy, Debug)]
pub struct StoreLimits {
    /// The size ceiling: an append that would pass it fails with `repair_ledger_full`, and a
    /// larger file is refused on read.
    pub max_bytes: u64,
    /// How long to wait for the lock before `repair_ledger_busy`.
    pub lock_timeout: Duration,
}

impl Default for StoreLimits {
    fn default() -> Self {
        StoreLimits {
            max_bytes: DEFAULT_MAX_BYTES,
            lock_timeout: DEFAULT_LOCK_TIMEOUT,
        }
    }
}

/// A torn last line found on read: bytes after the last newline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TornTail {
    /// Byte offset where the torn line starts (= the length of the complete part).
    pub offset: u64,
    /// How many bytes it has.
    pub bytes: u64,
}

/// Everything read from one ledger file.
#[derive(Debug, Default)]
pub struct ReadReport {
    /// Every complete event, in sequence order.
    pub events: Vec<Event>,
    /// A torn last line, if the last write did not finish.
    pub torn_tail: Option<TornTail>,
}

/// Read the ledger at `path` under a shared lock for a read-only view (intake payloads are
/// checked when used, see `parse_ledger_for_view`). A missing file is an empty ledger.
pub fn read_ledger_for_view(path: &Path, limits: &StoreLimits) -> Result<ReadReport, LedgerError> {
    read_with(path, limits, parse_ledger_for_view)
}

/// Read the ledger at `path` under a shared lock, checking every line in full. A missing file
/// is an empty ledger.
pub fn read_ledger(path: &Path, limits: &StoreLimits) -> Result<ReadReport, LedgerError> {
    read_with(path, limits, parse_ledger)
}

fn read_with(
    path: &Path,
    limits: &StoreLimits,
    parse: fn(&[u8]) -> Result<ReadReport, LedgerError>,
) -> Result<ReadReport, LedgerError> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ReadReport::default()),
        Err(e) => return Err(LedgerError::io("open the ledger", &e)),
    };
    lock(&file, libc::LOCK_SH, limits.lock_timeout)?;
    let bytes = read_all(&mut file, limits)?;
    parse(&bytes)
}

/// A ledger opened for writing: the exclusive lock is held until it is dropped.
#[derive(Debug)]
pub struct LedgerWriter {
    file: File,
    path: PathBuf,
    limits: StoreLimits,
    len: u64,
    count: u64,
    recovered: Option<TornTail>,
}

impl LedgerWriter {
    /// Create the folder and file if needed, take the exclusive lock, read every event and cut
    /// off a torn tail (keeping its bytes in `<path>.torn`). Returns the writer and the events.
    pub fn open(path: &Path, limits: StoreLimits) -> Result<(Self, Vec<Event>), LedgerError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| LedgerError::io("create the session folder", &e))?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| LedgerError::io("open the ledger for writing", &e))?;
        lock(&file, libc::LOCK_EX, limits.lock_timeout)?;
        let bytes = read_all(&mut file, &limits)?;
        let report = parse_ledger(&bytes)?;
        let mut len = bytes.len() as u64;
        let recovered = report.torn_tail.clone();
        if let Some(torn) = &recovered {
            quarantine(path, &bytes[torn.offset as usize..])?;
            file.set_len(torn.offset)
                .map_err(|e| LedgerError::io("cut the torn tail", &e))?;
            file.sync_all()
                .map_err(|e| LedgerError::io("sync the ledger", &e))?;
            len = torn.offset;
        }
        let writer = LedgerWriter {
            file,
            path: path.to_owned(),
            limits,
            len,
            count: report.events.len() as u64,
            recovered,
        };
        Ok((writer, report.events))
    }

    /// The torn tail this writer cut off when it opened, if any.
    pub fn recovered_tail(&self) -> Option<&TornTail> {
        self.recovered.as_ref()
    }

    /// The next sequence number.
    pub fn next_seq(&self) -> u64 {
        self.count + 1
    }

    /// The ledger's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append `events` as one write and sync it. Nothing is written if the ceiling would be
    /// passed; the events are durable when this returns `Ok`.
    pub fn append(&mut self, events: Vec<Event>) -> Result<(), LedgerError> {
        if events.is_empty() {
            return Ok(());
        }
        let mut buf = Vec::with_capacity(512 * events.len());
        for (i, ev) in events.iter().enumerate() {
            debug_assert_eq!(ev.seq, self.next_seq() + i as u64);
            serde_json::to_writer(&mut buf, ev).map_err(|e| {
                LedgerError::new(ErrorCode::Io, format!("failed to encode an event: {e}"))
            })?;
            buf.push(b'\n');
        }
        let new_len = self.len + buf.len() as u64;
        if new_len > self.limits.max_bytes {
            return Err(LedgerError::new(
                ErrorCode::LedgerFull,
                format!(
                    "the ledger {} would grow to {new_len} bytes, past its ceiling of {} bytes; \
                     start a new session",
                    self.path.display(),
                    self.limits.max_bytes
                ),
            ));
        }
        if let Err(e) = self.file.write_all(&buf) {
            // A short write leaves a torn tail; cut it now so this writer's state stays true.
            let _ = self.file.set_len(self.len);
            return Err(LedgerError::io("append to the ledger", &e));
        }
        self.file
            .sync_data()
            .map_err(|e| LedgerError::io("sync the ledger", &e))?;
        self.len = new_len;
        self.count += events.len() as u64;
        Ok(())
    }
}

fn quarantine(path: &Path, fragment: &[u8]) -> Result<(), LedgerError> {
    let mut name = path.as_os_str().to_owned();
    name.push(".torn");
    let mut f = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(PathBuf::from(name))
        .map_err(|e| LedgerError::io("keep the torn tail", &e))?;
    f.write_all(fragment)
        .and_then(|_| f.write_all(b"\n"))
        .and_then(|_| f.sync_data())
        .map_err(|e| LedgerError::io("keep the torn tail", &e))
}

fn read_all(file: &mut File, limits: &StoreLimits) -> Result<Vec<u8>, LedgerError> {
    let len = file
        .metadata()
        .map_err(|e| LedgerError::io("stat the ledger", &e))?
        .len();
    if len > limits.max_bytes {
        return Err(LedgerError::new(
            ErrorCode::LedgerFull,
            format!(
                "the ledger has {len} bytes, past its ceiling of {} bytes",
                limits.max_bytes
            ),
        ));
    }
    file.seek(SeekFrom::Start(0))
        .map_err(|e| LedgerError::io("read the ledger", &e))?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limits.max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| LedgerError::io("read the ledger", &e))?;
    Ok(bytes)
}

/// Parse ledger bytes: every complete line must be a valid event of a known format with the
/// next sequence number (and an intake line a valid finding); bytes after the last newline are
/// a torn tail.
pub fn parse_ledger(bytes: &[u8]) -> Result<ReadReport, LedgerError> {
    parse_lines(bytes, None)
}

/// As `parse_ledger`, but for read-only views: the finding payload of an intake line (most of
/// a ledger's bytes) is split off unparsed and checked only if the view uses it.
///
/// Writers put `finding` last in a line, and an unescaped `,"finding":` cannot occur inside a
/// JSON string, so its first occurrence is the event's own key (no field before it has a
/// nested `finding` key). The rest of the line is parsed and checked as usual; a line the split
/// does not fit is parsed whole.
pub fn parse_ledger_for_view(bytes: &[u8]) -> Result<ReadReport, LedgerError> {
    let shared: std::sync::Arc<[u8]> = bytes.into();
    parse_lines(&shared, Some(&shared))
}

const FINDING_KEY: &[u8] = b",\"finding\":";

/// Parse one line; with `shared` (the buffer `line` lies in), split off an intake payload.
fn parse_line(line: &[u8], shared: Option<&std::sync::Arc<[u8]>>) -> serde_json::Result<Event> {
    if let (Some(buf), Some(b'}')) = (shared, line.last()) {
        if let Some(at) = memchr::memmem::find(line, FINDING_KEY) {
            let head = [&line[..at], b"}"].concat();
            if let Ok(mut event) = serde_json::from_slice::<Event>(&head) {
                if event.finding.is_none() {
                    let offset = line.as_ptr() as usize - buf.as_ptr() as usize;
                    let range = offset + at + FINDING_KEY.len()..offset + line.len() - 1;
                    event.finding = Some(RawFinding::shared(buf, range));
                    return Ok(event);
                }
            }
        }
    }
    serde_json::from_slice(line)
}

fn parse_lines(
    bytes: &[u8],
    shared: Option<&std::sync::Arc<[u8]>>,
) -> Result<ReadReport, LedgerError> {
    let lazy = shared.is_some();
    let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn_tail = (complete_len < bytes.len()).then(|| TornTail {
        offset: complete_len as u64,
        bytes: (bytes.len() - complete_len) as u64,
    });
    let body = &bytes[..complete_len];
    let mut lines: Vec<&[u8]> = Vec::with_capacity(body.len() / 256);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', body) {
        lines.push(&body[start..end]);
        start = end + 1;
    }
    let parse = |(i, line): (usize, &&[u8])| -> Result<Event, LedgerError> {
        let event: Event = parse_line(line, shared).map_err(|e| {
            if let Some(format) = unknown_format(line) {
                return LedgerError::new(
                    ErrorCode::LedgerFormat,
                    format!(
                        "line {} has ledger format {format}; this a3s-test reads format \
                         {LEDGER_FORMAT}",
                        i + 1
                    ),
                );
            }
            LedgerError::new(
                ErrorCode::LedgerCorrupt,
                format!("line {} of the ledger is not a valid event: {e}", i + 1),
            )
        })?;
        if event.format != LEDGER_FORMAT {
            return Err(LedgerError::new(
                ErrorCode::LedgerFormat,
                format!(
                    "line {} has ledger format {}; this a3s-test reads format {LEDGER_FORMAT}",
                    i + 1,
                    event.format
                ),
            ));
        }
        if !lazy && event.finding.is_some() {
            event.record().map_err(|e| {
                LedgerError::new(
                    ErrorCode::LedgerCorrupt,
                    format!("line {}: {}", i + 1, e.message),
                )
            })?;
        }
        if event.seq != i as u64 + 1 {
            return Err(LedgerError::new(
                ErrorCode::LedgerCorrupt,
                format!(
                    "line {} has sequence {}, expected {}",
                    i + 1,
                    event.seq,
                    i + 1
                ),
            ));
        }
        Ok(event)
    };
    // Serial on purpose: views parallelize across sessions, and a nested parallel parse of one
    // file measured twice as slow as this loop.
    let events = lines
        .iter()
        .enumerate()
        .map(parse)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ReadReport { events, torn_tail })
}

fn unknown_format(line: &[u8]) -> Option<u64> {
    #[derive(serde::Deserialize)]
    struct FormatOnly {
        format: u64,
    }
    let f: FormatOnly = serde_json::from_slice(line).ok()?;
    (f.format != u64::from(LEDGER_FORMAT)).then_some(f.format)
}

/// Take `flock(op)` on `file`, retrying a busy lock until `timeout`.
fn lock(file: &File, op: libc::c_int, timeout: Duration) -> Result<(), LedgerError> {
    let deadline = Instant::now() + timeout;
    let mut backoff = Duration::from_micros(200);
    loop {
        // SAFETY: flock on a valid, open file descriptor owned by `file`.
        let rc = unsafe { libc::flock(file.as_raw_fd(), op | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(());
        }
        let err = std::io::Error::last_os_error();
        match err.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) => {
                if Instant::now() >= deadline {
                    return Err(LedgerError::new(
                        ErrorCode::LedgerBusy,
                        format!(
                            "failed to lock the ledger within {} ms: another writer holds it",
                            timeout.as_millis()
                        ),
                    ));
                }
                // Wait for the holder to release; flock has no timed wait, so poll with backoff.
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_millis(20));
            }
            _ => return Err(LedgerError::io("lock the ledger", &err)),
        }
    }
}
