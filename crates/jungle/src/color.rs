//! The two sides.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// A side: Red (红方, ranks 1–3, moves first) or Blue (蓝方, ranks 7–9). RULES §1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Red, uppercase letters, starts at the bottom and moves first.
    Red = 0,
    /// Blue, lowercase letters, starts at the top.
    Blue = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Blue];

    /// 0 for Red, 1 for Blue.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase English name, `red` or `blue`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
        }
    }

    /// The JFEN character, `r` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Blue => 'b',
        }
    }

    /// The Chinese name, `红` or `蓝`.
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Blue => "蓝",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each colour, indexed by [`Color`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Blue's value.
    pub blue: T,
}

impl<T> ByColor<T> {
    /// Builds a value for each colour from a function.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            red: f(Color::Red),
            blue: f(Color::Blue),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Red => &mut self.red,
            Color::Blue => &mut self.blue,
        }
    }
}
