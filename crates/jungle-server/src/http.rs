//! The HTTP server loop: the app over hyper's HTTP/1.1, with `TCP_NODELAY`, each request's
//! peer address ([`ConnectInfo`]) and a deadline for request headers.
//!
//! `axum::serve` sets no timer, so a client could hold a connection forever by sending its
//! headers a byte a minute, or by opening connections and sending nothing ("slowloris"). Here a
//! connection must deliver each request's whole header within [`ServerConfig`]'s
//! `header_read_timeout` (30 s by default) of the server starting to wait for it — which also
//! closes keep-alive connections idle that long. A WebSocket, once upgraded, is no longer HTTP
//! and is not affected (its own pings and limits apply, see `ws.rs`).
//!
//! [`ServerConfig`]: crate::hub::ServerConfig

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::pin::pin;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt;

/// Serves `app` on `listener` until `shutdown` completes, then lets requests in progress finish
/// (connections that are idle close at once) and returns once every HTTP connection has closed,
/// or after [`SHUTDOWN_GRACE`].
pub async fn serve_http(
    listener: TcpListener,
    app: Router,
    header_read_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send,
) {
    // Dropped when shutting down: every connection task sees the channel close.
    let (stop_tx, stop_rx) = watch::channel(());
    // Every connection task holds a receiver; `closed()` resolves when the last one is gone.
    let (done_tx, done_rx) = watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(s) => s,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was accepted: the
                    // server goes on (after a pause, so that a full table has time to drain).
                    tracing::warn!(error = %e, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let app = app.clone();
        let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let mut req = req.map(Body::new);
            req.extensions_mut().insert(ConnectInfo(peer));
            app.clone().oneshot(req)
        });
        let mut stop = stop_rx.clone();
        let done = done_rx.clone();
        tokio::spawn(async move {
            let mut conn = pin!(http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades());
            let mut stopping = false;
            loop {
                tokio::select! {
                    res = conn.as_mut() => {
                        if let Err(e) = res {
                            tracing::trace!(error = %e, %peer, "connection ended");
                        }
                        break;
                    }
                    _ = stop.changed(), if !stopping => {
                        stopping = true;
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
            drop(done);
        });
    }
    drop(listener);
    drop(stop_tx);
    drop(done_rx);
    // A client in the middle of sending its headers is not waited for past the grace.
    if tokio::time::timeout(SHUTDOWN_GRACE, done_tx.closed())
        .await
        .is_err()
    {
        tracing::info!("closing connections still busy after the shutdown grace");
    }
}

/// How long a shutting-down server waits for requests in progress.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
