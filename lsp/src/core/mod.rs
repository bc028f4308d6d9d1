//! The IO-free core: the open documents and every feature as a function of text → answer.
//!
//! Nothing here reads a file, a clock or a channel, and nothing names the protocol: answers are
//! in byte offsets and plain types, which [`crate::protocol`] turns into LSP messages. So every
//! feature is tested by calling it on a string.

pub mod edit;
pub mod features;
pub mod reference;
pub mod store;
pub mod syntax;
pub mod text;
