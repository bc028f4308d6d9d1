//! The CLI side of a turn: connect to the supervisor's socket and exchange one request and one
//! answer, each with a deadline (blocking std I/O; a CLI turn needs no async runtime). The
//! answer comes back as the request's own typed reply ([`Call::Reply`]), read once, in this
//! build's protocol version ([`super::protocol`]).

use super::code::{SessionCode, SessionError};
use super::protocol::{Call, Envelope, RequestLine};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

/// How long a turn may take end to end (the supervisor bounds each step well below this).
pub const TURN_TIMEOUT: Duration = Duration::from_secs(120);

/// Send `request` to the supervisor listening on `socket` and read its answer: the typed reply
/// (with the blocked requests it shows), or the supervisor's error (with its next command in the
/// detail). An answer of another protocol version, or none that can be read, is
/// `test.session.supervisor`.
pub fn call<R: Call>(
    socket: &Path,
    request: R,
    timeout: Duration,
) -> Result<R::Reply, SessionError> {
    let not_running = |e: std::io::Error| {
        SessionError::new(
            SessionCode::NotRunning,
            format!("the session's supervisor is not running ({e}); start a new session"),
        )
    };
    let stream = UnixStream::connect(socket).map_err(not_running)?;
    let io = |e: std::io::Error| {
        SessionError::new(
            SessionCode::Supervisor,
            format!("the supervisor did not answer in time or hung up: {e}"),
        )
    };
    stream.set_write_timeout(Some(timeout)).map_err(io)?;
    stream.set_read_timeout(Some(timeout)).map_err(io)?;
    let mut line =
        serde_json::to_vec(&RequestLine::new(request.into())).expect("requests serialize");
    line.push(b'\n');
    (&stream).write_all(&line).map_err(io)?;
    let mut reader = BufReader::new(&stream);
    let mut answer = String::new();
    reader.read_line(&mut answer).map_err(io)?;
    if answer.is_empty() {
        return Err(SessionError::new(
            SessionCode::Supervisor,
            "the supervisor closed the connection without an answer",
        ));
    }
    let answer = Envelope::<R::Reply>::read(&answer)?;
    if answer.closing {
        // The supervisor closes the socket when it is about to exit; wait for that (bounded).
        let mut rest = Vec::new();
        let _ = std::io::Read::read_to_end(&mut reader, &mut rest);
    }
    answer.into_result()
}
