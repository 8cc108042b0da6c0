//! The game actor: each live game is one task that alone owns its `jungle::Game`, its clocks and
//! its timers (RULES §7–§8). Everyone else holds a [`GameHandle`]: commands go in by mpsc with
//! oneshot replies, updates go out by broadcast.

use crate::clock::SharedClock;
use crate::hub::Hub;
use crate::ids::{GameId, UserId};
use crate::scoring::{self, LEAVE_PENALTY_COINS, SHORT_GAME_PLIES};
use crate::store::{GameEnd, PlyRow, StartStanding, Store, StoreError, TcMs, User};
use crate::wire::{
    color_name, Clocks, GameResult, GameState, MoveEntry, PlayerInfo, RedBlue, TimeControl, WsError,
};
use jungle::{ByColor, Color, Game, Illegal, Jfen, Move, MoveText, Position, San};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

/// How long a finished game's actor stays up for rematch offers and late watchers. An actor whose
/// result is not stored yet stays up longer: until it is (see `Ending`).
pub const LINGER_MS: i64 = 120_000;

/// The wait before the first retry of a result the database did not take, ms; each further
/// retry waits twice as long as the one before, up to [`RESULT_RETRY_MAX_MS`].
const RESULT_RETRY_FIRST_MS: i64 = 1_000;

/// The longest wait between two tries at storing a result, ms.
const RESULT_RETRY_MAX_MS: i64 = 30_000;

/// The wait between two tries at storing a result while the server stops (real time: the
/// stopping server waits [`RESULT_STORE_GRACE`] at most).
const RESULT_RETRY_STOPPING: Duration = Duration::from_millis(200);

/// How long a stopping server waits for the results the database has not taken yet (see
/// [`UnstoredResults::wait`]), as long as it waits for HTTP requests in progress
/// ([`crate::http::SHUTDOWN_GRACE`]).
pub const RESULT_STORE_GRACE: Duration = Duration::from_secs(5);

/// The AI's search on a draw offer lasts as long as a level-3 move (`ai_ms_per_level` × 3).
const DRAW_CHECK_LEVELS: i64 = 3;

/// One seat of a game.
#[derive(Debug, Clone)]
pub struct Seat {
    /// The account (None for an AI seat).
    pub user: Option<UserId>,
    /// The AI level of an AI seat.
    pub ai: Option<u8>,
    /// How the seat is shown.
    pub info: PlayerInfo,
}

impl Seat {
    /// A human seat.
    pub fn human(u: &User) -> Seat {
        Seat {
            user: Some(u.id.clone()),
            ai: None,
            info: PlayerInfo {
                name: u.name.clone(),
                ai_level: None,
                rating: u.rating.round(),
                level: u.level,
                guest: u.guest,
            },
        }
    }

    /// The seat as a stored game shows it: with the rating and level of its start, when kept.
    pub fn as_at_start(mut self, start: Option<StartStanding>) -> Seat {
        if let Some(s) = start {
            self.info.rating = s.rating;
            self.info.level = s.level;
        }
        self
    }

    /// A human seat's rating and level as the game starts (None for an AI seat).
    pub fn start_standing(&self) -> Option<StartStanding> {
        self.user.as_ref().map(|_| StartStanding {
            rating: self.info.rating,
            level: self.info.level,
        })
    }

    /// An AI seat.
    pub fn ai(level: u8) -> Seat {
        Seat {
            user: None,
            ai: Some(level),
            info: PlayerInfo {
                name: format!("AI level {level}"),
                ai_level: Some(level),
                rating: 0.0,
                level: 0,
                guest: false,
            },
        }
    }
}

/// What never changes in a game.
#[derive(Debug, Clone)]
pub struct GameMeta {
    /// Id.
    pub id: GameId,
    /// The seats.
    pub seats: ByColor<Seat>,
    /// One account holds both seats.
    pub hotseat: bool,
    /// Rated (scores change, RULES §8.5).
    pub rated: bool,
    /// Time control.
    pub tc: TcMs,
    /// When it started.
    pub started_at: i64,
}

impl GameMeta {
    /// The colours `user` plays (both in a hot-seat game).
    pub fn colors_of(&self, user: &UserId) -> Vec<Color> {
        Color::ALL
            .into_iter()
            .filter(|c| self.seats[*c].user.as_ref() == Some(user))
            .collect()
    }

    /// The colour of an AI seat, if any.
    pub fn ai_color(&self) -> Option<Color> {
        Color::ALL.into_iter().find(|c| self.seats[*c].ai.is_some())
    }
}

/// The score/coin change of one player at the end (`Change` of doc/protocol.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(missing_docs)]
pub struct Change {
    pub score_before: i64,
    pub score_after: i64,
    pub level_before: i64,
    pub level_after: i64,
    pub coins_before: i64,
    pub coins_after: i64,
    pub rating_before: f64,
    pub rating_after: f64,
}

impl Change {
    /// The change between two standings of a player.
    pub fn between(b: &User, a: &User) -> Change {
        Change {
            score_before: b.score,
            score_after: a.score,
            level_before: b.level,
            level_after: a.level,
            coins_before: b.coins,
            coins_after: a.coins,
            rating_before: b.rating.round(),
            rating_after: a.rating.round(),
        }
    }
}

/// A player's action on a game.
#[derive(Debug, Clone)]
#[allow(missing_docs)]
pub enum Action {
    Move { ply: u32, mv: String },
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    Abort,
    Leave,
    Takeback,
    Rematch,
}

/// The answer to an action: `Ok(Some(json))` is a message for the sender only (a re-sent move's
/// `moved`); everything else reaches the sender through the broadcast.
pub type ActionReply = Result<Option<Arc<str>>, WsError>;

/// A command to a game actor.
pub enum Cmd {
    /// A player's action.
    Action {
        /// Who.
        user: UserId,
        /// What.
        action: Action,
        /// The answer.
        reply: oneshot::Sender<ActionReply>,
    },
    /// The full state as seen by `viewer`.
    Snapshot {
        /// Who asks (sets `you`).
        viewer: Option<UserId>,
        /// The answer.
        reply: oneshot::Sender<GameState>,
    },
    /// A player's connection state changed.
    Presence {
        /// Who.
        user: UserId,
        /// Whether at least one of their connections is open.
        online: bool,
    },
    /// The AI's move for search number `search`.
    AiMove {
        /// The search it answers.
        search: u64,
        /// The move (None: the engine found none; the game is then over anyway).
        mv: Option<Move>,
    },
    /// The AI's answer to the draw offer that started check number `check`.
    AiDraw {
        /// The check it answers.
        check: u64,
        /// Whether the AI accepts.
        accept: bool,
    },
    /// The game's result, which the database did not take when the game ended, is stored now
    /// (from the task that retries it until it is).
    ResultStored {
        /// How many tries it took, the first (when the game ended) included.
        tries: u32,
        /// The players' changes as stored (`{"red": Change|null, "blue": Change|null}`), or
        /// None where they are not known (an earlier try went through after all, and its
        /// changes cannot be read back).
        changes: Option<serde_json::Value>,
    },
}

