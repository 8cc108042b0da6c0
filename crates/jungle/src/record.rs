//! The PGN-like game record of RULES §10: tag pairs, then movetext and the result.

use crate::{
    Color, Game, GameError, Illegal, Jfen, JfenError, MoveText, Outcome, ParseMoveError,
    ParseRulesError, Position, Rules, START_JFEN,
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
    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*` (see [`GameRecord::set_result`]). Any
    /// other value is written as the `[Result]` tag's result, or `*` (see the `Display`
    /// implementation), and refused by [`GameRecord::to_game`].
    pub result: String,
}

/// The results a record may end with (RULES §10): Red wins, Blue wins, a draw, unknown or
/// unfinished.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Whether `s` is one of [`RESULTS`].
fn is_result(s: &str) -> bool {
    RESULTS.contains(&s)
}

/// An error reading a game record: the line and column (1-based) and what is wrong, in English
/// (`message`) and as data (`kind`, for a message in the reader's language).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRecordError {
    /// Line, 1-based.
    pub line: usize,
    /// Column in characters, 1-based.
    pub column: usize,
    /// What is wrong (the English text of `kind`).
    pub message: String,
    /// What is wrong, as data.
    pub kind: ParseRecordErrorKind,
}

/// What is wrong with a game record's text ([`ParseRecordError::kind`]); its English text is
/// [`ParseRecordError::message`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseRecordErrorKind {
    /// A tag after the moves or the result.
    TagAfterMoves,
    /// `[` without a tag name after it.
    NoTagName,
    /// A tag name without `"` to open its value.
    TagValueNotOpened {
        /// The tag's name.
        tag: String,
    },
    /// A tag's value not closed before the end of the text.
    TagValueNotClosed {
        /// The tag's name.
        tag: String,
    },
    /// A tag's value running past the end of its line.
    TagValuePastLineEnd {
        /// The tag's name.
        tag: String,
    },
    /// A tag's value without `]` after it.
    TagNotClosed {
        /// The tag's name.
        tag: String,
    },
    /// A `[Result]` tag whose value is not `1-0`, `0-1`, `1/2-1/2` or `*`.
    ResultTagNotAResult {
        /// The tag's value.
        value: String,
    },
    /// A `[Result]` tag that disagrees with an earlier one.
    ResultTagsDisagree {
        /// This tag's value.
        value: String,
        /// The earlier tag's value.
        first: String,
        /// The earlier tag's line, 1-based.
        line: usize,
        /// The earlier tag's column, 1-based.
        column: usize,
    },
    /// A comment `{` not closed.
    CommentNotClosed,
    /// Text after the result token.
    AfterResult {
        /// The token after the result.
        token: String,
    },
    /// The result token after the moves disagrees with the `[Result]` tag.
    ResultDisagreesWithTag {
        /// The result token.
        result: String,
        /// The `[Result]` tag's value.
        tag: String,
        /// The tag's line, 1-based.
        line: usize,
        /// The tag's column, 1-based.
        column: usize,
    },
    /// A token of the movetext that is not a move (the error's column is where in it).
    BadMove(ParseMoveError),
}

impl fmt::Display for ParseRecordErrorKind {
    /// The English text ([`ParseRecordError::message`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseRecordErrorKind as K;
        match self {
            K::TagAfterMoves => f.write_str("a tag after the moves"),
            K::NoTagName => f.write_str("expected a tag name after `[`"),
            K::TagValueNotOpened { tag } => {
                write!(f, "expected `\"` to open the value of tag {tag}")
            }
            K::TagValueNotClosed { tag } => write!(f, "the value of tag {tag} is not closed"),
            K::TagValuePastLineEnd { tag } => {
                write!(f, "the value of tag {tag} runs past the line end")
            }
            K::TagNotClosed { tag } => write!(f, "expected `]` to close tag {tag}"),
            K::ResultTagNotAResult { value } => write!(
                f,
                "the [Result] tag `{value}` is not a result (1-0, 0-1, 1/2-1/2 or *)"
            ),
            K::ResultTagsDisagree {
                value,
                first,
                line,
                column,
            } => write!(
                f,
                "the [Result] tag `{value}` disagrees with the [Result] tag `{first}` at line {line}, column {column}"
            ),
            K::CommentNotClosed => f.write_str("a comment `{` is not closed"),
            K::AfterResult { token } => write!(f, "`{token}` after the result"),
            K::ResultDisagreesWithTag {
                result,
                tag,
                line,
                column,
            } => write!(
                f,
                "the result `{result}` disagrees with the [Result] tag `{tag}` at line {line}, column {column}"
            ),
            K::BadMove(e) => f.write_str(&e.message),
        }
    }
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
    /// A result that is not `1-0`, `0-1`, `1/2-1/2` or `*`: given to
    /// [`GameRecord::set_result`], or in the record's `result` field or `[Result]` tag.
    InvalidResult {
        /// The value given.
        value: String,
    },
    /// The `[Result]` tag and the result after the moves disagree.
    ResultTagMismatch {
        /// The `[Result]` tag's value.
        tag: String,
        /// The result after the moves.
        result: String,
    },
    /// The moves end the game on the board (RULES §6: a den entered, a side wiped out, no legal
    /// move, the no-capture draw) with another result than the record's.
    BoardResultMismatch {
        /// The number of plies after which the game ended.
        plies: usize,
        /// How the board ended it.
        outcome: Outcome,
        /// The record's result.
        result: String,
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
            RecordError::InvalidResult { value } => write!(
                f,
                "`{value}` is not a result (1-0, 0-1, 1/2-1/2 or *)"
            ),
            RecordError::ResultTagMismatch { tag, result } => write!(
                f,
                "the [Result] tag `{tag}` disagrees with the result `{result}` after the moves"
            ),
            RecordError::BoardResultMismatch {
                plies,
                outcome,
                result,
            } => write!(
                f,
                "the game ended on the board after {plies} {} ({outcome}: {}), but the record's result is `{result}`",
                if *plies == 1 { "ply" } else { "plies" },
                outcome.result_str()
            ),
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
    /// and a given `FEN` is dropped when the game starts from the start position. The result is
    /// the board's (`*` while the game goes on; an end the board does not show is added with
    /// [`GameRecord::set_result`]). When the game has ended on the board (RULES §6), the
    /// `Termination` tag is the board's too (`den`, `wipeout`, `no-moves`, `draw-plies`),
    /// replacing a given one: the board's end wins over the caller's tags. The given tags are
    /// stored as by [`GameRecord::set_tag`].
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
            rec.set_tag("Termination", o.termination.as_str());
        }
        rec.moves = game.sans().into_iter().map(|s| s.0).collect();
        rec.result = result;
        rec
    }

    /// Ends the record with `result` (`1-0`, `0-1`, `1/2-1/2` or `*`) for the reason
    /// `termination`: its `[Result]` and `[Termination]` tags and its result token. For an end
    /// the board does not show (time, resignation, agreement), after [`GameRecord::from_game`].
    ///
    /// When the record's moves end the game on the board (RULES §6), only the board's result is
    /// taken, and the `[Termination]` tag stays the board's, as [`GameRecord::from_game`]
    /// writes it (`termination` is not used). A record that does not replay
    /// ([`GameRecord::to_game`] fails) is not checked against the board.
    ///
    /// # Errors
    ///
    /// Refused, the record left unchanged:
    /// - a `result` that is not one of the four: [`RecordError::InvalidResult`];
    /// - another result than the board's, when the moves end the game on the board:
    ///   [`RecordError::BoardResultMismatch`] (the board's end stands).
    pub fn set_result(&mut self, result: &str, termination: &str) -> Result<(), RecordError> {
        if !is_result(result) {
            return Err(RecordError::InvalidResult {
                value: result.to_string(),
            });
        }
        let ended = self
            .replay()
            .ok()
            .and_then(|g| g.outcome().map(|o| (g.len(), o)));
        match ended {
            Some((plies, outcome)) if outcome.result_str() != result => {
                Err(RecordError::BoardResultMismatch {
                    plies,
                    outcome,
                    result: result.to_string(),
                })
            }
            Some((_, outcome)) => {
                self.set_tag("Result", result);
                self.set_tag("Termination", outcome.termination.as_str());
                self.result = result.to_string();
                Ok(())
            }
            None => {
                self.set_tag("Result", result);
                self.set_tag("Termination", termination);
                self.result = result.to_string();
                Ok(())
            }
        }
    }

    /// The result the record's text ends with: the `result` field if it is a result, else the
    /// first `[Result]` tag that is one, else `*`.
    fn written_result(&self) -> &str {
        if is_result(&self.result) {
            return &self.result;
        }
        self.tags
            .iter()
            .find(|(k, v)| k == "Result" && is_result(v))
            .map_or("*", |(_, v)| v.as_str())
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

    /// Replays the record into a game, checking every move, and checks its result: the result
    /// token must be `1-0`, `0-1`, `1/2-1/2` or `*` and agree with every `[Result]` tag, and
    /// when the moves end the game on the board (RULES §6: a den entered, a side wiped out, no
    /// legal move, the no-capture draw) it must be the board's. A game that has not ended on
    /// the board may carry any result (time, resignation, agreement, or `*`).
    ///
    /// An empty `result` (as in [`GameRecord::default`]) is read as the `[Result]` tag's, or
    /// `*`, as the record's text would say it.
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let game = self.replay()?;
        let result = if self.result.is_empty() {
            self.written_result()
        } else {
            self.result.as_str()
        };
        if !is_result(result) {
            return Err(RecordError::InvalidResult {
                value: result.to_string(),
            });
        }
        for (_, tag) in self.tags.iter().filter(|(k, _)| k == "Result") {
            if !is_result(tag) {
                return Err(RecordError::InvalidResult { value: tag.clone() });
            }
            if tag != result {
                return Err(RecordError::ResultTagMismatch {
                    tag: tag.clone(),
                    result: result.to_string(),
                });
            }
        }
        if let Some(outcome) = game.outcome() {
            if outcome.result_str() != result {
                return Err(RecordError::BoardResultMismatch {
                    plies: game.len(),
                    outcome,
                    result: result.to_string(),
                });
            }
        }
        Ok(game)
    }

    /// Replays the record's moves from its start position, checking every move (not the result).
    fn replay(&self) -> Result<Game, RecordError> {
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

/// Reads a record's text. Tag values are read as [`GameRecord::set_tag`] stores them: `\`
/// escapes the next character, and control characters (a tab, an escaped newline, …) become
/// spaces, so that the text [`GameRecord`]'s `Display` writes reads back the same.
///
/// The result is checked as far as the text goes (the board is checked by
/// [`GameRecord::to_game`]): a `[Result]` tag must be `1-0`, `0-1`, `1/2-1/2` or `*`, and
/// every `[Result]` tag and the result token after the moves must agree (the error is at the
/// later one and names both, with the line and column of the other). Without a result token,
/// the result is the `[Result]` tag's, or `*`.
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
        // The first `[Result]` tag: its value, line and column.
        let mut result_tag: Option<(String, usize, usize)> = None;
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
        let err = |line: usize, column: usize, kind: ParseRecordErrorKind| ParseRecordError {
            line,
            column,
            message: kind.to_string(),
            kind,
        };
        use ParseRecordErrorKind as K;
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
                    return Err(err(line, col, K::TagAfterMoves));
                }
                let (tl, tc) = (line, col);
                bump!();
                let mut name = String::new();
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    name.push(chars[i]);
                    bump!();
                }
                if name.is_empty() {
                    return Err(err(line, col, K::NoTagName));
                }
                while i < chars.len() && chars[i].is_whitespace() {
                    bump!();
                }
                if i >= chars.len() || chars[i] != '"' {
                    return Err(err(line, col, K::TagValueNotOpened { tag: name }));
                }
                bump!();
                let mut value = String::new();
                loop {
                    if i >= chars.len() {
                        return Err(err(tl, tc, K::TagValueNotClosed { tag: name }));
                    }
                    match chars[i] {
                        '"' => break,
                        '\\' if i + 1 < chars.len() => {
                            bump!();
                            value.push(chars[i]);
                        }
                        '\n' => return Err(err(line, col, K::TagValuePastLineEnd { tag: name })),
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
                    return Err(err(line, col, K::TagNotClosed { tag: name }));
                }
                bump!();
                // Control characters (a tab, DEL, an escaped newline) become spaces, as
                // `set_tag` stores them.
                let value = tag_value(&value);
                if name == "Result" {
                    if !is_result(&value) {
                        return Err(err(tl, tc, K::ResultTagNotAResult { value }));
                    }
                    match &result_tag {
                        Some((first, fl, fc)) if *first != value => {
                            return Err(err(
                                tl,
                                tc,
                                K::ResultTagsDisagree {
                                    value,
                                    first: first.clone(),
                                    line: *fl,
                                    column: *fc,
                                },
                            ))
                        }
                        Some(_) => {}
                        None => result_tag = Some((value.clone(), tl, tc)),
                    }
                }
                rec.tags.push((name, value));
                continue;
            }
            if c == '{' {
                let (cl, cc) = (line, col);
                while i < chars.len() && chars[i] != '}' {
                    bump!();
                }
                if i >= chars.len() {
                    return Err(err(cl, cc, K::CommentNotClosed));
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
                return Err(err(tl, tc, K::AfterResult { token: tok }));
            }
            if is_result(&tok) {
                if let Some((tag, rl, rc)) = result_tag.as_ref().filter(|(t, ..)| *t != tok) {
                    return Err(err(
                        tl,
                        tc,
                        K::ResultDisagreesWithTag {
                            result: tok,
                            tag: tag.clone(),
                            line: *rl,
                            column: *rc,
                        },
                    ));
                }
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
                .map_err(|e: ParseMoveError| err(tl, tc + offset + e.position, K::BadMove(e)))?;
            rec.moves.push(mt);
        }
        if let (false, Some((tag, ..))) = (result_seen, result_tag) {
            rec.result = tag;
        }
        Ok(rec)
    }
}

