//! JFEN, the FEN-like position notation of RULES §10.

use crate::{Color, Piece, Position, PositionError, Rules, Setup, Square};
use std::fmt;
use std::str::FromStr;

/// The JFEN of the start position.
pub const START_JFEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1";

/// A syntactically valid JFEN: a [`Setup`] not yet checked against the rules.
///
/// ```
/// use jungle::{Jfen, Rules, START_JFEN};
/// let jfen: Jfen = START_JFEN.parse().unwrap();
/// let pos = jfen.to_position(Rules::STANDARD).unwrap();
/// assert_eq!(Jfen::from_position(&pos).to_string(), START_JFEN);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Jfen(pub Setup);

/// The part of a JFEN an error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JfenField {
    /// The board (first field).
    Board,
    /// The side to move (second field).
    Turn,
    /// The plies since the last capture (third field).
    Halfmoves,
    /// The move number (fourth field).
    Fullmoves,
    /// The text as a whole (missing or extra fields).
    Whole,
}

impl fmt::Display for JfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JfenField::Board => "board",
            JfenField::Turn => "side to move",
            JfenField::Halfmoves => "plies since capture",
            JfenField::Fullmoves => "move number",
            JfenField::Whole => "whole text",
        })
    }
}

/// A JFEN syntax error: the field and the character position (0-based, in chars) at fault, and
/// what is wrong there as data ([`ParseJfenError::code`], [`ParseJfenError::params`]), so that
/// programs can say it in their own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseJfenError {
    /// The field at fault.
    pub field: JfenField,
    /// The character offset in the whole text.
    pub position: usize,
    /// What is wrong.
    pub kind: JfenSyntax,
}

/// What makes a text not JFEN (RULES §10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JfenSyntax {
    /// Longer than [`MAX_JFEN_LEN`] bytes.
    TooLong,
    /// Nothing but spaces.
    Empty,
    /// Only the board: the side to move is missing.
    MissingTurn,
    /// Three fields: one counter without the other.
    MissingMoveNumber,
    /// A fifth field.
    ExtraField {
        /// The field's text.
        text: String,
    },
    /// Not 9 ranks.
    Ranks {
        /// How many ranks the board has.
        n: usize,
    },
    /// A rank with fewer than 7 squares.
    RankShort {
        /// The rank, 1 to 9.
        rank: u8,
        /// How many squares it has.
        squares: u8,
    },
    /// A rank with more than 7 squares.
    RankLong {
        /// The rank, 1 to 9.
        rank: u8,
    },
    /// A character that is neither an animal letter, a digit 1-7 nor `/`.
    Char {
        /// The character.
        ch: char,
        /// The rank it is on, 1 to 9.
        rank: u8,
    },
    /// A side to move that is not `r`, `b` or `w`.
    Turn {
        /// The field's text.
        found: String,
    },
    /// A counter that is not a whole number.
    Counter {
        /// The field's text.
        found: String,
    },
    /// The move number is 0.
    MoveNumberZero,
}

/// The longest text read as a JFEN, in bytes.
pub const MAX_JFEN_LEN: usize = 256;

impl JfenSyntax {
    /// A stable name for what is wrong, for clients' message catalogues: `too_long`, `fields`
    /// (empty, missing or extra fields), `ranks`, `rank_files` (a rank short or long), `char`,
    /// `turn`, `counters`, `move_number_zero`.
    pub const fn code(&self) -> &'static str {
        match self {
            JfenSyntax::TooLong => "too_long",
            JfenSyntax::Empty
            | JfenSyntax::MissingTurn
            | JfenSyntax::MissingMoveNumber
            | JfenSyntax::ExtraField { .. } => "fields",
            JfenSyntax::Ranks { .. } => "ranks",
            JfenSyntax::RankShort { .. } | JfenSyntax::RankLong { .. } => "rank_files",
            JfenSyntax::Char { .. } => "char",
            JfenSyntax::Turn { .. } => "turn",
            JfenSyntax::Counter { .. } => "counters",
            JfenSyntax::MoveNumberZero => "move_number_zero",
        }
    }

    /// The facts that go with [`JfenSyntax::code`], as strings: `max` (bytes, `too_long`), `n`
    /// (ranks), `rank` (1 to 9), `ch` (the character), `found` (the side to move as written).
    pub fn params(&self) -> Vec<(&'static str, String)> {
        match self {
            JfenSyntax::TooLong => vec![("max", MAX_JFEN_LEN.to_string())],
            JfenSyntax::Ranks { n } => vec![("n", n.to_string())],
            JfenSyntax::RankShort { rank, .. } | JfenSyntax::RankLong { rank } => {
                vec![("rank", rank.to_string())]
            }
            JfenSyntax::Char { ch, rank } => {
                vec![("ch", ch.to_string()), ("rank", rank.to_string())]
            }
            JfenSyntax::Turn { found } => vec![("found", found.clone())],
            JfenSyntax::Empty
            | JfenSyntax::MissingTurn
            | JfenSyntax::MissingMoveNumber
            | JfenSyntax::ExtraField { .. }
            | JfenSyntax::Counter { .. }
            | JfenSyntax::MoveNumberZero => Vec::new(),
        }
    }
}

