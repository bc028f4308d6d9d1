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
//! `SSL_CERT_FILE`. Server names are always verified (IP-literal hosts as IP addresses); there is
//! no option to turn verification off. The crypto is rustls' `ring` provider (no C build).

use rustls::ClientConfig;
use std::sync::{Arc, LazyLock};

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
