//! Per-address limits: open WebSockets, account requests and analysis requests, and the
//! per-connection message rate (token buckets on the injected clock); the size of HTTP bodies.
//!
//! A limit that refuses a request says which it is ([`Refusal`]): the 429 `rate_limited` answer
//! names the limit and, for a limit per minute, says in `Retry-After` when to ask again.
//! Refusals are logged at most once per [`REFUSAL_LOG_EVERY`] and limit, with a count of the
//! others.

use crate::clock::SharedClock;
use crate::http::LogLimiter;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The largest HTTP request body accepted (bigger ones are answered 413 `too_large`).
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// Answers 413 `too_large` at once, before reading the body, a request whose `Content-Length`
/// declares more than [`MAX_BODY_BYTES`]: without this, a client that declares a huge body and
/// sends none of it would hold its connection until the request timeout (408). A body that is
/// not declared (chunked) is still cut at the limit as it is read (`DefaultBodyLimit`).
pub async fn declared_body_limit(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            [(header::CONNECTION, HeaderValue::from_static("close"))],
            axum::Json(serde_json::json!({"error": {
                "code": "too_large",
                "message": format!("request bodies are limited to {} KiB", MAX_BODY_BYTES / 1024),
            }})),
        )
            .into_response();
    }
    next.run(req).await
}

/// The client's address (unspecified when the server runs without connect info, as in tests
/// that call the router directly).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
        ))
    }
}

/// A token bucket: `rate` tokens per `per_ms`, holding at most `rate`.
#[derive(Debug, Clone)]
pub struct Bucket {
    tokens: f64,
    last_ms: i64,
    rate: f64,
    per_ms: f64,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: u32, per_ms: i64, now: i64) -> Bucket {
        Bucket {
            tokens: f64::from(rate),
            last_ms: now,
            rate: f64::from(rate),
            per_ms: per_ms as f64,
        }
    }

    /// How many ms after its last [`Bucket::take`] the bucket holds a token again (0 if it
    /// holds one now), to the nearest ms.
    pub fn wait_ms(&self) -> i64 {
        if self.tokens >= 1.0 {
            0
        } else {
            // To the nearest ms: 20 s is not to read 20.000000001 s.
            ((1.0 - self.tokens) * self.per_ms / self.rate).round() as i64
        }
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, now: i64) -> bool {
        let dt = (now - self.last_ms).max(0) as f64;
        self.last_ms = now;
        self.tokens = (self.tokens + dt * self.rate / self.per_ms).min(self.rate);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket is full at `now` (it then remembers nothing worth keeping).
    fn is_full(&self, now: i64) -> bool {
        let dt = (now - self.last_ms).max(0) as f64;
        self.tokens + dt * self.rate / self.per_ms >= self.rate
    }
}

/// The kinds of HTTP request limited per address and minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// `guest`, `register`, `login`, `password`.
    Account,
    /// `POST /api/analyze` (each is an engine search).
    Analysis,
}

/// Which limit refused a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Requests of `kind` from one address: at most `per_min` a minute; the next one is allowed
    /// in `retry_after_s` seconds.
    PerMinute {
        /// The kind of request.
        kind: Request,
        /// The limit.
        per_min: u32,
        /// Seconds until the next request of this kind is allowed (at least 1).
        retry_after_s: u64,
    },
    /// Open WebSockets from one address: at most `max`.
    Sockets {
        /// The limit.
        max: usize,
    },
}

impl Refusal {
    /// The English message of the 429 answer: which limit, and how much it allows.
    pub fn message(&self) -> String {
        match *self {
            Refusal::PerMinute { kind, per_min, .. } => format!(
                "too many {} requests from this address: at most {per_min} a minute",
                match kind {
                    Request::Account => "account",
                    Request::Analysis => "analysis",
                }
            ),
            Refusal::Sockets { max } => {
                format!("too many open connections from this address: at most {max}")
            }
        }
    }

    /// The `Retry-After` of the answer, in seconds: for a limit per minute only (an open socket
    /// is freed when its client closes it, not after a time).
    pub fn retry_after_s(&self) -> Option<u64> {
        match *self {
            Refusal::PerMinute { retry_after_s, .. } => Some(retry_after_s),
            Refusal::Sockets { .. } => None,
        }
    }

