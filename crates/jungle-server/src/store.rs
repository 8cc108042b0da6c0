//! Persistence: accounts, sessions, games and every acknowledged ply, in SQLite (default, WAL)
//! or PostgreSQL through one portable schema (`migrations/`) and `sqlx::Any`. All SQL is
//! parameterised; no query is built from user text.

use crate::ids::{GameId, UserId};
use crate::scoring::{LevelTable, Rating, START_COINS};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// A store failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The name is already taken.
    #[error("that name is taken")]
    NameTaken,
    /// A guest's registration found no guest account of that id: it was registered already
    /// (by another registration at the same time). Nothing was changed.
    #[error("the account is not a guest (registered already)")]
    NotAGuest,
    /// The database failed.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A ply could not be written.
    #[error("writing a ply: {0}")]
    Write(String),
    /// Stored data that cannot be read back.
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
    /// A game's result was stored already (by an earlier try whose answer was lost): nothing
    /// was applied again.
    #[error("the game's result is stored already")]
    AlreadyFinished,
}

type Result<T> = std::result::Result<T, StoreError>;

/// An account as the API shows it (no password hash, ever).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct User {
    /// Its id.
    pub id: UserId,
    /// Display and login name.
    pub name: String,
    /// A guest account (no password; games never change scores).
    pub guest: bool,
    /// Score (积分).
    pub score: i64,
    /// Level from the score (级别).
    pub level: i64,
    /// Coins (金币).
    pub coins: i64,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Glicko-2 deviation.
    pub rd: f64,
    /// Glicko-2 volatility (internal).
    #[serde(skip)]
    pub vol: f64,
    /// Finished games (aborted ones not counted).
    pub games: i64,
    /// Wins.
    pub wins: i64,
    /// Losses.
    pub losses: i64,
    /// Draws.
    pub draws: i64,
    /// Losses by not coming back after a dropped connection (断线次数).
    pub disconnects: i64,
    /// Losses by leaving on purpose (逃跑).
    pub escapes: i64,
}

impl User {
    /// The Glicko-2 rating.
    pub fn glicko(&self) -> Rating {
        Rating {
            rating: self.rating,
            rd: self.rd,
            vol: self.vol,
        }
    }
}

/// The time control of a game, in milliseconds (0 = none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TcMs {
    /// Game clock per player.
    pub clock_ms: i64,
    /// Fischer increment.
    pub inc_ms: i64,
    /// Per-move limit.
    pub move_ms: i64,
}

/// A game as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    /// Id.
    pub id: GameId,
    /// Red's account (None for an AI seat).
    pub red_user: Option<UserId>,
    /// Blue's account.
    pub blue_user: Option<UserId>,
    /// Red's AI level, for an AI seat.
    pub red_ai: Option<u8>,
    /// Blue's AI level.
    pub blue_ai: Option<u8>,
    /// One account holds both seats.
    pub hotseat: bool,
    /// Rated.
    pub rated: bool,
    /// Time control.
    pub tc: TcMs,
    /// Rule set (RULES §9).
    pub rules: String,
    /// Start position (JFEN).
    pub start_fen: String,
    /// `live` or `finished`.
    pub status: String,
    /// `red`, `blue` or None.
    pub winner: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Plies played (kept up to date when the game ends).
    pub plies: i64,
    /// Start time, ms since the epoch.
    pub started_at: i64,
    /// End time.
    pub ended_at: Option<i64>,
    /// The score changes at the end (JSON).
    pub changes: Option<String>,
    /// Red's rating and level when the game started (None for an AI seat, and for games
    /// stored before these were kept).
    pub red_start: Option<StartStanding>,
    /// Blue's rating and level when the game started.
    pub blue_start: Option<StartStanding>,
    /// Of a finished timed game: each side's game clock at its end, `[red, blue]` (None while
    /// live, untimed, or for games finished before these were kept).
    pub end_clocks: Option<[i64; 2]>,
    /// Of an aborted game: the side that aborted it (`red` or `blue`; None if not kept).
    pub aborted_by: Option<String>,
    /// Of a finished game: each side's timeouts at its end, `[red, blue]` (None while live, or
    /// for games finished before these were kept).
    pub end_timeouts: Option<[u32; 2]>,
}

