//! A real loopback HTTPS server for the transport tests: rustls on the server side with a
//! certificate from `tests/fixtures/tls/` (made by `make.sh` there), answering every request with
//! fixed bytes. What it received is recorded like [`super::serve`]'s; a connection whose
//! handshake the client broke off is counted but records no request.

use super::{read_request, write_and_linger, Received, Server};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;

/// The test root, the server certificates and their key, as committed.
pub const ROOT: &[u8] = include_bytes!("../fixtures/tls/root.pem");
pub const LOCALHOST: &[u8] = include_bytes!("../fixtures/tls/localhost.pem");
pub const OTHER_NAME: &[u8] = include_bytes!("../fixtures/tls/other-name.pem");
pub const STRANGER: &[u8] = include_bytes!("../fixtures/tls/stranger.pem");
const KEY: &[u8] = include_bytes!("../fixtures/tls/server.key");

/// ring, the one crypto provider the transport builds with.
#[allow(deprecated)]
fn ring() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A root store holding the test root alone: what the client trusts in these tests.
pub fn test_roots() -> rustls::RootCertStore {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(ROOT).expect("the test root is PEM"))
        .expect("the test root is a CA certificate");
    roots
}

/// An HTTPS server on `127.0.0.1:0` presenting `certificate` (one of the constants above) and
/// answering every request with `answer` (see [`super::response`]).
pub async fn serve_tls(certificate: &[u8], answer: Vec<u8>) -> Server {
    let chain = vec![CertificateDer::from_pem_slice(certificate).expect("a PEM certificate")];
    let key = PrivateKeyDer::from_pem_slice(KEY).expect("a PEM key");
    let config = rustls::ServerConfig::builder_with_provider(ring())
        .with_safe_default_protocol_versions()
        .expect("ring supports the default TLS versions")
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .expect("the key matches the certificate");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let received: Arc<Mutex<Vec<Received>>> = Arc::new(Mutex::new(Vec::new()));
    let connections = Arc::new(Mutex::new(0));
    let (r, c) = (received.clone(), connections.clone());
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            *c.lock().unwrap() += 1;
            let (r, acceptor, answer) = (r.clone(), acceptor.clone(), answer.clone());
            tokio::spawn(async move {
                let Ok(mut stream) = acceptor.accept(stream).await else {
                    return;
                };
                let Some(request) = read_request(&mut stream).await else {
                    return;
                };
                r.lock().unwrap().push(request);
                write_and_linger(&mut stream, &answer).await;
            });
        }
    });
    Server {
        addr,
        received,
        connections,
    }
}
