//! The hub: shared server state that is *not* game state — the store, the clock, the AI pool,
//! the registry of live game actors, who is online, and the lobby (seeks and challenges).

use crate::ai::AiPool;
use crate::clock::SharedClock;
use crate::game::{self, ActorInit, GameHandle, GameMeta, PlyStamp, Seat, UnstoredResults};
use crate::ids::{GameId, SeekId, UserId};
use crate::store::{GameRow, StartStanding, Store, StoreError, TcMs, User};
use crate::wire::{color_name, ColorChoice, TimeControl};
use jungle::{ByColor, Color, Game, Jfen, MoveText, Position, Rules};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{broadcast, watch};

/// Tunables of the server (all but the WebSocket message rate and the request timeout have flags
/// in `jungle serve`).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// How long a disconnected player may take to come back (RULES §8.3), ms.
    pub reconnect_grace_ms: i64,
    /// AI thinking time per level, ms (level 10 thinks 10×).
    pub ai_ms_per_level: i64,
    /// Concurrent AI searches (the AI's moves and its answers to draw offers).
    pub max_searches: usize,
    /// Concurrent searches for `POST /api/analyze`, apart from the AI's (so that analyses never
    /// hold up an AI game).
    pub max_analyses: usize,
    /// Analysis requests per address per minute; 0 = unlimited.
    pub analyses_per_ip_per_min: u32,
    /// Open WebSockets per client address; 0 = unlimited.
    pub max_ws_per_ip: usize,
    /// Account requests (guest, register, login) per address per minute; 0 = unlimited.
    pub auth_per_ip_per_min: u32,
    /// WebSocket messages per connection per second.
    pub ws_msgs_per_sec: u32,
    /// Mark the session cookie `Secure` (set when served behind HTTPS).
    pub secure_cookies: bool,
    /// How long a client may take to send a request's headers, and how long an idle
    /// keep-alive connection stays open (see [`crate::http`]).
    pub header_read_timeout: std::time::Duration,
    /// How long a request may take from its headers to its answer, reading its body included
    /// (408 `timeout` after).
    pub request_timeout: std::time::Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            reconnect_grace_ms: 60_000,
            ai_ms_per_level: 100,
            max_searches: 2,
            max_analyses: 1,
            analyses_per_ip_per_min: 120,
            max_ws_per_ip: 64,
            auth_per_ip_per_min: 30,
            ws_msgs_per_sec: 20,
            secure_cookies: false,
            header_read_timeout: std::time::Duration::from_secs(30),
            request_timeout: std::time::Duration::from_secs(60),
        }
    }
}

/// A message for every connection of one user.
#[derive(Debug, Clone)]
pub enum UserEvent {
    /// A game of theirs started: follow it.
    GameStarted(GameId),
    /// Sessions of theirs ended: the sockets opened with them close.
    SignedOut(Sessions),
}

/// Which sessions of an account a sign-out ends.
#[derive(Debug, Clone)]
pub enum Sessions {
    /// The one of this token (`POST /api/logout`).
    One(Arc<str>),
    /// Every one (`POST /api/logout-all`).
    All,
    /// Every one but this token's (`POST /api/password`: the other devices sign in again).
    AllBut(Arc<str>),
}

impl Sessions {
    /// Whether the session of `token` is among them.
    pub fn includes(&self, token: &str) -> bool {
        match self {
            Sessions::One(t) => **t == *token,
            Sessions::All => true,
            Sessions::AllBut(t) => **t != *token,
        }
    }
}

/// An open seek in the lobby.
#[derive(Debug, Clone, Serialize)]
pub struct Seek {
    /// Id.
    pub id: SeekId,
    /// Owner's name.
    pub user: String,
    /// Owner's rating.
    pub rating: f64,
    /// Time control.
    pub tc: TimeControl,
    /// Rated.
    pub rated: bool,
    /// Rule set.
    pub rules: String,
    #[serde(skip)]
    owner: UserId,
    /// When it was opened (the hub's clock, ms).
    #[serde(skip)]
    created: i64,
}

/// How many rating points one second of waiting is worth when quick pairing chooses a seek: a
/// seek that has waited 30 s is preferred to one 300 points closer that has just been opened.
pub const QUICK_POINTS_PER_WAITED_S: f64 = 10.0;

