//! Games over HTTP: the live list, one game's state (replay, spectators) and its record.

use crate::error::ApiError;
use crate::game::Seat;
use crate::ids::GameId;
use crate::store::{GameRow, PlyRow, StartStanding};
use crate::wire::{Clocks, GameResult, GameState, MoveEntry, PlayerInfo, RedBlue, TimeControl};
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use jungle::{Color, Game, GameRecord, Jfen, Move, MoveText, Rules};
use serde::Deserialize;
use serde_json::json;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(list))
        .route("/api/games/{id}", get(one))
        .route("/api/games/{id}/record", get(record))
        .route("/api/challenges/{id}", get(challenge))
}

/// `GET /api/challenges/{id}`: who challenges, with which time control, rating and colour, so
/// that the invited player sees it before accepting. 404 `not_found` once taken or gone.
async fn challenge(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let gone = || ApiError::NotFound("challenge");
    let id: crate::SeekId = id.parse().map_err(|_| gone())?;
    let (owner, tc, rated, color) = state.hub.peek_challenge(&id).ok_or_else(gone)?;
    let user = state.hub.store().user(&owner).await?.ok_or_else(gone)?;
    Ok(Json(json!({
        "challenge": {
            "id": id,
            "user": user.name,
            "tc": tc,
            "rated": rated,
            "color": color.as_str(),
            "online": state.hub.is_online(&owner),
        }
    }))
    .into_response())
}

/// A stored game's seat as shown: the account's name, with its rating and level when the game
/// started (the current ones for games stored before those were kept).
async fn player(
    state: &AppState,
    user: &Option<crate::UserId>,
    ai: Option<u8>,
    start: Option<StartStanding>,
) -> Result<PlayerInfo, ApiError> {
    if let Some(u) = user {
        if let Some(u) = state.hub.store().user(u).await? {
            return Ok(Seat::human(&u).as_at_start(start).info);
        }
    }
    Ok(Seat::ai(ai.unwrap_or(1)).info)
}

/// A game's `GameSummary`.
pub async fn summary(state: &AppState, r: &GameRow) -> Result<serde_json::Value, ApiError> {
    let result = r.reason.as_ref().map(|reason| stored_result(r, reason));
    let plies = if r.status == "live" {
        state.hub.store().plies(&r.id).await?.len() as i64
    } else {
        r.plies
    };
    Ok(json!({
        "id": r.id,
        "red": player(state, &r.red_user, r.red_ai, r.red_start).await?,
        "blue": player(state, &r.blue_user, r.blue_ai, r.blue_start).await?,
        "rated": r.rated,
        "tc": TimeControl::from_ms(r.tc),
        "rules": r.rules,
        "status": r.status,
        "result": result,
        "plies": plies,
        "started_at": r.started_at,
        "ended_at": r.ended_at,
    }))
}

/// `?status=live`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only `live` is supported.
    pub status: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    if q.status.as_deref().is_some_and(|s| s != "live") {
        return Err(ApiError::BadRequest("status must be `live`".into()));
    }
    let mut games = Vec::new();
    for id in state.hub.live_game_ids().into_iter().take(200) {
        if let Some(row) = state.hub.store().game(&id).await? {
            games.push(summary(&state, &row).await?);
        }
    }
    Ok(Json(json!({ "games": games })).into_response())
}

fn replay(row: &GameRow, plies: &[PlyRow]) -> Result<Game, ApiError> {
    let bad = |m: String| ApiError::Internal(format!("stored game {}: {m}", row.id));
    let rules: Rules = row.rules.parse().map_err(|e| bad(format!("{e}")))?;
    let start = Jfen::parse_position(&row.start_fen, rules).map_err(|e| bad(e.to_string()))?;
    let mut game = Game::from_position(start);
    for p in plies {
        let t: MoveText =
            p.mv.parse()
                .map_err(|e: jungle::ParseMoveError| bad(e.to_string()))?;
        let m = if t == MoveText::Pass {
            Move::PASS
        } else {
            t.to_move(game.position()).map_err(|e| bad(e.to_string()))?
        };
        game.play(m).map_err(|e| bad(e.to_string()))?;
    }
    Ok(game)
}

