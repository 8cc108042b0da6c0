//! The 63 squares.

use std::fmt;
use std::str::FromStr;

/// A square, `sq = (rank-1)*7 + file` (a1 = 0, g1 = 6, g9 = 62). RULES §1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

macro_rules! squares {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6,
    A2 = 7, B2 = 8, C2 = 9, D2 = 10, E2 = 11, F2 = 12, G2 = 13,
    A3 = 14, B3 = 15, C3 = 16, D3 = 17, E3 = 18, F3 = 19, G3 = 20,
    A4 = 21, B4 = 22, C4 = 23, D4 = 24, E4 = 25, F4 = 26, G4 = 27,
    A5 = 28, B5 = 29, C5 = 30, D5 = 31, E5 = 32, F5 = 33, G5 = 34,
    A6 = 35, B6 = 36, C6 = 37, D6 = 38, E6 = 39, F6 = 40, G6 = 41,
    A7 = 42, B7 = 43, C7 = 44, D7 = 45, E7 = 46, F7 = 47, G7 = 48,
    A8 = 49, B8 = 50, C8 = 51, D8 = 52, E8 = 53, F8 = 54, G8 = 55,
    A9 = 56, B9 = 57, C9 = 58, D9 = 59, E9 = 60, F9 = 61, G9 = 62,
}

/// Number of files (a–g).
pub const FILES: u8 = 7;
/// Number of ranks (1–9).
pub const RANKS: u8 = 9;

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 63;

    /// The square with index `i` (0–62).
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 63 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with index `i`; the caller guarantees `i < 63`.
    #[inline]
    pub const fn new_unchecked(i: u8) -> Square {
        debug_assert!(i < 63);
        Square(i)
    }

    /// The square on `file` (0 = a … 6 = g) and `rank` (0 = rank 1 … 8 = rank 9).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// All squares, a1 first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..63).map(Square)
    }

    /// The index 0–62.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) … 6 (g).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// The rank, 0 (rank 1) … 8 (rank 9).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The file letter `a`–`g`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit `1`–`9`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }

    /// Parses two ASCII bytes like `b"g3"` (case-insensitive).
    pub const fn from_ascii(s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        let f = s[0].to_ascii_lowercase();
        let r = s[1];
        if f < b'a' || f > b'g' || r < b'1' || r > b'9' {
            return None;
        }
        Square::from_coords(f - b'a', r - b'1')
    }

    /// Manhattan distance between two squares.
    pub const fn distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }
}

/// Error for a string that is not a square name `a1`…`g9`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid square `{}`: expected a file a-g and a rank 1-9, like g3",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError(s.to_string()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
