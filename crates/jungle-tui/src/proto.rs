//! The WebSocket messages of the server API (`doc/protocol.md`, Server API) as the client sees
//! them: what it reads (leniently, so that a newer server's extra fields do no harm) and what it
//! sends (exactly the documented fields, since the server refuses unknown ones).

use serde::Deserialize;
use serde_json::{json, Value};

/// A message from the server.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    /// After the upgrade: who we are and our live games.
    Welcome {
        /// The account.
        #[serde(default)]
        user: Value,
        /// Ids of our live games.
        #[serde(default)]
        games: Vec<Value>,
    },
    /// Answer to `ping`.
    Pong {},
    /// The open seeks.
    Seeks {
        /// The seeks as sent.
        #[serde(default)]
        seeks: Vec<Value>,
    },
    /// Our seek is open.
    SeekCreated {
        /// Its id.
        id: Value,
    },
    /// Our challenge is open.
    ChallengeCreated {
        /// Its id.
        id: Value,
    },
    /// A whole game state (on start, on `watch`, on reconnect).
    Game {
        /// The state (boxed: it is by far the largest message).
        game: Box<GameState>,
    },
    /// A ply was played.
    Moved {
        /// The game id.
        game: Value,
        /// The ply number (0 = first ply).
        ply: usize,
        /// The move in coordinates (`--` for a pass).
        #[serde(rename = "move")]
        mv: String,
        /// The clocks after the move.
        #[serde(default)]
        clocks: Option<Clocks>,
        /// The timeouts so far.
        #[serde(default)]
        timeouts: Option<Timeouts>,
    },
    /// A draw offer.
    DrawOffered {
        /// The game id.
        game: Value,
        /// `red` or `blue`.
        by: String,
    },
    /// A draw offer was declined.
    DrawDeclined {
        /// The game id.
        game: Value,
        /// The side declining (`red` or `blue`; absent from older servers).
        #[serde(default)]
        by: Option<Side>,
    },
    /// A pending draw offer lapsed because a ply was played (a move of either player or the
    /// server's pass), sent right after that ply's `moved`.
    DrawLapsed {
        /// The game id.
        game: Value,
        /// The side whose offer it was.
        by: Side,
    },
    /// Who is connected.
    Presence {
        /// The game id.
        game: Value,
        /// Red is connected.
        red: bool,
        /// Blue is connected.
        blue: bool,
        /// Of each away seat: the ms left, as of sending, before it loses by disconnect.
        #[serde(default)]
        away_ms: Option<AwayMs>,
    },
    /// The game is over.
    Ended {
        /// The game id.
        game: Value,
        /// The result.
        result: GameResult,
        /// The timeouts at the end (the one that ended a game by timeouts included).
        #[serde(default)]
        timeouts: Option<Timeouts>,
        /// What the game changed for each player (both `null` while the result is not stored
        /// yet: a `changes` message follows once it is).
        #[serde(default)]
        changes: Option<Changes>,
        /// Of an aborted game: the side that aborted it.
        #[serde(default)]
        by: Option<Side>,
    },
    /// What a game changed for its players, once its result was stored after its `ended`.
    Changes {
        /// The game id.
        game: Value,
        /// The changes.
        changes: Changes,
    },
    /// A rematch offer.
    RematchOffered {
        /// The game id.
        game: Value,
        /// `red` or `blue`.
        by: String,
    },
    /// The finished game left the server's memory: no rematch of it from now on.
    RematchClosed {
        /// The game id.
        game: Value,
    },
    /// A refused message.
    Error {
        /// Machine code, e.g. `illegal_move`.
        code: String,
        /// English text for people.
        #[serde(default)]
        message: String,
        /// The type of the refused message.
        #[serde(default)]
        re: Option<String>,
        /// Of an `illegal_move`: why, as data — `code` (the rules library's reason code) and
        /// the facts it names (doc/protocol.md).
        #[serde(default)]
        why: Option<Value>,
    },
    /// Any message this client does not know.
    #[serde(other)]
    Other,
}

impl ServerMsg {
    /// Reads one text frame.
    pub fn parse(text: &str) -> Result<ServerMsg, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// A player of a game.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct PlayerInfo {
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// The AI level when this seat is the AI.
    #[serde(default)]
    pub ai_level: Option<u8>,
}

