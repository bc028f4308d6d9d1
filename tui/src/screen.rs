//! The terminal emulator behind a program's screen, and the [`Screen`] snapshot everything else
//! reads (waits, evidence, a later agent's observations).
//!
//! Why `alacritty_terminal`: it is the emulator of a terminal many people use daily, kept up with
//! what real programs send (xterm sequences, the alternate screen, bracketed paste, 256 and 24-bit
//! colour, wide characters, scrollback), and — unlike `vt100` — it answers the questions a program
//! asks its terminal (primary device attributes `ESC [ c`, cursor position report `ESC [ 6 n`,
//! mode and colour queries) through its event listener, so vim, less and curses programs that
//! ask never wait for an answer. Its parser (`vte`) shows invalid UTF-8 as U+FFFD and never
//! panics on malformed input. The engine keeps the emulator behind one lock; a [`Screen`] is a
//! plain, owned copy with a revision number, so readers never hold that lock.

use crate::size::TerminalSize;
use alacritty_terminal::event::{Event, EventListener, WindowSize};
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::Flags;
use alacritty_terminal::term::{Config, Term, TermMode};
use alacritty_terminal::vte::ansi::{Color, NamedColor, Processor, Rgb};
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// A colour as the program asked for it; the SVG resolves it with [`crate::svg::PALETTE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// The terminal's default foreground or background.
    Default,
    /// One of the 256 palette colours (0–15 are the named ANSI colours).
    Indexed(u8),
    /// A 24-bit colour.
    Rgb(u8, u8, u8),
}

/// How one cell is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Style {
    /// Foreground colour.
    pub fg: Colour,
    /// Background colour.
    pub bg: Colour,
    /// Bold (SGR 1).
    pub bold: bool,
    /// Italic (SGR 3).
    pub italic: bool,
    /// Any underline (SGR 4 and its variants).
    pub underline: bool,
    /// Inverse video (SGR 7): foreground and background swapped when drawn.
    pub inverse: bool,
}

impl Style {
    /// The style of a blank cell: default colours, no attributes.
    pub const PLAIN: Style = Style {
        fg: Colour::Default,
        bg: Colour::Default,
        bold: false,
        italic: false,
        underline: false,
        inverse: false,
    };
}

/// One character cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The character with any combining marks; empty for the second half of a wide character.
    pub text: String,
    /// How it is drawn.
    pub style: Style,
}

/// The runs of one row: each a range of cells that share one style, in order. Every rendering
/// of styles (the SVG screenshot, the styled text) walks a row this way.
pub fn style_runs(cells: &[Cell]) -> impl Iterator<Item = (std::ops::Range<usize>, Style)> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        let style = cells.get(start)?.style;
        let end = (start..cells.len())
            .find(|&i| cells[i].style != style)
            .unwrap_or(cells.len());
        let run = start..end;
        start = end;
        Some((run, style))
    })
}

/// The cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cursor {
    /// Row, 0 at the top of the screen.
    pub row: u16,
    /// Column, 0 at the left.
    pub column: u16,
    /// Whether the program shows it (DECTCEM).
    pub visible: bool,
}

/// The terminal modes a test or an agent may need to know about.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Modes {
    /// Bracketed paste (`ESC [ ? 2004 h`): a paste is wrapped in markers.
    pub bracketed_paste: bool,
    /// Application cursor keys (`ESC [ ? 1 h`): arrows send `ESC O x`.
    pub application_cursor: bool,
    /// The alternate screen (`ESC [ ? 1049 h`, full-screen programs).
    pub alternate_screen: bool,
}

/// A copy of the screen at one moment: what waits test and evidence shows.
///
/// `revision` increases with every change of the terminal (output processed, resize), so a
/// caller can tell whether the screen changed since an earlier snapshot without comparing cells
/// (an agent's "refuse input if the screen changed since the observation").
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct Screen {
    /// The change count when the copy was made.
    pub revision: u64,
    /// Columns × rows.
    pub size: TerminalSize,
    /// The visible rows, top first, each `size.columns()` cells.
    pub rows: Vec<Vec<Cell>>,
    /// The cursor.
    pub cursor: Cursor,
    /// The modes.
    pub modes: Modes,
    /// Rows scrolled off the top, oldest first, as plain text (bounded by the scrollback size).
    pub scrollback: Vec<String>,
}