    /// Its index among the refusal log limiters.
    fn log_slot(&self) -> usize {
        match self {
            Refusal::PerMinute { kind, .. } => *kind as usize,
            Refusal::Sockets { .. } => 2,
        }
    }
}

/// How often, at most, the refusals of one limit are logged (a client flooding the server is
/// refused many times a second).
pub const REFUSAL_LOG_EVERY: Duration = Duration::from_secs(10);

#[derive(Default)]
struct PerAddr {
    sockets: usize,
    buckets: [Option<Bucket>; 2],
}

impl PerAddr {
    fn forgettable(&self, now: i64) -> bool {
        self.sockets == 0 && self.buckets.iter().flatten().all(|b| b.is_full(now))
    }
}

/// Above this many addresses, those with no open socket and full buckets are forgotten (and
/// then again each time the number has doubled since, so that a busy server does not scan them
/// on every request).
const PRUNE_ABOVE: usize = 4096;

/// Limits per client address.
pub struct AddrLimits {
    per_min: [u32; 2],
    clock: SharedClock,
    table: Mutex<Table>,
    /// The refusal warnings of each limit (account, analysis, sockets).
    log: Mutex<[LogLimiter; 3]>,
}

/// The addresses, and the size at which they are next pruned.
struct Table {
    addrs: HashMap<IpAddr, PerAddr>,
    prune_at: usize,
}

impl AddrLimits {
    /// Limits allowing `auth_per_min` account requests and `analyses_per_min` analysis requests
    /// per address per minute (0 = unlimited).
    pub fn new(auth_per_min: u32, analyses_per_min: u32, clock: SharedClock) -> AddrLimits {
        AddrLimits {
            per_min: [auth_per_min, analyses_per_min],
            clock,
            table: Mutex::new(Table {
                addrs: HashMap::new(),
                prune_at: PRUNE_ABOVE,
            }),
            log: Mutex::new(std::array::from_fn(|_| LogLimiter::new(REFUSAL_LOG_EVERY))),
        }
    }