/// The clocks: remaining game clocks and per-move time, measured when sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub struct Clocks {
    /// Red's game clock in ms.
    #[serde(default)]
    pub red_ms: Option<i64>,
    /// Blue's game clock in ms.
    #[serde(default)]
    pub blue_ms: Option<i64>,
    /// Remaining per-move time of the side to move, in ms.
    #[serde(default)]
    pub move_ms: Option<i64>,
    /// Whose clock runs: `red`, `blue` or none.
    #[serde(default)]
    pub running: Option<Side>,
}

/// A side as the server writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Red.
    Red,
    /// Blue.
    Blue,
}

impl Side {
    /// The rules crate's colour.
    pub fn color(self) -> jungle::Color {
        match self {
            Side::Red => jungle::Color::Red,
            Side::Blue => jungle::Color::Blue,
        }
    }
}

/// Our seat: `red`, `blue`, `both` (hotseat) or none (spectator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// Red.
    Red,
    /// Blue.
    Blue,
    /// Both seats (a hotseat game).
    Both,
}

impl Seat {
    /// Whether this seat plays `c`.
    pub fn plays(self, c: jungle::Color) -> bool {
        matches!(
            (self, c),
            (Seat::Both, _) | (Seat::Red, jungle::Color::Red) | (Seat::Blue, jungle::Color::Blue)
        )
    }
}

/// Timeouts per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub struct Timeouts {
    /// Red's.
    #[serde(default)]
    pub red: u32,
    /// Blue's.
    #[serde(default)]
    pub blue: u32,
}

/// A game result: winner (none for a draw) and reason.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GameResult {
    /// The winner.
    #[serde(default)]
    pub winner: Option<Side>,
    /// `den`, `time`, `resign`, … (doc/protocol.md).
    pub reason: String,
    /// Of an aborted game: the side that aborted it (when the server kept it).
    #[serde(default)]
    pub by: Option<Side>,
}

/// What a finished game changed for each player (`null` for an AI seat, for both seats of a
/// hot-seat game, and for both while the result is not stored yet).
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
pub struct Changes {
    /// Red's.
    #[serde(default)]
    pub red: Option<Change>,
    /// Blue's.
    #[serde(default)]
    pub blue: Option<Change>,
}

impl Changes {
    /// The change of `c`'s player.
    pub fn of(&self, c: jungle::Color) -> Option<Change> {
        match c {
            jungle::Color::Red => self.red,
            jungle::Color::Blue => self.blue,
        }
    }
}

/// A player's standing before and after a game.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
#[serde(default)]
#[allow(missing_docs)] // named as in doc/protocol.md
pub struct Change {
    pub score_before: i64,
    pub score_after: i64,
    pub level_before: i64,
    pub level_after: i64,
    pub coins_before: i64,
    pub coins_after: i64,
    pub rating_before: f64,
    pub rating_after: f64,
}

/// One played move of a game state.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct MoveEntry {
    /// Coordinates.
    #[serde(rename = "move")]
    pub mv: String,
}

/// Connection state of the seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Presence {
    /// Red is connected.
    pub red: bool,
    /// Blue is connected.
    pub blue: bool,
}

/// Of each seat whose player is away from a live game: the ms left, as of sending, before the
/// reconnect grace runs out and the game is lost by disconnect (null for a present seat).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct AwayMs {
    /// Red's.
    pub red: Option<i64>,
    /// Blue's.
    pub blue: Option<i64>,
}

/// The whole state of a game.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GameState {
    /// The id (kept as the server wrote it and sent back as is).
    pub id: Value,
    /// Red's player.
    #[serde(default)]
    pub red: PlayerInfo,
    /// Blue's player.
    #[serde(default)]
    pub blue: PlayerInfo,
    /// Our seat.
    #[serde(default)]
    pub you: Option<Seat>,
    /// The rule set (RULES §9).
    #[serde(default)]
    pub rules: Option<String>,
    /// The time control.
    #[serde(default)]
    pub tc: Option<TimeControl>,
    /// The start position (JFEN).
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The moves played.
    #[serde(default)]
    pub moves: Vec<MoveEntry>,
    /// The clocks.
    #[serde(default)]
    pub clocks: Option<Clocks>,
    /// The timeouts.
    #[serde(default)]
    pub timeouts: Option<Timeouts>,
    /// `live` or `finished`.
    #[serde(default)]
    pub status: String,
    /// The result, once finished.
    #[serde(default)]
    pub result: Option<GameResult>,
    /// Who offers a draw.
    #[serde(default)]
    pub draw_offer: Option<Side>,
    /// Connection state of the seats.
    #[serde(default)]
    pub presence: Option<Presence>,
    /// The reconnect grace left to each away seat (absent from older servers).
    #[serde(default)]
    pub away_ms: Option<AwayMs>,
    /// What a finished game changed for its players (null while live, and while its result is
    /// not stored yet).
    #[serde(default)]
    pub changes: Option<Changes>,
    /// Of a finished game: whether a rematch can still be asked for or accepted (absent from
    /// older servers).
    #[serde(default)]
    pub rematch_open: Option<bool>,
}

