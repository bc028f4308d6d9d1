//! The `test.contract.*` codes: why the contract workflow (`contract generate`, `review`,
//! `check`) refused to go on.
//!
//! Why a family apart from `test.provider.*`: these are about the user's files (a source that
//! changed after generation, a candidates file edited into nonsense, a conflict left open), not
//! about what a provider answered. `docs/codes.md` lists them (checked by `tests/codes.rs`).

a3s_test_lang::define_codes! {
    /// A stable failure code of the contract workflow.
    pub enum ContractCode: fn hint -> &'static str {
        /// A source could not be read, is not UTF-8 text or a PNG, or is larger than the bound.
        Source => "test.contract.source", "pass Markdown or text files (UTF-8) and PNG designs, each at most 8 MiB";
        /// A source's bytes no longer have the SHA-256 the candidates were made from.
        SourceChanged => "test.contract.source_changed", "run `contract generate` again on the edited source, then review the new candidates";
        /// The candidates file could not be read or is not `a3s.test.contract-candidates-file/1` (JSON, the typed shape, no extra field).
        CandidatesFile => "test.contract.candidates_file", "review the file `contract generate` wrote, unedited";
        /// A flag names a candidate or conflict the candidates file does not hold, or decides one twice.
        UnknownId => "test.contract.unknown_id", "use the ids the candidates file lists (`contract review FILE` prints them)";
        /// A conflict has no `--choose`, or a choice has no `--rationale`, so no contract is written.
        UnresolvedConflict => "test.contract.unresolved_conflict", "add `--choose CONFLICT=CANDIDATE --rationale TEXT` for each conflict";
        /// No candidate was approved, so there is nothing to write.
        NothingApproved => "test.contract.nothing_approved", "approve candidates with `--approve ID` or `--approve-all`";
        /// The output file could not be written (it was not changed).
        Output => "test.contract.output", "check that the output's folder exists and is writable";
        /// The contract file is not an admitted `contract` (its `test.spec.*` diagnostics were printed).
        NotAContract => "test.contract.not_a_contract", "check the file with `a3s-test check FILE`; it must hold one `contract` block";
        /// `--url` is not an absolute `http://` or `https://` URL.
        Url => "test.contract.url", "pass the app's address, e.g. `--url http://127.0.0.1:3000`";
    }
}

/// A refusal of the contract workflow: a code and a one-line message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ContractError {
    /// The stable code.
    pub code: ContractCode,
    /// What happened, in one line.
    pub message: String,
}

impl ContractError {
    /// A refusal with `code`.
    pub fn new(code: ContractCode, message: impl Into<String>) -> ContractError {
        ContractError {
            code,
            message: message.into(),
        }
    }

    /// The code's one-line hint.
    pub fn hint(&self) -> &'static str {
        self.code.hint()
    }
}
