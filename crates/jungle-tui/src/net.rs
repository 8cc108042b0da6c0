//! The connection to a Jungle server: a session cookie from `POST /api/guest` or `/api/login`,
//! then the WebSocket at `/ws` with that cookie and an `Origin` equal to the server's URL
//! (`doc/protocol.md`, Server API). Plain `http://` only: the client has no TLS.

use crate::proto::ServerMsg;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

/// What can go wrong talking to the server.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The `--server` value is not a usable URL.
    #[error("server URL `{0}`: {1}")]
    Url(String, UrlProblem),
    /// The TCP connection or an HTTP exchange failed.
    #[error("cannot reach {0}: {1}")]
    Io(String, std::io::Error),
    /// The server answered, but not as the protocol says.
    #[error("{0}")]
    Protocol(String),
    /// The WebSocket handshake failed.
    #[error("WebSocket: {0}")]
    WebSocket(String),
    /// The server refused to sign in (a wrong name or password, too many attempts) or to open
    /// a guest session.
    #[error("sign-in refused ({status}): {message}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The error code of doc/protocol.md (`bad_login`, `rate_limited`, …; empty when the
        /// answer had none).
        code: String,
        /// The server's own words: one short line ([`short_line`]), empty where it said none.
        message: String,
        /// It was a new guest session that was refused, not a sign-in with a name.
        guest: bool,
    },
    /// The server answered, but not as a Jungle server does: another program listens at the
    /// address (its answer, an HTML page say, is not repeated).
    #[error("not a Jungle server (HTTP {status})")]
    NotJungle {
        /// The HTTP status of its answer.
        status: u16,
    },
    /// The server refused the WebSocket: this address has too many open (the limit of open
    /// connections per address, `--max-ws-per-ip`).
    #[error("too many open connections from this address")]
    TooManyConnections,
}

/// The longest server message repeated to the player, in characters.
const SHORT_LINE: usize = 120;

/// `text`'s first line, at most 120 characters (then `...`).
pub fn short_line(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= SHORT_LINE {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(SHORT_LINE - 3).collect();
    cut.push_str("...");
    cut
}

/// Why a `--server` value is not a usable URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UrlProblem {
    /// `https://` or `wss://`: the client has no TLS.
    #[error("https is not supported by the terminal client; use http://")]
    Https,
    /// Another scheme than `http://`.
    #[error("expected http://HOST:PORT")]
    Scheme,
    /// No host name.
    #[error("no host")]
    NoHost,
    /// A port that is not a number.
    #[error("the port is not a number")]
    Port,
}

/// A server address read from `--server`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerUrl {
    /// Host name or address.
    pub host: String,
    /// Port.
    pub port: u16,
}

