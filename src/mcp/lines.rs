//! Newline-delimited messages read with a bound that holds *while* reading.
//!
//! Why not `read_until`: it keeps everything up to the newline, so one 512 MiB line grew the
//! server by the whole line before the size check could answer. Here at most
//! [`super::MAX_LINE_BYTES`] + one buffer chunk is ever held; the rest of an over-long line is
//! skipped chunk by chunk without being stored, and the caller answers it with an error.

use std::io::{self, BufRead};

/// One message line, or the fact that it was too long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// Every line `read_line` gives until the end (`None`), with what the buffer held after it,
    /// and the largest capacity the buffer reached.
    fn all_lines(mut input: impl BufRead, limit: usize) -> (Vec<(Line, Vec<u8>)>, usize) {
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        let mut capacity = 0;
        while let Some(line) = read_line(&mut input, &mut buf, limit).unwrap() {
            capacity = capacity.max(buf.capacity());
            lines.push((line, buf.clone()));
        }
        (lines, capacity)
    }

    #[test]
    fn lines_are_split_and_the_last_may_lack_a_newline() {
        let (lines, _) = all_lines(BufReader::new(&b"{\"a\":1}\n\nlast"[..]), 16);
        assert_eq!(
            lines,
            [
                (Line::Complete, b"{\"a\":1}".to_vec()),
                (Line::Complete, vec![]),
                (Line::Complete, b"last".to_vec()),
            ]
        );
    }

    #[test]
    fn an_over_long_line_is_skipped_without_being_held() {
        // 64 MiB of one line, then a normal message: the buffer never grows past the limit.
        let limit = 1024;
        let long = std::io::repeat(b'a').take(64 * 1024 * 1024);
        let rest = &b"\n{\"ok\":true}\n"[..];
        let input = BufReader::with_capacity(8192, long.chain(rest));
        let (lines, capacity) = all_lines(input, limit);
        assert!(capacity <= limit + 8192, "{capacity}");
        let kinds: Vec<Line> = lines.iter().map(|(l, _)| *l).collect();
        assert_eq!(kinds, [Line::TooLong, Line::Complete]);
        assert_eq!(lines[1].1, b"{\"ok\":true}");
    }

    #[test]
    fn exactly_the_limit_is_accepted() {
        let (lines, _) = all_lines(BufReader::new(&b"abcd\nabcde\n"[..]), 4);
        let kinds: Vec<Line> = lines.iter().map(|(l, _)| *l).collect();
        assert_eq!(kinds, [Line::Complete, Line::TooLong]);
    }
}
