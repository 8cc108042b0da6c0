//! A validated position: legal moves, making moves, hashing and the position's outcome.

use crate::zobrist::{piece_key, SIDE_KEY};
use crate::{
    Bitboard, Color, Illegal, Move, MoveList, Outcome, Piece, PositionError, Role, Rules, Setup,
    Square, Termination, JUMPS, NEIGHBORS, REACH,
};
use std::fmt;

/// A legal Jungle position under a rule set (RULES §1–§6.3). History-dependent rules (§6.4, §7)
/// belong to [`crate::Game`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 63],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 8],
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
    hash: u64,
    rules: Rules,
}

/// Why a move cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why it is illegal (the English text of [`IllegalMove::why`]).
    pub reason: String,
    /// Why it is illegal, as data.
    pub why: Illegal,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

impl Default for Position {
    fn default() -> Self {
        Position::start(Rules::STANDARD)
    }
}

impl Position {
    /// The start position of RULES §3 under `rules`.
    pub fn start(rules: Rules) -> Position {
        Position::from_setup(&Setup::start(), rules).expect("the start position is valid")
    }

    /// Validates `setup` under `rules` (every problem is listed in the error).
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, PositionError> {
        setup.validate(&rules)?;
        let mut p = Position {
            board: [None; 63],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 8],
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
            rules,
        };
        for sq in Square::all() {
            if let Some(piece) = setup.board[sq.index()] {
                p.put(sq, piece);
            }
        }
        if p.turn == Color::Blue {
            p.hash ^= SIDE_KEY;
        }
        Ok(p)
    }

    /// The position as an unchecked [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()].add(sq);
        self.by_role[piece.role.index()].add(sq);
        self.hash ^= piece_key(piece.index(), sq.index());
    }

    #[inline]
    fn take(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = None;
        self.by_color[piece.color.index()].remove(sq);
        self.by_role[piece.role.index()].remove(sq);
        self.hash ^= piece_key(piece.index(), sq.index());
    }

    /// The rule set this position is played under.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (starts at 1, incremented after Blue's move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist hash of the pieces and the side to move (not the counters).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The animal on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The squares of `color`'s animals.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of animals of `role`, both sides.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Where `piece` stands, if it is on the board.
    #[inline]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        (self.by_color[piece.color.index()] & self.by_role[piece.role.index()]).first()
    }

    /// The water squares under these rules (none under `no_rivers`).
    #[inline]
    pub fn water(&self) -> Bitboard {
        if self.rules.no_rivers {
            Bitboard::EMPTY
        } else {
            Bitboard::WATER
        }
    }

    /// Whether `color` has an animal in the enemy den.
    #[inline]
    pub fn entered_den(&self, color: Color) -> bool {
        (self.by_color[color.index()] & Bitboard::den_of(!color)).any()
    }

    /// Whether the game is over by §6.1 or §6.2 (a den entered, or a side without animals).
    #[inline]
    pub fn is_finished(&self) -> bool {
        let red = self.by_color[0];
        let blue = self.by_color[1];
        red.is_empty()
            || blue.is_empty()
            || (red & Bitboard::BLUE_DEN).any()
            || (blue & Bitboard::RED_DEN).any()
    }

    /// The outcome of this position by §6.1–6.3, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        for c in Color::ALL {
            if self.entered_den(c) {
                return Some(Outcome {
                    winner: Some(c),
                    termination: Termination::Den,
                });
            }
        }
        for c in Color::ALL {
            if self.by_color(c).is_empty() {
                return Some(Outcome {
                    winner: Some(!c),
                    termination: Termination::Wipeout,
                });
            }
        }
        if self.count_moves() == 0 {
            return Some(Outcome {
                winner: Some(!self.turn),
                termination: Termination::NoMoves,
            });
        }
        None
    }

    /// The enemy animals an animal of `role` and `color` standing on `from` may capture, wherever
    /// they stand (RULES §5), before asking whether it can reach them.
    #[inline]
    fn capturable(&self, color: Color, role: Role, from: Square) -> Bitboard {
        let enemy = self.by_color[(!color).index()];
        let r = &self.by_role;
        let by_rank = match role {
            Role::Rat => r[0] | r[7],
            Role::Cat => r[0] | r[1],
            Role::Wolf => {
                if self.rules.wolf_over_dog {
                    r[0] | r[1] | r[2] | r[3]
                } else {
                    r[0] | r[1] | r[2]
                }
            }
            Role::Dog => {
                if self.rules.wolf_over_dog {
                    r[0] | r[1] | r[3]
                } else {
                    r[0] | r[1] | r[2] | r[3]
                }
            }
            Role::Leopard => r[0] | r[1] | r[2] | r[3] | r[4],
            Role::Tiger => r[0] | r[1] | r[2] | r[3] | r[4] | r[5],
            Role::Lion => !r[7],
            Role::Elephant => !r[0],
        };
        let mut cap = by_rank;
        if role == Role::Rat {
            let water = self.water();
            if water.contains(from) {
                // A rat in water may not capture the elephant on land (§5.2).
                cap &= !(r[7] & !water);
                if self.rules.no_shore_rat_capture {
                    cap &= !(r[0] & !water);
                }
            } else if self.rules.no_shore_rat_capture {
                cap &= !(r[0] & water);
            }
        }
        // A defender on the attacker's own traps has lost all fighting power (§5.1).
        enemy & (cap | Bitboard::traps_of(color))
    }

    /// The squares the animal on `from` could move to by the position rules (§4–§5), whoever is
    /// to move and whether or not the game is over. Empty if `from` is empty.
    pub fn targets(&self, from: Square) -> Bitboard {
        match self.board[from.index()] {
            Some(p) => self.piece_targets(p.color, p.role, from),
            None => Bitboard::EMPTY,
        }
    }

    /// The rats that block a jump by a Lion or Tiger of `color` (§4.4 and its deviations): any
    /// rat, only the enemy's (`only_enemy_rat_blocks`), or none (`rats_do_not_block`).
    #[inline(always)]
    fn jump_blockers(&self, color: Color) -> Bitboard {
        if self.rules.rats_do_not_block {
            Bitboard::EMPTY
        } else if self.rules.only_enemy_rat_blocks {
            self.by_role[Role::Rat.index()] & self.by_color[(!color).index()]
        } else {
            self.by_role[Role::Rat.index()]
        }
    }

    #[inline(always)]
    fn piece_targets(&self, color: Color, role: Role, from: Square) -> Bitboard {
        let own = self.by_color[color.index()];
        let enemy = self.by_color[(!color).index()];
        let water = self.water();
        let mut t = NEIGHBORS[from.index()] & !own & !Bitboard::den_of(color);
        if role != Role::Rat {
            t &= !water;
            if role.jumps() && !self.rules.no_rivers {
                let blockers = self.jump_blockers(color);
                for j in JUMPS[from.index()].as_slice() {
                    if (j.over & blockers).is_empty() {
                        t.add(j.to);
                    }
                }
                t &= !own;
            }
        }
        let occupied_enemy = t & enemy;
        if occupied_enemy.any() {
            t &= !enemy | self.capturable(color, role, from);
        }
        t
    }

    /// Whether an enemy of the animal on `sq` could capture it with one move (position rules,
    /// ignoring whose turn it is). RULES §7.1 "being chased".
    pub fn is_attacked(&self, sq: Square) -> bool {
        let Some(p) = self.board[sq.index()] else {
            return false;
        };
        // REACH is symmetric (steps and jumps go both ways): only animals on these squares can
        // reach `sq` at all.
        for from in self.by_color[(!p.color).index()] & REACH[sq.index()] {
            let attacker = self.board[from.index()].expect("bitboards match the board");
            if self
                .piece_targets(attacker.color, attacker.role, from)
                .contains(sq)
            {
                return true;
            }
        }
        false
    }

    /// The legal moves of this position (§4–§6.2; none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.is_finished() {
            return list;
        }
        let c = self.turn;
        for from in self.by_color[c.index()] {
            let p = self.board[from.index()].expect("bitboards match the board");
            for to in self.piece_targets(c, p.role, from) {
                list.push(Move::new(from, to));
            }
        }
        list
    }

    /// The number of legal moves (fast: no list is built).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        if self.is_finished() {
            return 0;
        }
        let c = self.turn;
        let mut n = 0;
        for from in self.by_color[c.index()] {
            let p = self.board[from.index()].expect("bitboards match the board");
            n += self.piece_targets(c, p.role, from).count();
        }
        n
    }

    /// Whether `m` is a legal move here (a pass never is: see [`crate::Game`]).
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_pass() || self.is_finished() {
            return false;
        }
        match self.board[m.from_sq().index()] {
            Some(p) if p.color == self.turn => self
                .piece_targets(p.color, p.role, m.from_sq())
                .contains(m.to_sq()),
            _ => false,
        }
    }

    /// Explains why `m` is not legal, or `None` if it is (the English text of
    /// [`Position::why_illegal`]).
    pub fn illegal_reason(&self, m: Move) -> Option<String> {
        self.why_illegal(m).map(|why| why.to_string())
    }

    /// Why `m` is not legal, or `None` if it is.
    pub fn why_illegal(&self, m: Move) -> Option<Illegal> {
        if m.is_pass() {
            return Some(Illegal::Pass);
        }
        if let Some(o) = self
            .outcome()
            .filter(|o| o.termination != Termination::NoMoves)
        {
            return Some(Illegal::GameOver(o));
        }
        let (from, to) = (m.from_sq(), m.to_sq());
        let Some(p) = self.board[from.index()] else {
            return Some(Illegal::NoAnimal { from });
        };
        if p.color != self.turn {
            return Some(Illegal::NotYourAnimal {
                role: p.role,
                from,
                owner: p.color,
                turn: self.turn,
            });
        }
        if self.piece_targets(p.color, p.role, from).contains(to) {
            return None;
        }
        // The jump across the river from `from` to `to`, if the animal is a jumper and there is
        // one (§4.4).
        let jump = if p.role.jumps() && !self.rules.no_rivers {
            JUMPS[from.index()].as_slice().iter().find(|j| j.to == to)
        } else {
            None
        };
        let cannot_reach = Illegal::CannotReach {
            role: p.role,
            from,
            to,
        };
        // The path before the landing square: a rat in the water blocks the jump whatever stands
        // beyond (§4.4); only a clear jump is refused for its landing square.
        let why = if !NEIGHBORS[from.index()].contains(to) && jump.is_none() {
            cannot_reach
        } else if Bitboard::den_of(p.color).contains(to) {
            Illegal::OwnDen
        } else if jump.is_some_and(|j| (j.over & self.jump_blockers(p.color)).any()) {
            Illegal::RatBlocksJump
        } else if self.board[to.index()].is_some_and(|q| q.color == p.color) {
            Illegal::OwnAnimal { to }
        } else if self.water().contains(to) && p.role != Role::Rat {
            Illegal::WaterOnlyRat
        } else if let Some(q) = self.board[to.index()] {
            Illegal::MayNotCapture {
                role: p.role,
                victim: q.role,
                to,
            }
        } else {
            cannot_reach
        };
        Some(why)
    }

    /// Plays a legal move, or explains why it is illegal (the position is then unchanged).
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if let Some(why) = self.why_illegal(m) {
            return Err(IllegalMove {
                mv: m,
                reason: why.to_string(),
                why,
            });
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays `m`, which the caller knows to be legal (the engine's fast path). Returns the
    /// captured animal, if any.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Option<Piece> {
        debug_assert!(
            self.is_legal(m),
            "illegal move {m} in {}",
            crate::Jfen::from_position(self)
        );
        let from = m.from_sq();
        let to = m.to_sq();
        let piece = self.board[from.index()].expect("a legal move moves an animal");
        let captured = self.board[to.index()];
        if let Some(c) = captured {
            self.take(to, c);
            self.halfmoves = 0;
        } else {
            // Saturating: a JFEN may carry any u32 counter, and play must never panic.
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.take(from, piece);
        self.put(to, piece);
        self.end_ply();
        #[cfg(debug_assertions)]
        self.assert_consistent();
        captured
    }

    /// Passes the turn (`--`), an online penalty only: the ply counts toward §6.4.
    pub fn pass(&mut self) {
        self.halfmoves = self.halfmoves.saturating_add(1);
        self.end_ply();
    }

    #[inline]
    fn end_ply(&mut self) {
        if self.turn == Color::Blue {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= SIDE_KEY;
    }

    /// The hash after `m` (without playing it).
    pub fn hash_after(&self, m: Move) -> u64 {
        let mut h = self.hash ^ SIDE_KEY;
        if m.is_pass() {
            return h;
        }
        let (from, to) = (m.from_sq(), m.to_sq());
        if let Some(p) = self.board[from.index()] {
            h ^= piece_key(p.index(), from.index()) ^ piece_key(p.index(), to.index());
        }
        if let Some(c) = self.board[to.index()] {
            h ^= piece_key(c.index(), to.index());
        }
        h
    }

    /// Whether `m` captures.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        !m.is_pass() && self.board[m.to_sq().index()].is_some()
    }

    /// Recomputes everything incremental and checks it against the board.
    pub fn assert_consistent(&self) {
        let mut h = if self.turn == Color::Blue {
            SIDE_KEY
        } else {
            0
        };
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_role = [Bitboard::EMPTY; 8];
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                h ^= piece_key(p.index(), sq.index());
                by_color[p.color.index()].add(sq);
                by_role[p.role.index()].add(sq);
            }
        }
        assert_eq!(h, self.hash, "incremental hash");
        assert_eq!(by_color, self.by_color, "colour bitboards");
        assert_eq!(by_role, self.by_role, "role bitboards");
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", crate::Jfen::from_position(self))
    }
}

impl fmt::Display for Position {
    /// A text diagram, rank 9 on top, like RULES §3.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..9).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..7 {
                let sq = Square::from_coords(file, rank).expect("on board");
                let c = match self.board[sq.index()] {
                    Some(p) => p.char(),
                    None if Bitboard::DENS.contains(sq) => '@',
                    None if Bitboard::TRAPS.contains(sq) => '#',
                    None if self.water().contains(sq) => '~',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g")?;
        write!(f, "{} to move", self.turn)
    }
}
