//! What `observe` answers on a terminal: the screen's rows with their numbers, the cursor, the
//! modes and how the program ended (once it has) — or, with `--since N`, only the rows that
//! differ from observation N's — within the view's byte budget (`--max-bytes`).
//!
//! Why rows, not an outline: a terminal has no controls to give refs to; what an agent needs is
//! the text where it stands (row numbers make "the prompt on row 3" precise and line a diff up
//! with the full view). Blank rows below the last written one (or the cursor) are left out and
//! counted. When the budget is too small, rows farthest from the cursor are cut first — the
//! cursor is where a program waits for input — and the view says which rows were cut and how to
//! see them.
//!
//! Every row is untrusted program output: the text view JSON-quotes it, so a row can never start
//! a line of its own or read as a command.

use crate::session::view::{Form, Observation, ViewRequest};
use a3s_test_driver::{ScreenCursor, ScreenModes, ScreenSettled, TerminalScreen};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Terminal observations kept for `--since` (in the supervisor's memory).
pub const HISTORY: usize = 8;

/// Bytes kept for the header and the cut marker when rows are fitted to a budget.
const RESERVED: usize = 200;

/// One row of the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenLine {
    /// The row number, 1 at the top.
    pub row: u32,
    /// Its text, trailing blanks removed (untrusted program output).
    pub text: String,
}

/// A terminal observation's screen, as the agent sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenView {
    /// The screen's revision (the terminal gate compares the screen with it).
    pub revision: u64,
    /// Columns × rows.
    pub columns: u32,
    /// Rows of the screen.
    pub rows: u32,
    /// The cursor, 1-based.
    pub cursor: ScreenCursor,
    /// The terminal modes.
    pub modes: ScreenModes,
    /// How the program ended, once it has (then no input can be sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// What waiting for a quiet screen found before the screen was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle: Option<ScreenSettled>,
    /// The rows shown: the whole screen down to the last written row (or the cursor), or in a
    /// diff the rows whose text differs from the baseline's (a row now blank has empty text).
    pub lines: Vec<ScreenLine>,
    /// Rows cut to fit the budget (numbers, ascending).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_rows: Vec<u32>,
}

/// One kept observation.
#[derive(Debug)]
struct Kept {
    id: u64,
    columns: u32,
    rows: Vec<String>,
}

/// The terminal observations a supervisor keeps for `--since` (memory only).
#[derive(Debug, Default)]
pub struct ScreenHistory {
    kept: VecDeque<Kept>,
}

impl ScreenHistory {
    /// The view of observation `id` of `screen` as `request` asks (`settle`: the wait before it),
    /// remembered for later diffs. Fills the observation's `since`, `cannot_diff`, `truncated`
    /// and `truncation`.
    pub fn view(
        &mut self,
        id: u64,
        screen: &TerminalScreen,
        settle: Option<ScreenSettled>,
        request: &ViewRequest,
        observation: &mut Observation,
    ) -> ScreenView {
        let mut view = ScreenView {
            revision: screen.revision,
            columns: screen.columns,
            rows: screen.rows.len() as u32,
            cursor: screen.cursor,
            modes: screen.modes,
            exit: screen.exit.clone(),
            settle,
            lines: Vec::new(),
            cut_rows: Vec::new(),
        };
        observation.since = request.since;
        let lines = match request.since.map(|since| self.diff(since, screen)) {
            Some(Ok(changed)) => changed,
            other => {
                if let Some(Err(why)) = other {
                    observation.cannot_diff = Some(why);
                }
                whole(screen)
            }
        };
        let fitted = fit(lines, screen.cursor.row, request);
        view.lines = fitted.0;
        view.cut_rows = fitted.1;
        if !view.cut_rows.is_empty() {
            observation.truncated = true;
            observation.truncation = Some(format!(
                "{} rows cut to fit {} bytes (rows {}); observe with a larger --max-bytes, or \
                 --full",
                view.cut_rows.len(),
                request.budget(),
                ranges(&view.cut_rows)
            ));
        }
        if self.kept.len() == HISTORY {
            self.kept.pop_front();
        }
        self.kept.push_back(Kept {
            id,
            columns: screen.columns,
            rows: screen.rows.clone(),
        });
        view
    }

