//! Iterative deepening principal-variation alpha-beta: transposition table, move ordering (hash
//! move, captures by victim and attacker, killers, history), null move, late move reductions
//! (one ply more at nodes expected to fail high), late move pruning, futility pruning and a
//! quiescence search over captures and den threats.
//!
//! Den races are decided exactly, without extensions that could run away: a side that can step
//! into the enemy den wins at once; a side facing two den threats loses; a side facing one must
//! capture the threatening animal (only those moves are searched, and they never extend depth).
//!
//! The anti-abuse rules of §7 (7-3 and 17-5) hold at every node of the main search, from the
//! game's plies and the search path, quiescence included: a side whose only moves they forbid
//! has lost. The optional repetition rule (§7.3) is applied at the root, whose moves always come
//! from the game's legal moves, and that is exact: the rule forbids a move only to the side that
//! started the cycle, which is never the side to move in a position occurring for the first time,
//! and below the root the search scores every repeated position at once instead of moving from
//! it. Without §7.3 a repetition ends nothing, and only a cycle within the search path scores as
//! a draw: a position the game went through before the root is searched like any other, and
//! where §7.1–§7.2 hold only a cycle they let go on counts ([`Searcher::cycle_counts`]). A node
//! whose moves §7 restricts keeps its own transposition-table entry, apart from the same position
//! reached without that history.

use crate::eval::{material, material_under, EvalTable, Material};
use crate::timeman::{Deadline, TimeBase};
use crate::tt::{Bound, Tt};
use crate::{Score, SearchInfo};
use jungle::{Bitboard, Game, Move, MoveList, Piece, Position, Role, Rules, Square, REACH};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Scores at or beyond this magnitude are forced ends.
pub(crate) const MATE: i32 = 30_000;
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
pub(crate) const INF: i32 = 31_000;
pub(crate) const MAX_PLY: usize = 128;
/// The evaluation slot of a table entry whose node did not compute one.
pub(crate) const EVAL_NONE: i32 = -32_000;
/// The deepest iteration.
pub(crate) const MAX_DEPTH: u32 = 100;

// Tunable search constants, each kept because a match said so (see doc/strength.md).
const NULL_MIN_DEPTH: i32 = 3;
const RFP_MAX_DEPTH: i32 = 0;
const RFP_MARGIN: i32 = 120;
const LMR_MIN_DEPTH: i32 = 3;
const LMR_MIN_MOVE: usize = 3;
/// Late move reduction: `LMR_BASE + ln(depth) · ln(move number) / LMR_DIVISOR` plies.
const LMR_BASE: f32 = 0.75;
const LMR_DIVISOR: f32 = 2.25;
/// Depths with their own row in the reduction table (deeper ones use the last row).
const LMR_DEPTHS: usize = 64;

/// `LMR_BASE + ln(depth) · ln(move number) / LMR_DIVISOR`, whole plies, by depth and move number
/// (computed once per search instead of two logarithms per reduced move).
fn lmr_table() -> Box<[[i32; jungle::MAX_MOVES]; LMR_DEPTHS]> {
    let mut t = Box::new([[0; jungle::MAX_MOVES]; LMR_DEPTHS]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (LMR_BASE + (d as f32).ln() * (i as f32).ln() / LMR_DIVISOR) as i32;
        }
    }
    t
}

/// Capture ordering keys by victim and attacker role, `[victim][attacker]`: the most valuable
/// victim first, then the least valuable attacker (computed once per search for its rules).
fn capture_keys(rules: &Rules) -> [[i32; 8]; 8] {
    let mut t = [[0; 8]; 8];
    for victim in Role::ALL {
        for attacker in Role::ALL {
            t[victim.index()][attacker.index()] =
                material_under(rules, victim) * 16 - material_under(rules, attacker) / 16;
        }
    }
    t
}

/// Late move pruning: at this depth or less, quiet moves after the first
/// `LMP_BASE + depth * depth` are skipped.
const LMP_MAX_DEPTH: i32 = 3;
const LMP_BASE: usize = 4;
/// Futility pruning: at this depth or less, quiet moves are skipped when the static evaluation
/// plus `FUTILITY_MARGIN * depth` cannot reach alpha.
const FUTILITY_MAX_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 150;
/// Internal iterative reduction: from this depth on, a node without a hash move is searched one
/// ply shallower (0 = off).
const IIR_MIN_DEPTH: i32 = 0;
/// Quiescence plies in which moves that create a den threat are searched besides captures.
const QS_THREAT_PLIES: i32 = 4;

/// The squares next to each side's den: an enemy animal there enters it next move.
const DEN_DOORS: [Bitboard; 2] = [
    Bitboard((1 << 2) | (1 << 4) | (1 << 10)),
    Bitboard((1 << 58) | (1 << 60) | (1 << 52)),
];

/// State shared by all threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a Tt,
    pub stop: &'a AtomicBool,
    pub nodes: AtomicU64,
    /// When the search began, and when its time began to count (later for a pondering search).
    pub time: &'a TimeBase,
    pub deadline: Deadline,
    pub node_limit: Option<u64>,
    pub max_depth: u32,
    /// Amplitude of the level's evaluation noise (0 at full strength).
    pub noise: i32,
    /// How much worse a draw is for the side the search is for ([`crate::EngineOptions::contempt`]).
    pub contempt: i32,
    pub seed: u64,
    /// The evaluation weights, compiled for the root position's rules (every node shares them).
    pub eval: EvalTable,
}

/// The per-thread searcher.
pub(crate) struct Searcher<'a> {
    shared: &'a Shared<'a>,
    pub id: usize,
    nodes: u64,
    unflushed: u64,
    pub seldepth: u32,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Vec<[i32; 63]>,
    /// Hashes of the positions before the current one: the search path's, after the game's
    /// under §7.3 only (see [`History::hashes`]).
    hashes: Vec<u64>,
    /// How many of `hashes` fall in each bucket of [`seen_bucket`]: a position whose bucket is
    /// empty repeats nothing, which spares most nodes the walk back through `hashes`.
    seen: Box<[u8; SEEN_BUCKETS]>,
    /// The plies that led here, by [`ply_key`], for §7: the game's first (`game_plies` of
    /// them), then the search path's, the move made at ply `p` at `game_plies + p`.
    plies: Vec<u16>,
    game_plies: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    stopped: bool,
    /// Nodes between two looks at the shared stop conditions (see [`check_interval`]).
    check_every: u64,
    /// Late move reductions by depth and move number.
    lmr: Box<[[i32; jungle::MAX_MOVES]; LMR_DEPTHS]>,
    /// [`capture_keys`] of the search's rules.
    capture_keys: [[i32; 8]; 8],
    /// [`EvalTable::material_sum`] of the node at each ply of the search path, kept up to date
    /// move by move.
    material: [Material; MAX_PLY + 1],
}

