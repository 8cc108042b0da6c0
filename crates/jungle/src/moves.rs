//! Moves and move lists.

use crate::Square;
use std::fmt;

/// A move from one square to another, or a pass (`--`, only as an online penalty, RULES §4/§8.2).
///
/// Coordinate notation (`g3g4`, `--`) is its `Display`; parse it with [`crate::MoveText`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    to: u8,
}

impl Move {
    /// The pass, written `--`.
    pub const PASS: Move = Move { from: 63, to: 63 };

    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
        }
    }

    /// Whether this is the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.from == 63
    }

    /// The origin square (`None` for a pass).
    #[inline]
    pub const fn from(self) -> Option<Square> {
        Square::new(self.from)
    }

    /// The destination square (`None` for a pass).
    #[inline]
    pub const fn to(self) -> Option<Square> {
        Square::new(self.to)
    }

    /// The origin square; the caller knows this is not a pass.
    #[inline]
    pub const fn from_sq(self) -> Square {
        Square::new_unchecked(self.from)
    }

    /// The destination square; the caller knows this is not a pass.
    #[inline]
    pub const fn to_sq(self) -> Square {
        Square::new_unchecked(self.to)
    }

    /// A compact 16-bit form (for hash tables); `from_u16(to_u16(m)) == Some(m)`.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        (self.from as u16) << 8 | self.to as u16
    }

    /// The move of a 16-bit form, if valid.
    pub const fn from_u16(v: u16) -> Option<Move> {
        let from = (v >> 8) as u8;
        let to = (v & 0xff) as u8;
        if (from == 63 && to == 63) || (from < 63 && to < 63 && from != to) {
            Some(Move { from, to })
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("--")
        } else {
            write!(f, "{}{}", self.from_sq(), self.to_sq())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most moves one position can have (8 animals × 4 directions).
pub const MAX_MOVES: usize = 32;

/// A fixed-capacity list of moves, no allocation.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

/// Lists are equal when they hold the same moves in the same order.
impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether the list contains `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
