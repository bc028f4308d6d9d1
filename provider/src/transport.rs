//! The one HTTP transport every provider kind shares: `POST application/json` of
//! `{protocol, request}` to the configured endpoint, the typed answer back.
//!
//! Why hyper's connection API rather than a full client: a provider call must not follow a
//! redirect, must not read `HTTP_PROXY`/`HTTPS_PROXY`/`ALL_PROXY`, must not speak plaintext to
//! anything but explicit loopback, and must stop reading at a bound. With one connection opened
//! here none of those can happen by a default somewhere else: the address is the endpoint's (no
//! proxy), one request is sent (no redirect; a 3xx is `test.provider.redirect`), and TLS is
//! rustls with the compiled-in webpki roots. `localhost` is not looked up: it is `127.0.0.1` and
//! `::1`, so a hosts file cannot turn a loopback endpoint into a remote one.

use crate::code::{ProviderCode, ProviderError};
use crate::kind::{Metered, ProviderProtocol};
use crate::redact::{Redactor, REDACTED};
use a3s_test_lang::ir::{ProviderConfig, PROVIDER_AUTHORIZATION_ENV_PREFIX};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// One configured provider reached over HTTP.
pub struct HttpProvider {
    config: ProviderConfig,
    endpoint: Endpoint,
    /// The `Authorization` header value, when the provider needs one.
    authorization: Option<hyper::header::HeaderValue>,
    redactor: Redactor,
}

impl std::fmt::Debug for HttpProvider {
    /// The configuration, with the authorization value shown as `[redacted]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpProvider")
            .field("name", &self.config.name)
            .field("kind", &self.config.kind)
            .field("endpoint", &self.endpoint.url.as_str())
            .field("model", &self.config.model)
            .field("authorization_env", &self.config.authorization_env)
            .field(
                "authorization",
                &self.authorization.as_ref().map(|_| REDACTED),
            )
            .field("timeout_ms", &self.config.timeout_ms)
            .field("max_cost_microusd", &self.config.max_cost_microusd)
            .field("max_input_units", &self.config.max_input_units)
            .field("max_output_units", &self.config.max_output_units)
            .finish()
    }
}

/// Where a call connects, decided before any connection.
#[derive(Debug, Clone)]
struct Endpoint {
    url: url::Url,
    /// `None` for HTTPS (resolved at call time); the loopback addresses for `http://`.
    loopback: Option<Vec<SocketAddr>>,
    host: String,
    port: u16,
}

/// Check `text` as an endpoint: `https://`, or `http://` to explicit loopback only.
fn endpoint(text: &str) -> Result<Endpoint, ProviderError> {
    let bad = |why: &str| ProviderError::new(ProviderCode::Endpoint, format!("the endpoint {why}"));
    let url = url::Url::parse(text).map_err(|e| bad(&format!("is not an absolute URL ({e})")))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("holds a user or password"));
    }
    let host = url.host().ok_or_else(|| bad("names no host"))?.to_owned();
    let port = url
        .port_or_known_default()
        .ok_or_else(|| bad("has no port"))?;
    let loopback = match url.scheme() {
        "https" => None,
        "http" => Some(match &host {
            url::Host::Ipv4(ip) if ip.is_loopback() => vec![SocketAddr::from((*ip, port))],
            url::Host::Ipv6(ip) if ip.is_loopback() => vec![SocketAddr::from((*ip, port))],
            url::Host::Domain(d) if d.eq_ignore_ascii_case("localhost") => vec![
                SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
                SocketAddr::from((Ipv6Addr::LOCALHOST, port)),
            ],
            other => {
                return Err(ProviderError::new(
                    ProviderCode::InsecureEndpoint,
                    format!("`http://` is only for loopback, and {other} is not; nothing was sent"),
                ))
            }
        }),
        other => return Err(bad(&format!("has the scheme `{other}`, not `https`"))),
    };
    let host = match host {
        url::Host::Ipv6(ip) => ip.to_string(),
        other => other.to_string(),
    };
    Ok(Endpoint {
        url,
        loopback,
        host,
        port,
    })
}

