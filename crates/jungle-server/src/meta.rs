//! Server facts: health, load (`/api/stats`), the level table, time-control presets, and position analysis.

use crate::error::ApiError;
use crate::limits::{ClientIp, Request};
use crate::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use jungle::{Game, Jfen, Move, MoveText, Rules};
use jungle_engine::Score;
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/stats", get(stats))
        .route("/api/levels", get(levels))
        .route("/api/presets", get(presets))
        .route("/api/analyze", post(analyze))
}

/// 200 `{"status":"ok"}`, or 503 `unavailable` when the database does not answer within
/// [`crate::store::ACQUIRE_TIMEOUT`] (an outage, not a bug of the server's).
async fn health(State(state): State<AppState>) -> Response {
    match state.hub.store().ping().await {
        Ok(()) => Json(json!({"status": "ok"})).into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "health check: the database does not answer");
            (
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"error": {"code": "unavailable", "message": "the database does not answer"}})),
            )
                .into_response()
        }
    }
}

async fn stats(State(state): State<AppState>) -> Response {
    let (games, online) = state.hub.counts();
    Json(json!({
        "games": games,
        "online": online,
        "memory_bytes": resident_bytes(),
    }))
    .into_response()
}

/// This process's resident memory (Linux; None elsewhere).
pub fn resident_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

async fn levels(State(state): State<AppState>) -> Response {
    Json(json!({"levels": state.hub.store().levels().rows()})).into_response()
}

async fn presets() -> Response {
    let list: Vec<_> = crate::wire::presets()
        .into_iter()
        .map(|(id, tc)| json!({"id": id, "tc": tc}))
        .collect();
    Json(json!({ "presets": list })).into_response()
}

/// `POST /api/analyze` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// Start position (JFEN); the standard start when absent.
    pub fen: Option<String>,
    /// Moves from there (coordinate or SAN-like), at most 1000.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Rule set.
    pub rules: Option<String>,
    /// Thinking time in ms (10–5000, default 500).
    pub ms: Option<u64>,
    /// How many of the best moves to score, each with its line (1–[`MAX_ANALYSIS_LINES`],
    /// default 1); the thinking time is shared between them.
    pub lines: Option<usize>,
}

/// The most lines `POST /api/analyze` scores.
pub const MAX_ANALYSIS_LINES: usize = 5;

/// A score as the API writes it: `{"den": n}` or `{"cp": n}`.
fn score_json(score: Score) -> serde_json::Value {
    match score {
        Score::Den(d) => json!({"den": d}),
        Score::Cp(cp) => json!({"cp": cp}),
    }
}

async fn analyze(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    state
        .limits
        .allow(Request::Analysis, ip)
        .map_err(ApiError::RateLimited)?;
    let req: AnalyzeRequest = serde_json::from_slice(&body)
        .map_err(|e| ApiError::BadRequest(format!("bad JSON: {e}")))?;
    let rules: Rules = match &req.rules {
        None => Rules::STANDARD,
        Some(r) => r
            .parse()
            .map_err(|e| ApiError::BadRequest(format!("{e}")))?,
    };
    let start = match &req.fen {
        None => jungle::Position::start(rules),
        Some(f) => Jfen::parse_position(f, rules).map_err(|e| match e {
            jungle::JfenError::Position(p) => ApiError::BadPosition(p),
            jungle::JfenError::Syntax(e) => ApiError::BadJfen(e),
        })?,
    };
    let lines = req.lines.unwrap_or(1);
    if !(1..=MAX_ANALYSIS_LINES).contains(&lines) {
        return Err(ApiError::BadRequest(format!(
            "lines must be 1 to {MAX_ANALYSIS_LINES}, not {lines}"
        )));
    }
    if req.moves.len() > 1000 {
        return Err(ApiError::BadRequest("at most 1000 moves".into()));
    }
    let mut game = Game::from_position(start);
    for (i, t) in req.moves.iter().enumerate() {
        let text: MoveText = t.parse().map_err(|e: jungle::ParseMoveError| {
            ApiError::BadRequest(format!("move {}: {e}", i + 1))
        })?;
        let m = if text == MoveText::Pass {
            Move::PASS
        } else {
            text.to_move(game.position())
                .map_err(|e| ApiError::IllegalMove {
                    ply: i + 1,
                    text: format!("`{t}`"),
                    why: e.why,
                })?
        };
        game.play(m).map_err(|e| ApiError::IllegalMove {
            ply: i + 1,
            text: e.mv.to_string(),
            why: e.why,
        })?;
    }
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    if let Some(o) = game.outcome() {
        // A finished position has nothing to search: say how it ended instead.
        return Ok(Json(json!({
            "result": {
                "winner": o.winner.map(crate::wire::color_name),
                "reason": o.termination.as_str(),
            },
            "score": null,
            "depth": 0,
            "pv": [],
            "best": null,
            "lines": [],
            "legal": legal,
        }))
        .into_response());
    }
    let ms = req.ms.unwrap_or(500).clamp(10, 5000);
    let a = state
        .hub
        .analysis()
        .analyze(
            game,
            Duration::from_millis(ms),
            lines,
            Some(&ip.to_string()),
        )
        .await
        .ok_or_else(|| ApiError::Internal("analysis failed".into()))?;
    let moves = |pv: &[Move]| pv.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    Ok(Json(json!({
        "score": score_json(a.score),
        "depth": a.depth,
        "pv": moves(&a.pv),
        "best": a.best.map(|m| m.to_string()),
        "lines": a.lines.iter().map(|l| json!({
            "score": score_json(l.score),
            "pv": moves(&l.pv),
        })).collect::<Vec<_>>(),
        "result": null,
        "legal": legal,
    }))
    .into_response())
}
