//! Contract generation, `a3s.test.contract-candidates/1`: "which UI expectations do these PRDs
//! and designs state?" answered with candidates for a person to review.
//!
//! Why every candidate carries evidence bound to a source digest: a candidate is advice about
//! particular bytes of a particular file, and nothing it says may reach a contract unless those
//! bytes can be shown to the reviewer. The request sends each source with its SHA-256; the answer
//! repeats the digests, and each candidate points at a byte span of a text source (whose quoted
//! text must equal the bytes) or a pixel region of an image source. [`check`] proves all of it;
//! a candidate is never a verdict and carries no action (the schema forbids extra fields).

pub mod check;
pub mod code;
pub mod file;
pub mod types;

pub use check::{check_answer, check_span, SpanError};
pub use code::{ContractCode, ContractError};
pub use file::{CandidatesFile, FileSource, CANDIDATES_FORMAT};
pub use types::*;

use crate::code::ProviderError;
use crate::kind::{Metered, ProviderProtocol, Receipt};
use crate::redact::Redactor;
use crate::BoxFuture;
use a3s_test_lang::ir::ProviderKind;

/// The contract generation protocol, `a3s.test.contract-candidates/1`.
#[derive(Debug)]
pub enum ContractGeneration {}

impl ProviderProtocol for ContractGeneration {
    const KIND: ProviderKind = ProviderKind::ContractGeneration;
    const PROTOCOL: &'static str = "a3s.test.contract-candidates/1";
    /// A few PRDs and design PNGs in base64.
    const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;
    /// [`MAX_CANDIDATES`] candidates with their evidence fit in a fraction of this.
    const MAX_RESPONSE_BYTES: usize = 4 * 1024 * 1024;
    type Request = ContractRequest;
    type Response = ContractResponse;

    fn check(request: &ContractRequest, response: &ContractResponse) -> Result<(), ProviderError> {
        check_answer(request, response)
    }
}

impl Metered for ContractResponse {
    fn receipt(&self) -> Receipt<'_> {
        Receipt {
            provider: &self.provider,
            model: &self.model,
            usage: self.usage,
            cost_microusd: self.cost_microusd,
        }
    }

    fn redact(&mut self, redactor: &Redactor) {
        self.provider = redactor.redact(&self.provider);
        self.model = redactor.redact(&self.model);
        for c in &mut self.conflicts {
            c.reason = redactor.redact(&c.reason);
        }
        for d in &mut self.open_decisions {
            d.question = redactor.redact(&d.question);
        }
    }
}

/// A contract generation provider, as the workflow sees it: injected, typed, advisory.
pub trait ContractProvider: Send + Sync {
    /// Candidates for the expectations `request.sources` state.
    fn candidates<'a>(
        &'a self,
        request: &'a ContractRequest,
    ) -> BoxFuture<'a, Result<ContractResponse, ProviderError>>;
}

impl ContractProvider for crate::transport::HttpProvider {
    fn candidates<'a>(
        &'a self,
        request: &'a ContractRequest,
    ) -> BoxFuture<'a, Result<ContractResponse, ProviderError>> {
        Box::pin(self.call::<ContractGeneration>(request))
    }
}
