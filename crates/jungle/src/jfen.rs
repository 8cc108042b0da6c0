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
            JfenField::Whole => "fields",
        })
    }
}

/// A JFEN syntax error: the field and the character position (0-based, in chars) at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseJfenError {
    /// The field at fault.
    pub field: JfenField,
    /// The character offset in the whole text.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseJfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid JFEN ({} field, at character {}): {}",
            self.field,
            self.position + 1,
            self.message
        )
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

fn err(field: JfenField, position: usize, message: impl Into<String>) -> ParseJfenError {
    ParseJfenError {
        field,
        position,
        message: message.into(),
    }
}

impl FromStr for Jfen {
    type Err = ParseJfenError;

    fn from_str(text: &str) -> Result<Jfen, ParseJfenError> {
        if text.len() > 256 {
            return Err(err(JfenField::Whole, 0, "too long to be a JFEN"));
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
        if fields.is_empty() {
            return Err(err(JfenField::Whole, 0, "empty JFEN"));
        }
        if fields.len() == 1 {
            return Err(err(
                JfenField::Turn,
                text.chars().count(),
                "missing the side to move (`r` or `b`)",
            ));
        }
        if fields.len() == 3 {
            return Err(err(
                JfenField::Fullmoves,
                text.chars().count(),
                "missing the move number (give both counters or neither)",
            ));
        }
        if fields.len() > 4 {
            return Err(err(
                JfenField::Whole,
                fields[4].0,
                format!("unexpected extra field `{}`", fields[4].1),
            ));
        }
        let mut setup = Setup::empty();
        // Board.
        let (board_pos, board) = fields[0];
        let mut rank: i32 = 8;
        let mut file: u8 = 0;
        for (i, ch) in board.chars().enumerate() {
            let at = board_pos + i;
            match ch {
                '/' => {
                    if file != 7 {
                        return Err(err(
                            JfenField::Board,
                            at,
                            format!("rank {} has {} squares, expected 7", rank + 1, file),
                        ));
                    }
                    rank -= 1;
                    file = 0;
                    if rank < 0 {
                        return Err(err(JfenField::Board, at, "more than 9 ranks"));
                    }
                }
                '1'..='7' => {
                    file += ch as u8 - b'0';
                    if file > 7 {
                        return Err(err(
                            JfenField::Board,
                            at,
                            format!("rank {} has more than 7 squares", rank + 1),
                        ));
                    }
                }
                _ => {
                    let Some(piece) = Piece::from_char(ch) else {
                        return Err(err(
                            JfenField::Board,
                            at,
                            format!("unexpected `{ch}`: expected an animal letter (ELTPDWCR, uppercase Red, lowercase Blue), a digit 1-7 or `/`"),
                        ));
                    };
                    if file >= 7 {
                        return Err(err(
                            JfenField::Board,
                            at,
                            format!("rank {} has more than 7 squares", rank + 1),
                        ));
                    }
                    let sq = Square::from_coords(file, rank as u8).expect("checked bounds");
                    setup.board[sq.index()] = Some(piece);
                    file += 1;
                }
            }
        }
        if rank != 0 {
            return Err(err(
                JfenField::Board,
                board_pos + board.chars().count(),
                format!("only {} ranks, expected 9", 9 - rank),
            ));
        }
        if file != 7 {
            return Err(err(
                JfenField::Board,
                board_pos + board.chars().count(),
                format!("rank 1 has {file} squares, expected 7"),
            ));
        }
        // Side to move.
        let (turn_pos, turn) = fields[1];
        setup.turn = match turn {
            "r" | "R" | "w" | "W" => Color::Red,
            "b" | "B" => Color::Blue,
            other => {
                return Err(err(
                    JfenField::Turn,
                    turn_pos,
                    format!("expected `r` or `b` (or `w` for Red), found `{other}`"),
                ));
            }
        };
        if fields.len() == 4 {
            let (hp, h) = fields[2];
            setup.halfmoves = h.parse().map_err(|_| {
                err(
                    JfenField::Halfmoves,
                    hp,
                    format!("expected a whole number of plies, found `{h}`"),
                )
            })?;
            let (fp, fm) = fields[3];
            setup.fullmoves = fm.parse().map_err(|_| {
                err(
                    JfenField::Fullmoves,
                    fp,
                    format!("expected a move number, found `{fm}`"),
                )
            })?;
            if setup.fullmoves == 0 {
                return Err(err(JfenField::Fullmoves, fp, "the move number starts at 1"));
            }
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
