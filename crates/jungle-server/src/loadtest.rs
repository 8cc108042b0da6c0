//! The load tool (`jungle loadtest`): pairs of bot players over real WebSockets on loopback play
//! random legal moves for a bounded time; reports concurrent games, moves per second, the move
//! acknowledgement latency (send → `moved` received, p50/p99) and memory per live game.

use crate::client::{self, ClientError, WsClient};
use crate::hub::ServerConfig;
use rand::seq::SliceRandom;
use serde_json::{json, Value};
use std::fmt;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Concurrent games (two bots each).
    pub games: usize,
    /// Seconds of play (bounded by the caller; at most 600).
    pub seconds: u64,
    /// A bot's delay before each move, ms.
    pub think_ms: u64,
    /// A server on loopback, or None to start one in this process.
    pub server: Option<SocketAddr>,
}

/// The longest the bots may take to start their games.
const SETUP_LIMIT: Duration = Duration::from_secs(300);

/// The most distinct bot error messages a report keeps.
pub const ERROR_MESSAGES_KEPT: usize = 5;

/// The figures of a run.
#[derive(Debug, Clone)]
pub struct LoadReport {
    /// Games requested.
    pub games: usize,
    /// Most games running at once (as seen by the bots).
    pub peak_concurrent_games: i64,
    /// Moves acknowledged.
    pub moves: u64,
    /// Seconds measured.
    pub seconds: f64,
    /// Median acknowledgement latency, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Games finished.
    pub finished: u64,
    /// Errors seen by bots.
    pub errors: u64,
    /// What the first few distinct bot errors were (at most [`ERROR_MESSAGES_KEPT`]).
    pub error_messages: Vec<String>,
    /// Resident memory growth of this process per live game, KiB (server and bots together when
    /// the server runs in-process).
    pub kib_per_game: Option<f64>,
    /// The server's resident memory when the most games were live, bytes (from `/api/stats`;
    /// the bots' too when the server runs in-process), and the games it held then.
    pub server_memory: Option<(u64, u64)>,
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "games requested      {}", self.games)?;
        writeln!(
            f,
            "concurrent games     {} (peak)",
            self.peak_concurrent_games
        )?;
        writeln!(f, "games finished       {}", self.finished)?;
        writeln!(f, "moves acknowledged   {}", self.moves)?;
        writeln!(
            f,
            "moves per second     {:.0}",
            self.moves as f64 / self.seconds.max(0.001)
        )?;
        writeln!(f, "ack latency p50      {:.2} ms", self.p50_ms)?;
        writeln!(f, "ack latency p99      {:.2} ms", self.p99_ms)?;
        writeln!(f, "bot errors           {}", self.errors)?;
        for m in &self.error_messages {
            writeln!(f, "  {m}")?;
        }
        if self.errors > 0 && self.error_messages.len() == ERROR_MESSAGES_KEPT {
            writeln!(
                f,
                "  (only the first {ERROR_MESSAGES_KEPT} distinct errors are shown)"
            )?;
        }
        match self.kib_per_game {
            Some(k) => write!(
                f,
                "tool memory per game {k:.1} KiB (this process's RSS growth / games)"
            ),
            None => write!(f, "tool memory per game n/a"),
        }?;
        match self.server_memory {
            Some((bytes, games)) if games > 0 => write!(
                f,
                "\nserver memory        {:.0} MiB with {games} games ({:.1} KiB per game)",
                bytes as f64 / 1048576.0,
                bytes as f64 / 1024.0 / games as f64
            ),
            _ => write!(f, "\nserver memory        n/a"),
        }
    }
}

#[derive(Default)]
struct Stats {
    moves: AtomicU64,
    finished: AtomicU64,
    errors: AtomicU64,
    live: AtomicI64,
    peak: AtomicI64,
    latencies_us: Mutex<Vec<u32>>,
    /// The first few distinct bot errors.
    error_messages: Mutex<Vec<String>>,
    /// Why a pair could not start (the first such failure): it ends the run.
    setup_failure: Mutex<Option<String>>,
}

