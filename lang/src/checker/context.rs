//! The admission context: the logical path being checked and every diagnostic found so far.
//!
//! Why one mutable context instead of returning `Result`s: admission must report *every* problem
//! of a file, so a check never stops at the first error. Each check reports into the context and
//! returns `Option<T>` — `None` when its part of the IR could not be built — and the caller keeps
//! going. The path is a single `String` grown and truncated as the walk enters and leaves blocks,
//! so a diagnostic's path costs nothing until a diagnostic is actually made.

use crate::ast::Block;
use crate::code::Code;
use crate::diagnostic::{sort_diagnostics, Diagnostic};
use crate::span::Span;

/// The length of the path before a segment was entered; give it back to [`Ctx::leave`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Mark(usize);

/// Path and diagnostics of one admission.
#[derive(Debug, Default)]
pub(super) struct Ctx {
    path: String,
    diagnostics: Vec<Diagnostic>,
    /// The surface of the scenario whose own steps are being checked; `None` (web rules) for
    /// hooks, groups and statements, which `checker/terminal.rs` re-checks per scenario.
    surface: Option<crate::ir::Surface>,
    /// True while one agent statement is checked (not a suite file): only a statement may name
    /// a session's screenshot (`visual_point`).
    statement: bool,
}

impl Ctx {
    /// An empty context at the document root.
    pub(super) fn new() -> Self {
        Ctx::default()
    }

    /// The current logical path, e.g. `suite.checkout.scenario.guest.click.pay`.
    pub(super) fn path(&self) -> &str {
        &self.path
    }

    /// Append one path segment; returns the mark that [`Ctx::leave`] restores.
    pub(super) fn enter(&mut self, segment: &str) -> Mark {
        let mark = Mark(self.path.len());
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(segment);
        mark
    }

    /// Enter a block: its kind, then its label when it has one.
    pub(super) fn enter_block(&mut self, block: &Block) -> Mark {
        let mark = self.enter(&block.kind.name);
        if let Some(label) = &block.label {
            self.enter(&label.value);
        }
        mark
    }

    /// The surface whose step rules apply now (`None` = web).
    pub(super) fn surface(&self) -> Option<crate::ir::Surface> {
        self.surface
    }

    /// Check the next steps by the rules of `surface`; returns the previous one to restore.
    pub(super) fn set_surface(
        &mut self,
        surface: Option<crate::ir::Surface>,
    ) -> Option<crate::ir::Surface> {
        std::mem::replace(&mut self.surface, surface)
    }

    /// Check a single agent statement from now on (see [`Ctx::in_statement`]).
    pub(super) fn set_statement(&mut self) {
        self.statement = true;
    }

    /// True while one agent statement is checked, not a suite file.
    pub(super) fn in_statement(&self) -> bool {
        self.statement
    }

    /// Drop every segment entered since `mark`.
    pub(super) fn leave(&mut self, mark: Mark) {
        self.path.truncate(mark.0);
    }

    /// Report an error at the current path; returns it so a hint or label can be added.
    pub(super) fn error(
        &mut self,
        code: Code,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let path = self.path.clone();
        self.push(Diagnostic::error(code, path, span, message))
    }

    /// Report an error at `<current path>.<attribute>`.
    pub(super) fn error_in(
        &mut self,
        code: Code,
        attribute: &str,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let mut path = String::with_capacity(self.path.len() + 1 + attribute.len());
        path.push_str(&self.path);
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(attribute);
        self.push(Diagnostic::error(code, path, span, message))
    }

    /// Report an error at an explicit logical `path`: a call expanded away from where it is
    /// written, or a check made after its block was left (the suite-wide dependency graph).
    pub(super) fn error_at(
        &mut self,
        code: Code,
        path: impl Into<String>,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.push(Diagnostic::error(code, path.into(), span, message))
    }

    fn push(&mut self, diagnostic: Diagnostic) -> &mut Diagnostic {
        self.diagnostics.push(diagnostic);
        self.diagnostics
            .last_mut()
            .expect("a diagnostic was just pushed")
    }

    /// A context at the same path with no diagnostics: one instance of a parameterized scenario
    /// is checked in it, then [`Ctx::absorb`]ed.
    pub(super) fn fork(&self) -> Ctx {
        Ctx {
            path: self.path.clone(),
            diagnostics: Vec::new(),
            surface: self.surface,
            statement: self.statement,
        }
    }

    /// Take `other`'s diagnostics, except those already reported (every instance of a
    /// parameterized scenario is checked, but a mistake they share is said once).
    pub(super) fn absorb(&mut self, other: Ctx) {
        for d in other.diagnostics {
            let seen = self.diagnostics.iter().any(|s| {
                s.code == d.code && s.span == d.span && s.message == d.message && s.path == d.path
            });
            if !seen {
                self.diagnostics.push(d);
            }
        }
    }

    /// True when any error has been reported.
    pub(super) fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Every diagnostic, sorted by position.
    pub(super) fn finish(mut self) -> Vec<Diagnostic> {
        sort_diagnostics(&mut self.diagnostics);
        self.diagnostics
    }
}

/// Builder-style additions on a reported diagnostic.
pub(super) trait Annotate {
    /// Replace the code's default hint with a sharper one.
    fn hint(&mut self, hint: impl Into<String>) -> &mut Self;
    /// Add a secondary label.
    fn also(&mut self, span: Span, message: impl Into<String>) -> &mut Self;
}

impl Annotate for Diagnostic {
    fn hint(&mut self, hint: impl Into<String>) -> &mut Self {
        self.hint = hint.into();
        self
    }

    fn also(&mut self, span: Span, message: impl Into<String>) -> &mut Self {
        self.secondary.push(crate::diagnostic::SecondaryLabel {
            span,
            message: message.into(),
        });
        self
    }
}

/// The span of a block's header: its kind and, when present, its label.
///
/// Why not the whole block: "missing attribute" and similar errors are about the block as a whole,
/// and underlining fifty lines of body hides where the block starts.
pub(super) fn header(block: &Block) -> Span {
    match &block.label {
        Some(label) => block.kind.span.join(label.span),
        None => block.kind.span,
    }
}
