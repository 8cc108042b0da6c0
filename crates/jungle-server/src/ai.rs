//! AI seats: searches run on blocking workers behind a semaphore, so that however many AI games
//! are running, at most `max_searches` searches use CPU at once and the async runtime (and with
//! it every human game) never waits on a search.

use jungle::{Game, Move};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The pool of AI searches.
#[derive(Clone)]
pub struct AiPool {
    permits: Arc<Semaphore>,
}

impl AiPool {
    /// A pool running at most `max_searches` searches at once.
    pub fn new(max_searches: usize) -> AiPool {
        AiPool {
            permits: Arc::new(Semaphore::new(max_searches.max(1))),
        }
    }

    /// The AI's move at `level` (1–10) within `budget`, or None when there is no legal move.
    pub async fn choose(&self, game: Game, level: u8, budget: Duration) -> Option<Move> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || engine_move(&game, level, budget))
            .await
            .ok()
            .flatten()
    }

    /// A search of `game` for the analysis endpoint: best move, score, depth and main line.
    pub async fn analyze(&self, game: Game, budget: Duration) -> Option<Analysis> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || engine_analyze(&game, budget))
            .await
            .ok()
            .flatten()
    }
}

/// The result of an analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The best move.
    pub best: Option<Move>,
    /// Centipawns for the side to move, or…
    pub cp: Option<i32>,
    /// …a den entry in this many plies (negative: the opponent's).
    pub den: Option<i32>,
    /// Depth searched.
    pub depth: u32,
    /// The main line.
    pub pv: Vec<Move>,
}

// Until the engine crate publishes `choose_move`/`analyze`, a one-ply fallback: enter the den,
// else take the biggest animal, else a random legal move.
fn fallback_value(game: &Game, m: Move) -> i32 {
    let pos = game.position();
    let mut next = game.clone();
    next.play_unchecked(m);
    if let Some(o) = next.outcome() {
        if o.winner == Some(pos.turn()) {
            return 10_000;
        }
    }
    pos.piece_at(m.to_sq())
        .map_or(0, |p| 100 * i32::from(pos.rules().rank(p.role)))
}

fn engine_move(game: &Game, _level: u8, _budget: Duration) -> Option<Move> {
    use rand::seq::SliceRandom;
    let legal = game.legal_moves();
    let best = legal.iter().map(|m| fallback_value(game, *m)).max()?;
    let top: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| fallback_value(game, *m) == best)
        .collect();
    top.choose(&mut rand::thread_rng()).copied()
}

fn engine_analyze(game: &Game, budget: Duration) -> Option<Analysis> {
    let best = engine_move(game, 10, budget);
    Some(Analysis {
        best,
        cp: Some(best.map_or(0, |m| fallback_value(game, m))),
        den: None,
        depth: 1,
        pv: best.into_iter().collect(),
    })
}
