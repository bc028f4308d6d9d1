//! The SVG screenshot of a [`Screen`]: a monospace grid with colours, bold, italic, underline,
//! inverse and the cursor, written here because it is small and must be exactly this: one
//! self-contained file with no scripts, fonts or links, in which the program's text appears only
//! as escaped character data (`&`, `<`, `>`, quotes escaped; control and non-XML characters
//! replaced), so a program's output can never inject markup into a report that shows it inline.

use crate::screen::{style_runs, Colour, Screen, Style};
use alacritty_terminal::vte::ansi::Rgb;
use std::fmt::Write as _;

/// Width of one cell in SVG units.
pub const CELL_WIDTH: u32 = 9;
/// Height of one cell in SVG units.
pub const CELL_HEIGHT: u32 = 18;
/// Font size that fits a cell.
const FONT_SIZE: u32 = 15;

/// The default foreground (palette index 256 in colour queries).
pub const DEFAULT_FG: (u8, u8, u8) = (0xd4, 0xd4, 0xd4);
/// The default background (palette index 257 in colour queries).
pub const DEFAULT_BG: (u8, u8, u8) = (0x1e, 0x1e, 0x1e);

/// The 16 ANSI colours (xterm's defaults); 16–255 follow xterm's cube and grey ramp.
pub const PALETTE: [(u8, u8, u8); 16] = [
    (0x00, 0x00, 0x00),
    (0xcd, 0x00, 0x00),
    (0x00, 0xcd, 0x00),
    (0xcd, 0xcd, 0x00),
    (0x00, 0x00, 0xee),
    (0xcd, 0x00, 0xcd),
    (0x00, 0xcd, 0xcd),
    (0xe5, 0xe5, 0xe5),
    (0x7f, 0x7f, 0x7f),
    (0xff, 0x00, 0x00),
    (0x00, 0xff, 0x00),
    (0xff, 0xff, 0x00),
    (0x5c, 0x5c, 0xff),
    (0xff, 0x00, 0xff),
    (0x00, 0xff, 0xff),
    (0xff, 0xff, 0xff),
];

/// The RGB value of palette entry `index` (0–255; 256 and above: default foreground, background).
pub(crate) fn resolve_index(index: usize) -> Rgb {
    let (r, g, b) = match index {
        0..=15 => PALETTE[index],
        16..=231 => {
            let i = index - 16;
            let level = |v: usize| if v == 0 { 0 } else { (55 + v * 40) as u8 };
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        232..=255 => {
            let v = (8 + (index - 232) * 10) as u8;
            (v, v, v)
        }
        257 => DEFAULT_BG,
        _ => DEFAULT_FG,
    };
    Rgb { r, g, b }
}

fn hex(colour: Colour, default: (u8, u8, u8)) -> String {
    let (r, g, b) = match colour {
        Colour::Default => default,
        Colour::Indexed(i) => {
            let rgb = resolve_index(usize::from(i));
            (rgb.r, rgb.g, rgb.b)
        }
        Colour::Rgb(r, g, b) => (r, g, b),
    };
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Foreground and background as drawn (inverse swaps them).
fn drawn(style: &Style) -> (String, String) {
    let fg = hex(style.fg, DEFAULT_FG);
    let bg = hex(style.bg, DEFAULT_BG);
    if style.inverse {
        (bg, fg)
    } else {
        (fg, bg)
    }
}

/// Append `text` as XML character data: markup characters escaped, characters XML forbids
/// (controls, lone surrogates cannot occur in a `str`, U+FFFE/U+FFFF) replaced by U+FFFD.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{fffe}' || c == '\u{ffff}' => {
                out.push('\u{fffd}')
            }
            c => out.push(c),
        }
    }
}

/// Render `screen` as an SVG document.
pub fn render(screen: &Screen) -> String {
    let columns = u32::from(screen.size.columns());
    let rows = u32::from(screen.size.rows());
    let (width, height) = (columns * CELL_WIDTH, rows * CELL_HEIGHT);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"ui-monospace, 'DejaVu Sans Mono', monospace\" \
         font-size=\"{FONT_SIZE}\">\n<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n",
        hex(Colour::Default, DEFAULT_BG)
    );
    for (r, cells) in screen.rows.iter().enumerate() {
        let y = r as u32 * CELL_HEIGHT;
        // Runs of cells with one style: one background rectangle and one text element each.
        for (run, style) in style_runs(cells) {
            let (start, end) = (run.start, run.end);
            let (fg, bg) = drawn(&style);
            let x = start as u32 * CELL_WIDTH;
            let run_width = (end - start) as u32 * CELL_WIDTH;
            if bg != hex(Colour::Default, DEFAULT_BG) {
                let _ = writeln!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{run_width}\" height=\"{CELL_HEIGHT}\" fill=\"{bg}\"/>"
                );
            }
            // Text up to the run's last visible cell; blanks after it draw nothing.
            let text_end = (start..end)
                .rev()
                .find(|&i| !cells[i].text.trim().is_empty())
                .map_or(start, |i| i + 1);
            let text: String = cells[start..text_end]
                .iter()
                .map(|c| c.text.as_str())
                .collect();
            let text_width = (text_end - start) as u32 * CELL_WIDTH;
            if text_end > start {
                let _ = write!(
                    out,
                    "<text x=\"{x}\" y=\"{}\" fill=\"{fg}\" textLength=\"{text_width}\" \
                     lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\"",
                    y + CELL_HEIGHT - 4
                );
                if style.bold {
                    out.push_str(" font-weight=\"bold\"");
                }
                if style.italic {
                    out.push_str(" font-style=\"italic\"");
                }
                if style.underline {
                    out.push_str(" text-decoration=\"underline\"");
                }
                out.push('>');
                escape_into(&mut out, &text);
                out.push_str("</text>\n");
            }
        }
    }
    let cursor = screen.cursor;
    if cursor.visible && u32::from(cursor.row) < rows && u32::from(cursor.column) < columns {
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{CELL_WIDTH}\" height=\"{CELL_HEIGHT}\" fill=\"{}\" fill-opacity=\"0.6\"/>",
            u32::from(cursor.column) * CELL_WIDTH,
            u32::from(cursor.row) * CELL_HEIGHT,
            hex(Colour::Default, DEFAULT_FG)
        );
    }
    out.push_str("</svg>\n");
    out
}
