//! Online Jungle: the game server, accounts, lobby, clocks, scores and storage.
//!
//! [`app`] builds the router (HTTP JSON API under `/api`, the WebSocket at `/ws`, the embedded
//! web client everywhere else); [`serve`] runs it with a database and graceful shutdown. Each live
//! game is an actor ([`game`]); the [`hub`] holds what is shared between games. The wire format
//! is documented in `doc/protocol.md` (Server API).
#![forbid(unsafe_code)]

pub mod accounts;
pub mod ai;
pub mod client;
pub mod clock;
pub mod error;
pub mod game;
pub mod games_api;
pub mod http;
pub mod hub;
pub mod ids;
pub mod limits;
pub mod loadtest;
pub mod meta;
pub mod scoring;
pub mod signals;
pub mod store;
pub mod web;
pub mod wire;
pub mod ws;

use axum::Router;
use clock::SharedClock;
use hub::{Hub, ServerConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use store::Store;
use tokio::sync::watch;

pub use error::ApiError;
pub use ids::{GameId, SeekId, UserId};

/// What every request handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The hub (store, games, lobby).
    pub hub: Hub,
    /// Per-address limits.
    pub limits: Arc<limits::AddrLimits>,
}

impl AppState {
    /// A state over a hub.
    pub fn new(hub: Hub) -> AppState {
        let c = hub.config();
        let limits = limits::AddrLimits::new(
            c.auth_per_ip_per_min,
            c.analyses_per_ip_per_min,
            hub.clock(),
        );
        AppState {
            hub,
            limits: Arc::new(limits),
        }
    }
}

/// The whole server as one router.
pub fn app(state: AppState) -> Router {
    let request_timeout = state.hub.config().request_timeout;
    Router::new()
        .merge(accounts::router())
        .merge(games_api::router())
        .merge(meta::router())
        .merge(ws::router())
        .merge(web::router())
        .layer(axum::extract::DefaultBodyLimit::max(limits::MAX_BODY_BYTES))
        // A body declared too big is refused before it is read, not waited for.
        .layer(axum::middleware::from_fn(limits::declared_body_limit))
        // A body dribbled in (the header deadline of `http` does not cover it) or a request
        // stuck on the database is answered 408 `timeout`, and its connection freed.
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        .layer(axum::middleware::from_fn(same_origin_posts))
        .layer(axum::middleware::map_response(error::json_errors))
        // Outermost: every answer, the API's, the errors' and the web client's files.
        .layer(axum::middleware::map_response(web::security_headers))
        .with_state(state)
}

/// Refuses a request that changes something (any method but GET and HEAD) from a page of another
/// origin, 403 `forbidden`, as the WebSocket upgrade does ([`ws::origin_allowed`]). The session
/// cookie is `SameSite=Lax`, but another port of the same host, or a sibling subdomain, is the
/// same *site* and still sends it: without this, such a page could register the visitor's guest
/// account under its own password, or sign the visitor in or out. Requests without `Origin` (not
/// from a browser) pass.
async fn same_origin_posts(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let safe = matches!(
        *req.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    );
    if !safe && !ws::origin_allowed(req.headers()) {
        return (
            axum::http::StatusCode::FORBIDDEN,
            axum::Json(serde_json::json!({
                "error": {"code": "forbidden", "message": "a request from a page of another origin"}
            })),
        )
            .into_response();
    }
    next.run(req).await
}

/// How to run the server (the flags of `jungle serve`).
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Data directory (created if missing; holds the SQLite database by default).
    pub data_dir: PathBuf,
    /// Database URL; default `sqlite://<data-dir>/jungle.db`.
    pub database_url: Option<String>,
    /// A JSON file with the level table (see `scoring::Level`).
    pub levels_file: Option<PathBuf>,
    /// SQLite only: sync every commit to disk (true) or only to the WAL (false; see
    /// [`Store::connect_with`]).
    pub sqlite_full_sync: bool,
    /// Server tunables.
    pub config: ServerConfig,
}

