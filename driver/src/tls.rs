//! The one TLS client configuration of the runner's own HTTPS requests: a `request` step's API
//! call ([`crate::http`]) and a Selenium Grid's WebDriver requests (`run --grid https://…`).
//!
//! Why the machine's trust store and not a bundled root list: the servers these requests reach
//! are staging APIs and cloud or company Grids, often under a private or corporate CA that the
//! machine (and curl, and OpenSSL) already trusts. The roots are read the way OpenSSL reads them
//! on Linux (`rustls-native-certs`): `SSL_CERT_FILE` and `SSL_CERT_DIR` when either is set —
//! they then replace the system store, as they do for curl — else the system bundle. Tests
//! point `SSL_CERT_FILE` at a test root; the code has no other door.
//!
//! Why built once: the system bundle is a few hundred certificates to parse. The environment is
//! read on first use and the configuration kept for the process. Certificates that do not parse
//! are skipped; when none is left, every HTTPS request fails with [`NoRoots`], which names
//! `SSL_CERT_FILE`. Server names are verified (IP-literal hosts as IP addresses). The crypto is
//! rustls' `ring` provider (no C build).
//!
//! One exception, opt-in and narrow: a scenario or dev server that says
//! `ignore_https_errors = true` (`docs/acl.md` §2.4, §11) — a local or staging server under a
//! self-signed or private-CA certificate — gets [`accepting_any`] for its `request` steps and its
//! readiness probe only ([`CertificateCheck::Ignored`]). The Grid, providers and every other
//! request of the runner always use [`client_config`].

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use std::sync::{Arc, LazyLock};

/// Whether an HTTPS exchange checks the server's certificate chain and name: a typed choice, so
/// the one place that turns the check off ([`CertificateCheck::Ignored`]) is visible at each call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CertificateCheck {
    /// The machine's trust store and the URL's host ([`client_config`]): every request by default.
    #[default]
    Verified,
    /// Any certificate is accepted ([`accepting_any`]): only a `request` step of a scenario, or a
    /// dev server's readiness probe, whose block says `ignore_https_errors = true`.
    Ignored,
}

impl CertificateCheck {
    /// `Ignored` when `ignore` is true (the admitted `ignore_https_errors`), else `Verified`.
    pub fn ignoring_if(ignore: bool) -> CertificateCheck {
        if ignore {
            CertificateCheck::Ignored
        } else {
            CertificateCheck::Verified
        }
    }

    /// The configuration this check asks for, or why no HTTPS request can succeed.
    pub fn config(self) -> Result<Arc<ClientConfig>, NoRoots> {
        match self {
            CertificateCheck::Verified => client_config(),
            CertificateCheck::Ignored => Ok(accepting_any()),
        }
    }
}

/// Why no HTTPS request can succeed: the trust store gave no usable root.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no trusted root certificate was found ({where_}): install the ca-certificates package, or \
     set SSL_CERT_FILE to a PEM file of the roots to trust"
)]
pub struct NoRoots {
    /// Where the roots were looked for (the environment's paths, or the system store).
    where_: String,
}

/// The configuration and how many roots it trusts.
struct Trust {
    config: Arc<ClientConfig>,
    roots: usize,
    looked_in: String,
}

static TRUST: LazyLock<Trust> = LazyLock::new(load);

/// The configuration HTTPS requests use, or why none of them can succeed.
pub fn client_config() -> Result<Arc<ClientConfig>, NoRoots> {
    let trust = &*TRUST;
    if trust.roots == 0 {
        return Err(NoRoots {
            where_: trust.looked_in.clone(),
        });
    }
    Ok(trust.config.clone())
}

/// The same configuration even when it trusts no root, for an HTTP client that must be given
/// one before it knows whether it will ever speak TLS (reqwest for an `http://` Grid).
pub fn client_config_even_without_roots() -> Arc<ClientConfig> {
    TRUST.config.clone()
}

