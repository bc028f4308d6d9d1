//! How a state file is laid out: indented down to the records, each IndexedDB record (and
//! index) on one line of compact JSON.
//!
//! Why not `serde_json`'s pretty printer throughout: a person reads a state file to see which
//! cookies, origins and databases it holds, which indentation helps; but an indented record
//! spreads a value's every level over lines of leading spaces — 2,000 small records took
//! 2.8 MB instead of 0.85 MB (`docs/benchmarks.md`), and a state file may hold 16 MiB.

use serde_json::ser::Formatter;
use std::io::{self, Write};

/// The first nesting level written compactly: the root object is level 1, so a record object
/// (root → origins → origin → indexedDB → database → objectStores → store → records → record)
/// is level 9.
const COMPACT_FROM: usize = 9;
const INDENT: &[u8] = b"  ";

/// Indented JSON above [`COMPACT_FROM`], compact from it on.
#[derive(Default)]
pub(super) struct StateLayout {
    level: usize,
    has_value: bool,
}

impl StateLayout {
    fn indented(level: usize) -> bool {
        level < COMPACT_FROM
    }

    fn newline<W: ?Sized + Write>(&self, writer: &mut W, level: usize) -> io::Result<()> {
        writer.write_all(b"\n")?;
        (0..level).try_for_each(|_| writer.write_all(INDENT))
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        let level = self.level;
        self.level -= 1;
        if Self::indented(level) && self.has_value {
            self.newline(writer, self.level)?;
        }
        writer.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        if Self::indented(self.level) {
            self.newline(writer, self.level)?;
        }
        Ok(())
    }
}

impl Formatter for StateLayout {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(if Self::indented(self.level) {
            b": "
        } else {
            b":"
        })
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}