/// The database URL to use: the given one, or SQLite in the data directory.
pub fn database_url(opts: &ServeOptions) -> std::io::Result<String> {
    // The data directory holds the default database only.
    if opts.database_url.is_none() {
        std::fs::create_dir_all(&opts.data_dir).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "cannot create the data directory {}: {e}",
                    opts.data_dir.display()
                ),
            )
        })?;
    }
    let given = opts
        .database_url
        .as_deref()
        .map(checked_database_url)
        .transpose()?;
    Ok(match &given {
        // A new SQLite file is created, as for the default URL, unless the URL says otherwise.
        Some(u) if u.starts_with("sqlite:") && !u.contains("mode=") => {
            format!("{u}{}mode=rwc", if u.contains('?') { '&' } else { '?' })
        }
        Some(u) => u.clone(),
        None => format!(
            "sqlite://{}?mode=rwc",
            opts.data_dir.join("jungle.db").display()
        ),
    })
}

/// A `--database-url` with its scheme in lower case (schemes are case-insensitive), or why it
/// cannot be used: a scheme other than SQLite's or PostgreSQL's, or an SQLite database in memory
/// (each pooled connection would have one of its own, and everything would be lost at exit).
fn checked_database_url(url: &str) -> std::io::Result<String> {
    let bad = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, why);
    let use_instead = "use sqlite://FILE or postgres://USER@HOST/DATABASE";
    let Some((scheme, rest)) = url.split_once(':') else {
        return Err(bad(format!(
            "the database URL has no scheme: {use_instead}"
        )));
    };
    let url = format!("{}:{rest}", scheme.to_ascii_lowercase());
    match scheme.to_ascii_lowercase().as_str() {
        "sqlite" if sqlite_path(&url).is_none() => Err(bad(format!(
            "an SQLite database URL must name a file (one in memory would be lost when the server stops): {use_instead}"
        ))),
        "sqlite" | "postgres" | "postgresql" => Ok(url),
        // Only the scheme is repeated: the rest may hold a password.
        other => Err(bad(format!(
            "a database URL of scheme `{other}` is not supported: {use_instead}"
        ))),
    }
}

/// Where a database URL points, for people: the SQLite file, or PostgreSQL's host, port and
/// database (never the password).
pub fn database_place(url: &str) -> String {
    if let Some(path) = sqlite_path(url) {
        return format!("SQLite {path}");
    }
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    format!("PostgreSQL {}", host.split('?').next().unwrap_or(host))
}

/// The file of a `sqlite:` URL (None for other databases and for `:memory:`).
fn sqlite_path(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty() && !path.contains(":memory:")).then_some(path)
}

/// Holds a database for this server alone while it lives: two servers on one database would
/// each resume the same live games and run their clocks twice. SQLite: an exclusive lock on the
/// file `<database>.lock`; PostgreSQL: a session advisory lock on a connection kept open.
pub enum DatabaseLock {
    /// The locked file.
    File(std::fs::File),
    /// The connection holding the advisory lock.
    Postgres(sqlx::AnyConnection),
}

