//! The HTTP side: `POST` of `{protocol, request}` answered `200 application/json` with the
//! `success` or `failure` envelope of `a3s.test.visual-grounding/1`.
//!
//! Why through the provider crate's own types: the request is read as
//! [`RequestEnvelope<GroundingRequest>`] and the answer written as [`AnswerEnvelope`], the very
//! types A3S Test checks an answer with, so this provider cannot drift from the protocol.
//! Requests are bounded (the kind's request bound) and recognitions run at most
//! [`MAX_PARALLEL`] at a time, off the async threads.

use crate::ground::{self, Identity};
use crate::tesseract::Tesseract;
use a3s_test_provider::grounding::{Grounding, GroundingRequest};
use a3s_test_provider::kind::ProviderProtocol;
use a3s_test_provider::wire::{AnswerEnvelope, ProviderFailure, RequestEnvelope};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
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

/// Serve `listener` until the process ends.
pub async fn serve(listener: TcpListener, provider: Arc<Provider>) -> std::io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let provider = provider.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let provider = provider.clone();
                async move { Ok::<_, std::convert::Infallible>(answer(&provider, request).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn json(status: StatusCode, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

fn envelope(
    answer: &AnswerEnvelope<a3s_test_provider::GroundingResponse>,
) -> Response<Full<Bytes>> {
    json(
        StatusCode::OK,
        serde_json::to_vec(answer).expect("answers serialize"),
    )
}

fn failure(code: &str, message: String, retryable: bool) -> Response<Full<Bytes>> {
    envelope(&AnswerEnvelope::Failure {
        protocol: Grounding::PROTOCOL.into(),
        error: ProviderFailure {
            code: code.into(),
            message,
            retryable,
        },
    })
}

/// One request's answer.
async fn answer(provider: &Provider, request: Request<Incoming>) -> Response<Full<Bytes>> {
    if request.method() != Method::POST {
        let mut refused = json(
            StatusCode::METHOD_NOT_ALLOWED,
            br#"{"error":"POST a3s.test.visual-grounding/1 requests"}"#.to_vec(),
        );
        refused.headers_mut().insert(
            hyper::header::ALLOW,
            hyper::header::HeaderValue::from_static("POST"),
        );
        return refused;
    }
    let body = match Limited::new(request.into_body(), Grounding::MAX_REQUEST_BYTES)
        .collect()
        .await
    {
        Ok(body) => body.to_bytes(),
        Err(e) => {
            return failure(
                "request.too_large",
                format!(
                    "the request could not be read whole within {} bytes: {e}",
                    Grounding::MAX_REQUEST_BYTES
                ),
                false,
            )
        }
    };
    let envelope_in: RequestEnvelope<GroundingRequest> = match serde_json::from_slice(&body) {
        Ok(e) => e,
        Err(e) => {
            return failure(
                "request.malformed",
                format!("the request is not the protocol's envelope: {e}"),
                false,
            )
        }
    };
    if envelope_in.protocol != Grounding::PROTOCOL {
        return failure(
            "request.protocol",
            format!("this provider speaks {} only", Grounding::PROTOCOL),
            false,
        );
    }
    let Ok(_permit) = provider.permits.acquire().await else {
        return failure("ocr.closing", "the provider is stopping".into(), true);
    };
    let (ocr, identity) = (provider.ocr.clone(), provider.identity.clone());
    let grounded =
        tokio::task::spawn_blocking(move || ground::ground(&ocr, &identity, &envelope_in.request))
            .await;
    match grounded {
        Ok(Ok(response)) => envelope(&AnswerEnvelope::Success {
            protocol: Grounding::PROTOCOL.into(),
            response,
        }),
        Ok(Err(refusal)) => envelope(&AnswerEnvelope::Failure {
            protocol: Grounding::PROTOCOL.into(),
            error: refusal,
        }),
        Err(e) => failure(
            "ocr.internal",
            format!("the recognition stopped: {e}"),
            true,
        ),
    }
}
