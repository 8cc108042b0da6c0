//! AI seats: searches run on blocking workers behind a semaphore, so that however many AI games
//! are running, at most `max_searches` searches use CPU at once and the async runtime (and with
//! it every human game) never waits on a search.

use jungle::{Game, Move};
use jungle_engine::{Engine, EngineOptions, Limits, Score, SearchResult, StopHandle};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
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
        let turn = self.turn(asker).await?;
        let options = jungle_engine::ai_options(level.clamp(1, 10));
        search(turn, options, game, budget).await?.best
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
        let turn = self.turn(asker).await?;
        search(turn, jungle_engine::analysis_options(lines), game, budget).await
    }
}

/// A place in the pool: the asker's own turn (if it has a line) and the pool's permit.
type Turn = (Option<OwnedSemaphorePermit>, OwnedSemaphorePermit);

/// How a caller reaches its search on the worker: whether it gave up, and the engine's stop
/// handle once the worker has made the engine.
#[derive(Default)]
struct Reach {
    given_up: AtomicBool,
    stop: OnceLock<StopHandle>,
}

/// Stops a search when dropped, unless [`Cancel::done`] was called: a caller that gives up (its
/// future dropped: an analysis request cancelled, a game over) ends its search at once.
struct Cancel {
    reach: Arc<Reach>,
    done: bool,
}

impl Drop for Cancel {
    fn drop(&mut self) {
        if !self.done {
            self.reach.given_up.store(true, Ordering::SeqCst);
            if let Some(stop) = self.reach.stop.get() {
                stop.stop();
            }
        }
    }
}

/// Searches `game` for `budget` on a blocking worker, which holds `turn` until the search has
/// really ended (so the pool's bound holds even for searches whose callers gave up); a caller
/// that gives up stops the search. None only when the worker failed.
async fn search(
    turn: Turn,
    options: EngineOptions,
    game: Game,
    budget: Duration,
) -> Option<SearchResult> {
    let reach = Arc::new(Reach::default());
    let mut cancel = Cancel {
        reach: Arc::clone(&reach),
        done: false,
    };
    let result = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        let mut engine = Engine::new(options);
        let _ = reach.stop.set(engine.stop_handle());
        engine.go(&game, Limits::movetime(budget), Box::new(|_| {}));
        // Starting clears the stop flag: a caller that gave up before is heard here.
        if reach.given_up.load(Ordering::SeqCst) {
            engine.stop();
        }
        engine.wait()
    })
    .await
    .ok();
    cancel.done = true;
    result
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_given_up_is_stopped_and_holds_its_place_until_it_has() {
        let pool = AiPool::new(1);
        // An analysis of a minute, given up after 50 ms (as a cancelled request is).
        let long = pool.analyze(
            Game::new(jungle::Rules::STANDARD),
            Duration::from_secs(60),
            1,
            None,
        );
        assert!(tokio::time::timeout(Duration::from_millis(50), long)
            .await
            .is_err());
        // The next search waits for the pool's one place: it is free once the first search
        // has ended, which it does at once, not after its minute.
        let next = pool.analyze(
            Game::new(jungle::Rules::STANDARD),
            Duration::from_millis(10),
            1,
            None,
        );
        let r = tokio::time::timeout(Duration::from_secs(20), next).await;
        assert!(r.expect("the given-up search was stopped").is_some());
    }

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
        // Alice's first search runs long, so that everyone else has long since queued when it
        // ends, however slow the host.
        let a1 = ask("alice", 1, 1_000);
        while pool.permits.available_permits() > 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let a2 = ask("alice", 2, 20);
        let a3 = ask("alice", 3, 20);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let b1 = ask("bob", 1, 20);
        for t in [a1, a2, a3, b1] {
            t.await.unwrap();
        }
        let mut order: Vec<String> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        // (Alice's second and third may queue in either order: they were asked for together.)
        order[2..].sort();
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
