//! The HTTP layer's limits and headers: bodies declared too big, the answers of each rate limit,
//! the anti-framing headers, and client text repeated in WebSocket errors.

mod common;

use common::{test_config, TestServer};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// An answer read off a raw connection.
struct Raw {
    status: u16,
    /// Header names in lower case.
    headers: HashMap<String, String>,
    body: String,
}

impl Raw {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// Sends `request` as it is and reads one answer (its head, then `Content-Length` bytes of body),
/// waiting 10 s at most: the connection may stay open afterwards.
async fn raw(addr: SocketAddr, request: &[u8]) -> Raw {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    let read = async {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            let n = s.read(&mut chunk).await.unwrap_or(0);
            buf.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&buf).to_string();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .filter_map(|l| l.split_once(':'))
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
                    .and_then(|(_, v)| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                if body.len() >= length || n == 0 {
                    return text;
                }
            }
            if n == 0 {
                return text;
            }
        }
    };
    let text = tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("answered within 10 s");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Raw {
        status,
        headers,
        body: body.to_string(),
    }
}

/// A `GET` (with the session `token` if any) or a `POST` with a JSON body.
async fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Raw {
    let body = body.map(Value::to_string).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, req.as_bytes()).await
}

/// A WebSocket upgrade request of the session `token`.
async fn upgrade(addr: SocketAddr, token: &str) -> Raw {
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nCookie: jungle_session={token}\r\n\r\n"
    );
    raw(addr, req.as_bytes()).await
}

#[tokio::test]
async fn a_body_declared_over_the_limit_is_refused_before_it_comes() {
    let dir = tmp();
    // The default request timeout (60 s): the answer must not wait for it.
    let srv = TestServer::start(dir.path()).await;
    for path in ["/api/login", "/api/analyze", "/nosuchpage"] {
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{{"
        );
        let a = raw(srv.addr, req.as_bytes()).await;
        assert_eq!(a.status, 413, "{path}: {}", a.body);
        let e = &a.json()["error"];
        assert_eq!(e["code"], "too_large", "{path}: {}", a.body);
        assert!(
            e["message"].as_str().unwrap().contains("16 KiB"),
            "{path}: {e}"
        );
    }
    // A body within the limit is still read and answered.
    let a = request(srv.addr, "POST", "/api/guest", None).await;
    assert_eq!(a.status, 200, "{}", a.body);
}

#[tokio::test]
async fn each_rate_limit_names_itself_and_says_when_to_retry() {
    let dir = tmp();
    let mut config = test_config();
    config.auth_per_ip_per_min = 3;
    config.analyses_per_ip_per_min = 2;
    config.max_ws_per_ip = 1;
    let srv = TestServer::start_with(dir.path(), config).await;
    // Account requests: 3 a minute, one every 20 s.
    let mut token = String::new();
    for _ in 0..3 {
        let a = srv.post("/api/guest", None, None).await;
        assert_eq!(a.status, 200);
        token = a.session.unwrap();
    }
    let a = request(srv.addr, "POST", "/api/guest", None).await;
    assert_eq!(a.status, 429);
    let e = &a.json()["error"];
    assert_eq!(e["code"], "rate_limited");
    assert_eq!(
        e["message"],
        "too many account requests from this address: at most 3 a minute"
    );
    assert_eq!(a.headers.get("retry-after").map(String::as_str), Some("20"));
    // Analyses: 2 a minute, one every 30 s (the test clock stands still).
    let body = json!({"ms": 10});
    for _ in 0..2 {
        let a = request(srv.addr, "POST", "/api/analyze", Some(&body)).await;
        assert_eq!(a.status, 200, "{}", a.body);
    }
    let a = request(srv.addr, "POST", "/api/analyze", Some(&body)).await;
    assert_eq!(a.status, 429);
    let e = &a.json()["error"];
    assert_eq!(e["code"], "rate_limited");
    assert_eq!(
        e["message"],
        "too many analysis requests from this address: at most 2 a minute"
    );
    assert_eq!(a.headers.get("retry-after").map(String::as_str), Some("30"));
    // 10 s later, 20 s are left.
    srv.clock.advance(10_000);
    let a = request(srv.addr, "POST", "/api/analyze", Some(&body)).await;
    assert_eq!(a.status, 429);
    assert_eq!(a.headers.get("retry-after").map(String::as_str), Some("20"));
    // Open WebSockets: 1 per address. Waiting does not help: no `Retry-After`.
    let first = jungle_server::client::WsClient::connect(srv.addr, &token, None)
        .await
        .unwrap();
    let a = upgrade(srv.addr, &token).await;
    assert_eq!(a.status, 429, "{}", a.body);
    let e = &a.json()["error"];
    assert_eq!(e["code"], "rate_limited");
    assert_eq!(
        e["message"],
        "too many open connections from this address: at most 1"
    );
    assert_eq!(a.headers.get("retry-after"), None);
    first.close().await;
}

#[tokio::test]
async fn every_answer_forbids_framing_and_content_sniffing() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let answers = [
        ("GET", "/"),
        ("GET", "/index.html"),
        ("GET", "/messages.json"),
        ("GET", "/api/health"),
        ("GET", "/api/presets"),
        ("GET", "/api/games/nosuch"),
        ("GET", "/nosuchpage"),
        ("GET", "/api/guest"),
        ("POST", "/api/guest"),
        ("POST", "/api/login"),
    ];
    for (method, path) in answers {
        let a = request(srv.addr, method, path, None).await;
        assert!(a.status != 0, "{method} {path}");
        let h = |name: &str| a.headers.get(name).map(String::as_str);
        assert_eq!(h("x-frame-options"), Some("DENY"), "{method} {path}");
        assert_eq!(
            h("content-security-policy"),
            Some("frame-ancestors 'none'"),
            "{method} {path}"
        );
        assert_eq!(
            h("x-content-type-options"),
            Some("nosniff"),
            "{method} {path}"
        );
    }
}

