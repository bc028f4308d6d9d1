//! The HTTP side: the providers' one server (`a3s_test_provider::serve`) answering one kind —
//! `a3s.test.design-audit-report/1` with [`Adapter::review`], or
//! `a3s.test.contract-candidates/1` with [`Adapter::candidates`].

use crate::review::Adapter;
use a3s_test_provider::contract::{ContractGeneration, ContractRequest, ContractResponse};
use a3s_test_provider::design::{DesignAuditReport, DesignReview, DesignReviewRequest};
use a3s_test_provider::serve::Answer;
use a3s_test_provider::wire::ProviderFailure;
use std::sync::Arc;

/// The kinds the adapter serves. Why not visual grounding: boxes must be where the pixels are,
/// and a chat model's coordinates are guesses; the OCR reference provider measures them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServedKind {
    /// `a3s.test.design-audit-report/1`.
    DesignReview,
    /// `a3s.test.contract-candidates/1`.
    ContractGeneration,
}

impl ServedKind {
    /// The kind of its project-file spelling (`design_review`, `contract_generation`).
    pub fn from_name(name: &str) -> Option<ServedKind> {
        match name {
            "design_review" => Some(ServedKind::DesignReview),
            "contract_generation" => Some(ServedKind::ContractGeneration),
            _ => None,
        }
    }
}

/// Serve `kind` on `listener` with `adapter` until accepting fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    adapter: Arc<Adapter>,
    kind: ServedKind,
) -> std::io::Result<()> {
    match kind {
        ServedKind::DesignReview => {
            a3s_test_provider::serve::serve::<DesignReview, _>(listener, adapter).await
        }
        ServedKind::ContractGeneration => {
            a3s_test_provider::serve::serve::<ContractGeneration, _>(listener, adapter).await
        }
    }
}

impl Answer<DesignReview> for Adapter {
    async fn answer(
        &self,
        request: DesignReviewRequest,
    ) -> Result<DesignAuditReport, ProviderFailure> {
        self.review(&request).await
    }
}

impl Answer<ContractGeneration> for Adapter {
    async fn answer(&self, request: ContractRequest) -> Result<ContractResponse, ProviderFailure> {
        self.candidates(&request).await
    }
}
