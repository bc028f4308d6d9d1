//! `a3s-test-lang`: the ACL front end.
//!
//! Text goes in; an admitted IR or diagnostics come out. The pipeline is [`lexer`] (logos) →
//! [`parser`] (chumsky, with error recovery) → [`checker`] (every rule of `docs/acl.md` §1–§12) →
//! [`ir`]. The [`printer`] writes the canonical layout for `a3s-test fmt`, and [`render`] turns
//! diagnostics into text for people, JSON and GitHub annotations.
//!
//! This crate is pure: no file system, network, clock or threads. The CLI reads files and hands
//! their bytes to [`admit_bytes`]; the agent interpreter hands one statement to [`admit_statement`].

pub mod ast;
pub mod checker;
pub mod code;
pub mod diagnostic;
pub mod ir;
pub mod lexer;
pub mod limits;
pub mod parser;
pub mod printer;
pub mod render;
pub mod span;

pub use code::{Code, StableCode};
pub use diagnostic::{Diagnostic, Severity};
pub use span::Span;

/// Largest admitted file: 1 MiB (`docs/acl.md` §1).
pub const MAX_FILE_BYTES: usize = 1024 * 1024;
/// Deepest admitted nesting of blocks, lists and calls (`docs/acl.md` §1).
pub const MAX_NESTING_DEPTH: usize = 64;
/// Most items in one list (`docs/acl.md` §1).
pub const MAX_LIST_ITEMS: usize = 10_000;

/// The result of admitting one file: the IR when there is no error, and every diagnostic found.
#[derive(Debug, Clone, PartialEq)]
pub struct Admission {
    /// The admitted document; `None` whenever `diagnostics` holds an error.
    pub document: Option<ir::AdmittedDocument>,
    /// The diagnostics of the file, sorted by position: at most
    /// [`diagnostic::MAX_DIAGNOSTICS`], then one `test.spec.too_many_diagnostics` summary.
    pub diagnostics: Vec<Diagnostic>,
    /// What the cap left out of `diagnostics`.
    pub omitted: diagnostic::Omitted,
}

impl Admission {
    fn rejected(diagnostics: Vec<Diagnostic>) -> Self {
        Admission {
            document: None,
            diagnostics,
            omitted: diagnostic::Omitted::default(),
        }
    }

    /// True when the file was admitted.
    pub fn is_admitted(&self) -> bool {
        self.document.is_some()
    }
}

/// Admit raw file bytes: enforces the size and UTF-8 rules before lexing.
pub fn admit_bytes(bytes: &[u8]) -> Admission {
    admit_bytes_with(bytes, &[])
}

/// [`admit_bytes`] with included libraries (see [`admit_with`]).
pub fn admit_bytes_with(bytes: &[u8], libraries: &[(String, ir::Library)]) -> Admission {
    match decode_source(bytes) {
        Ok(source) => admit_with(source, libraries),
        Err(diagnostic) => Admission::rejected(vec![*diagnostic]),
    }
}

/// Check the byte-level rules (size, UTF-8) and return the text.
pub fn decode_source(bytes: &[u8]) -> Result<&str, Box<Diagnostic>> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Box::new(Diagnostic::error(
            Code::FileTooLarge,
            "",
            Span::new(0, 0),
            format!(
                "file is {} bytes; the limit is {} bytes (1 MiB)",
                bytes.len(),
                MAX_FILE_BYTES
            ),
        )));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        Box::new(Diagnostic::error(
            Code::NotUtf8,
            "",
            Span::new(at, at),
            format!("file is not valid UTF-8 (first invalid byte at offset {at})"),
        ))
    })
}

/// Admit one file's text: parse, check, and collect every diagnostic.
pub fn admit(source: &str) -> Admission {
    admit_with(source, &[])
}

/// [`admit`] a suite whose `use` steps may call the groups of `libraries`: the admitted
/// `library` files the project file includes, each with its path as shown to people. The runner
/// reads those files; this crate only takes their admitted groups.
pub fn admit_with(source: &str, libraries: &[(String, ir::Library)]) -> Admission {
    if source.len() > MAX_FILE_BYTES {
        return admit_bytes(source.as_bytes());
    }
    // One more than the cap is kept, so the cap still knows where the first left-out one is.
    let (document, mut diagnostics, dropped) =
        parser::parse_keeping(source, diagnostic::MAX_DIAGNOSTICS + 1);
    if document.blocks.is_empty() && diagnostics.is_empty() {
        let end = source.len();
        return Admission::rejected(vec![Diagnostic::error(
            Code::EmptyFile,
            "",
            Span::new(end, end),
            "file holds no block",
        )]);
    }
    let (admitted, check_diagnostics) = checker::check_document_with(&document, libraries);
    diagnostics.extend(check_diagnostics);
    diagnostic::sort_diagnostics(&mut diagnostics);
    let document = if diagnostics.iter().any(Diagnostic::is_error) {
        None
    } else {
        admitted
    };
    let omitted = diagnostic::cap_after(&mut diagnostics, dropped);
    Admission {
        document,
        diagnostics,
        omitted,
    }
}

/// Admit exactly one step block typed by an agent (`docs/acl.md` §12); its label may be omitted.
///
/// This is the single door through which agent statements reach the executor, so it runs the same
/// lexer, parser and checker as a suite. Logical paths start at `statement`.
pub fn admit_statement(source: &str) -> Result<ir::Step, Vec<Diagnostic>> {
    admit_statement_on(source, ir::Surface::Web)
}

/// [`admit_statement`] for an agent session on `surface`: a terminal session's statement is
/// checked by the rules of a `surface = "tui"` scenario (its `type`, `press`, `wait` and
/// `expect` are the terminal steps; a browser step is `test.spec.surface_step`).
pub fn admit_statement_on(source: &str, surface: ir::Surface) -> Result<ir::Step, Vec<Diagnostic>> {
    if let Err(d) = decode_source(source.as_bytes()) {
        return Err(vec![*d]);
    }
    let (document, mut diagnostics) = parser::parse(source);
    let (step, check_diagnostics) = checker::check_statement_on(&document, source.len(), surface);
    diagnostics.extend(check_diagnostics);
    diagnostic::sort_diagnostics(&mut diagnostics);
    diagnostic::cap(&mut diagnostics);
    match step {
        Some(step) if !diagnostics.iter().any(Diagnostic::is_error) => Ok(step),
        _ => Err(diagnostics),
    }
}
