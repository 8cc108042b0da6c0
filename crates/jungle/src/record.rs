//! The PGN-like game record of RULES §10: tag pairs, then movetext and the result.

use crate::{
    Color, Game, GameError, Illegal, Jfen, JfenError, MoveText, ParseMoveError, ParseRulesError,
    Position, Rules, START_JFEN,
};
use std::fmt;
use std::str::FromStr;

/// A game record as text structure: tags, moves as written, and the result token.
///
/// ```
/// use jungle::{GameRecord, Game, Rules};
/// let text = "[Event \"Casual\"]\n[Variant \"standard\"]\n\n1. Rg4 ra6 *\n";
/// let rec: GameRecord = text.parse().unwrap();
/// let game = rec.to_game().unwrap();
/// assert_eq!(game.len(), 2);
/// let again: GameRecord = rec.to_string().parse().unwrap();
/// assert_eq!(again, rec);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// Tag pairs in order, e.g. `("Event", "Casual")`.
    pub tags: Vec<(String, String)>,
    /// The moves as written.
    pub moves: Vec<MoveText>,
    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// An error reading a game record: the line and column (1-based) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRecordError {
    /// Line, 1-based.
    pub line: usize,
    /// Column in characters, 1-based.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid game record at line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseRecordError {}

/// A well-formed record that does not describe a legal game.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordError {
    /// The `[Variant]` tag is not a rule set.
    Variant(ParseRulesError),
    /// The `[FEN]` tag is not a valid position.
    Fen(JfenError),
    /// Move number `index` (1-based ply) is not legal.
    Move {
        /// The ply, 1-based.
        index: usize,
        /// The move as written.
        text: String,
        /// Why (the English text of `why`).
        reason: String,
        /// Why, as data (for a message in the reader's language).
        why: Illegal,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Variant(e) => write!(f, "[Variant] tag: {e}"),
            RecordError::Fen(e) => write!(f, "[FEN] tag: {e}"),
            RecordError::Move {
                index,
                text,
                reason,
                ..
            } => write!(f, "ply {index} `{text}`: {reason}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A tag value as the reader reads it back: on one line, so newlines and other control
/// characters become spaces.
fn tag_value(v: &str) -> String {
    v.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A tag value as written between the quotes: [`tag_value`] with `\` and `"` escaped.
fn escape(v: &str) -> String {
    tag_value(v).replace('\\', "\\\\").replace('"', "\\\"")
}

/// A tag name as the reader reads it: ASCII letters, digits and `_`; any other character
/// becomes `_`, and an empty name is `_`.
fn tag_name(name: &str) -> String {
    if name.is_empty() {
        return "_".into();
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl GameRecord {
    /// The value of tag `name`, if present. `name` is looked up as [`GameRecord::set_tag`]
    /// stores it, so `tag("My Tag")` finds the value set as `My Tag` (stored as `My_Tag`).
    pub fn tag(&self, name: &str) -> Option<&str> {
        let name = tag_name(name);
        self.tags
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing an existing value, otherwise appending).
    ///
    /// The record is kept writable and readable back: a tag name may hold only ASCII letters,
    /// digits and `_`, so any other character of `name` is stored as `_` (`My Tag` becomes
    /// `My_Tag`, an empty name `_`); a value is on one line, so newlines and other control
    /// characters in `value` are stored as spaces.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let name = tag_name(name);
        let value = tag_value(&value.into());
        match self.tags.iter_mut().find(|(k, _)| *k == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name, value)),
        }
    }

    /// Removes tag `name` (looked up as in [`GameRecord::tag`]), returning its value.
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        let name = tag_name(name);
        let i = self.tags.iter().position(|(k, _)| *k == name)?;
        Some(self.tags.remove(i).1)
    }

    /// The record of `game`, with the `Variant`, `FEN` (if not the start) and `Result` tags
    /// filled in, after the given tags; moves in the SAN-like form.
    ///
    /// The `Variant`, `Result` and `FEN` tags always describe `game`: given ones are replaced,
    /// and a given `FEN` is dropped when the game starts from the start position. The given
    /// tags are stored as by [`GameRecord::set_tag`].
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> GameRecord {
        let mut rec = GameRecord::default();
        for (k, v) in tags {
            rec.set_tag(k, *v);
        }
        let result = game.outcome().map_or("*", |o| o.result_str()).to_string();
        rec.set_tag("Result", result.clone());
        rec.set_tag("Variant", game.rules().to_string());
        let start = Jfen::from_position(game.start_position()).to_string();
        if start == START_JFEN {
            rec.remove_tag("FEN");
        } else {
            rec.set_tag("FEN", start);
        }
        if let Some(o) = game.outcome() {
            if rec.tag("Termination").is_none() {
                rec.set_tag("Termination", o.termination.as_str());
            }
        }
        rec.moves = game.sans().into_iter().map(|s| s.0).collect();
        rec.result = result;
        rec
    }

    /// Ends the record with `result` (`1-0`, `0-1`, `1/2-1/2` or `*`) for the reason
    /// `termination`: its `[Result]` and `[Termination]` tags and its result token. For an end
    /// the board does not show (time, resignation, agreement), after [`GameRecord::from_game`].
    pub fn set_result(&mut self, result: &str, termination: &str) {
        self.set_tag("Result", result);
        self.set_tag("Termination", termination);
        self.result = result.to_string();
    }

    /// The rules of the `[Variant]` tag (standard when absent).
    pub fn rules(&self) -> Result<Rules, RecordError> {
        self.tag("Variant").map_or(Ok(Rules::STANDARD), |v| {
            v.parse().map_err(RecordError::Variant)
        })
    }

    /// The start position: the `[FEN]` tag under the `[Variant]` rules, or the start position.
    pub fn start_position(&self) -> Result<Position, RecordError> {
        let rules = self.rules()?;
        match self.tag("FEN") {
            Some(f) => Jfen::parse_position(f, rules).map_err(RecordError::Fen),
            None => Ok(Position::start(rules)),
        }
    }

    /// Replays the record into a game, checking every move.
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let mut game = Game::from_position(self.start_position()?);
        for (i, text) in self.moves.iter().enumerate() {
            let fail = |reason: String, why: Illegal| RecordError::Move {
                index: i + 1,
                text: text.to_string(),
                reason,
                why,
            };
            let m = text
                .to_move(game.position())
                .map_err(|e| fail(e.reason, e.why))?;
            game.play(m)
                .map_err(|GameError { reason, why, .. }| fail(reason, why))?;
        }
        Ok(game)
    }
}

