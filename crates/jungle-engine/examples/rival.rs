//! A deliberately plain Jungle engine, written apart from this crate's search and evaluation, to
//! play `jungle match` against the real engine where no independent Jungle program is available
//! (doc/strength.md, "A rival that shares nothing with the engine").
//!
//! It is built the way a hobby program would be: alpha-beta over the rules library's move
//! generator, iterative deepening without a transposition table, captures first by victim, a
//! quiescence search over captures and den entries, and an evaluation of its own — material by a
//! fixed value per animal, a bonus that grows as each animal nears the enemy den (straight-line
//! steps, no notion of water or jumps), and a penalty per enemy animal near the own den. It shares
//! no code, table or weight with the engine's search and evaluation (only the rules library), so a
//! match against it says how the engine fares against a program that judges positions differently
//! — the way the acceptance match would, only against a weaker opponent.
//!
//! With `--modern` on its command line it searches the way a current hobby engine would, over the
//! same evaluation: principal-variation search with a transposition table, null-move pruning, late
//! move reductions, killer moves and a history score ([`Search::pvs`]). That reaches about twice
//! the plain search's depth in the same time.
//!
//! It speaks the subset of the engine protocol that `jungle match` uses: `uci`, `isready`,
//! `ucinewgame`, `setoption` (ignored), `position startpos|fen … [moves …]`, `go movetime|wtime
//! btime winc binc|depth|nodes`, `quit`; after each search it prints `info depth D nodes N`.
//!
//! ```sh
//! cargo build --release -p jungle-engine --example rival
//! jungle match --engine "target/release/jungle engine" \
//!   --engine "target/release/examples/rival" --movetime 100 --games 124 --concurrency 2
//! jungle match --engine "target/release/jungle engine" \
//!   --engine "target/release/examples/rival --modern" --movetime 100 --games 124 --concurrency 2
//! ```

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use jungle::{Bitboard, Color, Game, Jfen, Move, MoveText, Position, Rules, Square};

const WIN: i32 = 100_000;
const INF: i32 = 1_000_000;

/// Fixed values, Rat … Elephant.
const VALUE: [i32; 8] = [150, 200, 300, 300, 450, 700, 800, 900];

fn den_square(color: Color) -> Square {
    Bitboard::den_of(color)
        .first()
        .expect("each side has a den")
}

/// The evaluation from the side to move's point of view.
fn evaluate(pos: &Position) -> i32 {
    let mut score = [0i32; 2];
    for color in Color::ALL {
        let enemy_den = den_square(!color);
        let own_den = den_square(color);
        for sq in pos.by_color(color) {
            let role = pos.piece_at(sq).expect("an animal stands there").role;
            let d = i32::from(sq.distance(enemy_den));
            let near = (14 - d).max(0);
            score[color.index()] += VALUE[role.index()] + near * near / 2;
            if sq.distance(own_den) <= 2 {
                score[color.index()] += 20;
            }
        }
        // Enemy animals close to the own den.
        let intruders = pos
            .by_color(!color)
            .into_iter()
            .filter(|sq| sq.distance(own_den) <= 2)
            .count() as i32;
        score[color.index()] -= 60 * intruders;
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}

struct Search<'t> {
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    stopped: bool,
    draw_plies: u32,
    /// The deepest iteration completed.
    depth: i32,
    /// The modern search's tables (`--modern`), or `None` for the plain search.
    modern: Option<&'t mut Tables>,
}

/// One transposition-table slot of the modern search.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: i8,
    bound: Bound,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// What the modern search (`--modern`) keeps from move to move: a transposition table (always
/// replaced), two killer moves a ply and a history score by origin and destination square.
struct Tables {
    slots: Vec<Slot>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
}

const MAX_PLY: usize = 128;
/// Transposition-table slots (a power of two).
const SLOTS: usize = 1 << 20;

impl Tables {
    fn new() -> Tables {
        Tables {
            slots: vec![Slot::default(); SLOTS],
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 64 * 64],
        }
    }

    /// Before each search: the killers cleared, the history halved.
    fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    fn slot(&mut self, key: u64) -> &mut Slot {
        &mut self.slots[(key as usize) & (SLOTS - 1)]
    }
}

