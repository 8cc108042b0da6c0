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
    /// Each problem (its `Display` says it in plain words).
    pub problems: Vec<PositionProblem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// One rule a [`Setup`] breaks (RULES §1–§3), with the facts that name it, so that programs can
/// say it in their own words ([`PositionProblem::code`], [`PositionProblem::params`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionProblem {
    /// A side has more than one animal of a kind, on these squares.
    Duplicate {
        /// The side.
        color: Color,
        /// The kind of animal.
        role: Role,
        /// Where they stand.
        squares: Vec<Square>,
    },
    /// An animal stands in its own den.
    OwnDen {
        /// The animal.
        piece: Piece,
        /// The den.
        square: Square,
    },
    /// An animal other than a rat stands in the water (rules with rivers).
    InWater {
        /// The animal.
        piece: Piece,
        /// The water square.
        square: Square,
    },
    /// There is no animal on the board.
    Empty,
    /// Both sides have already won (both dens entered, or each side alone on the board).
    BothWon,
    /// The move number is 0 (it starts at 1).
    MoveNumberZero,
}

impl PositionProblem {
    /// A stable name for the problem, for clients' message catalogues: `duplicate`, `own_den`,
    /// `in_water`, `empty`, `both_won`, `move_number_zero`.
    pub const fn code(&self) -> &'static str {
        match self {
            PositionProblem::Duplicate { .. } => "duplicate",
            PositionProblem::OwnDen { .. } => "own_den",
            PositionProblem::InWater { .. } => "in_water",
            PositionProblem::Empty => "empty",
            PositionProblem::BothWon => "both_won",
            PositionProblem::MoveNumberZero => "move_number_zero",
        }
    }

    /// The facts the problem names, as `(name, value)`, in the shapes of
    /// [`crate::Illegal::params`]: the side (`color`: `red`, `blue`), the animal by its letter
    /// (`animal`), a square (`square`), and squares with their count (`squares`: `a1, b2`; `n`).
    pub fn params(&self) -> Vec<(&'static str, String)> {
        match self {
            PositionProblem::Duplicate {
                color,
                role,
                squares,
            } => vec![
                ("color", color.to_string()),
                ("animal", role.letter().to_string()),
                ("n", squares.len().to_string()),
                ("squares", listed(squares)),
            ],
            PositionProblem::OwnDen { piece, square }
            | PositionProblem::InWater { piece, square } => {
                vec![
                    ("color", piece.color.to_string()),
                    ("animal", piece.role.letter().to_string()),
                    ("square", square.to_string()),
                ]
            }
            PositionProblem::Empty | PositionProblem::BothWon | PositionProblem::MoveNumberZero => {
                Vec::new()
            }
        }
    }
}

/// Squares as a list: `a1, b4`.
fn listed(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(Square::to_string).collect();
    names.join(", ")
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionProblem::Duplicate {
                color,
                role,
                squares,
            } => write!(
                f,
                "{} {} {}s ({}): each side has at most one animal of a kind",
                squares.len(),
                color_cap(*color),
                role.name(),
                listed(squares)
            ),
            PositionProblem::OwnDen { piece, square } => write!(
                f,
                "{} {} on {square}, its own den",
                color_cap(piece.color),
                piece.role.name()
            ),
            PositionProblem::InWater { piece, square } => write!(
                f,
                "{} {} on {square}, a water square (only rats swim)",
                color_cap(piece.color),
                piece.role.name()
            ),
            PositionProblem::Empty => f.write_str("the board is empty"),
            PositionProblem::BothWon => {
                f.write_str("both sides have already won (both dens entered)")
            }
            PositionProblem::MoveNumberZero => f.write_str("the move number must be at least 1"),
        }
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
                let squares: Vec<Square> = Square::all()
                    .filter(|s| self.board[s.index()] == Some(Piece::new(color, role)))
                    .collect();
                if squares.len() > 1 {
                    problems.push(PositionProblem::Duplicate {
                        color,
                        role,
                        squares,
                    });
                }
            }
        }
        for square in Square::all() {
            let Some(piece) = self.board[square.index()] else {
                continue;
            };
            if Bitboard::den_of(piece.color).contains(square) {
                problems.push(PositionProblem::OwnDen { piece, square });
            }
            if !rules.no_rivers && Bitboard::WATER.contains(square) && piece.role != Role::Rat {
                problems.push(PositionProblem::InWater { piece, square });
            }
        }
        let has = |c: Color| self.board.iter().flatten().any(|p| p.color == c);
        let in_den = |c: Color| {
            let den = Bitboard::den_of(!c).first().expect("one den");
            self.board[den.index()].is_some_and(|p| p.color == c)
        };
        let won = |c: Color| in_den(c) || (has(c) && !has(!c));
        if !has(Color::Red) && !has(Color::Blue) {
            problems.push(PositionProblem::Empty);
        } else if won(Color::Red) && won(Color::Blue) {
            problems.push(PositionProblem::BothWon);
        }
        if self.fullmoves == 0 {
            problems.push(PositionProblem::MoveNumberZero);
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
