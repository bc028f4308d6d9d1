//! The one HTTP transport every provider kind shares: `POST application/json` of
//! `{protocol, request}` to the configured endpoint, the typed answer back.
//!
//! Why hyper's connection API rather than a full client: a provider call must not follow a
//! redirect, must not read `HTTP_PROXY`/`HTTPS_PROXY`/`ALL_PROXY`, must not speak plaintext to
//! anything but explicit loopback, and must stop reading at a bound. With one connection opened
//! here none of those can happen by a default somewhere else: the address is the endpoint's (no
//! proxy), one request is sent (no redirect; a 3xx is `test.provider.redirect`), and TLS is
//! rustls with the compiled-in webpki roots. `localhost` is not looked up: it is `127.0.0.1` and
//! `::1` under either scheme, so a hosts file cannot turn a loopback endpoint into a remote one.
//!
//! Whom HTTPS trusts is fixed by the constructor, never by the configuration: [`HttpProvider::new`]
//! and [`HttpProvider::from_env`], the only ways from a project file's `provider` block to a
//! provider, always take the webpki roots. [`HttpProvider::with_test_roots`] takes a
//! `rustls::RootCertStore` instead, so the transport's own tests can complete a real HTTPS call
//! against a loopback server whose certificate they made. It is a constructor rather than a
//! `cfg(test)` item or a cargo feature because the tests that need it are integration tests (a
//! separate crate, built without `cfg(test)`) and a feature enabled by them would be unified into
//! the same build of the binary anyway; what keeps it out of reach is that no `ProviderConfig`
//! field names roots, and `provider/tests/https.rs` checks that no source outside the provider's
//! tests calls it.

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
    /// Whom HTTPS trusts: the webpki roots, except through [`HttpProvider::with_test_roots`].
    tls: Arc<rustls::ClientConfig>,
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
    /// The addresses of an explicit loopback host (never looked up); `None` for any other host,
    /// which only `https://` admits and which is resolved at call time.
    loopback: Option<Vec<SocketAddr>>,
    /// `https://`: the call speaks TLS. Plaintext only with `loopback`.
    tls: bool,
    host: String,
    port: u16,
}

/// The addresses `host` stands for when it is explicit loopback: `127.0.0.0/8`, `::1`, or
/// `localhost` (both loopback addresses, without a lookup).
fn loopback_addrs(host: &url::Host, port: u16) -> Option<Vec<SocketAddr>> {
    match host {
        url::Host::Ipv4(ip) if ip.is_loopback() => Some(vec![SocketAddr::from((*ip, port))]),
        url::Host::Ipv6(ip) if ip.is_loopback() => Some(vec![SocketAddr::from((*ip, port))]),
        url::Host::Domain(d) if d.eq_ignore_ascii_case("localhost") => Some(vec![
            SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            SocketAddr::from((Ipv6Addr::LOCALHOST, port)),
        ]),
        _ => None,
    }
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
    let loopback = loopback_addrs(&host, port);
    let tls = match url.scheme() {
        "https" => true,
        "http" if loopback.is_some() => false,
        "http" => {
            return Err(ProviderError::new(
                ProviderCode::InsecureEndpoint,
                format!("`http://` is only for loopback, and {host} is not; nothing was sent"),
            ))
        }
        other => return Err(bad(&format!("has the scheme `{other}`, not `https`"))),
    };
    let host = match host {
        url::Host::Ipv6(ip) => ip.to_string(),
        other => other.to_string(),
    };
    Ok(Endpoint {
        url,
        loopback,
        tls,
        host,
        port,
    })
}

/// The one TLS configuration of every configured provider: rustls with ring and the webpki
/// roots, nothing from the system.
fn webpki_tls() -> Arc<rustls::ClientConfig> {
    static CONFIG: OnceLock<Arc<rustls::ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            tls_trusting(rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            })
        })
        .clone()
}

/// rustls with ring, trusting `roots` and nothing else.
fn tls_trusting(roots: rustls::RootCertStore) -> Arc<rustls::ClientConfig> {
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
        HttpProvider::trusting(config, lookup, webpki_tls())
    }

    /// Like [`HttpProvider::new`], but HTTPS trusts `roots` alone instead of the webpki roots.
    ///
    /// Why it exists: the transport's tests complete real HTTPS calls against a loopback server
    /// with a certificate they made, which no public authority signed. Not for deployments: a
    /// project file's `provider` block reaches only [`HttpProvider::new`] (see the module doc).
    #[doc(hidden)]
    pub fn with_test_roots(
        config: &ProviderConfig,
        lookup: impl Fn(&str) -> Option<String>,
        roots: rustls::RootCertStore,
    ) -> Result<HttpProvider, ProviderError> {
        HttpProvider::trusting(config, lookup, tls_trusting(roots))
    }

    fn trusting(
        config: &ProviderConfig,
        lookup: impl Fn(&str) -> Option<String>,
        tls: Arc<rustls::ClientConfig>,
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
            tls,
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
        if !e.tls {
            return self.over(stream, body, max).await;
        }
        let name = rustls::pki_types::ServerName::try_from(e.host.clone()).map_err(|err| {
            ProviderError::new(
                ProviderCode::Endpoint,
                format!("`{}` is not a TLS server name: {err}", e.host),
            )
        })?;
        let stream = tokio_rustls::TlsConnector::from(self.tls.clone())
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