fn load() -> Trust {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = rustls::RootCertStore::empty();
    // Unparseable certificates are skipped, as OpenSSL skips them.
    let (added, _skipped) = roots.add_parsable_certificates(found.certs);
    let looked_in = match (
        std::env::var_os("SSL_CERT_FILE"),
        std::env::var_os("SSL_CERT_DIR"),
    ) {
        (None, None) => "the system store".to_string(),
        (file, dir) => {
            let mut parts = Vec::new();
            if let Some(f) = file {
                parts.push(format!("SSL_CERT_FILE={}", f.to_string_lossy()));
            }
            if let Some(d) = dir {
                parts.push(format!("SSL_CERT_DIR={}", d.to_string_lossy()));
            }
            parts.join(", ")
        }
    };
    Trust {
        config: trusting(roots),
        roots: added,
        looked_in,
    }
}

/// This module's configuration (rustls on `ring`, safe default versions, no client
/// certificate) over `roots`. The runner's requests only ever get the one built from the
/// machine's store ([`client_config`]); tests build clients of their own servers with it.
pub fn trusting(roots: rustls::RootCertStore) -> Arc<ClientConfig> {
    // The ring provider supports the safe default versions: this cannot fail.
    let config = ClientConfig::builder_with_provider(Arc::new(ring()))
        .with_safe_default_protocol_versions()
        .expect("the ring provider supports TLS 1.2 and 1.3")
        .with_root_certificates(roots)
        .with_no_client_auth();
    Arc::new(config)
}

static ACCEPTING: LazyLock<Arc<ClientConfig>> = LazyLock::new(|| {
    let provider = Arc::new(ring());
    let verifier = AcceptAnyCertificate(provider.signature_verification_algorithms);
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("the ring provider supports TLS 1.2 and 1.3")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Arc::new(config)
});

/// The configuration of [`CertificateCheck::Ignored`]: any certificate chain under any name is
/// accepted. Used for exactly two things, each only when its block says
/// `ignore_https_errors = true`: a scenario's `request` steps and the project's dev-server
/// readiness probe. Never for the Grid, providers or anything else the runner sends.
fn accepting_any() -> Arc<ClientConfig> {
    ACCEPTING.clone()
}

/// A verifier that skips the chain and name check but still checks the handshake's signatures
/// with the provider's algorithms: the server must hold the key of the certificate it presents,
/// so a broken or tampered handshake still fails.
#[derive(Debug)]
struct AcceptAnyCertificate(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for AcceptAnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// Make `ring` the process's default rustls provider, once, at the binary's start. Why: code in
/// the process that builds its own rustls configuration asks for the process default —
/// async-tungstenite opening a Grid's `wss://` CDP endpoint, and any reqwest client not given
/// this module's configuration, which (built without a provider of its own) panics when there
/// is none. A second call changes nothing.
pub fn install_process_default() {
    let _ = ring().install_default();
}

fn ring() -> rustls::crypto::CryptoProvider {
    // Deprecated only for lacking post-quantum key exchange, which needs aws-lc-rs (a C build);
    // provider/src/transport.rs makes the same choice.
    #[allow(deprecated)]
    rustls::crypto::ring::default_provider()
}

/// Whether a failed handshake refused the server's certificate (as against a connection that
/// closed or broke during it): a refusal stays one on every later attempt at that server.
pub fn is_certificate_refusal(error: &std::io::Error) -> bool {
    matches!(
        error
            .get_ref()
            .and_then(|e| e.downcast_ref::<rustls::Error>()),
        Some(rustls::Error::InvalidCertificate(_))
    )
}

/// Why a TLS handshake failed, in words a user can act on; `host` is the name that was checked.
pub fn describe(error: &std::io::Error, host: &str) -> String {
    use rustls::CertificateError as C;
    let inner = error
        .get_ref()
        .and_then(|e| e.downcast_ref::<rustls::Error>());
    match inner {
        Some(rustls::Error::InvalidCertificate(C::UnknownIssuer)) => format!(
            "the certificate of {host} is not signed by a root this machine trusts (unknown \
             issuer); add its CA to the system store, or set SSL_CERT_FILE to a PEM file that \
             holds it"
        ),
        Some(rustls::Error::InvalidCertificate(
            C::NotValidForName | C::NotValidForNameContext { .. },
        )) => format!("the certificate is not valid for the name {host} (name mismatch)"),
        Some(rejected @ rustls::Error::InvalidCertificate(_)) => {
            format!("the certificate of {host} was rejected: {rejected}")
        }
        Some(other) => format!("the TLS handshake with {host} failed: {other}"),
        None => format!("the TLS handshake with {host} failed: {error}"),
    }
}
