//! Environment proxies are ignored: with `HTTP_PROXY`, `HTTPS_PROXY` and `ALL_PROXY` (both
//! cases) pointing at a listening socket, a provider call reaches the provider directly and the
//! proxy sees no connection. Its own test binary, because it changes the process environment.

mod common;

use a3s_test_provider::grounding::Grounding;
use a3s_test_provider::{HttpProvider, ProviderCode};
use common::*;

#[tokio::test]
async fn environment_proxies_receive_nothing() {
    // A proxy that is used receives a connection, and then never answers: the call would time
    // out instead of reaching the provider.
    let proxy = Untouched::bind("127.0.0.1:0");
    let proxy_url = format!("http://{}", proxy.addr);
    for name in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        // SAFETY of the test: this binary's only test sets them before any other thread reads
        // the environment.
        std::env::set_var(name, &proxy_url);
    }
    std::env::remove_var("NO_PROXY");
    std::env::remove_var("no_proxy");

    let provider = serve(json(success())).await;
    let p = HttpProvider::from_env(&config(&provider.url("/ground"))).unwrap();
    p.call::<Grounding>(&request())
        .await
        .expect("advice, directly");
    assert_eq!(provider.received().len(), 1);
    assert!(!proxy.touched(), "the proxy received the plaintext call");

    // An HTTPS endpoint is not sent through the proxy either (the direct handshake fails here,
    // against a plaintext server, which is the point: it went direct).
    let endpoint = format!("https://127.0.0.1:{}/ground", provider.addr.port());
    let err = HttpProvider::from_env(&config(&endpoint))
        .unwrap()
        .call::<Grounding>(&request())
        .await
        .unwrap_err();
    assert_eq!(err.code, ProviderCode::Tls, "{err}");
    assert!(!proxy.touched(), "the proxy received a connection");

    // And a completed HTTPS call went direct too: the answer came from the provider.
    let tls = common::tls::serve_tls(common::tls::LOCALHOST, json_response(&success())).await;
    let endpoint = format!("https://localhost:{}/ground", tls.addr.port());
    HttpProvider::with_test_roots(&config(&endpoint), |_| None, common::tls::test_roots())
        .unwrap()
        .call::<Grounding>(&request())
        .await
        .expect("advice over HTTPS, directly");
    assert_eq!(tls.received().len(), 1);
    assert!(!proxy.touched(), "the proxy received the HTTPS call");
}
