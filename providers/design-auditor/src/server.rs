//! The HTTP side: the providers' one server (`a3s_test_provider::serve`) answering
//! `a3s.test.design-audit-report/1` with [`review`], off the async threads; a screenshot the
//! auditor cannot use is a `screenshot` failure envelope, never a crash.

use crate::audit::{review, Identity};
use a3s_test_provider::design::{DesignAuditReport, DesignReview, DesignReviewRequest};
use a3s_test_provider::serve::{failure, Answer};
use a3s_test_provider::wire::ProviderFailure;
use std::sync::Arc;

/// Serve `listener` until accepting fails.
pub async fn serve(listener: tokio::net::TcpListener, identity: Identity) -> std::io::Result<()> {
    a3s_test_provider::serve::serve::<DesignReview, _>(listener, Arc::new(identity)).await
}

impl Answer<DesignReview> for Identity {
    async fn answer(
        &self,
        request: DesignReviewRequest,
    ) -> Result<DesignAuditReport, ProviderFailure> {
        let identity = self.clone();
        match tokio::task::spawn_blocking(move || review(&identity, &request)).await {
            Ok(Ok(report)) => Ok(report),
            Ok(Err(e)) => Err(failure("screenshot", e.to_string(), false)),
            Err(_) => Err(failure(
                "internal",
                "the review stopped unexpectedly",
                false,
            )),
        }
    }
}