impl FromStr for GameRecord {
    type Err = ParseRecordError;

    fn from_str(text: &str) -> Result<GameRecord, ParseRecordError> {
        let mut rec = GameRecord {
            result: "*".into(),
            ..GameRecord::default()
        };
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        let (mut line, mut col) = (1usize, 1usize);
        let mut result_seen = false;
        macro_rules! bump {
            () => {{
                if chars[i] == '\n' {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
            }};
        }
        let err = |line: usize, column: usize, message: String| ParseRecordError {
            line,
            column,
            message,
        };
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                bump!();
                continue;
            }
            if c == '\u{feff}' {
                bump!();
                continue;
            }
            if c == '[' {
                if !rec.moves.is_empty() || result_seen {
                    return Err(err(line, col, "a tag after the moves".into()));
                }
                let (tl, tc) = (line, col);
                bump!();
                let mut name = String::new();
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    name.push(chars[i]);
                    bump!();
                }
                if name.is_empty() {
                    return Err(err(line, col, "expected a tag name after `[`".into()));
                }
                while i < chars.len() && chars[i].is_whitespace() {
                    bump!();
                }
                if i >= chars.len() || chars[i] != '"' {
                    return Err(err(
                        line,
                        col,
                        format!("expected `\"` to open the value of tag {name}"),
                    ));
                }
                bump!();
                let mut value = String::new();
                loop {
                    if i >= chars.len() {
                        return Err(err(
                            tl,
                            tc,
                            format!("the value of tag {name} is not closed"),
                        ));
                    }
                    match chars[i] {
                        '"' => break,
                        '\\' if i + 1 < chars.len() => {
                            bump!();
                            value.push(chars[i]);
                        }
                        '\n' => {
                            return Err(err(
                                line,
                                col,
                                format!("the value of tag {name} runs past the line end"),
                            ))
                        }
                        ch => value.push(ch),
                    }
                    bump!();
                }
                bump!();
                while i < chars.len()
                    && chars[i] != ']'
                    && chars[i].is_whitespace()
                    && chars[i] != '\n'
                {
                    bump!();
                }
                if i >= chars.len() || chars[i] != ']' {
                    return Err(err(line, col, format!("expected `]` to close tag {name}")));
                }
                bump!();
                rec.tags.push((name, value));
                continue;
            }
            if c == '{' {
                let (cl, cc) = (line, col);
                while i < chars.len() && chars[i] != '}' {
                    bump!();
                }
                if i >= chars.len() {
                    return Err(err(cl, cc, "a comment `{` is not closed".into()));
                }
                bump!();
                continue;
            }
            // A token up to whitespace.
            let (tl, tc) = (line, col);
            let mut tok = String::new();
            while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '{' && chars[i] != '['
            {
                tok.push(chars[i]);
                bump!();
            }
            if result_seen {
                return Err(err(tl, tc, format!("`{tok}` after the result")));
            }
            if matches!(tok.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                rec.result = tok;
                result_seen = true;
                continue;
            }
            // Strip a move number prefix like `12.` or `12...`.
            let digits = tok.chars().take_while(|c| c.is_ascii_digit()).count();
            let mut rest: &str = &tok;
            if digits > 0 && tok[digits..].starts_with('.') {
                rest = tok[digits..].trim_start_matches('.');
            }
            if rest.is_empty() {
                continue;
            }
            let offset = tok.chars().count() - rest.chars().count();
            let mt: MoveText = rest
                .parse()
                .map_err(|e: ParseMoveError| err(tl, tc + offset + e.position, e.message))?;
            rec.moves.push(mt);
        }
        Ok(rec)
    }
}