/// Compact: the text, cursor and modes (a cell-by-cell dump of a screen is unreadable in a
/// failure message).
impl std::fmt::Debug for Screen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screen")
            .field("revision", &self.revision)
            .field("size", &self.size)
            .field("cursor", &self.cursor)
            .field("modes", &self.modes)
            .field("text", &self.text())
            .finish_non_exhaustive()
    }
}

impl Screen {
    /// One visible row as plain text, trailing blanks removed — except, on the cursor's row,
    /// blanks before the cursor: a terminal cannot tell a written space from an empty cell, and
    /// the cursor after a prompt such as `>>> ` is what says the space is there.
    pub fn row_text(&self, row: usize) -> String {
        let Some(cells) = self.rows.get(row) else {
            return String::new();
        };
        let cursor =
            (usize::from(self.cursor.row) == row).then_some(usize::from(self.cursor.column));
        let mut text = RowText::new(cursor);
        for cell in cells {
            text.cell().push_str(&cell.text);
        }
        text.finish()
    }

    /// The visible screen as plain text: one line per row, trailing blanks removed.
    pub fn text(&self) -> String {
        (0..self.rows.len())
            .map(|row| self.row_text(row))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether the visible screen contains `needle` (rows joined by newlines).
    pub fn contains(&self, needle: &str) -> bool {
        self.text().contains(needle)
    }
}

/// Builds one row's text with [`Screen::row_text`]'s rule, for a [`Screen`] and for the
/// emulator's own grid alike (so a wait can test text without copying every cell's style).
struct RowText {
    text: String,
    cursor: Option<usize>,
    cells: usize,
    keep: usize,
}

impl RowText {
    fn new(cursor: Option<usize>) -> RowText {
        RowText {
            text: String::new(),
            cursor,
            cells: 0,
            keep: 0,
        }
    }

    /// The string the next cell's text is pushed onto.
    fn cell(&mut self) -> &mut String {
        if self.cursor == Some(self.cells) {
            self.keep = self.text.len();
        }
        self.cells += 1;
        &mut self.text
    }

    fn finish(mut self) -> String {
        let trimmed = self.text.trim_end().len();
        self.text.truncate(trimmed.max(self.keep));
        self.text
    }
}

/// Where the emulator's answers to the program's queries collect until the reader sends them.
#[derive(Clone)]
struct Answers {
    bytes: Arc<Mutex<Vec<u8>>>,
    size: Arc<Mutex<TerminalSize>>,
}

impl EventListener for Answers {
    fn send_event(&self, event: Event) {
        let answer = match event {
            Event::PtyWrite(text) => text,
            Event::ColorRequest(index, format) => format(crate::svg::resolve_index(index)),
            Event::TextAreaSizeRequest(format) => {
                let size = *self.size.lock().unwrap_or_else(|e| e.into_inner());
                format(WindowSize {
                    num_lines: size.rows(),
                    num_cols: size.columns(),
                    cell_width: crate::svg::CELL_WIDTH as u16,
                    cell_height: crate::svg::CELL_HEIGHT as u16,
                })
            }
            _ => return,
        };
        let mut bytes = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        bytes.extend_from_slice(answer.as_bytes());
    }
}

/// `alacritty_terminal` wants its size through this trait.
struct Dims(TerminalSize);

impl Dimensions for Dims {
    fn total_lines(&self) -> usize {
        usize::from(self.0.rows())
    }
    fn screen_lines(&self) -> usize {
        usize::from(self.0.rows())
    }
    fn columns(&self) -> usize {
        usize::from(self.0.columns())
    }
}

/// The emulator: parser, grid and the answers it owes the program.
pub(crate) struct Emulator {
    term: Term<Answers>,
    parser: Processor,
    answers: Answers,
    size: TerminalSize,
}

impl Emulator {
    /// A blank terminal of `size` keeping at most `scrollback_rows` rows above the screen.
    pub(crate) fn new(size: TerminalSize, scrollback_rows: usize) -> Emulator {
        let answers = Answers {
            bytes: Arc::default(),
            size: Arc::new(Mutex::new(size)),
        };
        let config = Config {
            scrolling_history: scrollback_rows,
            ..Config::default()
        };
        Emulator {
            term: Term::new(config, &Dims(size), answers.clone()),
            parser: Processor::new(),
            answers,
            size,
        }
    }

    /// Process the program's output.
    pub(crate) fn advance(&mut self, bytes: &[u8]) {
        self.parser.advance(&mut self.term, bytes);
    }

