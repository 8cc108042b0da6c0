//! Time as the server sees it: milliseconds since the Unix epoch from an injectable clock, and
//! sleeping until a moment of that clock. Tests use [`TestClock`] and move time by hand.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// A source of time for clocks, timers and records.
pub trait Clock: Send + Sync + 'static {
    /// Now, in milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
    /// A future that completes once `now_ms() >= at_ms`.
    fn sleep_until(&self, at_ms: i64) -> Pin<Box<dyn Future<Output = ()> + Send + 'static>>;
}

/// A shared clock.
pub type SharedClock = Arc<dyn Clock>;

/// The real clock (system time, tokio timers).
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }
    fn sleep_until(&self, at_ms: i64) -> Pin<Box<dyn Future<Output = ()> + Send + 'static>> {
        let wait = (at_ms - self.now_ms()).max(0) as u64;
        Box::pin(tokio::time::sleep(Duration::from_millis(wait)))
    }
}

/// A clock that only moves when told to ([`TestClock::advance`]); timers fire as it passes them.
#[derive(Debug, Clone)]
pub struct TestClock {
    now: Arc<watch::Sender<i64>>,
}

impl TestClock {
    /// A test clock standing at `start_ms`.
    pub fn new(start_ms: i64) -> TestClock {
        TestClock {
            now: Arc::new(watch::channel(start_ms).0),
        }
    }
    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: i64) {
        self.now.send_modify(|t| *t += ms);
    }
}

impl Clock for TestClock {
    fn now_ms(&self) -> i64 {
        *self.now.borrow()
    }
    fn sleep_until(&self, at_ms: i64) -> Pin<Box<dyn Future<Output = ()> + Send + 'static>> {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as the TestClock; if it is gone, never wake.
            if rx.wait_for(|t| *t >= at_ms).await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn test_clock_wakes_sleepers_only_when_advanced_past_them() {
        let c = TestClock::new(1000);
        let mut sleep = c.sleep_until(1500);
        assert!(futures_util::poll!(&mut sleep).is_pending());
        c.advance(499);
        assert!(futures_util::poll!(&mut sleep).is_pending());
        c.advance(1);
        sleep.await;
        assert_eq!(c.now_ms(), 1500);
    }
}
