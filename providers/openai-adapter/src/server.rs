//! The HTTP side: the providers' one server (`a3s_test_provider::serve`) answering
//! `a3s.test.design-audit-report/1` with [`Adapter::review`].

use crate::review::Adapter;
use a3s_test_provider::design::{DesignAuditReport, DesignReview, DesignReviewRequest};
use a3s_test_provider::serve::Answer;
use a3s_test_provider::wire::ProviderFailure;
use std::sync::Arc;

/// Serve `listener` with `adapter` until accepting fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    adapter: Arc<Adapter>,
) -> std::io::Result<()> {
    a3s_test_provider::serve::serve::<DesignReview, _>(listener, adapter).await
}

impl Answer<DesignReview> for Adapter {
    async fn answer(
        &self,
        request: DesignReviewRequest,
    ) -> Result<DesignAuditReport, ProviderFailure> {
        self.review(&request).await
    }
}