    /// `refusal` refused a request from `ip`: logs it (throttled: see [`REFUSAL_LOG_EVERY`]) and
    /// returns it.
    fn refused(&self, refusal: Refusal, ip: IpAddr) -> Result<(), Refusal> {
        let logged = self.log.lock().unwrap_or_else(|e| e.into_inner())[refusal.log_slot()]
            .hit(Instant::now());
        if let Some(suppressed) = logged {
            tracing::warn!(
                %ip, suppressed,
                "refused: {}", refusal.message()
            );
        }
        Err(refusal)
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a request of `kind` from `ip` may go ahead now; else the limit that refuses it.
    pub fn allow(&self, kind: Request, ip: IpAddr) -> Result<(), Refusal> {
        let k = kind as usize;
        let per_min = self.per_min[k];
        if per_min == 0 {
            return Ok(());
        }
        let now = self.clock.now_ms();
        let mut t = self.table();
        if t.addrs.len() > t.prune_at {
            t.addrs.retain(|_, e| !e.forgettable(now));
            t.prune_at = PRUNE_ABOVE.max(2 * t.addrs.len());
        }
        let bucket = t.addrs.entry(ip).or_default().buckets[k]
            .get_or_insert_with(|| Bucket::new(per_min, 60_000, now));
        if bucket.take(now) {
            return Ok(());
        }
        let retry_after_s = (bucket.wait_ms().max(1) as u64).div_ceil(1000);
        drop(t);
        self.refused(
            Refusal::PerMinute {
                kind,
                per_min,
                retry_after_s,
            },
            ip,
        )
    }

    /// The number of addresses remembered.
    #[cfg(test)]
    fn addresses(&self) -> usize {
        self.table().addrs.len()
    }

    /// Counts a new WebSocket from `ip`; refused (and not counted) when it has `max` already
    /// (`max` 0 = unlimited).
    pub fn open_socket(&self, ip: IpAddr, max: usize) -> Result<(), Refusal> {
        let mut t = self.table();
        let e = t.addrs.entry(ip).or_default();
        if max > 0 && e.sockets >= max {
            drop(t);
            return self.refused(Refusal::Sockets { max }, ip);
        }
        e.sockets += 1;
        Ok(())
    }

    /// A WebSocket from `ip` closed.
    pub fn close_socket(&self, ip: IpAddr) {
        let mut t = self.table();
        if let Some(e) = t.addrs.get_mut(&ip) {
            e.sockets = e.sockets.saturating_sub(1);
            if e.sockets == 0 && e.buckets.iter().all(Option::is_none) {
                t.addrs.remove(&ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_refills_with_time() {
        let mut b = Bucket::new(2, 1000, 0);
        assert!(b.take(0));
        assert!(b.take(0));
        assert!(!b.take(0));
        assert!(!b.take(400));
        assert!(b.take(500));
        assert!(!b.is_full(500));
        assert!(b.is_full(1500));
    }

    #[test]
    fn an_empty_bucket_says_when_it_holds_a_token_again() {
        let mut b = Bucket::new(3, 60_000, 0);
        assert_eq!(b.wait_ms(), 0);
        assert!(b.take(0) && b.take(0) && b.take(0));
        assert!(!b.take(0));
        assert_eq!(b.wait_ms(), 20_000);
        assert!(!b.take(5_000));
        assert_eq!(b.wait_ms(), 15_000);
    }

    #[test]
    fn refusals_say_which_limit_and_when_to_ask_again() {
        let clock = crate::clock::TestClock::new(0);
        let limits = AddrLimits::new(2, 0, std::sync::Arc::new(clock.clone()));
        let ip = IpAddr::V4(Ipv4Addr::LOCALHOST);
        assert_eq!(limits.allow(Request::Account, ip), Ok(()));
        assert_eq!(limits.allow(Request::Account, ip), Ok(()));
        let refusal = limits.allow(Request::Account, ip).unwrap_err();
        assert_eq!(
            refusal,
            Refusal::PerMinute {
                kind: Request::Account,
                per_min: 2,
                retry_after_s: 30
            }
        );
        assert_eq!(
            refusal.message(),
            "too many account requests from this address: at most 2 a minute"
        );
        assert_eq!(refusal.retry_after_s(), Some(30));
        assert_eq!(limits.open_socket(ip, 1), Ok(()));
        let refusal = limits.open_socket(ip, 1).unwrap_err();
        assert_eq!(refusal, Refusal::Sockets { max: 1 });
        assert_eq!(refusal.retry_after_s(), None);
    }

    #[test]
    fn kinds_have_their_own_buckets_and_idle_addresses_are_forgotten() {
        let clock = crate::clock::TestClock::new(0);
        let limits = AddrLimits::new(1, 2, std::sync::Arc::new(clock.clone()));
        let ip = |n: u32| IpAddr::V4(Ipv4Addr::from(n));
        assert!(limits.allow(Request::Account, ip(1)).is_ok());
        assert!(limits.allow(Request::Account, ip(1)).is_err());
        assert!(limits.allow(Request::Analysis, ip(1)).is_ok());
        assert!(limits.allow(Request::Analysis, ip(1)).is_ok());
        assert!(limits.allow(Request::Analysis, ip(1)).is_err());
        assert!(limits.allow(Request::Account, ip(2)).is_ok(), "per address");
        assert!(limits.open_socket(ip(3), 1).is_ok());
        // Fill the table up to the pruning threshold.
        for n in 10..(PRUNE_ABOVE as u32 + 7) {
            assert!(limits.allow(Request::Analysis, ip(n)).is_ok());
        }
        assert_eq!(limits.addresses(), PRUNE_ABOVE);
        // A minute later the buckets are full again. The next address goes past the threshold
        // and the one after it makes the table forget every address with no open socket and full
        // buckets: only the open socket's and those that asked since are remembered.
        clock.advance(60_000);
        assert!(limits.allow(Request::Account, ip(1)).is_ok());
        assert!(limits.allow(Request::Analysis, ip(100_000)).is_ok());
        assert_eq!(limits.addresses(), PRUNE_ABOVE + 1);
        assert!(limits.allow(Request::Analysis, ip(100_001)).is_ok());
        assert_eq!(limits.addresses(), 4);
        assert!(
            limits.open_socket(ip(3), 1).is_err(),
            "its socket is still counted"
        );
        assert!(
            (0..100).all(|_| limits.open_socket(ip(4), 0).is_ok()),
            "0 is no limit"
        );
    }
}
