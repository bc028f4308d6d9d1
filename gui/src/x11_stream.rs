//! The byte stream under every X connection of the desktop surface, with a bound on each wait.
//!
//! Why hand-written: x11rb's own stream (`DefaultStream`) waits for the X server with `poll()`
//! and no timeout, and x11rb has no reply timeout of its own, so an X server that stops
//! answering (stopped, wedged, grabbed by another client) would hang a step — its scenario's
//! deadline included — forever. [`BoundedStream`] delegates every read and write to a
//! `DefaultStream` and only replaces its `poll`: one that waits at most [`X11_WITHIN`] and then
//! fails with [`std::io::ErrorKind::TimedOut`]. x11rb waits through `poll` before every blocking
//! read (a reply, an event) and whenever a write would block, so the bound covers both.
//!
//! After a timeout the stream is *broken*: every later `poll`, read and write fails at once with
//! the same error. Why: x11rb matches replies by sequence number, so a late reply is never taken
//! for another request's; but a write that timed out may have left half a request in the
//! socket, after which the server would read the next request from the middle of this one. A
//! connection that once timed out is therefore never used again (a new `X11` opens a new one).
//!
//! [`connect`] opens the stream the way `x11rb::connect` does — the same display parsing, the
//! same addresses in the same order, the same Xauthority lookup — since those pieces are public
//! but the function that joins them is tied to `DefaultStream`.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use x11rb::errors::{ConnectError, DisplayParsingError};
use x11rb::reexports::x11rb_protocol::{parse_display, xauth};
use x11rb::rust_connection::{DefaultStream, PollMode, RustConnection, Stream};
use x11rb::utils::RawFdContainer;

/// How long the X server may stay silent while a request waits for it: the bound of one call on
/// the accessibility bus ([`crate::desktop::CALL_WITHIN`], 5 s), so both halves of the desktop
/// give up on an unanswering peer alike. A live X server answers a round trip in well under a
/// millisecond (a full-screen `GetImage` in tens), so only a server that is not working reaches it.
pub const X11_WITHIN: Duration = crate::desktop::CALL_WITHIN;

/// A connection to an X server over a [`BoundedStream`].
pub type BoundedConnection = RustConnection<BoundedStream>;

/// Why an X call failed without an answer: the server said nothing within the bound.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the X server did not answer within {} ms (stopped, wedged or grabbed by another client); this X connection is not used again", within.as_millis())]
pub struct Unanswered {
    /// The bound it outlived.
    pub within: Duration,
}

/// x11rb's `DefaultStream` whose every wait has a bound (see the module doc).
#[derive(Debug)]
pub struct BoundedStream {
    inner: DefaultStream,
    within: Duration,
    broken: AtomicBool,
}

impl BoundedStream {
    /// Wrap a connected stream; each wait for the server lasts at most `within`.
    pub fn new(inner: DefaultStream, within: Duration) -> BoundedStream {
        BoundedStream {
            inner,
            within,
            broken: AtomicBool::new(false),
        }
    }

    /// Whether a wait outlived the bound, after which nothing more is read or written.
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire)
    }

    /// The error of a wait that outlived the bound, and of everything after it.
    pub fn unanswered(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::TimedOut,
            Unanswered {
                within: self.within,
            },
        )
    }

    /// `Ok` while the stream may still be used.
    pub(crate) fn usable(&self) -> io::Result<()> {
        match self.is_broken() {
            true => Err(self.unanswered()),
            false => Ok(()),
        }
    }
}

impl Stream for BoundedStream {
    fn poll(&self, mode: PollMode) -> io::Result<()> {
        use rustix::event::{PollFd, PollFlags, Timespec};
        self.usable()?;
        let mut flags = PollFlags::empty();
        if mode.readable() {
            flags |= PollFlags::IN;
        }
        if mode.writable() {
            flags |= PollFlags::OUT;
        }
        let deadline = Instant::now() + self.within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            let timeout = Timespec::try_from(left).map_err(io::Error::other)?;
            let mut fds = [PollFd::new(&self.inner, flags)];
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                // Ready, or an error condition: read and write report it, as in `DefaultStream`.
                Ok(n) if n > 0 => return Ok(()),
                // Nothing within `left`: the loop's deadline check ends it.
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
        self.broken.store(true, Ordering::Release);
        Err(self.unanswered())
    }