/// Which side(s) `viewer` plays in a stored game: `red`, `blue`, `both` (hot seat), or None.
fn you_in(row: &GameRow, viewer: Option<&crate::UserId>) -> Option<&'static str> {
    let v = viewer?;
    let red = row.red_user.as_ref() == Some(v);
    let blue = row.blue_user.as_ref() == Some(v);
    match (red, blue) {
        (true, true) => Some("both"),
        (true, false) => Some("red"),
        (false, true) => Some("blue"),
        (false, false) => None,
    }
}

/// The `Result` of a finished stored game that ended for `reason`.
fn stored_result(row: &GameRow, reason: &str) -> GameResult {
    GameResult {
        winner: side(row.winner.as_deref()),
        reason: reason.to_string(),
        by: side(row.aborted_by.as_deref()),
    }
}

/// A stored side's name as the wire has it (None for anything else).
fn side(stored: Option<&str>) -> Option<&'static str> {
    match stored {
        Some("red") => Some("red"),
        Some("blue") => Some("blue"),
        _ => None,
    }
}

/// The state of a stored game (finished, or live as last stored), as `viewer` sees it (`you` is
/// set when the viewer plays in it).
pub async fn stored_state(
    state: &AppState,
    id: &GameId,
    viewer: Option<&crate::UserId>,
) -> Result<Option<GameState>, ApiError> {
    let store = state.hub.store();
    let Some(row) = store.game(id).await? else {
        return Ok(None);
    };
    let plies = store.plies(id).await?;
    let game = replay(&row, &plies)?;
    let last = plies.last();
    let timed = row.tc.clock_ms > 0;
    let mut timeouts = RedBlue { red: 0, blue: 0 };
    for (i, p) in plies.iter().enumerate() {
        if p.timeout {
            match game.plies()[i].color {
                Color::Red => timeouts.red += 1,
                Color::Blue => timeouts.blue += 1,
            }
        }
    }
    let live = row.status == "live";
    // The clocks at the end, as stored with the result; else (live, or finished before they
    // were kept) those of the last ply.
    let [red_ms, blue_ms] = row
        .end_clocks
        .unwrap_or_else(|| last.map_or([row.tc.clock_ms; 2], |p| [p.red_ms, p.blue_ms]));
    // The counts at the end, as stored with the result: the fourth timeout ends the game with
    // no ply of its own (RULES §8.2). Else (live, or finished before they were kept) the stored
    // passes, and the fourth of a game lost by timeouts.
    if let Some([red, blue]) = row.end_timeouts {
        timeouts = RedBlue { red, blue };
    } else if row.reason.as_deref() == Some("timeouts") {
        match side(row.winner.as_deref()) {
            Some("red") => timeouts.blue += 1,
            Some("blue") => timeouts.red += 1,
            _ => {}
        }
    }
    Ok(Some(GameState {
        id: row.id.clone(),
        red: player(state, &row.red_user, row.red_ai, row.red_start).await?,
        blue: player(state, &row.blue_user, row.blue_ai, row.blue_start).await?,
        you: you_in(&row, viewer),
        rated: row.rated,
        tc: TimeControl::from_ms(row.tc),
        rules: row.rules.clone(),
        start_fen: row.start_fen.clone(),
        moves: game
            .moves()
            .zip(game.sans())
            .map(|(m, s)| MoveEntry {
                mv: m.to_string(),
                san: s.to_string(),
            })
            .collect(),
        ply: game.len(),
        turn: crate::wire::color_name(game.position().turn()),
        fen: Jfen::from_position(game.position()).to_string(),
        legal: if live {
            game.legal_moves().iter().map(|m| m.to_string()).collect()
        } else {
            Vec::new()
        },
        forbidden: if live {
            crate::wire::forbidden_moves(&game)
        } else {
            serde_json::Map::new()
        },
        clocks: Clocks {
            red_ms: timed.then_some(red_ms),
            blue_ms: timed.then_some(blue_ms),
            move_ms: None,
            running: None,
        },
        timeouts,
        status: if live { "live" } else { "finished" },
        result: row
            .reason
            .as_ref()
            .map(|reason| stored_result(&row, reason)),
        draw_offer: None,
        rematch_offer: None,
        rematched: false,
        rematch_open: false,
        // Stored as `[red, blue]`.
        changes: row.changes.as_deref().and_then(crate::game::stored_changes),
        presence: RedBlue {
            red: false,
            blue: false,
        },
        away_ms: RedBlue {
            red: None,
            blue: None,
        },
    }))
}