/// How a game ended, as [`Store::finish_game`] stores it.
#[derive(Debug, Clone, Copy)]
pub struct GameEnd<'a> {
    /// `red`, `blue`, or None for a draw or an abort.
    pub winner: Option<&'a str>,
    /// Why (doc/protocol.md's reasons).
    pub reason: &'a str,
    /// Of an aborted game: the side that aborted it.
    pub aborted_by: Option<&'a str>,
    /// Plies played.
    pub plies: i64,
    /// End time, ms since the epoch.
    pub at: i64,
    /// Of a timed game: each side's game clock at the end, `[red, blue]`.
    pub clocks: Option<[i64; 2]>,
    /// Each side's timeouts at the end, `[red, blue]`.
    pub timeouts: [u32; 2],
}

/// A player's rating and level when a game started, kept with the game so that histories and
/// replays show the players as they were then.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StartStanding {
    /// Glicko-2 rating.
    pub rating: f64,
    /// Level (RULES §8.5).
    pub level: i64,
}

/// One acknowledged ply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyRow {
    /// Ply number from 0.
    pub ply: i64,
    /// Coordinate move or `--`.
    pub mv: String,
    /// The server passed for a player who ran out of per-move time.
    pub timeout: bool,
    /// Red's game clock after the ply.
    pub red_ms: i64,
    /// Blue's game clock after the ply.
    pub blue_ms: i64,
    /// When it was played.
    pub at: i64,
}

/// The store: a connection pool, the level table used to show levels, and the ply writer.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// What makes text compare byte by byte (names in orders): nothing on SQLite, where it
    /// does already; `COLLATE "C"` on PostgreSQL, where it follows the database's locale.
    bytewise: &'static str,
    levels: Arc<LevelTable>,
    finish_lock: Arc<tokio::sync::Mutex<()>>,
    plies_tx: mpsc::Sender<PendingPly>,
}

struct PendingPly {
    game: GameId,
    row: PlyRow,
    done: oneshot::Sender<std::result::Result<(), String>>,
}

/// Most plies committed in one transaction by the writer.
const MAX_BATCH: usize = 512;

/// Rows in one multi-row INSERT of the ply writer (7 bound values each, well under SQLite's
/// and PostgreSQL's limits on bound parameters).
const ROWS_PER_INSERT: usize = 128;

/// Inserts `plies` (at most [`ROWS_PER_INSERT`]) with one multi-row statement: a statement per
/// ply costs a round trip to the database driver each, which dominated the writer under load.
/// The statement has numbered placeholders (`$1`, `$2`, …, which both SQLite and PostgreSQL
/// take); every value is bound.
async fn insert_plies<'c, E>(exec: E, plies: &[PendingPly]) -> std::result::Result<(), sqlx::Error>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    use std::fmt::Write;
    let mut sql =
        String::from("INSERT INTO moves (game_id, ply, mv, timeout, red_ms, blue_ms, at) VALUES ");
    for i in 0..plies.len() {
        let b = i * 7;
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(
            sql,
            "{sep}(${}, ${}, ${}, ${}, ${}, ${}, ${})",
            b + 1,
            b + 2,
            b + 3,
            b + 4,
            b + 5,
            b + 6,
            b + 7
        );
    }
    let mut q = sqlx::query(&sql);
    for p in plies {
        q = q
            .bind(p.game.as_str())
            .bind(p.row.ply)
            .bind(p.row.mv.as_str())
            .bind(i64::from(p.row.timeout))
            .bind(p.row.red_ms)
            .bind(p.row.blue_ms)
            .bind(p.row.at);
    }
    q.execute(exec).await?;
    Ok(())
}

/// The ply writer: group commit. Every ply waiting when a transaction starts goes into it, so
/// many games share one disk sync, and each ply is acknowledged only once its transaction has
/// committed. If a batch fails, its plies are retried one by one so each gets its own answer
/// (unless the database is away: then all get its error at once).
async fn ply_writer(pool: AnyPool, mut rx: mpsc::Receiver<PendingPly>) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        let together = async {
            let mut tx = pool.begin().await?;
            for chunk in batch.chunks(ROWS_PER_INSERT) {
                insert_plies(&mut *tx, chunk).await?;
            }
            tx.commit().await
        }
        .await;
        match together {
            Ok(()) => {
                for p in batch {
                    let _ = p.done.send(Ok(()));
                }
            }
            // The database is away (no connection within `ACQUIRE_TIMEOUT`, or it went): each
            // ply alone would wait as long again, so all are answered at once.
            Err(e @ (sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_))) => {
                let e = e.to_string();
                for p in batch {
                    let _ = p.done.send(Err(e.clone()));
                }
            }
            Err(e) => {
                tracing::warn!(plies = batch.len(), error = %e, "a batch of plies failed; writing them one by one");
                for p in batch {
                    let r = insert_plies(&pool, std::slice::from_ref(&p)).await;
                    let _ = p.done.send(r.map_err(|e| e.to_string()));
                }
            }
        }
    }
}