/// A den score moved `plies` further from the root (other scores as they are): a score is stored
/// in the table counted from its node (`plies` = the node's ply) and read back counted from the
/// root (`plies` = minus the reading node's ply).
fn shift_den(score: i32, plies: i32) -> i32 {
    if score >= WIN - 1000 {
        score + plies
    } else if score <= -WIN + 1000 {
        score - plies
    } else {
        score
    }
}

fn history_index(m: Move) -> usize {
    m.from_sq().index() * 64 + m.to_sq().index()
}

impl Search<'_> {
    fn out_of_time(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        if let Some(n) = self.node_limit {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The moves `keep` accepts, `first` first, then captures, the most valuable victim first.
    fn ordered(pos: &Position, first: Option<Move>, keep: impl Fn(Move) -> bool) -> Vec<Move> {
        let mut moves: Vec<(i32, Move)> = pos
            .legal_moves()
            .iter()
            .filter(|&&m| keep(m))
            .map(|&m| {
                let key = if Some(m) == first {
                    INF
                } else {
                    pos.piece_at(m.to_sq())
                        .map_or(0, |v| 1000 + VALUE[v.role.index()])
                };
                (key, m)
            })
            .collect();
        moves.sort_by_key(|&(k, _)| -k);
        moves.into_iter().map(|(_, m)| m).collect()
    }

    /// The end of the game, scored for the side to move, or `None` while it goes on.
    fn terminal(&self, pos: &Position, ply: i32) -> Option<i32> {
        if pos.is_finished() {
            // The side that just moved entered the den or took the last animal.
            return Some(-WIN + ply);
        }
        if self.draw_plies > 0 && pos.halfmoves() >= self.draw_plies {
            return Some(0);
        }
        None
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: i32, qdepth: i32) -> i32 {
        self.nodes += 1;
        if let Some(s) = self.terminal(pos, ply) {
            return s;
        }
        let stand = evaluate(pos);
        if stand >= beta || qdepth == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let enemy_den = Bitboard::den_of(!pos.turn());
        for m in Self::ordered(pos, None, |m| {
            pos.is_capture(m) || enemy_den.contains(m.to_sq())
        }) {
            let mut child = *pos;
            child.play_unchecked(m);
            let s = -self.quiesce(&child, -beta, -alpha, ply + 1, qdepth - 1);
            if s >= beta {
                return s;
            }
            alpha = alpha.max(s);
        }
        alpha
    }

    /// What a node of either search does first: the end of the game, the horizon (quiescence),
    /// counting the node and the time check. `Some` is the node's score.
    fn node_start(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> Option<i32> {
        if let Some(s) = self.terminal(pos, ply) {
            return Some(s);
        }
        if depth <= 0 {
            return Some(self.quiesce(pos, alpha, beta, ply, 6));
        }
        self.nodes += 1;
        self.out_of_time().then_some(0)
    }

    fn alphabeta(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if let Some(s) = self.node_start(pos, depth, alpha, beta, ply) {
            return s;
        }
        let moves = Self::ordered(pos, None, |_| true);
        if moves.is_empty() {
            return -WIN + ply;
        }
        let mut best = -INF;
        for m in moves {
            let mut child = *pos;
            child.play_unchecked(m);
            let s = -self.alphabeta(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The modern search's move order: the table's move, captures by victim, the ply's killers,
    /// then the quiet moves by history.
    fn ordered_modern(&self, pos: &Position, first: Option<Move>, ply: usize) -> Vec<Move> {
        let Some(t) = self.modern.as_deref() else {
            return Self::ordered(pos, first, |_| true);
        };
        let killers = t.killers[ply.min(MAX_PLY - 1)];
        let mut moves: Vec<(i32, Move)> = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let key = if Some(m) == first {
                    INF
                } else if let Some(v) = pos.piece_at(m.to_sq()) {
                    INF / 2 + VALUE[v.role.index()]
                } else if killers.contains(&Some(m)) {
                    INF / 4
                } else {
                    t.history[history_index(m)]
                };
                (key, m)
            })
            .collect();
        moves.sort_by_key(|&(k, _)| -k);
        moves.into_iter().map(|(_, m)| m).collect()
    }

    /// Principal-variation search with a transposition table, null-move pruning and late move
    /// reductions (`--modern`).
    fn pvs(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if let Some(s) = self.node_start(pos, depth, alpha, beta, ply) {
            return s;
        }
        let pv = beta - alpha > 1;
        let key = pos.hash();
        let tables = self.modern.as_deref_mut().expect("the modern search");
        let slot = *tables.slot(key);
        let tt_move = (slot.key == key).then_some(slot.best).flatten();
        if slot.key == key && !pv && i32::from(slot.depth) >= depth {
            let s = shift_den(slot.score, -ply);
            let cut = match slot.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        // Null move: with three animals or more, giving the turn away and still holding beta at
        // a reduced depth is taken as a cutoff.
        let ours = pos.by_color(pos.turn());
        if !pv && depth >= 3 && ours.count() > 2 && beta.abs() < WIN - 1000 && evaluate(pos) >= beta
        {
            let mut child = *pos;
            child.pass();
            let r = 2 + depth / 6;
            let s = -self.pvs(&child, depth - 1 - r, -beta, -beta + 1, ply + 1);
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return beta;
            }
        }
        let moves = self.ordered_modern(pos, tt_move, ply as usize);
        if moves.is_empty() {
            return -WIN + ply;
        }
        let original_alpha = alpha;
        let (mut best, mut best_move) = (-INF, moves[0]);
        for (i, &m) in moves.iter().enumerate() {
            let quiet = !pos.is_capture(m);
            let mut child = *pos;
            child.play_unchecked(m);
            let s = if i == 0 {
                -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let r = if depth >= 3 && i >= 3 && quiet {
                    1 + i32::from(i >= 8) + i32::from(depth >= 8 && i >= 16)
                } else {
                    0
                };
                let mut s = -self.pvs(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 {
                    s = -self.pvs(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                best_move = m;
                alpha = alpha.max(s);
                if alpha >= beta {
                    if quiet {
                        let t = self.modern.as_deref_mut().expect("the modern search");
                        let k = &mut t.killers[(ply as usize).min(MAX_PLY - 1)];
                        if k[0] != Some(m) {
                            k[1] = k[0];
                            k[0] = Some(m);
                        }
                        let h = &mut t.history[history_index(m)];
                        *h = (*h + depth * depth).min(INF / 8);
                    }
                    break;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let t = self.modern.as_deref_mut().expect("the modern search");
        *t.slot(key) = Slot {
            key,
            best: Some(best_move),
            score: shift_den(best, ply),
            depth: depth.min(127) as i8,
            bound,
        };
        best
    }

    /// Iterative deepening over the game's legal moves (the anti-abuse rules apply at the root).
    fn best_move(&mut self, game: &Game, max_depth: i32) -> Move {
        let root = game.legal_moves();
        let Some(&fallback) = root.iter().next() else {
            return Move::PASS;
        };
        let pos = game.position();
        let mut best = fallback;
        for depth in 1..=max_depth {
            let mut order = Self::ordered(pos, Some(best), |m| root.contains(m));
            if order.is_empty() {
                order.push(fallback);
            }
            let (mut alpha, mut iteration_best) = (-INF, order[0]);
            for m in order {
                let mut child = *pos;
                child.play_unchecked(m);
                let s = if self.modern.is_some() {
                    -self.pvs(&child, depth - 1, -INF, -alpha, 1)
                } else {
                    -self.alphabeta(&child, depth - 1, -INF, -alpha, 1)
                };
                if self.stopped {
                    break;
                }
                if s > alpha {
                    alpha = s;
                    iteration_best = m;
                }
            }
            if self.stopped {
                break;
            }
            best = iteration_best;
            self.depth = depth;
            if alpha.abs() >= WIN - 1000 {
                break;
            }
        }
        best
    }
}

fn parse_position(args: &[&str]) -> Result<Game, String> {
    let moves_at = args.iter().position(|&a| a == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let rules = Rules::default();
    let start = match setup.split_first() {
        Some((&"startpos", [])) => Position::start(rules),
        Some((&"fen", fen)) => {
            Jfen::parse_position(&fen.join(" "), rules).map_err(|e| e.to_string())?
        }
        _ => return Err("expected `position startpos|fen <JFEN> [moves …]`".into()),
    };
    let mut game = Game::from_position(start);
    for text in moves {
        let t: MoveText = text
            .parse()
            .map_err(|e: jungle::ParseMoveError| e.to_string())?;
        let m = t.to_move(game.position()).map_err(|e| e.to_string())?;
        game.play(m).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// The best move for `game` under the `go` arguments `args`, and the `info` line reporting the
/// search's depth and nodes.
fn go(game: &Game, args: &[&str], modern: Option<&mut Tables>) -> (Move, String) {
    let value = |key: &str| {
        args.iter()
            .position(|&a| a == key)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let red = game.position().turn() == Color::Red;
    let budget = value("movetime").map(Duration::from_millis).or_else(|| {
        let (t, inc) = if red {
            (value("wtime")?, value("winc").unwrap_or(0))
        } else {
            (value("btime")?, value("binc").unwrap_or(0))
        };
        Some(Duration::from_millis(t / 40 + inc * 3 / 4))
    });
    let mut search = Search {
        deadline: budget.map(|b| Instant::now() + b.mul_f64(0.9)),
        node_limit: value("nodes"),
        nodes: 0,
        stopped: false,
        draw_plies: game.rules().draw_plies,
        depth: 0,
        modern,
    };
    let max_depth = value("depth").map_or(64, |d| d.clamp(1, 64) as i32);
    let m = search.best_move(game, max_depth);
    let info = format!("info depth {} nodes {}", search.depth, search.nodes);
    (m, info)
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut game = Game::new(Rules::default());
    let mut modern = std::env::args()
        .any(|a| a == "--modern")
        .then(|| Box::new(Tables::new()));
    for line in stdin.lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.split_first() {
            Some((&"uci", _)) => writeln!(out, "id name rival\nuciok")?,
            Some((&"isready", _)) => writeln!(out, "readyok")?,
            Some((&"ucinewgame", _)) => {
                game = Game::new(Rules::default());
                if let Some(t) = modern.as_deref_mut() {
                    *t = Tables::new();
                }
            }
            Some((&"position", args)) => match parse_position(args) {
                Ok(g) => game = g,
                Err(e) => writeln!(out, "info string error: {e}")?,
            },
            Some((&"go", args)) => {
                if let Some(t) = modern.as_deref_mut() {
                    t.new_search();
                }
                let (m, info) = go(&game, args, modern.as_deref_mut());
                writeln!(out, "{info}\nbestmove {m}")?
            }
            Some((&"quit", _)) => break,
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_den_entry_in_one() {
        // Red's Lion at d8 enters Blue's den at d9.
        let game = parse_position(&["fen", "7/3L3/7/7/7/7/7/7/e6", "r", "0", "1"])
            .expect("a valid position");
        assert_eq!(go(&game, &["depth", "3"], None).0.to_string(), "d8d9");
        let mut tables = Tables::new();
        assert_eq!(
            go(&game, &["depth", "3"], Some(&mut tables)).0.to_string(),
            "d8d9"
        );
    }

    #[test]
    fn the_modern_search_stops_a_den_entry_in_one() {
        // Blue's Lion on d2 threatens Red's den; Red's Elephant on d3 takes it (d2 is Red's
        // trap), and every other move loses at once.
        let game = parse_position(&["fen", "7/7/7/7/7/7/3E3/3l3/7", "r", "0", "1"])
            .expect("a valid position");
        let mut tables = Tables::new();
        let m = go(&game, &["depth", "6"], Some(&mut tables)).0;
        assert_eq!(m.to_string(), "d3d2");
    }

    #[test]
    fn plays_whole_games_against_itself_legally() {
        // Two short openings, then the rival on both sides until the rules end the game.
        for opening in [
            &["startpos"][..],
            &["startpos", "moves", "g3g4", "a7a6"][..],
        ] {
            let mut game = parse_position(opening).expect("a valid opening");
            let mut plies = 0;
            // The modern search plays Red, the plain one Blue.
            let mut tables = Tables::new();
            while game.outcome().is_none() {
                let modern = (game.position().turn() == Color::Red).then_some(&mut tables);
                let m = go(&game, &["nodes", "3000"], modern).0;
                game.play(m)
                    .unwrap_or_else(|e| panic!("{m} at ply {plies}: {e}"));
                plies += 1;
                assert!(plies < 5000, "the no-capture rule ends every game");
            }
        }
    }

    #[test]
    fn plays_a_legal_move_from_the_start() {
        let game = parse_position(&["startpos"]).expect("start position");
        let m = go(&game, &["nodes", "5000"], None).0;
        assert!(game.is_legal(m), "{m}");
    }
}
