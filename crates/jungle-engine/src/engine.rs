//! The [`Engine`] facade: one search at a time on a background thread, with Lazy SMP helpers.

use crate::eval::EvalTable;
use crate::level;
use crate::search::{
    order_root, to_score, History, RootResult, Searcher, Shared, INF, MATE, MATE_BOUND, MAX_DEPTH,
};
use crate::timeman::{Deadline, TimeBase};
use crate::tt::Tt;
use crate::{
    EngineOptions, Limits, SearchInfo, SearchLine, SearchResult, MAX_HASH_MB, MAX_MULTI_PV,
};
use jungle::{Game, Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The info callback of a search.
type InfoFn = Box<dyn FnMut(&SearchInfo) + Send>;

/// Aspiration window half-width at the root, in centipawns.
const ASPIRATION: i32 = 40;
/// From this depth on the root uses aspiration windows.
const ASPIRATION_DEPTH: u32 = 4;

/// An engine's stop requests.
#[derive(Debug, Default)]
struct StopFlags {
    /// Ends the running search: set by the caller, and by the search itself when its main thread
    /// is done (so that the helper threads end too).
    search: AtomicBool,
    /// Set by the caller alone: a search that must wait for its caller before it answers
    /// (`go infinite`, a pondering search) waits for this.
    asked: AtomicBool,
}

impl StopFlags {
    fn raise(&self) {
        self.asked.store(true, Ordering::Relaxed);
        self.search.store(true, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.asked.store(false, Ordering::Relaxed);
        self.search.store(false, Ordering::Relaxed);
    }
}

/// A cloneable handle that stops the engine's current search from any thread.
#[derive(Debug, Clone)]
pub struct StopHandle(Arc<StopFlags>);

impl StopHandle {
    /// Asks the current search to end soon; [`Engine::wait`] then returns its best move.
    pub fn stop(&self) {
        self.0.raise();
    }
}

/// The Jungle engine. Create one per game or per analysis board; it is `Send`, so it may live in
/// a game's actor or on a worker thread.
///
/// ```
/// use jungle::{Game, Rules};
/// use jungle_engine::{Engine, EngineOptions, Limits};
/// use std::time::Duration;
/// let game = Game::new(Rules::STANDARD);
/// let mut engine = Engine::new(EngineOptions::default());
/// engine.go(&game, Limits { movetime: Some(Duration::from_millis(30)), ..Limits::default() },
///           Box::new(|info| println!("depth {} score {}", info.depth, info.score)));
/// let result = engine.wait();
/// assert!(game.legal_moves().contains(result.best.unwrap()));
/// ```
pub struct Engine {
    options: EngineOptions,
    tt: Arc<Tt>,
    stop: Arc<StopFlags>,
    running: Option<(JoinHandle<SearchResult>, MoveList)>,
    /// The time base of the running search (for [`Engine::ponderhit`]).
    time: Option<Arc<TimeBase>>,
    last: SearchResult,
    searches: u64,
}

static SEED_COUNTER: AtomicU64 = AtomicU64::new(0x2545_F491_4F6C_DD1D);

fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let c = SEED_COUNTER.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
    (t ^ c).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

impl Engine {
    /// An engine with `options` (threads and hash are clamped to at least 1).
    pub fn new(options: EngineOptions) -> Engine {
        let options = sanitize(options);
        Engine {
            tt: Arc::new(Tt::new(options.hash_mb)),
            options,
            stop: Arc::new(StopFlags::default()),
            running: None,
            time: None,
            last: SearchResult::default(),
            searches: 0,
        }
    }

    /// The current options.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Changes the options; a new hash size takes a fresh table. Waits for a running search.
    pub fn set_options(&mut self, options: EngineOptions) {
        let options = sanitize(options);
        if self.running.is_some() {
            self.stop();
            self.wait();
        }
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(Tt::new(options.hash_mb));
        }
        self.options = options;
    }

    /// Forgets everything learnt (the transposition table) before a new game.
    pub fn new_game(&mut self) {
        if self.running.is_some() {
            self.stop();
            self.wait();
        }
        self.tt.clear();
    }

    /// Starts searching `game` in the background and returns at once. `on_info` is called from the
    /// search thread after every completed iteration. A search already running is stopped first.
    pub fn go(&mut self, game: &Game, limits: Limits, on_info: Box<dyn FnMut(&SearchInfo) + Send>) {
        self.go_then(game, limits, on_info, Box::new(|| {}));
    }

    /// [`Engine::go`], and `on_done` is called from the search thread as soon as the result is
    /// ready (after `stop` or `ponderhit` where the search holds its answer), so that a caller
    /// waiting on other events too can collect it with [`Engine::wait`] at once: `wait` then
    /// returns without delay. It is called even when the search panics.
    pub fn go_then(
        &mut self,
        game: &Game,
        limits: Limits,
        mut on_info: Box<dyn FnMut(&SearchInfo) + Send>,
        on_done: Box<dyn FnOnce() + Send>,
    ) {
        if self.running.is_some() {
            self.stop();
            self.wait();
        }
        self.stop.clear();
        let legal = root_moves(game, &limits);
        let pos = *game.position();
        let hashes = History::of(game);
        let tt = Arc::clone(&self.tt);
        let stop = Arc::clone(&self.stop);
        let options = self.options;
        self.searches += 1;
        let seed = fresh_seed();
        let time = Arc::new(TimeBase::new(limits.ponder));
        self.time = Some(Arc::clone(&time));
        let handle = std::thread::Builder::new()
            .name("jungle-search".into())
            .spawn(move || {
                // Dropped last, after the result is made (or while a panic unwinds).
                let _done = OnDrop(Some(on_done));
                let result = search_threads(
                    &pos,
                    &legal,
                    hashes,
                    &limits,
                    options,
                    &tt,
                    &stop.search,
                    &mut on_info,
                    seed,
                    &time,
                );
                // `go infinite` answers only when asked to stop, a pondering search only when
                // asked to stop or told `ponderhit`.
                // `stop` and `ponderhit` unpark this thread; the timeout covers a `StopHandle`,
                // which cannot.
                while (limits.infinite || time.pondering()) && !stop.asked.load(Ordering::Relaxed) {
                    std::thread::park_timeout(Duration::from_millis(2));
                }
                result
            })
            .expect("the search thread starts");
        self.running = Some((handle, legal));
    }

    /// The opponent played the move a pondering search ([`Limits::ponder`]) expected: its time
    /// bounds count from now and it ends by them. False when no search is pondering.
    pub fn ponderhit(&self) -> bool {
        let hit = self.running.is_some() && self.time.as_ref().is_some_and(|t| t.ponderhit());
        if hit {
            self.wake();
        }
        hit
    }

    /// Wakes the search thread where it waits for `stop` or `ponderhit` after its search ended.
    fn wake(&self) {
        if let Some((handle, _)) = &self.running {
            handle.thread().unpark();
        }
    }

    /// Whether a search is still running (its result not yet ready).
    pub fn is_running(&self) -> bool {
        self.running.as_ref().is_some_and(|(h, _)| !h.is_finished())
    }

    /// Whether a search was started and its result not yet collected by [`Engine::wait`].
    pub fn has_pending(&self) -> bool {
        self.running.is_some()
    }

    /// Ends the current search soon (its best move so far is kept).
    pub fn stop(&self) {
        self.stop.raise();
        self.wake();
    }

    /// A handle with which another thread can stop searches of this engine.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Blocks until the current search ends and returns its result (the last result when no
    /// search is running). A search that panicked is answered with the first legal move at
    /// depth 0 in release builds; debug builds pass the panic on to the caller.
    pub fn wait(&mut self) -> SearchResult {
        if let Some((handle, legal)) = self.running.take() {
            self.last = match handle.join() {
                Ok(r) => r,
                Err(panic) => {
                    // Debug builds (every test run) pass the search's panic on, so that no test
                    // of a caller (the protocol, the server's AI seats, the terminal client) can
                    // pass over a failed search by way of the fallback below.
                    if cfg!(debug_assertions) {
                        std::panic::resume_unwind(panic);
                    }
                    // In a release build a failed search must not take the caller down: any
                    // legal move will do.
                    SearchResult {
                        best: legal.first().copied(),
                        pv: legal.first().copied().into_iter().collect(),
                        ..SearchResult::default()
                    }
                }
            };
        }
        self.last.clone()
    }

    /// Searches `game` within `limits` and returns the result (`go` + `wait`).
    pub fn search(&mut self, game: &Game, limits: Limits) -> SearchResult {
        self.go(game, limits, Box::new(|_| {}));
        self.wait()
    }
}

/// Calls its function when dropped.
struct OnDrop(Option<Box<dyn FnOnce() + Send>>);

impl Drop for OnDrop {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some((handle, _)) = self.running.take() {
            self.stop();
            // Not `wait`: a panic passed on from here could abort an unwinding caller; the
            // search thread has already reported its own.
            let _ = handle.join();
        }
    }
}

