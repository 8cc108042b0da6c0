//! A game: a position plus its history, with the history-dependent rules (RULES §6.3–§7).

use crate::{
    Bitboard, Color, Illegal, Move, MoveList, Outcome, Piece, Position, Role, Rules, San,
    Termination,
};
use std::fmt;

/// One ply of a game's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ply {
    /// The move played (`Move::PASS` for a pass).
    pub mv: Move,
    /// The side that played it.
    pub color: Color,
    /// The animal moved (`None` for a pass).
    pub piece: Option<Piece>,
    /// The animal captured, if any.
    pub captured: Option<Piece>,
}

/// Why a move cannot be played in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// The move.
    pub mv: Move,
    /// Why not (the English text of [`GameError::why`]).
    pub reason: String,
    /// Why not, as data.
    pub why: Illegal,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.reason)
    }
}

impl std::error::Error for GameError {}

/// A game of Jungle: a start position, the plies played since, and the rules that need that
/// history — §7.1 (7-3), §7.2 (17-5), §7.3 (`repetition_loss`), §6.3 under those rules and the §6.4
/// no-capture draw. Passes (`--`) are plies too.
///
/// ```
/// use jungle::{Game, Rules, Move, Square};
/// let mut g = Game::new(Rules::STANDARD);
/// g.play(Move::new(Square::G3, Square::G4)).unwrap();
/// assert!(g.play(Move::new(Square::G4, Square::G5)).is_err()); // Blue to move
/// assert_eq!(g.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    positions: Vec<Position>,
    plies: Vec<Ply>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from the start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A game from `start` (its history is empty, so §7 starts counting from here).
    pub fn from_position(start: Position) -> Game {
        let mut g = Game {
            positions: vec![start],
            plies: Vec::new(),
            outcome: None,
        };
        g.outcome = g.compute_outcome();
        g
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.position().rules()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The start position.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The position before ply `i` (0 = start; `len()` = current).
    pub fn position_at(&self, i: usize) -> Option<&Position> {
        self.positions.get(i)
    }

    /// The plies played.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// The SAN-like form of each ply.
    pub fn sans(&self) -> Vec<San> {
        self.plies
            .iter()
            .enumerate()
            .map(|(i, p)| San::from_move(&self.positions[i], p.mv))
            .collect()
    }

    /// The number of plies played.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether no ply has been played.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// The result by the rules, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal moves now: the position's moves less those §7 forbids (none once over).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        self.moves_by_history()
    }

    fn moves_by_history(&self) -> MoveList {
        let mut list = self.position().legal_moves();
        let r = self.rules();
        if r.rule_7_3 || r.rule_17_5 || r.repetition_loss {
            list.retain(|m| self.history_forbids(m).is_none());
        }
        list
    }

    /// Whether `m` may be played now (a pass may be played whenever the game is on).
    pub fn is_legal(&self, m: Move) -> bool {
        self.illegal_reason(m).is_none()
    }

    /// Why `m` may not be played now, or `None` if it may.
    pub fn illegal_reason(&self, m: Move) -> Option<String> {
        self.why_illegal(m).map(|why| why.to_string())
    }

    /// Why `m` may not be played now — by the position or, for a move the position allows, by
    /// §7 — or `None` if it may (a pass always may, before the end).
    pub fn why_illegal(&self, m: Move) -> Option<Illegal> {
        if let Some(o) = self.outcome {
            return Some(Illegal::GameOver(o));
        }
        if m.is_pass() {
            return None;
        }
        if let Some(why) = self.position().why_illegal(m) {
            return Some(why);
        }
        self.history_forbids(m)
    }

    /// Plays a move or a pass, if allowed.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(why) = self.why_illegal(m) {
            return Err(GameError {
                mv: m,
                reason: why.to_string(),
                why,
            });
        }
        self.push(m);
        Ok(())
    }

    /// Plays a move the caller knows to be legal in this game (e.g. from [`Game::legal_moves`]).
    pub fn play_unchecked(&mut self, m: Move) {
        debug_assert!(self.is_legal(m));
        self.push(m);
    }

    fn push(&mut self, m: Move) {
        let mut pos = *self.position();
        let color = pos.turn();
        let (piece, captured) = if m.is_pass() {
            pos.pass();
            (None, None)
        } else {
            let piece = pos.piece_at(m.from_sq());
            (piece, pos.play_unchecked(m))
        };
        self.plies.push(Ply {
            mv: m,
            color,
            piece,
            captured,
        });
        self.positions.push(pos);
        self.outcome = self.compute_outcome();
    }

    /// Takes back the last ply; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Ply> {
        let ply = self.plies.pop()?;
        self.positions.pop();
        self.outcome = self.compute_outcome();
        Some(ply)
    }

    /// §6 in order: den, wipe-out, no legal move (with §7), the no-capture draw.
    fn compute_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if let Some(o) = pos
            .outcome()
            .filter(|o| o.termination != Termination::NoMoves)
        {
            return Some(o);
        }
        if self.moves_by_history().is_empty() {
            return Some(Outcome {
                winner: Some(!pos.turn()),
                termination: Termination::NoMoves,
            });
        }
        let n = self.rules().draw_plies;
        if n > 0 && pos.halfmoves() >= n {
            return Some(Outcome {
                winner: None,
                termination: Termination::DrawPlies,
            });
        }
        None
    }

    /// The own plies of `color`, most recent first.
    fn own_plies(&self, color: Color) -> impl Iterator<Item = &Ply> {
        self.plies.iter().rev().filter(move |p| p.color == color)
    }

    /// Which §7 rule forbids `m` (a legal move of the position), if any.
    pub fn history_forbids(&self, m: Move) -> Option<Illegal> {
        if m.is_pass() {
            return None;
        }
        let pos = self.position();
        let rules = pos.rules();
        let color = pos.turn();
        let piece = pos.piece_at(m.from_sq())?;
        let to = m.to_sq();
        let traps = Bitboard::TRAPS;
        let entered_trap = |p: &Ply| p.piece == Some(piece) && traps.contains(p.mv.to_sq());
        // The windows are walked again rather than collected: this runs for every candidate
        // move of every position a server or client shows, so it must not allocate.
        if rules.rule_7_3 {
            let window = || self.own_plies(color).take(7);
            let times = window()
                .filter(|p| p.piece == Some(piece) && p.mv.to_sq() == to)
                .count();
            if times >= 3 && !window().any(entered_trap) && !pos.is_attacked(m.from_sq()) {
                return Some(Illegal::Rule73 {
                    role: piece.role,
                    to,
                    times: times as u32,
                });
            }
        }
        if rules.rule_17_5 {
            let window = || self.own_plies(color).take(17);
            if window().all(|p| p.piece == Some(piece))
                && window().count() == 17
                && !window().any(entered_trap)
            {
                let squares: Bitboard = window().map(|p| p.mv.to_sq()).collect();
                if squares.count() <= 5 && squares.contains(to) {
                    return Some(Illegal::Rule175 {
                        role: piece.role,
                        squares: squares.count(),
                    });
                }
            }
        }
        if rules.repetition_loss {
            if let Some(reason) = self.repetition_forbids(m) {
                return Some(reason);
            }
        }
        None
    }

    /// RULES §7.3. The move is forbidden when it would make a position occur for the 4th time and
    /// its mover is the side that made the first move of the repeating cycle: the earliest ply
    /// from which the history (with the new position) repeats with the cycle's period.
    fn repetition_forbids(&self, m: Move) -> Option<Illegal> {
        let new_hash = self.position().hash_after(m);
        // Counted first without allocating: a 4th occurrence is rare.
        let seen = self
            .positions
            .iter()
            .filter(|p| p.hash() == new_hash)
            .count();
        if seen < 3 {
            return None;
        }
        let mut hashes: Vec<u64> = self.positions.iter().map(|p| p.hash()).collect();
        hashes.push(new_hash);
        let n = hashes.len() - 1;
        let last = hashes[..n].iter().rposition(|&h| h == new_hash)?;
        let period = n - last;
        let mut q = last;
        while q > 0 && hashes[q - 1] == hashes[q - 1 + period] {
            q -= 1;
        }
        let first_mover = self.positions[q].turn();
        if first_mover == self.position().turn() {
            Some(Illegal::Repetition)
        } else {
            None
        }
    }

    /// The side that has won or `None`; shorthand for the outcome's winner.
    pub fn winner(&self) -> Option<Color> {
        self.outcome.and_then(|o| o.winner)
    }

    /// Whether the animal `role` of `color` is still on the board.
    pub fn has(&self, color: Color, role: Role) -> bool {
        self.position().square_of(Piece::new(color, role)).is_some()
    }
}
