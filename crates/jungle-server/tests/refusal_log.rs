//! Refusals by the per-address limits are logged, but a flood of them is not: one line per
//! limit and period. (A test binary of its own: it sets the process's log subscriber.)

use jungle_server::clock::TestClock;
use jungle_server::limits::{AddrLimits, Request};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};

/// A log writer into a shared buffer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_flood_of_refusals_is_logged_once_per_period_and_limit() {
    let log = Captured::default();
    let writer = log.clone();
    tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .init();
    let limits = AddrLimits::new(1, 1, Arc::new(TestClock::new(0)));
    let ip = IpAddr::V4(Ipv4Addr::LOCALHOST);
    assert!(limits.open_socket(ip, 1).is_ok());
    for _ in 0..1000 {
        let _ = limits.allow(Request::Account, ip);
        let _ = limits.allow(Request::Analysis, ip);
        let _ = limits.open_socket(ip, 1);
    }
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The first refusal of each limit, none of the 999 others (within 10 s).
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines.iter().all(|l| l.contains("WARN")), "{text}");
    for words in [
        "too many account requests from this address: at most 1 a minute",
        "too many analysis requests from this address: at most 1 a minute",
        "too many open connections from this address: at most 1",
    ] {
        assert_eq!(
            lines.iter().filter(|l| l.contains(words)).count(),
            1,
            "{text}"
        );
    }
}
