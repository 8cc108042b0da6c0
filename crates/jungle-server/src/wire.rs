//! The JSON shapes of doc/protocol.md (Server API): client messages, server messages and the
//! objects inside them.

use crate::ids::{GameId, SeekId};
use jungle::{Color, Illegal};
use serde::{Deserialize, Serialize};

/// The name of a colour on the wire.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

/// A time control in seconds (0 = none), as sent by clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Game clock per player (局时), seconds.
    pub clock_s: u32,
    /// Fischer increment, seconds.
    #[serde(default)]
    pub inc_s: u32,
    /// Per-move limit (步时), seconds.
    #[serde(default)]
    pub move_s: u32,
}

impl TimeControl {
    /// Checks the bounds: clock ≤ 3 h, increment ≤ 60 s, per-move limit ≤ 10 min.
    pub fn validate(&self) -> Result<(), String> {
        if self.clock_s > 3 * 3600 {
            return Err("clock_s must be at most 10800".into());
        }
        if self.inc_s > 60 {
            return Err("inc_s must be at most 60".into());
        }
        if self.move_s > 600 {
            return Err("move_s must be at most 600".into());
        }
        if self.clock_s == 0 && self.inc_s > 0 {
            return Err("an increment needs a game clock".into());
        }
        Ok(())
    }

    /// In milliseconds.
    pub fn to_ms(self) -> crate::store::TcMs {
        crate::store::TcMs {
            clock_ms: i64::from(self.clock_s) * 1000,
            inc_ms: i64::from(self.inc_s) * 1000,
            move_ms: i64::from(self.move_s) * 1000,
        }
    }

    /// From milliseconds.
    pub fn from_ms(tc: crate::store::TcMs) -> TimeControl {
        TimeControl {
            clock_s: (tc.clock_ms / 1000) as u32,
            inc_s: (tc.inc_ms / 1000) as u32,
            move_s: (tc.move_ms / 1000) as u32,
        }
    }

    /// The `[TimeControl]` tag of a record: `600+5/60`.
    pub fn tag(self) -> String {
        format!("{}+{}/{}", self.clock_s, self.inc_s, self.move_s)
    }
}

/// The named time controls of `GET /api/presets`.
pub fn presets() -> Vec<(&'static str, TimeControl)> {
    let tc = |clock_s, inc_s, move_s| TimeControl {
        clock_s,
        inc_s,
        move_s,
    };
    vec![
        ("bullet", tc(60, 1, 15)),
        ("blitz", tc(300, 3, 30)),
        ("rapid", tc(600, 5, 60)),
        ("classical", tc(1800, 10, 120)),
        ("untimed", tc(0, 0, 0)),
    ]
}

/// A colour choice for challenges and AI games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// Red (moves first).
    Red,
    /// Blue.
    Blue,
    /// Chosen at random.
    #[default]
    Random,
}

impl ColorChoice {
    /// Its wire name: `red`, `blue` or `random`.
    pub fn as_str(self) -> &'static str {
        match self {
            ColorChoice::Red => "red",
            ColorChoice::Blue => "blue",
            ColorChoice::Random => "random",
        }
    }

    /// The colour, drawing one for `Random`.
    pub fn pick(self) -> Color {
        match self {
            ColorChoice::Red => Color::Red,
            ColorChoice::Blue => Color::Blue,
            ColorChoice::Random => {
                if rand::random::<bool>() {
                    Color::Red
                } else {
                    Color::Blue
                }
            }
        }
    }
}

/// A message from a client (field `t`). Unknown fields are refused.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)]
pub enum ClientMsg {
    Ping {},
    Lobby {},
    Seek {
        tc: TimeControl,
        rated: bool,
        #[serde(default)]
        rules: Option<String>,
    },
    CancelSeek {
        id: SeekId,
    },
    AcceptSeek {
        id: SeekId,
    },
    Quick {
        tc: TimeControl,
    },
    Challenge {
        tc: TimeControl,
        rated: bool,
        #[serde(default)]
        color: Option<ColorChoice>,
    },
    AcceptChallenge {
        id: SeekId,
    },
    PlayAi {
        /// Any integer is read, so that one out of range is answered `bad_request` (1 to 10),
        /// not `bad_json`.
        level: i64,
        #[serde(default)]
        color: Option<ColorChoice>,
        #[serde(default)]
        tc: Option<TimeControl>,
    },
    PlayHotseat {
        #[serde(default)]
        tc: Option<TimeControl>,
        #[serde(default)]
        rules: Option<String>,
    },
    Watch {
        game: GameId,
    },
    Unwatch {
        game: GameId,
    },
    Move {
        game: GameId,
        ply: u32,
        #[serde(rename = "move")]
        mv: String,
    },
    DrawOffer {
        game: GameId,
    },
    DrawAccept {
        game: GameId,
    },
    DrawDecline {
        game: GameId,
    },
    Resign {
        game: GameId,
    },
    Abort {
        game: GameId,
    },
    Leave {
        game: GameId,
    },
    Takeback {
        game: GameId,
    },
    Rematch {
        game: GameId,
    },
}