/// The moves a search of `game` considers: its legal moves, or those of them that
/// [`Limits::search_moves`] names (all of them when it names none that is legal).
fn root_moves(game: &Game, limits: &Limits) -> MoveList {
    let legal = game.legal_moves();
    match &limits.search_moves {
        Some(wanted) => {
            let mut chosen = legal;
            chosen.retain(|m| wanted.contains(m));
            if chosen.is_empty() {
                legal
            } else {
                chosen
            }
        }
        None => legal,
    }
}

fn sanitize(mut o: EngineOptions) -> EngineOptions {
    o.threads = o.threads.clamp(1, 256);
    o.hash_mb = o.hash_mb.clamp(1, MAX_HASH_MB);
    o.level = o.level.clamp(1, 10);
    o.contempt = o.contempt.clamp(-crate::MAX_CONTEMPT, crate::MAX_CONTEMPT);
    o.move_overhead = o.move_overhead.min(crate::MAX_MOVE_OVERHEAD);
    o.multi_pv = o.multi_pv.clamp(1, MAX_MULTI_PV);
    o
}

#[allow(clippy::too_many_arguments)]
fn search_threads(
    pos: &Position,
    legal: &MoveList,
    hashes: History,
    limits: &Limits,
    options: EngineOptions,
    tt: &Tt,
    stop: &AtomicBool,
    on_info: &mut InfoFn,
    seed: u64,
    time: &TimeBase,
) -> SearchResult {
    if legal.is_empty() {
        return SearchResult::default();
    }
    let lvl = level::settings(options.level);
    let mut max_depth = MAX_DEPTH;
    // Depth and nodes bound every search, `go infinite` too (which then holds its answer until
    // `stop`); `infinite` lifts only the time bounds.
    if let Some(d) = limits.depth {
        max_depth = max_depth.min(d.max(1));
    }
    let mut node_limit = limits.nodes;
    if let Some(d) = lvl.max_depth {
        max_depth = max_depth.min(d);
    }
    if let Some(n) = lvl.max_nodes {
        node_limit = Some(node_limit.map_or(n, |l| l.min(n)));
    }
    tt.new_search();
    let shared = Shared {
        tt,
        stop,
        nodes: AtomicU64::new(0),
        time,
        deadline: Deadline::from_limits(limits, options.move_overhead),
        node_limit,
        max_depth,
        noise: lvl.noise,
        contempt: options.contempt,
        seed,
        eval: EvalTable::new(&options.weights, pos.rules()),
    };
    let (best, nodes) = std::thread::scope(|scope| {
        for id in 1..options.threads {
            let shared = &shared;
            let hashes = hashes.clone();
            scope.spawn(move || {
                let mut s = Searcher::new(shared, id, hashes);
                iterate(&mut s, pos, legal, limits, 1, None);
                s.finish();
            });
        }
        let mut main = Searcher::new(&shared, 0, hashes);
        let found = iterate(
            &mut main,
            pos,
            legal,
            limits,
            options.multi_pv,
            Some(on_info),
        );
        main.finish();
        // The helpers end with the main thread.
        stop.store(true, Ordering::Relaxed);
        (found, main.nodes())
    });
    let (best, lines) = best;
    let total = shared.nodes.load(Ordering::Relaxed).max(nodes);
    let best = best.unwrap_or_else(|| {
        // Not even depth 1 finished: take the best move of the shallow ordering.
        let m = order_root(pos, legal, tt, &shared.eval)[0].0;
        RootResult {
            best: m,
            score: 0,
            depth: 0,
            pv: vec![m],
        }
    });
    // Several lines (an analysis) all come from the last iteration that searched them all, so
    // that they are scored at one depth, best first, and the first is the result. One line is
    // the move to play, from the deepest iteration that found it, even one left unfinished (a
    // new best move found as the time ran out).
    let wanted = lines.len().max(1);
    let best = match lines.first() {
        Some(first) if wanted > 1 => first.clone(),
        _ => best,
    };
    let lines: Vec<SearchLine> = std::iter::once(&best)
        .chain(lines.iter().filter(|l| l.best != best.best))
        .take(wanted)
        .map(|r| SearchLine {
            score: to_score(r.score),
            depth: r.depth,
            pv: r.pv.clone(),
        })
        .collect();
    SearchResult {
        best: Some(best.best),
        score: to_score(best.score),
        depth: best.depth,
        nodes: total,
        pv: best.pv,
        lines,
    }
}

