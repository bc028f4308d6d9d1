//! The HTTP side: the providers' one server (`a3s_test_provider::serve`: the very envelope
//! types A3S Test checks an answer with, bounded requests and connections) answering
//! `a3s.test.visual-grounding/1`; recognitions run at most [`MAX_PARALLEL`] at a time, off the
//! async threads.

use crate::ground::{self, Identity};
use crate::tesseract::Tesseract;
use a3s_test_provider::grounding::{Grounding, GroundingRequest};
use a3s_test_provider::serve::{failure, Answer};
use a3s_test_provider::wire::ProviderFailure;
use a3s_test_provider::GroundingResponse;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Most recognitions running at once; further requests wait their turn.
pub const MAX_PARALLEL: usize = 2;

/// What every request is served with.
pub struct Provider {
    /// How Tesseract runs.
    pub ocr: Tesseract,
    /// Who the answers say answered.
    pub identity: Identity,
    permits: Semaphore,
}

impl Provider {
    /// A provider answering as `identity` with `ocr`.
    pub fn new(ocr: Tesseract, identity: Identity) -> Provider {
        Provider {
            ocr,
            identity,
            permits: Semaphore::new(MAX_PARALLEL),
        }
    }
}

/// Serve `listener` until the process ends, through the providers' one server.
pub async fn serve(listener: TcpListener, provider: Arc<Provider>) -> std::io::Result<()> {
    a3s_test_provider::serve::serve::<Grounding, _>(listener, provider).await
}

impl Answer<Grounding> for Provider {
    async fn answer(
        &self,
        request: GroundingRequest,
    ) -> Result<GroundingResponse, ProviderFailure> {
        let Ok(_permit) = self.permits.acquire().await else {
            return Err(failure("ocr.closing", "the provider is stopping", true));
        };
        let (ocr, identity) = (self.ocr.clone(), self.identity.clone());
        match tokio::task::spawn_blocking(move || ground::ground(&ocr, &identity, &request)).await {
            Ok(answer) => answer,
            Err(e) => Err(failure(
                "ocr.internal",
                format!("the recognition stopped: {e}"),
                true,
            )),
        }
    }
}
