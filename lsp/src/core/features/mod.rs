//! One file per editor feature; each is a pure function of the text (and, where it needs them,
//! the text's diagnostics and line table).

pub mod completion;
pub mod diagnostics;
pub mod fixes;
pub mod folding;
pub mod format;
pub mod hover;
pub mod names;
pub mod symbols;
pub mod tokens;