/// Iterative deepening with aspiration windows; returns the best completed (or improved
/// partial) iteration, and the best `lines` of the last iteration that searched them all (see
/// [`EngineOptions::multi_pv`]; the first is the principal variation).
fn iterate(
    s: &mut Searcher,
    pos: &Position,
    legal: &MoveList,
    limits: &Limits,
    lines: usize,
    mut report: Option<&mut InfoFn>,
) -> (Option<RootResult>, Vec<RootResult>) {
    let shared_max = s.max_depth();
    let mut moves = order_root(pos, legal, s.tt(), s.eval_table());
    let lines = lines.clamp(1, moves.len());
    let mut best: Option<RootResult> = None;
    let mut done: Vec<RootResult> = Vec::new();
    let first = 1 + (s.id as u32 % 2);
    let mut depth = first.min(shared_max);
    while depth <= shared_max {
        // Line k is the best of the moves the lines before it left: moves[k..].
        let mut found: Vec<RootResult> = Vec::with_capacity(lines);
        for k in 0..lines {
            let prev = done.get(k).map(|r| r.score);
            // A later line's partial results are no candidates for the move to play.
            let mut scratch = None;
            let partial = if k == 0 { &mut best } else { &mut scratch };
            match aspirate(s, pos, &mut moves[k..], depth, prev, k == 0, partial) {
                Some(r) => found.push(r),
                None => break,
            }
        }
        if found.len() < lines {
            if let Some(r) = found.into_iter().next() {
                best = Some(r);
            }
            break;
        }
        // Searches of the later lines may score above earlier ones (the table changed between
        // them): the lines and their moves go best first, so the best move leads.
        found.sort_by_key(|r| std::cmp::Reverse(r.score));
        for (k, r) in found.iter().enumerate() {
            let at = moves[k..].iter().position(|m| m.0 == r.best).map(|i| i + k);
            if let Some(i) = at {
                moves[k..=i].rotate_right(1);
            }
        }
        if let Some(cb) = report.as_mut() {
            for (k, r) in found.iter().enumerate() {
                cb(&s.info(r, (lines > 1).then_some(k + 1)));
            }
        }
        let score = found[0].score;
        best = Some(found[0].clone());
        done = found;
        if !limits.infinite && !s.pondering() {
            // A forced end found with enough depth to trust it, or a single legal move under a
            // clock: nothing more to learn.
            if score.abs() >= MATE_BOUND && depth as i32 >= MATE - score.abs() + 2 {
                break;
            }
            if legal.len() == 1 && (limits.movetime.is_some() || limits.clock.is_some()) {
                break;
            }
            if s.soft_deadline_passed() {
                break;
            }
        }
        depth += 1;
    }
    (best, done)
}