/// How often the SQLite write-ahead log is copied back into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// The page size of a new SQLite database, bytes (see `Store::connect_with`).
pub const SQLITE_PAGE_SIZE: u32 = 1024;

/// Frames in the write-ahead log (one page each) past which the checkpointer restarts the log.
const RESTART_FRAMES: i64 = 16384;

/// SQLite only: checkpoints the write-ahead log on a connection of its own. SQLite's automatic
/// checkpoint would run inside one of the ply writer's commits and hold every waiting move for
/// its disk syncs; a passive checkpoint here runs alongside the writer instead. Passive
/// checkpoints never catch up with a busy writer, so once the log is longer than
/// [`RESTART_FRAMES`] a restarting checkpoint (which waits for the writer and then copies only
/// the few frames left) lets the log start over. Ends when the pool is closed (or with the
/// ply writer it runs beside).
async fn checkpointer(pool: AnyPool) {
    loop {
        tokio::time::sleep(CHECKPOINT_EVERY).await;
        if pool.is_closed() {
            break;
        }
        let frames = match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&pool)
            .await
        {
            Ok(row) => row.try_get::<i64, _>(1).unwrap_or(0),
            Err(e) => {
                tracing::warn!(error = %e, "WAL checkpoint failed");
                continue;
            }
        };
        if frames > RESTART_FRAMES {
            if let Err(e) = restart_log(&pool).await {
                tracing::warn!(error = %e, "WAL checkpoint failed");
            }
        }
    }
}

/// The longest a restarting checkpoint waits for the writer and for readers, ms.
const RESTART_WAIT_MS: u32 = 100;

/// A restarting checkpoint. While it waits for the writer to finish and for readers to leave the
/// log, it holds back every new write (moves included), so it waits at most [`RESTART_WAIT_MS`]
/// (a long read cannot stall the games); if it cannot finish in time the log keeps growing until
/// the next round tries again.
async fn restart_log(pool: &AnyPool) -> std::result::Result<(), sqlx::Error> {
    use sqlx::Executor;
    let mut conn = pool.acquire().await?;
    conn.execute(format!("PRAGMA busy_timeout={RESTART_WAIT_MS}").as_str())
        .await?;
    let r = conn.execute("PRAGMA wal_checkpoint(RESTART)").await;
    if conn.execute("PRAGMA busy_timeout=10000").await.is_err() {
        // Not returned to the pool with the short timeout.
        let _ = conn.close().await;
    }
    r.map(|_| ())
}

/// How long a session lasts (as long as its cookie): a token found or stolen later is worth
/// nothing, however it was kept.
pub const SESSION_LIFETIME_MS: i64 = 365 * 24 * 3_600_000;