/// An open seek of the lobby (one of `seeks`), as far as this client reads it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct OpenSeek {
    /// Its owner's name.
    #[serde(default)]
    pub user: String,
    /// The time control it waits for.
    pub tc: TimeControl,
    /// Its rule set (RULES §9).
    #[serde(default = "standard_rules")]
    pub rules: String,
}

fn standard_rules() -> String {
    "standard".to_string()
}

impl OpenSeek {
    /// The seeks of a `seeks` message that this client can read (others are left out).
    pub fn read_all(seeks: &[Value]) -> Vec<OpenSeek> {
        seeks
            .iter()
            .filter_map(|s| OpenSeek::deserialize(s).ok())
            .collect()
    }
}

/// A time control: game clock, increment and per-move limit in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct TimeControl {
    /// Game clock per player (0 = none).
    pub clock_s: u32,
    /// Fischer increment.
    pub inc_s: u32,
    /// Per-move limit (0 = none).
    pub move_s: u32,
}

impl TimeControl {
    /// The JSON object of the protocol.
    pub fn to_json(self) -> Value {
        json!({"clock_s": self.clock_s, "inc_s": self.inc_s, "move_s": self.move_s})
    }
}

impl std::fmt::Display for TimeControl {
    /// `600+0/60`, the `[TimeControl]` form of RULES §10 (what its `FromStr` reads).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}/{}", self.clock_s, self.inc_s, self.move_s)
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `600+0/60` (the `[TimeControl]` form of RULES §10): clock, increment, per-move limit.
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad =
            || format!("time control `{s}`: expected CLOCK+INC/MOVE in seconds, e.g. 600+0/60");
        let (clock, rest) = s.split_once('+').ok_or_else(bad)?;
        let (inc, mv) = rest.split_once('/').ok_or_else(bad)?;
        let n = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
        Ok(TimeControl {
            clock_s: n(clock)?,
            inc_s: n(inc)?,
            move_s: n(mv)?,
        })
    }
}

/// Messages the client sends.
pub mod send {
    use super::*;

    /// `quick`: accept the matching seek closest in rating or open one.
    pub fn quick(tc: TimeControl) -> Value {
        json!({"t": "quick", "tc": tc.to_json()})
    }

    /// `lobby`: the open seeks now (`seeks`) and again on every change.
    pub fn lobby() -> Value {
        json!({"t": "lobby"})
    }

    /// `play_ai`: a casual game against the server's AI.
    pub fn play_ai(level: u8, color: &str, tc: TimeControl) -> Value {
        json!({"t": "play_ai", "level": level, "color": color, "tc": tc.to_json()})
    }

    /// `play_hotseat`: both seats at this keyboard.
    pub fn play_hotseat(tc: TimeControl, rules: &str) -> Value {
        json!({"t": "play_hotseat", "tc": tc.to_json(), "rules": rules})
    }

    /// `watch`: the game's state now and every update after.
    pub fn watch(game: &Value) -> Value {
        json!({"t": "watch", "game": game})
    }

    /// `watch` for a game id typed by a person.
    pub fn watch_id(id: &str) -> Value {
        watch(&Value::String(id.to_string()))
    }

    /// `move`: play `mv` as ply number `ply`.
    pub fn play(game: &Value, ply: usize, mv: &str) -> Value {
        json!({"t": "move", "game": game, "ply": ply, "move": mv})
    }