#[tokio::test]
async fn websocket_errors_repeat_client_text_cut_and_escaped() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    let game = p.start(json!({"t": "play_hotseat"})).await;
    // Whether `message` repeats no more than 80 characters of a run of `x`, `…` marking the cut,
    // and holds no raw NUL or U+202E.
    let check = |e: &Value, code: &str| {
        assert_eq!(e["code"], code, "{e}");
        let m = e["message"].as_str().unwrap();
        assert!(m.chars().count() < 400, "{} characters: {m}", m.len());
        assert!(!m.contains("x".repeat(81).as_str()), "{m}");
        assert!(!m.contains('\0') && !m.contains('\u{202e}'), "{m:?}");
        m.to_string()
    };
    // A move of 4,000 characters.
    let long = "x".repeat(4000);
    let e = p
        .expect_error(json!({"t": "move", "game": game, "ply": 0, "move": long}))
        .await;
    let m = check(&e, "illegal_move");
    assert!(m.contains(&format!("`{}…`", "x".repeat(80))), "{m}");
    // Control and bidi characters.
    let e = p
        .expect_error(json!({"t": "move", "game": game, "ply": 0, "move": "a\u{0}\u{202e}b"}))
        .await;
    let m = check(&e, "illegal_move");
    assert!(m.contains(r"`a\u{0}\u{202e}b`"), "{m}");
    // Unknown message types and fields, and a string where a number goes.
    let e = p.expect_error(json!({"t": long})).await;
    let m = check(&e, "bad_json");
    assert!(m.contains(&format!("`{}…`", "x".repeat(80))), "{m}");
    assert_eq!(e["re"].as_str().unwrap().chars().count(), 32);
    // `re`, the `t` sent, is escaped as the message is.
    let e = p.expect_error(json!({"t": "\u{1b}zz"})).await;
    check(&e, "bad_json");
    assert_eq!(e["re"], r"\u{1b}zz", "{e}");
    let e = p
        .expect_error(json!({"t": "ping", format!("k\u{202e}{long}"): 1}))
        .await;
    let m = check(&e, "bad_json");
    assert!(m.contains(r"`k\u{202e}x"), "{m}");
    let e = p
        .expect_error(
            json!({"t": "move", "game": game, "ply": format!("\u{0}{long}"), "move": "a1a2"}),
        )
        .await;
    check(&e, "bad_json");
    // Rules that cannot be read.
    let e = p
        .expect_error(json!({"t": "play_hotseat", "rules": format!("\u{202e}{long}")}))
        .await;
    let m = check(&e, "bad_request");
    assert!(m.contains(r"`\u{202e}x"), "{m}");
    // Nothing else changed: the game still takes moves.
    p.mv(&game, 0, "g3g4").await;
}