impl Stats {
    /// Counts a bot error and keeps its message if it is one of the first few distinct ones.
    fn error(&self, message: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut kept) = self.error_messages.lock() {
            if kept.len() < ERROR_MESSAGES_KEPT && !kept.contains(&message) {
                kept.push(message);
            }
        }
    }

    /// Records why a pair could not start (the first reason only).
    fn setup_failed(&self, why: String) {
        if let Ok(mut f) = self.setup_failure.lock() {
            f.get_or_insert(why);
        }
    }

    fn setup_failure(&self) -> Option<String> {
        self.setup_failure.lock().ok().and_then(|f| f.clone())
    }
}

fn rss_kib() -> Option<f64> {
    crate::meta::resident_bytes().map(|b| b as f64 / 1024.0)
}

/// The server's resident memory and game actors, from `/api/stats`.
async fn server_memory(addr: SocketAddr) -> Option<(u64, u64)> {
    let a = client::http(addr, "GET", "/api/stats", None, None)
        .await
        .ok()?;
    let v = a.json();
    Some((v["memory_bytes"].as_u64()?, v["games"].as_u64()?))
}

/// Runs the load test on a new runtime.
pub fn run_blocking(opts: LoadOptions) -> Result<LoadReport, ClientError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let r = rt.block_on(run(opts));
    // The bots and the in-process server may still be running (after a failed start or a
    // signal): do not wait for them.
    rt.shutdown_timeout(Duration::from_secs(1));
    r
}

/// Runs the load test. It fails at once, saying why, when a bot pair cannot start its game (the
/// server unreachable, or refusing guest accounts or WebSockets: its rate limits); SIGINT and
/// SIGTERM stop it with an error after removing the data directory of the server it started.
pub async fn run(opts: LoadOptions) -> Result<LoadReport, ClientError> {
    // The handlers are in place before the data directory is created.
    let mut signals = crate::signals::Signals::new()?;
    tokio::select! {
        r = run_inner(opts) => r,
        // Dropping `run_inner` drops its `TmpDir`, which removes the directory.
        name = signals.recv() => Err(format!("stopped by {name}").into()),
    }
}