/// The one TLS configuration: rustls with ring and the webpki roots, nothing from the system.
fn tls() -> Arc<rustls::ClientConfig> {
    static CONFIG: OnceLock<Arc<rustls::ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let roots = rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            };
            // rustls deprecates ring's provider because it lacks post-quantum key exchange; the
            // alternative (aws-lc-rs) is a large C build on every machine that builds the tool.
            #[allow(deprecated)]
            let provider = rustls::crypto::ring::default_provider();
            let config = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
                .with_safe_default_protocol_versions()
                .expect("ring supports the default TLS versions")
                .with_root_certificates(roots)
                .with_no_client_auth();
            Arc::new(config)
        })
        .clone()
}

impl HttpProvider {
    /// The deadline of one call (`timeout_ms`), which a request's own `deadline_ms` repeats.
    pub fn timeout_ms(&self) -> u64 {
        self.config.timeout_ms
    }

    /// One call's budget (`max_cost_microusd`), which a request's own budget repeats.
    pub fn max_cost_microusd(&self) -> u64 {
        self.config.max_cost_microusd
    }

    /// The provider `config` describes, its authorization value read from the process
    /// environment now.
    pub fn from_env(config: &ProviderConfig) -> Result<HttpProvider, ProviderError> {
        HttpProvider::new(config, |name| std::env::var(name).ok())
    }

    /// The provider `config` describes, its authorization value read through `lookup` (the
    /// environment, or a caller's own table of variables).
    pub fn new(
        config: &ProviderConfig,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<HttpProvider, ProviderError> {
        let endpoint = endpoint(&config.endpoint)?;
        let (authorization, redactor) = match &config.authorization_env {
            None => (None, Redactor::default()),
            Some(name) => {
                let well_named = name
                    .strip_prefix(PROVIDER_AUTHORIZATION_ENV_PREFIX)
                    .is_some_and(|s| !s.is_empty());
                if !well_named {
                    return Err(ProviderError::new(
                        ProviderCode::AuthorizationEnv,
                        format!("`authorization_env` \"{name}\" does not start with `{PROVIDER_AUTHORIZATION_ENV_PREFIX}`"),
                    ));
                }
                let value = lookup(name).ok_or_else(|| {
                    ProviderError::new(
                        ProviderCode::AuthorizationEnv,
                        format!("the variable `{name}` is not set"),
                    )
                })?;
                let redactor = Redactor::new(&value);
                let header = hyper::header::HeaderValue::from_str(&value)
                    .ok()
                    .filter(|_| !value.trim().is_empty())
                    .ok_or_else(|| {
                        ProviderError::new(
                            ProviderCode::AuthorizationValue,
                            format!("the variable `{name}` is empty or not a valid header value"),
                        )
                    })?;
                let mut header = header;
                header.set_sensitive(true);
                (Some(header), redactor)
            }
        };
        Ok(HttpProvider {
            config: config.clone(),
            endpoint,
            authorization,
            redactor,
        })
    }

    /// The configuration this provider was made from.
    pub fn config(&self) -> &ProviderConfig {
        &self.config
    }

    /// One call of kind `K`: the answer's response, checked (protocol, identity, model, cost,
    /// the kind's own checks), every text redacted; or the coded reason there is none.
    pub async fn call<K: ProviderProtocol>(
        &self,
        request: &K::Request,
    ) -> Result<K::Response, ProviderError> {
        self.call_unredacted::<K>(request)
            .await
            .map_err(|e| e.redacted(&self.redactor))
    }

    async fn call_unredacted<K: ProviderProtocol>(
        &self,
        request: &K::Request,
    ) -> Result<K::Response, ProviderError> {
        if K::KIND != self.config.kind {
            return Err(ProviderError::new(
                ProviderCode::NotConfigured,
                format!(
                    "provider \"{}\" is a {} provider, not {}",
                    self.config.name,
                    self.config.kind.as_str(),
                    K::KIND.as_str()
                ),
            ));
        }
        let body = crate::wire::encode(K::PROTOCOL, request)?;
        if body.len() > K::MAX_REQUEST_BYTES {
            return Err(ProviderError::new(
                ProviderCode::RequestTooLarge,
                format!(
                    "the request is {} bytes; a {} request is at most {}",
                    body.len(),
                    K::KIND.as_str(),
                    K::MAX_REQUEST_BYTES
                ),
            ));
        }
        let deadline = Duration::from_millis(self.config.timeout_ms);
        let answer = self
            .post_unredacted(body, K::MAX_RESPONSE_BYTES, deadline)
            .await?;
        K::screen(&answer)?;
        let mut response: K::Response = crate::wire::decode(K::PROTOCOL, &answer)?;
        response.redact(&self.redactor);
        self.check_receipt(&response)?;
        K::check(request, &response)?;
        Ok(response)
    }

    /// POST `body` as `application/json` to the endpoint under the transport's rules (no
    /// redirect followed, no environment proxy, plaintext only to loopback, the authorization
    /// header when configured) and return the `200 application/json` answer's bytes, read up to
    /// `max_response` and all within `deadline`; every error redacted.
    ///
    /// Why public: a provider that is itself a client of another HTTP service (the
    /// OpenAI-compatible adapter under `providers/`) must reach it under the same rules as the
    /// tool reaches a provider, not through a second client with other defaults. The kind, the
    /// envelope and the receipt checks of [`HttpProvider::call`] are not applied: the caller reads
    /// the bytes as its own protocol.
    pub async fn post_json(
        &self,
        body: Vec<u8>,
        max_response: usize,
        deadline: Duration,
    ) -> Result<Vec<u8>, ProviderError> {
        self.post_unredacted(body, max_response, deadline)
            .await
            .map_err(|e| e.redacted(&self.redactor))
    }

    /// What erases the authorization value from texts: for a caller of
    /// [`HttpProvider::post_json`] that passes parts of an answer on.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    async fn post_unredacted(
        &self,
        body: Vec<u8>,
        max_response: usize,
        deadline: Duration,
    ) -> Result<Vec<u8>, ProviderError> {
        tokio::time::timeout(deadline, self.exchange(body, max_response))
            .await
            .map_err(|_| {
                ProviderError::retryable(
                    ProviderCode::Timeout,
                    format!(
                        "provider \"{}\" gave no whole answer within {} ms",
                        self.config.name,
                        deadline.as_millis()
                    ),
                )
            })?
    }