    fn read(&self, buf: &mut [u8], fd_storage: &mut Vec<RawFdContainer>) -> io::Result<usize> {
        self.usable()?;
        self.inner.read(buf, fd_storage)
    }

    fn write(&self, buf: &[u8], fds: &mut Vec<RawFdContainer>) -> io::Result<usize> {
        self.usable()?;
        self.inner.write(buf, fds)
    }

    fn write_vectored(
        &self,
        bufs: &[io::IoSlice<'_>],
        fds: &mut Vec<RawFdContainer>,
    ) -> io::Result<usize> {
        self.usable()?;
        self.inner.write_vectored(bufs, fds)
    }
}

/// Connect to the X server at `display` (`:3`, `host:0.1`) as `x11rb::connect` does, over a
/// [`BoundedStream`] (the connection set-up is bounded too); returns the connection and the
/// display's screen number.
pub fn connect(
    display: &str,
    within: Duration,
) -> Result<(BoundedConnection, usize), ConnectError> {
    let parsed = parse_display::parse_display(Some(display))?;
    let screen = parsed.screen.into();
    let mut error = None;
    for address in parsed.connect_instruction() {
        let (stream, (family, peer)) = match DefaultStream::connect(&address) {
            Ok(connected) => connected,
            Err(e) => {
                error = Some(e);
                continue;
            }
        };
        // As x11rb does: a failed Xauthority lookup means connecting without a cookie.
        let (name, data) = xauth::get_auth(family, &peer, parsed.display)
            .ok()
            .flatten()
            .unwrap_or_default();
        let stream = BoundedStream::new(stream, within);
        let conn = RustConnection::connect_to_stream_with_auth_info(stream, screen, name, data)?;
        return Ok((conn, screen));
    }
    Err(match error {
        Some(e) => ConnectError::IoError(e),
        None => DisplayParsingError::Unknown.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    /// A stream to a peer that never writes: a readable poll times out after the bound, and from
    /// then on everything fails at once with the same error.
    #[test]
    fn a_silent_peer_times_the_poll_out_and_breaks_the_stream() {
        let (ours, _silent) = UnixStream::pair().unwrap();
        let (stream, _) = DefaultStream::from_unix_stream(ours).unwrap();
        let stream = BoundedStream::new(stream, Duration::from_millis(50));
        let error = stream.poll(PollMode::Readable).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert!(
            error.to_string().contains("did not answer within 50 ms"),
            "{error}"
        );
        assert!(stream.is_broken());
        let again = stream.write(b"x", &mut Vec::new()).unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::TimedOut);
        assert_eq!(again.to_string(), error.to_string());
        let read = stream.read(&mut [0; 4], &mut Vec::new()).unwrap_err();
        assert_eq!(read.kind(), io::ErrorKind::TimedOut);
    }

    /// A peer that has written: the poll returns at once and the stream stays usable.
    #[test]
    fn a_peer_that_wrote_is_ready_at_once() {
        use std::io::Write as _;
        let (ours, mut theirs) = UnixStream::pair().unwrap();
        theirs.write_all(b"hi").unwrap();
        let (stream, _) = DefaultStream::from_unix_stream(ours).unwrap();
        let stream = BoundedStream::new(stream, Duration::from_secs(60));
        stream.poll(PollMode::Readable).unwrap();
        assert!(!stream.is_broken());
        let mut buf = [0; 2];
        assert_eq!(stream.read(&mut buf, &mut Vec::new()).unwrap(), 2);
        assert_eq!(&buf, b"hi");
    }
}
