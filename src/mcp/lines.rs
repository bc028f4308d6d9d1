//! Newline-delimited messages read with a bound that holds *while* reading.
//!
//! Why not `read_until`: it keeps everything up to the newline, so one 512 MiB line grew the
//! server by the whole line before the size check could answer. Here at most
//! [`super::MAX_LINE_BYTES`] + one buffer chunk is ever held; the rest of an over-long line is
//! skipped chunk by chunk without being stored, and the caller answers it with an error.

use std::io::{self, BufRead};

/// One message line, or the fact that it was too long.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line (without its `\n`) is in the buffer.
    Complete,
    /// The line passed the limit; it was skipped up to and including its `\n` (or the end).
    TooLong,
}

/// Read the next line into `buf` (cleared first), keeping at most `limit` bytes.
/// `Ok(None)` at the end of input.
pub fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<Line>> {
    buf.clear();
    let mut any = false;
    let mut skipping = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (any, skipping) {
                (false, _) => None,
                (true, true) => Some(Line::TooLong),
                (true, false) => Some(Line::Complete),
            });
        }
        any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(chunk.len());
        if !skipping {
            if buf.len() + take > limit {
                skipping = true;
                buf.clear();
                buf.shrink_to(limit);
            } else {
                // Grow by doubling, but never past the limit (plain `extend` could double a
                // 3 MiB buffer to 6 MiB).
                let needed = buf.len() + take;
                if needed > buf.capacity() {
                    let want = needed.max((buf.capacity() * 2).min(limit));
                    buf.reserve_exact(want - buf.len());
                }
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        match newline {
            Some(i) => {
                input.consume(i + 1);
                return Ok(Some(if skipping {
                    Line::TooLong
                } else {
                    Line::Complete
                }));
            }
            None => input.consume(take),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    #[test]
    fn lines_are_split_and_the_last_may_lack_a_newline() {
        let mut input = BufReader::new(&b"{\"a\":1}\n\nlast"[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut input, &mut buf, 16).unwrap(),
            Some(Line::Complete)
        );
        assert_eq!(buf, b"{\"a\":1}");
        assert_eq!(
            read_line(&mut input, &mut buf, 16).unwrap(),
            Some(Line::Complete)
        );
        assert!(buf.is_empty());
        assert_eq!(
            read_line(&mut input, &mut buf, 16).unwrap(),
            Some(Line::Complete)
        );
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut input, &mut buf, 16).unwrap(), None);
    }

    #[test]
    fn an_over_long_line_is_skipped_without_being_held() {
        // 64 MiB of one line, then a normal message: the buffer never grows past the limit.
        let limit = 1024;
        let long = std::io::repeat(b'a').take(64 * 1024 * 1024);
        let rest = &b"\n{\"ok\":true}\n"[..];
        let mut input = BufReader::with_capacity(8192, long.chain(rest));
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut input, &mut buf, limit).unwrap(),
            Some(Line::TooLong)
        );
        assert!(buf.capacity() <= limit + 8192, "{}", buf.capacity());
        assert_eq!(
            read_line(&mut input, &mut buf, limit).unwrap(),
            Some(Line::Complete)
        );
        assert_eq!(buf, b"{\"ok\":true}");
        assert_eq!(read_line(&mut input, &mut buf, limit).unwrap(), None);
    }

    #[test]
    fn exactly_the_limit_is_accepted() {
        let mut input = BufReader::new(&b"abcd\nabcde\n"[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut input, &mut buf, 4).unwrap(),
            Some(Line::Complete)
        );
        assert_eq!(
            read_line(&mut input, &mut buf, 4).unwrap(),
            Some(Line::TooLong)
        );
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), None);
    }
}
