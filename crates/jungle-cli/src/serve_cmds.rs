//! `jungle serve` and `jungle loadtest`: flags (each also from the environment) handed to the
//! server library.

use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the game server: HTTP API, WebSocket and the embedded web client on one port.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, env = "JUNGLE_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Data directory for the default SQLite database (created if missing; unused with
    /// --database-url).
    #[arg(long, env = "JUNGLE_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Database URL (`sqlite://…` or `postgres://…`); default SQLite in the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Seconds a disconnected player has to come back (never more than their clock).
    #[arg(long, env = "JUNGLE_RECONNECT_GRACE", default_value_t = 60)]
    pub reconnect_grace: u32,
    /// A JSON file with the level table: `[{"level":1,"min_score":0,"name_en":"…","name_zh":"…","name_zh_hant":"…"}, …]`
    /// (`name_zh_hant` is optional and falls back to `name_zh`).
    #[arg(long, env = "JUNGLE_LEVELS")]
    pub levels: Option<PathBuf>,
    /// AI searches running at once (each on a blocking worker).
    #[arg(long, env = "JUNGLE_MAX_SEARCHES", default_value_t = 2)]
    pub max_searches: usize,
    /// Searches for the analysis endpoint (`POST /api/analyze`) running at once, apart from the
    /// AI's.
    #[arg(long, env = "JUNGLE_MAX_ANALYSES", default_value_t = 1)]
    pub max_analyses: usize,
    /// Analysis requests per address per minute; 0 = unlimited.
    #[arg(long, env = "JUNGLE_ANALYSES_PER_MIN", default_value_t = 120)]
    pub analyses_per_min: u32,
    /// AI thinking time per level in milliseconds.
    #[arg(long, env = "JUNGLE_AI_MS_PER_LEVEL", default_value_t = 100)]
    pub ai_ms_per_level: u32,
    /// Open WebSockets allowed per client address; 0 = unlimited.
    #[arg(long, env = "JUNGLE_MAX_WS_PER_IP", default_value_t = 64)]
    pub max_ws_per_ip: usize,
    /// Account requests (guest, register, login, password change) per address per minute; 0 = unlimited.
    #[arg(long, env = "JUNGLE_AUTH_PER_MIN", default_value_t = 30)]
    pub auth_per_min: u32,
    /// Seconds a client has to send a request's headers (also how long an idle keep-alive
    /// connection stays open); slower clients are disconnected.
    #[arg(long, env = "JUNGLE_HEADER_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
    /// SQLite only: `full` syncs every commit to disk; `normal` only writes it to the WAL
    /// (faster; acknowledged moves survive a killed server but not a power cut).
    #[arg(long, env = "JUNGLE_SQLITE_SYNC", default_value = "full", value_parser = ["full", "normal"])]
    pub sqlite_sync: String,
    /// Mark the session cookie Secure (when served behind HTTPS). The variable takes
    /// true/false, 1/0, yes/no or on/off.
    #[arg(long, env = "JUNGLE_SECURE_COOKIES", value_parser = clap::builder::BoolishValueParser::new())]
    pub secure_cookies: bool,
}

/// Run bot players against a server on loopback and report throughput and latency.
#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// Concurrent games (two bot players each).
    #[arg(long, env = "JUNGLE_LOADTEST_GAMES", default_value_t = 200)]
    pub games: usize,
    /// Seconds to run (at most 600).
    #[arg(long, env = "JUNGLE_LOADTEST_SECONDS", default_value_t = 20)]
    pub seconds: u64,
    /// Delay between a bot's turn and its move, in milliseconds (sets the move rate).
    #[arg(long, env = "JUNGLE_LOADTEST_THINK_MS", default_value_t = 500)]
    pub think_ms: u64,
    /// A running server to test (loopback only), e.g. `127.0.0.1:8080`; by default the tool
    /// starts its own server on a free loopback port with a throw-away SQLite database.
    #[arg(long, env = "JUNGLE_LOADTEST_SERVER")]
    pub server: Option<SocketAddr>,
}

/// `jungle serve`.
pub fn serve(a: ServeArgs) -> anyhow::Result<ExitCode> {
    let opts = jungle_server::ServeOptions {
        listen: a.listen,
        data_dir: a.data_dir,
        database_url: a.database_url,
        levels_file: a.levels,
        sqlite_full_sync: a.sqlite_sync == "full",
        config: jungle_server::hub::ServerConfig {
            reconnect_grace_ms: i64::from(a.reconnect_grace) * 1000,
            ai_ms_per_level: i64::from(a.ai_ms_per_level),
            max_searches: a.max_searches,
            max_analyses: a.max_analyses,
            analyses_per_ip_per_min: a.analyses_per_min,
            max_ws_per_ip: a.max_ws_per_ip,
            auth_per_ip_per_min: a.auth_per_min,
            secure_cookies: a.secure_cookies,
            header_read_timeout: std::time::Duration::from_secs(a.header_timeout),
            ..Default::default()
        },
    };
    jungle_server::serve_blocking(opts).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// `jungle loadtest`.
pub fn loadtest(a: LoadtestArgs) -> anyhow::Result<ExitCode> {
    let opts = jungle_server::loadtest::LoadOptions {
        games: a.games,
        seconds: a.seconds.min(600),
        think_ms: a.think_ms,
        server: a.server,
    };
    let report = jungle_server::loadtest::run_blocking(opts).map_err(|e| anyhow::anyhow!("{e}"))?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}
