//! The HTTP side: `POST` a `{protocol, request}` envelope, get `{status, protocol, response}`
//! back, as `docs/providers.md` describes. Bodies are bounded, each connection has a deadline,
//! and a request the auditor cannot read is answered with a `failure` envelope, never a crash.

use crate::audit::{review, Identity};
use a3s_test_provider::design::{DesignReview, DesignReviewRequest};
use a3s_test_provider::kind::ProviderProtocol;
use a3s_test_provider::wire::{AnswerEnvelope, ProviderFailure, RequestEnvelope};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::sync::Arc;
use std::time::Duration;

/// Largest request read (the protocol's own bound).
pub const MAX_BODY: usize = DesignReview::MAX_REQUEST_BYTES;
/// Longest one connection may take, from accept to the last byte written.
pub const CONNECTION_DEADLINE: Duration = Duration::from_secs(60);

/// Serve `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, identity: Identity) {
    let identity = Arc::new(identity);
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let identity = identity.clone();
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(Duration::from_secs(10))
                .keep_alive(false);
            let service = hyper::service::service_fn(move |req| answer(identity.clone(), req));
            let _ = tokio::time::timeout(
                CONNECTION_DEADLINE,
                http.serve_connection(TokioIo::new(stream), service),
            )
            .await;
        });
    }
}

fn json(status: StatusCode, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn failure(code: &str, message: String) -> Response<Full<Bytes>> {
    let envelope: AnswerEnvelope<()> = AnswerEnvelope::Failure {
        protocol: DesignReview::PROTOCOL.to_string(),
        error: ProviderFailure {
            code: code.to_string(),
            message,
            retryable: false,
        },
    };
    json(
        StatusCode::OK,
        serde_json::to_vec(&envelope).unwrap_or_default(),
    )
}

async fn answer(
    identity: Arc<Identity>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, std::convert::Infallible> {
    if req.method() != Method::POST {
        return Ok(json(StatusCode::METHOD_NOT_ALLOWED, b"{}".to_vec()));
    }
    let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => {
            return Ok(failure(
                "request_too_large",
                format!("the request is over {MAX_BODY} bytes"),
            ))
        }
    };
    let envelope: RequestEnvelope<DesignReviewRequest> = match serde_json::from_slice(&body) {
        Ok(e) => e,
        Err(e) => {
            return Ok(failure(
                "malformed",
                format!("not a design review request: {e}"),
            ))
        }
    };
    if envelope.protocol != DesignReview::PROTOCOL {
        return Ok(failure(
            "protocol",
            format!("this auditor speaks {}", DesignReview::PROTOCOL),
        ));
    }
    let request = envelope.request;
    let reviewed = tokio::task::spawn_blocking(move || review(&identity, &request)).await;
    Ok(match reviewed {
        Ok(Ok(report)) => {
            let envelope = AnswerEnvelope::Success {
                protocol: DesignReview::PROTOCOL.to_string(),
                response: report,
            };
            json(
                StatusCode::OK,
                serde_json::to_vec(&envelope).unwrap_or_default(),
            )
        }
        Ok(Err(e)) => failure("screenshot", e.to_string()),
        Err(_) => failure("internal", "the review stopped unexpectedly".into()),
    })
}
