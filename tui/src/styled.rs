//! The screen as text with styles: the evidence a person reads in a report or a snapshot test.
//!
//! Format (line-oriented, every row numbered from 1 so nothing in the text can pass for
//! structure): a header with the size, cursor and modes; each row as `NNN│text`; then one line
//! per run of cells whose style is not plain, `row:first-last attributes "text"` (columns from 1,
//! the text quoted with Rust's escapes).

use crate::screen::{style_runs, Colour, Screen, Style};
use std::fmt::Write as _;

fn colour(name: &str, colour: Colour) -> Option<String> {
    match colour {
        Colour::Default => None,
        Colour::Indexed(i) => Some(format!("{name}={i}")),
        Colour::Rgb(r, g, b) => Some(format!("{name}=#{r:02x}{g:02x}{b:02x}")),
    }
}

fn attributes(style: &Style) -> String {
    let flags = [
        (style.bold, "bold"),
        (style.italic, "italic"),
        (style.underline, "underline"),
        (style.inverse, "inverse"),
    ];
    let mut parts: Vec<String> = flags
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| name.to_string())
        .collect();
    parts.extend(colour("fg", style.fg));
    parts.extend(colour("bg", style.bg));
    parts.join(" ")
}

impl Screen {
    /// The screen as text with styles (see the module documentation for the format).
    pub fn styled_text(&self) -> String {
        let mut out = String::new();
        let modes = [
            (self.modes.bracketed_paste, "bracketed_paste"),
            (self.modes.application_cursor, "application_cursor"),
            (self.modes.alternate_screen, "alternate_screen"),
        ];
        let on: Vec<&str> = modes.iter().filter(|(m, _)| *m).map(|(_, n)| *n).collect();
        let _ = writeln!(
            out,
            "size {}x{} · cursor {}:{} {} · modes: {}",
            self.size.columns(),
            self.size.rows(),
            self.cursor.row + 1,
            self.cursor.column + 1,
            if self.cursor.visible {
                "visible"
            } else {
                "hidden"
            },
            if on.is_empty() {
                "none".to_string()
            } else {
                on.join(" ")
            }
        );
        for row in 0..self.rows.len() {
            let _ = writeln!(out, "{:>3}│{}", row + 1, self.row_text(row));
        }
        let mut runs = String::new();
        for (r, cells) in self.rows.iter().enumerate() {
            for (run, style) in style_runs(cells) {
                let (start, end) = (run.start, run.end);
                if style != Style::PLAIN {
                    let text: String = cells[start..end].iter().map(|c| c.text.as_str()).collect();
                    let _ = writeln!(
                        runs,
                        "{}:{}-{} {} {:?}",
                        r + 1,
                        start + 1,
                        end,
                        attributes(&style),
                        text
                    );
                }
            }
        }
        if !runs.is_empty() {
            out.push_str("styles:\n");
            out.push_str(&runs);
        }
        out
    }
}
