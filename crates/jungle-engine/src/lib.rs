//! The Jungle AI: search, evaluation, levels, the text protocol, bench and matches.
//!
//! The one entry point is the [`Engine`] facade: a non-blocking [`Engine::go`] with an info
//! callback, [`Engine::stop`], [`Engine::wait`], and the blocking [`Engine::search`]. The game
//! server and the terminal client use the two shortcuts [`choose_move`] (an AI seat at a level)
//! and [`analyze`] (an analysis board).
//!
//! ```
//! use jungle::{Game, Rules};
//! use jungle_engine::{choose_move, Engine, EngineOptions, Limits};
//! let game = Game::new(Rules::STANDARD);
//! let m = choose_move(&game, 3, std::time::Duration::from_millis(50)).unwrap();
//! assert!(game.legal_moves().contains(m));
//! let mut engine = Engine::new(EngineOptions::default());
//! let r = engine.search(&game, Limits { depth: Some(3), ..Limits::default() });
//! assert!(game.legal_moves().contains(r.best.unwrap()));
//! ```
// Denied, not forbidden: the transposition table (`tt.rs`) allows it for its prefetch hint and
// for its own 2 MiB-aligned, huge-page-advised memory.
#![deny(unsafe_code)]

pub mod bench;
mod engine;
pub mod eval;
pub mod level;
mod lineio;
pub mod matches;
pub mod protocol;
mod search;
pub mod timeman;
mod tt;

pub use engine::{ai_options, analysis_options, analyze, choose_move, Engine, StopHandle};

use jungle::MoveList;
use std::fmt;
use std::time::Duration;

/// A search score from the point of view of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawn-like units (a Cat is worth about 250).
    Cp(i32),
    /// A forced end: `Den(n)` with `n > 0` means the side to move wins (enters the den, wipes
    /// out the enemy or leaves it without moves) within `n` of its own moves; `n < 0` means it
    /// loses within `-n` moves of the opponent.
    Den(i32),
}

impl Default for Score {
    fn default() -> Self {
        Score::Cp(0)
    }
}

impl fmt::Display for Score {
    /// The protocol form: `cp 35` or `den 3` / `den -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Den(n) => write!(f, "den {n}"),
        }
    }
}

/// A game clock of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left on the clock.
    pub time_left: Duration,
    /// Fischer increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. `Limits::default()` sets no bound (the level still caps the depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    /// Search at most this many plies deep.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this time.
    pub movetime: Option<Duration>,
    /// Manage the time of this clock (for the side to move).
    pub clock: Option<Clock>,
    /// Answer only after [`Engine::stop`]: no time bound (`movetime`, `clock`) applies and the
    /// search never ends early by itself; `depth` and `nodes` still bound it (the result then
    /// waits for `stop`).
    pub infinite: bool,
    /// Ponder: search the position (the one after the move the opponent is expected to play)
    /// with no time bound until [`Engine::ponderhit`] says the opponent played it, from when the
    /// time bounds count; the result waits for `ponderhit` or [`Engine::stop`].
    pub ponder: bool,
    /// Consider only these moves at the root (the protocol's `go searchmoves`). Those that are
    /// not legal in the game are left out; when none is legal, every legal move is searched.
    pub search_moves: Option<MoveList>,
}

impl Limits {
    /// A search bounded by `budget` of time alone.
    pub fn movetime(budget: Duration) -> Limits {
        Limits {
            movetime: Some(budget),
            ..Limits::default()
        }
    }
}

/// Progress of a search, sent after every completed iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo {
    /// The completed depth.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// How full the transposition table is for this search, in permille (UCI's `hashfull`).
    pub hashfull: u32,
    /// Time since the search began.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<jungle::Move>,
    /// Which line this is, 1 for the best, when the search reports several
    /// ([`EngineOptions::multi_pv`] above 1); `None` when it reports only the best.
    pub multipv: Option<usize>,
}