async fn run_inner(opts: LoadOptions) -> Result<LoadReport, ClientError> {
    let seconds = opts.seconds.clamp(1, 600);
    let mut _tmp_dir = None;
    let addr = match opts.server {
        Some(a) if a.ip().is_loopback() => a,
        Some(a) => return Err(format!("{a} is not a loopback address").into()),
        None => {
            let dir = std::env::temp_dir()
                .join(format!("jungle-loadtest-{}", crate::ids::random_token(8)));
            let serve_opts = crate::ServeOptions {
                listen: "127.0.0.1:0".parse()?,
                data_dir: dir.clone(),
                database_url: None,
                levels_file: None,
                sqlite_full_sync: true,
                config: ServerConfig {
                    max_ws_per_ip: usize::MAX,
                    auth_per_ip_per_min: 0,
                    ..Default::default()
                },
            };
            _tmp_dir = Some(TmpDir(dir));
            let state =
                crate::build_state(&serve_opts, Arc::new(crate::clock::SystemClock)).await?;
            let listener = tokio::net::TcpListener::bind(serve_opts.listen).await?;
            let addr = listener.local_addr()?;
            let header_timeout = serve_opts.config.header_read_timeout;
            tokio::spawn(crate::http::serve_http(
                listener,
                crate::app(state),
                header_timeout,
                std::future::pending(),
            ));
            addr
        }
    };
    let rss_before = rss_kib();
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    // Setting up is bounded too: pairs not started within SETUP_LIMIT are not started.
    let setup_deadline = Instant::now() + SETUP_LIMIT;
    let deadline = setup_deadline + Duration::from_secs(seconds) + Duration::from_secs(10);
    // Set up the pairs, a bounded number at a time.
    let sem = Arc::new(tokio::sync::Semaphore::new(32));
    let mut tasks = Vec::new();
    for _ in 0..opts.games {
        let permit = sem.clone().acquire_owned().await?;
        let (pair_stats, stop) = (stats.clone(), stop.clone());
        let think = Duration::from_millis(opts.think_ms);
        tasks.push(tokio::spawn(async move {
            let stats = pair_stats;
            let pair = start_pair(addr).await;
            drop(permit);
            match pair {
                Ok((a, b)) => {
                    let ta = tokio::spawn(bot(a, stats.clone(), stop.clone(), think, deadline));
                    let tb = tokio::spawn(bot(b, stats.clone(), stop.clone(), think, deadline));
                    let _ = ta.await;
                    let _ = tb.await;
                }
                Err(why) => stats.setup_failed(why),
            }
        }));
        if Instant::now() > setup_deadline || stats.setup_failure().is_some() {
            break;
        }
    }
    // Wait until every started pair has its game (or the setup time is up); a pair that cannot
    // start ends the run at once.
    loop {
        if let Some(why) = stats.setup_failure() {
            stop.store(true, Ordering::Relaxed);
            return Err(why.into());
        }
        if stats.live.load(Ordering::Relaxed) >= tasks.len() as i64
            || Instant::now() >= setup_deadline
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Measure from when every pair is set up.
    let start_moves = stats.moves.load(Ordering::Relaxed);
    stats.latencies_us.lock().map(|mut l| l.clear()).ok();
    let t0 = Instant::now();
    let mut rss_peak = rss_kib();
    let mut live_at_peak = stats.live.load(Ordering::Relaxed);
    let mut server_peak = server_memory(addr).await;
    while t0.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let live = stats.live.load(Ordering::Relaxed);
        if live >= live_at_peak {
            live_at_peak = live;
            rss_peak = rss_kib();
            server_peak = server_memory(addr).await.or(server_peak);
        }
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let moves = stats.moves.load(Ordering::Relaxed) - start_moves;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    let mut lat = stats
        .latencies_us
        .lock()
        .map(|l| l.clone())
        .unwrap_or_default();
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            0.0
        } else {
            lat[((lat.len() - 1) as f64 * p) as usize] as f64 / 1000.0
        }
    };
    let kib_per_game = match (rss_before, rss_peak) {
        (Some(b), Some(p)) if live_at_peak > 0 => Some((p - b) / live_at_peak as f64),
        _ => None,
    };
    Ok(LoadReport {
        games: opts.games,
        peak_concurrent_games: stats.peak.load(Ordering::Relaxed),
        moves,
        seconds: elapsed,
        p50_ms: pct(0.50),
        p99_ms: pct(0.99),
        finished: stats.finished.load(Ordering::Relaxed),
        errors: stats.errors.load(Ordering::Relaxed),
        error_messages: stats
            .error_messages
            .lock()
            .map(|m| m.clone())
            .unwrap_or_default(),
        kib_per_game,
        server_memory: server_peak,
    })
}

struct TmpDir(std::path::PathBuf);
impl Drop for TmpDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Two guests, a private challenge between them, both sockets at the start of the game. The error
/// says why in one line, with what to change when the server's limits refused a request.
async fn start_pair(addr: SocketAddr) -> Result<(WsClient, WsClient), String> {
    let ta = guest(addr).await?;
    let tb = guest(addr).await?;
    let mut a = connect(addr, &ta).await?;
    let mut b = connect(addr, &tb).await?;
    let welcome = |e: ClientError| format!("the server at {addr} sent no `welcome`: {e}");
    a.recv_type("welcome").await.map_err(welcome)?;
    b.recv_type("welcome").await.map_err(welcome)?;
    let challenge =
        json!({"t": "challenge", "tc": {"clock_s": 0, "inc_s": 0, "move_s": 0}, "rated": false});
    let created = async {
        a.send(&challenge).await?;
        // The answer, or an `error` instead of it.
        for _ in 0..1000 {
            let m = a.recv().await?;
            match m["t"].as_str() {
                Some("challenge_created") => return Ok(m["id"].clone()),
                Some("error") => return Err(server_error(&m).into()),
                _ => {}
            }
        }
        Err::<Value, ClientError>("no `challenge_created`".into())
    };
    let id = created
        .await
        .map_err(|e| format!("the server at {addr} did not create a challenge: {e}"))?;
    b.send(&json!({"t": "accept_challenge", "id": id}))
        .await
        .map_err(|e| format!("the server at {addr} closed a bot's WebSocket: {e}"))?;
    Ok((a, b))
}