/// One iteration's search of the root `moves` (reordered best first) to `depth`, in aspiration
/// windows around `prev` (the last iteration's score) widened until the score falls inside:
/// the result, or `None` when the search stopped first. `first`: the moves are all the root
/// moves (see [`Searcher::root`]). A result that beat the window from above before the iteration
/// ended (a fail high, or a new best move when the search stopped) replaces `best` with `best`'s
/// depth, and a stopped search's move fills an empty `best`.
fn aspirate(
    s: &mut Searcher,
    pos: &Position,
    moves: &mut [(Move, i64)],
    depth: u32,
    prev: Option<i32>,
    first: bool,
    best: &mut Option<RootResult>,
) -> Option<RootResult> {
    let mut delta = ASPIRATION;
    let (mut alpha, mut beta) = match prev {
        Some(p) if depth >= ASPIRATION_DEPTH && p.abs() < MATE_BOUND => (p - delta, p + delta),
        _ => (-INF, INF),
    };
    let kept_depth = |best: &Option<RootResult>| best.as_ref().map_or(0, |b| b.depth);
    loop {
        let r = s.root(pos, moves, depth as i32, alpha, beta, first);
        if s.stopped() {
            if let Some(r) = r {
                if r.score > alpha && best.as_ref().is_none_or(|b| b.best != r.best) {
                    *best = Some(RootResult {
                        depth: kept_depth(best),
                        ..r
                    });
                } else if best.is_none() {
                    *best = Some(RootResult { depth: 0, ..r });
                }
            }
            return None;
        }
        let r = r?;
        if r.score <= alpha && alpha > -INF {
            alpha = (alpha - delta).max(-INF);
            delta *= 2;
            continue;
        }
        if r.score >= beta && beta < INF {
            beta = (beta + delta).min(INF);
            delta *= 2;
            *best = Some(RootResult {
                depth: kept_depth(best),
                ..r
            });
            continue;
        }
        return Some(r);
    }
}