/// An update for everyone following a game.
#[derive(Debug, Clone)]
pub enum Event {
    /// A message to forward as is.
    Json(Arc<str>),
    /// The state changed wholesale (a takeback): fetch a fresh snapshot.
    State,
}

/// A cloneable handle on a live game's actor.
#[derive(Clone)]
pub struct GameHandle {
    /// Static facts about the game.
    pub meta: Arc<GameMeta>,
    tx: mpsc::Sender<Cmd>,
    events: broadcast::Sender<Event>,
}

impl GameHandle {
    /// Sends an action and waits for the answer.
    pub async fn act(&self, user: UserId, action: Action) -> ActionReply {
        let (reply, rx) = oneshot::channel();
        if self
            .tx
            .send(Cmd::Action {
                user,
                action,
                reply,
            })
            .await
            .is_err()
        {
            return Err(WsError::new("game_over", "the game is over"));
        }
        rx.await
            .unwrap_or_else(|_| Err(WsError::new("game_over", "the game is over")))
    }

    /// The state as seen by `viewer`, or None if the actor is gone.
    pub async fn snapshot(&self, viewer: Option<UserId>) -> Option<GameState> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Snapshot { viewer, reply }).await.ok()?;
        rx.await.ok()
    }

    /// Tells the actor about a player's connection state.
    pub async fn presence(&self, user: UserId, online: bool) {
        let _ = self.tx.send(Cmd::Presence { user, online }).await;
    }

    /// Follows the game's updates.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }
}

/// Everything needed to start (or resume) an actor.
pub struct ActorInit {
    /// Static facts.
    pub meta: GameMeta,
    /// The game so far.
    pub game: Game,
    /// Game clocks left.
    pub remaining: ByColor<i64>,
    /// Timeouts so far.
    pub timeouts: ByColor<u32>,
    /// The clocks and times of every ply so far (to rebuild `moved` messages for re-sends).
    pub stamps: Vec<PlyStamp>,
    /// Whether each seat is connected now.
    pub presence: ByColor<bool>,
}

/// The actor's state.
struct Actor {
    meta: Arc<GameMeta>,
    hub: Hub,
    clock: SharedClock,
    game: Game,
    remaining: ByColor<i64>,
    timeouts: ByColor<u32>,
    turn_start: i64,
    stamps: Vec<PlyStamp>,
    presence: ByColor<bool>,
    grace_deadline: ByColor<Option<i64>>,
    /// The side that aborted the game (told in `ended`).
    aborted_by: Option<Color>,
    draw_offer: Option<Color>,
    rematch_offer: Option<Color>,
    /// A rematch of this game has started: a game has one.
    rematched: bool,
    result: Option<GameResult>,
    ended_at: Option<i64>,
    search: u64,
    searching: bool,
    /// Of a finished game: the players' standings before and after, as `ended` said them.
    changes: Option<serde_json::Value>,
    /// The task of the AI's search under way, to end it when its move can no longer be played.
    ai_task: Option<tokio::task::AbortHandle>,
    /// The number of the AI's latest draw check (answers to older ones are stale).
    draw_check: u64,
    /// The AI's move, held back while it still considers the player's draw offer.
    held_ai_move: Option<Move>,
    /// The ply at which the AI last declined a draw: another offer before a move is declined
    /// at once, without a search (offers cannot make it search again and again).
    ai_declined_at: Option<usize>,
    /// Set while the game has ended but its result is not stored yet (a task retries it): the
    /// actor does not linger out meanwhile.
    unstored: Option<Unstored>,
    tx: mpsc::Sender<Cmd>,
    events: broadcast::Sender<Event>,
}

/// Starts the actor of a game; returns its handle.
pub fn spawn(hub: Hub, init: ActorInit) -> GameHandle {
    let (tx, rx) = mpsc::channel(64);
    let (events, _) = broadcast::channel(64);
    let meta = Arc::new(init.meta);
    let clock = hub.clock();
    let now = clock.now_ms();
    let mut actor = Actor {
        meta: meta.clone(),
        hub,
        clock,
        game: init.game,
        remaining: init.remaining,
        timeouts: init.timeouts,
        turn_start: now,
        stamps: init.stamps,
        presence: init.presence,
        grace_deadline: ByColor::new_with(|_| None),
        aborted_by: None,
        draw_offer: None,
        rematch_offer: None,
        rematched: false,
        result: None,
        ended_at: None,
        search: 0,
        searching: false,
        ai_task: None,
        changes: None,
        draw_check: 0,
        held_ai_move: None,
        ai_declined_at: None,
        unstored: None,
        tx: tx.clone(),
        events: events.clone(),
    };
    for c in Color::ALL {
        if !actor.presence[c] {
            actor.start_grace(c, now);
        }
    }
    tokio::spawn(async move { actor.run(rx).await });
    GameHandle { meta, tx, events }
}

