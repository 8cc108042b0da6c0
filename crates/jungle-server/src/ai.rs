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

    /// A search of `game` for the analysis endpoint: best move, score, depth and main line, and
    /// the best `lines` moves (1 or more) each with its score and line.
    pub async fn analyze(&self, game: Game, budget: Duration, lines: usize) -> Option<Analysis> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || engine_analyze(&game, budget, lines))
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
    /// The best moves, best first, each with its line (the first is the main line; empty when
    /// the search finished no iteration).
    pub lines: Vec<AnalysisLine>,
}

/// One of the best moves of an [`Analysis`], with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisLine {
    /// Centipawns for the side to move, or…
    pub cp: Option<i32>,
    /// …a den entry in this many plies (negative: the opponent's).
    pub den: Option<i32>,
    /// The line, its move first.
    pub pv: Vec<Move>,
}

/// A score as the two fields of [`Analysis`]: centipawns, or a den entry.
fn score_fields(s: jungle_engine::Score) -> (Option<i32>, Option<i32>) {
    match s {
        jungle_engine::Score::Cp(c) => (Some(c), None),
        jungle_engine::Score::Den(d) => (None, Some(d)),
    }
}

/// How far behind (centipawns, from the AI's side; a cat is worth 300) the AI must stand to accept a
/// draw offer.
pub const DRAW_ACCEPT_BEHIND_CP: i32 = 200;

/// From this many plies on, the AI also accepts a draw in a level position.
pub const DRAW_ACCEPT_LEVEL_AFTER_PLIES: usize = 100;

/// How close to zero (centipawns) counts as level for [`DRAW_ACCEPT_LEVEL_AFTER_PLIES`].
pub const DRAW_ACCEPT_LEVEL_CP: i32 = 50;

/// Whether the AI accepts a draw offer, given a search of the position (`a`, scored for the side
/// to move), whether the AI is the side to move, and the plies played so far. The AI accepts when
/// it is losing a den race, when it stands at least [`DRAW_ACCEPT_BEHIND_CP`] behind, or when the
/// position is level (within [`DRAW_ACCEPT_LEVEL_CP`]) after [`DRAW_ACCEPT_LEVEL_AFTER_PLIES`]
/// plies; otherwise it declines. Without a search (`None`) it declines.
pub fn accepts_draw(a: Option<&Analysis>, ai_to_move: bool, plies: usize) -> bool {
    let Some(a) = a else { return false };
    let sign = if ai_to_move { 1 } else { -1 };
    if let Some(d) = a.den {
        return d * sign < 0;
    }
    let cp = a.cp.unwrap_or(0) * sign;
    cp <= -DRAW_ACCEPT_BEHIND_CP
        || (plies >= DRAW_ACCEPT_LEVEL_AFTER_PLIES && cp.abs() <= DRAW_ACCEPT_LEVEL_CP)
}

fn engine_move(game: &Game, level: u8, budget: Duration) -> Option<Move> {
    jungle_engine::choose_move(game, level.clamp(1, 10), budget)
}

fn engine_analyze(game: &Game, budget: Duration, lines: usize) -> Option<Analysis> {
    let r = jungle_engine::analyze(game, budget, lines);
    let (cp, den) = score_fields(r.score);
    Some(Analysis {
        best: r.best,
        cp,
        den,
        depth: r.depth,
        pv: r.pv,
        lines: r
            .lines
            .into_iter()
            .map(|l| {
                let (cp, den) = score_fields(l.score);
                AnalysisLine { cp, den, pv: l.pv }
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(c: i32) -> Analysis {
        Analysis {
            best: None,
            cp: Some(c),
            den: None,
            depth: 1,
            pv: Vec::new(),
            lines: Vec::new(),
        }
    }

    fn den(d: i32) -> Analysis {
        Analysis {
            cp: None,
            den: Some(d),
            ..cp(0)
        }
    }

    #[test]
    fn the_ai_accepts_a_draw_only_when_worse_or_level_late() {
        assert!(!accepts_draw(None, true, 200), "no search: decline");
        // Scores are for the side to move.
        assert!(accepts_draw(Some(&cp(-200)), true, 10));
        assert!(!accepts_draw(Some(&cp(-199)), true, 10));
        assert!(
            accepts_draw(Some(&cp(250)), false, 10),
            "the player is better"
        );
        assert!(
            !accepts_draw(Some(&cp(-250)), false, 10),
            "the AI is better"
        );
        // Level: only late.
        assert!(!accepts_draw(Some(&cp(0)), true, 99));
        assert!(accepts_draw(Some(&cp(40)), true, 100));
        assert!(accepts_draw(Some(&cp(-50)), false, 150));
        assert!(!accepts_draw(Some(&cp(60)), true, 150));
        // Den races.
        assert!(accepts_draw(Some(&den(-3)), true, 0));
        assert!(!accepts_draw(Some(&den(3)), true, 0));
        assert!(
            accepts_draw(Some(&den(2)), false, 0),
            "the player enters the den"
        );
        assert!(
            !accepts_draw(Some(&den(-2)), false, 200),
            "the AI enters the den"
        );
    }
}
