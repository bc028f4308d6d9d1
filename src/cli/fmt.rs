//! `a3s-test fmt`: rewrite ACL files in the canonical layout.
//!
//! The layout comes from [`a3s_test_lang::printer::format_source`]. A file is rewritten only when
//! its text changes, and atomically (see [`super::write`]): a crash or a full disk leaves either
//! the old file or the new one, never half of each. A file with a syntax error is left untouched
//! and its diagnostics are printed. `--check` writes nothing and lists the files that would
//! change. Exit: 2 when any file has errors or cannot be read, otherwise 1 when `--check` found
//! files to reformat, otherwise 0. Ctrl+C (or SIGTERM/SIGHUP) stops new rewrites, lets the ones
//! in flight finish, and exits 130 (see [`super::interrupt`]).

use super::discover::{describe, discover};
use super::exit::Exit;
use super::interrupt;
use super::output::{plural, render_file, Counts, FormatArg, Stream};
use super::read::{display_text, read_bounded};
use super::write::write_atomically;
use a3s_test_lang::{decode_source, printer, Code, Diagnostic, Span};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `a3s-test fmt`.
#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// Suite files or directories (searched recursively for `*.acl`).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Change nothing; list the files that would be reformatted and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,
    /// How diagnostics are printed.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
}

/// What happened to one file.
enum Outcome {
    /// Already canonical.
    Unchanged,
    /// Rewritten (or, with `--check`, would be).
    Changed,
    /// Not rewritten because `fmt` was interrupted first.
    Interrupted,
    /// Not formatted: unreadable, not UTF-8, too large, a syntax error, or not writable.
    Failed {
        source: String,
        diagnostics: Vec<Diagnostic>,
    },
}

/// Run `fmt`.
pub fn run(args: FmtArgs) -> ExitCode {
    if !args.check {
        interrupt::install();
    }
    let discovery = discover(&args.paths);
    let mut results: Vec<(PathBuf, Outcome)> = discovery
        .files
        .par_iter()
        .map(|path| (path.clone(), format_file(path, args.check)))
        .collect();
    for problem in discovery.problems {
        results.push((
            problem.path,
            Outcome::Failed {
                source: String::new(),
                diagnostics: vec![problem.diagnostic],
            },
        ));
    }
    results.sort_by(|a, b| a.0.cmp(&b.0));

    let colour = Stream::Stdout.colour();
    let mut counts = Counts::default();
    let (mut changed, mut unchanged, mut failed, mut skipped) = (0, 0, 0, 0);
    let mut out = String::new();
    for (path, outcome) in &results {
        let file = path.display().to_string();
        match outcome {
            Outcome::Unchanged => unchanged += 1,
            Outcome::Interrupted => skipped += 1,
            Outcome::Changed => {
                changed += 1;
                let verb = if args.check {
                    "would reformat"
                } else {
                    "reformatted"
                };
                out.push_str(&format!("{verb} {file}\n"));
            }
            Outcome::Failed {
                source,
                diagnostics,
            } => {
                failed += 1;
                counts.add(diagnostics);
                out.push_str(&render_file(
                    args.format,
                    colour,
                    &file,
                    source,
                    diagnostics,
                ));
            }
        }
    }
    Stream::Stdout.write(&out);
    let verb = if args.check {
        "would be reformatted"
    } else {
        "reformatted"
    };
    let mut summary = format!(
        "{}: {changed} {verb}, {unchanged} unchanged",
        plural(results.len(), "file")
    );
    if failed > 0 {
        summary.push_str(&format!(", {failed} not formatted ({})", counts.describe()));
    }
    if skipped > 0 {
        summary.push_str(&format!(", {skipped} left as they were (interrupted)"));
    }
    summary.push('\n');
    Stream::Stderr.write(&summary);

    let code = if interrupt::interrupted() {
        Exit::Interrupted
    } else if failed > 0 {
        Exit::InvalidInput
    } else if args.check && changed > 0 {
        Exit::Failed
    } else {
        Exit::Success
    };
    ExitCode::from(code)
}

fn format_file(path: &Path, check_only: bool) -> Outcome {
    let bytes = match read_bounded(path) {
        Ok(bytes) => bytes,
        Err(diagnostic) => {
            return Outcome::Failed {
                source: String::new(),
                diagnostics: vec![diagnostic],
            }
        }
    };
    let text = match decode_source(&bytes) {
        Ok(text) => text,
        Err(diagnostic) => {
            return Outcome::Failed {
                source: display_text(&bytes),
                diagnostics: vec![*diagnostic],
            }
        }
    };
    let formatted = match printer::format_source(text) {
        Ok(formatted) => formatted,
        Err(diagnostics) => {
            return Outcome::Failed {
                source: text.to_string(),
                diagnostics,
            }
        }
    };
    if formatted == text {
        return Outcome::Unchanged;
    }
    if !check_only {
        if interrupt::interrupted() {
            return Outcome::Interrupted;
        }
        if let Err(reason) = replace(path, &formatted) {
            let diagnostic = Diagnostic::error(
                Code::Unwritable,
                "",
                Span::default(),
                format!(
                    "cannot write `{}`: {reason}; the file was left unchanged",
                    path.display()
                ),
            );
            return Outcome::Failed {
                source: String::new(),
                diagnostics: vec![diagnostic],
            };
        }
    }
    Outcome::Changed
}

/// Replace `path` with `formatted`, refusing a read-only file.
///
/// The atomic write renames a new copy over the file, which only needs a writable directory; so
/// without this check `fmt` would silently replace a file its owner marked read-only (and as
/// root, permission bits are not enforced at all). The mode bits are the owner's stated intent.
fn replace(path: &Path, formatted: &str) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| describe(&e))?;
    if meta.permissions().readonly() {
        return Err("the file is read-only".to_string());
    }
    write_atomically(path, formatted.as_bytes()).map_err(|e| describe(&e))
}