    /// The rows of `screen` whose text differs from observation `since`'s, or why no diff can
    /// be told.
    fn diff(&self, since: u64, screen: &TerminalScreen) -> Result<Vec<ScreenLine>, String> {
        let Some(kept) = self.kept.iter().find(|k| k.id == since) else {
            return Err(format!(
                "observation {since} is not one of the last {HISTORY} of this session"
            ));
        };
        if kept.columns != screen.columns || kept.rows.len() != screen.rows.len() {
            return Err(format!(
                "the terminal was resized since observation {since} ({}×{} then, {}×{} now)",
                kept.columns,
                kept.rows.len(),
                screen.columns,
                screen.rows.len()
            ));
        }
        Ok(screen
            .rows
            .iter()
            .zip(&kept.rows)
            .enumerate()
            .filter(|(_, (now, then))| now != then)
            .map(|(i, (now, _))| ScreenLine {
                row: i as u32 + 1,
                text: now.clone(),
            })
            .collect())
    }
}

/// Every row down to the last written one or the cursor, whichever is lower.
fn whole(screen: &TerminalScreen) -> Vec<ScreenLine> {
    let last_written = screen.rows.iter().rposition(|r| !r.is_empty());
    let last = last_written
        .map_or(0, |i| i + 1)
        .max(screen.cursor.row as usize)
        .min(screen.rows.len());
    screen.rows[..last]
        .iter()
        .enumerate()
        .map(|(i, text)| ScreenLine {
            row: i as u32 + 1,
            text: text.clone(),
        })
        .collect()
}

/// What one line costs in the form the client prints.
fn cost(line: &ScreenLine, form: Form) -> usize {
    match form {
        Form::Text => text_line(line).len() + 1,
        Form::Json => serde_json::to_string(line).map_or(0, |s| s.len()) + 1,
    }
}

/// The lines that fit the request's budget, cutting those farthest from the cursor row first;
/// and the rows cut.
fn fit(
    lines: Vec<ScreenLine>,
    cursor_row: u32,
    request: &ViewRequest,
) -> (Vec<ScreenLine>, Vec<u32>) {
    let budget = request.budget().saturating_sub(RESERVED);
    let total: usize = lines.iter().map(|l| cost(l, request.form)).sum();
    if total <= budget {
        return (lines, Vec::new());
    }
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| (lines[i].row.abs_diff(cursor_row), lines[i].row));
    let mut keep = vec![false; lines.len()];
    let mut used = 0;
    for i in order {
        let c = cost(&lines[i], request.form);
        if used + c <= budget {
            used += c;
            keep[i] = true;
        }
    }
    let mut kept = Vec::new();
    let mut cut = Vec::new();
    for (line, keep) in lines.into_iter().zip(keep) {
        if keep {
            kept.push(line);
        } else {
            cut.push(line.row);
        }
    }
    (kept, cut)
}

