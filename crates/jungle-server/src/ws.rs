//! The WebSocket: one per client (per tab). The connection task checks the session, the size and
//! rate of every message and the seat; game actions go to the game's actor, whose broadcasts are
//! forwarded back.

use crate::accounts::session;
use crate::game::{Action, Event, GameHandle, Seat};
use crate::hub::{UserEvent, MAX_LIVE_GAMES_PER_USER};
use crate::ids::GameId;
use crate::limits::{Bucket, ClientIp};
use crate::store::User;
use crate::wire::{ClientMsg, TimeControl, WsError};
use crate::AppState;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use jungle::{ByColor, Color, Rules};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;

/// Largest message accepted (bigger ones are answered `too_large`).
pub const MAX_MESSAGE_BYTES: usize = 4096;
/// Refused messages a client may run up within a minute (refilled at that rate); one more and it
/// is flooding and is disconnected. A long session's occasional refusals never add up to this.
const MAX_REFUSALS_PER_MIN: u32 = 100;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

/// Whether the `Origin` header (if any) names the host the request was sent to.
pub fn origin_allowed(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get("origin") else {
        return true; // not a browser: nothing to forge
    };
    let Some(host) = headers.get("host").and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    origin_host.eq_ignore_ascii_case(host)
}

async fn upgrade(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    // Read before the session is checked: see `Hub::signouts`.
    let signouts = state.hub.signouts();
    let (token, user) = match session(&state, &headers).await {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    if let Err(refusal) = state
        .limits
        .open_socket(ip, state.hub.config().max_ws_per_ip)
    {
        return crate::ApiError::RateLimited(refusal).into_response();
    }
    // Small buffers: messages are at most 4 KiB, and thousands of sockets are open at once.
    ws.max_message_size(64 * 1024)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .on_upgrade(move |socket| async move {
            Conn::run(state.clone(), socket, user, token, signouts).await;
            state.limits.close_socket(ip);
        })
}

struct Conn {
    state: AppState,
    user: User,
    /// The token of the session the socket was opened with: ending that session (or all of the
    /// account's) closes the socket.
    session: String,
    out: mpsc::Sender<Arc<str>>,
    follows: HashMap<GameId, JoinHandle<()>>,
    watching: HashMap<GameId, ()>,
    lobby: Option<JoinHandle<()>>,
    /// The refusals this connection may still run up ([`MAX_REFUSALS_PER_MIN`]).
    refusals: Bucket,
    /// It ran out of refusals: it is disconnected.
    flooding: bool,
}

#[derive(Deserialize)]
struct TypeOnly {
    t: Option<serde_json::Value>,
}

impl Conn {
    /// Serves a socket of `user` opened with the session `session`; `signouts` is the hub's count
    /// of sign-outs read before the session was checked.
    async fn run(state: AppState, socket: WebSocket, user: User, session: String, signouts: u64) {
        let (mut sink, mut stream) = socket.split();
        let (out, mut out_rx) = mpsc::channel::<Arc<str>>(512);
        let writer = tokio::spawn(async move {
            while let Some(text) = out_rx.recv().await {
                if sink
                    .send(Message::Text(text.as_ref().into()))
                    .await
                    .is_err()
                {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let hub = state.hub.clone();
        let clock = hub.clock();
        let mut user_rx = hub.connect_user(&user.id).await;
        let mut conn = Conn {
            state,
            user,
            session,
            out,
            follows: HashMap::new(),
            watching: HashMap::new(),
            lobby: None,
            refusals: Bucket::new(MAX_REFUSALS_PER_MIN, 60_000, clock.now_ms()),
            flooding: false,
        };
        // A sign-out between the session check and listening to the user's events went unheard.
        let signed_out = hub.signouts() != signouts && !conn.session_alive().await;
        if signed_out {
            conn.signed_out().await;
        } else {
            let games = hub.user_live_games(&conn.user.id);
            conn.send(serde_json::json!({"t": "welcome", "user": conn.user, "games": games}))
                .await;
        }
        let mut bucket = Bucket::new(hub.config().ws_msgs_per_sec, 1000, clock.now_ms());
        if !signed_out {
            loop {
                tokio::select! {
                    // The user's events first: a sign-out is acted on before any message
                    // that came after it.
                    biased;
                    ev = user_rx.recv() => match ev {
                        Ok(UserEvent::GameStarted(id)) => {
                            if let Some(h) = hub.game(&id) {
                                conn.follow(&h);
                                conn.send_state(&h).await;
                            }
                        }
                        Ok(UserEvent::SignedOut(sessions)) => {
                            if sessions.includes(&conn.session) {
                                conn.signed_out().await;
                                break;
                            }
                        }
                        // Events were missed, a sign-out perhaps: ask the store.
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            if !conn.session_alive().await {
                                conn.signed_out().await;
                                break;
                            }
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    },
                    msg = stream.next() => {
                        let text = match msg {
                            Some(Ok(Message::Text(t))) => t,
                            Some(Ok(Message::Binary(_))) => {
                                conn.refuse(WsError::new("bad_json", "send JSON text messages"), "").await;
                                continue;
                            }
                            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                            _ => break,
                        };
                        if !bucket.take(clock.now_ms()) {
                            conn.refuse(WsError::new("rate_limited", "too many messages, slow down"), "").await;
                        } else if text.len() > MAX_MESSAGE_BYTES {
                            conn.refuse(WsError::new("too_large", "messages are limited to 4 KiB"), "").await;
                        } else {
                            conn.on_text(text.as_str()).await;
                        }
                        if conn.flooding {
                            tracing::warn!(user = %conn.user.id, "disconnecting a flooding client");
                            break;
                        }
                    }
                }
            }
        }
        for (_, f) in conn.follows.drain() {
            f.abort();
        }
        if let Some(l) = conn.lobby.take() {
            l.abort();
        }
        hub.disconnect_user(&conn.user.id).await;
        drop(conn);
        let _ = writer.await;
    }

    /// Whether the socket's session still exists (a failing store counts as no).
    async fn session_alive(&self) -> bool {
        matches!(
            self.state
                .hub
                .store()
                .session_user(&self.session, self.state.hub.clock().now_ms())
                .await,
            Ok(Some(u)) if u.id == self.user.id
        )
    }

    /// The socket's session ended: says so; the caller then closes the socket.
    async fn signed_out(&self) {
        tracing::debug!(user = %self.user.id, "closing the socket of an ended session");
        let e = WsError::new("unauthorized", "signed out");
        let _ = self.out.send(Arc::from(e.to_json(""))).await;
    }

    async fn send(&self, v: serde_json::Value) {
        let _ = self.out.send(Arc::from(v.to_string())).await;
    }

    async fn refuse(&mut self, e: WsError, re: &str) {
        if !self.refusals.take(self.state.hub.clock().now_ms()) {
            self.flooding = true;
        }
        let _ = self.out.send(Arc::from(e.to_json(re))).await;
    }

    /// Forwards a game's broadcasts to this connection (once per game).
    fn follow(&mut self, h: &GameHandle) {
        if self
            .follows
            .get(&h.meta.id)
            .is_some_and(|j| !j.is_finished())
        {
            return;
        }
        let mut rx = h.subscribe();
        let out = self.out.clone();
        let handle = h.clone();
        let viewer = self.user.id.clone();
        let task = tokio::spawn(async move {
            loop {
                let text = match rx.recv().await {
                    Ok(Event::Json(t)) => t,
                    Ok(Event::State) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        match handle.snapshot(Some(viewer.clone())).await {
                            Some(s) => {
                                Arc::from(serde_json::json!({"t": "game", "game": s}).to_string())
                            }
                            None => break,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if out.send(text).await.is_err() {
                    break;
                }
            }
        });
        self.follows.insert(h.meta.id.clone(), task);
    }

    async fn send_state(&self, h: &GameHandle) {
        if let Some(s) = h.snapshot(Some(self.user.id.clone())).await {
            self.send(serde_json::json!({"t": "game", "game": s})).await;
        }
    }

    async fn on_text(&mut self, text: &str) {
        let msg: ClientMsg = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                let re = serde_json::from_str::<TypeOnly>(text)
                    .ok()
                    .and_then(|t| t.t)
                    .and_then(|t| t.as_str().map(|s| s.chars().take(32).collect::<String>()))
                    .unwrap_or_default();
                let message = crate::wire::bad_json_message(&e, text);
                self.refuse(WsError::new("bad_json", message), &re).await;
                return;
            }
        };
        let re = msg_type(&msg);
        if let Err(e) = self.dispatch(msg).await {
            self.refuse(e, re).await;
        }
    }

    async fn start(
        &self,
        seats: ByColor<Seat>,
        rated: bool,
        hotseat: bool,
        tc: TimeControl,
        rules: Rules,
    ) -> Result<(), WsError> {
        self.not_stopping()?;
        self.room_for_a_game()?;
        // The hub reads both seats afresh and makes a game with a guest or the AI casual.
        self.state
            .hub
            .start_game(seats, rated, hotseat, tc.to_ms(), rules)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "cannot start a game");
                WsError::new("internal", "cannot start the game, please retry")
            })?;
        Ok(())
    }

    /// Refuses to start a game for a player who has [`MAX_LIVE_GAMES_PER_USER`] going on
    /// (checked before a seek or challenge is taken, so that it stays open for others).
    fn room_for_a_game(&self) -> Result<(), WsError> {
        if self.state.hub.user_live_games(&self.user.id).len() >= MAX_LIVE_GAMES_PER_USER {
            return Err(WsError::new(
                "too_many_games",
                format!(
                    "you have {MAX_LIVE_GAMES_PER_USER} games going on: finish or resign one first"
                ),
            ));
        }
        Ok(())
    }

    /// Refuses to start a game while the server stops (checked before a seek or challenge is
    /// taken, so that it stays open).
    fn not_stopping(&self) -> Result<(), WsError> {
        match self.state.hub.is_shutting_down() {
            true => Err(crate::game::shutting_down()),
            false => Ok(()),
        }
    }

    async fn opponent_seat(&self, id: &crate::UserId) -> Result<Seat, WsError> {
        match self.state.hub.store().user(id).await {
            Ok(Some(u)) => Ok(Seat::human(&u)),
            _ => Err(WsError::new("not_found", "that player is gone")),
        }
    }

    /// Reads the player's account again: the rating (and, after registering, the guest flag) a
    /// seek shows and quick pairing goes by change while a socket stays open.
    async fn refresh_user(&mut self) {
        if let Ok(Some(u)) = self.state.hub.store().user(&self.user.id).await {
            self.user = u;
        }
    }

    async fn dispatch(&mut self, msg: ClientMsg) -> Result<(), WsError> {
        let hub = self.state.hub.clone();
        let me = Seat::human(&self.user);
        match msg {
            ClientMsg::Ping {} => self.send(serde_json::json!({"t": "pong"})).await,
            ClientMsg::Lobby {} => {
                if self.lobby.is_none() {
                    let mut rx = hub.lobby_feed();
                    let out = self.out.clone();
                    self.lobby = Some(tokio::spawn(async move {
                        loop {
                            match rx.recv().await {
                                Ok(t) => {
                                    if out.send(t).await.is_err() {
                                        break;
                                    }
                                }
                                // Each message is the whole list: a reader that fell behind
                                // skips to the newest ones and is up to date again.
                                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                                Err(broadcast::error::RecvError::Closed) => break,
                            }
                        }
                    }));
                }
                let _ = self.out.send(hub.seeks_json()).await;
            }
            ClientMsg::Seek { tc, rated, rules } => {
                tc.validate().map_err(|e| WsError::new("bad_request", e))?;
                // Seeks live in memory: one opened now would vanish at the restart.
                self.not_stopping()?;
                let rules = parse_rules(rules.as_deref())?;
                self.refresh_user().await;
                // A guest's games are casual: its seek says so.
                let rated = rated && !self.user.guest;
                let id = hub.open_seek(&self.user, tc, rated, rules);
                self.send(serde_json::json!({"t": "seek_created", "id": id}))
                    .await;
            }
            ClientMsg::CancelSeek { id } => {
                if !hub.cancel_seek(&self.user.id, &id) {
                    return Err(WsError::new("not_found", "no such seek of yours"));
                }
            }
            ClientMsg::AcceptSeek { id } => {
                self.not_stopping()?;
                self.room_for_a_game()?;
                let (owner, tc, rated, rules) = hub
                    .take_seek(&self.user.id, Some(&id), None)
                    .ok_or_else(|| match hub.is_own_seek(&self.user.id, &id) {
                        true => WsError::new("own_offer", "you cannot accept your own seek"),
                        false => WsError::new("not_found", "that seek is gone"),
                    })?;
                self.pair(owner, tc, rated, parse_rules(Some(&rules))?)
                    .await?;
            }
            ClientMsg::Quick { tc } => {
                tc.validate().map_err(|e| WsError::new("bad_request", e))?;
                self.not_stopping()?;
                self.room_for_a_game()?;
                self.refresh_user().await;
                match hub.quick(&self.user, tc, !self.user.guest) {
                    Ok((owner, tc, rated, rules)) => {
                        self.pair(owner, tc, rated, parse_rules(Some(&rules))?)
                            .await?;
                    }
                    Err(id) => {
                        self.send(serde_json::json!({"t": "seek_created", "id": id}))
                            .await;
                    }
                }
            }
            ClientMsg::Challenge { tc, rated, color } => {
                tc.validate().map_err(|e| WsError::new("bad_request", e))?;
                self.not_stopping()?;
                self.refresh_user().await;
                let rated = rated && !self.user.guest;
                let id = hub.open_challenge(&self.user.id, tc, rated, color.unwrap_or_default());
                self.send(serde_json::json!({"t": "challenge_created", "id": id}))
                    .await;
            }
            ClientMsg::AcceptChallenge { id } => {
                self.not_stopping()?;
                self.room_for_a_game()?;
                let (owner, tc, rated, owner_color) = hub
                    .take_challenge(&self.user.id, &id)
                    .map_err(|(code, e)| WsError::new(code, e))?;
                let them = self.opponent_seat(&owner).await?;
                let seats = seats(owner_color != Color::Red, me, them);
                self.start(seats, rated, false, tc, Rules::STANDARD).await?;
            }
            ClientMsg::PlayAi { level, color, tc } => {
                let level = u8::try_from(level)
                    .ok()
                    .filter(|l| (1..=10).contains(l))
                    .ok_or_else(|| WsError::new("bad_request", "the AI level is 1 to 10"))?;
                let tc = tc.unwrap_or(TimeControl {
                    clock_s: 0,
                    inc_s: 0,
                    move_s: 0,
                });
                tc.validate().map_err(|e| WsError::new("bad_request", e))?;
                let seats = match color.unwrap_or_default().pick() {
                    Color::Red => ByColor {
                        red: me,
                        blue: Seat::ai(level),
                    },
                    Color::Blue => ByColor {
                        red: Seat::ai(level),
                        blue: me,
                    },
                };
                self.start(seats, false, false, tc, Rules::STANDARD).await?;
            }
            ClientMsg::PlayHotseat { tc, rules } => {
                let tc = tc.unwrap_or(TimeControl {
                    clock_s: 0,
                    inc_s: 0,
                    move_s: 0,
                });
                tc.validate().map_err(|e| WsError::new("bad_request", e))?;
                let rules = parse_rules(rules.as_deref())?;
                let seats = ByColor {
                    red: me.clone(),
                    blue: me,
                };
                self.start(seats, false, true, tc, rules).await?;
            }
            ClientMsg::Watch { game } => {
                if let Some(h) = hub.game(&game) {
                    self.watching.insert(game.clone(), ());
                    self.follow(&h);
                    self.send_state(&h).await;
                } else {
                    let s = crate::games_api::stored_state(&self.state, &game, Some(&self.user.id))
                        .await
                        .map_err(|_| WsError::new("internal", "cannot read the game"))?
                        .ok_or_else(|| WsError::new("not_found", "no such game"))?;
                    self.send(serde_json::json!({"t": "game", "game": s})).await;
                }
            }
            ClientMsg::Unwatch { game } => {
                self.watching.remove(&game);
                if let Some(f) = self.follows.remove(&game) {
                    f.abort();
                }
            }
            ClientMsg::Move { game, ply, mv } => {
                // A move that cannot be read is repeated in its refusal: cut it there.
                let sent = mv.clone();
                self.act(game, Action::Move { ply, mv })
                    .await
                    .map_err(|e| e.cut_echoes(&[&sent, sent.trim()]))?
            }
            ClientMsg::DrawOffer { game } => self.act(game, Action::DrawOffer).await?,
            ClientMsg::DrawAccept { game } => self.act(game, Action::DrawAccept).await?,
            ClientMsg::DrawDecline { game } => self.act(game, Action::DrawDecline).await?,
            ClientMsg::Resign { game } => self.act(game, Action::Resign).await?,
            ClientMsg::Abort { game } => self.act(game, Action::Abort).await?,
            ClientMsg::Leave { game } => self.act(game, Action::Leave).await?,
            ClientMsg::Takeback { game } => self.act(game, Action::Takeback).await?,
            ClientMsg::Rematch { game } => self.act(game, Action::Rematch).await?,
        }
        Ok(())
    }

    async fn pair(
        &self,
        owner: crate::UserId,
        tc: TimeControl,
        rated: bool,
        rules: Rules,
    ) -> Result<(), WsError> {
        let them = self.opponent_seat(&owner).await?;
        let me = Seat::human(&self.user);
        let seats = seats(rand::random::<bool>(), me, them);
        self.start(seats, rated, false, tc, rules).await
    }

    async fn act(&mut self, game: GameId, action: Action) -> Result<(), WsError> {
        // A finished game's actor is gone once a rematch can no longer be asked for.
        let rematch = matches!(action, Action::Rematch);
        let gone = |e: WsError| {
            match e.code {
            "game_over" if rematch => WsError::new(
                "rematch_closed",
                "a rematch is asked for within 2 minutes of the game's end (and before a server restart); start a new game",
            ),
            _ => e,
        }
        };
        let Some(h) = self.state.hub.game(&game) else {
            let stored = self.state.hub.store().game(&game).await.ok().flatten();
            let me = Some(&self.user.id);
            return Err(match stored {
                None => WsError::new("not_found", "no such game"),
                Some(row) if rematch && row.reason.as_deref() == Some("aborted") => {
                    crate::game::aborted_no_rematch()
                }
                Some(row)
                    if rematch && row.red_user.as_ref() != me && row.blue_user.as_ref() != me =>
                {
                    WsError::new("not_your_game", "you do not play in this game")
                }
                Some(_) => gone(WsError::new("game_over", "the game is over")),
            });
        };
        let player = !h.meta.colors_of(&self.user.id).is_empty();
        if !player {
            return Err(if self.watching.contains_key(&game) {
                WsError::new("spectator", "spectators cannot act in a game")
            } else {
                WsError::new("not_your_game", "you do not play in this game")
            });
        }
        self.follow(&h);
        if let Some(direct) = h.act(self.user.id.clone(), action).await.map_err(gone)? {
            let _ = self.out.send(direct).await;
        }
        Ok(())
    }
}

/// The seats of a two-player game: `me` plays Red when `me_red`, `them` the other colour.
fn seats(me_red: bool, me: Seat, them: Seat) -> ByColor<Seat> {
    if me_red {
        ByColor {
            red: me,
            blue: them,
        }
    } else {
        ByColor {
            red: them,
            blue: me,
        }
    }
}

fn parse_rules(r: Option<&str>) -> Result<Rules, WsError> {
    match r {
        None => Ok(Rules::STANDARD),
        Some(r) => r.parse().map_err(|e: jungle::ParseRulesError| {
            let item = crate::wire::quote(&e.item);
            WsError::new("bad_request", format!("invalid rules {item}: {}", e.reason))
        }),
    }
}

fn msg_type(m: &ClientMsg) -> &'static str {
    match m {
        ClientMsg::Ping {} => "ping",
        ClientMsg::Lobby {} => "lobby",
        ClientMsg::Seek { .. } => "seek",
        ClientMsg::CancelSeek { .. } => "cancel_seek",
        ClientMsg::AcceptSeek { .. } => "accept_seek",
        ClientMsg::Quick { .. } => "quick",
        ClientMsg::Challenge { .. } => "challenge",
        ClientMsg::AcceptChallenge { .. } => "accept_challenge",
        ClientMsg::PlayAi { .. } => "play_ai",
        ClientMsg::PlayHotseat { .. } => "play_hotseat",
        ClientMsg::Watch { .. } => "watch",
        ClientMsg::Unwatch { .. } => "unwatch",
        ClientMsg::Move { .. } => "move",
        ClientMsg::DrawOffer { .. } => "draw_offer",
        ClientMsg::DrawAccept { .. } => "draw_accept",
        ClientMsg::DrawDecline { .. } => "draw_decline",
        ClientMsg::Resign { .. } => "resign",
        ClientMsg::Abort { .. } => "abort",
        ClientMsg::Leave { .. } => "leave",
        ClientMsg::Takeback { .. } => "takeback",
        ClientMsg::Rematch { .. } => "rematch",
    }
}