/// The state of any game as `viewer` sees it: from its actor when live, else from the store.
pub async fn game_state(
    state: &AppState,
    id: &GameId,
    viewer: Option<&crate::UserId>,
) -> Result<Option<GameState>, ApiError> {
    if let Some(h) = state.hub.game(id) {
        if let Some(s) = h.snapshot(viewer.cloned()).await {
            return Ok(Some(s));
        }
    }
    stored_state(state, id, viewer).await
}

fn parse_game_id(id: &str) -> Result<GameId, ApiError> {
    id.parse().map_err(|_| ApiError::NotFound("game"))
}

async fn one(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = parse_game_id(&id)?;
    // Anyone may look; a missing or stale session just means a spectator's view.
    let viewer = match crate::accounts::session_user(&state, &headers).await {
        Ok(u) => Some(u.id),
        Err(ApiError::Unauthorized) => None,
        Err(e) => return Err(e),
    };
    let game = game_state(&state, &id, viewer.as_ref())
        .await?
        .ok_or(ApiError::NotFound("game"))?;
    Ok(Json(json!({ "game": game })).into_response())
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = parse_game_id(&id)?;
    let store = state.hub.store();
    let row = store.game(&id).await?.ok_or(ApiError::NotFound("game"))?;
    let plies = store.plies(&id).await?;
    let game = replay(&row, &plies)?;
    let red = player(&state, &row.red_user, row.red_ai, row.red_start)
        .await?
        .name;
    let blue = player(&state, &row.blue_user, row.blue_ai, row.blue_start)
        .await?
        .name;
    let date = chrono_date(row.started_at);
    let event = if row.rated { "Rated" } else { "Casual" };
    let tc = TimeControl::from_ms(row.tc).tag();
    let mut rec = GameRecord::from_game(
        &game,
        &[
            ("Event", event),
            ("Site", "Jungle server"),
            ("Date", &date),
            ("Red", &red),
            ("Blue", &blue),
            // In the order of RULES §10's example: `from_game` fills these two in.
            ("Result", "*"),
            ("Variant", "standard"),
            ("TimeControl", &tc),
        ],
    );
    // The server's result (time, resignation, agreement…) overrides the board's.
    if let Some(reason) = &row.reason {
        let result = match row.winner.as_deref() {
            Some("red") => "1-0",
            Some("blue") => "0-1",
            _ if reason == "aborted" => "*",
            _ => "1/2-1/2",
        };
        // Refused only for a result against an end the board shows, which the server never
        // gives (it ends such a game with the board's result): the record keeps the board's.
        if let Err(e) = rec.set_result(result, reason) {
            tracing::warn!(game = %id, "record result: {e}");
        }
    }
    Ok((
        [(CONTENT_TYPE, "text/plain; charset=utf-8")],
        rec.to_string(),
    )
        .into_response())
}

/// `YYYY.MM.DD` of a time in ms since the epoch (UTC), by the civil-from-days algorithm.
fn chrono_date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    format!("{:04}.{:02}.{:02}", if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(super::chrono_date(0), "1970.01.01");
        // 2026-11-29T20:00:00Z
        assert_eq!(super::chrono_date(1_795_982_400_000), "2026.11.29");
        assert_eq!(super::chrono_date(951_782_400_000), "2000.02.29");
    }
}