/// How long a request waits for a database connection before it fails.
pub const ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Opens one connection to `url` and uses it, so that a database that cannot be used says why
/// at once (connection refused, a file that is not a database, a read-only file) instead of a
/// pool timing out after retrying in silence.
async fn check_database(url: &str, sqlite: bool) -> Result<()> {
    use sqlx::{Connection, Executor};
    let mut conn = sqlx::AnyConnection::connect(url).await?;
    // SQLite: WAL mode reads the file's header and needs to write it. A new file gets the small
    // pages first (see `connect_with`): the first write fixes the page size.
    let r = if sqlite {
        let pages = format!("PRAGMA page_size={SQLITE_PAGE_SIZE}");
        match conn.execute(pages.as_str()).await {
            Ok(_) => match conn.execute("PRAGMA journal_mode=WAL").await {
                // A file that can be read but not written (its permissions, `?mode=ro`) opens
                // all the same: a write, changing nothing, finds it out now rather than at the
                // first request.
                Ok(_) => match sqlx::query_scalar::<_, i64>("PRAGMA user_version")
                    .fetch_one(&mut conn)
                    .await
                {
                    Ok(v) => {
                        conn.execute(format!("PRAGMA user_version={v}").as_str())
                            .await
                    }
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        }
    } else {
        conn.execute("SELECT 1").await
    };
    let _ = conn.close().await;
    r.map(|_| ()).map_err(Into::into)
}

/// The hex SHA-256 of a session token: only this is stored.
fn token_hash(token: &str) -> String {
    let d = Sha256::digest(token.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

const USER_COLS: &str = "id, name, guest, score, coins, rating, rd, vol, games, wins, losses, draws, disconnects, escapes";
const GAME_COLS: &str = "id, red_user, blue_user, red_ai, blue_ai, hotseat, rated, clock_ms, inc_ms, move_ms, rules, start_fen, status, winner, reason, plies, started_at, ended_at, changes, red_rating, red_level, blue_rating, blue_level, red_end_ms, blue_end_ms, aborted_by, red_end_timeouts, blue_end_timeouts";

/// A seat's [`StartStanding`] from a games row (`side` is `red` or `blue`): both columns, or none.
fn start_standing(r: &AnyRow, side: &str) -> Result<Option<StartStanding>> {
    let rating: Option<f64> = r.try_get(format!("{side}_rating").as_str())?;
    let level: Option<i64> = r.try_get(format!("{side}_level").as_str())?;
    Ok(rating
        .zip(level)
        .map(|(rating, level)| StartStanding { rating, level }))
}

fn parse_id<T: std::str::FromStr>(s: String) -> Result<T> {
    s.parse()
        .map_err(|_| StoreError::Corrupt(format!("bad id {s}")))
}

impl Store {
    /// Connects to `url` (`sqlite://…` or `postgres://…`), turns on WAL for SQLite (in
    /// `check_database`) and runs the
    /// migrations. SQLite syncs every commit to disk (`synchronous=FULL`).
    pub async fn connect(url: &str, levels: Arc<LevelTable>) -> Result<Store> {
        Self::connect_with(url, levels, true).await
    }

    /// [`Store::connect`], choosing for SQLite whether each commit is synced to disk
    /// (`full_sync`, `synchronous=FULL`) or only written to the WAL (`synchronous=NORMAL`:
    /// acknowledged moves survive a killed server, but not a power cut or an OS crash).
    pub async fn connect_with(
        url: &str,
        levels: Arc<LevelTable>,
        full_sync: bool,
    ) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        check_database(url, sqlite).await?;
        // A request waits this long for a connection: when the database is down, the answer is
        // an `internal` error within seconds, not a request hanging for half a minute.
        let mut opts = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            .acquire_timeout(ACQUIRE_TIMEOUT);
        if sqlite {
            opts = opts.after_connect(move |conn, _meta| {
                Box::pin(async move {
                    use sqlx::Executor;
                    // Small pages for a new database (an existing one keeps its size): each
                    // commit of the ply writer touches about one index page per ply (the plies of
                    // thousands of games land all over the moves index), and every touched page
                    // is written whole to the log and again by the checkpoint. With 1 KiB pages
                    // instead of 4 KiB the server wrote 2.3x less under `jungle loadtest`.
                    conn.execute(format!("PRAGMA page_size={SQLITE_PAGE_SIZE}").as_str())
                        .await?;
                    let sync = if full_sync { "FULL" } else { "NORMAL" };
                    conn.execute(format!("PRAGMA synchronous={sync}").as_str())
                        .await?;
                    conn.execute("PRAGMA busy_timeout=10000").await?;
                    // 32 MiB of page cache per connection (SQLite's default is 2 MiB): the
                    // plies of thousands of live games land all over the moves index.
                    conn.execute("PRAGMA cache_size=-32768").await?;
                    // Checkpoints are the `checkpointer`'s, never inside a commit.
                    conn.execute("PRAGMA wal_autocheckpoint=0").await?;
                    Ok(())
                })
            });
        }
        // SQLite's WAL mode is the file's own, set by `check_database` above.
        let pool = opts.connect(url).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        let (plies_tx, plies_rx) = mpsc::channel(4096);
        // The writer (and SQLite's checkpointer) run on a thread of their own: each of their
        // steps waits for the database driver, and on the shared runtime every wake-up queued
        // behind thousands of socket tasks (tens of milliseconds a batch under load). The
        // thread ends when the last `Store` is dropped.
        let writer_pool = pool.clone();
        std::thread::Builder::new()
            .name("ply-writer".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        tracing::error!(error = %e, "the ply writer could not start");
                        return;
                    }
                };
                rt.block_on(async move {
                    if sqlite {
                        tokio::select! {
                            () = ply_writer(writer_pool.clone(), plies_rx) => {}
                            () = checkpointer(writer_pool) => {}
                        }
                    } else {
                        ply_writer(writer_pool, plies_rx).await;
                    }
                });
            })
            .map_err(sqlx::Error::Io)?;
        Ok(Store {
            pool,
            bytewise: if sqlite { "" } else { " COLLATE \"C\"" },
            levels,
            finish_lock: Arc::new(tokio::sync::Mutex::new(())),
            plies_tx,
        })
    }

    /// The level table.
    pub fn levels(&self) -> &LevelTable {
        &self.levels
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Closes the pool.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    fn user_from_row(&self, r: &AnyRow) -> Result<User> {
        let score: i64 = r.try_get("score")?;
        Ok(User {
            id: parse_id(r.try_get("id")?)?,
            name: r.try_get("name")?,
            guest: r.try_get::<i64, _>("guest")? != 0,
            score,
            level: self.levels.level_of(score),
            coins: r.try_get("coins")?,
            rating: r.try_get("rating")?,
            rd: r.try_get("rd")?,
            vol: r.try_get("vol")?,
            games: r.try_get("games")?,
            wins: r.try_get("wins")?,
            losses: r.try_get("losses")?,
            draws: r.try_get("draws")?,
            disconnects: r.try_get("disconnects")?,
            escapes: r.try_get("escapes")?,
        })
    }

    /// Creates an account (a guest when `password_hash` is None).
    pub async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<User> {
        let id = UserId::random();
        let start = Rating::default();
        let res = sqlx::query(
            "INSERT INTO users (id, name, name_key, password_hash, guest, score, coins, rating, rd, vol, games, wins, losses, draws, disconnects, escapes, created_at)
             VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8, $9, 0, 0, 0, 0, 0, 0, $10)",
        )
        .bind(id.as_str())
        .bind(name)
        .bind(name.to_lowercase())
        .bind(password_hash)
        .bind(i64::from(password_hash.is_none()))
        .bind(START_COINS)
        .bind(start.rating)
        .bind(start.rd)
        .bind(start.vol)
        .bind(now)
        .execute(&self.pool)
        .await;
        match res {
            Err(e) if is_unique_violation(&e) => return Err(StoreError::NameTaken),
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
        self.user(&id)
            .await?
            .ok_or_else(|| StoreError::Corrupt("new user vanished".into()))
    }

    /// Turns a guest into a registered account (keeping its id, so its history stays).
    /// [`StoreError::NotAGuest`] when the account is no guest (any more: two registrations of
    /// one guest at once, the other one came first), [`StoreError::NameTaken`] when the name is
    /// taken; nothing is changed then.
    pub async fn register_guest(
        &self,
        id: &UserId,
        name: &str,
        password_hash: &str,
    ) -> Result<User> {
        let res = sqlx::query(
            "UPDATE users SET name = $1, name_key = $2, password_hash = $3, guest = 0 WHERE id = $4 AND guest = 1",
        )
        .bind(name)
        .bind(name.to_lowercase())
        .bind(password_hash)
        .bind(id.as_str())
        .execute(&self.pool)
        .await;
        match res {
            Err(e) if is_unique_violation(&e) => return Err(StoreError::NameTaken),
            Err(e) => return Err(e.into()),
            // Another registration of this guest came first: its name and password stand.
            Ok(done) if done.rows_affected() == 0 => return Err(StoreError::NotAGuest),
            Ok(_) => {}
        }
        self.user(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt("registered user vanished".into()))
    }

    /// An account by id.
    pub async fn user(&self, id: &UserId) -> Result<Option<User>> {
        let q = format!("SELECT {USER_COLS} FROM users WHERE id = $1");
        let row = sqlx::query(&q)
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| self.user_from_row(&r)).transpose()
    }

    /// An account by name (case-insensitive).
    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        let q = format!("SELECT {USER_COLS} FROM users WHERE name_key = $1");
        let row = sqlx::query(&q)
            .bind(name.to_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| self.user_from_row(&r)).transpose()
    }

    /// Brings every stored name to the form `form` gives (names are kept in NFKC form since
    /// 2026-12-07; those stored before keep working and cannot be shadowed by a look-alike).
    /// A name whose new form another account holds already is left as it is (and logged).
    /// Returns how many names changed.
    pub async fn normalize_names(&self, form: impl Fn(&str) -> String) -> Result<usize> {
        let rows = sqlx::query("SELECT id, name FROM users")
            .fetch_all(&self.pool)
            .await?;
        let mut changed = 0;
        for r in rows {
            let (id, name): (String, String) = (r.try_get("id")?, r.try_get("name")?);
            let new = form(&name);
            if new == name {
                continue;
            }
            let res = sqlx::query("UPDATE users SET name = $1, name_key = $2 WHERE id = $3")
                .bind(&new)
                .bind(new.to_lowercase())
                .bind(&id)
                .execute(&self.pool)
                .await;
            match res {
                Ok(_) => changed += 1,
                Err(e) if is_unique_violation(&e) => {
                    tracing::warn!(user = %id, %name, %new, "a name's normal form is taken: kept as it was");
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(changed)
    }

    /// An account and its password hash, for logging in.
    pub async fn login_lookup(&self, name: &str) -> Result<Option<(User, Option<String>)>> {
        let q = format!("SELECT {USER_COLS}, password_hash FROM users WHERE name_key = $1");
        let row = sqlx::query(&q)
            .bind(name.to_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        match row {
            None => Ok(None),
            Some(r) => Ok(Some((self.user_from_row(&r)?, r.try_get("password_hash")?))),
        }
    }

    /// The best scores (registered accounts only); ties by name, byte by byte on every store.
    pub async fn leaderboard(&self, limit: i64) -> Result<Vec<User>> {
        let q = format!(
            "SELECT {USER_COLS} FROM users WHERE guest = 0 ORDER BY score DESC, rating DESC, name{} ASC LIMIT $1",
            self.bytewise
        );
        let rows = sqlx::query(&q).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(|r| self.user_from_row(r)).collect()
    }

    /// Stores a session for `user`.
    pub async fn create_session(&self, token: &str, user: &UserId, now: i64) -> Result<()> {
        sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at) VALUES ($1, $2, $3)")
            .bind(token_hash(token))
            .bind(user.as_str())
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The account of a session token.
    /// The account of a session that began less than [`SESSION_LIFETIME_MS`] before `now`.
    pub async fn session_user(&self, token: &str, now: i64) -> Result<Option<User>> {
        let q = format!(
            "SELECT {} FROM users u JOIN sessions s ON s.user_id = u.id WHERE s.token_hash = $1 AND s.created_at > $2",
            USER_COLS
                .split(", ")
                .map(|c| format!("u.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let row = sqlx::query(&q)
            .bind(token_hash(token))
            .bind(now - SESSION_LIFETIME_MS)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| self.user_from_row(&r)).transpose()
    }

    /// Ends one session.
    pub async fn delete_session(&self, token: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash(token))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of an account but the one of `keep` (a token).
    pub async fn delete_other_sessions(&self, user: &UserId, keep: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
            .bind(user.as_str())
            .bind(token_hash(keep))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Sets the password hash of a registered account.
    pub async fn set_password(&self, user: &UserId, password_hash: &str) -> Result<()> {
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2 AND guest = 0")
            .bind(password_hash)
            .bind(user.as_str())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of an account.
    pub async fn delete_sessions(&self, user: &UserId) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user.as_str())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores a new live game.
    pub async fn insert_game(&self, g: &GameRow) -> Result<()> {
        sqlx::query(
            "INSERT INTO games (id, red_user, blue_user, red_ai, blue_ai, hotseat, rated, clock_ms, inc_ms, move_ms, rules, start_fen, status, winner, reason, plies, started_at, ended_at, changes, red_rating, red_level, blue_rating, blue_level)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULL, NULL, 0, $14, NULL, NULL, $15, $16, $17, $18)",
        )
        .bind(g.id.as_str())
        .bind(g.red_user.as_ref().map(|u| u.as_str().to_string()))
        .bind(g.blue_user.as_ref().map(|u| u.as_str().to_string()))
        .bind(g.red_ai.map(i64::from))
        .bind(g.blue_ai.map(i64::from))
        .bind(i64::from(g.hotseat))
        .bind(i64::from(g.rated))
        .bind(g.tc.clock_ms)
        .bind(g.tc.inc_ms)
        .bind(g.tc.move_ms)
        .bind(&g.rules)
        .bind(&g.start_fen)
        .bind(&g.status)
        .bind(g.started_at)
        .bind(g.red_start.map(|s| s.rating))
        .bind(g.red_start.map(|s| s.level))
        .bind(g.blue_start.map(|s| s.rating))
        .bind(g.blue_start.map(|s| s.level))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Makes one ply durable (called before the ply is acknowledged); committed together with
    /// the plies of other games that are waiting at the same moment.
    pub async fn append_ply(&self, game: &GameId, p: &PlyRow) -> Result<()> {
        let (done, rx) = oneshot::channel();
        let pending = PendingPly {
            game: game.clone(),
            row: p.clone(),
            done,
        };
        if self.plies_tx.send(pending).await.is_err() {
            return Err(StoreError::Corrupt("the ply writer stopped".into()));
        }
        match rx.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(StoreError::Write(e)),
            Err(_) => Err(StoreError::Corrupt("the ply writer stopped".into())),
        }
    }

    /// Removes the plies from `from_ply` on (a takeback).
    pub async fn truncate_plies(&self, game: &GameId, from_ply: i64) -> Result<()> {
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(game.as_str())
            .bind(from_ply)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends a game: in one transaction, stores the result and the players' new standings, as
    /// computed by `update` from their standings read under the store's finish lock (so two games
    /// ending at once cannot lose an update).
    pub async fn finish_game<F>(
        &self,
        game: &GameId,
        players: [Option<UserId>; 2],
        end: &GameEnd<'_>,
        update: F,
    ) -> Result<[Option<(User, User)>; 2]>
    where
        F: FnOnce([Option<User>; 2]) -> [Option<User>; 2],
    {
        let _guard = self.finish_lock.lock().await;
        let mut before: [Option<User>; 2] = [None, None];
        for (i, p) in players.iter().enumerate() {
            if let Some(id) = p {
                before[i] = self.user(id).await?;
            }
        }
        let after = update(before.clone());
        let changed: [Option<(User, User)>; 2] = [0, 1].map(|i| match (&before[i], &after[i]) {
            (Some(b), Some(a)) => Some((b.clone(), a.clone())),
            _ => None,
        });
        let changes_json = serde_json::to_string(
            &changed
                .iter()
                .map(|c| c.as_ref().map(|(b, a)| crate::game::Change::between(b, a)))
                .collect::<Vec<_>>(),
        )
        .unwrap_or_default();
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET status = 'finished', winner = $1, reason = $2, plies = $3, ended_at = $4, changes = $5, red_end_ms = $6, blue_end_ms = $7, aborted_by = $8, red_end_timeouts = $9, blue_end_timeouts = $10 WHERE id = $11 AND status = 'live'",
        )
        .bind(end.winner)
        .bind(end.reason)
        .bind(end.plies)
        .bind(end.at)
        .bind(changes_json)
        .bind(end.clocks.map(|c| c[0]))
        .bind(end.clocks.map(|c| c[1]))
        .bind(end.aborted_by)
        .bind(i64::from(end.timeouts[0]))
        .bind(i64::from(end.timeouts[1]))
        .bind(game.as_str())
        .execute(&mut *tx)
        .await?;
        // Safe to repeat: a game ends once, and its players' standings change with it only.
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(StoreError::AlreadyFinished);
        }
        for (_, a) in changed.iter().flatten() {
            sqlx::query(
                "UPDATE users SET score = $1, coins = $2, rating = $3, rd = $4, vol = $5, games = $6, wins = $7, losses = $8, draws = $9, disconnects = $10, escapes = $11 WHERE id = $12",
            )
            .bind(a.score)
            .bind(a.coins)
            .bind(a.rating)
            .bind(a.rd)
            .bind(a.vol)
            .bind(a.games)
            .bind(a.wins)
            .bind(a.losses)
            .bind(a.draws)
            .bind(a.disconnects)
            .bind(a.escapes)
            .bind(a.id.as_str())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(changed)
    }

    fn game_from_row(r: &AnyRow) -> Result<GameRow> {
        let opt_id = |v: Option<String>| -> Result<Option<UserId>> { v.map(parse_id).transpose() };
        Ok(GameRow {
            id: parse_id(r.try_get("id")?)?,
            red_user: opt_id(r.try_get("red_user")?)?,
            blue_user: opt_id(r.try_get("blue_user")?)?,
            red_ai: r.try_get::<Option<i64>, _>("red_ai")?.map(|v| v as u8),
            blue_ai: r.try_get::<Option<i64>, _>("blue_ai")?.map(|v| v as u8),
            hotseat: r.try_get::<i64, _>("hotseat")? != 0,
            rated: r.try_get::<i64, _>("rated")? != 0,
            tc: TcMs {
                clock_ms: r.try_get("clock_ms")?,
                inc_ms: r.try_get("inc_ms")?,
                move_ms: r.try_get("move_ms")?,
            },
            rules: r.try_get("rules")?,
            start_fen: r.try_get("start_fen")?,
            status: r.try_get("status")?,
            winner: r.try_get("winner")?,
            reason: r.try_get("reason")?,
            plies: r.try_get("plies")?,
            started_at: r.try_get("started_at")?,
            ended_at: r.try_get("ended_at")?,
            changes: r.try_get("changes")?,
            red_start: start_standing(r, "red")?,
            blue_start: start_standing(r, "blue")?,
            end_clocks: match (
                r.try_get::<Option<i64>, _>("red_end_ms")?,
                r.try_get::<Option<i64>, _>("blue_end_ms")?,
            ) {
                (Some(red), Some(blue)) => Some([red, blue]),
                _ => None,
            },
            aborted_by: r.try_get("aborted_by")?,
            end_timeouts: match (
                r.try_get::<Option<i64>, _>("red_end_timeouts")?,
                r.try_get::<Option<i64>, _>("blue_end_timeouts")?,
            ) {
                (Some(red), Some(blue)) => Some([red as u32, blue as u32]),
                _ => None,
            },
        })
    }

    /// A game by id.
    pub async fn game(&self, id: &GameId) -> Result<Option<GameRow>> {
        let q = format!("SELECT {GAME_COLS} FROM games WHERE id = $1");
        let row = sqlx::query(&q)
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Self::game_from_row(&r)).transpose()
    }

    /// The plies of a game, in order.
    pub async fn plies(&self, id: &GameId) -> Result<Vec<PlyRow>> {
        let rows = sqlx::query(
            "SELECT ply, mv, timeout, red_ms, blue_ms, at FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PlyRow {
                    ply: r.try_get("ply")?,
                    mv: r.try_get("mv")?,
                    timeout: r.try_get::<i64, _>("timeout")? != 0,
                    red_ms: r.try_get("red_ms")?,
                    blue_ms: r.try_get("blue_ms")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }

    /// Every live game (to resume them after a restart).
    pub async fn live_games(&self) -> Result<Vec<GameRow>> {
        let q = format!("SELECT {GAME_COLS} FROM games WHERE status = 'live' ORDER BY started_at");
        let rows = sqlx::query(&q).fetch_all(&self.pool).await?;
        rows.iter().map(Self::game_from_row).collect()
    }

    /// A player's games, newest first, before the game `before` (by start time) if given.
    pub async fn user_games(
        &self,
        user: &UserId,
        before: Option<(i64, &GameId)>,
        limit: i64,
    ) -> Result<Vec<GameRow>> {
        // Pages go by (start time, id): games started in the same millisecond are neither
        // skipped nor repeated.
        let q = format!(
            "SELECT {GAME_COLS} FROM games WHERE (red_user = $1 OR blue_user = $1) AND (started_at < $2 OR (started_at = $2 AND id < $3)) ORDER BY started_at DESC, id DESC LIMIT $4"
        );
        let (at, id) = before.map_or((i64::MAX, ""), |(at, id)| (at, id.as_str()));
        let rows = sqlx::query(&q)
            .bind(user.as_str())
            .bind(at)
            .bind(id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(Self::game_from_row).collect()
    }
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            d.is_unique_violation()
                || d.message().contains("UNIQUE")
                || d.message().contains("duplicate key")
        }
        _ => false,
    }
}