/// Writes the record as text that [`str::parse`] reads back. Tags are written as
/// [`GameRecord::set_tag`] would store them: a tag name keeps only ASCII letters, digits and `_`
/// (others are written as `_`), and newlines and other control characters in a value are
/// written as spaces (`\` and `"` are escaped). Move numbers follow the `[FEN]` tag's move
/// number and stop at `u32::MAX`, as [`Position`] does.
///
/// The result token is the `result` field when it is `1-0`, `0-1`, `1/2-1/2` or `*`;
/// otherwise (a value set in the public field) the first `[Result]` tag that is a result, or
/// `*`. Every `[Result]` tag is written as that token, so the two always agree.
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = self.written_result();
        for (k, v) in &self.tags {
            let name = tag_name(k);
            let v = if name == "Result" { result } else { v };
            writeln!(f, "[{name} \"{}\"]", escape(v))?;
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
        push(&mut line, result, f)?;
        writeln!(f, "{line}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each fault of a record's text (RULES §10) has its kind as data, and its English message
    /// is the kind's text, as it always was.
    #[test]
    fn every_fault_of_a_records_text_has_a_kind_and_its_english_message() {
        use ParseRecordErrorKind as K;
        let tag = |t: &str| t.to_string();
        let cases: Vec<(&str, K, &str)> =
            vec![
            ("1. Rg4 [Event \"x\"]", K::TagAfterMoves, "a tag after the moves"),
            ("[ \"x\"]", K::NoTagName, "expected a tag name after `[`"),
            (
                "[Event x]",
                K::TagValueNotOpened { tag: tag("Event") },
                "expected `\"` to open the value of tag Event",
            ),
            (
                "[Event \"x",
                K::TagValueNotClosed { tag: tag("Event") },
                "the value of tag Event is not closed",
            ),
            (
                "[Event \"x\n\"]",
                K::TagValuePastLineEnd { tag: tag("Event") },
                "the value of tag Event runs past the line end",
            ),
            (
                "[Event \"x\" y",
                K::TagNotClosed { tag: tag("Event") },
                "expected `]` to close tag Event",
            ),
            (
                "[Result \"2-0\"]",
                K::ResultTagNotAResult { value: tag("2-0") },
                "the [Result] tag `2-0` is not a result (1-0, 0-1, 1/2-1/2 or *)",
            ),
            (
                "[Result \"1-0\"]\n[Result \"0-1\"]",
                K::ResultTagsDisagree {
                    value: tag("0-1"),
                    first: tag("1-0"),
                    line: 1,
                    column: 1,
                },
                "the [Result] tag `0-1` disagrees with the [Result] tag `1-0` at line 1, column 1",
            ),
            ("1. Rg4 {x", K::CommentNotClosed, "a comment `{` is not closed"),
            (
                "1. Rg4 * Ra6",
                K::AfterResult { token: tag("Ra6") },
                "`Ra6` after the result",
            ),
            (
                "[Result \"1-0\"]\n\n1. Rg4 *",
                K::ResultDisagreesWithTag {
                    result: tag("*"),
                    tag: tag("1-0"),
                    line: 1,
                    column: 1,
                },
                "the result `*` disagrees with the [Result] tag `1-0` at line 1, column 1",
            ),
        ];
        for (text, kind, message) in cases {
            let e = text.parse::<GameRecord>().unwrap_err();
            assert_eq!(e.kind, kind, "{text:?}");
            assert_eq!(e.message, message, "{text:?}");
            assert_eq!(e.kind.to_string(), message, "{text:?}");
        }
        // A token that is not a move: the move reader's error, at its character.
        let e = "1. Rg4 Zz9 *".parse::<GameRecord>().unwrap_err();
        let K::BadMove(m) = &e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(m.text, "Zz9");
        assert_eq!(e.message, m.message);
        assert_eq!((e.line, e.column), (1, 8));
        assert_eq!(
            e.to_string(),
            format!("invalid game record at line 1, column 8: {}", m.message)
        );
    }
}
