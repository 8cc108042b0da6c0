//! The rules of Jungle (Dou Shou Qi, 斗兽棋) as specified in the project's `RULES.md`:
//! the board and its terrain, the eight animals, legal moves with swimming, jumps, traps and
//! dens, the end of the game, the anti-abuse rules 7-3 and 17-5, the named rule deviations, and
//! the notations (JFEN, coordinate and SAN-like moves, game records), plus perft.
//!
//! ```
//! use jungle::{perft, Game, Jfen, MoveText, Position, Rules};
//! let pos = Position::start(Rules::STANDARD);
//! assert_eq!(pos.legal_moves().len(), 24);
//! assert_eq!(perft(&pos, 3), 12_240);
//! let mut game = Game::from_position(pos);
//! let m = "Rg4".parse::<MoveText>().unwrap().to_move(game.position()).unwrap();
//! game.play(m).unwrap();
//! assert_eq!(Jfen::from_position(game.position()).to_string(),
//!            "l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b 1 1");
//! ```
#![forbid(unsafe_code)]

mod bitboard;
mod color;
mod game;
mod illegal;
mod jfen;
mod moves;
mod outcome;
mod perft;
mod piece;
mod position;
mod record;
mod role;
mod rules;
mod san;
mod setup;
mod square;
mod zobrist;

pub use bitboard::{Bitboard, Jump, Jumps, JUMPS, NEIGHBORS, REACH};
pub use color::{ByColor, Color};
pub use game::{Game, GameError, Ply};
pub use illegal::Illegal;
pub use jfen::{Jfen, JfenError, JfenField, JfenSyntax, ParseJfenError, MAX_JFEN_LEN, START_JFEN};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use outcome::{Outcome, Termination};
pub use perft::{perft, perft_divide};
pub use piece::Piece;
pub use position::{IllegalMove, Position};
pub use record::{GameRecord, ParseRecordError, ParseRecordErrorKind, RecordError};
pub use role::{ByRole, Role};
pub use rules::{ParseRulesError, Rules};
pub use san::{MoveError, MoveText, ParseMoveError, San};
pub use setup::{PositionError, PositionProblem, Setup};
pub use square::{ParseSquareError, Square, FILES, RANKS};