/// "cannot reach the server at ADDR: WHY" for a failed connection, else the error itself.
fn unreachable(addr: SocketAddr, e: &(dyn std::error::Error + 'static)) -> String {
    let io =
        e.downcast_ref::<std::io::Error>().or_else(|| match e
            .downcast_ref::<tokio_tungstenite::tungstenite::Error>()
        {
            Some(tokio_tungstenite::tungstenite::Error::Io(io)) => Some(io),
            _ => None,
        });
    let why = match io.map(|io| io.kind()) {
        Some(std::io::ErrorKind::ConnectionRefused) => "connection refused".to_string(),
        Some(std::io::ErrorKind::ConnectionReset) => "connection reset".to_string(),
        _ => e.to_string(),
    };
    format!("cannot reach the server at {addr}: {why}")
}

/// A new guest's session token.
async fn guest(addr: SocketAddr) -> Result<String, String> {
    let a = client::http(addr, "POST", "/api/guest", None, None)
        .await
        .map_err(|e| unreachable(addr, &*e))?;
    let code = a.json()["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    match a.status {
        200 => a
            .session
            .ok_or_else(|| format!("the server at {addr} created a guest without a session")),
        429 => Err(format!(
            "the server refused to create guest accounts: 429 {} — start it with a higher \
             --auth-per-min (0 = no limit; each game needs two guests), see doc/load.md",
            if code.is_empty() {
                "Too Many Requests"
            } else {
                &code
            }
        )),
        s => Err(format!(
            "the server at {addr} refused to create a guest account: {s} {}",
            if code.is_empty() {
                a.body.trim()
            } else {
                &code
            }
        )),
    }
}

/// A bot's WebSocket.
async fn connect(addr: SocketAddr, token: &str) -> Result<WsClient, String> {
    use tokio_tungstenite::tungstenite::Error as WsErr;
    WsClient::connect(addr, token, None)
        .await
        .map_err(|e| match e.downcast_ref::<WsErr>() {
            Some(WsErr::Http(r)) if r.status().as_u16() == 429 => {
                "the server refused a WebSocket: 429 rate_limited — start it with a \
                 higher --max-ws-per-ip (each game needs two), see doc/load.md"
                    .to_string()
            }
            Some(WsErr::Http(r)) => {
                format!("the server at {addr} refused a WebSocket: {}", r.status())
            }
            _ => unreachable(addr, &*e),
        })
}

/// An `error` message of the server in one line: `code: message (to `re`)`.
fn server_error(m: &Value) -> String {
    let code = m["code"].as_str().unwrap_or("?");
    let message = m["message"].as_str().unwrap_or("");
    match m["re"].as_str().filter(|r| !r.is_empty()) {
        Some(re) => format!("server error {code}: {message} (to `{re}`)"),
        None => format!("server error {code}: {message}"),
    }
}

async fn bot(
    mut ws: WsClient,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
    think: Duration,
    deadline: Instant,
) {
    let mut me: Option<String> = None;
    let mut game = Value::Null;
    let mut pending: Option<(u64, Instant)> = None;
    let mut in_game = false;
    let mut counted = false; // this bot counts its game in `live` (the red bot does)
    let mut started = false; // its first game has started
                             // Why the loop ended early, if it did.
    let mut ended: Option<String> = None;
    while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
        let m = match ws.recv_timeout(Duration::from_millis(200)).await {
            Ok(Some(m)) => m,
            Ok(None) => {
                ended = Some("the server closed the WebSocket".into());
                break;
            }
            Err(e) if e.to_string().contains("timed out") => continue,
            Err(e) => {
                let why = format!("WebSocket error: {e}");
                stats.error(why.clone());
                ended = Some(why);
                break;
            }
        };
        let (turn, ply, legal) = match m["t"].as_str() {
            Some("game") => {
                let g = &m["game"];
                game = g["id"].clone();
                me = g["you"].as_str().map(str::to_string);
                if g["status"] == "live" && !in_game {
                    in_game = true;
                    started = true;
                    if me.as_deref() == Some("red") {
                        counted = true;
                        let live = stats.live.fetch_add(1, Ordering::Relaxed) + 1;
                        stats.peak.fetch_max(live, Ordering::Relaxed);
                    }
                }
                (
                    g["turn"].clone(),
                    g["ply"].as_u64().unwrap_or(0),
                    g["legal"].clone(),
                )
            }
            Some("moved") => {
                let ply = m["ply"].as_u64().unwrap_or(0);
                if let Some((p, sent)) = pending {
                    if p == ply {
                        let us = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                        if let Ok(mut l) = stats.latencies_us.lock() {
                            if l.len() < 20_000_000 {
                                l.push(us);
                            }
                        }
                        stats.moves.fetch_add(1, Ordering::Relaxed);
                        pending = None;
                    }
                }
                let turn = if ply % 2 == 0 { "blue" } else { "red" };
                (json!(turn), ply + 1, m["legal"].clone())
            }
            Some("ended") => {
                if in_game && counted {
                    stats.live.fetch_sub(1, Ordering::Relaxed);
                    stats.finished.fetch_add(1, Ordering::Relaxed);
                }
                in_game = false;
                counted = false;
                let _ = ws.send(&json!({"t": "rematch", "game": game})).await;
                continue;
            }
            Some("error") => {
                stats.error(server_error(&m));
                continue;
            }
            _ => continue,
        };
        if me.as_deref() != turn.as_str() {
            continue;
        }
        let moves: Vec<String> = legal
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let Some(mv) = moves.choose(&mut rand::thread_rng()).cloned() else {
            continue;
        };
        tokio::time::sleep(think).await;
        pending = Some((ply, Instant::now()));
        if let Err(e) = ws
            .send(&json!({"t": "move", "game": game, "ply": ply, "move": mv}))
            .await
        {
            let why = format!("WebSocket error: {e}");
            stats.error(why.clone());
            ended = Some(why);
            break;
        }
    }
    if let (false, Some(why)) = (started, ended) {
        // Still setting up: the run cannot measure this pair.
        stats.setup_failed(format!("a bot's game did not start: {why}"));
    }
    if in_game && counted {
        stats.live.fetch_sub(1, Ordering::Relaxed);
    }
    ws.close().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_names_the_first_few_distinct_bot_errors() {
        let stats = Stats::default();
        for i in 0..20 {
            stats.error(format!("server error e{}: why", i % 7));
        }
        let kept = stats.error_messages.lock().unwrap().clone();
        assert_eq!(kept.len(), ERROR_MESSAGES_KEPT);
        assert_eq!(kept[0], "server error e0: why");
        assert_eq!(kept[1], "server error e1: why");
        let report = LoadReport {
            games: 1,
            peak_concurrent_games: 1,
            moves: 10,
            seconds: 1.0,
            p50_ms: 1.0,
            p99_ms: 2.0,
            finished: 0,
            errors: stats.errors.load(Ordering::Relaxed),
            error_messages: kept,
            kib_per_game: None,
            server_memory: None,
        };
        let text = report.to_string();
        assert!(
            text.contains("bot errors           20\n  server error e0: why\n"),
            "{text}"
        );
        assert!(text.contains("only the first 5 distinct errors"), "{text}");
        let quiet = LoadReport {
            errors: 1,
            error_messages: vec!["server error rate_limited: too many messages, slow down".into()],
            ..report
        };
        let text = quiet.to_string();
        assert!(
            text.contains("bot errors           1\n  server error rate_limited: too many messages"),
            "{text}"
        );
        assert!(!text.contains("only the first"), "{text}");
    }
}