/// Writes the record as text that [`str::parse`] reads back. Tags are written as
/// [`GameRecord::set_tag`] would store them: a tag name keeps only ASCII letters, digits and `_`
/// (others are written as `_`), and newlines and other control characters in a value are
/// written as spaces (`\` and `"` are escaped). Move numbers follow the `[FEN]` tag's move
/// number and stop at `u32::MAX`, as [`Position`] does.
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            writeln!(f, "[{} \"{}\"]", tag_name(k), escape(v))?;
        }
        if !self.tags.is_empty() {
            writeln!(f)?;
        }
        // Move numbers follow the start position when it can be read; otherwise from 1, Red.
        let (mut number, mut turn) = self
            .tag("FEN")
            .and_then(|t| t.parse::<Jfen>().ok())
            .map_or((1, Color::Red), |j| (j.0.fullmoves, j.0.turn));
        let mut line = String::new();
        let push = |line: &mut String, tok: &str, f: &mut fmt::Formatter<'_>| -> fmt::Result {
            if !line.is_empty() && line.chars().count() + 1 + tok.chars().count() > 79 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(tok);
            Ok(())
        };
        for (i, m) in self.moves.iter().enumerate() {
            if turn == Color::Red {
                push(&mut line, &format!("{number}."), f)?;
            } else if i == 0 {
                push(&mut line, &format!("{number}..."), f)?;
            }
            push(&mut line, &m.to_string(), f)?;
            if turn == Color::Blue {
                number = number.saturating_add(1);
            }
            turn = !turn;
        }
        let result = if self.result.is_empty() {
            "*"
        } else {
            &self.result
        };
        push(&mut line, result, f)?;
        writeln!(f, "{line}")
    }
}