/// A player as shown in a game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerInfo {
    /// Name (for an AI seat, `AI level N`).
    pub name: String,
    /// The AI level of an AI seat.
    pub ai_level: Option<u8>,
    /// Glicko-2 rating at the start of the game.
    pub rating: f64,
    /// Level at the start of the game.
    pub level: i64,
    /// A guest account.
    pub guest: bool,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// `red`, `blue` or null for a draw/abort.
    pub winner: Option<&'static str>,
    /// Why (see doc/protocol.md).
    pub reason: String,
    /// Of an aborted game: the side that aborted it (absent when not known: games aborted
    /// before the server kept it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<&'static str>,
}

/// The clocks at the moment of sending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// Red's game clock (ms); null without a game clock.
    pub red_ms: Option<i64>,
    /// Blue's game clock.
    pub blue_ms: Option<i64>,
    /// Per-move time left to the side to move; null without a limit.
    pub move_ms: Option<i64>,
    /// Whose clock runs.
    pub running: Option<&'static str>,
}

/// A pair of values by colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RedBlue<T> {
    /// Red's.
    pub red: T,
    /// Blue's.
    pub blue: T,
}

/// One played ply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    /// Coordinate form.
    #[serde(rename = "move")]
    pub mv: String,
    /// SAN-like form.
    pub san: String,
}

/// The full state of a game (`game` message, `GET /api/games/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(missing_docs)]
pub struct GameState {
    pub id: GameId,
    pub red: PlayerInfo,
    pub blue: PlayerInfo,
    pub you: Option<&'static str>,
    pub rated: bool,
    pub tc: TimeControl,
    pub rules: String,
    pub start_fen: String,
    pub moves: Vec<MoveEntry>,
    pub ply: usize,
    pub turn: &'static str,
    pub fen: String,
    pub legal: Vec<String>,
    /// The moves the position allows but §7 forbids, each with why ([`forbidden_moves`]).
    pub forbidden: serde_json::Map<String, serde_json::Value>,
    pub clocks: Clocks,
    pub timeouts: RedBlue<u32>,
    pub status: &'static str,
    pub result: Option<GameResult>,
    pub draw_offer: Option<&'static str>,
    /// Of a finished game: the side that asked for a rematch not yet answered.
    pub rematch_offer: Option<&'static str>,
    /// Of a finished game: its rematch has started.
    pub rematched: bool,
    /// Of a finished game: a rematch can still be asked for or accepted (the game is over, has
    /// no rematch yet, and is still in the server's memory: 2 minutes after its end).
    pub rematch_open: bool,
    /// Of a finished game: each player's standing before and after it, as `ended` told them
    /// (`{"red": Change|null, "blue": Change|null}`); null while live, or when not stored yet.
    pub changes: Option<serde_json::Value>,
    pub presence: RedBlue<bool>,
    /// Per seat: of a player away from a live game, the ms (as of sending, like `clocks`) until
    /// their reconnect grace runs out and they lose by disconnect; null for a present seat.
    pub away_ms: RedBlue<Option<i64>>,
}

/// An error message to a WebSocket client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WsError {
    /// The code of doc/protocol.md.
    pub code: &'static str,
    /// English text for people.
    pub message: String,
    /// Of an `illegal_move` the rules explain: why, as data (sent as `why`).
    pub why: Option<Illegal>,
}

impl WsError {
    /// An error with a code and message.
    pub fn new(code: &'static str, message: impl Into<String>) -> WsError {
        WsError {
            code,
            message: message.into(),
            why: None,
        }
    }

    /// An `illegal_move` refusal with the rules' reason: its English text as the message, and
    /// as data for clients to say in their language.
    pub fn illegal(why: Illegal) -> WsError {
        WsError {
            code: "illegal_move",
            message: why.to_string(),
            why: Some(why),
        }
    }

    /// This error with the client's `inputs` that its message repeats [`cut_echoes`].
    pub fn cut_echoes(mut self, inputs: &[&str]) -> WsError {
        self.message = cut_echoes(&self.message, inputs);
        self
    }