/// The move for an AI seat at `level` (1..=10) within `budget`; `None` only when the game has no
/// legal move. Always a move of `game.legal_moves()`.
pub fn choose_move(game: &Game, level: u8, budget: Duration) -> Option<Move> {
    Engine::new(ai_options(level))
        .search(game, Limits::movetime(budget))
        .best
}

/// The engine options of [`choose_move`]: one thread, a small table, `level`.
pub fn ai_options(level: u8) -> EngineOptions {
    EngineOptions {
        threads: 1,
        hash_mb: 8,
        level,
        ..EngineOptions::default()
    }
}

/// A full-strength search of `game` bounded by `budget`, for analysis boards: the best move and
/// its line, and in [`SearchResult::lines`] the best `lines` moves each with its line (see
/// [`EngineOptions::multi_pv`]).
pub fn analyze(game: &Game, budget: Duration, lines: usize) -> SearchResult {
    Engine::new(analysis_options(lines)).search(game, Limits::movetime(budget))
}

/// The engine options of [`analyze`]: one thread, full strength, `lines` best moves.
pub fn analysis_options(lines: usize) -> EngineOptions {
    EngineOptions {
        threads: 1,
        hash_mb: 16,
        level: 10,
        multi_pv: lines,
        ..EngineOptions::default()
    }
}
