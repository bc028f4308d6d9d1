//! Diagnostics: exactly what `a3s-test check` reports for the text, through `lang::admit_with`
//! and the libraries the project file includes.

use a3s_test_lang::ir::Library;
use a3s_test_lang::{admit_with, Diagnostic};

/// Every diagnostic of `text`, sorted by position and capped as `check` caps them; a `use` may
/// call the groups of `libraries` (the project's included `library` files, each with its path).
pub fn diagnose(text: &str, libraries: &[(String, Library)]) -> Vec<Diagnostic> {
    admit_with(text, libraries).diagnostics
}