impl DatabaseLock {
    /// Takes the lock of `url`, or says that another server holds it.
    pub async fn take(url: &str) -> Result<DatabaseLock, String> {
        let busy = |place: String| {
            format!("another jungle server is using {place}: one server per database")
        };
        if let Some(path) = sqlite_path(url) {
            let lock = format!("{path}.lock");
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock)
                .map_err(|e| format!("cannot open the lock file {lock}: {e}"))?;
            return match file.try_lock() {
                Ok(()) => Ok(DatabaseLock::File(file)),
                Err(std::fs::TryLockError::WouldBlock) => Err(busy(database_place(url))),
                Err(std::fs::TryLockError::Error(e)) => {
                    Err(format!("cannot lock the lock file {lock}: {e}"))
                }
            };
        }
        match pg_lock(url).await {
            Ok(Some(conn)) => Ok(DatabaseLock::Postgres(conn)),
            Ok(None) => Err(busy(database_place(url))),
            Err(e) => Err(format!("database {}: {e}", database_place(url))),
        }
    }

    /// Keeps the lock in a task of its own until the returned guard drops. The receiver hears
    /// why, if this server lost the database to another one: on PostgreSQL the lock lives as
    /// long as its connection, so the task checks the connection every [`LOCK_CHECK`]; a lost
    /// one (the database restarted, the connection was ended) is replaced and the lock taken
    /// again — unless another server took it meanwhile, which this server must then leave the
    /// database to. (While the database is away the task keeps trying: no server can take it.)
    pub fn keep(self, url: String) -> (KeptLock, watch::Receiver<Option<String>>) {
        let (tx, rx) = watch::channel(None);
        let task = tokio::spawn(async move {
            let mut conn = match self {
                // The file lock lasts as long as the file is open: held here until the end.
                DatabaseLock::File(file) => {
                    let _file = file;
                    std::future::pending::<()>().await;
                    return;
                }
                DatabaseLock::Postgres(conn) => conn,
            };
            loop {
                tokio::time::sleep(LOCK_CHECK).await;
                let alive =
                    tokio::time::timeout(LOCK_CHECK, sqlx::query("SELECT 1").execute(&mut conn))
                        .await;
                if matches!(alive, Ok(Ok(_))) {
                    continue;
                }
                match pg_lock(&url).await {
                    Ok(Some(new)) => {
                        tracing::warn!("the database connection holding this server's lock was lost; the lock is taken again");
                        conn = new;
                    }
                    Ok(None) => {
                        let _ = tx.send(Some(format!(
                            "the database connection holding this server's lock was lost, and another jungle server took {} meanwhile: one server per database",
                            database_place(&url)
                        )));
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "the database connection holding this server's lock was lost; retrying")
                    }
                }
            }
        });
        (KeptLock(task), rx)
    }
}

/// How often a server checks that it still holds its PostgreSQL database ([`DatabaseLock::keep`]).
pub const LOCK_CHECK: std::time::Duration = std::time::Duration::from_secs(2);

/// A [`DatabaseLock`] kept by its task; dropping it releases the lock.
pub struct KeptLock(tokio::task::JoinHandle<()>);

impl Drop for KeptLock {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A new connection to the PostgreSQL database `url` holding the advisory lock of this project's
/// servers; None if another session holds it.
async fn pg_lock(url: &str) -> Result<Option<sqlx::AnyConnection>, sqlx::Error> {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await?;
    // The key: "jungle" in ASCII, the same for every server of this project.
    let got: bool = sqlx::query("SELECT pg_try_advisory_lock(106117110103108101)")
        .fetch_one(&mut conn)
        .await
        .and_then(|r| r.try_get(0))?;
    Ok(got.then_some(conn))
}

/// Connects the store, resumes live games and builds the state.
pub async fn build_state(
    opts: &ServeOptions,
    clock: SharedClock,
) -> Result<AppState, Box<dyn std::error::Error + Send + Sync>> {
    let levels = match &opts.levels_file {
        None => scoring::LevelTable::default(),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            let rows: Vec<scoring::Level> =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
            scoring::LevelTable::new(rows).map_err(|e| format!("{}: {e}", p.display()))?
        }
    };
    let url = database_url(opts)?;
    let store = Store::connect_with(&url, Arc::new(levels), opts.sqlite_full_sync)
        .await
        .map_err(|e| format!("{}: {e}", database_place(&url)))?;
    let renamed = store.normalize_names(accounts::normalize_name).await?;
    if renamed > 0 {
        tracing::info!(renamed, "account names brought to their NFKC form");
    }
    let hub = Hub::new(store, clock, opts.config.clone());
    let resumed = hub.resume_all().await?;
    if resumed > 0 {
        tracing::info!(resumed, "resumed live games");
    }
    Ok(AppState::new(hub))
}