#[derive(Debug, Clone, Copy)]
enum Due {
    Flag(Color),
    MoveLimit(Color),
    Grace(Color),
    Linger,
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.maybe_start_ai();
        // The server beginning to stop freezes the clocks (see `next_due`): the loop wakes once
        // for it, to drop the timer it sleeps on.
        let mut stopping = self.hub.stopping();
        let mut stop_seen = false;
        loop {
            let due = self.next_due();
            let sleep = match due {
                Some((at, _)) => self.clock.sleep_until(at),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                r = stopping.changed(), if !stop_seen => {
                    // Stopping is for good (an error: the hub is gone, nothing more to hear).
                    stop_seen = r.is_err() || self.hub.is_shutting_down();
                    if self.hub.is_shutting_down() && self.is_live() {
                        self.cancel_ai_search();
                    }
                }
                () = sleep => {
                    if let Some((_, d)) = due {
                        if matches!(d, Due::Linger) {
                            // From now on a rematch is refused (`rematch_closed`): the players
                            // hear it, an offer they made included.
                            if !self.rematched && !self.was_aborted() {
                                self.broadcast(serde_json::json!({
                                    "t": "rematch_closed", "game": self.meta.id,
                                }));
                            }
                            break;
                        }
                        self.on_due(d).await;
                    }
                }
            }
        }
        self.hub.forget_game(&self.meta.id);
    }

    fn is_live(&self) -> bool {
        self.result.is_none()
    }

    fn was_aborted(&self) -> bool {
        self.result.as_ref().is_some_and(|r| r.reason == "aborted")
    }

    fn turn(&self) -> Color {
        self.game.position().turn()
    }

    fn elapsed(&self, now: i64) -> i64 {
        (now - self.turn_start).max(0)
    }

    /// The game clock left to `c` at `now`.
    fn clock_left(&self, c: Color, now: i64) -> i64 {
        if c == self.turn() && self.is_live() {
            self.remaining[c] - self.elapsed(now)
        } else {
            self.remaining[c]
        }
    }

    fn next_due(&self) -> Option<(i64, Due)> {
        if let Some(end) = self.ended_at {
            // Until its result is stored, the actor is the only place where the game is over:
            // it stays (and the store keeps retrying, see [`Ending`]).
            if self.unstored.is_some() {
                return None;
            }
            return Some((end + LINGER_MS, Due::Linger));
        }
        // A stopping server refuses every move (`shutting_down`), so no clock runs out, no
        // grace ends and no pass is played meanwhile: the players could do nothing about it.
        // The next start resumes the clocks from their stored values.
        if self.hub.is_shutting_down() {
            return None;
        }
        let turn = self.turn();
        let mut best: Option<(i64, Due)> = None;
        let mut consider = |at: i64, d: Due| {
            if best.is_none_or(|(b, _)| at < b) {
                best = Some((at, d));
            }
        };
        // On a tie the first considered wins. A grace cut to the player's clock ends with their
        // clock: they lose as having left (RULES §8.3), not on time. Both away with the same
        // deadline (as after a server restart, where both graces start together): the side to
        // move, who holds the game up, is the one found gone. A clock that runs out with the
        // move limit loses on time (§8.1) rather than passing.
        if let Some(at) = self.grace_deadline[turn] {
            consider(at, Due::Grace(turn));
        }
        if self.meta.tc.clock_ms > 0 {
            consider(self.turn_start + self.remaining[turn], Due::Flag(turn));
        }
        if let Some(at) = self.grace_deadline[!turn] {
            consider(at, Due::Grace(!turn));
        }
        if self.meta.tc.move_ms > 0 {
            consider(self.turn_start + self.meta.tc.move_ms, Due::MoveLimit(turn));
        }
        best
    }

    fn start_grace(&mut self, c: Color, now: i64) {
        if self.meta.seats[c].user.is_none() || !self.is_live() {
            return;
        }
        let mut grace = self.hub.config().reconnect_grace_ms;
        // Cut to the clock only while it runs: a player who drops on the opponent's turn keeps
        // the whole grace until their own turn starts (then it is cut, see `play_ply`).
        if self.meta.tc.clock_ms > 0 && c == self.turn() {
            grace = grace.min(self.clock_left(c, now).max(0));
        }
        self.grace_deadline[c] = Some(now + grace);
    }

    async fn on_due(&mut self, d: Due) {
        if !self.is_live() {
            return;
        }
        match d {
            Due::Flag(c) => self.finish(Some(!c), "time").await,
            Due::MoveLimit(c) => {
                // RULES §8.2: pass for the player and count a timeout; the 4th forfeits.
                self.timeouts[c] += 1;
                if self.timeouts[c] > 3 {
                    let now = self.clock.now_ms();
                    self.remaining[c] = self.clock_left(c, now);
                    self.turn_start = now;
                    // A player away when the fourth timeout forfeits has not come back: a loss
                    // by disconnect (§8.3), as when the grace runs out first; else closing the
                    // page would dodge the disconnect's count and coins.
                    let away = self.grace_deadline[c].is_some() && !self.meta.hotseat;
                    let reason = if away { "disconnect" } else { "timeouts" };
                    self.finish(Some(!c), reason).await;
                } else {
                    // An AI search still running was for the position before this pass: its
                    // move must never be played (the next turn starts a search of its own).
                    self.cancel_ai_search();
                    if let Err(e) = self.play_ply(Move::PASS, true).await {
                        tracing::error!(game = %self.meta.id, error = %e.message, "timeout pass failed");
                    }
                }
            }
            Due::Grace(c) => {
                self.grace_deadline[c] = None;
                // At one device the player who left held both sides: neither side won, the
                // game is called off (nothing is counted for a hot-seat game either way).
                if self.meta.hotseat {
                    self.finish(None, "aborted").await;
                } else {
                    self.finish(Some(!c), "disconnect").await;
                }
            }
            Due::Linger => {}
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Action {
                user,
                action,
                reply,
            } => {
                let r = self.act(&user, action).await;
                let _ = reply.send(r);
            }
            Cmd::Snapshot { viewer, reply } => {
                let _ = reply.send(self.state(viewer.as_ref()));
            }
            Cmd::Presence { user, online } => {
                let now = self.clock.now_ms();
                let mut changed = false;
                for c in self.meta.colors_of(&user) {
                    if self.presence[c] != online {
                        self.presence[c] = online;
                        changed = true;
                        if online {
                            self.grace_deadline[c] = None;
                        } else {
                            self.start_grace(c, now);
                        }
                    }
                }
                if changed {
                    self.broadcast(serde_json::json!({
                        "t": "presence", "game": self.meta.id,
                        "red": self.presence[Color::Red], "blue": self.presence[Color::Blue],
                        "away_ms": self.away_ms(now),
                    }));
                }
            }
            Cmd::AiMove { search, mv } => {
                // A stopping server plays no move (the next start searches again).
                if search != self.search || !self.is_live() || self.hub.is_shutting_down() {
                    return;
                }
                self.searching = false;
                let Some(ai) = self.meta.ai_color() else {
                    return;
                };
                if self.turn() != ai {
                    return;
                }
                let mv = mv.or_else(|| self.game.legal_moves().first().copied());
                if self.draw_offer.is_some() {
                    // The player's draw offer is answered before the AI moves.
                    self.held_ai_move = mv;
                    return;
                }
                self.play_ai_move(mv).await;
            }
            Cmd::AiDraw { check, accept } => {
                if check != self.draw_check || !self.is_live() {
                    return;
                }
                // Only the player offers in an AI game; no standing offer: the answer is stale.
                let (Some(ai), Some(_)) = (self.meta.ai_color(), self.draw_offer) else {
                    return;
                };
                if accept {
                    self.finish(None, "agreed").await;
                    return;
                }
                self.draw_offer = None;
                self.ai_declined_at = Some(self.game.len());
                self.broadcast(serde_json::json!({"t": "draw_declined", "game": self.meta.id, "by": color_name(ai)}));
                if let Some(mv) = self.held_ai_move.take() {
                    self.play_ai_move(Some(mv)).await;
                }
            }
            Cmd::ResultStored { tries, changes } => {
                if self.unstored.take().is_none() {
                    return;
                }
                tracing::info!(game = %self.meta.id, tries, "the result is stored at last");
                // `ended` went out without the players' changes: they follow now.
                if let Some(changes) = changes {
                    self.changes = Some(changes.clone());
                    self.broadcast(serde_json::json!({
                        "t": "changes", "game": self.meta.id, "changes": changes,
                    }));
                }
            }
        }
    }

    async fn play_ai_move(&mut self, mv: Option<Move>) {
        let Some(ai) = self.meta.ai_color() else {
            return;
        };
        if !self.is_live() || self.turn() != ai {
            return;
        }
        if let Some(mv) = mv {
            if let Err(e) = self.play_ply(mv, false).await {
                tracing::error!(game = %self.meta.id, error = %e.message, "AI move refused");
                // Never leave the game waiting on an AI that will not move again: any legal move.
                if let Some(m) = self.game.legal_moves().first().copied() {
                    if let Err(e) = self.play_ply(m, false).await {
                        tracing::error!(game = %self.meta.id, error = %e.message, "AI fallback move refused");
                    }
                }
            }
        }
    }

    /// Who the AI of seat `ai` searches for: the player across the board (their searches take
    /// turns, see [`crate::ai::AiPool`]).
    fn ai_asker(&self, ai: Color) -> Option<String> {
        self.meta.seats[!ai].user.as_ref().map(|u| u.to_string())
    }

    /// Asks the AI (off the runtime) whether it accepts the draw `self.draw_offer`; the answer
    /// comes back as [`Cmd::AiDraw`].
    fn start_draw_check(&mut self, ai: Color) {
        self.draw_check += 1;
        let check = self.draw_check;
        let game = self.game.clone();
        let ai_to_move = self.turn() == ai;
        let budget = (self.hub.config().ai_ms_per_level * DRAW_CHECK_LEVELS).max(1) as u64;
        let tx = self.tx.clone();
        let ai_pool = self.hub.ai();
        let asker = self.ai_asker(ai);
        tokio::spawn(async move {
            let plies = game.len();
            let a = ai_pool
                .analyze(
                    game,
                    std::time::Duration::from_millis(budget),
                    1,
                    asker.as_deref(),
                )
                .await;
            let accept = crate::ai::accepts_draw(a.as_ref(), ai_to_move, plies);
            let _ = tx.send(Cmd::AiDraw { check, accept }).await;
        });
    }

    fn broadcast(&self, v: serde_json::Value) {
        let _ = self.events.send(Event::Json(Arc::from(v.to_string())));
    }

    fn clocks(&self, now: i64) -> Clocks {
        let timed = self.meta.tc.clock_ms > 0;
        let live = self.is_live();
        Clocks {
            red_ms: timed.then(|| self.clock_left(Color::Red, now).max(0)),
            blue_ms: timed.then(|| self.clock_left(Color::Blue, now).max(0)),
            move_ms: (self.meta.tc.move_ms > 0 && live)
                .then(|| (self.meta.tc.move_ms - self.elapsed(now)).max(0)),
            running: live.then(|| color_name(self.turn())),
        }
    }

    /// Per seat, the time (ms, as of `now`) before its reconnect grace runs out and the game is
    /// lost by disconnect; null for a seat that is present, or once the game is over.
    fn away_ms(&self, now: i64) -> RedBlue<Option<i64>> {
        let left = |c: Color| {
            self.grace_deadline[c]
                .filter(|_| self.is_live())
                .map(|at| (at - now).max(0))
        };
        RedBlue {
            red: left(Color::Red),
            blue: left(Color::Blue),
        }
    }

    fn legal(&self) -> Vec<String> {
        if !self.is_live() {
            return Vec::new();
        }
        self.game
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    fn state(&self, viewer: Option<&UserId>) -> GameState {
        let now = self.clock.now_ms();
        let you = viewer.and_then(|v| {
            let cs = self.meta.colors_of(v);
            match cs.len() {
                2 => Some("both"),
                1 => Some(color_name(cs[0])),
                _ => None,
            }
        });
        GameState {
            id: self.meta.id.clone(),
            red: self.meta.seats[Color::Red].info.clone(),
            blue: self.meta.seats[Color::Blue].info.clone(),
            you,
            rated: self.meta.rated,
            tc: TimeControl::from_ms(self.meta.tc),
            rules: self.game.rules().to_string(),
            start_fen: Jfen::from_position(self.game.start_position()).to_string(),
            moves: self
                .game
                .moves()
                .zip(self.game.sans())
                .map(|(m, s)| MoveEntry {
                    mv: m.to_string(),
                    san: s.to_string(),
                })
                .collect(),
            ply: self.game.len(),
            turn: color_name(self.turn()),
            fen: Jfen::from_position(self.game.position()).to_string(),
            legal: self.legal(),
            forbidden: if self.is_live() {
                crate::wire::forbidden_moves(&self.game)
            } else {
                serde_json::Map::new()
            },
            clocks: self.clocks(now),
            timeouts: RedBlue {
                red: self.timeouts[Color::Red],
                blue: self.timeouts[Color::Blue],
            },
            status: if self.is_live() { "live" } else { "finished" },
            result: self.result.clone(),
            draw_offer: self.draw_offer.map(color_name),
            rematch_offer: self.rematch_offer.map(color_name),
            rematched: self.rematched,
            rematch_open: !self.is_live()
                && !self.rematched
                && !self.was_aborted()
                && !self.hub.is_shutting_down(),
            changes: self.changes.clone(),
            presence: RedBlue {
                red: self.presence[Color::Red],
                blue: self.presence[Color::Blue],
            },
            away_ms: self.away_ms(now),
        }
    }

    /// The colour `user` acts as now: their seat, or the side to move in a hot-seat game.
    fn seat_of(&self, user: &UserId) -> Result<Color, WsError> {
        let cs = self.meta.colors_of(user);
        match cs.len() {
            0 => Err(WsError::new(
                "not_your_game",
                "you do not play in this game",
            )),
            1 => Ok(cs[0]),
            _ => Ok(self.turn()),
        }
    }

    async fn act(&mut self, user: &UserId, action: Action) -> ActionReply {
        let color = self.seat_of(user)?;
        if let Action::Rematch = action {
            return self.rematch(color).await;
        }
        if let Action::Move { ply, ref mv } = action {
            // A re-sent move for a ply already played is answered again, even after the end.
            let ply = ply as usize;
            if ply < self.game.len() {
                let same = self.game.position_at(ply).and_then(|pos| {
                    let m = mv.parse::<MoveText>().ok()?.to_move(pos).ok()?;
                    (self.game.plies()[ply].mv == m).then_some(())
                });
                return match same {
                    Some(()) => Ok(Some(self.moved_message(ply))),
                    None => Err(WsError::new(
                        "wrong_ply",
                        format!(
                            "ply {ply} was already played; the game is at ply {}",
                            self.game.len()
                        ),
                    )),
                };
            }
        }
        if !self.is_live() {
            return Err(WsError::new("game_over", "the game is over"));
        }
        if self.hub.is_shutting_down() {
            return Err(shutting_down());
        }
        let hotseat = self.meta.hotseat;
        match action {
            Action::Move { ply, mv } => {
                let ply = ply as usize;
                if ply != self.game.len() {
                    return Err(WsError::new(
                        "wrong_ply",
                        format!("the game is at ply {}, not {ply}", self.game.len()),
                    ));
                }
                if color != self.turn() {
                    return Err(WsError::new("not_your_turn", "it is not your turn"));
                }
                let now = self.clock.now_ms();
                if self.meta.tc.clock_ms > 0 && self.clock_left(color, now) <= 0 {
                    self.finish(Some(!color), "time").await;
                    return Err(WsError::new("game_over", "your time ran out"));
                }
                let text: MoveText = mv.parse().map_err(|e: jungle::ParseMoveError| {
                    WsError::new("illegal_move", e.to_string())
                })?;
                // The server passes only for a player out of time (RULES §8.2).
                if text == MoveText::Pass {
                    return Err(WsError::illegal(Illegal::Pass));
                }
                let m = text
                    .to_move(self.game.position())
                    .map_err(|e| WsError::illegal(e.why))?;
                if let Some(why) = self.game.why_illegal(m) {
                    return Err(WsError::illegal(why));
                }
                self.play_ply(m, false).await?;
                Ok(None)
            }
            Action::Resign => {
                self.finish(Some(!color), "resign").await;
                Ok(None)
            }
            Action::Leave => {
                self.finish(Some(!color), "left").await;
                Ok(None)
            }
            Action::Abort => {
                // Abortable while either side has not moved yet (a server pass is no move).
                let moved = |c: Color| {
                    self.game
                        .plies()
                        .iter()
                        .any(|p| p.color == c && p.mv != Move::PASS)
                };
                if moved(Color::Red) && moved(Color::Blue) {
                    return Err(WsError::new(
                        "abort_too_late",
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                if self.is_live() {
                    self.aborted_by = Some(color);
                }
                self.finish(None, "aborted").await;
                Ok(None)
            }
            Action::DrawOffer => {
                if let Some(ai) = self.meta.ai_color() {
                    // The AI answers after a short search (`ai::accepts_draw`); an offer already
                    // standing is not asked twice.
                    if self.draw_offer.is_none() {
                        self.broadcast(serde_json::json!({"t": "draw_offered", "game": self.meta.id, "by": color_name(color)}));
                        if self.ai_declined_at == Some(self.game.len()) {
                            self.broadcast(serde_json::json!({"t": "draw_declined", "game": self.meta.id, "by": color_name(ai)}));
                        } else {
                            self.draw_offer = Some(color);
                            self.start_draw_check(ai);
                        }
                    }
                    return Ok(None);
                }
                if self.draw_offer == Some(!color) || (hotseat && self.draw_offer.is_some()) {
                    self.finish(None, "agreed").await;
                    return Ok(None);
                }
                // An offer already standing is not announced again.
                if self.draw_offer == Some(color) {
                    return Ok(None);
                }
                self.draw_offer = Some(color);
                self.broadcast(serde_json::json!({"t": "draw_offered", "game": self.meta.id, "by": color_name(color)}));
                Ok(None)
            }
            Action::DrawAccept | Action::DrawDecline => {
                let offered = match self.draw_offer {
                    Some(by) if by != color || hotseat => by,
                    _ => {
                        return Err(WsError::new(
                            "no_draw_offer",
                            "there is no draw offer to answer",
                        ))
                    }
                };
                if let Action::DrawAccept = action {
                    self.finish(None, "agreed").await;
                } else {
                    self.draw_offer = None;
                    self.broadcast(serde_json::json!({"t": "draw_declined", "game": self.meta.id, "by": color_name(!offered)}));
                }
                Ok(None)
            }
            Action::Takeback => self.takeback(color).await,
            Action::Rematch => Err(WsError::new("game_not_over", "the game is still going on")),
        }
    }

    /// The `moved` message of an earlier ply (for a re-sent move), as it was sent.
    fn moved_message(&self, ply: usize) -> Arc<str> {
        let before = self.game.position_at(ply).copied();
        match (before, self.stamps.get(ply)) {
            (Some(before), Some(&stamp)) if ply + 1 == self.game.len() => {
                moved_message(&self.meta, &self.game, &before, stamp)
            }
            (Some(before), Some(&stamp)) => {
                let mut then = self.game.clone();
                while then.len() > ply + 1 {
                    then.undo();
                }
                moved_message(&self.meta, &then, &before, stamp)
            }
            _ => Arc::from(
                serde_json::json!({"t": "error", "code": "internal", "message": "no such ply"})
                    .to_string(),
            ),
        }
    }

    async fn takeback(&mut self, color: Color) -> ActionReply {
        let nothing = || {
            WsError::new(
                "nothing_to_take_back",
                "there is no move of yours to take back",
            )
        };
        let n = if self.meta.hotseat {
            // At one device: the last move, whichever side played it.
            1
        } else {
            let Some(ai) = self.meta.ai_color() else {
                return Err(WsError::new(
                    "takeback_ai_only",
                    "takebacks are only for games against the AI or at one device",
                ));
            };
            // Take back the player's last own move, and the AI's reply if it was played.
            let n = if self.turn() == ai { 1 } else { 2 };
            if self.game.len() >= n && self.game.plies()[self.game.len() - n].color != color {
                return Err(nothing());
            }
            n
        };
        if self.game.len() < n {
            return Err(nothing());
        }
        let keep = self.game.len() - n;
        self.hub
            .store()
            .truncate_plies(&self.meta.id, keep as i64)
            .await
            .map_err(|e| internal(&e))?;
        for _ in 0..n {
            self.game.undo();
        }
        self.stamps.truncate(keep);
        // The clocks and timeouts go back with the moves, as they were after the last kept ply
        // (as a restart rebuilds them from the stored plies): no increment or pass is kept.
        match self.stamps.last() {
            Some(st) => {
                self.remaining = ByColor {
                    red: st.red_ms,
                    blue: st.blue_ms,
                };
                self.timeouts = st.timeouts;
            }
            None => {
                self.remaining = ByColor::new_with(|_| self.meta.tc.clock_ms);
                self.timeouts = ByColor::new_with(|_| 0);
            }
        }
        self.cancel_ai_search();
        self.draw_offer = None;
        self.draw_check += 1;
        self.held_ai_move = None;
        self.ai_declined_at = None;
        self.turn_start = self.clock.now_ms();
        let _ = self.events.send(Event::State);
        self.maybe_start_ai();
        Ok(None)
    }

    async fn rematch(&mut self, color: Color) -> ActionReply {
        if self.is_live() {
            return Err(WsError::new("game_not_over", "the game is still going on"));
        }
        if self.was_aborted() {
            // The players did not want this game: no client offers a rematch of it.
            return Err(aborted_no_rematch());
        }
        if self.rematched {
            return Err(WsError::new(
                "already_rematched",
                "this game's rematch has started already",
            ));
        }
        if self.hub.is_shutting_down() {
            return Err(shutting_down());
        }
        let people = !self.meta.hotseat && self.meta.ai_color().is_none();
        let now_both = !people || self.rematch_offer == Some(!color);
        // As for a challenge: a game started with the other player away would soon count as
        // their disconnect. Their offer stands for when they are back.
        // (A finished game hears no presence: the hub is asked.)
        let away = |u: &Option<UserId>| u.as_ref().is_none_or(|u| !self.hub.is_online(u));
        if now_both && people && away(&self.meta.seats[!color].user) {
            return Err(WsError::new(
                "opponent_offline",
                "the other player is not online now",
            ));
        }
        if now_both {
            self.rematch_offer = None;
            let seats = ByColor::new_with(|c| self.meta.seats[!c].clone());
            self.hub
                .start_game(
                    seats,
                    self.meta.rated,
                    self.meta.hotseat,
                    self.meta.tc,
                    *self.game.rules(),
                )
                .await
                .map_err(|e| internal(&e))?;
            self.rematched = true;
        } else {
            self.rematch_offer = Some(color);
            self.broadcast(serde_json::json!({"t": "rematch_offered", "game": self.meta.id, "by": color_name(color)}));
        }
        Ok(None)
    }

    /// Plays a move (or the server's pass) for the side to move: clocks, durability, broadcast.
    async fn play_ply(&mut self, m: Move, timeout: bool) -> Result<(), WsError> {
        let now = self.clock.now_ms();
        let color = self.turn();
        let before = self.remaining[color];
        let pos = *self.game.position();
        self.game.play(m).map_err(|e| WsError::illegal(e.why))?;
        if self.meta.tc.clock_ms > 0 {
            let mut left = self.remaining[color] - self.elapsed(now);
            if !timeout {
                left += self.meta.tc.inc_ms;
            }
            self.remaining[color] = left.max(0);
        }
        let ply = self.game.len() - 1;
        let row = PlyRow {
            ply: ply as i64,
            mv: m.to_string(),
            timeout,
            red_ms: self.remaining[Color::Red],
            blue_ms: self.remaining[Color::Blue],
            at: now,
        };
        // Durable before acknowledged.
        if let Err(e) = self.hub.store().append_ply(&self.meta.id, &row).await {
            self.game.undo();
            self.remaining[color] = before;
            // A move that slipped in as the server began to stop finds the store closed.
            if self.hub.is_shutting_down() {
                return Err(shutting_down());
            }
            return Err(internal(&e));
        }
        self.turn_start = now;
        // RULES §8.4: an offer lapses when either player moves (a server pass included).
        let lapsed = self.draw_offer.take();
        self.stamps.push(PlyStamp {
            red_ms: self.remaining[Color::Red],
            blue_ms: self.remaining[Color::Blue],
            at: now,
            timeouts: self.timeouts,
        });
        let text = moved_message(&self.meta, &self.game, &pos, self.stamps[ply]);
        let _ = self.events.send(Event::Json(text));
        if let Some(by) = lapsed {
            self.broadcast(serde_json::json!({
                "t": "draw_lapsed", "game": self.meta.id, "by": color_name(by),
            }));
        }
        // A grace period never outlasts the clock: the side now to move, if it is away, has
        // until its grace runs out or its clock would, whichever comes first. (The grace itself
        // runs from the disconnect: the opponent's moves do not start it again.)
        let mover = self.turn();
        if let (Some(at), true) = (self.grace_deadline[mover], self.meta.tc.clock_ms > 0) {
            self.grace_deadline[mover] = Some(at.min(now + self.clock_left(mover, now).max(0)));
        }
        if let Some(o) = self.game.outcome() {
            self.finish(o.winner, o.termination.as_str()).await;
        } else {
            self.maybe_start_ai();
        }
        Ok(())
    }

    fn maybe_start_ai(&mut self) {
        let Some(ai) = self.meta.ai_color() else {
            return;
        };
        if !self.is_live() || self.turn() != ai || self.searching {
            return;
        }
        self.search += 1;
        self.searching = true;
        let search = self.search;
        let level = self.meta.seats[ai].ai.unwrap_or(1);
        let now = self.clock.now_ms();
        let mut budget = self.hub.config().ai_ms_per_level * i64::from(level);
        if self.meta.tc.clock_ms > 0 {
            budget = budget.min(self.clock_left(ai, now) / 20);
        }
        if self.meta.tc.move_ms > 0 {
            budget = budget.min(self.meta.tc.move_ms / 4);
        }
        let game = self.game.clone();
        let tx = self.tx.clone();
        let ai_pool = self.hub.ai();
        let asker = self.ai_asker(ai);
        let task = tokio::spawn(async move {
            let mv = ai_pool
                .choose(
                    game,
                    level,
                    std::time::Duration::from_millis(budget.max(1) as u64),
                    asker.as_deref(),
                )
                .await;
            let _ = tx.send(Cmd::AiMove { search, mv }).await;
        });
        self.ai_task = Some(task.abort_handle());
    }

    /// Ends the AI's search under way, if any: its move, for a position gone (a pass, a takeback,
    /// the end of the game), will never be played, and its place in the AI pool goes to others.
    fn cancel_ai_search(&mut self) {
        self.search += 1;
        self.searching = false;
        if let Some(task) = self.ai_task.take() {
            task.abort();
        }
    }

    /// Ends the game: stores the result and the players' new standings, then tells everyone. If
    /// the database does not take them, everyone is told all the same and the store is retried
    /// until it does (see [`Ending`]).
    async fn finish(&mut self, winner: Option<Color>, reason: &str) {
        if !self.is_live() {
            return;
        }
        let now = self.clock.now_ms();
        for c in Color::ALL {
            self.remaining[c] = self.clock_left(c, now).max(0);
        }
        self.turn_start = now;
        self.result = Some(GameResult {
            winner: winner.map(color_name),
            reason: reason.to_string(),
            by: self
                .aborted_by
                .filter(|_| reason == "aborted")
                .map(color_name),
        });
        self.ended_at = Some(now);
        self.draw_offer = None;
        self.held_ai_move = None;
        self.draw_check += 1;
        self.grace_deadline = ByColor::new_with(|_| None);
        self.cancel_ai_search();
        let ending = Ending {
            meta: self.meta.clone(),
            winner,
            reason: reason.to_string(),
            aborted_by: self.aborted_by.filter(|_| reason == "aborted"),
            plies: self.game.len(),
            at: now,
            clocks: (self.meta.tc.clock_ms > 0)
                .then(|| [self.remaining[Color::Red], self.remaining[Color::Blue]]),
            timeouts: [self.timeouts[Color::Red], self.timeouts[Color::Blue]],
        };
        let changes = match ending.store(self.hub.store()).await {
            Ok(c) => c,
            Err(e) => {
                // The players hear the end now all the same (without changes); the result is
                // stored later (see [`Ending`]), and until then this actor stays up and shows
                // the game as over.
                tracing::error!(
                    game = %self.meta.id, error = %e,
                    retry_in_ms = RESULT_RETRY_FIRST_MS,
                    "storing a result failed; retrying until the database takes it"
                );
                let unstored = Unstored {
                    game: self.meta.id.clone(),
                    fate: self.hub.unstored_results().add(&self.meta.id),
                };
                tokio::spawn(ending.store_until_done(self.hub.clone(), self.tx.clone()));
                self.unstored = Some(unstored);
                [None, None]
            }
        };
        let changes = changes_json(&changes);
        self.changes = self.unstored.is_none().then(|| changes.clone());
        let mut ended = serde_json::json!({
            "t": "ended", "game": self.meta.id, "result": self.result,
            "changes": changes,
            // The count that ended a game by timeouts has no `moved` of its own.
            "timeouts": {"red": self.timeouts[Color::Red], "blue": self.timeouts[Color::Blue]},
        });
        if let Some(by) = self.aborted_by.filter(|_| reason == "aborted") {
            ended["by"] = color_name(by).into();
        }
        self.broadcast(ended);
        self.hub.game_ended(&self.meta);
    }
}

/// The end of a game, as it is to be stored: the result, and the players' new standings computed
/// from their standings as [`Store::finish_game`] reads them (under its finish lock, just before
/// its transaction).
///
/// A result the database does not take when the game ends (the database is down, or times out)
/// is tried again by a task of its own, after 1 s, 2 s, 4 s… (at most [`RESULT_RETRY_MAX_MS`]
/// apart) until it is stored; the players have been told `ended` (with no changes) all the same,
/// and the game's actor stays up meanwhile and shows the game as over (it does not linger out,
/// see [`Actor::next_due`]), so that no one sees it live again from the store.
///
/// A retry cannot count the game twice: each try is one transaction (the game row and both
/// players' rows), so a failed one changes nothing; each try computes the new standings anew from
/// the players' rows as they are then (other games may have ended meanwhile); and the transaction
/// only finishes a game stored as live, so that a try whose commit went through although it
/// answered an error (a connection lost during `COMMIT`) is not applied again
/// ([`StoreError::AlreadyFinished`]).
///
/// Once stored, the players' changes, which `ended` could not tell, go to everyone following
/// the game in a `changes` message, and the game's state shows them.
///
/// A stopping server waits a few seconds for the results not stored yet ([`RESULT_STORE_GRACE`],
/// [`UnstoredResults::wait`]), retrying them at once. If the database does not take one by then,
/// the result is lost: the game is still stored as live, and the next start resumes it as live
/// although its players were told it was over. That cannot be helped while the database stays
/// away; the server logs it, game by game, as it stops.
struct Ending {
    meta: Arc<GameMeta>,
    winner: Option<Color>,
    reason: String,
    /// Of an aborted game: who aborted it.
    aborted_by: Option<Color>,
    plies: usize,
    at: i64,
    /// Of a timed game: each side's clock at the end.
    clocks: Option<[i64; 2]>,
    /// Each side's timeouts at the end.
    timeouts: [u32; 2],
}

impl Ending {
    /// Stores the result and the new standings (one transaction); returns each player's standing
    /// before and after.
    async fn store(&self, store: &Store) -> Result<[Option<(User, User)>; 2], StoreError> {
        let meta = &self.meta;
        let players: [Option<UserId>; 2] = if meta.hotseat {
            [None, None]
        } else {
            [
                meta.seats[Color::Red].user.clone(),
                meta.seats[Color::Blue].user.clone(),
            ]
        };
        let levels = store.levels().clone();
        let update = |users: [Option<User>; 2]| {
            standings_after(users, meta, self.winner, &self.reason, self.plies, &levels)
        };
        let end = GameEnd {
            winner: self.winner.map(color_name),
            reason: &self.reason,
            aborted_by: self.aborted_by.map(color_name),
            plies: self.plies as i64,
            at: self.at,
            clocks: self.clocks,
            timeouts: self.timeouts,
        };
        store.finish_game(&meta.id, players, &end, update).await
    }

    /// Tries again, with growing waits on the hub's clock, until the result is stored; then
    /// marks it stored in the hub's [`UnstoredResults`] and tells the actor, with the players'
    /// changes. Once the server begins to stop, it tries at once and then every
    /// [`RESULT_RETRY_STOPPING`] (the server waits for it a few seconds, see
    /// [`UnstoredResults::wait`]). Gives up only when the store is closed.
    async fn store_until_done(self, hub: Hub, actor: mpsc::Sender<Cmd>) {
        let store = hub.store().clone();
        let clock = hub.clock();
        let mut stopping = hub.stopping();
        let mut wait = RESULT_RETRY_FIRST_MS;
        let mut tries: u32 = 1;
        let mut said_stopping = false;
        loop {
            if *stopping.borrow_and_update() {
                tokio::time::sleep(RESULT_RETRY_STOPPING).await;
            } else {
                tokio::select! {
                    () = clock.sleep_until(clock.now_ms() + wait) => {}
                    // The server begins to stop: no more waiting out the back-off.
                    _ = stopping.wait_for(|s| *s) => {}
                }
            }
            tries += 1;
            let changes = match self.store(&store).await {
                Ok(c) => Some(changes_json(&c)),
                // An earlier try went through after all, although it answered an error (a
                // connection lost during `COMMIT`); nothing was applied again. Its changes are
                // in the game's row.
                Err(StoreError::AlreadyFinished) => store
                    .game(&self.meta.id)
                    .await
                    .ok()
                    .flatten()
                    .and_then(|row| stored_changes(row.changes.as_deref()?)),
                Err(StoreError::Db(sqlx::Error::PoolClosed)) => {
                    // The server has stopped; what is lost is logged (see [`Unstored`]).
                    return;
                }
                Err(e) => {
                    wait = (wait * 2).min(RESULT_RETRY_MAX_MS);
                    // While the server stops, it tries every 200 ms: said once (the stop says
                    // what is lost in the end).
                    if !*stopping.borrow() {
                        tracing::warn!(
                            game = %self.meta.id, error = %e, tries, retry_in_ms = wait,
                            "storing a result failed again"
                        );
                    } else if !said_stopping {
                        said_stopping = true;
                        tracing::warn!(
                            game = %self.meta.id, error = %e, tries,
                            "storing a result failed again; retrying until the server has stopped"
                        );
                    }
                    continue;
                }
            };
            hub.unstored_results().stored(&self.meta.id);
            let _ = actor.send(Cmd::ResultStored { tries, changes }).await;
            return;
        }
    }
}

/// The players' changes as `ended` and `GameState` tell them: `{"red": Change|null, "blue":
/// Change|null}`.
fn changes_json(changes: &[Option<(User, User)>; 2]) -> serde_json::Value {
    let change = |i: usize| changes[i].as_ref().map(|(b, a)| Change::between(b, a));
    serde_json::json!({"red": change(0), "blue": change(1)})
}

/// The changes as a game's row stores them (`[red, blue]`), as `ended` tells them (None if the
/// text is not such a pair).
pub fn stored_changes(text: &str) -> Option<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    Some(serde_json::json!({"red": v.get(0)?, "blue": v.get(1)?}))
}

/// What became of a result the database did not take when its game ended.
const PENDING: u8 = 0;
/// ... it is stored now.
const STORED: u8 = 1;
/// ... the stopping server gave up waiting for it and said it is lost.
const REPORTED_LOST: u8 = 2;

/// The results of ended games that the database has not taken yet, each retried by a task of its
/// own (see `Ending`): what a stopping server waits for before it closes the store. The hub
/// holds one.
pub struct UnstoredResults {
    games: watch::Sender<HashMap<GameId, Arc<AtomicU8>>>,
}

impl Default for UnstoredResults {
    fn default() -> Self {
        UnstoredResults {
            games: watch::channel(HashMap::new()).0,
        }
    }
}

impl UnstoredResults {
    /// A result to store: its fate, shared with the game's actor.
    fn add(&self, game: &GameId) -> Arc<AtomicU8> {
        let fate = Arc::new(AtomicU8::new(PENDING));
        self.games.send_modify(|g| {
            g.insert(game.clone(), fate.clone());
        });
        fate
    }

    /// The result of `game` is stored.
    fn stored(&self, game: &GameId) {
        let mut fate = None;
        self.games.send_modify(|g| fate = g.remove(game));
        if fate.is_some_and(|f| f.swap(STORED, Ordering::SeqCst) == REPORTED_LOST) {
            tracing::info!(game = %game, "the result said lost is stored after all");
        }
    }

    /// How many results wait for the database.
    pub fn len(&self) -> usize {
        self.games.borrow().len()
    }

    /// Whether none does.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Waits, at most `grace`, until every result is stored (call [`Hub::begin_shutdown`]
    /// first, so that their retries stop waiting out their back-off); then logs, game by game,
    /// the results still not stored: they are lost (the games resume as live on the next start).
    /// Returns those games.
    pub async fn wait(&self, grace: Duration) -> Vec<GameId> {
        let waiting = self.len();
        if waiting > 0 {
            tracing::info!(
                results = waiting,
                grace_ms = grace.as_millis() as u64,
                "waiting for the database to take the results of ended games"
            );
        }
        let mut rx = self.games.subscribe();
        let _ = tokio::time::timeout(grace, rx.wait_for(HashMap::is_empty)).await;
        let mut lost: Vec<GameId> = self
            .games
            .borrow()
            .iter()
            .filter(|(_, fate)| {
                fate.compare_exchange(PENDING, REPORTED_LOST, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            })
            .map(|(g, _)| g.clone())
            .collect();
        lost.sort();
        for game in &lost {
            tracing::error!(game = %game, "{LOST}");
        }
        if waiting > 0 && lost.is_empty() {
            tracing::info!(results = waiting, "the results of ended games are stored");
        }
        lost
    }
}

/// What is logged of a result lost as the server stops.
const LOST: &str = "the server stops before the database took this game's result: the result \
                    is lost, and the game will resume as live on the next start";

/// Held by the actor of an ended game while its result is not stored: if the actor goes (the
/// server stops) before the result is stored, and the server did not say so already as it stopped
/// ([`UnstoredResults::wait`]), this says so in the log.
struct Unstored {
    game: GameId,
    /// Shared with the hub's [`UnstoredResults`].
    fate: Arc<AtomicU8>,
}

impl Drop for Unstored {
    fn drop(&mut self) {
        if self.fate.load(Ordering::SeqCst) == PENDING {
            tracing::error!(game = %self.game, "{LOST}");
        }
    }
}

/// What a ply's `moved` message needs beyond the game itself. Live games keep one per ply instead
/// of the message (a few dozen bytes instead of several hundred).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyStamp {
    /// Red's game clock after the ply, ms.
    pub red_ms: i64,
    /// Blue's game clock after the ply, ms.
    pub blue_ms: i64,
    /// When the ply was played (server time, ms).
    pub at: i64,
    /// Timeouts of each side up to and including the ply.
    pub timeouts: ByColor<u32>,
}

/// The `moved` message of the last ply of `game` (played from `before`), as broadcast when it
/// was played: the clocks after it, running for the side to move, and the legal moves then.
pub fn moved_message(meta: &GameMeta, game: &Game, before: &Position, stamp: PlyStamp) -> Arc<str> {
    let ply = game.len().saturating_sub(1);
    let m = game.plies().last().map_or(Move::PASS, |p| p.mv);
    let tc = meta.tc;
    let timed = tc.clock_ms > 0;
    let over = game.outcome().is_some();
    let clocks = Clocks {
        red_ms: timed.then_some(stamp.red_ms),
        blue_ms: timed.then_some(stamp.blue_ms),
        // The ply that ends the game on the board stops the clocks, as the game's state says.
        move_ms: (tc.move_ms > 0 && !over).then_some(tc.move_ms),
        running: (!over).then(|| color_name(game.position().turn())),
    };
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    let msg = serde_json::json!({
        "t": "moved", "game": meta.id, "ply": ply, "move": m.to_string(),
        "san": San::from_move(before, m).to_string(),
        "fen": Jfen::from_position(game.position()).to_string(),
        "clocks": clocks,
        "timeouts": {"red": stamp.timeouts[Color::Red], "blue": stamp.timeouts[Color::Blue]},
        "legal": legal,
        "forbidden": crate::wire::forbidden_moves(game),
        "last_move_at": stamp.at,
    });
    Arc::from(msg.to_string())
}

/// The refusal of a rematch of an aborted game.
pub fn aborted_no_rematch() -> WsError {
    WsError::new(
        "aborted_no_rematch",
        "an aborted game has no rematch; start a new game",
    )
}

/// The refusal of a game action while the server stops (nothing changed: the player sends it
/// again once the server is back).
pub fn shutting_down() -> WsError {
    WsError::new(
        "shutting_down",
        "the server is restarting: nothing was changed, send it again once it is back",
    )
}

fn internal(e: &dyn std::fmt::Display) -> WsError {
    tracing::error!(error = %e, "internal error in a game");
    WsError::new("internal", "internal error, please retry")
}

/// The players' standings after a game (RULES §8.3, §8.5): counts, coins, score and rating.
pub fn standings_after(
    users: [Option<User>; 2],
    meta: &GameMeta,
    winner: Option<Color>,
    reason: &str,
    plies: usize,
    levels: &scoring::LevelTable,
) -> [Option<User>; 2] {
    if reason == "aborted" {
        return users;
    }
    let mut out = users.clone();
    for (i, c) in Color::ALL.into_iter().enumerate() {
        let Some(u) = out[i].as_mut() else { continue };
        u.games += 1;
        match winner {
            None => u.draws += 1,
            Some(w) if w == c => u.wins += 1,
            Some(_) => {
                u.losses += 1;
                if reason == "left" || reason == "disconnect" {
                    u.coins = (u.coins - LEAVE_PENALTY_COINS).max(0);
                    if reason == "left" {
                        u.escapes += 1;
                    } else {
                        u.disconnects += 1;
                    }
                }
            }
        }
    }
    let (Some(red), Some(blue)) = (&users[0], &users[1]) else {
        return out;
    };
    // Scores and ratings: rated games between registered players beyond 10 rounds only.
    if !meta.rated || red.guest || blue.guest || plies <= SHORT_GAME_PLIES {
        return out;
    }
    if let Some(w) = winner {
        let (wi, li) = if w == Color::Red { (0, 1) } else { (1, 0) };
        let (ws, ls) = scoring::decisive_scores(
            levels,
            users[wi].as_ref().map_or(0, |u| u.score),
            users[li].as_ref().map_or(0, |u| u.score),
        );
        if let Some(u) = out[wi].as_mut() {
            u.score = ws;
        }
        if let Some(u) = out[li].as_mut() {
            u.score = ls;
        }
    }
    let (rr, br) = (red.glicko(), blue.glicko());
    let red_points = match winner {
        Some(Color::Red) => 1.0,
        Some(Color::Blue) => 0.0,
        None => 0.5,
    };
    let new_red = rr.after_game(br, red_points);
    let new_blue = br.after_game(rr, 1.0 - red_points);
    for (i, r) in [(0, new_red), (1, new_blue)] {
        if let Some(u) = out[i].as_mut() {
            u.rating = r.rating;
            u.rd = r.rd;
            u.vol = r.vol;
        }
    }
    for u in out.iter_mut().flatten() {
        u.level = levels.level_of(u.score);
    }
    out
}