    /// The JSON of this error, answering a message of type `re`. Control and bidi characters of
    /// the message and of `re` are escaped ([`sanitize`]): only a client's text can hold them.
    pub fn to_json(&self, re: &str) -> String {
        let message = sanitize(&self.message, usize::MAX);
        // `re` is the `t` a client sent (cut before): escaped the same way.
        let re = sanitize(re, usize::MAX);
        let mut v = serde_json::json!({
            "t": "error", "code": self.code, "message": message, "re": re
        });
        if let Some(why) = &self.why {
            v["why"] = why_json(why);
        }
        v.to_string()
    }
}

/// How many characters of a client's text an error message repeats ([`quote`], [`cut_echoes`]).
pub const ECHO_CHARS: usize = 80;

/// Whether `c` is to be escaped where a client's text is repeated: a control character (NUL,
/// ESC, a newline…), a bidi control (U+202E and the like: they reorder the text after them,
/// the server's words included) or a line or paragraph separator.
fn escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
                | '\u{2028}' | '\u{2029}'
        )
}

/// `text` shortened to its first `max` characters (`…` marks a cut), with control and bidi
/// characters escaped as `\u{202e}`, so that it can be repeated in a message whatever it held
/// (as the engine protocol does with what it is sent).
pub fn sanitize(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` in backticks, [`sanitize`]d to [`ECHO_CHARS`] characters: the form in which error
/// messages name what a client sent.
pub fn quote(text: &str) -> String {
    format!("`{}`", sanitize(text, ECHO_CHARS))
}

/// `message` (made by other code, such as a parser's error) with each of the client's `inputs`
/// it repeats, as it is or as Rust writes a string literal (`"…"`, as serde does), cut to
/// [`ECHO_CHARS`] characters with control and bidi characters escaped ([`sanitize`]).
pub fn cut_echoes(message: &str, inputs: &[&str]) -> String {
    let mut inputs: Vec<&str> = inputs
        .iter()
        .copied()
        .filter(|s| s.chars().nth(ECHO_CHARS).is_some() || s.chars().any(escaped))
        .collect();
    // The longest first: a shorter one may be part of it.
    inputs.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let mut out = message.to_string();
    for s in inputs {
        let cut: String = s.chars().take(ECHO_CHARS).collect();
        let more = if cut.len() < s.len() { "…" } else { "" };
        out = out.replace(&format!("{s:?}"), &format!("{cut:?}{more}"));
        out = out.replace(s, &sanitize(s, ECHO_CHARS));
    }
    sanitize(&out, usize::MAX)
}

/// The message of a `bad_json` refusal of `text`: serde's error, which may repeat the strings
/// of `text` (an unknown `t` or field, a string where a number goes), with each of them cut
/// ([`cut_echoes`]).
pub fn bad_json_message(e: &serde_json::Error, text: &str) -> String {
    fn strings<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
        match v {
            serde_json::Value::String(s) => out.push(s),
            serde_json::Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
            serde_json::Value::Object(fields) => {
                for (k, v) in fields {
                    out.push(k);
                    strings(v, out);
                }
            }
            _ => {}
        }
    }
    // Text that is not JSON is refused without repeating it.
    let value = serde_json::from_str::<serde_json::Value>(text).unwrap_or_default();
    let mut inputs = Vec::new();
    strings(&value, &mut inputs);
    cut_echoes(&format!("bad message: {e}"), &inputs)
}

/// The moves of `game`'s position that its history forbids (§7: the 7-3, 17-5 and repetition
/// rules), each with why as [`why_json`] writes it: `{"g4g5": {"code": "rule_7_3", …}}`, so that
/// a client can explain a move it does not offer. Empty once the game is over.
pub fn forbidden_moves(game: &jungle::Game) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    if game.outcome().is_some() {
        return out;
    }
    for m in &game.position().legal_moves() {
        if let Some(why) = game.history_forbids(*m) {
            out.insert(m.to_string(), why_json(&why));
        }
    }
    out
}

/// Why a move is not allowed, as the protocol sends it: `{"code": …, <facts as strings>}`
/// (doc/protocol.md).
pub fn why_json(why: &Illegal) -> serde_json::Value {
    coded_json(why.code(), why.params())
}

/// What makes a position invalid, as the protocol sends it: `{"code": …, <facts as strings>}`
/// in the shape of [`why_json`] (doc/protocol.md).
pub fn problem_json(problem: &jungle::PositionProblem) -> serde_json::Value {
    coded_json(problem.code(), problem.params())
}

/// What makes a text not JFEN, as the protocol sends it: `{"code": …, <facts as strings>}` in the
/// shape of [`why_json`] (doc/protocol.md).
pub fn syntax_json(e: &jungle::ParseJfenError) -> serde_json::Value {
    coded_json(e.code(), e.params())
}

/// `{"code": code, <each fact>}`.
fn coded_json(code: &str, facts: Vec<(&'static str, String)>) -> serde_json::Value {
    let mut w = serde_json::Map::new();
    w.insert("code".into(), code.into());
    for (name, value) in facts {
        w.insert(name.into(), value.into());
    }
    w.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_are_strict() {
        let m: ClientMsg =
            serde_json::from_str(r#"{"t":"move","game":"abc","ply":3,"move":"g3g4"}"#).unwrap();
        assert!(matches!(m, ClientMsg::Move { ply: 3, .. }));
        assert!(serde_json::from_str::<ClientMsg>(
            r#"{"t":"move","game":"abc","ply":3,"move":"g3g4","x":1}"#
        )
        .is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"{"t":"nope"}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"{"t":"ping","extra":true}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(
            r#"{"t":"move","game":"a/b","ply":3,"move":"g3g4"}"#
        )
        .is_err());
        let s: ClientMsg = serde_json::from_str(
            r#"{"t":"seek","tc":{"clock_s":300,"inc_s":3,"move_s":30},"rated":true}"#,
        )
        .unwrap();
        assert!(matches!(s, ClientMsg::Seek { rated: true, .. }));
    }

    #[test]
    fn client_text_is_repeated_cut_and_escaped() {
        assert_eq!(
            sanitize("a\u{0}\u{1b}\u{202e}\u{2067}b", 80),
            r"a\u{0}\u{1b}\u{202e}\u{2067}b"
        );
        assert_eq!(sanitize("中文 é", 80), "中文 é");
        assert_eq!(sanitize("abcdef", 3), "abc…");
        assert_eq!(quote(&"x".repeat(100)), format!("`{}…`", "x".repeat(80)));
        // The text as it is, and as serde writes a string.
        let long = "y".repeat(4000);
        let m = format!("cannot read move `{long}` (at character 9): too long for a move");
        assert_eq!(
            cut_echoes(&m, &[&long, "g3g4"]),
            format!(
                "cannot read move `{}…` (at character 9): too long for a move",
                "y".repeat(80)
            )
        );
        let m = format!(
            "invalid type: string {:?}, expected u32",
            format!("\u{0}{long}")
        );
        assert_eq!(
            cut_echoes(&m, &[&format!("\u{0}{long}")]),
            format!(
                r#"invalid type: string "\0{}"…, expected u32"#,
                "y".repeat(79)
            )
        );
        // Short plain text is left alone; the message's own words too.
        assert_eq!(cut_echoes("unknown field `x`", &["x"]), "unknown field `x`");
        // A backtick in the text does not hide the rest of it.
        let tricky = format!("`{long}");
        let m = format!("unknown variant `{tricky}`, expected `ping`");
        assert_eq!(
            cut_echoes(&m, &[&tricky]),
            format!("unknown variant ``{}…`, expected `ping`", "y".repeat(79))
        );
    }

    #[test]
    fn bad_json_messages_repeat_the_strings_sent_cut() {
        let long = "z".repeat(3000);
        let text = format!(r#"{{"t":"{long}\u202e"}}"#);
        let e = serde_json::from_str::<ClientMsg>(&text).unwrap_err();
        let m = bad_json_message(&e, &text);
        assert!(
            m.starts_with(&format!(
                "bad message: unknown variant `{}…`, expected one of `ping`",
                "z".repeat(80)
            )),
            "{m}"
        );
        let e = serde_json::from_str::<ClientMsg>("{nope").unwrap_err();
        assert_eq!(bad_json_message(&e, "{nope"), format!("bad message: {e}"));
    }

    #[test]
    fn error_messages_never_carry_raw_control_or_bidi_characters() {
        let e = WsError::new("not_found", "invalid id `a\u{202e}b\u{0}`");
        let v: serde_json::Value = serde_json::from_str(&e.to_json("watch")).unwrap();
        assert_eq!(v["message"], r"invalid id `a\u{202e}b\u{0}`");
    }

    #[test]
    fn time_controls_are_bounded() {
        let tc = |c, i, m| TimeControl {
            clock_s: c,
            inc_s: i,
            move_s: m,
        };
        assert!(tc(600, 5, 60).validate().is_ok());
        assert!(tc(0, 0, 0).validate().is_ok());
        assert!(tc(100_000, 0, 0).validate().is_err());
        assert!(tc(0, 5, 0).validate().is_err());
        assert_eq!(tc(600, 5, 60).tag(), "600+5/60");
        assert_eq!(TimeControl::from_ms(tc(600, 5, 60).to_ms()), tc(600, 5, 60));
    }
}
