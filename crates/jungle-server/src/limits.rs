//! Per-address limits: open WebSockets, account requests and analysis requests, and the
//! per-connection message rate (token buckets on the injected clock).

use crate::clock::SharedClock;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Mutex;

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
    /// `guest`, `register`, `login`.
    Account,
    /// `POST /api/analyze` (each is an engine search).
    Analysis,
}

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
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a request of `kind` from `ip` may go ahead now.
    pub fn allow(&self, kind: Request, ip: IpAddr) -> bool {
        let k = kind as usize;
        let per_min = self.per_min[k];
        if per_min == 0 {
            return true;
        }
        let now = self.clock.now_ms();
        let mut t = self.table();
        if t.addrs.len() > t.prune_at {
            t.addrs.retain(|_, e| !e.forgettable(now));
            t.prune_at = PRUNE_ABOVE.max(2 * t.addrs.len());
        }
        t.addrs.entry(ip).or_default().buckets[k]
            .get_or_insert_with(|| Bucket::new(per_min, 60_000, now))
            .take(now)
    }

    /// The number of addresses remembered.
    #[cfg(test)]
    fn addresses(&self) -> usize {
        self.table().addrs.len()
    }

    /// Counts a new WebSocket from `ip`; false (and not counted) when it has `max` already
    /// (`max` 0 = unlimited).
    pub fn open_socket(&self, ip: IpAddr, max: usize) -> bool {
        let mut t = self.table();
        let e = t.addrs.entry(ip).or_default();
        if max > 0 && e.sockets >= max {
            return false;
        }
        e.sockets += 1;
        true
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
    fn kinds_have_their_own_buckets_and_idle_addresses_are_forgotten() {
        let clock = crate::clock::TestClock::new(0);
        let limits = AddrLimits::new(1, 2, std::sync::Arc::new(clock.clone()));
        let ip = |n: u32| IpAddr::V4(Ipv4Addr::from(n));
        assert!(limits.allow(Request::Account, ip(1)));
        assert!(!limits.allow(Request::Account, ip(1)));
        assert!(limits.allow(Request::Analysis, ip(1)));
        assert!(limits.allow(Request::Analysis, ip(1)));
        assert!(!limits.allow(Request::Analysis, ip(1)));
        assert!(limits.allow(Request::Account, ip(2)), "per address");
        assert!(limits.open_socket(ip(3), 1));
        // Fill the table up to the pruning threshold.
        for n in 10..(PRUNE_ABOVE as u32 + 7) {
            assert!(limits.allow(Request::Analysis, ip(n)));
        }
        assert_eq!(limits.addresses(), PRUNE_ABOVE);
        // A minute later the buckets are full again. The next address goes past the threshold
        // and the one after it makes the table forget every address with no open socket and full
        // buckets: only the open socket's and those that asked since are remembered.
        clock.advance(60_000);
        assert!(limits.allow(Request::Account, ip(1)));
        assert!(limits.allow(Request::Analysis, ip(100_000)));
        assert_eq!(limits.addresses(), PRUNE_ABOVE + 1);
        assert!(limits.allow(Request::Analysis, ip(100_001)));
        assert_eq!(limits.addresses(), 4);
        assert!(!limits.open_socket(ip(3), 1), "its socket is still counted");
        assert!(
            (0..100).all(|_| limits.open_socket(ip(4), 0)),
            "0 is no limit"
        );
    }
}
