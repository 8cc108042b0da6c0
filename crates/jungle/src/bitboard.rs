//! A set of squares as the low 63 bits of a `u64`, with the fixed terrain as named constants and
//! the step and jump tables built at compile time.

use crate::{Color, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` is square index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

const fn bb(squares: &[Square]) -> Bitboard {
    let mut b = 0u64;
    let mut i = 0;
    while i < squares.len() {
        b |= 1u64 << squares[i].index();
        i += 1;
    }
    Bitboard(b)
}

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 63 squares.
    pub const ALL: Bitboard = Bitboard((1u64 << 63) - 1);
    /// The two rivers (小河): b4 c4 b5 c5 b6 c6 and e4 f4 e5 f5 e6 f6. RULES §1.
    pub const WATER: Bitboard = bb(&[
        Square::B4,
        Square::C4,
        Square::B5,
        Square::C5,
        Square::B6,
        Square::C6,
        Square::E4,
        Square::F4,
        Square::E5,
        Square::F5,
        Square::E6,
        Square::F6,
    ]);
    /// Red's traps c1 e1 d2 (around Red's den).
    pub const RED_TRAPS: Bitboard = bb(&[Square::C1, Square::E1, Square::D2]);
    /// Blue's traps c9 e9 d8 (around Blue's den).
    pub const BLUE_TRAPS: Bitboard = bb(&[Square::C9, Square::E9, Square::D8]);
    /// All six traps (陷阱).
    pub const TRAPS: Bitboard = Bitboard(Self::RED_TRAPS.0 | Self::BLUE_TRAPS.0);
    /// Red's den d1.
    pub const RED_DEN: Bitboard = bb(&[Square::D1]);
    /// Blue's den d9.
    pub const BLUE_DEN: Bitboard = bb(&[Square::D9]);
    /// Both dens (兽穴).
    pub const DENS: Bitboard = Bitboard(Self::RED_DEN.0 | Self::BLUE_DEN.0);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// The traps around `color`'s own den.
    #[inline]
    pub const fn traps_of(color: Color) -> Bitboard {
        match color {
            Color::Red => Self::RED_TRAPS,
            Color::Blue => Self::BLUE_TRAPS,
        }
    }

    /// `color`'s own den.
    #[inline]
    pub const fn den_of(color: Color) -> Bitboard {
        match color {
            Color::Red => Self::RED_DEN,
            Color::Blue => Self::BLUE_DEN,
        }
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1u64 << sq.index()) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether there are two squares or more (cheaper than [`Bitboard::count`] where the CPU
    /// has no population-count instruction, as on the x86-64 baseline).
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The number of squares, counted up to `cap` at most (cheap for a small `cap`).
    #[inline]
    pub const fn count_up_to(self, cap: u32) -> u32 {
        let mut bits = self.0;
        let mut n = 0;
        while bits != 0 && n < cap {
            bits &= bits - 1;
            n += 1;
        }
        n
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Adds `sq`.
    #[inline]
    pub fn add(&mut self, sq: Square) {
        self.0 |= 1u64 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1u64 << sq.index());
    }

    /// Adds `sq` if absent, removes it if present.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u64 << sq.index();
    }

    /// The orthogonal neighbours of `sq` on the board.
    #[inline]
    pub const fn neighbors(sq: Square) -> Bitboard {
        NEIGHBORS[sq.index()]
    }

    /// Every square orthogonally next to a square of the set (the union of their
    /// [`NEIGHBORS`]), by four shifts: a set's own squares are in it only where two of them
    /// are neighbours.
    #[inline]
    pub const fn neighbors_of_all(self) -> Bitboard {
        const FILE_A: u64 = 0x0102_0408_1020_4081;
        const FILE_G: u64 = FILE_A << 6;
        let b = self.0;
        Bitboard(((b << 7) | (b >> 7) | ((b & !FILE_G) << 1) | ((b & !FILE_A) >> 1)) & Self::ALL.0)
    }
}

const fn compute_neighbors() -> [Bitboard; 63] {
    let mut t = [Bitboard::EMPTY; 63];
    let mut i = 0;
    while i < 63 {
        let s = Square::new_unchecked(i as u8);
        let f = s.file();
        let r = s.rank();
        let mut b = 0u64;
        if f > 0 {
            b |= 1 << (i - 1);
        }
        if f < 6 {
            b |= 1 << (i + 1);
        }
        if r > 0 {
            b |= 1 << (i - 7);
        }
        if r < 8 {
            b |= 1 << (i + 7);
        }
        t[i] = Bitboard(b);
        i += 1;
    }
    t
}

/// Orthogonal neighbours of each square.
pub const NEIGHBORS: [Bitboard; 63] = compute_neighbors();

/// A river jump: where it lands and the water squares it crosses. RULES §4.4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    /// The landing square, the first land square beyond the river.
    pub to: Square,
    /// The water squares jumped over; a rat on any of them may block the jump.
    pub over: Bitboard,
}

/// Up to four river jumps from one square.
#[derive(Debug, Clone, Copy)]
pub struct Jumps {
    /// The jumps; only the first `len` are valid.
    pub jumps: [Jump; 4],
    /// How many jumps there are.
    pub len: u8,
}

impl Jumps {
    /// The valid jumps.
    #[inline]
    pub fn as_slice(&self) -> &[Jump] {
        &self.jumps[..self.len as usize]
    }
}

const fn compute_jumps() -> [Jumps; 63] {
    let empty = Jump {
        to: Square::A1,
        over: Bitboard::EMPTY,
    };
    let mut t = [Jumps {
        jumps: [empty; 4],
        len: 0,
    }; 63];
    let dirs: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut i = 0;
    while i < 63 {
        let s = Square::new_unchecked(i as u8);
        if !Bitboard::WATER.contains(s) {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = dirs[d];
                let mut f = s.file() as i8 + df;
                let mut r = s.rank() as i8 + dr;
                let mut over = 0u64;
                while f >= 0 && f < 7 && r >= 0 && r < 9 {
                    let sq = Square::new_unchecked((r * 7 + f) as u8);
                    if !Bitboard::WATER.contains(sq) {
                        break;
                    }
                    over |= 1u64 << sq.index();
                    f += df;
                    r += dr;
                }
                if over != 0 && f >= 0 && f < 7 && r >= 0 && r < 9 {
                    let n = t[i].len as usize;
                    t[i].jumps[n] = Jump {
                        to: Square::new_unchecked((r * 7 + f) as u8),
                        over: Bitboard(over),
                    };
                    t[i].len += 1;
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
}

/// River jumps from each land square (the standard board).
pub const JUMPS: [Jumps; 63] = compute_jumps();

const fn compute_reach() -> [Bitboard; 63] {
    let mut t = [Bitboard::EMPTY; 63];
    let mut i = 0;
    while i < 63 {
        let mut b = NEIGHBORS[i].0;
        let mut j = 0;
        while j < JUMPS[i].len as usize {
            b |= 1u64 << JUMPS[i].jumps[j].to.index();
            j += 1;
        }
        t[i] = Bitboard(b);
        i += 1;
    }
    t
}

/// Every square an animal on each square could ever move to in one move: its neighbours and its
/// river-jump landings. A cheap test before asking [`crate::Position::targets`] whether an animal
/// can reach a set of squares at all. Symmetric: `b` is in `REACH[a]` exactly when `a` is in
/// `REACH[b]` (steps and jumps go both ways).
pub const REACH: [Bitboard; 63] = compute_reach();

/// Iterates over the squares of a bitboard, lowest first.
#[derive(Debug, Clone)]
pub struct IntoIter(u64);

impl Iterator for IntoIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square::new_unchecked(i as u8))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for IntoIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = IntoIter;
    #[inline]
    fn into_iter(self) -> IntoIter {
        IntoIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut b = Bitboard::EMPTY;
        for s in iter {
            b.add(s);
        }
        b
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..9).rev() {
            for file in 0..7 {
                let s = Square::from_coords(file, rank).expect("on board");
                f.write_str(if self.contains(s) { "1" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_is_the_neighbours_and_the_jump_landings() {
        assert_eq!(REACH[Square::A1.index()], bb(&[Square::A2, Square::B1]));
        // b3 is on the bank of the western river: it jumps over b4..b6 to b7.
        assert_eq!(
            REACH[Square::B3.index()],
            bb(&[Square::B2, Square::A3, Square::C3, Square::B4, Square::B7])
        );
        // d5 jumps both rivers sideways.
        assert_eq!(
            REACH[Square::D5.index()],
            bb(&[
                Square::D4,
                Square::D6,
                Square::C5,
                Square::E5,
                Square::A5,
                Square::G5
            ])
        );
    }

    #[test]
    fn neighbors_of_all_is_the_union_of_the_neighbour_table() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Sparse and dense sets alike, edges and corners included.
            let set = Bitboard(seed & (seed >> 3) & Bitboard::ALL.0);
            let mut union = Bitboard::EMPTY;
            for sq in set {
                union |= NEIGHBORS[sq.index()];
            }
            assert_eq!(set.neighbors_of_all(), union, "{:#x}", set.0);
        }
        assert_eq!(Bitboard::ALL.neighbors_of_all(), Bitboard::ALL);
        // No step wraps from the g-file to the a-file of the next rank or back.
        assert_eq!(
            bb(&[Square::G1]).neighbors_of_all(),
            bb(&[Square::F1, Square::G2])
        );
        assert_eq!(
            bb(&[Square::A2]).neighbors_of_all(),
            bb(&[Square::A1, Square::A3, Square::B2])
        );
    }

    #[test]
    fn reach_is_symmetric() {
        for a in Square::all() {
            for b in REACH[a.index()] {
                assert!(REACH[b.index()].contains(a), "{a} reaches {b} but not back");
            }
        }
    }

    #[test]
    fn small_counts_agree_with_the_full_count() {
        for bits in [0u64, 1, 2, 3, 0b1011, 1 << 62, (1 << 62) | 1, (1 << 63) - 1] {
            let b = Bitboard(bits);
            assert_eq!(b.more_than_one(), b.count() >= 2, "{bits:#x}");
            for cap in 0..5 {
                assert_eq!(
                    b.count_up_to(cap),
                    b.count().min(cap),
                    "{bits:#x} cap {cap}"
                );
            }
        }
    }
}
