//! A coloured animal.

use crate::{Color, Role};
use std::fmt;

/// An animal of a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// 0–15: Red's animals 0–7, Blue's 8–15.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 8 + self.role.index()
    }

    /// The JFEN letter: uppercase for Red, lowercase for Blue.
    pub const fn char(self) -> char {
        match self.color {
            Color::Red => self.role.letter(),
            Color::Blue => self.role.letter().to_ascii_lowercase(),
        }
    }

    /// The piece of a JFEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_letter(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Blue
                },
                role,
            }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
