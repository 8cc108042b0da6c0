//! Why a move is not allowed, as data: clients show it in their own language (from a code and
//! named parameters), and its `Display` gives the English text.

use crate::{Color, Outcome, Role, Square};
use std::fmt;

/// Why a move is not allowed: in the position ([`Position::why_illegal`](crate::Position::why_illegal)),
/// by the game's history (§7, [`Game::why_illegal`](crate::Game::why_illegal)), or because a
/// written move does not fit the position ([`MoveText::to_move`](crate::MoveText::to_move)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// A pass (`--`) is an online penalty, not a move of the rules.
    Pass,
    /// The game has ended.
    GameOver(Outcome),
    /// No animal stands on the move's first square.
    NoAnimal {
        /// The square.
        from: Square,
    },
    /// The animal belongs to the side not to move.
    NotYourAnimal {
        /// The animal.
        role: Role,
        /// Where it stands.
        from: Square,
        /// Its side.
        owner: Color,
        /// The side to move.
        turn: Color,
    },
    /// The square is not one step away (nor across the river for a jumper).
    CannotReach {
        /// The animal.
        role: Role,
        /// Where it stands.
        from: Square,
        /// Where it was sent.
        to: Square,
    },
    /// No animal enters its own den (§4.2).
    OwnDen,
    /// An animal of the same side stands there.
    OwnAnimal {
        /// The square.
        to: Square,
    },
    /// Only the Rat swims (§4.3).
    WaterOnlyRat,
    /// The animal may not capture that one (a trap, the Rat and water, the Rat and the Elephant,
    /// rank: §5).
    MayNotCapture {
        /// The capturing animal.
        role: Role,
        /// The animal it would take.
        victim: Role,
        /// Where that one stands.
        to: Square,
    },
    /// A Rat in the water blocks the Lion's or Tiger's jump (§4.4).
    RatBlocksJump,
    /// §7.1: the animal entered the square three times in its side's last seven moves.
    Rule73 {
        /// The animal.
        role: Role,
        /// The square.
        to: Square,
        /// How often it entered it in the window.
        times: u32,
    },
    /// §7.2: the animal made its side's last seventeen moves within five squares.
    Rule175 {
        /// The animal.
        role: Role,
        /// How many squares its moves covered.
        squares: u32,
    },
    /// §7.3: the move would repeat a position a fourth time, by the side that began the cycle.
    Repetition,
    /// A SAN-like move names an animal the side does not have.
    NoSuchAnimal {
        /// The side to move.
        color: Color,
        /// The animal named.
        role: Role,
    },
    /// A move written with `x` goes to an empty square.
    NotACapture {
        /// The square.
        to: Square,
    },
    /// A move written with `#` does not go to the enemy den.
    NotTheDen {
        /// The square.
        to: Square,
    },
}

impl Illegal {
    /// A stable name for the reason, for clients' message catalogues: `cannot_reach`,
    /// `rule_7_3`, … (the web catalogue's entry is `why_` followed by it).
    pub const fn code(&self) -> &'static str {
        match self {
            Illegal::Pass => "pass",
            Illegal::GameOver(_) => "game_over",
            Illegal::NoAnimal { .. } => "no_animal",
            Illegal::NotYourAnimal { .. } => "not_your_animal",
            Illegal::CannotReach { .. } => "cannot_reach",
            Illegal::OwnDen => "own_den",
            Illegal::OwnAnimal { .. } => "own_animal",
            Illegal::WaterOnlyRat => "water_only_rat",
            Illegal::MayNotCapture { .. } => "may_not_capture",
            Illegal::RatBlocksJump => "rat_blocks_jump",
            Illegal::Rule73 { .. } => "rule_7_3",
            Illegal::Rule175 { .. } => "rule_17_5",
            Illegal::Repetition => "repetition",
            Illegal::NoSuchAnimal { .. } => "no_such_animal",
            Illegal::NotACapture { .. } => "not_a_capture",
            Illegal::NotTheDen { .. } => "not_the_den",
        }
    }

    /// The facts the reason names, as `(name, value)`: animals by their letter (`animal`,
    /// `victim`: `R`, `E`, …), squares (`from`, `to`: `c4`), sides (`owner`, `turn`, `color`:
    /// `red`, `blue`) and counts (`times`, `n`).
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let letter = |r: &Role| r.letter().to_string();
        match self {
            Illegal::Pass
            | Illegal::GameOver(_)
            | Illegal::OwnDen
            | Illegal::WaterOnlyRat
            | Illegal::RatBlocksJump
            | Illegal::Repetition => Vec::new(),
            Illegal::NoAnimal { from } => vec![("from", from.to_string())],
            Illegal::NotYourAnimal {
                role,
                from,
                owner,
                turn,
            } => vec![
                ("animal", letter(role)),
                ("from", from.to_string()),
                ("owner", owner.to_string()),
                ("turn", turn.to_string()),
            ],
            Illegal::CannotReach { role, from, to } => vec![
                ("animal", letter(role)),
                ("from", from.to_string()),
                ("to", to.to_string()),
            ],
            Illegal::OwnAnimal { to } | Illegal::NotACapture { to } | Illegal::NotTheDen { to } => {
                vec![("to", to.to_string())]
            }
            Illegal::MayNotCapture { role, victim, to } => vec![
                ("animal", letter(role)),
                ("victim", letter(victim)),
                ("to", to.to_string()),
            ],
            Illegal::Rule73 { role, to, times } => vec![
                ("animal", letter(role)),
                ("to", to.to_string()),
                ("times", times.to_string()),
            ],
            Illegal::Rule175 { role, squares } => {
                vec![("animal", letter(role)), ("n", squares.to_string())]
            }
            Illegal::NoSuchAnimal { color, role } => {
                vec![("color", color.to_string()), ("animal", letter(role))]
            }
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::Pass => f.write_str("a pass is not a move of the rules (only an online penalty)"),
            Illegal::GameOver(o) => write!(f, "the game is over ({o})"),
            Illegal::NoAnimal { from } => write!(f, "there is no animal on {from}"),
            Illegal::NotYourAnimal {
                role,
                from,
                owner,
                turn,
            } => write!(f, "the {role} on {from} is {owner}'s, and it is {turn}'s turn"),
            Illegal::CannotReach { role, from, to } => {
                write!(f, "the {role} on {from} cannot reach {to}")
            }
            Illegal::OwnDen => f.write_str("no animal may enter its own den"),
            Illegal::OwnAnimal { to } => write!(f, "{to} holds an own animal"),
            Illegal::WaterOnlyRat => f.write_str("only the rat may enter water"),
            Illegal::MayNotCapture { role, victim, to } => {
                write!(f, "the {role} may not capture the {victim} on {to}")
            }
            Illegal::RatBlocksJump => f.write_str("a rat in the water blocks the jump"),
            Illegal::Rule73 { role, to, times } => write!(
                f,
                "the 7-3 rule: the {role} entered {to} {times} times in its side's last 7 moves"
            ),
            Illegal::Rule175 { role, squares } => write!(
                f,
                "the 17-5 rule: the {role} made its side's last 17 moves within {squares} squares"
            ),
            Illegal::Repetition => f.write_str(
                "the repetition rule: this would repeat the position a 4th time, and you started the cycle",
            ),
            Illegal::NoSuchAnimal { color, role } => {
                write!(f, "{color} has no {role} on the board")
            }
            Illegal::NotACapture { to } => write!(f, "`x` marks a capture, but {to} is empty"),
            Illegal::NotTheDen { to } => {
                write!(f, "`#` marks a den entry, but {to} is not the enemy den")
            }
        }
    }
}