/// `3-7, 12` for rows 3,4,5,6,7,12.
fn ranges(rows: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let start = rows[i];
        let mut end = start;
        while i + 1 < rows.len() && rows[i + 1] == end + 1 {
            i += 1;
            end = rows[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(", ")
}

/// One row as the text view prints it: its number, then its text JSON-quoted.
fn text_line(line: &ScreenLine) -> String {
    format!(
        "{:>3} {}",
        line.row,
        serde_json::to_string(&line.text).unwrap_or_default()
    )
}

/// The text view of a terminal observation (without the `next:` line the CLI adds).
pub fn render_text(v: &Observation, screen: &ScreenView) -> String {
    let mut out = format!(
        "observation {} · terminal {}×{} · cursor {}:{}{}",
        v.observation,
        screen.columns,
        screen.rows,
        screen.cursor.row,
        screen.cursor.column,
        if screen.cursor.visible {
            ""
        } else {
            " (hidden)"
        }
    );
    let modes = [
        (screen.modes.bracketed_paste, "bracketed_paste"),
        (screen.modes.application_cursor, "application_cursor"),
        (screen.modes.alternate_screen, "alternate_screen"),
    ];
    for (on, name) in modes {
        if on {
            out.push_str(" · ");
            out.push_str(name);
        }
    }
    match (v.since, &v.cannot_diff) {
        (Some(since), None) => out.push_str(&format!(
            " · {} since {since}",
            match screen.lines.len() {
                0 => "no row changed".to_string(),
                1 => "1 row changed".to_string(),
                n => format!("{n} rows changed"),
            }
        )),
        (Some(since), Some(why)) => out.push_str(&format!(
            " · cannot diff against {since}: {why}; the whole screen follows"
        )),
        _ => {}
    }
    out.push_str(" (program output is untrusted)\n");
    if let Some(exit) = &screen.exit {
        out.push_str(&format!("the program ended: {exit}\n"));
    }
    if let Some(s) = &screen.settle {
        if !s.settled {
            out.push_str(&format!(
                "not settled: the screen still changed after {} ms\n",
                s.waited_ms
            ));
        }
    }
    for line in &screen.lines {
        out.push_str(&text_line(line));
        out.push('\n');
    }
    if let Some(why) = &v.truncation {
        out.push_str(&format!("… {why}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(revision: u64, rows: &[&str], cursor_row: u32) -> TerminalScreen {
        let mut all: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        all.resize(6, String::new());
        TerminalScreen {
            revision,
            columns: 20,
            rows: all,
            cursor: ScreenCursor {
                row: cursor_row,
                column: 1,
                visible: true,
            },
            modes: ScreenModes::default(),
            exit: None,
        }
    }

    fn blank() -> Observation {
        serde_json::from_value(serde_json::json!({
            "observation": 1, "url": "", "untrusted": true, "ref_count": 0
        }))
        .unwrap()
    }

    #[test]
    fn a_view_shows_rows_down_to_the_cursor_and_a_diff_only_changed_rows() {
        let mut history = ScreenHistory::default();
        let mut first = blank();
        let request = ViewRequest::default();
        let v1 = history.view(1, &screen(3, &["6*7"], 2), None, &request, &mut first);
        first.screen = Some(v1.clone());
        assert_eq!(
            v1.lines,
            vec![
                ScreenLine {
                    row: 1,
                    text: "6*7".into()
                },
                ScreenLine {
                    row: 2,
                    text: String::new()
                }
            ]
        );
        insta::assert_snapshot!(render_text(&first, &v1), @r#"
        observation 1 · terminal 20×6 · cursor 2:1 (program output is untrusted)
          1 "6*7"
          2 ""
        "#);
        let mut second = blank();
        second.observation = 2;
        let since = ViewRequest {
            since: Some(1),
            ..ViewRequest::default()
        };
        let v2 = history.view(2, &screen(5, &["6*7", "42"], 3), None, &since, &mut second);
        assert_eq!(second.cannot_diff, None);
        insta::assert_snapshot!(render_text(&second, &v2), @r#"
        observation 2 · terminal 20×6 · cursor 3:1 · 1 row changed since 1 (program output is untrusted)
          2 "42"
        "#);
        let mut third = blank();
        let old = ViewRequest {
            since: Some(9),
            ..ViewRequest::default()
        };
        history.view(3, &screen(5, &["6*7", "42"], 3), None, &old, &mut third);
        assert!(third.cannot_diff.unwrap().contains("not one of the last"));
    }

    #[test]
    fn a_small_budget_cuts_the_rows_farthest_from_the_cursor_and_says_which() {
        let long = "x".repeat(60);
        let rows: Vec<&str> = vec![long.as_str(); 6];
        let mut history = ScreenHistory::default();
        let mut o = blank();
        let request = ViewRequest {
            max_bytes: Some(400),
            ..ViewRequest::default()
        };
        let v = history.view(1, &screen(1, &rows, 5), None, &request, &mut o);
        let shown: Vec<u32> = v.lines.iter().map(|l| l.row).collect();
        assert!(shown.contains(&5), "{shown:?}");
        assert_eq!(v.cut_rows.len() + shown.len(), 6);
        assert!(o.truncated);
        assert!(o.truncation.unwrap().contains("rows 1"), "{:?}", v.cut_rows);
        assert_eq!(ranges(&[1, 2, 3, 6, 8, 9]), "1-3, 6, 8-9");
    }
}
