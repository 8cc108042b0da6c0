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

fn engine_move(game: &Game, level: u8, budget: Duration) -> Option<Move> {
    jungle_engine::choose_move(game, level.clamp(1, 10), budget)
}

fn engine_analyze(game: &Game, budget: Duration) -> Option<Analysis> {
    let r = jungle_engine::analyze(game, budget);
    let (cp, den) = match r.score {
        jungle_engine::Score::Cp(c) => (Some(c), None),
        jungle_engine::Score::Den(d) => (None, Some(d)),
    };
    Some(Analysis {
        best: r.best,
        cp,
        den,
        depth: r.depth,
        pv: r.pv,
    })
}