/// Runs the server until Ctrl-C or SIGTERM: prints the URL to open once it listens.
pub async fn serve(opts: ServeOptions) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // The address first: a server that cannot listen touches no database and resumes no game.
    let listener = tokio::net::TcpListener::bind(opts.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", opts.listen))?;
    let url = database_url(&opts)?;
    let (_lock, mut lost) = DatabaseLock::take(&url).await?.keep(url.clone());
    let mut lost_said = lost.clone();
    tracing::info!(
        database = %database_place(&url),
        // Said for SQLite only (PostgreSQL has no such setting here).
        sqlite_sync = sqlite_path(&url).map(|_| if opts.sqlite_full_sync { "full" } else { "normal" }),
        "starting"
    );
    let state = build_state(&opts, Arc::new(clock::SystemClock)).await?;
    let addr = listener.local_addr()?;
    let mut signals = signals::Signals::new()?;
    println!("{}", running_line(addr));
    let hub = state.hub.clone();
    let stopping = hub.clone();
    let header_timeout = opts.config.header_read_timeout;
    http::serve_http(listener, app(state), header_timeout, async move {
        tokio::select! {
            signal = signals.recv() => tracing::info!(signal, "shutting down"),
            _ = lost.wait_for(Option::is_some) => tracing::error!("shutting down: this server lost its database to another one"),
        }
        // Game actions are refused from now on, and results not stored yet are retried at once.
        stopping.begin_shutdown();
    })
    .await;
    // The results the database did not take when their games ended: a few seconds more for
    // them (the lost ones are logged), then the store closes.
    hub.unstored_results().wait(game::RESULT_STORE_GRACE).await;
    hub.store().close().await;
    let why = lost_said.borrow_and_update().clone();
    match why {
        Some(why) => Err(why.into()),
        None => Ok(()),
    }
}

/// The line that says the server runs and what to open: on all addresses (`0.0.0.0`, `::`),
/// this computer's own (loopback) address, and how other devices reach it (the unspecified
/// address cannot be opened).
pub fn running_line(addr: SocketAddr) -> String {
    if !addr.ip().is_unspecified() {
        return format!("Jungle is running: open http://{addr}/");
    }
    let port = addr.port();
    let here = match addr.ip() {
        std::net::IpAddr::V4(_) => format!("127.0.0.1:{port}"),
        std::net::IpAddr::V6(_) => format!("[::1]:{port}"),
    };
    format!(
        "Jungle is running: open http://{here}/ (from other devices: http://<this computer's address>:{port}/, e.g. from `hostname -I`)"
    )
}

/// Runs [`serve`] on a new multi-threaded runtime, with `RUST_LOG`-filtered logs on stderr.
pub fn serve_blocking(opts: ServeOptions) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colours only on a terminal, not in a log file or the journal.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(opts))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_running_line_names_an_address_that_can_be_opened() {
        let line = |a: &str| super::running_line(a.parse().unwrap());
        assert_eq!(
            line("127.0.0.1:8080"),
            "Jungle is running: open http://127.0.0.1:8080/"
        );
        let all = line("0.0.0.0:8080");
        assert!(
            all.starts_with("Jungle is running: open http://127.0.0.1:8080/ (from other devices:"),
            "{all}"
        );
        assert!(line("[::]:80").starts_with("Jungle is running: open http://[::1]:80/ "));
    }

    use super::*;

    #[test]
    fn database_urls_are_read_by_their_scheme_in_any_case() {
        assert_eq!(
            checked_database_url("Postgres://u@h/db").unwrap(),
            "postgres://u@h/db"
        );
        assert_eq!(
            checked_database_url("SQLITE:///tmp/x.db").unwrap(),
            "sqlite:///tmp/x.db"
        );
        let said = |u: &str| checked_database_url(u).unwrap_err().to_string();
        assert!(said("mysql://u:secret@h/db").contains("scheme `mysql`"));
        assert!(!said("mysql://u:secret@h/db").contains("secret"));
        for memory in ["sqlite::memory:", "sqlite://", "sqlite://:memory:"] {
            assert!(said(memory).contains("must name a file"), "{memory}");
        }
        assert!(said("jungle.db").contains("no scheme"));
        assert_eq!(
            database_place("postgres://u:pw@h:5432/db"),
            "PostgreSQL h:5432/db"
        );
    }
}