/// The seek quick pairing takes for a player rated `rating` at `now` among `candidates` (index,
/// seek): the one whose owner's rating is closest, less [`QUICK_POINTS_PER_WAITED_S`] for every
/// second it has waited; the oldest on a tie.
fn quick_choice<'a>(
    candidates: impl Iterator<Item = (usize, &'a Seek)>,
    rating: f64,
    now: i64,
) -> Option<usize> {
    let distance = |s: &Seek| {
        let waited_s = (now - s.created).max(0) as f64 / 1000.0;
        (s.rating - rating).abs() - QUICK_POINTS_PER_WAITED_S * waited_s
    };
    candidates
        .min_by(|(_, a), (_, b)| {
            distance(a)
                .total_cmp(&distance(b))
                .then(a.created.cmp(&b.created))
        })
        .map(|(i, _)| i)
}

struct Challenge {
    owner: UserId,
    tc: TimeControl,
    rated: bool,
    color: ColorChoice,
    /// When it was made (server time, ms).
    created: i64,
}

/// How long a private challenge stays open, ms (challenges live in memory: a restart ends them too).
pub const CHALLENGE_TTL_MS: i64 = 24 * 3_600_000;

/// Open challenges a player may have; a new one past this drops their oldest.
pub const MAX_CHALLENGES_PER_USER: usize = 20;

/// Open seeks a user may have at once; a new one past this drops that user's oldest (every
/// change is sent to everyone in the lobby: one player's thousand seeks would flood them all).
pub const MAX_SEEKS_PER_USER: usize = 5;

/// Live games one player may start (against the AI, at one device, or by accepting a seek or
/// challenge) while they already have this many going on.
pub const MAX_LIVE_GAMES_PER_USER: usize = 20;

/// Open challenges on the server; a new one past this drops the oldest.
const MAX_CHALLENGES: usize = 10_000;

#[derive(Default)]
struct Registry {
    games: HashMap<GameId, GameHandle>,
    user_games: HashMap<UserId, HashSet<GameId>>,
    online: HashMap<UserId, (usize, broadcast::Sender<UserEvent>)>,
    seeks: Vec<Seek>,
    challenges: HashMap<SeekId, Challenge>,
}

struct Inner {
    store: Store,
    clock: SharedClock,
    ai: AiPool,
    analysis: AiPool,
    config: ServerConfig,
    reg: Mutex<Registry>,
    lobby: broadcast::Sender<Arc<str>>,
    /// Sessions ended so far (see [`Hub::signouts`]).
    signouts: AtomicU64,
    /// Set once the server begins to stop (see [`Hub::begin_shutdown`]).
    stopping: watch::Sender<bool>,
    /// The results of ended games the database has not taken yet.
    unstored: UnstoredResults,
}

/// A cloneable handle on the hub.
#[derive(Clone)]
pub struct Hub(Arc<Inner>);

impl Hub {
    /// A hub over a store and a clock.
    pub fn new(store: Store, clock: SharedClock, config: ServerConfig) -> Hub {
        let ai = AiPool::new(config.max_searches);
        let analysis = AiPool::new(config.max_analyses);
        Hub(Arc::new(Inner {
            store,
            clock,
            ai,
            analysis,
            config,
            reg: Mutex::new(Registry::default()),
            lobby: broadcast::channel(64).0,
            signouts: AtomicU64::new(0),
            stopping: watch::channel(false).0,
            unstored: UnstoredResults::default(),
        }))
    }

    /// The server begins to stop: from now on game actions and new games are refused
    /// (`shutting_down`, nothing changed), and results the database has not taken yet are retried
    /// at once (the server then waits for them a few seconds: [`UnstoredResults::wait`]).
    pub fn begin_shutdown(&self) {
        self.0.stopping.send_replace(true);
    }

    /// Whether the server is stopping ([`Hub::begin_shutdown`]).
    pub fn is_shutting_down(&self) -> bool {
        *self.0.stopping.borrow()
    }

