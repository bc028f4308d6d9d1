//! `run`'s title and tag refinements and the `only` guard: `--grep`, `--grep-invert`,
//! `--exclude-tag`, `--forbid-only` / `--no-forbid-only`.
//!
//! Why refused here, before the plan: a bad regular expression or a forgotten `only = true` on CI
//! must stop the run with exit 2 and a coded message (`test.run.invalid_grep`,
//! `test.run.forbid_only`) before any browser starts, not run a surprising subset.
//! `--forbid-only` is on by default when the `CI` environment variable is set to anything but
//! an empty string (as in Playwright); `--no-forbid-only` turns it off.

use a3s_test_driver::failure::SelectionCode;
use a3s_test_runner::admit::AdmittedFile;
use a3s_test_runner::exit::Exit;
use std::process::ExitCode;

/// The refinement flags of `a3s-test run`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SelectionArgs {
    /// Run only scenarios whose id, name or suite id matches this regular expression.
    #[arg(long, value_name = "REGEX")]
    pub grep: Option<String>,
    /// Leave out scenarios whose id, name or suite id matches this regular expression.
    #[arg(long, value_name = "REGEX")]
    pub grep_invert: Option<String>,
    /// Leave out scenarios carrying this tag; repeatable.
    #[arg(long, value_name = "TAG")]
    pub exclude_tag: Vec<String>,
    /// Refuse the run (exit 2) when a scenario is annotated `only = true` [default: on when the
    /// `CI` environment variable is set].
    #[arg(long, conflicts_with = "no_forbid_only")]
    pub forbid_only: bool,
    /// Allow `only = true` even when `CI` is set.
    #[arg(long)]
    pub no_forbid_only: bool,
}

/// What the plan takes from these flags.
#[derive(Debug, Default)]
pub struct Refinement {
    /// `--exclude-tag`.
    pub exclude_tags: Vec<String>,
    /// `--grep`, compiled.
    pub grep: Option<regex::Regex>,
    /// `--grep-invert`, compiled.
    pub grep_invert: Option<regex::Regex>,
}

fn refuse(code: SelectionCode, message: &str, hint: &str) -> ExitCode {
    eprintln!("error[{code}]: {message}\n  hint: {hint}");
    ExitCode::from(Exit::InvalidInput)
}

fn compile(flag: &str, pattern: Option<&str>) -> Result<Option<regex::Regex>, ExitCode> {
    let Some(pattern) = pattern else {
        return Ok(None);
    };
    regex::Regex::new(pattern).map(Some).map_err(|e| {
        let reason = e.to_string();
        let last = reason.lines().last().unwrap_or("invalid").trim();
        refuse(
            SelectionCode::InvalidGrep,
            &format!("{flag} {pattern:?} is not a valid regular expression: {last}"),
            "escape characters such as ( [ { * + ? with a backslash, or quote the text you mean",
        )
    })
}

impl SelectionArgs {
    /// True when `only = true` is refused: `--forbid-only`, or `CI` set without
    /// `--no-forbid-only`.
    fn forbids_only(&self, in_ci: bool) -> bool {
        self.forbid_only || (!self.no_forbid_only && in_ci)
    }

    /// Compile the expressions and apply the `only` guard to the admitted suites.
    pub fn refine(&self, admitted: &[AdmittedFile]) -> Result<Refinement, ExitCode> {
        let grep = compile("--grep", self.grep.as_deref())?;
        let grep_invert = compile("--grep-invert", self.grep_invert.as_deref())?;
        if self.forbids_only(crate::cli::in_ci()) {
            let only = a3s_test_runner::plan::only_annotated(admitted);
            if !only.is_empty() {
                let ids: Vec<String> = only.iter().map(ToString::to_string).collect();
                return Err(refuse(
                    SelectionCode::ForbidOnly,
                    &format!(
                        "`only = true` is forbidden in this run, and {} carr{} it: {}",
                        ids.len(),
                        if ids.len() == 1 { "ies" } else { "y" },
                        ids.join(", ")
                    ),
                    "remove `only = true` before committing, or pass --no-forbid-only",
                ));
            }
        }
        Ok(Refinement {
            exclude_tags: self.exclude_tag.clone(),
            grep,
            grep_invert,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::SelectionArgs;
    use std::ffi::OsStr;

    #[test]
    fn forbid_only_follows_ci_unless_turned_off() {
        let on = |forbid_only, no_forbid_only, ci: Option<&str>| {
            SelectionArgs {
                forbid_only,
                no_forbid_only,
                ..Default::default()
            }
            .forbids_only(crate::cli::is_ci(ci.map(OsStr::new)))
        };
        assert!(!on(false, false, None));
        assert!(on(false, false, Some("true")));
        assert!(on(false, false, Some("1")));
        assert!(!on(false, false, Some("")));
        assert!(!on(false, true, Some("true")));
        assert!(on(true, false, None));
    }
}
