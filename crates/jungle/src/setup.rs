//! Untrusted position data, validated into a [`Position`].

use crate::{Bitboard, Color, Piece, Position, Role, Rules, Square};
use std::fmt;

/// A position as given by a user or a file: not yet checked. RULES §1–§3, §10.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The animal on each square, indexed by square index.
    pub board: [Option<Piece>; 63],
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture (or since the start).
    pub halfmoves: u32,
    /// The move number, starting at 1, incremented after Blue's move.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup::start()
    }
}

/// Why a [`Setup`] is not a valid position: every problem found, not just the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError {
    /// Each problem, in plain words.
    pub problems: Vec<String>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position: {}", self.problems.join("; "))
    }
}

impl std::error::Error for PositionError {}

fn color_cap(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Blue => "Blue",
    }
}

impl Setup {
    /// An empty board, Red to move, counters `0 1`.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 63],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The start position of RULES §3.
    pub fn start() -> Setup {
        let mut s = Setup::empty();
        let red = [
            (Square::A1, Role::Tiger),
            (Square::G1, Role::Lion),
            (Square::B2, Role::Cat),
            (Square::F2, Role::Dog),
            (Square::A3, Role::Elephant),
            (Square::C3, Role::Wolf),
            (Square::E3, Role::Leopard),
            (Square::G3, Role::Rat),
        ];
        for (sq, role) in red {
            s.board[sq.index()] = Some(Piece::new(Color::Red, role));
            let turned = Square::new_unchecked(62 - sq.index() as u8);
            s.board[turned.index()] = Some(Piece::new(Color::Blue, role));
        }
        s
    }

    /// Checks every rule a position must obey and lists every problem found.
    pub fn validate(&self, rules: &Rules) -> Result<(), PositionError> {
        let mut problems = Vec::new();
        for color in Color::ALL {
            for role in Role::ALL {
                let squares: Vec<String> = Square::all()
                    .filter(|s| self.board[s.index()] == Some(Piece::new(color, role)))
                    .map(|s| s.to_string())
                    .collect();
                if squares.len() > 1 {
                    problems.push(format!(
                        "{} {} {}s ({}): each side has at most one animal of a kind",
                        squares.len(),
                        color_cap(color),
                        role.name(),
                        squares.join(", ")
                    ));
                }
            }
        }
        for sq in Square::all() {
            let Some(p) = self.board[sq.index()] else {
                continue;
            };
            if Bitboard::den_of(p.color).contains(sq) {
                problems.push(format!(
                    "{} {} on {}, its own den",
                    color_cap(p.color),
                    p.role.name(),
                    sq
                ));
            }
            if !rules.no_rivers && Bitboard::WATER.contains(sq) && p.role != Role::Rat {
                problems.push(format!(
                    "{} {} on {}, a water square (only rats swim)",
                    color_cap(p.color),
                    p.role.name(),
                    sq
                ));
            }
        }
        let has = |c: Color| self.board.iter().flatten().any(|p| p.color == c);
        let in_den = |c: Color| {
            let den = Bitboard::den_of(!c).first().expect("one den");
            self.board[den.index()].is_some_and(|p| p.color == c)
        };
        let won = |c: Color| in_den(c) || (has(c) && !has(!c));
        if !has(Color::Red) && !has(Color::Blue) {
            problems.push("the board is empty".to_string());
        } else if won(Color::Red) && won(Color::Blue) {
            problems.push("both sides have already won (both dens entered)".to_string());
        }
        if self.fullmoves == 0 {
            problems.push("the move number must be at least 1".to_string());
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(PositionError { problems })
        }
    }

    /// Validates this setup into a position under `rules`.
    pub fn to_position(&self, rules: Rules) -> Result<Position, PositionError> {
        Position::from_setup(self, rules)
    }
}