impl fmt::Display for JfenSyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JfenSyntax::TooLong => write!(f, "too long to be a JFEN (over {MAX_JFEN_LEN} bytes)"),
            JfenSyntax::Empty => f.write_str("empty JFEN"),
            JfenSyntax::MissingTurn => f.write_str("missing the side to move (`r` or `b`)"),
            JfenSyntax::MissingMoveNumber => {
                f.write_str("missing the move number (give both counters or neither)")
            }
            JfenSyntax::ExtraField { text } => write!(f, "unexpected extra field `{text}`"),
            JfenSyntax::Ranks { n } => write!(f, "{n} ranks, expected 9"),
            JfenSyntax::RankShort { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected 7")
            }
            JfenSyntax::RankLong { rank } => write!(f, "rank {rank} has more than 7 squares"),
            JfenSyntax::Char { ch, .. } => write!(
                f,
                "unexpected `{ch}`: expected an animal letter (ELTPDWCR, uppercase Red, lowercase Blue), a digit 1-7 or `/`"
            ),
            JfenSyntax::Turn { found } => {
                write!(f, "expected `r` or `b` (or `w` for Red), found `{found}`")
            }
            JfenSyntax::Counter { found } => write!(f, "expected a whole number, found `{found}`"),
            JfenSyntax::MoveNumberZero => f.write_str("the move number starts at 1"),
        }
    }
}

impl ParseJfenError {
    /// [`JfenSyntax::code`] of what is wrong.
    pub const fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// [`JfenSyntax::params`] of what is wrong.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        self.kind.params()
    }
}

/// `invalid JFEN (board field, at character 4): 2 ranks, expected 9`; an error in the text as
/// a whole names no field: `invalid JFEN (at character 1): empty JFEN`.
impl fmt::Display for ParseJfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid JFEN (")?;
        if self.field != JfenField::Whole {
            write!(f, "{} field, ", self.field)?;
        }
        write!(f, "at character {}): {}", self.position + 1, self.kind)
    }
}

impl std::error::Error for ParseJfenError {}

/// A JFEN that is well-formed but not a valid position (see [`PositionError`]), or malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JfenError {
    /// The text is not JFEN.
    Syntax(ParseJfenError),
    /// The text is JFEN, but not a valid position.
    Position(PositionError),
}

impl fmt::Display for JfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JfenError::Syntax(e) => e.fmt(f),
            JfenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for JfenError {}

impl From<ParseJfenError> for JfenError {
    fn from(e: ParseJfenError) -> Self {
        JfenError::Syntax(e)
    }
}

impl From<PositionError> for JfenError {
    fn from(e: PositionError) -> Self {
        JfenError::Position(e)
    }
}

impl Jfen {
    /// The JFEN of a position.
    pub fn from_position(pos: &Position) -> Jfen {
        Jfen(pos.to_setup())
    }

    /// Validates into a position under `rules`.
    pub fn to_position(&self, rules: Rules) -> Result<Position, PositionError> {
        Position::from_setup(&self.0, rules)
    }

    /// Parses and validates in one step.
    pub fn parse_position(text: &str, rules: Rules) -> Result<Position, JfenError> {
        Ok(text.parse::<Jfen>()?.to_position(rules)?)
    }
}

fn err(field: JfenField, position: usize, kind: JfenSyntax) -> ParseJfenError {
    ParseJfenError {
        field,
        position,
        kind,
    }
}

