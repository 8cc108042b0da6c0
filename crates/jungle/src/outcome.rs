//! How a game ends by the rules (RULES §6).

use crate::Color;
use std::fmt;
use std::str::FromStr;

/// Why a game ended by the rules of RULES §6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// An animal entered the enemy den (入穴), §6.1.
    Den,
    /// The loser has no animals left (吃光), §6.2.
    Wipeout,
    /// The loser, to move, has no legal move (困毙), §6.3.
    NoMoves,
    /// Too many plies without a capture, §6.4: a draw.
    DrawPlies,
}

impl Termination {
    /// The reason as written by `jungle moves` and game records: `den`, `wipeout`, `no-moves`,
    /// `draw-plies`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Den => "den",
            Termination::Wipeout => "wipeout",
            Termination::NoMoves => "no-moves",
            Termination::DrawPlies => "draw-plies",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Termination {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "den" => Termination::Den,
            "wipeout" => Termination::Wipeout,
            "no-moves" => Termination::NoMoves,
            "draw-plies" => Termination::DrawPlies,
            _ => return Err(format!("unknown termination `{s}`")),
        })
    }
}

/// The end of a game: the winner (none for a draw) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
}

impl Outcome {
    /// The result as in a game record: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result_str(self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Blue) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    /// `red den`, `blue no-moves`, `draw draw-plies` (the `jungle moves` form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{} {}", c, self.termination),
            None => write!(f, "draw {}", self.termination),
        }
    }
}
