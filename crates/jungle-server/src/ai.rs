//! AI seats: searches run on blocking workers behind a semaphore, so that however many AI games
//! are running, at most `max_searches` searches use CPU at once and the async runtime (and with
//! it every human game) never waits on a search.

use jungle::{Game, Move};
use jungle_engine::{Score, SearchResult};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The pool of AI searches.
#[derive(Clone)]
pub struct AiPool {
    permits: Arc<Semaphore>,
    /// The pool's size: also how many searches one asker may have in it at once.
    size: usize,
    /// A waiting line per asker (a player, or an address): an asker's searches beyond the pool's
    /// size wait for each other before they queue for the pool, so that one player with thirty
    /// AI games (or one address with a pile of analyses) holds as many places in the pool's
    /// queue as the pool has workers, not thirty, and everyone else's searches go on.
    lines: Arc<Mutex<HashMap<String, Arc<Semaphore>>>>,
}

/// Lines kept before the idle ones are dropped.
const MAX_IDLE_LINES: usize = 4096;

impl AiPool {
    /// A pool running at most `max_searches` searches at once.
    pub fn new(max_searches: usize) -> AiPool {
        AiPool {
            permits: Arc::new(Semaphore::new(max_searches.max(1))),
            size: max_searches.max(1),
            lines: Arc::default(),
        }
    }

    /// A place in the pool for a search of `asker` (None: no line of its own): first the
    /// asker's turn in its own line, then a permit of the pool (tokio's semaphores serve in
    /// order).
    async fn turn(
        &self,
        asker: Option<&str>,
    ) -> Option<(Option<OwnedSemaphorePermit>, OwnedSemaphorePermit)> {
        let own = match asker {
            Some(a) => {
                let line = {
                    let mut lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
                    if lines.len() >= MAX_IDLE_LINES {
                        lines.retain(|_, l| Arc::strong_count(l) > 1);
                    }
                    lines
                        .entry(a.to_string())
                        .or_insert_with(|| Arc::new(Semaphore::new(self.size)))
                        .clone()
                };
                Some(line.acquire_owned().await.ok()?)
            }
            None => None,
        };
        let pool = self.permits.clone().acquire_owned().await.ok()?;
        Some((own, pool))
    }

    /// The AI's move at `level` (1–10) within `budget`, or None when there is no legal move;
    /// `asker`'s searches take their turns one by one (see [`AiPool`]).
    pub async fn choose(
        &self,
        game: Game,
        level: u8,
        budget: Duration,
        asker: Option<&str>,
    ) -> Option<Move> {
        let _turn = self.turn(asker).await?;
        tokio::task::spawn_blocking(move || engine_move(&game, level, budget))
            .await
            .ok()
            .flatten()
    }

    /// A full-strength search of `game` for the analysis endpoint and the AI's draw decisions:
    /// best move, score, depth and main line, and the best `lines` moves (1 or more) each with
    /// its score and line. `None` only when the search could not be run. `asker`'s searches take
    /// their turns one by one (see [`AiPool`]).
    pub async fn analyze(
        &self,
        game: Game,
        budget: Duration,
        lines: usize,
        asker: Option<&str>,
    ) -> Option<SearchResult> {
        let _turn = self.turn(asker).await?;
        tokio::task::spawn_blocking(move || jungle_engine::analyze(&game, budget, lines))
            .await
            .ok()
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
pub fn accepts_draw(a: Option<&SearchResult>, ai_to_move: bool, plies: usize) -> bool {
    let Some(a) = a else { return false };
    let sign = if ai_to_move { 1 } else { -1 };
    match a.score {
        Score::Den(d) => d * sign < 0,
        Score::Cp(cp) => {
            let cp = cp * sign;
            cp <= -DRAW_ACCEPT_BEHIND_CP
                || (plies >= DRAW_ACCEPT_LEVEL_AFTER_PLIES && cp.abs() <= DRAW_ACCEPT_LEVEL_CP)
        }
    }
}

fn engine_move(game: &Game, level: u8, budget: Duration) -> Option<Move> {
    jungle_engine::choose_move(game, level.clamp(1, 10), budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_askers_many_searches_take_one_place_in_the_queue() {
        // One search at a time. Alice asks for three (the first a long one), then Bob for one:
        // Bob's comes second, not after all of Alice's.
        let pool = AiPool::new(1);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let ask = |who: &'static str, n: u32, ms: u64| {
            let (pool, tx) = (pool.clone(), tx.clone());
            tokio::spawn(async move {
                let game = Game::new(jungle::Rules::STANDARD);
                pool.choose(game, 10, Duration::from_millis(ms), Some(who))
                    .await
                    .expect("a move");
                let _ = tx.send(format!("{who}{n}"));
            })
        };
        let a1 = ask("alice", 1, 300);
        tokio::time::sleep(Duration::from_millis(20)).await;
        let a2 = ask("alice", 2, 20);
        let a3 = ask("alice", 3, 20);
        tokio::time::sleep(Duration::from_millis(20)).await;
        let b1 = ask("bob", 1, 20);
        for t in [a1, a2, a3, b1] {
            t.await.unwrap();
        }
        let order: Vec<String> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        assert_eq!(order, ["alice1", "bob1", "alice2", "alice3"]);
    }

    fn cp(c: i32) -> SearchResult {
        SearchResult {
            score: Score::Cp(c),
            depth: 1,
            ..SearchResult::default()
        }
    }

    fn den(d: i32) -> SearchResult {
        SearchResult {
            score: Score::Den(d),
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