    /// Identity, model, cost and usage against the configuration.
    fn check_receipt(&self, response: &impl Metered) -> Result<(), ProviderError> {
        let receipt = response.receipt();
        let short = |t: &str| crate::wire::shorten(t, 200);
        if receipt.provider != self.config.name {
            return Err(ProviderError::new(
                ProviderCode::Identity,
                format!(
                    "the answer is from provider \"{}\", the block names \"{}\"",
                    short(receipt.provider),
                    self.config.name
                ),
            ));
        }
        if receipt.model != self.config.model {
            return Err(ProviderError::new(
                ProviderCode::Model,
                format!(
                    "the answer is from model \"{}\", the block names \"{}\"",
                    short(receipt.model),
                    self.config.model
                ),
            ));
        }
        if receipt.cost_microusd > self.config.max_cost_microusd {
            return Err(ProviderError::new(
                ProviderCode::OverBudget,
                format!(
                    "the answer cost {} µUSD, over the budget of {} µUSD (`max_cost_microusd`)",
                    receipt.cost_microusd, self.config.max_cost_microusd
                ),
            ));
        }
        let limits = [
            (
                "input",
                receipt.usage.input_units,
                self.config.max_input_units,
            ),
            (
                "output",
                receipt.usage.output_units,
                self.config.max_output_units,
            ),
        ];
        for (what, used, limit) in limits {
            if let Some(limit) = limit.filter(|limit| used > *limit) {
                return Err(ProviderError::new(
                    ProviderCode::OverUsage,
                    format!(
                        "the answer used {used} {what} units, over the budget of {limit} \
                         (`max_{what}_units`)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Connect, send `body`, read an answer of at most `max` bytes (no deadline here: the
    /// caller bounds the whole exchange).
    async fn exchange(&self, body: Vec<u8>, max: usize) -> Result<Vec<u8>, ProviderError> {
        let e = &self.endpoint;
        let addrs = match &e.loopback {
            Some(addrs) => addrs.clone(),
            None => tokio::net::lookup_host((e.host.as_str(), e.port))
                .await
                .map_err(|err| {
                    ProviderError::retryable(
                        ProviderCode::Connect,
                        format!("failed to resolve {}: {err}", e.host),
                    )
                })?
                .collect(),
        };
        let stream = TcpStream::connect(&addrs[..]).await.map_err(|err| {
            ProviderError::retryable(
                ProviderCode::Connect,
                format!("failed to connect to {}:{}: {err}", e.host, e.port),
            )
        })?;
        let _ = stream.set_nodelay(true);
        if e.loopback.is_some() {
            return self.over(stream, body, max).await;
        }
        let name = rustls::pki_types::ServerName::try_from(e.host.clone()).map_err(|err| {
            ProviderError::new(
                ProviderCode::Endpoint,
                format!("`{}` is not a TLS server name: {err}", e.host),
            )
        })?;
        let stream = tokio_rustls::TlsConnector::from(tls())
            .connect(name, stream)
            .await
            .map_err(|err| {
                ProviderError::new(
                    ProviderCode::Tls,
                    format!("the TLS handshake with {} failed: {err}", e.host),
                )
            })?;
        self.over(stream, body, max).await
    }

    /// The HTTP/1.1 exchange over an open connection.
    async fn over<S>(&self, io: S, body: Vec<u8>, max: usize) -> Result<Vec<u8>, ProviderError>
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let http = |err: hyper::Error| {
            ProviderError::retryable(
                ProviderCode::Http,
                format!("the HTTP exchange failed: {err}"),
            )
        };
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(io))
            .await
            .map_err(http)?;
        let e = &self.endpoint;
        let path = &e.url[url::Position::BeforePath..url::Position::AfterQuery];
        let authority = &e.url[url::Position::BeforeHost..url::Position::AfterPort];
        let mut request = hyper::Request::builder()
            .method(hyper::Method::POST)
            .uri(path)
            .header(hyper::header::HOST, authority)
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header(hyper::header::ACCEPT, "application/json")
            .header(
                hyper::header::USER_AGENT,
                concat!("a3s-test/", env!("CARGO_PKG_VERSION")),
            );
        if let Some(value) = &self.authorization {
            request = request.header(hyper::header::AUTHORIZATION, value.clone());
        }
        let request = request.body(Full::new(Bytes::from(body))).map_err(|err| {
            ProviderError::new(
                ProviderCode::Endpoint,
                format!("the request is not valid HTTP: {err}"),
            )
        })?;
        let answer = async {
            let response = sender.send_request(request).await.map_err(http)?;
            let status = response.status();
            if status.is_redirection() {
                let location = response
                    .headers()
                    .get(hyper::header::LOCATION)
                    .and_then(|l| l.to_str().ok())
                    .map(|l| crate::wire::shorten(l, 200))
                    .unwrap_or_default();
                return Err(ProviderError::new(
                    ProviderCode::Redirect,
                    format!("the provider redirected (HTTP {status}) to \"{location}\"; redirects are not followed"),
                ));
            }
            if status != hyper::StatusCode::OK {
                return Err(ProviderError::new(
                    ProviderCode::Status,
                    format!("the provider answered HTTP {status}, not 200"),
                ));
            }
            let json = response
                .headers()
                .get(hyper::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(';').next())
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
            if !json {
                return Err(ProviderError::new(
                    ProviderCode::ContentType,
                    "the answer is not `Content-Type: application/json`",
                ));
            }
            let too_large = || {
                ProviderError::new(
                    ProviderCode::ResponseTooLarge,
                    format!("the answer is larger than {max} bytes; it was not read past that"),
                )
            };
            // A declared length over the bound is refused before a byte of the body is read.
            let declared = response
                .headers()
                .get(hyper::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > max as u64) {
                return Err(too_large());
            }
            let body = Limited::new(response.into_body(), max)
                .collect()
                .await
                .map_err(|err| {
                    if err.is::<http_body_util::LengthLimitError>() {
                        too_large()
                    } else {
                        ProviderError::retryable(
                            ProviderCode::Http,
                            format!("failed to read the answer: {err}"),
                        )
                    }
                })?;
            Ok(body.to_bytes().to_vec())
        };
        // The connection is driven beside the exchange and dropped with it (closing the socket
        // once the bound is reached); one that ends first lets a delivered answer be read out.
        tokio::pin!(conn);
        tokio::pin!(answer);
        tokio::select! {
            answer = &mut answer => answer,
            ended = &mut conn => match ended {
                Err(err) => Err(http(err)),
                Ok(()) => answer.await,
            },
        }
    }
}