impl ServerUrl {
    /// Reads `http://host[:port][/]` (the scheme may be left out).
    pub fn parse(url: &str) -> Result<ServerUrl, NetError> {
        let bad = |why: UrlProblem| NetError::Url(url.to_string(), why);
        let rest = if let Some(r) = url.strip_prefix("http://") {
            r
        } else if url.starts_with("https://") || url.starts_with("wss://") {
            return Err(bad(UrlProblem::Https));
        } else if url.contains("://") {
            return Err(bad(UrlProblem::Scheme));
        } else {
            url
        };
        let authority = rest.split('/').next().unwrap_or("");
        if authority.is_empty() {
            return Err(bad(UrlProblem::NoHost));
        }
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (
                h.to_string(),
                p.parse::<u16>().map_err(|_| bad(UrlProblem::Port))?,
            ),
            _ => (authority.to_string(), 80),
        };
        if host.is_empty() {
            return Err(bad(UrlProblem::NoHost));
        }
        Ok(ServerUrl { host, port })
    }

    /// The origin, `http://host:port`, sent as the `Origin` header.
    pub fn origin(&self) -> String {
        format!("http://{}", self.host_header())
    }

    /// The `Host` header: `host:port`, or `host` for port 80 (the server compares it with the
    /// origin).
    fn host_header(&self) -> String {
        if self.port == 80 {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    fn authority(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// An HTTP answer: status, headers (lowercase names) and body.
#[derive(Debug, Clone)]
pub struct HttpAnswer {
    /// Status code.
    pub status: u16,
    /// Headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
}

/// One HTTP/1.1 request with `Connection: close` (enough for the few calls the client makes).
pub fn http(
    url: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<HttpAnswer, NetError> {
    let io = |e| NetError::Io(url.origin(), e);
    let mut s = TcpStream::connect(url.authority()).map_err(io)?;
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(io)?;
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nOrigin: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        url.host_header(),
        url.origin(),
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(io)?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).map_err(io)?;
    parse_http(&raw)
}

/// Reads a raw HTTP/1.1 answer (plain or chunked body).
pub fn parse_http(raw: &[u8]) -> Result<HttpAnswer, NetError> {
    let bad = |why: &str| NetError::Protocol(format!("bad HTTP answer: {why}"));
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| bad("no status code"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    if chunked {
        body = dechunk(&body).ok_or_else(|| bad("broken chunked body"))?;
    }
    Ok(HttpAnswer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).to_string(),
    })
}

fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&b[..eol]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        b = &b[eol + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(b.get(..size)?);
        b = b.get(size + 2..)?;
    }
}

/// The `jungle_session` cookie set by an answer, as `jungle_session=VALUE`.
pub fn session_cookie(a: &HttpAnswer) -> Option<String> {
    a.headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .filter_map(|(_, v)| v.split(';').next())
        .map(str::trim)
        .find(|c| c.starts_with("jungle_session="))
        .map(str::to_string)
}

/// Signs in: as a new guest, or with a name and password. Returns the session cookie.
pub fn sign_in(url: &ServerUrl, login: Option<(&str, &str)>) -> Result<String, NetError> {
    let answer = match login {
        None => http(url, "POST", "/api/guest", None)?,
        Some((name, password)) => {
            let body = serde_json::json!({"name": name, "password": password}).to_string();
            http(url, "POST", "/api/login", Some(&body))?
        }
    };
    let not_jungle = || NetError::NotJungle {
        status: answer.status,
    };
    if answer.status != 200 {
        // A Jungle server refuses with `{"error": {"code", "message"}}` (doc/protocol.md);
        // anything else (a web server's HTML page, say) is another program's answer.
        let error = serde_json::from_str::<Value>(&answer.body)
            .ok()
            .and_then(|v| v.get("error").filter(|e| e.is_object()).cloned())
            .ok_or_else(not_jungle)?;
        let field = |name: &str| error[name].as_str().map(short_line).unwrap_or_default();
        return Err(NetError::Refused {
            status: answer.status,
            code: field("code"),
            message: field("message"),
            guest: login.is_none(),
        });
    }
    session_cookie(&answer).ok_or_else(not_jungle)
}

/// What the socket task reports to the app.
#[derive(Debug)]
pub enum SocketEvent {
    /// A message arrived.
    Message(ServerMsg),
    /// The connection ended (reason).
    Closed(String),
}

/// A live connection: send messages with [`Connection::send`]; incoming ones arrive on the
/// channel given to [`connect`].
pub struct Connection {
    out: tokio::sync::mpsc::UnboundedSender<Value>,
}

impl Connection {
    /// Queues a message for the server.
    pub fn send(&self, msg: Value) {
        // A closed connection has already been reported through `SocketEvent::Closed`.
        let _ = self.out.send(msg);
    }
}

/// Opens the WebSocket on a background thread; incoming messages go to `events` through `wrap`.
/// Returns once the handshake is done (or failed).
pub fn connect<E: Send + 'static>(
    url: &ServerUrl,
    cookie: &str,
    events: mpsc::Sender<E>,
    wrap: fn(SocketEvent) -> E,
) -> Result<Connection, NetError> {
    let mut req = format!("ws://{}/ws", url.host_header())
        .into_client_request()
        .map_err(|e| NetError::WebSocket(e.to_string()))?;
    let hv = |s: &str| HeaderValue::from_str(s).map_err(|e| NetError::WebSocket(e.to_string()));
    req.headers_mut().insert("Cookie", hv(cookie)?);
    req.headers_mut().insert("Origin", hv(&url.origin())?);
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<Value>();
    let (ready_tx, ready_rx) = mpsc::channel::<Result<(), NetError>>();
    std::thread::Builder::new()
        .name("jungle-socket".into())
        .spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(NetError::WebSocket(e.to_string())));
                    return;
                }
            };
            rt.block_on(async move {
                let handshake = tokio::time::timeout(
                    Duration::from_secs(10),
                    tokio_tungstenite::connect_async(req),
                );
                let ws = match handshake.await {
                    Ok(Ok((ws, _))) => ws,
                    Ok(Err(e)) => {
                        let e = match e {
                            tokio_tungstenite::tungstenite::Error::Http(r)
                                if r.status().as_u16() == 429 =>
                            {
                                NetError::TooManyConnections
                            }
                            e => NetError::WebSocket(e.to_string()),
                        };
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                    Err(_) => {
                        let _ = ready_tx.send(Err(NetError::WebSocket("no answer in 10 s".into())));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                let (mut sink, mut stream) = ws.split();
                let why = loop {
                    tokio::select! {
                        out = out_rx.recv() => match out {
                            Some(v) => {
                                if let Err(e) = sink.send(Message::text(v.to_string())).await {
                                    break e.to_string();
                                }
                            }
                            None => {
                                let _ = sink.close().await;
                                break "closed".to_string();
                            }
                        },
                        inc = stream.next() => match inc {
                            Some(Ok(Message::Text(t))) => {
                                let ev = match ServerMsg::parse(t.as_str()) {
                                    Ok(m) => SocketEvent::Message(m),
                                    Err(e) => SocketEvent::Message(ServerMsg::Error {
                                        // No catalogue text of its own: shown as "Something
                                        // went wrong: unreadable server message: …".
                                        code: "unreadable".into(),
                                        message: format!("unreadable server message: {e}"),
                                        re: None,
                                        why: None,
                                    }),
                                };
                                if events.send(wrap(ev)).is_err() {
                                    break "client ended".to_string();
                                }
                            }
                            Some(Ok(Message::Close(frame))) => {
                                break frame.map_or("closed by the server".to_string(), |f| {
                                    format!("closed by the server: {}", f.reason)
                                });
                            }
                            Some(Ok(_)) => {}
                            Some(Err(e)) => break e.to_string(),
                            None => break "closed by the server".to_string(),
                        },
                    }
                };
                let _ = events.send(wrap(SocketEvent::Closed(why)));
            });
        })
        .map_err(|e| NetError::WebSocket(e.to_string()))?;
    match ready_rx.recv() {
        Ok(Ok(())) => Ok(Connection { out: out_tx }),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(NetError::WebSocket("the connection thread ended".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_server_urls() {
        let u = ServerUrl::parse("http://127.0.0.1:8080/").unwrap();
        assert_eq!((u.host.as_str(), u.port), ("127.0.0.1", 8080));
        assert_eq!(u.origin(), "http://127.0.0.1:8080");
        let u = ServerUrl::parse("localhost:9000").unwrap();
        assert_eq!(u.origin(), "http://localhost:9000");
        assert_eq!(ServerUrl::parse("http://example.org").unwrap().port, 80);
        assert!(ServerUrl::parse("https://x.org")
            .unwrap_err()
            .to_string()
            .contains("https"));
        assert!(ServerUrl::parse("http://h:port").is_err());
        assert!(ServerUrl::parse("http://").is_err());
    }

    #[test]
    fn finds_the_session_cookie_in_plain_and_chunked_answers() {
        let raw = b"HTTP/1.1 200 OK\r\nset-cookie: other=1\r\nSet-Cookie: jungle_session=abc123; \
HttpOnly; SameSite=Lax; Path=/\r\nContent-Length: 2\r\n\r\n{}";
        let a = parse_http(raw).unwrap();
        assert_eq!(a.status, 200);
        assert_eq!(session_cookie(&a).as_deref(), Some("jungle_session=abc123"));
        let raw = b"HTTP/1.1 401 Unauthorized\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
        let a = parse_http(raw).unwrap();
        assert_eq!((a.status, a.body.as_str()), (401, "hello world"));
        assert!(session_cookie(&a).is_none());
        assert!(parse_http(b"garbage").is_err());
    }

    /// A one-shot HTTP server on loopback answering any request with `answer`.
    fn answering(answer: &'static str) -> ServerUrl {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            if let Ok((mut s, _)) = listener.accept() {
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf);
                let _ = s.write_all(answer.as_bytes());
            }
        });
        ServerUrl::parse(&format!("http://127.0.0.1:{port}")).unwrap()
    }

    #[test]
    fn a_websocket_refused_for_too_many_connections_says_so() {
        let body = r#"{"error":{"code":"rate_limited","message":"too many open connections from this address: at most 64"}}"#;
        let answer: &'static str = Box::leak(
            format!(
                "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_boxed_str(),
        );
        let (tx, _rx) = mpsc::channel::<SocketEvent>();
        let e = connect(&answering(answer), "jungle_session=x", tx, |ev| ev).err();
        assert!(matches!(e, Some(NetError::TooManyConnections)), "{e:?}");
    }

    #[test]
    fn another_program_at_the_address_is_not_a_refused_sign_in() {
        // `python3 -m http.server` answers a POST with 501 and an HTML page.
        let html = "HTTP/1.0 501 Unsupported method ('POST')\r\nContent-Type: text/html\r\n\r\n\
                    <!DOCTYPE HTML>\n<html><body><h1>Error response</h1></body></html>\n";
        let e = sign_in(&answering(html), None).unwrap_err();
        assert!(matches!(e, NetError::NotJungle { status: 501 }), "{e:?}");
        // A 200 without the session cookie is no Jungle server either.
        let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";
        let e = sign_in(&answering(ok), None).unwrap_err();
        assert!(matches!(e, NetError::NotJungle { status: 200 }), "{e:?}");
        // A Jungle server's refusal keeps its code, and its message on one short line.
        let long = "x".repeat(300);
        let body =
            format!(r#"{{"error":{{"code":"rate_limited","message":"too many\nlines {long}"}}}}"#);
        let refusal: &'static str = Box::leak(
            format!(
                "HTTP/1.1 429 Too Many Requests\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_boxed_str(),
        );
        let e = sign_in(&answering(refusal), None).unwrap_err();
        let NetError::Refused {
            status,
            code,
            message,
            guest,
        } = e
        else {
            panic!("{e:?}")
        };
        assert_eq!(
            (status, code.as_str(), message.as_str(), guest),
            (429, "rate_limited", "too many", true)
        );
        assert_eq!(short_line(&long).chars().count(), SHORT_LINE);
        assert!(short_line(&long).ends_with("..."));
    }
}
