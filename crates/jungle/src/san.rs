//! Move notation: coordinates for programs (`g3g4`, `--`) and the SAN-like form for people
//! (`Rg4`, `Lxd5`, `Ed9#`, Chinese `鼠g4`). RULES §10.

use crate::{Bitboard, Illegal, Move, Piece, Position, Role, Square};
use std::fmt;
use std::str::FromStr;

/// A move as written, before it is checked against a position.
///
/// ```
/// use jungle::{MoveText, Position};
/// let pos = Position::default();
/// let m = "Rg4".parse::<MoveText>().unwrap().to_move(&pos).unwrap();
/// assert_eq!(m.to_string(), "g3g4");
/// assert_eq!("G3G4".parse::<MoveText>().unwrap().to_move(&pos).unwrap(), m);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// Coordinate notation, `g3g4`.
    Coord {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// The pass `--`.
    Pass,
    /// The SAN-like form `Lxd5`, `Ed9#`, `鼠g4`.
    San {
        /// The moving animal.
        role: Role,
        /// Whether `x` was written.
        capture: bool,
        /// Destination.
        to: Square,
        /// Whether `#` (den entry) was written.
        den: bool,
    },
}

/// A move that could not be read: what and where (character position, 0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The text given.
    pub text: String,
    /// Character position of the fault.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read move `{}` (at character {}): {}",
            self.text,
            self.position + 1,
            self.message
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// A well-formed move that does not fit the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// The move as written.
    pub text: String,
    /// Why it does not fit (the English text of [`MoveError::why`]).
    pub reason: String,
    /// Why it does not fit, as data.
    pub why: Illegal,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move `{}`: {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<MoveText, ParseMoveError> {
        let text = s.trim();
        let e = |position: usize, message: &str| ParseMoveError {
            text: text.to_string(),
            position,
            message: message.to_string(),
        };
        if text == "--" {
            return Ok(MoveText::Pass);
        }
        if text.is_empty() {
            return Err(e(0, "empty move"));
        }
        let chars: Vec<char> = text.chars().collect();
        if chars.len() > 8 {
            return Err(e(8, "too long for a move"));
        }
        let first = chars[0];
        let role =
            Role::from_chinese(first).or(if first.is_ascii_alphabetic() && chars.len() >= 3 {
                Role::from_letter(first)
                    .filter(|_| !(chars.len() == 4 && chars[1].is_ascii_digit()))
            } else {
                None
            });
        match role {
            None => {
                // Coordinate notation.
                if chars.len() != 4 {
                    return Err(e(
                        0,
                        "expected coordinates like g3g4, an animal move like Rg4, or -- for a pass",
                    ));
                }
                let sq = |i: usize| -> Result<Square, ParseMoveError> {
                    let part: String = chars[i..i + 2].iter().collect();
                    Square::from_ascii(part.as_bytes())
                        .ok_or_else(|| e(i, &format!("`{part}` is not a square (a1-g9)")))
                };
                let from = sq(0)?;
                let to = sq(2)?;
                if from == to {
                    return Err(e(2, "a move must change squares"));
                }
                Ok(MoveText::Coord { from, to })
            }
            Some(role) => {
                let mut i = 1;
                let capture = matches!(chars.get(i), Some('x' | 'X' | ':'));
                if capture {
                    i += 1;
                }
                if chars.len() < i + 2 {
                    return Err(e(i, "expected a destination square after the animal"));
                }
                let part: String = chars[i..i + 2].iter().collect();
                let to = Square::from_ascii(part.as_bytes())
                    .ok_or_else(|| e(i, &format!("`{part}` is not a square (a1-g9)")))?;
                i += 2;
                let den = matches!(chars.get(i), Some('#'));
                if den {
                    i += 1;
                }
                if i != chars.len() {
                    return Err(e(i, "unexpected characters after the move"));
                }
                Ok(MoveText::San {
                    role,
                    capture,
                    to,
                    den,
                })
            }
        }
    }
}

impl MoveText {
    /// Resolves the text to a legal move of `pos` (a pass is accepted here; whether it may be
    /// played is the game's business).
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveError> {
        let fail = |why: Illegal| MoveError {
            text: self.to_string(),
            reason: why.to_string(),
            why,
        };
        let m = match *self {
            MoveText::Pass => return Ok(Move::PASS),
            MoveText::Coord { from, to } => Move::new(from, to),
            MoveText::San {
                role,
                capture,
                to,
                den,
            } => {
                let piece = Piece::new(pos.turn(), role);
                let Some(from) = pos.square_of(piece) else {
                    return Err(fail(Illegal::NoSuchAnimal {
                        color: pos.turn(),
                        role,
                    }));
                };
                let m = Move::new(from, to);
                if capture && pos.piece_at(to).is_none() {
                    return Err(fail(Illegal::NotACapture { to }));
                }
                if den && !Bitboard::den_of(!pos.turn()).contains(to) {
                    return Err(fail(Illegal::NotTheDen { to }));
                }
                m
            }
        };
        match pos.why_illegal(m) {
            None => Ok(m),
            Some(why) => Err(fail(why)),
        }
    }
}

impl MoveText {
    /// Writes the text with `animal` standing for the moving animal of a SAN-like move.
    fn write_with(&self, f: &mut impl fmt::Write, animal: impl Fn(Role) -> char) -> fmt::Result {
        match *self {
            MoveText::Pass => f.write_str("--"),
            MoveText::Coord { from, to } => write!(f, "{from}{to}"),
            MoveText::San {
                role,
                capture,
                to,
                den,
            } => {
                let x = if capture { "x" } else { "" };
                let mark = if den { "#" } else { "" };
                write!(f, "{}{x}{to}{mark}", animal(role))
            }
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_with(f, Role::letter)
    }
}

/// The SAN-like form of a move in a position: `Rg4`, `Lxd5`, `Ed9#`, `--`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct San(pub MoveText);

impl San {
    /// The SAN of `m` (legal or a pass) in `pos`.
    pub fn from_move(pos: &Position, m: Move) -> San {
        if m.is_pass() {
            return San(MoveText::Pass);
        }
        let role = pos.piece_at(m.from_sq()).map_or(Role::Rat, |p| p.role);
        let mover = pos.piece_at(m.from_sq()).map_or(pos.turn(), |p| p.color);
        San(MoveText::San {
            role,
            capture: pos.piece_at(m.to_sq()).is_some(),
            to: m.to_sq(),
            den: Bitboard::den_of(!mover).contains(m.to_sq()),
        })
    }

    /// The Chinese display: the animal's character instead of its letter, `狮xd5`.
    pub fn chinese(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = self.0.write_with(&mut text, Role::chinese);
        text
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