/// One of the best lines of a search ([`EngineOptions::multi_pv`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchLine {
    /// The score of the line for the side to move.
    pub score: Score,
    /// The depth it was searched to.
    pub depth: u32,
    /// Its moves, the root move first.
    pub pv: Vec<jungle::Move>,
}

/// The end result of a search.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchResult {
    /// The move to play: a legal move of the game whenever it has one.
    pub best: Option<jungle::Move>,
    /// The score for the side to move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// The principal variation (starts with `best`).
    pub pv: Vec<jungle::Move>,
    /// The best lines, best first: as many as [`EngineOptions::multi_pv`] asks for (fewer when
    /// the position has fewer moves). The first is always the principal variation (with
    /// `score` and `depth`). Several lines all come from the last iteration that searched them
    /// all (one depth, in score order), and so does the result; a single line may come from a
    /// deeper iteration the time cut short. Empty only when there is no move.
    pub lines: Vec<SearchLine>,
}

impl SearchResult {
    /// The result whose best lines are `lines` (best first): the move, score, depth and
    /// principal variation are the first line's (none, `Cp(0)`, 0 and empty without lines).
    /// For programs that show results they did not search (tests of a client, say).
    pub fn from_lines(lines: Vec<SearchLine>, nodes: u64) -> SearchResult {
        let first = lines.first();
        SearchResult {
            best: first.and_then(|l| l.pv.first().copied()),
            score: first.map_or(Score::Cp(0), |l| l.score),
            depth: first.map_or(0, |l| l.depth),
            nodes,
            pv: first.map(|l| l.pv.clone()).unwrap_or_default(),
            lines,
        }
    }
}

/// The largest transposition table, in MiB.
pub const MAX_HASH_MB: usize = 4096;

/// Engine settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP); at least 1.
    pub threads: usize,
    /// Transposition table size in MiB, 1 to [`MAX_HASH_MB`].
    pub hash_mb: usize,
    /// Playing level 1 (beginner) … 10 (full strength); see [`level`].
    pub level: u8,
    /// The evaluation weights ([`eval::WEIGHTS`] unless a tuner or a test sets others).
    pub weights: eval::Weights,
    /// Contempt for a draw, in centipawns, -[`MAX_CONTEMPT`] to [`MAX_CONTEMPT`]: the search
    /// scores a draw (by the no-capture rule or a repetition) as this much worse for the side it
    /// searches for, so a positive value plays on where a draw is within reach.
    pub contempt: i32,
    /// Time kept back from every time budget (`movetime`, or the share of a clock) for the move
    /// to reach the other side: the pipes of a GUI or match runner, a network; at most
    /// [`MAX_MOVE_OVERHEAD`].
    pub move_overhead: Duration,
    /// How many of the best root moves the search scores exactly and reports, each with its line
    /// (UCI's `MultiPV`, for analysis), 1 to [`MAX_MULTI_PV`]. With more than one the search
    /// finds the best move as before, then the best of the other moves, and so on, in every
    /// iteration: each extra line costs about as much as the first. Helper threads search one.
    /// With more than one, the move played is the first line of the last iteration that scored
    /// them all ([`SearchResult::lines`]).
    pub multi_pv: usize,
}

/// The contempt used unless set otherwise.
pub const DEFAULT_CONTEMPT: i32 = 0;

/// The largest contempt ([`EngineOptions::contempt`]) either way, in centipawns.
pub const MAX_CONTEMPT: i32 = 500;

/// The largest [`EngineOptions::multi_pv`].
pub const MAX_MULTI_PV: usize = 64;

/// The largest [`EngineOptions::move_overhead`].
pub const MAX_MOVE_OVERHEAD: Duration = Duration::from_millis(5000);

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            hash_mb: 16,
            level: 10,
            weights: eval::WEIGHTS,
            contempt: DEFAULT_CONTEMPT,
            move_overhead: timeman::MOVE_OVERHEAD,
            multi_pv: 1,
        }
    }
}