/// The result of one iteration at the root.
#[derive(Clone, Debug)]
pub(crate) struct RootResult {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<Move>,
}

/// Converts an internal score to a [`Score`].
pub(crate) fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Den((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Den(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

#[inline]
/// One step of a selection sort: moves the highest-keyed of `moves[i..]` (and its key) to index
/// `i`, so a node that cuts off early never pays for sorting the rest. Ties keep the earlier move.
fn pick_next(moves: &mut [Move], keys: &mut [i32], i: usize) {
    // One bounds check up front and the best key kept in a register: the scan is then a load, a
    // compare and two conditional moves per move.
    let keys = &mut keys[..moves.len()];
    let mut k = i;
    let mut best = keys[i];
    for (j, &key) in keys.iter().enumerate().skip(i + 1) {
        if key > best {
            best = key;
            k = j;
        }
    }
    moves.swap(i, k);
    keys.swap(i, k);
}

fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Buckets of [`Searcher::seen`].
const SEEN_BUCKETS: usize = 1 << 12;

/// The most nodes a thread searches between two looks at the node limit and the clock.
const CHECK_EVERY: u64 = 1024;

/// How many nodes a thread searches between two looks at the node limit and the clock:
/// [`CHECK_EVERY`], or a 64th of a smaller node limit (at least 1), so that a search of a few
/// nodes (`go nodes 1`) stops within about 1.6% of its limit instead of up to 1024 nodes past
/// it. Searches without a node limit, or with one of 65 536 nodes or more, look as often as ever.
fn check_interval(node_limit: Option<u64>) -> u64 {
    node_limit.map_or(CHECK_EVERY, |n| (n / 64).clamp(1, CHECK_EVERY))
}

/// The bucket of a position hash in [`Searcher::seen`].
#[inline]
fn seen_bucket(hash: u64) -> usize {
    (hash >> 52) as usize
}

/// What the search needs of the game before its root: the positions, for repetitions under §7.3,
/// and the plies, for the anti-abuse rules of §7.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    /// The hash of every position before the current one under `repetition_loss` (§7.3); empty
    /// otherwise. A repetition ends nothing under the standard rules (§6), so a position the game
    /// went through before the root is searched on its merits and only a cycle within the search
    /// path scores as a draw (doc/strength.md, session of 2026-12-03, night). Under §7.3 the
    /// game's positions count, for the exactness argued at the top of this file.
    pub hashes: Vec<u64>,
    /// Every ply played, by [`ply_key`].
    pub plies: Vec<u16>,
}

impl History {
    /// The history of `game`.
    pub fn of(game: &Game) -> History {
        let hashes = if game.rules().repetition_loss {
            (0..game.len())
                .filter_map(|i| game.position_at(i).map(Position::hash))
                .collect()
        } else {
            Vec::new()
        };
        History {
            hashes,
            plies: game
                .plies()
                .iter()
                // A pass (an online timeout) has no square: its key is 0 whatever `to` says.
                .map(|p| p.mv.to().map_or(0, |to| ply_key(p.piece, to)))
                .collect(),
        }
    }
}

/// A ply as §7 sees it: the animal that moved (0 for a pass) and the square it entered.
#[inline]
fn ply_key(piece: Option<Piece>, to: Square) -> u16 {
    match piece {
        Some(p) => ((p.index() as u16 + 1) << 8) | to.index() as u16,
        None => 0,
    }
}

/// The animal of a [`ply_key`] (as its [`Piece::index`] plus one; 0 for a pass).
#[inline]
fn key_piece(key: u16) -> u16 {
    key >> 8
}

/// The square of a [`ply_key`].
#[inline]
fn square_of(key: u16) -> Square {
    Square::new_unchecked((key & 0xff) as u8)
}

/// Where the animal of a [`ply_key`] stands now (`None` once it is captured).
fn square_of_piece(pos: &Position, key: u16) -> Option<Square> {
    let index = usize::from(key_piece(key) - 1);
    let (color, role) = (jungle::Color::ALL[index / 8], jungle::Role::ALL[index % 8]);
    (pos.by_color(color) & pos.by_role(role)).first()
}

/// Whether a cycle of plies (by [`ply_key`], both sides' in turn, an even number of them) that
/// led from a position back to itself may be played over and over, the anti-abuse rules of §7.1
/// (`rule_7_3`) and §7.2 (`rule_17_5`) forbidding none of its moves: then the repeated position
/// is a draw, for either side may keep repeating. A cycle they end is not: a shuttling animal
/// soon may not shuttle again, and its side must give way.
///
/// Each side's own plies are read as repeating forever, and a move is taken as forbidden when
/// the plies before it in that endless repetition forbid it. The exemption of a chased animal
/// (§7.1) is left out: a cycle it keeps going reads as ended, which only costs the search a
/// draw it finds later, once the plies §7 looks back on repeat too ([`Searcher::same_window`]).
fn cycle_repeats(cycle: &[u16], rule_7_3: bool, rule_17_5: bool) -> bool {
    debug_assert!(cycle.len() % 2 == 0);
    let k = cycle.len() / 2;
    (0..2).all(|side| {
        // The side's own plies in the cycle, oldest first, and the one `t` own plies before the
        // `j`-th in the endless repetition.
        let own = |j: usize| cycle[side + 2 * (j % k)];
        let before = |j: usize, t: usize| own(j + k * t.div_ceil(k) - t);
        let traps = |key: u16, window: usize, j: usize| {
            (1..=window).any(|t| {
                let o = before(j, t);
                key_piece(o) == key_piece(key) && Bitboard::TRAPS.contains(square_of(o))
            })
        };
        (0..k).all(|j| {
            let key = own(j);
            if key == 0 {
                return true;
            }
            let shuttle = rule_7_3
                && (1..=7).filter(|&t| before(j, t) == key).count() >= 3
                && !traps(key, 7, j);
            let chase = rule_17_5
                && (1..=17).all(|t| key_piece(before(j, t)) == key_piece(key))
                && {
                    let squares: Bitboard = (1..=17).map(|t| square_of(before(j, t))).collect();
                    squares.contains(square_of(key)) && squares.count() <= 5
                }
                && !traps(key, 17, j);
            !shuttle && !chase
        })
    })
}

/// The moves §7 forbids the side to move at one node.
#[derive(Default)]
struct Forbidden {
    /// 7-3: (animal, square) keys the animal may not enter again.
    entries: [u16; 2],
    len: usize,
    /// 17-5: the animal (as in [`key_piece`]) and the squares it may not enter.
    chase: Option<(u16, Bitboard)>,
}

impl Forbidden {
    /// The moves §7 forbids the side to move in `pos`, reached by `plies` (by [`ply_key`]); `None`
    /// when there are none (nearly always). Repetition (§7.3) is left to the root.
    #[inline(never)]
    fn of(plies: &[u16], pos: &Position) -> Option<Forbidden> {
        let rules = pos.rules();
        let n = plies.len();
        // The side's own earlier plies, the latest first (plies alternate, passes included).
        let own = |k: usize| plies[n - 2 * (k + 1)];
        let available = n / 2;
        let mut f = Forbidden::default();
        let entered_trap = |key: u16, window: usize| {
            (0..window).any(|k| {
                let o = own(k);
                key_piece(o) == key_piece(key) && Bitboard::TRAPS.contains(square_of(o))
            })
        };
        if rules.rule_7_3 && available >= 5 {
            // Entering a square 3 times needs leaving it in between: at least 5 own plies.
            let window = available.min(7);
            // The window's plies, the latest first; a pass and any slot past the window are 0.
            let mut keys = [0u16; 7];
            for (k, key) in keys.iter_mut().enumerate().take(window) {
                *key = own(k);
            }
            // An animal enters a square again only after leaving it (an own ply in between), so of
            // three entries within 7 plies two follow each other 2 or 3 plies apart, the first of
            // them at index 4 at most: only a key that begins such a pair is counted, which
            // settles nearly every node without counting anything.
            for i in 0..5 {
                let key = keys[i];
                if key == 0
                    || (keys[i + 2] != key && keys.get(i + 3) != Some(&key))
                    || f.entries[..f.len].contains(&key)
                    || keys.iter().filter(|&&k| k == key).count() < 3
                {
                    continue;
                }
                let Some(at) = square_of_piece(pos, key) else {
                    continue;
                };
                if !entered_trap(key, window) && !pos.is_attacked(at) {
                    f.entries[f.len] = key;
                    f.len += 1;
                    if f.len == f.entries.len() {
                        break;
                    }
                }
            }
            // Three entries of each of two keys fill 6 of the 7 plies: at most two keys, kept in
            // the order of their latest entry (which `Forbidden::key` depends on).
            if f.len == 2 {
                let latest = |key: u16| keys.iter().position(|&k| k == key);
                if latest(f.entries[1]) < latest(f.entries[0]) {
                    f.entries.swap(0, 1);
                }
            }
        }
        if rules.rule_17_5 && available >= 17 {
            let first = own(0);
            let p = key_piece(first);
            if p != 0 && (1..17).all(|k| key_piece(own(k)) == p) && !entered_trap(first, 17) {
                let squares: Bitboard = (0..17).map(|k| square_of(own(k))).collect();
                if squares.count() <= 5 {
                    f.chase = Some((p, squares));
                }
            }
        }
        (f.len > 0 || f.chase.is_some()).then_some(f)
    }

    /// A key for the restriction, to tell its node apart from the same position without it.
    fn key(&self) -> u64 {
        let mut k = 0x5DEE_CE66_D1CE_4E5Bu64;
        for &e in &self.entries[..self.len] {
            k = (k ^ u64::from(e)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        if let Some((p, squares)) = self.chase {
            k = (k ^ u64::from(p) ^ (squares.0 << 5)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        k
    }

    /// Whether `m` (of the side to move in `pos`) is forbidden.
    fn blocks(&self, pos: &Position, m: Move) -> bool {
        let key = ply_key(pos.piece_at(m.from_sq()), m.to_sq());
        self.entries[..self.len].contains(&key)
            || self
                .chase
                .is_some_and(|(p, squares)| key_piece(key) == p && squares.contains(m.to_sq()))
    }
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>, id: usize, history: History) -> Searcher<'a> {
        let mut s = Searcher {
            shared,
            id,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            killers: [[Move::PASS; 2]; MAX_PLY + 1],
            history: vec![[0; 63]; 16],
            seen: Box::new([0; SEEN_BUCKETS]),
            hashes: Vec::with_capacity(history.hashes.len() + MAX_PLY + 1),
            game_plies: history.plies.len(),
            plies: {
                let mut v = history.plies;
                v.resize(v.len() + MAX_PLY + 1, 0);
                v
            },
            pv: vec![[Move::PASS; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            stopped: false,
            check_every: check_interval(shared.node_limit),
            lmr: lmr_table(),
            capture_keys: capture_keys(shared.eval.rules()),
            material: [Material::default(); MAX_PLY + 1],
        };
        // The game's positions, present only under §7.3 (see [`History::hashes`]).
        for h in history.hashes {
            s.push_hash(h);
        }
        s
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// All threads' nodes, as far as known.
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unflushed
    }

    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return true;
        }
        if self.unflushed >= self.check_every {
            self.flush_nodes();
            // Every thread looks at the node limit (helpers that start before the main thread
            // would otherwise run past a small one); the main thread alone at the clock.
            if let Some(limit) = self.shared.node_limit {
                if self.total_nodes() >= limit {
                    self.stopped = true;
                    self.shared.stop.store(true, Ordering::Relaxed);
                    return true;
                }
            }
            if self.id == 0 && self.shared.deadline.hard_passed(self.shared.time) {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// The static evaluation of `pos`, the node at `ply`.
    #[inline]
    fn eval(&self, pos: &Position, ply: usize) -> i32 {
        let e = self.shared.eval.evaluate_from(pos, self.material[ply]);
        debug_assert_eq!(
            e,
            self.shared.eval.evaluate(pos),
            "material sum out of date"
        );
        if self.shared.noise == 0 {
            return e;
        }
        let a = self.shared.noise as u64;
        let r = (pos.hash() ^ self.shared.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        e + (r % (2 * a + 1)) as i32 - self.shared.noise
    }

    /// Records the move made at `ply` of the search from `pos` (`None`: a null move, a pass),
    /// for §7 and for the material sum of the child.
    #[inline]
    fn record_ply(&mut self, ply: usize, pos: &Position, m: Option<Move>) {
        self.plies[self.game_plies + ply] = match m {
            Some(m) => ply_key(pos.piece_at(m.from_sq()), m.to_sq()),
            None => ply_key(None, Square::new_unchecked(0)),
        };
        self.material[ply + 1] = self.material[ply]
            + m.map_or_else(Material::default, |m| self.shared.eval.move_delta(pos, m));
    }

    /// What §7 forbids the side to move in `pos`, at `ply` of the search.
    #[inline]
    fn forbidden_at(&self, ply: usize, pos: &Position) -> Option<Forbidden> {
        Forbidden::of(&self.plies[..self.game_plies + ply], pos)
    }

    /// Adds a position to the path (see [`Searcher::hashes`]).
    #[inline]
    fn push_hash(&mut self, h: u64) {
        self.hashes.push(h);
        let b = &mut self.seen[seen_bucket(h)];
        *b = b.saturating_add(1);
    }

    /// Takes the last position off the path.
    #[inline]
    fn pop_hash(&mut self) {
        if let Some(h) = self.hashes.pop() {
            let b = &mut self.seen[seen_bucket(h)];
            // A saturated count stays saturated: the bucket is never wrongly empty.
            if *b != u8::MAX {
                *b -= 1;
            }
        }
    }

    /// The score of a draw at `ply` for its side to move: the contempt counts against the
    /// search's own side (to move at even plies; a null move passes the turn and keeps this).
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply % 2 == 0 {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    /// Whether the position at `ply` repeats one of [`Searcher::hashes`] since the last capture,
    /// by a cycle that counts (see [`Searcher::cycle_counts`]).
    #[inline]
    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let h = pos.hash();
        let walk = || {
            let n = self.hashes.len();
            let back = (pos.halfmoves() as usize).min(n);
            let mut i = 2;
            while i <= back {
                if self.hashes[n - i] == h && self.cycle_counts(ply, i, pos.rules()) {
                    return true;
                }
                i += 2;
            }
            false
        };
        if self.seen[seen_bucket(h)] == 0 {
            debug_assert!(!walk(), "an empty bucket hid a repetition");
            return false;
        }
        walk()
    }

    /// Whether the cycle of the last `back` plies, which led from a position back to the same
    /// board at `ply`, makes the repetition a draw for the search.
    ///
    /// Under §7.3, or without §7.1–§7.2, every cycle does. Otherwise a cycle counts when §7.1–§7.2
    /// let both sides play it again and again (see [`cycle_repeats`]), or when the plies §7 looks
    /// back on (14, or 34 under §7.2) are the same before both occurrences, so that §7 allows the
    /// same moves in both (the exact test, which catches the cycles of a chased animal that
    /// [`cycle_repeats`] reads as ended). A repeated board whose shuttle §7 is about to forbid is
    /// not the same state: the shuttling side must give way, and a draw would hide its loss.
    #[inline(never)]
    fn cycle_counts(&self, ply: usize, back: usize, rules: &Rules) -> bool {
        if rules.repetition_loss || !(rules.rule_7_3 || rules.rule_17_5) {
            return true;
        }
        let window = if rules.rule_17_5 { 2 * 17 } else { 2 * 7 };
        let end = self.game_plies + ply;
        end.checked_sub(back).is_some_and(|start| {
            cycle_repeats(&self.plies[start..end], rules.rule_7_3, rules.rule_17_5)
        }) || self.same_window(ply, back, window)
    }

    /// Whether the last `window` plies before the position at `ply` are those before the
    /// position `back` plies earlier: then §7 allows both sides the same moves in both. A window
    /// reaching before the game's first ply is never the same.
    #[inline]
    fn same_window(&self, ply: usize, back: usize, window: usize) -> bool {
        let end = self.game_plies + ply;
        match end.checked_sub(back + window) {
            Some(start) => self.plies[start..end - back] == self.plies[start + back..end],
            None => false,
        }
    }

    /// Completes the line of a den score (display only: the search is untouched). Table cutoffs
    /// and the den-race checks, which store no move, cut a principal variation short
    /// (`score den 3 pv d6d7 a1b1 d7d8`), while a forced den race has a known length. The line
    /// goes on with the table's move where it has a legal one, else a move that wins at once,
    /// else (for the side that loses) its first legal move, until it is as long as the score
    /// says or the game is over.
    fn extend_den_pv(&self, root: &Position, pv: &mut Vec<Move>, score: i32) {
        if score.abs() < MATE_BOUND {
            return;
        }
        let plies = (MATE - score.abs()).max(0) as usize;
        let mut pos = *root;
        for &m in pv.iter() {
            pos.play_unchecked(m);
        }
        while pv.len() < plies && pos.outcome().is_none() {
            let moves = pos.legal_moves();
            let from_table = self
                .shared
                .tt
                .probe(pos.hash())
                .and_then(|e| e.mv)
                .filter(|&m| pos.is_legal(m));
            let wins_now = || {
                moves.iter().copied().find(|&m| {
                    let mut after = pos;
                    after.play_unchecked(m);
                    after
                        .outcome()
                        .is_some_and(|o| o.winner == Some(pos.turn()))
                })
            };
            // The root's mover plays the line's even plies, and wins when the score is positive.
            let winner_to_move = (pv.len() % 2 == 0) == (score > 0);
            let next = from_table.or_else(wins_now).or_else(|| {
                (!winner_to_move)
                    .then(|| moves.iter().next().copied())
                    .flatten()
            });
            let Some(m) = next else { break };
            pv.push(m);
            pos.play_unchecked(m);
        }
    }

    /// Searches the root moves to `depth` in the window; the moves are reordered best first.
    /// `first` says that `moves` are all the root moves (not those left for a further line of
    /// several, [`crate::EngineOptions::multi_pv`]): only then is the result the position's own,
    /// kept in the table.
    #[allow(clippy::needless_range_loop)]
    pub fn root(
        &mut self,
        pos: &Position,
        moves: &mut [(Move, i64)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: bool,
    ) -> Option<RootResult> {
        let mut best: Option<RootResult> = None;
        let mut best_score = -INF;
        let original_alpha = alpha;
        self.material[0] = self.shared.eval.material_sum(pos);
        self.push_hash(pos.hash());
        for i in 0..moves.len() {
            let m = moves[i].0;
            let mut child = *pos;
            child.play_unchecked(m);
            self.nodes += 1;
            self.unflushed += 1;
            self.record_ply(0, pos, Some(m));
            let score = if i == 0 {
                -self.negamax(&child, -beta, -alpha, depth - 1, 1, false, false)
            } else {
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, depth - 1, 1, false, true);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, -beta, -alpha, depth - 1, 1, false, false);
                }
                s
            };
            if self.stopped {
                break;
            }
            moves[i].1 = if score > alpha {
                score as i64 + (1 << 40)
            } else {
                -(1 << 40) + i64::from(-(i as i32))
            };
            if score > best_score {
                best_score = score;
                if score > alpha || best.is_none() {
                    let mut pv = vec![m];
                    pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                    self.extend_den_pv(pos, &mut pv, score);
                    best = Some(RootResult {
                        best: m,
                        score,
                        depth: depth as u32,
                        pv,
                    });
                }
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.pop_hash();
        // Stable ordering for the next iteration: improved moves first, the rest as they were.
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        for (k, mv) in moves.iter_mut().enumerate() {
            mv.1 = -(k as i64);
        }
        if let Some(b) = &best {
            let bound = if b.score >= beta {
                Bound::Lower
            } else if b.score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            if !self.stopped && first {
                self.shared.tt.store(
                    pos.hash(),
                    Some(b.best),
                    to_tt(b.score, 0),
                    self.shared.eval.evaluate(pos),
                    depth,
                    bound,
                );
            }
        }
        best
    }

    /// The principal variation of a node whose side to move steps from `door` into `enemy`'s den.
    fn den_entry_pv(&mut self, door: jungle::Square, enemy: jungle::Color, ply: usize) {
        let den = Bitboard::den_of(enemy)
            .first()
            .expect("every side has a den");
        self.pv[ply][ply] = Move::new(door, den);
        self.pv_len[ply] = ply + 1;
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }

    /// The ordering key of `attacker` capturing `victim` (see [`capture_keys`]).
    #[inline]
    fn capture_key(&self, victim: Piece, attacker: Piece) -> i32 {
        self.capture_keys[victim.role.index()][attacker.role.index()]
    }

    /// Move ordering key (higher first).
    #[inline(always)]
    fn order(&self, pos: &Position, m: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 1 << 30;
        }
        let from = m.from_sq();
        let to = m.to_sq();
        let mover = pos.piece_at(from).expect("a move moves an animal");
        if let Some(victim) = pos.piece_at(to) {
            return (1 << 28) + self.capture_key(victim, mover);
        }
        if DEN_DOORS[(!pos.turn()).index()].contains(to) {
            return 1 << 27;
        }
        if self.killers[ply][0] == m {
            return (1 << 26) + 1;
        }
        if self.killers[ply][1] == m {
            return 1 << 26;
        }
        self.history[mover.index()][to.index()]
    }

    /// The alpha-beta search of `pos` to `depth` plies at `ply` from the root. `after_null` says
    /// the move into this node was a null move (no second one follows); `cut_node` says the node
    /// is expected to fail high (a zero-window child, the first child of an expected all-node),
    /// where late quiet moves are reduced one ply more.
    // The window, depth, ply and the two node flags are the recursion's state, passed by value.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        after_null: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if pos.is_finished() {
            return -MATE + ply as i32;
        }
        if self.check_stop() {
            return 0;
        }
        let us = pos.turn();
        let mine = pos.by_color(us);
        if let Some(door) = (mine & DEN_DOORS[(!us).index()]).first() {
            self.den_entry_pv(door, !us, ply);
            return MATE - ply as i32 - 1;
        }
        let draw_plies = pos.rules().draw_plies;
        if (draw_plies > 0 && pos.halfmoves() >= draw_plies) || self.is_repetition(pos, ply) {
            return self.draw_score(ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.eval(pos, ply);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let threats = pos.by_color(!us) & DEN_DOORS[us.index()];
        if threats.more_than_one() {
            return -MATE + ply as i32 + 2;
        }
        self.nodes_seen(ply);
        if depth <= 0 {
            // Quiescence's own end tests were just made here.
            return self.quiesce_moves(pos, alpha, beta, ply, 0, threats);
        }
        let pv_node = beta - alpha > 1;
        let forbidden = self.forbidden_at(ply, pos);
        let hash = pos.hash();
        // A node whose moves §7 restricts is not the same node as one reached without that history:
        // its table entry is kept apart.
        let tt_key = forbidden.as_ref().map_or(hash, |f| hash ^ f.key());
        let entry = self.shared.tt.probe(tt_key);
        let mut tt_move = None;
        if let Some(e) = entry {
            tt_move = e.mv.filter(|&m| pos.is_legal(m));
            let s = from_tt(e.score, ply);
            if !pv_node && e.depth >= depth {
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        if let Some(m) = tt_move.filter(|_| depth >= 2) {
            // Most often the first move searched, and at a cut node the only one: its child's
            // entry can start loading before the moves are generated and ordered.
            self.shared.tt.prefetch(pos.hash_after(m));
        }
        let forced = threats.any();
        // The static evaluation only feeds pruning at non-PV nodes; elsewhere it is not computed.
        let wants_eval = !pv_node
            && !forced
            && (depth <= RFP_MAX_DEPTH.max(FUTILITY_MAX_DEPTH) || depth >= NULL_MIN_DEPTH);
        let static_eval = match entry {
            Some(e) if e.eval != EVAL_NONE => e.eval,
            _ if wants_eval => self.eval(pos, ply),
            _ => EVAL_NONE,
        };

        if !pv_node && !forced && static_eval != EVAL_NONE {
            if depth <= RFP_MAX_DEPTH
                && static_eval - RFP_MARGIN * depth >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            if !after_null && depth >= NULL_MIN_DEPTH && static_eval >= beta {
                let r = 2 + depth / 4;
                let mut child = *pos;
                child.pass();
                self.push_hash(hash);
                self.record_ply(ply, pos, None);
                let s = -self.negamax(
                    &child,
                    -beta,
                    -beta + 1,
                    depth - 1 - r,
                    ply + 1,
                    true,
                    !cut_node,
                );
                self.pop_hash();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        let depth = if IIR_MIN_DEPTH > 0 && depth >= IIR_MIN_DEPTH && tt_move.is_none() {
            depth - 1
        } else {
            depth
        };
        let mut moves = pos.legal_moves();
        if let Some(f) = &forbidden {
            moves.retain(|m| !f.blocks(pos, m));
        }
        if forced {
            // Only capturing the animal at the door saves the den.
            moves.retain(|m| threats.contains(m.to_sq()));
            if moves.is_empty() {
                return -MATE + ply as i32 + 2;
            }
        }
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        let mut keys = [0i32; jungle::MAX_MOVES];
        // The first move to search (the first of the highest keys) is found while the keys are
        // computed, so no scan picks it.
        let mut top = 0;
        for (i, &m) in moves.iter().enumerate() {
            keys[i] = self.order(pos, m, tt_move, ply);
            if keys[i] > keys[top] {
                top = i;
            }
        }
        moves.swap(0, top);
        keys.swap(0, top);
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        self.push_hash(hash);
        let n = moves.len();
        let mut quiets_tried: MoveList = MoveList::new();
        // Children with depth left probe the table. There each move is picked one round ahead
        // (the keys do not change while the loop runs) and its child's entry is loaded into the
        // cache while the move before it is searched. The hash move's entry, asked for above, is
        // asked for again here: skipping it measured 2–5% slower (2026-12-05, doc/strength.md).
        // Where the children do not probe, each move is picked only when its turn comes, so a
        // node that cuts off at once never scans for a second move.
        let ahead = depth >= 2;
        let prefetch = |m: Move| self.shared.tt.prefetch(pos.hash_after(m));
        if ahead {
            prefetch(moves[0]);
        }
        for i in 0..n {
            if ahead {
                if i + 1 < n {
                    pick_next(&mut moves, &mut keys, i + 1);
                    prefetch(moves[i + 1]);
                }
            } else if i > 0 {
                pick_next(&mut moves, &mut keys, i);
            }
            let m = moves[i];
            let capture = pos.is_capture(m);
            let quiet = !capture && keys[i] < (1 << 26);
            // Moves come best key first, so once a quiet move is pruned every later one is quiet
            // and would be pruned too (nothing here changes while moves are skipped): stop.
            if quiet && !pv_node && !forced && i > 0 && best > -MATE_BOUND {
                if depth <= LMP_MAX_DEPTH && i >= LMP_BASE + (depth * depth) as usize {
                    break;
                }
                if depth <= FUTILITY_MAX_DEPTH
                    && static_eval != EVAL_NONE
                    && static_eval + FUTILITY_MARGIN * depth <= alpha
                {
                    break;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let new_depth = depth - 1;
            self.nodes += 1;
            self.unflushed += 1;
            self.record_ply(ply, pos, Some(m));
            let mut score;
            if i == 0 {
                score = -self.negamax(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    false,
                    !pv_node && !cut_node,
                );
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_MOVE
                    && !capture
                    && !forced
                    && keys[i] < (1 << 26)
                {
                    r = self.lmr[(depth as usize).min(LMR_DEPTHS - 1)][i];
                    if pv_node {
                        r -= 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    false,
                    true,
                );
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.negamax(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        false,
                        !cut_node,
                    );
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false, false);
                }
            }
            if self.stopped {
                self.pop_hash();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if !capture {
                            self.reward_quiet(pos, m, ply, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if !capture && quiets_tried.len() < jungle::MAX_MOVES {
                quiets_tried.push(m);
            }
        }
        self.pop_hash();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            tt_key,
            best_move,
            to_tt(best, ply),
            static_eval,
            depth,
            bound,
        );
        best
    }

    fn reward_quiet(&mut self, pos: &Position, m: Move, ply: usize, depth: i32, tried: &MoveList) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = (depth * depth).min(400);
        let piece = |mv: Move| {
            pos.piece_at(mv.from_sq())
                .expect("moves move animals")
                .index()
        };
        let h = &mut self.history[piece(m)][m.to_sq().index()];
        *h += bonus - *h * bonus / 16384;
        for &q in tried.iter() {
            let h = &mut self.history[piece(q)][q.to_sq().index()];
            *h -= bonus + *h * bonus / 16384;
        }
    }

    #[inline]
    fn nodes_seen(&mut self, ply: usize) {
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
    }

    fn quiesce(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        self.nodes_seen(ply);
        self.pv_len[ply] = ply;
        if pos.is_finished() {
            return -MATE + ply as i32;
        }
        if self.check_stop() {
            return 0;
        }
        let us = pos.turn();
        if let Some(door) = (pos.by_color(us) & DEN_DOORS[(!us).index()]).first() {
            self.den_entry_pv(door, !us, ply);
            return MATE - ply as i32 - 1;
        }
        if ply >= MAX_PLY - 1 {
            return self.eval(pos, ply);
        }
        let threats = pos.by_color(!us) & DEN_DOORS[us.index()];
        if threats.more_than_one() {
            return -MATE + ply as i32 + 2;
        }
        self.quiesce_moves(pos, alpha, beta, ply, qply, threats)
    }

    /// Quiescence after the node's end tests (finished, stopped, den entry, two den threats):
    /// the stand-pat score and the captures and den threats, or the replies to one den threat
    /// (`threats`, the enemy animal at a door of the own den, if any).
    fn quiesce_moves(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: i32,
        threats: Bitboard,
    ) -> i32 {
        let us = pos.turn();
        let forced = threats.any();
        let mut best = -INF;
        if !forced {
            let stand = self.eval(pos, ply);
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        // Only the wanted moves are generated (in the order `legal_moves` would give them).
        let wanted = if forced {
            threats
        } else if qply < QS_THREAT_PLIES {
            pos.by_color(!us) | DEN_DOORS[(!us).index()]
        } else {
            pos.by_color(!us)
        };
        let mut moves = MoveList::new();
        for from in pos.by_color(us) {
            // Most animals cannot reach a wanted square at all: skip their move generation.
            if (REACH[from.index()] & wanted).is_empty() {
                continue;
            }
            for to in pos.targets(from) & wanted {
                moves.push(Move::new(from, to));
            }
        }
        if !moves.is_empty() {
            if let Some(f) = self.forbidden_at(ply, pos) {
                moves.retain(|m| !f.blocks(pos, m));
            }
        }
        if forced && moves.is_empty() {
            return -MATE + ply as i32 + 2;
        }
        if moves.is_empty() {
            return best;
        }
        let mut keys = [0i32; jungle::MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            keys[i] = match pos.piece_at(m.to_sq()) {
                Some(v) => self.capture_key(v, pos.piece_at(m.from_sq()).expect("a mover")),
                None => 0,
            };
        }
        let n = moves.len();
        for i in 0..n {
            pick_next(&mut moves, &mut keys, i);
            let m = moves[i];
            let mut child = *pos;
            child.play_unchecked(m);
            self.nodes += 1;
            self.unflushed += 1;
            self.record_ply(ply, pos, Some(m));
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Builds a [`SearchInfo`] for a finished iteration, or for its line `multipv` of several.
    pub fn info(&self, r: &RootResult, multipv: Option<usize>) -> SearchInfo {
        let nodes = self.total_nodes();
        let time = self.shared.time.elapsed();
        let micros = time.as_micros().max(1) as u64;
        SearchInfo {
            depth: r.depth,
            seldepth: self.seldepth.max(r.depth),
            score: to_score(r.score),
            nodes,
            nps: nodes.saturating_mul(1_000_000) / micros,
            hashfull: self.shared.tt.hashfull(),
            time,
            pv: r.pv.clone(),
            multipv,
        }
    }

    /// Flushes this thread's node count into the shared total.
    pub fn finish(&mut self) {
        self.flush_nodes();
    }
}

/// Root moves of `pos` from the game's legal moves, ordered by a shallow look (captures and den
/// entries first, then by the evaluation `eval` after the move).
pub(crate) fn order_root(
    pos: &Position,
    legal: &MoveList,
    tt: &Tt,
    eval: &EvalTable,
) -> Vec<(Move, i64)> {
    let tt_move = tt.probe(pos.hash()).and_then(|e| e.mv);
    let them = !pos.turn();
    let mut v: Vec<(Move, i64)> = legal
        .iter()
        .map(|&m| {
            let mut k = 0i64;
            if Some(m) == tt_move {
                k += 1 << 40;
            }
            if Bitboard::den_of(them).contains(m.to_sq()) {
                k += 1 << 41;
            }
            if let Some(v) = pos.piece_at(m.to_sq()) {
                k += (1 << 30) + i64::from(material(pos, v.role));
            }
            let mut c = *pos;
            c.play_unchecked(m);
            k -= i64::from(eval.evaluate(&c));
            (m, k)
        })
        .collect();
    v.sort_by_key(|m| std::cmp::Reverse(m.1));
    v
}

impl Searcher<'_> {
    /// The deepest iteration allowed.
    pub fn max_depth(&self) -> u32 {
        self.shared.max_depth
    }

    /// The evaluation of this search.
    pub fn eval_table(&self) -> &EvalTable {
        &self.shared.eval
    }

    /// The shared transposition table.
    pub fn tt(&self) -> &Tt {
        self.shared.tt
    }

    /// Whether the soft time bound has passed (never while the search ponders).
    pub fn soft_deadline_passed(&self) -> bool {
        self.shared.deadline.soft_passed(self.shared.time)
    }

    /// Whether the search still ponders: then it ends only by `stop` or its depth or node limit.
    pub fn pondering(&self) -> bool {
        self.shared.time.pondering()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle::Rules;

    /// [`cycle_repeats`] agrees with the game: a cycle it reads as repeatable can be played a
    /// dozen times over, and one it reads as ended is refused by §7 before that (no animal is
    /// chased in these cycles, the one exemption it leaves out).
    #[test]
    fn cycles_repeat_as_the_game_allows() {
        let no_17_5 = Rules {
            rule_17_5: false,
            ..Rules::STANDARD
        };
        let none = Rules {
            rule_7_3: false,
            ..no_17_5
        };
        // (rules, opening plies, the cycle, whether it repeats)
        let cases = [
            // Both Lions shuttle: 7-3 ends it (and 17-5 would).
            (Rules::STANDARD, "", "g1f1 a9b9 f1g1 b9a9", false),
            (no_17_5, "", "g1f1 a9b9 f1g1 b9a9", false),
            (none, "", "g1f1 a9b9 f1g1 b9a9", true),
            // Two animals a side, in turn: no rule ends it.
            (
                Rules::STANDARD,
                "",
                "g1f1 a9b9 a1b1 g9f9 f1g1 b9a9 b1a1 f9g9",
                true,
            ),
            // Red's Rat goes round four squares: 17-5 ends it, 7-3 does not.
            (
                Rules::STANDARD,
                "",
                "g3g4 a9b9 g4f4 g9f9 f4f3 b9a9 f3g3 f9g9",
                false,
            ),
            (no_17_5, "", "g3g4 a9b9 g4f4 g9f9 f4f3 b9a9 f3g3 f9g9", true),
            // Both Lions shuttle through a trap: exempt from both rules.
            (Rules::STANDARD, "g1f1 a9b9", "f1e1 b9c9 e1f1 c9b9", true),
            // Only Red's does: Blue's shuttle ends it.
            (Rules::STANDARD, "g1f1 a9b9", "f1e1 b9a9 e1f1 a9b9", false),
        ];
        let play = |game: &mut Game, text: &str| {
            text.split_whitespace().all(|m| {
                let square = |s: &str| s.parse::<Square>().unwrap();
                game.play(Move::new(square(&m[..2]), square(&m[2..])))
                    .is_ok()
            })
        };
        for (rules, opening, cycle, repeats) in cases {
            let mut game = Game::new(rules);
            assert!(
                play(&mut game, opening) && play(&mut game, cycle),
                "{cycle}"
            );
            let plies = History::of(&game).plies;
            let keys = &plies[plies.len() - cycle.split_whitespace().count()..];
            assert_eq!(
                cycle_repeats(keys, rules.rule_7_3, rules.rule_17_5),
                repeats,
                "{cycle} under {rules:?}"
            );
            let again = (0..12).all(|_| play(&mut game, cycle));
            assert_eq!(again, repeats, "{cycle} under {rules:?}");
        }
    }

    /// Plays up to 200 plies of a game that shuttles animals back and forth (so that §7 bites
    /// often), showing every position to `check` before its move.
    fn shuttle(rules: Rules, mut seed: u64, mut check: impl FnMut(&Game)) {
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut game = Game::new(rules);
        for _ in 0..200 {
            if game.outcome().is_some() {
                break;
            }
            check(&game);
            let legal = game.legal_moves();
            // Mostly undo the side's last move, else move the same animal, else anything.
            let last = game
                .plies()
                .len()
                .checked_sub(2)
                .map(|i| game.plies()[i].mv);
            let back = last.and_then(|l| {
                legal
                    .iter()
                    .copied()
                    .find(|m| m.from_sq() == l.to_sq() && m.to_sq() == l.from_sq())
            });
            let same: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| last.is_some_and(|l| m.from_sq() == l.to_sq()))
                .collect();
            let m = match (back, rand(10)) {
                (Some(b), 0..=7) => b,
                _ if !same.is_empty() && rand(2) == 0 => same[rand(same.len())],
                _ => legal[rand(legal.len())],
            };
            game.play(m).unwrap();
        }
    }

    /// Shuttles (see [`shuttle`]) and checks at every ply that the search's view of §7 forbids
    /// exactly the moves the game forbids. Returns how many moves were forbidden on the way.
    fn shuttle_and_compare(rules: Rules, seed: u64) -> usize {
        let mut forbidden = 0;
        shuttle(rules, seed, |game| {
            let pos = *game.position();
            let history = History::of(game);
            let f = Forbidden::of(&history.plies, &pos);
            for &m in &pos.legal_moves() {
                let by_game = game.history_forbids(m);
                let by_search = f.as_ref().is_some_and(|f| f.blocks(&pos, m));
                assert_eq!(
                    by_search,
                    by_game.is_some(),
                    "{m} in {} after {:?}: the game says {by_game:?}",
                    jungle::Jfen::from_position(&pos),
                    game.moves().map(|m| m.to_string()).collect::<Vec<_>>()
                );
                forbidden += usize::from(by_search);
            }
        });
        forbidden
    }

    /// Why the search leaves §7.3 to the root: the rule forbids a move only to the side that made
    /// the first move of the cycle, and when the position before the move occurs for the first
    /// time that side is the other one. The search scores every position that repeats an earlier
    /// one at once, so below the root it only moves from first occurrences, which §7.3 never
    /// restricts; the root's moves come from the game, which applies the rule.
    #[test]
    fn the_repetition_rule_restricts_only_repeated_positions() {
        let rules: Rules = "no_7_3,no_17_5,repetition_loss".parse().unwrap();
        let (mut at_repeats, mut first_occurrences) = (0, 0);
        for seed in 1..=60u64 {
            shuttle(rules, seed * 0x9E37_79B9, |game| {
                let now = game.len();
                let hash = |i: usize| game.position_at(i).expect("a position").hash();
                let repeated = (0..now).any(|i| hash(i) == hash(now));
                let forbidden = game
                    .position()
                    .legal_moves()
                    .iter()
                    .filter(|&&m| game.history_forbids(m).is_some())
                    .count();
                if repeated {
                    at_repeats += forbidden;
                } else {
                    first_occurrences += 1;
                    assert_eq!(forbidden, 0, "a first occurrence restricted after {:?}", {
                        game.moves().map(|m| m.to_string()).collect::<Vec<_>>()
                    });
                }
            });
        }
        // The games do run into the rule, and do pass through new positions.
        assert!(at_repeats > 100, "§7.3 forbade only {at_repeats} moves");
        assert!(
            first_occurrences > 1000,
            "{first_occurrences} first occurrences"
        );
    }

    /// A position the game went through before the root repeats nothing under the standard rules
    /// (a repetition ends no Jungle game) and is a repetition under §7.3; a cycle within the
    /// search path is one under both.
    #[test]
    fn game_positions_count_as_repetitions_only_under_7_3() {
        let mut checked = 0;
        for rules in ["no_7_3,no_17_5", "no_7_3,no_17_5,repetition_loss"] {
            let rules: Rules = rules.parse().unwrap();
            let tt = Tt::new(1);
            let stop = AtomicBool::new(false);
            let time = TimeBase::new(false);
            let shared = Shared {
                tt: &tt,
                stop: &stop,
                nodes: AtomicU64::new(0),
                time: &time,
                deadline: Deadline::from_limits(
                    &crate::Limits::default(),
                    std::time::Duration::ZERO,
                ),
                node_limit: None,
                max_depth: MAX_DEPTH,
                noise: 0,
                contempt: 0,
                seed: 1,
                eval: EvalTable::new(&crate::eval::WEIGHTS, &rules),
            };
            shuttle(rules, 0x9E37_79B9, |game| {
                let pos = *game.position();
                let repeats = (0..game.len())
                    .filter_map(|i| game.position_at(i))
                    .any(|p| p.hash() == pos.hash());
                if !repeats {
                    return;
                }
                let history = History::of(game);
                assert_eq!(history.hashes.is_empty(), !rules.repetition_loss);
                let mut s = Searcher::new(&shared, 0, history);
                assert_eq!(s.is_repetition(&pos, 0), rules.repetition_loss);
                // The same position again two plies into the search.
                s.push_hash(pos.hash());
                s.push_hash(0);
                assert!(s.is_repetition(&pos, 2));
                checked += 1;
            });
        }
        assert!(checked > 20, "only {checked} repeated positions");
    }

    /// Searches from positions deep in shuttling games, where the history is long and full of
    /// repetitions (in debug builds [`Searcher::is_repetition`] checks that its bucket filter
    /// never hides one): every search returns a legal move.
    #[test]
    fn searches_after_long_shuttling_histories_return_legal_moves() {
        let mut engine = crate::Engine::new(crate::EngineOptions::default());
        let mut searched = 0;
        // Under §7.3 the game's positions count as repetitions too (see `History::hashes`).
        for (seed, rules) in (1..=4u64).zip(
            ["no_7_3,no_17_5", "no_7_3,no_17_5,repetition_loss"]
                .iter()
                .cycle(),
        ) {
            let rules: Rules = rules.parse().unwrap();
            let mut ply = 0;
            shuttle(rules, seed * 0x9E37_79B9, |game| {
                ply += 1;
                if ply % 40 != 0 {
                    return;
                }
                let limits = crate::Limits {
                    depth: Some(5),
                    ..crate::Limits::default()
                };
                let r = engine.search(game, limits);
                // Release builds answer a panicked search with a fallback move at depth 0.
                assert_eq!(r.depth, 5, "the search failed at ply {ply}");
                let best = r.best.expect("a move");
                assert!(game.legal_moves().contains(best), "{best} is not legal");
                searched += 1;
            });
        }
        assert!(searched >= 16, "only {searched} searches");
    }

    #[test]
    fn the_search_forbids_exactly_what_the_game_forbids() {
        let only_17_5 = Rules {
            rule_7_3: false,
            ..Rules::STANDARD
        };
        let mut by_rules = [0; 2];
        for seed in 1..=60u64 {
            by_rules[0] += shuttle_and_compare(Rules::STANDARD, seed * 0x9E37_79B9);
            by_rules[1] += shuttle_and_compare(only_17_5, seed * 0x9E37_79B9);
        }
        // The games do run into both rules, so the comparison means something.
        assert!(by_rules[0] > 100, "7-3 forbade only {} moves", by_rules[0]);
        assert!(by_rules[1] > 20, "17-5 forbade only {} moves", by_rules[1]);
    }
}
