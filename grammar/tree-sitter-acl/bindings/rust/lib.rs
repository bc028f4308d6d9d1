//! The ACL grammar for tree-sitter: the parser generated from `grammar.js` (committed, so no
//! CLI is needed to build it) and the highlight, fold and injection queries editors use.
//!
//! `tests/agree.rs` checks that this grammar accepts exactly the files `lang`'s parser accepts.

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_acl() -> *const ();
}

/// The language, for `tree_sitter::Parser::set_language(&LANGUAGE.into())`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_acl) };

/// Highlights (`queries/highlights.scm`).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");
/// Folds (`queries/folds.scm`).
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");
/// Injections (`queries/injections.scm`): regular expressions, CSS selectors.
pub const INJECTIONS_QUERY: &str = include_str!("../../queries/injections.scm");
/// The node types (`src/node-types.json`).
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");
