//! A small client of the server API over real sockets, for the load tool and the tests: raw
//! HTTP/1.1 requests and a WebSocket that speaks JSON messages.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A client failure.
pub type ClientError = Box<dyn std::error::Error + Send + Sync>;

/// An HTTP answer: status, `Set-Cookie` session token (if any), body.
#[derive(Debug, Clone)]
pub struct HttpAnswer {
    /// Status code.
    pub status: u16,
    /// The `jungle_session` token set by the answer.
    pub session: Option<String>,
    /// The content type.
    pub content_type: Option<String>,
    /// The body.
    pub body: String,
}

impl HttpAnswer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// One HTTP/1.1 request (`Connection: close`) with an optional session and JSON body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    session: Option<&str>,
    body: Option<&Value>,
) -> Result<HttpAnswer, ClientError> {
    let mut s = TcpStream::connect(addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        req.push_str("Content-Type: application/json\r\n");
    }
    if let Some(tok) = session {
        req.push_str(&format!("Cookie: jungle_session={tok}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    s.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut buf)).await??;
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").ok_or("no HTTP header")?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no HTTP status")?;
    let mut session_tok = None;
    let mut content_type = None;
    let mut chunked = false;
    for line in head.lines().skip(1) {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
        if k == "set-cookie" {
            if let Some(rest) = v.strip_prefix("jungle_session=") {
                session_tok = rest.split(';').next().map(str::to_string);
            }
        } else if k == "content-type" {
            content_type = Some(v.to_string());
        } else if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
            chunked = true;
        }
    }
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Ok(HttpAnswer {
        status,
        session: session_tok,
        content_type,
        body,
    })
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Creates a guest account; returns its session token and user.
pub async fn guest(addr: SocketAddr) -> Result<(String, Value), ClientError> {
    let a = http(addr, "POST", "/api/guest", None, None).await?;
    if a.status != 200 {
        return Err(format!("guest: HTTP {} {}", a.status, a.body).into());
    }
    let tok = a.session.clone().ok_or("guest: no session cookie")?;
    Ok((tok, a.json()["user"].clone()))
}

/// A WebSocket to the server, logged in by a session token.
pub struct WsClient {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl WsClient {
    /// Connects to `/ws` with the session cookie (and an `Origin` header when given).
    pub async fn connect(
        addr: SocketAddr,
        session: &str,
        origin: Option<&str>,
    ) -> Result<WsClient, ClientError> {
        let mut req = format!("ws://{addr}/ws").into_client_request()?;
        req.headers_mut()
            .insert("cookie", format!("jungle_session={session}").parse()?);
        if let Some(o) = origin {
            req.headers_mut().insert("origin", o.parse()?);
        }
        // Small buffers (the default read buffer is 128 KiB, zeroed on each use) and no Nagle
        // delay: the load tool opens thousands of these.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8 * 1024)
            .write_buffer_size(8 * 1024);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), true).await?;
        Ok(WsClient { ws })
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, v: &Value) -> Result<(), ClientError> {
        self.ws.send(Message::Text(v.to_string().into())).await?;
        Ok(())
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, t: &str) -> Result<(), ClientError> {
        self.ws.send(Message::Text(t.to_string().into())).await?;
        Ok(())
    }

    /// The next JSON message, waiting at most `wait`; None when closed.
    pub async fn recv_timeout(&mut self, wait: Duration) -> Result<Option<Value>, ClientError> {
        loop {
            let m = tokio::time::timeout(wait, self.ws.next())
                .await
                .map_err(|_| "timed out waiting for a message")?;
            match m {
                None | Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Ok(Message::Text(t))) => return Ok(Some(serde_json::from_str(&t)?)),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// The next message (10 s at most).
    pub async fn recv(&mut self) -> Result<Value, ClientError> {
        self.recv_timeout(Duration::from_secs(10))
            .await?
            .ok_or_else(|| "connection closed".into())
    }

    /// Skips messages until one of type `t` arrives (10 s at most, 1000 messages at most).
    pub async fn recv_type(&mut self, t: &str) -> Result<Value, ClientError> {
        for _ in 0..1000 {
            let m = self.recv().await?;
            if m["t"] == t {
                return Ok(m);
            }
        }
        Err(format!("no `{t}` message").into())
    }

    /// Closes the socket, keeping the value (a later `recv` sees the end).
    pub async fn close_ref(&mut self) {
        let _ = self.ws.close(None).await;
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Runs a future to completion on a new runtime, for synchronous callers (the `jungle` binary's
/// tests drive the server through this client without depending on tokio themselves).
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime")
        .block_on(f)
}
