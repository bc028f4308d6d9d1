//! One provider kind = one `protocol` string, one typed request and one typed response.
//!
//! Why a trait rather than a free-form payload: the transport is shared by every kind, but what
//! a kind sends and accepts is checked by the type system and by the JSON Schemas
//! `a3s-test provider schema KIND` prints from the same types.

use crate::code::ProviderError;
use crate::redact::Redactor;
use a3s_test_lang::ir::ProviderKind;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The protocol of one provider kind.
pub trait ProviderProtocol {
    /// The kind in the project file's `kind`.
    const KIND: ProviderKind;
    /// The `protocol` string of both envelopes.
    const PROTOCOL: &'static str;
    /// Largest request body the kind sends (bytes of the whole envelope).
    const MAX_REQUEST_BYTES: usize;
    /// Largest answer the kind reads (bytes of the whole envelope).
    const MAX_RESPONSE_BYTES: usize;
    /// What is sent under `request`.
    type Request: Serialize + JsonSchema;
    /// What a `success` answer holds under `response`.
    type Response: DeserializeOwned + Serialize + JsonSchema + Metered;

    /// A look at the raw answer before it is read into the typed response, for refusals that
    /// must name what the answer tried (a design report holding a verdict). Most kinds have none.
    fn screen(_answer: &[u8]) -> Result<(), ProviderError> {
        Ok(())
    }

    /// Checks of an answer against the request it answers (binding, geometry), after the
    /// boundary's own (identity, model, cost).
    fn check(request: &Self::Request, response: &Self::Response) -> Result<(), ProviderError>;
}

/// What every answer says about who answered, what it used and what it cost, checked against
/// the config.
#[derive(Debug, Clone, Copy)]
pub struct Receipt<'a> {
    /// The provider's name for itself: must be the configured block's label.
    pub provider: &'a str,
    /// The model that answered: must be the configured `model`.
    pub model: &'a str,
    /// What the call used, in the provider's units: at most `max_input_units` /
    /// `max_output_units` when the config sets them.
    pub usage: crate::grounding::Usage,
    /// What the call cost, in millionths of a US dollar: at most the budget.
    pub cost_microusd: u64,
}

/// A response that names its provider, model and cost, and whose texts can be redacted.
pub trait Metered {
    /// Who answered and what it cost.
    fn receipt(&self) -> Receipt<'_>;
    /// Replace every trace of the authorization value in the response's texts.
    fn redact(&mut self, redactor: &Redactor);
}

/// The JSON Schemas of one kind: `(request envelope, answer envelope)`.
pub fn schemas(kind: ProviderKind) -> (schemars::Schema, schemars::Schema) {
    match kind {
        ProviderKind::VisualGrounding => envelope_schemas::<crate::grounding::Grounding>(),
        ProviderKind::ContractGeneration => {
            envelope_schemas::<crate::contract::ContractGeneration>()
        }
        ProviderKind::DesignReview => envelope_schemas::<crate::design::DesignReview>(),
    }
}

/// The `protocol` string of one kind.
pub fn protocol(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::VisualGrounding => crate::grounding::Grounding::PROTOCOL,
        ProviderKind::ContractGeneration => crate::contract::ContractGeneration::PROTOCOL,
        ProviderKind::DesignReview => crate::design::DesignReview::PROTOCOL,
    }
}

fn envelope_schemas<K: ProviderProtocol>() -> (schemars::Schema, schemars::Schema) {
    let request = schemars::schema_for!(crate::wire::RequestEnvelope<K::Request>);
    let answer = schemars::schema_for!(crate::wire::AnswerEnvelope<K::Response>);
    (request, answer)
}
