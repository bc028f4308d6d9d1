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
//! Readers report and skip it; the next writer that appends moves its bytes to
//! `repairs.jsonl.torn` and cuts the file back to the last complete line before appending (a
//! writer that appends nothing — a refused or replayed request — leaves the file as it is). A
//! complete line (one ending in a newline) is never dropped: if one does not parse, the ledger is
//! reported corrupt instead.
//!
//! Confinement: the ledger lives in the workspace a coding agent edits, so every path to it is
//! opened through `a3s_test_fsroot` — from the project folder down, `.a3s-test`,
//! `agent-sessions`, the session folder, `repairs.jsonl` and `repairs.jsonl.torn` are opened
//! without following links, and the ledger must be a regular file with a single link before the
//! writer reads, cuts or appends a byte. A link anywhere is `repair_unsafe_path`, refused before
//! anything is read or written; torn-tail recovery therefore only ever cuts a regular file in the
//! session folder, and only after its tail was appended to a `.torn` file checked the same way.

use crate::error::{ErrorCode, LedgerError};
use crate::event::{Event, RawFinding, LEDGER_FORMAT};
use a3s_test_fsroot::{Access, ConfinedPath, Dir, PRIVATE};
use serde::Serialize;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
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
pub fn read_ledger_for_view(
    path: &ConfinedPath,
    limits: &StoreLimits,
) -> Result<ReadReport, LedgerError> {
    read_with(path, limits, parse_ledger_for_view)
}

/// Read the ledger at `path` under a shared lock, checking every line in full. A missing file
/// is an empty ledger.
pub fn read_ledger(path: &ConfinedPath, limits: &StoreLimits) -> Result<ReadReport, LedgerError> {
    read_with(path, limits, parse_ledger)
}

fn read_with(
    path: &ConfinedPath,
    limits: &StoreLimits,
    parse: fn(&[u8]) -> Result<ReadReport, LedgerError>,
) -> Result<ReadReport, LedgerError> {
    let mut file = match path.open_file(Access::Read, 0) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(ReadReport::default()),
        Err(e) => return Err(LedgerError::fs(&e)),
    };
    lock(&file, libc::LOCK_SH, limits.lock_timeout)?;
    let bytes = read_all(&mut file, limits)?;
    parse(&bytes)
}

/// A ledger opened for writing: the exclusive lock is held until it is dropped.
#[derive(Debug)]
pub struct LedgerWriter {
    file: File,
    /// The session folder, opened without following links (the `.torn` file goes beside).
    dir: Dir,
    torn_name: std::ffi::OsString,
    path: PathBuf,
    limits: StoreLimits,
    len: u64,
    count: u64,
    /// A torn tail found at open, cut by the first append (a writer that appends nothing — a
    /// refused or replayed request — leaves the file as it found it).
    torn: Option<(TornTail, Vec<u8>)>,
    recovered: Option<TornTail>,
}

/// The name of the file beside the ledger that keeps cut-off torn tails.
fn torn_name(ledger: &std::ffi::OsStr) -> std::ffi::OsString {
    let mut name = ledger.to_owned();
    name.push(".torn");
    name
}

impl LedgerWriter {
    /// Create the folder and file if needed (neither may be reached through a link, and the file
    /// must be a regular file with one link), take the exclusive lock and read every event.
    /// A torn tail is noted, not yet cut: the first [`LedgerWriter::append`] keeps its bytes in
    /// `<path>.torn` and cuts it. Returns the writer and the events.
    pub fn open(
        path: &ConfinedPath,
        limits: StoreLimits,
    ) -> Result<(Self, Vec<Event>), LedgerError> {
        let Some((folder, name)) = path.split() else {
            return Err(LedgerError::new(
                ErrorCode::InvalidInput,
                format!("{} names no ledger file", path.path().display()),
            ));
        };
        let dir = folder.create_dir_all().map_err(|e| LedgerError::fs(&e))?;
        let mut file = dir
            .open_file(name, Access::Append, PRIVATE)
            .map_err(|e| LedgerError::fs(&e))?;
        lock(&file, libc::LOCK_EX, limits.lock_timeout)?;
        let bytes = read_all(&mut file, &limits)?;
        let report = parse_ledger(&bytes)?;
        let torn = report
            .torn_tail
            .map(|t| (t.clone(), bytes[t.offset as usize..].to_vec()));
        let writer = LedgerWriter {
            file,
            dir,
            torn_name: torn_name(name),
            path: path.path(),
            limits,
            len: bytes.len() as u64,
            count: report.events.len() as u64,
            torn,
            recovered: None,
        };
        Ok((writer, report.events))
    }

    /// The torn tail this writer cut off before its append, if any.
    pub fn recovered_tail(&self) -> Option<&TornTail> {
        self.recovered.as_ref()
    }

    /// The next sequence number.
    pub fn next_seq(&self) -> u64 {
        self.count + 1
    }

    /// The ledger's path (for messages).
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// Append `events` as one write and sync it. Nothing is written if the ceiling would be
    /// passed; the events are durable when this returns `Ok`. A torn tail found at open is kept
    /// aside and cut first.
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
        let base = self.torn.as_ref().map_or(self.len, |(t, _)| t.offset);
        let new_len = base + buf.len() as u64;
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
        self.cut_torn_tail()?;
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

    /// Keep the torn tail's bytes in the `.torn` file, then cut the ledger back to its last
    /// complete line. Only a regular, singly linked file in the session folder reaches here.
    fn cut_torn_tail(&mut self) -> Result<(), LedgerError> {
        let Some((torn, fragment)) = self.torn.take() else {
            return Ok(());
        };
        if let Err(e) = quarantine(&self.dir, &self.torn_name, &fragment) {
            self.torn = Some((torn, fragment));
            return Err(e);
        }
        self.file
            .set_len(torn.offset)
            .map_err(|e| LedgerError::io("cut the torn tail", &e))?;
        self.file
            .sync_all()
            .map_err(|e| LedgerError::io("sync the ledger", &e))?;
        self.len = torn.offset;
        self.recovered = Some(torn);
        Ok(())
    }
}

/// Append a cut-off torn tail to `name` in the session folder: created when missing, appended to
/// otherwise, never through a link and never to a file with other hard links — a refusal here
/// stops the recovery before the ledger is cut.
fn quarantine(dir: &Dir, name: &std::ffi::OsStr, fragment: &[u8]) -> Result<(), LedgerError> {
    let mut f = dir
        .open_file(name, Access::Append, PRIVATE)
        .map_err(|e| LedgerError::fs(&e))?;
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
