//! The size of a terminal, checked once: every size the engine uses went through
//! [`TerminalSize::new`], so no emulator or `TIOCSWINSZ` ever sees a zero or absurd size.

/// The most columns a terminal may have: wide enough for any real screen, small enough that a
/// screen snapshot (cells × rows) stays a few megabytes.
pub const MAX_COLUMNS: u16 = 1000;
/// The most rows a terminal may have (see [`MAX_COLUMNS`]).
pub const MAX_ROWS: u16 = 500;

/// A terminal size in character cells, between 1×1 and [`MAX_COLUMNS`]×[`MAX_ROWS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TerminalSize {
    columns: u16,
    rows: u16,
}

/// A size outside the bounds (code `test.driver.tui.bad_size`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a terminal of {columns}×{rows} is not allowed: columns must be 1–{MAX_COLUMNS} and rows 1–{MAX_ROWS}"
)]
pub struct SizeError {
    /// The columns asked for.
    pub columns: u32,
    /// The rows asked for.
    pub rows: u32,
}

impl TerminalSize {
    /// The classic 80×24, the size the public terminal surface defaults to.
    pub const DEFAULT: TerminalSize = TerminalSize {
        columns: 80,
        rows: 24,
    };

    /// Check a size; wider types are taken so a caller never truncates before the check.
    pub fn new(columns: u32, rows: u32) -> Result<TerminalSize, SizeError> {
        let fits = (1..=u32::from(MAX_COLUMNS)).contains(&columns)
            && (1..=u32::from(MAX_ROWS)).contains(&rows);
        if !fits {
            return Err(SizeError { columns, rows });
        }
        Ok(TerminalSize {
            columns: columns as u16,
            rows: rows as u16,
        })
    }

    /// Columns (1–[`MAX_COLUMNS`]).
    pub fn columns(self) -> u16 {
        self.columns
    }

    /// Rows (1–[`MAX_ROWS`]).
    pub fn rows(self) -> u16 {
        self.rows
    }
}

impl Default for TerminalSize {
    fn default() -> Self {
        TerminalSize::DEFAULT
    }
}