    /// A message that names only the game: `resign`, `draw_offer`, `draw_accept`,
    /// `takeback`, `rematch`, …
    pub fn about(t: &str, game: &Value) -> Value {
        json!({"t": t, "game": game})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_lapsed_draw_offer_and_changes_that_come_late() {
        let m = ServerMsg::parse(r#"{"t":"draw_lapsed","game":"g1","by":"blue"}"#).unwrap();
        assert_eq!(
            m,
            ServerMsg::DrawLapsed {
                game: json!("g1"),
                by: Side::Blue
            }
        );
        let text = r#"{"t":"changes","game":"g1","changes":{"red":{"score_before":10,
            "score_after":12,"level_before":2,"level_after":2,"coins_before":100,
            "coins_after":100,"rating_before":1500.0,"rating_after":1512.0},"blue":null}}"#;
        let ServerMsg::Changes { game, changes } = ServerMsg::parse(text).unwrap() else {
            panic!("not read as changes")
        };
        assert_eq!(game, json!("g1"));
        let red = changes.of(jungle::Color::Red).expect("Red's change");
        assert_eq!((red.score_before, red.score_after), (10, 12));
        assert_eq!(red.rating_after, 1512.0);
        assert_eq!(changes.of(jungle::Color::Blue), None);
        // `ended` without them, as a server does while the database is away.
        let text = r#"{"t":"ended","game":"g1","result":{"winner":"red","reason":"den"},
            "changes":{"red":null,"blue":null},"timeouts":{"red":0,"blue":0}}"#;
        let ServerMsg::Ended { changes, .. } = ServerMsg::parse(text).unwrap() else {
            panic!("not read as ended")
        };
        assert_eq!(changes, Some(Changes::default()));
    }

    #[test]
    fn reads_the_documented_game_state() {
        let text = r#"{"t":"game","game":{"id":"g42","red":{"name":"Guest-1","ai_level":null,
            "rating":1500,"level":1,"guest":true},"blue":{"name":"AI","ai_level":3,"rating":1500,
            "level":1,"guest":false},"you":"red","rated":false,
            "tc":{"clock_s":600,"inc_s":0,"move_s":60},"rules":"standard",
            "start_fen":"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
            "moves":[{"move":"g3g4","san":"Rg4"}],"ply":1,"turn":"blue",
            "fen":"l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b 1 1","legal":["a7a6"],
            "clocks":{"red_ms":598000,"blue_ms":600000,"move_ms":60000,"running":"blue"},
            "timeouts":{"red":0,"blue":1},"status":"live","result":null,"draw_offer":null,
            "presence":{"red":true,"blue":true}}}"#;
        let ServerMsg::Game { game } = ServerMsg::parse(text).unwrap() else {
            panic!("not a game message")
        };
        assert_eq!(game.id, json!("g42"));
        assert_eq!(game.you, Some(Seat::Red));
        assert_eq!(game.blue.ai_level, Some(3));
        assert_eq!(game.moves[0].mv, "g3g4");
        let c = game.clocks.unwrap();
        assert_eq!((c.red_ms, c.running), (Some(598000), Some(Side::Blue)));
        assert_eq!(game.timeouts.unwrap().blue, 1);
    }

    #[test]
    fn reads_moved_ended_error_and_ignores_unknown_types() {
        let m = ServerMsg::parse(
            r#"{"t":"moved","game":7,"ply":0,"move":"g3g4","san":"Rg4","fen":"x",
            "clocks":{"red_ms":1,"blue_ms":2,"move_ms":3,"running":"blue"},
            "timeouts":{"red":0,"blue":0},"legal":[],"last_move_at":5}"#,
        )
        .unwrap();
        assert!(matches!(m, ServerMsg::Moved { ply: 0, ref mv, .. } if mv == "g3g4"));
        let e = ServerMsg::parse(
            r#"{"t":"ended","game":7,"result":{"winner":null,"reason":"agreed"},"changes":{}}"#,
        )
        .unwrap();
        assert!(
            matches!(e, ServerMsg::Ended { ref result, .. } if result.winner.is_none() && result.reason == "agreed")
        );
        let err =
            ServerMsg::parse(r#"{"t":"error","code":"illegal_move","message":"no","re":"move"}"#)
                .unwrap();
        assert!(matches!(err, ServerMsg::Error { ref code, .. } if code == "illegal_move"));
        assert_eq!(
            ServerMsg::parse(r#"{"t":"something_new","x":1}"#).unwrap(),
            ServerMsg::Other
        );
        assert!(ServerMsg::parse("not json").is_err());
    }

    #[test]
    fn sends_exactly_the_documented_fields() {
        let tc: TimeControl = "600+0/60".parse().unwrap();
        assert_eq!(
            send::play(&json!("g1"), 3, "g3g4"),
            json!({"t":"move","game":"g1","ply":3,"move":"g3g4"})
        );
        assert_eq!(
            send::quick(tc),
            json!({"t":"quick","tc":{"clock_s":600,"inc_s":0,"move_s":60}})
        );
        assert_eq!(send::play_ai(4, "blue", tc)["level"], json!(4));
        assert_eq!(
            send::about("resign", &json!(5)),
            json!({"t":"resign","game":5})
        );
        assert!("600"
            .parse::<TimeControl>()
            .unwrap_err()
            .contains("600+0/60"));
    }
}
