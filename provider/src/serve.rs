//! The one HTTP server of every reference provider: `POST` a `{protocol, request}` envelope of
//! kind `K`, get `200 application/json` with its `success` or `failure` envelope back
//! (`docs/providers.md`).
//!
//! Why one, beside [`crate::listen`]: each provider under `providers/` had its own copy of the
//! same hyper loop, and they had drifted (one bounded connections, one did not; their failure
//! codes differed). Here every provider gets the same rules: only `POST`, the request read up to
//! the kind's own bound (`request.too_large`), read as the kind's typed envelope
//! (`request.malformed`) of the kind's protocol (`request.protocol`), headers within
//! [`HEADER_DEADLINE`] and the whole connection within [`CONNECTION_DEADLINE`]. What a provider
//! adds is only its [`Answer`].

use crate::kind::ProviderProtocol;
use crate::wire::{AnswerEnvelope, ProviderFailure, RequestEnvelope};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, ALLOW, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde::de::DeserializeOwned;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// Longest a client may take to send a request's headers.
pub const HEADER_DEADLINE: Duration = Duration::from_secs(10);
/// Longest one connection may take, from accept to the last byte written (a provider's own
/// work included: the caller's deadline is shorter).
pub const CONNECTION_DEADLINE: Duration = Duration::from_secs(300);

/// What a provider does with one admitted request of kind `K`: its answer, or a failure the
/// envelope carries (`code`, `message`, `retryable`).
pub trait Answer<K: ProviderProtocol>: Send + Sync + 'static {
    /// Answer `request`.
    fn answer(
        &self,
        request: K::Request,
    ) -> impl Future<Output = Result<K::Response, ProviderFailure>> + Send;
}

/// A failure envelope's error.
pub fn failure(code: &str, message: impl Into<String>, retryable: bool) -> ProviderFailure {
    ProviderFailure {
        code: code.to_string(),
        message: message.into(),
        retryable,
    }
}

/// Serve kind `K` on `listener` with `answer` until accepting fails.
pub async fn serve<K, A>(listener: tokio::net::TcpListener, answer: Arc<A>) -> std::io::Result<()>
where
    K: ProviderProtocol + 'static,
    K::Request: DeserializeOwned + Send + 'static,
    K::Response: Send + 'static,
    A: Answer<K>,
{
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let answer = answer.clone();
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(HEADER_DEADLINE);
            let service = hyper::service::service_fn(move |request| {
                let answer = answer.clone();
                async move {
                    Ok::<_, std::convert::Infallible>(respond::<K, A>(&*answer, request).await)
                }
            });
            let _ = tokio::time::timeout(
                CONNECTION_DEADLINE,
                http.serve_connection(TokioIo::new(stream), service),
            )
            .await;
        });
    }
}

/// One request's response.
async fn respond<K, A>(answer: &A, request: Request<Incoming>) -> Response<Full<Bytes>>
where
    K: ProviderProtocol,
    K::Request: DeserializeOwned,
    A: Answer<K>,
{
    if request.method() != Method::POST {
        let mut refused = json(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{{\"error\":\"POST {} requests\"}}", K::PROTOCOL).into_bytes(),
        );
        refused
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("POST"));
        return refused;
    }
    let body = match Limited::new(request.into_body(), K::MAX_REQUEST_BYTES)
        .collect()
        .await
    {
        Ok(body) => body.to_bytes(),
        Err(e) => {
            return envelope::<K>(Err(failure(
                "request.too_large",
                format!(
                    "the request could not be read whole within {} bytes: {e}",
                    K::MAX_REQUEST_BYTES
                ),
                false,
            )))
        }
    };
    let request: RequestEnvelope<K::Request> = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            return envelope::<K>(Err(failure(
                "request.malformed",
                format!("the request is not the envelope of {}: {e}", K::PROTOCOL),
                false,
            )))
        }
    };
    if request.protocol != K::PROTOCOL {
        return envelope::<K>(Err(failure(
            "request.protocol",
            format!("this provider speaks {} only", K::PROTOCOL),
            false,
        )));
    }
    envelope::<K>(answer.answer(request.request).await)
}

fn envelope<K: ProviderProtocol>(
    answer: Result<K::Response, ProviderFailure>,
) -> Response<Full<Bytes>> {
    let envelope = match answer {
        Ok(response) => AnswerEnvelope::Success {
            protocol: K::PROTOCOL.to_string(),
            response,
        },
        Err(error) => AnswerEnvelope::Failure {
            protocol: K::PROTOCOL.to_string(),
            error,
        },
    };
    match serde_json::to_vec(&envelope) {
        Ok(bytes) => json(StatusCode::OK, bytes),
        Err(e) => json(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{{\"error\":\"the answer did not serialize: {e}\"}}").into_bytes(),
        ),
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