    /// Follows whether the server is stopping.
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.0.stopping.subscribe()
    }

    /// The results of ended games the database has not taken yet (retried until it does).
    pub fn unstored_results(&self) -> &UnstoredResults {
        &self.0.unstored
    }

    fn reg(&self) -> MutexGuard<'_, Registry> {
        // A panic elsewhere while holding the lock leaves plain maps that are still usable.
        self.0.reg.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.0.store
    }
    /// The clock.
    pub fn clock(&self) -> SharedClock {
        self.0.clock.clone()
    }
    /// The AI pool.
    pub fn ai(&self) -> AiPool {
        self.0.ai.clone()
    }
    /// The pool of the analysis endpoint's searches.
    pub fn analysis(&self) -> AiPool {
        self.0.analysis.clone()
    }
    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.0.config
    }

    /// A live (or just finished) game's handle.
    pub fn game(&self, id: &GameId) -> Option<GameHandle> {
        self.reg().games.get(id).cloned()
    }

    /// Ids of the live games.
    pub fn live_game_ids(&self) -> Vec<GameId> {
        let reg = self.reg();
        let mut v: Vec<GameId> = reg
            .user_games
            .values()
            .flatten()
            .cloned()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        v.sort();
        v
    }

    /// Number of game actors running.
    pub fn actor_count(&self) -> usize {
        self.reg().games.len()
    }

    /// The live games of a player.
    pub fn user_live_games(&self, user: &UserId) -> Vec<GameId> {
        let mut v: Vec<GameId> = self
            .reg()
            .user_games
            .get(user)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
        v.sort();
        v
    }

    /// Live games (actors running, finished ones lingering included) and players online now.
    pub fn counts(&self) -> (usize, usize) {
        let reg = self.reg();
        let online = reg.online.values().filter(|(n, _)| *n > 0).count();
        (reg.games.len(), online)
    }

    fn online(&self, user: &Option<UserId>) -> bool {
        user.as_ref().is_none_or(|u| self.is_online(u))
    }

    /// Whether `user` has a WebSocket open now.
    pub fn is_online(&self, user: &UserId) -> bool {
        is_online(&self.reg(), user)
    }

    /// A connection of `user` opened: returns the user's event feed.
    pub async fn connect_user(&self, user: &UserId) -> broadcast::Receiver<UserEvent> {
        let (rx, first, games) = {
            let mut reg = self.reg();
            let entry = reg
                .online
                .entry(user.clone())
                .or_insert_with(|| (0, broadcast::channel(16).0));
            entry.0 += 1;
            let first = entry.0 == 1;
            let rx = entry.1.subscribe();
            let games = Self::handles_of(&reg, user);
            (rx, first, games)
        };
        if first {
            for g in games {
                g.presence(user.clone(), true).await;
            }
        }
        rx
    }

    /// A connection of `user` closed.
    pub async fn disconnect_user(&self, user: &UserId) {
        let (last, games) = {
            let mut reg = self.reg();
            let mut last = false;
            if let Some(e) = reg.online.get_mut(user) {
                e.0 = e.0.saturating_sub(1);
                last = e.0 == 0;
            }
            if last {
                reg.online.remove(user);
                reg.seeks.retain(|s| &s.owner != user);
            }
            (last, Self::handles_of(&reg, user))
        };
        if last {
            self.publish_seeks();
            for g in games {
                g.presence(user.clone(), false).await;
            }
        }
    }

    fn handles_of(reg: &Registry, user: &UserId) -> Vec<GameHandle> {
        reg.user_games
            .get(user)
            .map(|s| {
                s.iter()
                    .filter_map(|id| reg.games.get(id).cloned())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn notify(&self, user: &UserId, ev: UserEvent) {
        if let Some((_, tx)) = self.reg().online.get(user) {
            let _ = tx.send(ev);
        }
    }

    /// Sessions of `user` ended (already deleted from the store). Their open sockets are told
    /// ([`UserEvent::SignedOut`]) and close.
    pub fn sign_out(&self, user: &UserId, sessions: Sessions) {
        // Counted before telling: a socket that subscribes after the event went out sees the
        // count changed (see [`Hub::signouts`]).
        self.0.signouts.fetch_add(1, Ordering::SeqCst);
        self.notify(user, UserEvent::SignedOut(sessions));
    }

    /// How many sign-outs there have been. A socket reads it before its session is checked and
    /// again once it listens to its user's events ([`Hub::connect_user`]): when it changed, a
    /// sign-out may have fallen in between, unheard, and the socket checks its session again.
    pub fn signouts(&self) -> u64 {
        self.0.signouts.load(Ordering::SeqCst)
    }

    /// Starts a new game: stores it, starts its actor and tells both players' connections.
    ///
    /// Each player's seat is read from the store here, so that the game starts with their rating,
    /// level and guest flag as they are now (a socket's copy, or a finished game's seats for its
    /// rematch, may be older). A game with a guest or the AI in it is casual, whatever `rated`
    /// says: it could change nobody's score, and must not say it is rated.
    pub async fn start_game(
        &self,
        mut seats: ByColor<Seat>,
        rated: bool,
        hotseat: bool,
        tc: TcMs,
        rules: Rules,
    ) -> Result<GameHandle, StoreError> {
        for c in [Color::Red, Color::Blue] {
            if let Some(id) = seats[c].user.clone() {
                if let Some(u) = self.0.store.user(&id).await? {
                    seats[c] = Seat::human(&u);
                }
            }
        }
        let rated = rated
            && [Color::Red, Color::Blue]
                .iter()
                .all(|&c| seats[c].user.is_some() && !seats[c].info.guest);
        let now = self.0.clock.now_ms();
        let id = GameId::random();
        let start = Position::start(rules);
        let row = GameRow {
            id: id.clone(),
            red_user: seats[Color::Red].user.clone(),
            blue_user: seats[Color::Blue].user.clone(),
            red_ai: seats[Color::Red].ai,
            blue_ai: seats[Color::Blue].ai,
            hotseat,
            rated,
            tc,
            rules: rules.to_string(),
            start_fen: Jfen::from_position(&start).to_string(),
            status: "live".into(),
            winner: None,
            reason: None,
            plies: 0,
            started_at: now,
            ended_at: None,
            changes: None,
            red_start: seats[Color::Red].start_standing(),
            blue_start: seats[Color::Blue].start_standing(),
            end_clocks: None,
            end_timeouts: None,
            aborted_by: None,
        };
        self.0.store.insert_game(&row).await?;
        let meta = GameMeta {
            id: id.clone(),
            seats,
            hotseat,
            rated,
            tc,
            started_at: now,
        };
        let init = ActorInit {
            presence: ByColor::new_with(|c| self.online(&meta.seats[c].user)),
            meta,
            game: Game::from_position(start),
            remaining: ByColor::new_with(|_| tc.clock_ms),
            timeouts: ByColor::new_with(|_| 0),
            stamps: Vec::new(),
        };
        Ok(self.register(init))
    }

    fn register(&self, init: ActorInit) -> GameHandle {
        let users: Vec<UserId> = Color::ALL
            .iter()
            .filter_map(|c| init.meta.seats[*c].user.clone())
            .collect();
        let handle = game::spawn(self.clone(), init);
        let id = handle.meta.id.clone();
        {
            let mut reg = self.reg();
            reg.games.insert(id.clone(), handle.clone());
            for u in &users {
                reg.user_games
                    .entry(u.clone())
                    .or_default()
                    .insert(id.clone());
            }
        }
        for u in users.iter().collect::<HashSet<_>>() {
            self.notify(u, UserEvent::GameStarted(id.clone()));
        }
        handle
    }

    /// A game ended: it no longer counts among its players' live games.
    pub fn game_ended(&self, meta: &GameMeta) {
        let mut reg = self.reg();
        for c in Color::ALL {
            if let Some(u) = &meta.seats[c].user {
                if let Some(s) = reg.user_games.get_mut(u) {
                    s.remove(&meta.id);
                    if s.is_empty() {
                        reg.user_games.remove(u);
                    }
                }
            }
        }
    }

    /// A game's actor stopped.
    pub fn forget_game(&self, id: &GameId) {
        self.reg().games.remove(id);
    }

    /// Restarts the actors of every game stored as live, with every stored ply; clocks resume
    /// from their stored values now, so the time the server was down is charged to no one.
    pub async fn resume_all(&self) -> Result<usize, StoreError> {
        let rows = self.0.store.live_games().await?;
        let mut n = 0;
        for row in rows {
            match self.resume(&row).await {
                Ok(()) => n += 1,
                Err(e) => tracing::error!(game = %row.id, error = %e, "cannot resume a game"),
            }
        }
        Ok(n)
    }

    /// A stored game's seat, with the rating and level of its start (`start`, when kept).
    async fn seat_of(
        &self,
        user: &Option<UserId>,
        ai: Option<u8>,
        start: Option<StartStanding>,
    ) -> Result<Seat, StoreError> {
        match (user, ai) {
            (Some(u), _) => {
                let user = self
                    .0
                    .store
                    .user(u)
                    .await?
                    .ok_or_else(|| StoreError::Corrupt(format!("unknown user {u}")))?;
                Ok(Seat::human(&user).as_at_start(start))
            }
            (None, Some(level)) => Ok(Seat::ai(level)),
            (None, None) => Err(StoreError::Corrupt("a seat with no player".into())),
        }
    }

    async fn resume(&self, row: &GameRow) -> Result<(), StoreError> {
        let corrupt = |m: String| StoreError::Corrupt(format!("game {}: {m}", row.id));
        let rules: Rules = row.rules.parse().map_err(|e| corrupt(format!("{e}")))?;
        let start =
            Jfen::parse_position(&row.start_fen, rules).map_err(|e| corrupt(e.to_string()))?;
        let mut game = Game::from_position(start);
        let plies = self.0.store.plies(&row.id).await?;
        let mut remaining = ByColor::new_with(|_| row.tc.clock_ms);
        let mut timeouts = ByColor::new_with(|_| 0u32);
        let mut stamps = Vec::new();
        for p in &plies {
            let pos = *game.position();
            let m =
                p.mv.parse::<MoveText>()
                    .map_err(|e| corrupt(e.to_string()))?;
            let m = if m == MoveText::Pass {
                jungle::Move::PASS
            } else {
                m.to_move(&pos).map_err(|e| corrupt(e.to_string()))?
            };
            if p.timeout {
                timeouts[pos.turn()] += 1;
            }
            game.play(m).map_err(|e| corrupt(e.to_string()))?;
            remaining[Color::Red] = p.red_ms;
            remaining[Color::Blue] = p.blue_ms;
            stamps.push(PlyStamp {
                red_ms: p.red_ms,
                blue_ms: p.blue_ms,
                at: p.at,
                timeouts,
            });
        }
        let seats = ByColor {
            red: self
                .seat_of(&row.red_user, row.red_ai, row.red_start)
                .await?,
            blue: self
                .seat_of(&row.blue_user, row.blue_ai, row.blue_start)
                .await?,
        };
        let meta = GameMeta {
            id: row.id.clone(),
            seats,
            hotseat: row.hotseat,
            rated: row.rated,
            tc: row.tc,
            started_at: row.started_at,
        };
        let init = ActorInit {
            presence: ByColor::new_with(|c| self.online(&meta.seats[c].user)),
            meta,
            game,
            remaining,
            timeouts,
            stamps,
        };
        self.register(init);
        Ok(())
    }

    // ----- the lobby -----

    /// The open seeks.
    pub fn seeks(&self) -> Vec<Seek> {
        self.reg().seeks.clone()
    }

    /// The lobby feed: the `seeks` message on every change.
    pub fn lobby_feed(&self) -> broadcast::Receiver<Arc<str>> {
        self.0.lobby.subscribe()
    }

    /// The `seeks` message now.
    pub fn seeks_json(&self) -> Arc<str> {
        Arc::from(serde_json::json!({"t": "seeks", "seeks": self.seeks()}).to_string())
    }

    fn publish_seeks(&self) {
        let _ = self.0.lobby.send(self.seeks_json());
    }

    /// Opens a seek (one per player and time control).
    pub fn open_seek(&self, user: &User, tc: TimeControl, rated: bool, rules: Rules) -> SeekId {
        let id = {
            let mut reg = self.reg();
            self.push_seek(&mut reg, user, tc, rated, rules)
        };
        self.publish_seeks();
        id
    }

    /// Whether the seek `id` in the lobby is `user`'s own.
    pub fn is_own_seek(&self, user: &UserId, id: &SeekId) -> bool {
        self.reg()
            .seeks
            .iter()
            .any(|s| &s.id == id && &s.owner == user)
    }

    /// Removes an own seek; false if there is none with that id.
    pub fn cancel_seek(&self, user: &UserId, id: &SeekId) -> bool {
        let removed = {
            let mut reg = self.reg();
            let before = reg.seeks.len();
            reg.seeks.retain(|s| !(&s.id == id && &s.owner == user));
            before != reg.seeks.len()
        };
        if removed {
            self.publish_seeks();
        }
        removed
    }

    /// Takes a seek out of the lobby to start its game; None if it is gone or is one's own. With
    /// `id`, that seek; with `quick` (a time control and the taker's rating), the seek of that time
    /// control and the standard rules whose owner's rating is closest, counting the time it has
    /// waited (see [`QUICK_POINTS_PER_WAITED_S`]).
    pub fn take_seek(
        &self,
        user: &UserId,
        id: Option<&SeekId>,
        quick: Option<(TimeControl, f64)>,
    ) -> Option<(UserId, TimeControl, bool, String)> {
        let now = self.0.clock.now_ms();
        let taken = {
            let mut reg = self.reg();
            let candidates = reg.seeks.iter().enumerate().filter(|(_, s)| {
                &s.owner != user
                    && id.is_none_or(|id| &s.id == id)
                    && quick.is_none_or(|(tc, _)| s.tc == tc && s.rules == "standard")
            });
            let i = match quick {
                Some((_, rating)) => quick_choice(candidates, rating, now),
                None => candidates.map(|(i, _)| i).next(),
            }?;
            let s = reg.seeks.remove(i);
            Some((s.owner, s.tc, s.rated, s.rules))
        };
        self.publish_seeks();
        taken
    }

    /// Adds `user`'s seek to the registry (see [`Hub::open_seek`]).
    fn push_seek(
        &self,
        reg: &mut Registry,
        user: &User,
        tc: TimeControl,
        rated: bool,
        rules: Rules,
    ) -> SeekId {
        let id = SeekId::random();
        let created = self.0.clock.now_ms();
        let rules = rules.to_string();
        reg.seeks.retain(|s| {
            !(s.owner == user.id && s.tc == tc && s.rated == rated && s.rules == rules)
        });
        // The seeks are in the order they were opened: the user's first is the oldest.
        if reg.seeks.iter().filter(|s| s.owner == user.id).count() >= MAX_SEEKS_PER_USER {
            if let Some(i) = reg.seeks.iter().position(|s| s.owner == user.id) {
                reg.seeks.remove(i);
            }
        }
        reg.seeks.push(Seek {
            id: id.clone(),
            user: user.name.clone(),
            rating: user.rating.round(),
            tc,
            rated,
            rules,
            owner: user.id.clone(),
            created,
        });
        if reg.seeks.len() > 10_000 {
            reg.seeks.remove(0);
        }
        id
    }

    /// Quick pairing: takes the best standard-rules seek of another player with time control
    /// `tc` (as [`Hub::take_seek`] would) or, when there is none, opens `user`'s own — in one
    /// step, so that two players asking at the same moment are paired with each other instead
    /// of both waiting.
    pub fn quick(
        &self,
        user: &User,
        tc: TimeControl,
        rated: bool,
    ) -> Result<(UserId, TimeControl, bool, String), SeekId> {
        let now = self.0.clock.now_ms();
        let result = {
            let mut reg = self.reg();
            let candidates = reg
                .seeks
                .iter()
                .enumerate()
                .filter(|(_, s)| s.owner != user.id && s.tc == tc && s.rules == "standard");
            match quick_choice(candidates, user.rating, now) {
                Some(i) => {
                    let s = reg.seeks.remove(i);
                    Ok((s.owner, s.tc, s.rated, s.rules))
                }
                None => Err(self.push_seek(&mut reg, user, tc, rated, Rules::STANDARD)),
            }
        };
        self.publish_seeks();
        result
    }

    /// Creates a private challenge.
    pub fn open_challenge(
        &self,
        user: &UserId,
        tc: TimeControl,
        rated: bool,
        color: ColorChoice,
    ) -> SeekId {
        let id = SeekId::random();
        let now = self.0.clock.now_ms();
        let mut reg = self.reg();
        reg.challenges
            .retain(|_, c| now - c.created < CHALLENGE_TTL_MS);
        let oldest = |reg: &Registry, of: Option<&UserId>| {
            reg.challenges
                .iter()
                .filter(|(_, c)| of.is_none_or(|u| &c.owner == u))
                .min_by_key(|(_, c)| c.created)
                .map(|(id, _)| id.clone())
        };
        let mine = reg.challenges.values().filter(|c| &c.owner == user).count();
        if mine >= MAX_CHALLENGES_PER_USER {
            if let Some(old) = oldest(&reg, Some(user)) {
                reg.challenges.remove(&old);
            }
        }
        if reg.challenges.len() >= MAX_CHALLENGES {
            if let Some(old) = oldest(&reg, None) {
                reg.challenges.remove(&old);
            }
        }
        reg.challenges.insert(
            id.clone(),
            Challenge {
                owner: user.clone(),
                tc,
                rated,
                color,
                created: now,
            },
        );
        id
    }

    /// The challenge `id` if it is still open.
    fn open_challenge_ref<'a>(&self, reg: &'a Registry, id: &SeekId) -> Option<&'a Challenge> {
        let now = self.0.clock.now_ms();
        reg.challenges
            .get(id)
            .filter(|c| now - c.created < CHALLENGE_TTL_MS)
    }

    /// A look at an open challenge, without taking it: (owner, tc, rated, the owner's colour
    /// choice).
    pub fn peek_challenge(&self, id: &SeekId) -> Option<(UserId, TimeControl, bool, ColorChoice)> {
        let reg = self.reg();
        self.open_challenge_ref(&reg, id)
            .map(|c| (c.owner.clone(), c.tc, c.rated, c.color))
    }

    /// Takes a challenge to start it: (owner, tc, rated, the owner's colour). Refused, as
    /// (code, message), when it is gone (`not_found`) or `user`'s own (`own_offer`), or while the player who
    /// made it has no connection open (`challenger_offline`: the game would start with them
    /// away and soon count as their disconnect; the challenge stays open).
    pub fn take_challenge(
        &self,
        user: &UserId,
        id: &SeekId,
    ) -> Result<(UserId, TimeControl, bool, Color), (&'static str, &'static str)> {
        let mut reg = self.reg();
        match self.open_challenge_ref(&reg, id) {
            None => Err(("not_found", "no such challenge")),
            Some(c) if &c.owner == user => {
                Err(("own_offer", "you cannot accept your own challenge"))
            }
            Some(c) if !is_online(&reg, &c.owner) => Err((
                "challenger_offline",
                "the player who made this challenge is not online now",
            )),
            Some(_) => {
                let c = reg
                    .challenges
                    .remove(id)
                    .ok_or(("not_found", "no such challenge"))?;
                Ok((c.owner, c.tc, c.rated, c.color.pick()))
            }
        }
    }
}