/// The squares of a JFEN's board field, which starts at character `board_pos`.
fn read_board((board_pos, board): (usize, &str)) -> Result<[Option<Piece>; 63], ParseJfenError> {
    let mut cells = [None; 63];
    let ranks = board.split('/').count();
    let mut rank: i32 = 8;
    let mut file: u8 = 0;
    for (i, ch) in board.chars().enumerate() {
        let at = board_pos + i;
        let long = |rank: i32| JfenSyntax::RankLong {
            rank: rank as u8 + 1,
        };
        match ch {
            '/' => {
                if file != 7 {
                    let (rank, squares) = (rank as u8 + 1, file);
                    let short = JfenSyntax::RankShort { rank, squares };
                    return Err(err(JfenField::Board, at, short));
                }
                rank -= 1;
                file = 0;
                if rank < 0 {
                    return Err(err(JfenField::Board, at, JfenSyntax::Ranks { n: ranks }));
                }
            }
            '1'..='7' => {
                file += ch as u8 - b'0';
                if file > 7 {
                    return Err(err(JfenField::Board, at, long(rank)));
                }
            }
            _ => {
                let Some(piece) = Piece::from_char(ch) else {
                    let rank = rank as u8 + 1;
                    return Err(err(JfenField::Board, at, JfenSyntax::Char { ch, rank }));
                };
                if file >= 7 {
                    return Err(err(JfenField::Board, at, long(rank)));
                }
                let sq = Square::from_coords(file, rank as u8).expect("checked bounds");
                cells[sq.index()] = Some(piece);
                file += 1;
            }
        }
    }
    let board_end = board_pos + board.chars().count();
    if rank != 0 {
        return Err(err(
            JfenField::Board,
            board_end,
            JfenSyntax::Ranks { n: ranks },
        ));
    }
    if file != 7 {
        let short = JfenSyntax::RankShort {
            rank: 1,
            squares: file,
        };
        return Err(err(JfenField::Board, board_end, short));
    }
    Ok(cells)
}

impl FromStr for Jfen {
    type Err = ParseJfenError;

    fn from_str(text: &str) -> Result<Jfen, ParseJfenError> {
        if text.len() > MAX_JFEN_LEN {
            return Err(err(JfenField::Whole, 0, JfenSyntax::TooLong));
        }
        // Split into fields, remembering each field's character offset.
        let mut fields: Vec<(usize, &str)> = Vec::new();
        let mut start: Option<usize> = None;
        let mut byte_start = 0;
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for (ci, &(bi, ch)) in chars.iter().enumerate() {
            if ch.is_whitespace() {
                if let Some(s) = start.take() {
                    fields.push((s, &text[byte_start..bi]));
                }
            } else if start.is_none() {
                start = Some(ci);
                byte_start = bi;
            }
        }
        if let Some(s) = start {
            fields.push((s, &text[byte_start..]));
        }
        let end = text.chars().count();
        let read_turn = |(at, turn): (usize, &str)| match turn {
            "r" | "R" | "w" | "W" => Ok(Color::Red),
            "b" | "B" => Ok(Color::Blue),
            other => {
                let found = other.to_string();
                Err(err(JfenField::Turn, at, JfenSyntax::Turn { found }))
            }
        };
        // The fields are read in order, so the first one at fault is reported: a text that is
        // not a board (`hello world again`, `/////////`) is told what is wrong with its board,
        // whatever the number of fields; after a valid board, a missing or bad side to move
        // (`<board> 0 1` forgot it, `<board> x 0` has a bad one) before the counters; the
        // number of fields only once the fields before the missing or extra one are right.
        let n = fields.len();
        if n == 0 {
            return Err(err(JfenField::Whole, 0, JfenSyntax::Empty));
        }
        let mut setup = Setup::empty();
        // Board.
        setup.board = read_board(fields[0])?;
        // Side to move.
        if n == 1 {
            return Err(err(JfenField::Turn, end, JfenSyntax::MissingTurn));
        }
        setup.turn = read_turn(fields[1])?;
        // The counters: both or neither.
        if n > 2 {
            let counter = |field: JfenField, (at, text): (usize, &str)| {
                text.parse::<u32>().map_err(|_| {
                    let found = text.to_string();
                    err(field, at, JfenSyntax::Counter { found })
                })
            };
            setup.halfmoves = counter(JfenField::Halfmoves, fields[2])?;
            if n == 3 {
                let missing = JfenSyntax::MissingMoveNumber;
                return Err(err(JfenField::Fullmoves, end, missing));
            }
            setup.fullmoves = counter(JfenField::Fullmoves, fields[3])?;
            if setup.fullmoves == 0 {
                let at = fields[3].0;
                return Err(err(JfenField::Fullmoves, at, JfenSyntax::MoveNumberZero));
            }
        }
        if let Some(&(at, text)) = fields.get(4) {
            let text = text.to_string();
            return Err(err(JfenField::Whole, at, JfenSyntax::ExtraField { text }));
        }
        Ok(Jfen(setup))
    }
}

impl fmt::Display for Jfen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..9u8).rev() {
            let mut empty = 0;
            for file in 0..7u8 {
                let sq = Square::from_coords(file, rank).expect("on board");
                match self.0.board[sq.index()] {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(
            f,
            " {} {} {}",
            self.0.turn.char(),
            self.0.halfmoves,
            self.0.fullmoves
        )
    }
}
