//! How a reference provider's process starts serving: the same for every kind, so it is written
//! once here rather than in each binary under `providers/`.
//!
//! Why it lives in the boundary crate: the transport sends plaintext only to loopback
//! ([`crate::transport`]), so a provider that speaks plain HTTP must refuse to listen anywhere
//! else; and the tests that spawn a provider read its first line, `listening on ADDRESS`, to learn
//! the port `--listen 127.0.0.1:0` picked. Both rules belong to the protocol, not to one provider.

use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

/// Serves `serve(listener)` on `listen` until it returns: refuses a non-loopback address (exit 2),
/// prints `listening on ADDRESS` first, and with `stop_on_eof` ends the process when standard
/// input closes (so a provider dies with the process that started it). `program` names the
/// binary in its error lines.
pub fn listen_and_serve<F, Fut>(
    program: &str,
    listen: SocketAddr,
    stop_on_eof: bool,
    serve: F,
) -> ExitCode
where
    F: FnOnce(tokio::net::TcpListener) -> Fut,
    Fut: Future<Output = std::io::Result<()>>,
{
    if !listen.ip().is_loopback() {
        eprintln!(
            "{program}: --listen {listen} is not a loopback address; the protocol is plaintext, \
             so a provider listens on 127.0.0.1 or [::1] only"
        );
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("{program}: failed to start a runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let served = runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(listen).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("{program}: cannot listen on {listen}: {e}");
                return ExitCode::from(2);
            }
        };
        let announced = listener.local_addr().and_then(|bound| {
            let mut out = std::io::stdout();
            writeln!(out, "listening on {bound}")?;
            out.flush()
        });
        if let Err(e) = announced {
            eprintln!("{program}: {e}");
            return ExitCode::from(1);
        }
        if stop_on_eof {
            std::thread::spawn(|| {
                let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
                std::process::exit(0);
            });
        }
        match serve(listener).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{program}: {e}");
                ExitCode::from(1)
            }
        }
    });
    served
}