    /// The answers to queries seen so far, removed.
    pub(crate) fn take_answers(&mut self) -> Vec<u8> {
        std::mem::take(&mut *self.answers.bytes.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Resize the grid (the caller resizes the pseudoterminal).
    pub(crate) fn resize(&mut self, size: TerminalSize) {
        self.size = size;
        *self.answers.size.lock().unwrap_or_else(|e| e.into_inner()) = size;
        self.term.resize(Dims(size));
    }

    /// The modes now.
    pub(crate) fn modes(&self) -> Modes {
        let mode = self.term.mode();
        Modes {
            bracketed_paste: mode.contains(TermMode::BRACKETED_PASTE),
            application_cursor: mode.contains(TermMode::APP_CURSOR),
            alternate_screen: mode.contains(TermMode::ALT_SCREEN),
        }
    }

    /// The visible screen's text, as [`Screen::text`] gives it, without copying the cells.
    pub(crate) fn text(&self) -> String {
        let grid = self.term.grid();
        let point = grid.cursor.point;
        let columns = usize::from(self.size.columns());
        let mut rows = Vec::with_capacity(usize::from(self.size.rows()));
        for r in 0..i32::from(self.size.rows()) {
            let row = &grid[Line(r)];
            let mut text = RowText::new((point.line.0 == r).then_some(point.column.0));
            for c in 0..columns {
                let cell = &row[Column(c)];
                let out = text.cell();
                if !cell.flags.contains(Flags::WIDE_CHAR_SPACER) {
                    out.push(cell.c);
                    if let Some(marks) = cell.zerowidth() {
                        out.extend(marks);
                    }
                }
            }
            rows.push(text.finish());
        }
        rows.join("\n")
    }

    /// A copy of the screen, stamped with `revision`.
    pub(crate) fn snapshot(&self, revision: u64) -> Screen {
        let grid = self.term.grid();
        let columns = usize::from(self.size.columns());
        let row_cells = |line: Line| -> Vec<Cell> {
            let row = &grid[line];
            (0..columns).map(|c| cell(&row[Column(c)])).collect()
        };
        let rows = (0..i32::from(self.size.rows()))
            .map(|r| row_cells(Line(r)))
            .collect();
        let history = grid.history_size() as i32;
        let scrollback = (1..=history)
            .rev()
            .map(|r| {
                let text: String = row_cells(Line(-r)).into_iter().map(|c| c.text).collect();
                text.trim_end().to_string()
            })
            .collect();
        let point = grid.cursor.point;
        Screen {
            revision,
            size: self.size,
            rows,
            cursor: Cursor {
                row: point.line.0.clamp(0, i32::from(u16::MAX)) as u16,
                column: point.column.0.min(usize::from(u16::MAX)) as u16,
                visible: self.term.mode().contains(TermMode::SHOW_CURSOR),
            },
            modes: self.modes(),
            scrollback,
        }
    }
}

fn cell(source: &alacritty_terminal::term::cell::Cell) -> Cell {
    let flags = source.flags;
    let text = if flags.contains(Flags::WIDE_CHAR_SPACER) {
        String::new()
    } else {
        let mut text = String::from(source.c);
        if let Some(marks) = source.zerowidth() {
            text.extend(marks);
        }
        text
    };
    Cell {
        text,
        style: Style {
            fg: colour(source.fg),
            bg: colour(source.bg),
            bold: flags.contains(Flags::BOLD),
            italic: flags.contains(Flags::ITALIC),
            underline: flags.intersects(Flags::ALL_UNDERLINES),
            inverse: flags.contains(Flags::INVERSE),
        },
    }
}

fn colour(source: Color) -> Colour {
    match source {
        Color::Spec(Rgb { r, g, b }) => Colour::Rgb(r, g, b),
        Color::Indexed(i) => Colour::Indexed(i),
        Color::Named(named) => {
            let index = named as usize;
            if index < 16 {
                Colour::Indexed(index as u8)
            } else if let Some(normal) = dim_to_normal(named) {
                Colour::Indexed(normal)
            } else {
                Colour::Default
            }
        }
    }
}

/// Dim named colours are drawn as their normal colour.
fn dim_to_normal(named: NamedColor) -> Option<u8> {
    let index = match named {
        NamedColor::DimBlack => 0,
        NamedColor::DimRed => 1,
        NamedColor::DimGreen => 2,
        NamedColor::DimYellow => 3,
        NamedColor::DimBlue => 4,
        NamedColor::DimMagenta => 5,
        NamedColor::DimCyan => 6,
        NamedColor::DimWhite => 7,
        _ => return None,
    };
    Some(index)
}
