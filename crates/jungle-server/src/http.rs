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
use std::time::{Duration, Instant};
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
    let mut accept_errors = LogLimiter::new(ACCEPT_ERROR_LOG_EVERY);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(s) => s,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was accepted: the
                    // server goes on (after a pause, so that a full table has time to drain).
                    // Said once, then at most every few seconds with a count of the others.
                    if let Some(suppressed) = accept_errors.hit(Instant::now()) {
                        tracing::warn!(
                            error = %e, suppressed,
                            "could not accept a connection"
                        );
                    }
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

/// How often, at most, the accept loop logs that it could not accept a connection (out of file
/// descriptors, it fails every 100 ms).
pub const ACCEPT_ERROR_LOG_EVERY: Duration = Duration::from_secs(10);

/// Rate-limits a warning that may repeat many times a second: the first is logged, then at most
/// one per period, which says how many were left out since the last one logged.
#[derive(Debug, Clone)]
pub struct LogLimiter {
    every: Duration,
    last: Option<Instant>,
    suppressed: u64,
}

impl LogLimiter {
    /// Logs at most one warning per `every`.
    pub fn new(every: Duration) -> LogLimiter {
        LogLimiter {
            every,
            last: None,
            suppressed: 0,
        }
    }

    /// The warning happened again at `now`: `Some(n)` if it is to be logged, `n` being how many
    /// were left out since the last one logged; None if it is to be left out (and counted).
    pub fn hit(&mut self, now: Instant) -> Option<u64> {
        match self.last {
            Some(last) if now.saturating_duration_since(last) < self.every => {
                self.suppressed += 1;
                None
            }
            _ => {
                self.last = Some(now);
                Some(std::mem::take(&mut self.suppressed))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_warning_is_logged_once_per_period_with_the_count_left_out() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut l = LogLimiter::new(Duration::from_secs(10));
        // The first is logged at once, with none left out.
        assert_eq!(l.hit(at(0)), Some(0));
        // Every 100 ms for 10 s: left out, counted.
        for i in 1..100 {
            assert_eq!(l.hit(at(i * 100)), None, "at {} ms", i * 100);
        }
        // 10 s after the last one logged: logged, with the 99 left out.
        assert_eq!(l.hit(at(10_000)), Some(99));
        assert_eq!(l.hit(at(10_100)), None);
        assert_eq!(l.hit(at(19_999)), None);
        assert_eq!(l.hit(at(20_000)), Some(2));
        // After a quiet spell, the next one is logged at once again.
        assert_eq!(l.hit(at(60_000)), Some(0));
        assert_eq!(l.hit(at(60_001)), None);
    }
}