fn is_online(reg: &Registry, user: &UserId) -> bool {
    reg.online.get(user).is_some_and(|(n, _)| *n > 0)
}

/// The name of a colour (re-exported for the API modules).
pub fn color_str(c: Color) -> &'static str {
    color_name(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(rating: f64, created: i64) -> Seek {
        Seek {
            id: SeekId::random(),
            user: format!("r{rating}"),
            rating,
            tc: TimeControl {
                clock_s: 300,
                inc_s: 0,
                move_s: 0,
            },
            rated: true,
            rules: "standard".into(),
            owner: UserId::random(),
            created,
        }
    }

    fn choice(seeks: &[Seek], rating: f64, now: i64) -> Option<usize> {
        quick_choice(seeks.iter().enumerate(), rating, now)
    }

    #[test]
    fn quick_pairing_prefers_close_ratings_and_long_waits() {
        assert_eq!(choice(&[], 1500.0, 0), None);
        // Opened at the same time: the closest rating wins, above or below.
        let seeks = [seek(1900.0, 0), seek(1450.0, 0), seek(1200.0, 0)];
        assert_eq!(choice(&seeks, 1500.0, 0), Some(1));
        assert_eq!(choice(&seeks, 1300.0, 0), Some(2));
        assert_eq!(choice(&seeks, 2400.0, 0), Some(0));
        // Equally close: the older seek.
        let seeks = [seek(1600.0, 5_000), seek(1400.0, 1_000)];
        assert_eq!(choice(&seeks, 1500.0, 6_000), Some(1));
        // 400 points further away but 50 s longer waiting (worth 500 points): the older.
        let seeks = [seek(1500.0, 50_000), seek(1900.0, 0)];
        assert_eq!(choice(&seeks, 1500.0, 50_000), Some(1));
        // Only 30 s longer (worth 300): the closer one.
        let seeks = [seek(1500.0, 30_000), seek(1900.0, 0)];
        assert_eq!(choice(&seeks, 1500.0, 30_000), Some(0));
    }
}
