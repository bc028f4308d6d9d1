//! Diagnostics: exactly what `a3s-test check` reports for the text, through `lang::admit`.

use a3s_test_lang::{admit, Diagnostic};

/// Every diagnostic of `text`, sorted by position and capped as `check` caps them.
pub fn diagnose(text: &str) -> Vec<Diagnostic> {
    admit(text).diagnostics
}
